/*
 * The CELT encoder's signal stage and front end: pre-emphasis, the pitch
 * prefilter, transient analysis and the MDCTs. Float build, standard mode.
 *
 * Ports celt/celt_encoder.c (celt_preemphasis, run_prefilter,
 * transient_analysis, patch_transient_decision, compute_mdcts) of libopus
 * 1.3.1. The fixed/float macros are written out as the float build
 * expands them, with their float/double promotions.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "celt_encoder_internal.h"
#include "celt_signal.h"
#include "comb_filter.h"
#include "mathops.h"
#include "mdct.h"
#include "pitch.h"

/* transient_analysis' three filters of channel c's samples x (ct: two
 * channels at a time, in the same loop, so that their chains overlap; each
 * channel's operations are the reference's, in its order): the high-pass
 * into tmp, then in place the forward and the backward masking, with the
 * forward pass' energy sum and the backward pass' maximum */
static void transient_filters(const float *restrict x[], int channels, int len,
                              float forward_decay,
                              float tmp[][CT_CELT_MAX_N + CT_CELT_OVERLAP],
                              float mean[], float maxE[])
{
    const int len2 = len / 2;
    float mem0[2] = {0, 0}, mem1[2] = {0, 0};
    int i, c;

    /* High-pass filter: (1 - 2*z^-1 + z^-2) / (1 - z^-1 + .5*z^-2) */
    for (i = 0; i < len; i++) {
        for (c = 0; c < channels; c++) {
            float v, y;
            v = x[c][i];
            y = mem0[c] + v;
            mem0[c] = mem1[c] + y - 2 * v;
            mem1[c] = v - .5f * y;
            tmp[c][i] = y;
        }
    }
    for (c = 0; c < channels; c++) {
        /* First few samples are bad because we don't propagate the memory */
        memset(tmp[c], 0, 12 * sizeof(*tmp[c]));
        mean[c] = 0;
        mem0[c] = 0;
    }
    /* Grouping by two to reduce complexity */
    /* Forward pass to compute the post-echo threshold*/
    for (i = 0; i < len2; i++) {
        for (c = 0; c < channels; c++) {
            float x2 = (float)tmp[c][2 * i] * (float)tmp[c][2 * i] +
                       (float)tmp[c][2 * i + 1] * (float)tmp[c][2 * i + 1];
            mean[c] += x2;
            tmp[c][i] = mem0[c] + forward_decay * (x2 - mem0[c]);
            mem0[c] = tmp[c][i];
        }
    }
    for (c = 0; c < channels; c++) {
        mem0[c] = 0;
        maxE[c] = 0;
    }
    /* Backward pass to compute the pre-echo threshold */
    for (i = len2 - 1; i >= 0; i--) {
        for (c = 0; c < channels; c++) {
            /* Backward masking: 13.9 dB/ms. */
            tmp[c][i] = mem0[c] + 0.125f * (tmp[c][i] - mem0[c]);
            mem0[c] = tmp[c][i];
            maxE[c] = CT_MAX16(maxE[c], mem0[c]);
        }
    }
}

