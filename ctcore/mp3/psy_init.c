/*
 * psymodel_init: the psychoacoustic model's constants (partition bands of
 * about DELBARK Bark, their mapping to scalefactor bands, the spreading
 * function, minval, masking_lower, the ATH per partition and the equal
 * loudness weights) and its initial state.
 *
 * Copyright (c) 1999-2000 Mark Taylor, 2001-2002 Naoki Shibata, 2000-2003
 * Takehiro Tominaga, 2000-2012 Robert Hegemann, 2000-2005 Gabriel
 * Bouvigne, 2000-2005 Alexander Leidinger.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/psymodel.c and psymodel.h
 * (LGPL-2.0-or-later, the LAME project)
 */
#include "psy.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "fft.h"
#include "util.h"

#define LN_TO_LOG10 (LOG10 / 10)

/* size of each partition band, in barks */
#define DELBARK .34

#define temporalmask_sustain_sec 0.01

#define NS_MSFIX 3.5
#define NSATTACKTHRE 4.4
#define NSATTACKTHRE_S 25

/* The spreading function, in units of energy, normalized so that its
 * integral over the Bark scale is 1. */
static float s3_func(float bark)
{
    float tempx, x, tempy, temp;
    tempx = bark;
    if (tempx >= 0)
        tempx *= 3;
    else
        tempx *= 1.5;

    if (tempx >= 0.5 && tempx <= 2.5) {
        temp = tempx - 0.5;
        x = 8.0 * (temp * temp - 2.0 * temp);
    }
    else
        x = 0.0;
    tempx += 0.474;
    tempy = 15.811389 + 7.5 * tempx - 17.5 * sqrt(1.0 + tempx * tempx);

    if (tempy <= -60.0)
        return 0.0;

    tempx = exp((x + tempy) * LN_TO_LOG10);

    tempx /= .6609193;
    return tempx;
}

/* Stereo demasking thresholds: formula reverse engineered from the plot in
 * the paper. */
static float stereo_demask(double f)
{
    double arg = ct_mp3_freq2bark(f);
    arg = ((arg < 15.5 ? arg : 15.5) / 15.5);

    return pow(10.0, 1.25 * (1 - cos(PI * arg)) - 2.5);
}

/* The partition bands of an FFT of fft_size lines (numlines, rnumlines,
 * npart), their stereo demasking (mld_cb), and the partition band at the
 * upper end of each scalefactor band with the share of it below that end
 * (bo, bo_weight). */
static void init_numline(ct_mp3_psy_cb2sb *gd, float sfreq, int fft_size,
                         int mdct_size, int sbmax, int const *scalepos)
{
    float b_frq[CBANDS + 1];
    float const mdct_freq_frac = sfreq / (2.0f * mdct_size);
    float const deltafreq = fft_size / (2.0f * mdct_size);
    int partition[HBLKSIZE] = { 0 };
    int i, j, ni;
    int sfb;
    sfreq /= fft_size;
    j = 0;
    ni = 0;
    /* compute numlines, the number of spectral lines in each partition
     * band; each partition band should be about DELBARK wide */
    for (i = 0; i < CBANDS; i++) {
        float bark1;
        int j2, nl;
        bark1 = ct_mp3_freq2bark(sfreq * j);

        b_frq[i] = sfreq * j;

        for (j2 = j; ct_mp3_freq2bark(sfreq * j2) - bark1 < DELBARK && j2 <= fft_size / 2; j2++)
            ;

        nl = j2 - j;
        gd->numlines[i] = nl;
        gd->rnumlines[i] = (nl > 0) ? (1.0f / nl) : 0;

        ni = i + 1;

        while (j < j2) {
            partition[j++] = i;
        }
        if (j > fft_size / 2) {
            j = fft_size / 2;
            ++i;
            break;
        }
    }
    b_frq[i] = sfreq * j;

    gd->n_sb = sbmax;
    gd->npart = ni;

    j = 0;
    for (i = 0; i < gd->npart; i++) {
        int const nl = gd->numlines[i];
        float const freq = sfreq * (j + nl / 2);
        gd->mld_cb[i] = stereo_demask(freq);
        j += nl;
    }
    for (; i < CBANDS; ++i) {
        gd->mld_cb[i] = 1;
    }
    for (sfb = 0; sfb < sbmax; sfb++) {
        int i2, bo;
        int end = scalepos[sfb + 1];

        i2 = floor(.5 + deltafreq * (end - .5));

        if (i2 > fft_size / 2)
            i2 = fft_size / 2;

        bo = partition[i2];
        gd->bo[sfb] = bo;

        /* calculate how much of this band belongs to current scalefactor
         * band */
        {
            float const f_tmp = mdct_freq_frac * end;
            float bo_w = (f_tmp - b_frq[bo]) / (b_frq[bo + 1] - b_frq[bo]);
            if (bo_w < 0) {
                bo_w = 0;
            }
            else {
                if (bo_w > 1) {
                    bo_w = 1;
                }
            }
            gd->bo_weight[sfb] = bo_w;
        }
    }
}

