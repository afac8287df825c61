/*
 * The stateless part of the psychoacoustic model (see psy.h): FFTs,
 * energies, loudness, the high-passed peaks for the attack detection and the
 * convolution of the partition energies with the spreading function.
 *
 * LAME computes the masking of each partition band b as the "additive
 * masking" (Naoki Shibata) of s3(bark(b) - bark(k)) * eb(k) * tab(k) over
 * the maskers k, where tab (0 dB .. -9.3 dB) falls with the tonality of the
 * masker, estimated from the peakiness of its spectrum (mask_idx).
 *
 * Copyright (c) 1999-2000 Mark Taylor, 2001-2002 Naoki Shibata, 2000-2003
 * Takehiro Tominaga, 2000-2012 Robert Hegemann, 2000-2005 Gabriel
 * Bouvigne, 2000-2005 Alexander Leidinger.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/psymodel.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#include "psy.h"

#include <math.h>
#include <stdlib.h>

#include "fft.h"
#include "util.h"

#define NSFIRLEN 21

/* tuned for output level (sensitive to energy scale) */
#define VO_SCALE (1. / (14752 * 14752) / (BLKSIZE / 2))

/* The masking table: by tonality from 0 dB (TMN) to 9.3 dB (NMT); after the
 * additive masking, 8 dB are added: 8 dB .. 17.3 dB in all. */
static const float tab[] = {
    1.0 /*pow(10, -0) */,
    0.79433 /*pow(10, -0.1) */,
    0.63096 /*pow(10, -0.2) */,
    0.63096 /*pow(10, -0.2) */,
    0.63096 /*pow(10, -0.2) */,
    0.63096 /*pow(10, -0.2) */,
    0.63096 /*pow(10, -0.2) */,
    0.25119 /*pow(10, -0.6) */,
    0.11749 /*pow(10, -0.93) */
};

#define TAB_SIZE ((int) (sizeof(tab) / sizeof(tab[0])))

static const int tab_mask_add_delta[TAB_SIZE] = { 2, 2, 2, 1, 1, 1, 0, 0, -1 };

/* calc_energy: energy, largest line and mean line energy per partition. */
static void calc_energy(const ct_mp3_psy_cb2sb *gd, const float *fftenergy,
                        float *eb, float *max, float *avg)
{
    int b, j;

    for (b = j = 0; b < gd->npart; ++b) {
        float ebb = 0, m = 0;
        int i;
        for (i = 0; i < gd->numlines[b]; ++i, ++j) {
            float const el = fftenergy[j];
            ebb += el;
            if (m < el)
                m = el;
        }
        eb[b] = ebb;
        max[b] = m;
        avg[b] = ebb * gd->rnumlines[b];
    }
}

/* calc_mask_index_l and vbrpsy_calc_mask_index_s (the same arithmetic):
 * the tonality index of each partition into tab[], from the peakiness of
 * the partition and its neighbours. */
static void calc_mask_index(const ct_mp3_psy_cb2sb *gd, const float *max,
                            const float *avg, unsigned char *mask_idx)
{
    float m, a;
    int b, k;
    int const last_tab_entry = TAB_SIZE - 1;
    b = 0;
    a = avg[b] + avg[b + 1];
    if (a > 0.0f) {
        m = max[b];
        if (m < max[b + 1])
            m = max[b + 1];
        a = 20.0f * (m * 2.0f - a)
            / (a * (gd->numlines[b] + gd->numlines[b + 1] - 1));
        k = (int) a;
        if (k > last_tab_entry)
            k = last_tab_entry;
        mask_idx[b] = k;
    }
    else {
        mask_idx[b] = 0;
    }

    for (b = 1; b < gd->npart - 1; b++) {
        a = avg[b - 1] + avg[b] + avg[b + 1];
        if (a > 0.0f) {
            m = max[b - 1];
            if (m < max[b])
                m = max[b];
            if (m < max[b + 1])
                m = max[b + 1];
            a = 20.0f * (m * 3.0f - a)
                / (a * (gd->numlines[b - 1] + gd->numlines[b] + gd->numlines[b + 1] - 1));
            k = (int) a;
            if (k > last_tab_entry)
                k = last_tab_entry;
            mask_idx[b] = k;
        }
        else {
            mask_idx[b] = 0;
        }
    }

    a = avg[b - 1] + avg[b];
    if (a > 0.0f) {
        m = max[b - 1];
        if (m < max[b])
            m = max[b];
        a = 20.0f * (m * 2.0f - a)
            / (a * (gd->numlines[b - 1] + gd->numlines[b] - 1));
        k = (int) a;
        if (k > last_tab_entry)
            k = last_tab_entry;
        mask_idx[b] = k;
    }
    else {
        mask_idx[b] = 0;
    }
}