int ct_celt_transient_analysis(const float *restrict in, int len, int C,
                               float *tf_estimate, int *tf_chan,
                               int allow_weak_transients, int *weak_transient)
{
    int i;
    float tmp[2][CT_CELT_MAX_N + CT_CELT_OVERLAP];
    float means[2], maxEs[2];
    int is_transient = 0;
    int32_t mask_metric = 0;
    int c;
    float tf_max;
    int len2;
    /* Forward masking: 6.7 dB/ms. */
    float forward_decay = .0625f;
    /* Table of 6*64/x, trained on real data to minimize the average error */
    static const unsigned char inv_table[128] = {
        255, 255, 156, 110, 86, 70, 59, 51, 45, 40, 37, 33, 31, 28, 26, 25,
        23,  22,  21,  20,  19, 18, 17, 16, 16, 15, 15, 14, 13, 13, 12, 12,
        12,  12,  11,  11,  11, 10, 10, 10, 9,  9,  9,  9,  9,  9,  8,  8,
        8,   8,   8,   7,   7,  7,  7,  7,  7,  6,  6,  6,  6,  6,  6,  6,
        6,   6,   6,   6,   6,  6,  6,  6,  6,  5,  5,  5,  5,  5,  5,  5,
        5,   5,   5,   5,   5,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,
        4,   4,   4,   4,   4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  3,  3,
        3,   3,   3,   3,   3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  3,  2,
    };

    *weak_transient = 0;
    /* For lower bitrates, let's be more conservative and have a forward masking
       decay of 3.3 dB/ms. This avoids having to code transients at very low
       bitrate (mostly for hybrid), which can result in unstable energy and/or
       partial collapse. */
    if (allow_weak_transients)
        forward_decay = .03125f;
    len2 = len / 2;
    for (c = 0; c < C; c++) {
        float mean;
        int32_t unmask = 0;
        float norm;
        float maxE;
        const float *t;
        if (c % 2 == 0) {
            const int pair = C - c >= 2 ? 2 : 1;
            const float *x[2] = {in + c * len, in + (c + pair - 1) * len};
            transient_filters(x, pair, len, forward_decay, tmp, means, maxEs);
        }
        t = tmp[c % 2];
        mean = means[c % 2];
        maxE = maxEs[c % 2];

        /* Compute the ratio of the "frame energy" over the harmonic mean of the
           energy. This essentially corresponds to a bitrate-normalized temporal
           noise-to-mask ratio */

        /* As a compromise with the old transient detector, frame energy is the
           geometric mean of the energy and half the max */
        mean = ct_celt_sqrt(mean * maxE * .5 * len2);
        /* Inverse of the mean energy in Q15+6 */
        norm = len2 / (CT_EPSILON + mean);
        /* Compute harmonic mean discarding the unreliable boundaries
           The data is smooth, so we only take 1/4th of the samples */
        unmask = 0;
        for (i = 12; i < len2 - 5; i += 4) {
            int id;
            /* Do not round to nearest */
            id = (int)CT_MAX32(
                0, CT_MIN32(127, floor(64 * norm * (t[i] + CT_EPSILON))));
            unmask += inv_table[id];
        }
        /* Normalize, compensate for the 1/4th of the sample and the factor of 6
           in the inverse table */
        unmask = 64 * unmask * 4 / (6 * (len2 - 17));
        if (unmask > mask_metric) {
            *tf_chan = c;
            mask_metric = unmask;
        }
    }
    is_transient = mask_metric > 200;
    /* For low bitrates, define "weak transients" that need to be
       handled differently to avoid partial collapse. */
    if (allow_weak_transients && is_transient && mask_metric < 600) {
        is_transient = 0;
        *weak_transient = 1;
    }
    /* Arbitrary metric for VBR boost */
    tf_max = CT_MAX16(0, ct_celt_sqrt(27 * mask_metric) - 42);
    /* *tf_estimate = 1 + MIN16(1, sqrt(MAX16(0, tf_max-30))/20); the
       constants 0.0069 and 0.139 are doubles in the reference */
    *tf_estimate = ct_celt_sqrt(
        CT_MAX32(0, (float)0.0069 * (float)CT_MIN16(163, tf_max) - 0.139));
    return is_transient;
}

/* Looks for sudden increases of energy to decide whether we need to patch
   the transient decision */
