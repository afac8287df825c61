/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/util.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#include "resample.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "util.h"

/* resampling via FIR filter, blackman window; from "Signal Processing
 * Algorithms in Fortran and C", S.D. Stearns and R.A. David, Prentice-Hall,
 * 1992 */
static inline float blackman(float x, float fcn, int l)
{
    float bkwn, x2;
    float const wcn = (PI * fcn);

    x /= l;
    if (x < 0)
        x = 0;
    if (x > 1)
        x = 1;
    x2 = x - .5;

    bkwn = 0.42 - 0.5 * cos(2 * x * PI) + 0.08 * cos(4 * x * PI);
    if (fabs(x2) < 1e-9)
        return wcn / PI;
    else
        return (bkwn * sin(l * wcn * x2) / (PI * l * x2));
}

/* greatest common divisor */
static int gcd(int i, int j)
{
    return j ? gcd(j, i % j) : i;
}

static int fill_buffer_resample(ct_mp3_state *gfc, float *outbuf, int desired_len,
                                const float *inbuf, int len, int *num_used, int ch)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_enc_state *esv = &gfc->sv_enc;
    double resample_ratio = (double) cfg->samplerate_in / (double) cfg->samplerate_out;
    int BLACKSIZE;
    float offset, xvalue;
    int i, j = 0, k;
    int filter_l;
    float fcn, intratio;
    float *inbuf_old;
    int bpc; /* number of convolution functions to pre-compute */
    bpc = cfg->samplerate_out / gcd(cfg->samplerate_out, cfg->samplerate_in);
    if (bpc > BPC)
        bpc = BPC;

    intratio = (fabs(resample_ratio - floor(.5 + resample_ratio)) < FLT_EPSILON);
    fcn = 1.00 / resample_ratio;
    if (fcn > 1.00)
        fcn = 1.00;
    filter_l = 31;        /* must be odd */
    filter_l += intratio; /* unless resample_ratio=int, it must be even */

    BLACKSIZE = filter_l + 1; /* size of data needed for FIR */

    if (gfc->fill_buffer_resample_init == 0) {
        memset(esv->inbuf_old, 0, sizeof(esv->inbuf_old));
        memset(esv->blackfilt, 0, sizeof(esv->blackfilt));

        esv->itime[0] = 0;
        esv->itime[1] = 0;

        /* precompute blackman filter coefficients */
        for (j = 0; j <= 2 * bpc; j++) {
            float sum = 0.;
            offset = (j - bpc) / (2. * bpc);
            for (i = 0; i <= filter_l; i++)
                sum += esv->blackfilt[j][i] = blackman(i - offset, fcn, filter_l);
            for (i = 0; i <= filter_l; i++)
                esv->blackfilt[j][i] /= sum;
        }
        gfc->fill_buffer_resample_init = 1;
    }

    inbuf_old = esv->inbuf_old[ch];

    /* time of j'th element in inbuf = itime + j/ifreq; */
    /* time of k'th element in outbuf = j/ofreq */
    for (k = 0; k < desired_len; k++) {
        double time0 = k * resample_ratio; /* time of k'th output sample */
        int joff;

        j = floor(time0 - esv->itime[ch]);

        /* check if we need more input data */
        if ((filter_l + j - filter_l / 2) >= len)
            break;

        /* blackman filter. by default, window centered at j+.5(filter_l%2),
         * but we want a window centered at time0. */
        offset = (time0 - esv->itime[ch] - (j + .5 * (filter_l % 2)));

        /* find the closest precomputed window for this offset: */
        joff = floor((offset * 2 * bpc) + bpc + .5);

        xvalue = 0.;
        for (i = 0; i <= filter_l; ++i) {
            int const j2 = i + j - filter_l / 2;
            float y;
            y = (j2 < 0) ? inbuf_old[BLACKSIZE + j2] : inbuf[j2];
            xvalue += y * esv->blackfilt[joff][i];
        }
        outbuf[k] = xvalue;
    }

    /* k = number of samples added to outbuf; last k sample used data from
     * [j-filter_l/2,j+filter_l-filter_l/2] */

    /* how many samples of input data were used: */
    *num_used = len < filter_l + j - filter_l / 2 ? len : filter_l + j - filter_l / 2;

    /* adjust our input time counter. Increment by the number of samples
     * used, then normalize so that next output sample is at time 0, next
     * input buffer is at time itime[ch] */
    esv->itime[ch] += *num_used - k * resample_ratio;

    /* save the last BLACKSIZE samples into the inbuf_old buffer */
    if (*num_used >= BLACKSIZE) {
        for (i = 0; i < BLACKSIZE; i++)
            inbuf_old[i] = inbuf[*num_used + i - BLACKSIZE];
    }
    else {
        /* shift in *num_used samples into inbuf_old */
        int const n_shift = BLACKSIZE - *num_used; /* number of samples to shift */

        /* shift n_shift samples by *num_used, to make room for the num_used
         * new samples */
        for (i = 0; i < n_shift; ++i)
            inbuf_old[i] = inbuf_old[i + *num_used];

        /* shift in the *num_used samples */
        for (j = 0; i < BLACKSIZE; ++i, ++j)
            inbuf_old[i] = inbuf[j];
    }
    return k; /* the number of samples created at the new samplerate */
}

int ct_mp3_is_resampling_necessary(const ct_mp3_config *cfg)
{
    int const l = cfg->samplerate_out * 0.9995f;
    int const h = cfg->samplerate_out * 1.0005f;
    return (cfg->samplerate_in < l) || (h < cfg->samplerate_in) ? 1 : 0;
}

void ct_mp3_fill_buffer(ct_mp3_state *gfc, float *const mfbuf[2],
                        const float *const in_buffer[2], int nsamples,
                        int *n_in, int *n_out)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    int mf_size = gfc->sv_enc.mf_size;
    int framesize = 576 * cfg->mode_gr;
    int nout, ch = 0;
    int nch = cfg->channels_out;

    /* copy in new samples into mfbuf, with resampling if necessary */
    if (ct_mp3_is_resampling_necessary(cfg)) {
        do {
            nout = fill_buffer_resample(gfc, &mfbuf[ch][mf_size], framesize,
                                        in_buffer[ch], nsamples, n_in, ch);
        } while (++ch < nch);
        *n_out = nout;
    }
    else {
        nout = framesize < nsamples ? framesize : nsamples;
        do {
            memcpy(&mfbuf[ch][mf_size], &in_buffer[ch][0], nout * sizeof(mfbuf[0][0]));
        } while (++ch < nch);
        *n_out = nout;
        *n_in = nout;
    }
}