/* The first half of vbrpsy_compute_masking_l and _s: per partition, the
 * energy eb, the masking ecb of the convolution with the spreading
 * function, and the limit lim = max * minval * avg_mask that keeps the
 * threshold of tonal bands below their energy. */
static void spread_masking(const ct_mp3_psy_dsp *dsp, const ct_mp3_psy_cb2sb *gd,
                           const float *fftenergy, float *eb, float *ecb_out, float *lim)
{
    float max[CBANDS], avg[CBANDS];
    unsigned char mask_idx[CBANDS];
    float xs[CBANDS * CBANDS];
    float tabv[CBANDS];
    int idx_sum[CBANDS + 1];
    int delta[CBANDS];
    float ecb_raw[CBANDS];
    int k, b;

    calc_energy(gd, fftenergy, eb, max, avg);
    calc_mask_index(gd, max, avg, mask_idx);

    /* the maskers' terms s3 * eb * tab, then their additive masking
     * (vbrpsy_mask_add) per partition (psy_dsp.h: mask_chain) */
    idx_sum[0] = 0;
    for (b = 0; b < gd->npart; b++) {
        tabv[b] = tab[mask_idx[b]];
        idx_sum[b + 1] = idx_sum[b] + mask_idx[b];
    }
    k = 0;
    for (b = 0; b < gd->npart; b++) {
        int const first = gd->s3ind[b][0];
        int const n = gd->s3ind[b][1] - first + 1;
        const float *const s3 = gd->s3 + k;
        const float *const ebb = eb + first;
        const float *const tv = tabv + first;
        float *const x = xs + k;
        int j;
        delta[b] = tab_mask_add_delta[mask_idx[b]];
        for (j = 0; j < n; j++)
            x[j] = s3[j] * ebb[j] * tv[j];
        k += n;
    }
    dsp->mask_chain(gd->npart, gd->s3ind, xs, delta, ecb_raw);

    for (b = 0; b < gd->npart; b++) {
        float x, ecb, avg_mask;
        int const first = gd->s3ind[b][0];
        int const n = gd->s3ind[b][1] - first + 1;
        /* the tonality indices of the maskers, added up */
        int dd = idx_sum[first + n] - idx_sum[first], dd_n;

        dd_n = n;
        dd = (1 + 2 * dd) / (2 * dd_n);
        avg_mask = tab[dd] * 0.5f;
        ecb = ecb_raw[b] * avg_mask;
        ecb_out[b] = ecb;

        x = max[b];
        x *= gd->minval[b];
        x *= avg_mask;
        lim[b] = x;
    }
}

/* The stateless half of vbrpsy_attack_detection: high-pass filter of fs/4
 * of each input channel (and their sum and difference for M and S), its
 * peak in each ninth of the granule, and the pulse-like signal detection
 * (fatboy.wav and so on). */