int ct_celt_patch_transient_decision(float *newE, float *oldE, int nbEBands,
                                     int start, int end, int C)
{
    int i, c;
    float mean_diff = 0;
    float spread_old[26];
    /* Apply an aggressive (-6 dB/Bark) spreading function to the old frame to
       avoid false detection caused by irrelevant bands */
    if (C == 1) {
        spread_old[start] = oldE[start];
        for (i = start + 1; i < end; i++)
            spread_old[i] = CT_MAX16(spread_old[i - 1] - 1.0f, oldE[i]);
    } else {
        spread_old[start] = CT_MAX16(oldE[start], oldE[start + nbEBands]);
        for (i = start + 1; i < end; i++)
            spread_old[i] = CT_MAX16(spread_old[i - 1] - 1.0f,
                                     CT_MAX16(oldE[i], oldE[i + nbEBands]));
    }
    for (i = end - 2; i >= start; i--)
        spread_old[i] = CT_MAX16(spread_old[i], spread_old[i + 1] - 1.0f);
    /* Compute mean increase */
    c = 0;
    do {
        for (i = CT_IMAX(2, start); i < end - 1; i++) {
            float x1, x2;
            x1 = CT_MAX16(0, newE[i + c * nbEBands]);
            x2 = CT_MAX16(0, spread_old[i]);
            mean_diff = mean_diff + CT_MAX16(0, x1 - x2);
        }
    } while (++c < C);
    mean_diff = mean_diff / (float)(C * (end - 1 - CT_IMAX(2, start)));
    return mean_diff > 1.f;
}

/** Apply window and compute the MDCT for all sub-frames and
    all channels in a frame */
void ct_celt_compute_mdcts(const ct_celt_mode *mode, int shortBlocks,
                           float *restrict in, float *restrict out, int C,
                           int CC, int LM, int upsample, const ct_opus_dsp *dsp)
{
    const int overlap = mode->overlap;
    int N;
    int B;
    int shift;
    int i, b, c;
    if (shortBlocks) {
        B = shortBlocks;
        N = mode->shortMdctSize;
        shift = mode->maxLM;
    } else {
        B = 1;
        N = mode->shortMdctSize << LM;
        shift = mode->maxLM - LM;
    }
    c = 0;
    do {
        for (b = 0; b < B; b++) {
            /* Interleaving the sub-frames while doing the MDCTs */
            ct_clt_mdct_forward(&mode->mdct, in + c * (B * N + overlap) + b * N,
                                &out[b + c * N * B], mode->window, overlap,
                                shift, B, dsp);
        }
    } while (++c < CC);
    if (CC == 2 && C == 1) {
        for (i = 0; i < B * N; i++)
            out[i] = .5f * out[i] + .5f * out[B * N + i];
    }
    if (upsample != 1) {
        c = 0;
        do {
            int bound = B * N / upsample;
            for (i = 0; i < bound; i++)
                out[c * B * N + i] *= upsample;
            memset(&out[c * B * N + bound], 0, (B * N - bound) * sizeof(*out));
        } while (++c < C);
    }
}

void ct_celt_preemphasis(const float *restrict pcmp, float *restrict inp, int N,
                         int CC, int upsample, const float *coef, float *mem,
                         int clip)
{
    int i;
    float coef0;
    float m;
    int Nu;

    coef0 = coef[0];
    m = *mem;

    /* Fast path for the normal 48kHz case and no clipping */
    if (coef[1] == 0 && upsample == 1 && !clip) {
        /* ct: m is coef0 times the sample before, so each sample's sum
           reads only the input (and the loop vectorises) */
        if (N > 0) {
            inp[0] = pcmp[0] * CT_CELT_SIG_SCALE - m;
            for (i = 1; i < N; i++)
                inp[i] = pcmp[CC * i] * CT_CELT_SIG_SCALE -
                         (float)coef0 * (pcmp[CC * (i - 1)] * CT_CELT_SIG_SCALE);
            m = (float)coef0 * (pcmp[CC * (N - 1)] * CT_CELT_SIG_SCALE);
        }
        *mem = m;
        return;
    }

    Nu = N / upsample;
    if (upsample != 1)
        memset(inp, 0, N * sizeof(*inp));
    for (i = 0; i < Nu; i++)
        inp[i * upsample] = pcmp[CC * i] * CT_CELT_SIG_SCALE;

    if (clip) {
        /* Clip input to avoid encoding non-portable files */
        for (i = 0; i < Nu; i++)
            inp[i * upsample] =
                CT_MAX32(-65536.f, CT_MIN32(65536.f, inp[i * upsample]));
    }
    /* The standard mode's coef[1] is 0: no second pre-emphasis stage. */
    for (i = 0; i < N; i++) {
        float x;
        x = inp[i];
        /* Apply pre-emphasis */
        inp[i] = x - m;
        m = (float)coef0 * (float)x;
    }
    *mem = m;
}