/* The Bark value of the centre of each partition band and its width. */
static void compute_bark_values(const ct_mp3_psy_cb2sb *gd, float sfreq, int fft_size,
                                float *bval, float *bval_width)
{
    int k, j = 0, ni = gd->npart;
    sfreq /= fft_size;
    for (k = 0; k < ni; k++) {
        int const w = gd->numlines[k];
        float bark1, bark2;

        bark1 = ct_mp3_freq2bark(sfreq * (j));
        bark2 = ct_mp3_freq2bark(sfreq * (j + w - 1));
        bval[k] = .5 * (bark1 + bark2);

        bark1 = ct_mp3_freq2bark(sfreq * (j - .5));
        bark2 = ct_mp3_freq2bark(sfreq * (j + w - .5));
        bval_width[k] = bark2 - bark1;
        j += w;
    }
}

/* s3[i][j]: the spreading function centered at band j (masker) for band i
 * (maskee), normalized by norm[i]; stored packed, row by row, from the
 * first to the last nonzero entry of each row (s3ind). */
static void init_s3_values(float *p, int (*s3ind)[2], int npart,
                           const float *bval, const float *bval_width, const float *norm)
{
    float s3[CBANDS][CBANDS];
    int i, j, k;

    memset(&s3[0][0], 0, sizeof(s3));

    for (i = 0; i < npart; i++) {
        for (j = 0; j < npart; j++) {
            float v = s3_func(bval[i] - bval[j]) * bval_width[j];
            s3[i][j] = v * norm[i];
        }
    }
    for (i = 0; i < npart; i++) {
        for (j = 0; j < npart; j++) {
            if (s3[i][j] > 0.0f)
                break;
        }
        s3ind[i][0] = j;

        for (j = npart - 1; j > 0; j--) {
            if (s3[i][j] > 0.0f)
                break;
        }
        s3ind[i][1] = j;
    }

    k = 0;
    for (i = 0; i < npart; i++)
        for (j = s3ind[i][0]; j <= s3ind[i][1]; j++)
            p[k++] = s3[i][j];
}