static void attack_peaks(const ct_mp3_psy_dsp *dsp, const float *const buffer[2], int n_chn_out,
                         int n_chn_psy, ct_mp3_psy_granule *pg)
{
    float ns_hpfsmpl[2][576];
    int chn, i, j;

    /* the high pass (psy_dsp.h: attack_hpf) */
    for (chn = 0; chn < n_chn_out; chn++)
        dsp->attack_hpf(&buffer[chn][576 - 350 - NSFIRLEN + 192], ns_hpfsmpl[chn]);
    for (chn = 0; chn < n_chn_psy; chn++) {
        float *const en_subshort = pg->en_subshort[chn];

        if (chn == 2) {
            for (i = 0, j = 576; j > 0; ++i, --j) {
                float const l = ns_hpfsmpl[0][i];
                float const r = ns_hpfsmpl[1][i];
                ns_hpfsmpl[0][i] = l + r;
                ns_hpfsmpl[1][i] = l - r;
            }
        }
        /* the peak of each ninth (psy_dsp.h: abs_peaks) */
        dsp->abs_peaks(ns_hpfsmpl[chn & 1], en_subshort);
        for (i = 0; i < 3; ++i) {
            float const enn = en_subshort[i * 3] + en_subshort[i * 3 + 1] + en_subshort[i * 3 + 2];
            float factor = 1.f;
            if (en_subshort[i * 3 + 2] * 6 < enn) {
                factor *= 0.5f;
                if (en_subshort[i * 3 + 1] * 6 < enn) {
                    factor *= 0.5f;
                }
            }
            pg->sub_short_factor[chn][i] = factor;
        }
    }
}

/* vbrpsy_compute_fft_l: the long FFT of chn (M and S from L and R's) and
 * its energies; returns the total energy above line 10. */
static float compute_fft_l(const ct_mp3_fft_dsp *dsp, const ct_mp3_psy_const *gd,
                           const float *const buffer[2], int chn, float fftenergy[HBLKSIZE],
                           float (*wsamp_l)[BLKSIZE])
{
    float totalenergy = 0.0f;
    int j;

    if (chn < 2) {
        ct_mp3_fft_long(dsp, gd, *wsamp_l, buffer[chn]);
    }
    else if (chn == 2) {
        float const sqrt2_half = SQRT2 * 0.5f;
        /* FFT data for mid and side channel is derived from L & R */
        for (j = BLKSIZE - 1; j >= 0; --j) {
            float const l = wsamp_l[0][j];
            float const r = wsamp_l[1][j];
            wsamp_l[0][j] = (l + r) * sqrt2_half;
            wsamp_l[1][j] = (l - r) * sqrt2_half;
        }
    }

    fftenergy[0] = wsamp_l[0][0];
    fftenergy[0] *= fftenergy[0];

    for (j = BLKSIZE / 2 - 1; j >= 0; --j) {
        float const re = (*wsamp_l)[BLKSIZE / 2 - j];
        float const im = (*wsamp_l)[BLKSIZE / 2 + j];
        fftenergy[BLKSIZE / 2 - j] = (re * re + im * im) * 0.5f;
    }
    for (j = 11; j < HBLKSIZE; j++)
        totalenergy += fftenergy[j];
    return totalenergy;
}

/* vbrpsy_compute_fft_s: short block sblock of chn and its energies. */
static void compute_fft_s(const ct_mp3_fft_dsp *dsp, const ct_mp3_psy_const *gd,
                          const float *const buffer[2], int chn, int sblock,
                          float fftenergy_s[HBLKSIZE_s], float (*wsamp_s)[3][BLKSIZE_s])
{
    int j;

    if (sblock == 0 && chn < 2) {
        ct_mp3_fft_short(dsp, gd, *wsamp_s, buffer[chn]);
    }
    if (chn == 2) {
        float const sqrt2_half = SQRT2 * 0.5f;
        /* FFT data for mid and side channel is derived from L & R */
        for (j = BLKSIZE_s - 1; j >= 0; --j) {
            float const l = wsamp_s[0][sblock][j];
            float const r = wsamp_s[1][sblock][j];
            wsamp_s[0][sblock][j] = (l + r) * sqrt2_half;
            wsamp_s[1][sblock][j] = (l - r) * sqrt2_half;
        }
    }

    fftenergy_s[0] = (*wsamp_s)[sblock][0];
    fftenergy_s[0] *= fftenergy_s[0];
    for (j = BLKSIZE_s / 2 - 1; j >= 0; --j) {
        float const re = (*wsamp_s)[sblock][BLKSIZE_s / 2 - j];
        float const im = (*wsamp_s)[sblock][BLKSIZE_s / 2 + j];
        fftenergy_s[BLKSIZE_s / 2 - j] = (re * re + im * im) * 0.5f;
    }
}