int ct_celt_prefilter_decide(const float *pitch_buf, int N,
                             const ct_celt_signal_params *params,
                             int prev_period, float prev_gain,
                             int analysis_valid, float max_pitch_ratio,
                             int *pitch, float *gain, int *qgain,
                             const ct_opus_dsp *dsp)
{
    int pitch_index = *pitch;
    float gain1;
    float pf_threshold;
    int pf_on;
    int qg;
    enum {
        MAXP = CT_CELT_COMBFILTER_MAXPERIOD,
        MINP = CT_CELT_COMBFILTER_MINPERIOD
    };

    if (params->enabled) {
        gain1 = ct_celt_remove_doubling(pitch_buf, MAXP, MINP, N, &pitch_index,
                                        prev_period, prev_gain, dsp);
        if (pitch_index > MAXP - 2)
            pitch_index = MAXP - 2;
        gain1 = .7f * gain1;
        if (params->loss_rate > 2)
            gain1 = .5f * gain1;
        if (params->loss_rate > 4)
            gain1 = .5f * gain1;
        if (params->loss_rate > 8)
            gain1 = 0;
    } else {
        gain1 = 0;
        pitch_index = MINP;
    }
    if (analysis_valid)
        gain1 = (float)(gain1 * max_pitch_ratio);
    /* Gain threshold for enabling the prefilter/postfilter */
    pf_threshold = .2f;

    /* Adjusting the threshold based on rate and continuity */
    if (abs(pitch_index - prev_period) * 10 > pitch_index)
        pf_threshold += .2f;
    if (params->avail_below25)
        pf_threshold += .1f;
    if (params->avail_below35)
        pf_threshold += .1f;
    if (prev_gain > .4f)
        pf_threshold -= .1f;
    if (prev_gain > .55f)
        pf_threshold -= .1f;

    /* Hard threshold at 0.2 */
    pf_threshold = CT_MAX16(pf_threshold, .2f);
    if (gain1 < pf_threshold) {
        gain1 = 0;
        pf_on = 0;
        qg = 0;
    } else {
        /*This block is not gated by a total bits check only because
          of the nbAvailableBytes check above.*/
        if (CT_ABS16(gain1 - prev_gain) < .1f)
            gain1 = prev_gain;

        qg = (int)floor(.5f + gain1 * 32 / 3) - 1;
        qg = CT_IMAX(0, CT_IMIN(7, qg));
        gain1 = 0.09375f * (qg + 1);
        pf_on = 1;
    }
    *gain = gain1;
    *pitch = pitch_index;
    *qgain = qg;
    return pf_on;
}

void ct_celt_prefilter_comb(float *in, const float *pre, float *in_mem,
                            int prev_period, float prev_gain, int prev_tapset,
                            int pitch_index, float gain, int tapset, int N,
                            const ct_celt_mode *mode, const ct_opus_dsp *dsp)
{
    const int overlap = mode->overlap;
    /* In the standard mode the overlap is the short MDCT's size (the
       reference's offset, shortMdctSize - overlap, is 0: no filtering at the
       old period before the cross-fade). */
    memcpy(in, in_mem, overlap * sizeof(float));
    ct_celt_comb_filter(in + overlap, pre + CT_CELT_COMBFILTER_MAXPERIOD,
                        prev_period, pitch_index, N, -prev_gain, -gain,
                        prev_tapset, tapset, mode->window, overlap, dsp);
    memcpy(in_mem, in + N, overlap * sizeof(float));
}