void ct_mp3_psy_init(ct_mp3_state *gfc)
{
    ct_mp3_global_flags const *const gfp = &gfc->flags;
    ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_psy_state *const psv = &gfc->sv_psy;
    ct_mp3_psy_const *const gd = &gfc->cd_psy;
    ct_mp3_ath *const ATH = &gfc->ATH;
    int i, j, b, sb, k;
    float bvl_a = 13, bvl_b = 24;
    float snr_l_a = 0, snr_l_b = 0;
    float snr_s_a = -8.25, snr_s_b = -4.5;

    float bval[CBANDS];
    float bval_width[CBANDS];
    float norm[CBANDS];
    float const sfreq = cfg->samplerate_out;

    float xav = 10, xbv = 12;
    float const minval_low = (0.f - cfg->minval);

    memset(norm, 0, sizeof(norm));

    /* gd->force_short_block_calc: experimentalZ (lame -Z), never set: 0 */

    psv->blocktype_old[0] = psv->blocktype_old[1] = NORM_TYPE; /* the vbr header is long blocks */

    for (i = 0; i < 4; ++i) {
        for (j = 0; j < CBANDS; ++j) {
            psv->nb_l1[i][j] = 1e20;
            psv->nb_l2[i][j] = 1e20;
        }
        for (sb = 0; sb < SBMAX_l; sb++) {
            psv->en[i].l[sb] = 1e20;
            psv->thm[i].l[sb] = 1e20;
        }
        for (j = 0; j < 3; ++j) {
            for (sb = 0; sb < SBMAX_s; sb++) {
                psv->en[i].s[sb][j] = 1e20;
                psv->thm[i].s[sb][j] = 1e20;
            }
            psv->last_attacks[i] = 0;
        }
        for (j = 0; j < 9; j++)
            psv->last_en_subshort[i][j] = 10.;
    }

    /* init. for loudness approx. -jd 2001 mar 27 */
    psv->loudness_sq_save[0] = psv->loudness_sq_save[1] = 0.0;

    /* long blocks: numlines, bo, bval, bval_width, mld */
    init_numline(&gd->l, sfreq, BLKSIZE, 576, SBMAX_l, gfc->scalefac_band.l);
    compute_bark_values(&gd->l, sfreq, BLKSIZE, bval, bval_width);

    /* the spreading function */
    for (i = 0; i < gd->l.npart; i++) {
        double snr = snr_l_a;
        if (bval[i] >= bvl_a) {
            snr = snr_l_b * (bval[i] - bvl_a) / (bvl_b - bvl_a)
                + snr_l_a * (bvl_b - bval[i]) / (bvl_b - bvl_a);
        }
        norm[i] = pow(10.0, snr / 10.0);
    }
    init_s3_values(gd->l.s3, gd->l.s3ind, gd->l.npart, bval, bval_width, norm);

    /* long block specific values, ATH and MINVAL */
    j = 0;
    for (i = 0; i < gd->l.npart; i++) {
        double x;

        /* ATH */
        x = FLT_MAX;
        for (k = 0; k < gd->l.numlines[i]; k++, j++) {
            float const freq = sfreq * j / (1000.0 * BLKSIZE);
            float level;
            level = ct_mp3_ath_formula(cfg, freq * 1000) - 20; /* scale to FFT units; dB */
            level = pow(10., 0.1 * level); /* convert from dB -> energy */
            level *= gd->l.numlines[i];
            if (x > level)
                x = level;
        }
        ATH->cb_l[i] = x;

        /* MINVAL: for low freq, the strength of the masking is limited by
         * minval (an ISO MPEG1 thing); it reduces low-freq problems in
         * S53-Wind-Sax and lead-voice samples, with some 3 kbps bit bloat */
        x = 20.0 * (bval[i] / xav - 1.0);
        if (x > 6) {
            x = 30;
        }
        if (x < minval_low) {
            x = minval_low;
        }
        if (cfg->samplerate_out < 44000) {
            x = 30;
        }
        x -= 8.;
        gd->l.minval[i] = pow(10.0, x / 10.) * gd->l.numlines[i];
    }

    /* the same things for short blocks */
    init_numline(&gd->s, sfreq, BLKSIZE_s, 192, SBMAX_s, gfc->scalefac_band.s);
    compute_bark_values(&gd->s, sfreq, BLKSIZE_s, bval, bval_width);

    /* SNR formula. short block is normalized by SNR. is it still right ? */
    j = 0;
    for (i = 0; i < gd->s.npart; i++) {
        double x;
        double snr = snr_s_a;
        if (bval[i] >= bvl_a) {
            snr = snr_s_b * (bval[i] - bvl_a) / (bvl_b - bvl_a)
                + snr_s_a * (bvl_b - bval[i]) / (bvl_b - bvl_a);
        }
        norm[i] = pow(10.0, snr / 10.0);

        /* ATH */
        x = FLT_MAX;
        for (k = 0; k < gd->s.numlines[i]; k++, j++) {
            float const freq = sfreq * j / (1000.0 * BLKSIZE_s);
            float level;
            level = ct_mp3_ath_formula(cfg, freq * 1000) - 20; /* scale to FFT units; dB */
            level = pow(10., 0.1 * level); /* convert from dB -> energy */
            level *= gd->s.numlines[i];
            if (x > level)
                x = level;
        }
        ATH->cb_s[i] = x;

        /* MINVAL */
        x = 7.0 * (bval[i] / xbv - 1.0);
        if (bval[i] > xbv) {
            x *= 1 + log(1 + x) * 3.1;
        }
        if (bval[i] < xbv) {
            x *= 1 + log(1 - x) * 2.3;
        }
        if (x > 6) {
            x = 30;
        }
        if (x < minval_low) {
            x = minval_low;
        }
        if (cfg->samplerate_out < 44000) {
            x = 30;
        }
        x -= 8;
        gd->s.minval[i] = pow(10.0, x / 10) * gd->s.numlines[i];
    }

    init_s3_values(gd->s.s3, gd->s.s3ind, gd->s.npart, bval, bval_width, norm);

    ct_mp3_fft_init(gd);

    /* temporal masking */
    gd->decay = exp(-1.0 * LOG10 / (temporalmask_sustain_sec * sfreq / 192.0));

    {
        float msfix;
        msfix = NS_MSFIX;
        if (cfg->use_safe_joint_stereo)
            msfix = 1.0;
        if (fabs(cfg->msfix) > 0.0)
            msfix = cfg->msfix;
        cfg->msfix = msfix;
    }

    /* ATH auto adjustment */
    ATH->adjust_factor = 0.01; /* minimum, for leading low loudness */
    ATH->adjust_limit = 1.0;   /* on lead, allow adjust up to maximum */

    if (cfg->ATHtype != -1) {
        /* equal loudness weights (eql_w): ATH dB to relative power */
        float freq;
        float const freq_inc = (float) cfg->samplerate_out / (float) (BLKSIZE);
        float eql_balance = 0.0;
        freq = 0.0;
        for (i = 0; i < BLKSIZE / 2; ++i) {
            freq += freq_inc;
            ATH->eql_w[i] = 1. / pow(10, ct_mp3_ath_formula(cfg, freq) / 10);
            eql_balance += ATH->eql_w[i];
        }
        eql_balance = 1.0 / eql_balance;
        for (i = BLKSIZE / 2; --i >= 0;) { /* scale weights */
            ATH->eql_w[i] *= eql_balance;
        }
    }
    /* short block attack threshold */
    {
        float x = gfp->attackthre;
        float y = gfp->attackthre_s;
        if (x < 0) {
            x = NSATTACKTHRE;
        }
        if (y < 0) {
            y = NSATTACKTHRE_S;
        }
        gd->attack_threshold[0] = gd->attack_threshold[1] = gd->attack_threshold[2] = x;
        gd->attack_threshold[3] = y;
    }
    {
        float sk_s, sk_l;
        static float const sk[] =
            { -7.4, -7.4, -7.4, -9.5, -7.4, -6.1, -5.5, -4.7, -4.7, -4.7, -4.7 };
        if (gfp->VBR_q < 4) {
            sk_l = sk_s = sk[0];
        }
        else {
            sk_l = sk_s = sk[gfp->VBR_q] + gfp->VBR_q_frac * (sk[gfp->VBR_q] - sk[gfp->VBR_q + 1]);
        }
        for (b = 0; b < gd->s.npart; b++) {
            float m = (float) (gd->s.npart - b) / gd->s.npart;
            gd->s.masking_lower[b] = powf(10.f, sk_s * m * 0.1f);
        }
        for (; b < CBANDS; ++b) {
            gd->s.masking_lower[b] = 1.f;
        }
        for (b = 0; b < gd->l.npart; b++) {
            float m = (float) (gd->l.npart - b) / gd->l.npart;
            gd->l.masking_lower[b] = powf(10.f, sk_l * m * 0.1f);
        }
        for (; b < CBANDS; ++b) {
            gd->l.masking_lower[b] = 1.f;
        }
    }
    memcpy(&gd->l_to_s, &gd->l, sizeof(gd->l_to_s));
    init_numline(&gd->l_to_s, sfreq, BLKSIZE, 192, SBMAX_s, gfc->scalefac_band.s);
}