/* psycho_loudness_approx (jd - 2001 mar 12): loudness^2, roughly 1.0 for
 * signals near clipping, from the energies weighted by the equal loudness
 * curve (the ATH). */
static float loudness_approx(const float *energy, const float *eql_w)
{
    int i;
    float loudness_power;

    loudness_power = 0.0;
    for (i = 0; i < BLKSIZE / 2; ++i)
        loudness_power += energy[i] * eql_w[i];
    loudness_power *= VO_SCALE;

    return loudness_power;
}

void ct_mp3_psy_prepare_short(const ct_mp3_state *gfc, const float *const buffer[2],
                              ct_mp3_psy_granule *pg)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_psy_const const *const gd = &gfc->cd_psy;
    int const n_chn_out = cfg->channels_out;
    /* chn = 2 and 3: Mid and Side channels */
    int const n_chn_psy = (cfg->mode == CT_MP3_JOINT_STEREO) ? 4 : n_chn_out;
    float wsamp_S[2][3][BLKSIZE_s];
    float fftenergy_s[HBLKSIZE_s];
    int chn, sblock;

    /* LAME computes a channel's short blocks only where they are used, in
     * this order (the M/S lines of block sblock are made in place from the
     * L/R lines of that block). Two channels always use the same block
     * type (short blocks are coupled in stereo and joint stereo), and each
     * channel's values depend on the input alone: computing all of them
     * gives the values LAME uses. */
    for (sblock = 0; sblock < 3; sblock++) {
        for (chn = 0; chn < n_chn_psy; ++chn) {
            float *const thr = pg->thr_s[chn][sblock];
            float lim[CBANDS];
            int b;

            compute_fft_s(&gfc->dsp.fft, gd, buffer, chn, sblock, fftenergy_s,
                          wsamp_S + (chn & 1));
            spread_masking(&gfc->dsp.psy, &gd->s, fftenergy_s, pg->eb_s[chn][sblock], thr, lim);
            for (b = 0; b < gd->s.npart; b++) {
                if (thr[b] > lim[b]) {
                    thr[b] = lim[b];
                }
            }
        }
    }
    pg->has_short = 1;
}

void ct_mp3_psy_prepare(const ct_mp3_state *gfc, const float *const buffer[2],
                        int with_short, ct_mp3_psy_granule *pg)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_psy_const const *const gd = &gfc->cd_psy;
    int const n_chn_out = cfg->channels_out;
    /* chn = 2 and 3: Mid and Side channels */
    int const n_chn_psy = (cfg->mode == CT_MP3_JOINT_STEREO) ? 4 : n_chn_out;
    float wsamp_L[2][BLKSIZE];
    float fftenergy[HBLKSIZE];
    int chn;

    attack_peaks(&gfc->dsp.psy, buffer, n_chn_out, n_chn_psy, pg);

    /* long blocks */
    for (chn = 0; chn < n_chn_psy; chn++) {
        pg->tot_ener[chn] =
            compute_fft_l(&gfc->dsp.fft, gd, buffer, chn, fftenergy, wsamp_L + (chn & 1));
        if (chn < 2) { /* no loudness for mid/side ch */
            pg->loudness_sq[chn] = loudness_approx(fftenergy, gfc->ATH.eql_w);
        }
        spread_masking(&gfc->dsp.psy, &gd->l, fftenergy, pg->eb_l[chn], pg->ecb_l[chn],
                       pg->lim_l[chn]);
    }

    /* short blocks */
    pg->has_short = 0;
    if (with_short)
        ct_mp3_psy_prepare_short(gfc, buffer, pg);
}