int ct_celt_run_prefilter(ct_celt_encoder *st, float *in, float *prefilter_mem,
                          int CC, int N, int prefilter_tapset, int *pitch,
                          float *gain, int *qgain, int enabled,
                          int nbAvailableBytes, ct_analysis_info *analysis)
{
    int c;
    float _pre[CT_CELT_MAX_CHANNELS *
               (CT_CELT_MAX_N + CT_CELT_COMBFILTER_MAXPERIOD)];
    float *pre[2];
    const ct_celt_mode *mode;
    int pitch_index;
    float gain1;
    int pf_on;
    int qg;
    int overlap;
    ct_celt_signal_params params;
    enum {
        MAXP = CT_CELT_COMBFILTER_MAXPERIOD,
        MINP = CT_CELT_COMBFILTER_MINPERIOD
    };

    mode = st->mode;
    overlap = mode->overlap;

    pre[0] = _pre;
    pre[1] = _pre + (N + MAXP);

    c = 0;
    do {
        memcpy(pre[c], prefilter_mem + c * MAXP, MAXP * sizeof(float));
        memcpy(pre[c] + MAXP, in + c * (N + overlap) + overlap,
               N * sizeof(float));
    } while (++c < CC);

    memset(&params, 0, sizeof(params));
    params.tapset = prefilter_tapset;
    params.enabled = enabled;
    params.avail_below25 = nbAvailableBytes < 25;
    params.avail_below35 = nbAvailableBytes < 35;
    params.loss_rate = st->loss_rate;
    /* ct: the frame ring's Signal node may have computed all of it on this
       very input and state */
    if (ct_celt_signal_take_prefilter(st->signal_offer, st->signal_tally, st, pre, in,
                                      prefilter_mem, CC, N, &params, analysis,
                                      pitch, gain, qgain, &pf_on))
        return pf_on;

    {
        float pitch_buf[(MAXP + CT_CELT_MAX_N) >> 1];

        pitch_index = MINP;
        /* ct: the frame ring's Signal node may have computed the search on
           this very input */
        if (enabled &&
            !ct_celt_signal_take_pitch(st->signal_offer, st->signal_tally, pre, CC, N, pitch_buf,
                                       &pitch_index)) {
            ct_celt_pitch_downsample(pre, pitch_buf, MAXP + N, CC, &st->dsp);
            /* Don't search for the fir last 1.5 octave of the range because
               there's too many false-positives due to short-term
               correlation */
            ct_celt_pitch_search(pitch_buf + (MAXP >> 1), pitch_buf, N,
                                 MAXP - 3 * MINP, &pitch_index, &st->dsp);
            pitch_index = MAXP - pitch_index;
        }
        pf_on = ct_celt_prefilter_decide(
            pitch_buf, N, &params, st->prefilter_period, st->prefilter_gain,
            analysis->valid, analysis->max_pitch_ratio, &pitch_index, &gain1,
            &qg, &st->dsp);
    }

    /* N <= 960 < COMBFILTER_MAXPERIOD: the memory always keeps part of its
       old samples. */
    c = 0;
    do {
        st->prefilter_period = CT_IMAX(st->prefilter_period, MINP);
        ct_celt_prefilter_comb(in + c * (N + overlap), pre[c],
                               st->in_mem + c * overlap, st->prefilter_period,
                               st->prefilter_gain, st->prefilter_tapset,
                               pitch_index, gain1, prefilter_tapset, N, mode,
                               &st->dsp);

        memmove(prefilter_mem + c * MAXP, prefilter_mem + c * MAXP + N,
                (MAXP - N) * sizeof(float));
        memcpy(prefilter_mem + c * MAXP + MAXP - N, pre[c] + MAXP,
               N * sizeof(float));
    } while (++c < CC);

    *gain = gain1;
    *pitch = pitch_index;
    *qgain = qg;
    return pf_on;
}
