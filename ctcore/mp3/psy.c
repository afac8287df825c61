/*
 * The part of the psychoacoustic model that carries state from granule to
 * granule (see psy.h): attack detection and block type, pre-echo control,
 * masking_lower, M/S thresholds (Johnston & Ferreira 1992), partitions to
 * scalefactor bands, perceptual entropy; and L3psycho_anal_vbr.
 *
 * The results are one granule late: the masking and energies returned are
 * those the previous call left in sv_psy, and the block type of the
 * previous granule is only final once this granule's attacks are known.
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
#include <string.h>

#include "util.h"

#define rpelev 2
#define rpelev2 16

#define NS_PREECHO_ATT0 0.8
#define NS_PREECHO_ATT1 0.6
#define NS_PREECHO_ATT2 0.3

#define Min(A, B) ((A) < (B) ? (A) : (B))
#define Max(A, B) ((A) > (B) ? (A) : (B))

/* convert_partition2scalefac: partition band bo[sb] is at the transition
 * from scalefactor band sb to sb + 1; its energy and threshold are split
 * between them by bo_weight. */
static void convert_partition2scalefac(const ct_mp3_psy_cb2sb *gd, const float *eb,
                                       const float *thr, float enn_out[], float thm_out[])
{
    float enn, thmm;
    int sb, b, n = gd->n_sb;
    enn = thmm = 0.0f;
    for (sb = b = 0; sb < n; ++b, ++sb) {
        int const bo_sb = gd->bo[sb];
        int const npart = gd->npart;
        int const b_lim = bo_sb < npart ? bo_sb : npart;
        while (b < b_lim) {
            enn += eb[b];
            thmm += thr[b];
            b++;
        }
        if (b >= npart) {
            enn_out[sb] = enn;
            thm_out[sb] = thmm;
            ++sb;
            break;
        }
        {
            /* at transition sfb -> sfb+1 */
            float const w_curr = gd->bo_weight[sb];
            float const w_next = 1.0f - w_curr;
            enn += w_curr * eb[b];
            thmm += w_curr * thr[b];
            enn_out[sb] = enn;
            thm_out[sb] = thmm;
            enn = w_next * eb[b];
            thmm = w_next * thr[b];
        }
    }
    /* zero initialize the rest */
    for (; sb < n; ++sb) {
        enn_out[sb] = 0;
        thm_out[sb] = 0;
    }
}

static void convert_partition2scalefac_s(const ct_mp3_psy_const *gd, const float *eb,
                                         const float *thr, ct_mp3_psy_ratio *mask, int sblock)
{
    float enn[SBMAX_s], thm[SBMAX_s];
    int sb;
    convert_partition2scalefac(&gd->s, eb, thr, enn, thm);
    for (sb = 0; sb < SBMAX_s; ++sb) {
        mask->en.s[sb][sblock] = enn[sb];
        mask->thm.s[sb][sblock] = thm[sb];
    }
}

/* long block threshold calculation (part 2) */
static void convert_partition2scalefac_l(const ct_mp3_psy_const *gd, const float *eb,
                                         const float *thr, ct_mp3_psy_ratio *mask)
{
    convert_partition2scalefac(&gd->l, eb, thr, mask->en.l, mask->thm.l);
}

static void convert_partition2scalefac_l_to_s(const ct_mp3_psy_const *gd, const float *eb,
                                              const float *thr, ct_mp3_psy_ratio *mask)
{
    float enn[SBMAX_s], thm[SBMAX_s];
    int sb, sblock;
    convert_partition2scalefac(&gd->l_to_s, eb, thr, enn, thm);
    for (sb = 0; sb < SBMAX_s; ++sb) {
        float const scale = 1. / 64.f;
        float const tmp_enn = enn[sb];
        float const tmp_thm = thm[sb] * scale;
        for (sblock = 0; sblock < 3; ++sblock) {
            mask->en.s[sb][sblock] = tmp_enn;
            mask->thm.s[sb][sblock] = tmp_thm;
        }
    }
}

/* was pow((x),(r))*pow((y),1-(r)) */
static float ns_interp(float x, float y, float r)
{
    if (r >= 1.0f)
        return x; /* 99.7% of the time */
    if (r <= 0.0f)
        return y;
    if (y > 0.0f)
        return powf(x / y, r) * y; /* rest of the time */
    return 0.0f; /* never happens */
}

static float pecalc_s(const ct_mp3_psy_ratio *mr, float masking_lower)
{
    static const float regcoef_s[] = {
        11.8, /* these values are tuned only for 44.1kHz... */
        13.6,
        17.2,
        32,
        46.5,
        51.3,
        57.5,
        67.1,
        71.5,
        84.6,
        97.6,
        130,
    };
    float pe_s;
    unsigned int sb, sblock;

    pe_s = 1236.28f / 4;
    for (sb = 0; sb < SBMAX_s - 1; sb++) {
        for (sblock = 0; sblock < 3; sblock++) {
            float const thm = mr->thm.s[sb][sblock];
            if (thm > 0.0f) {
                float const x = thm * masking_lower;
                float const en = mr->en.s[sb][sblock];
                if (en > x) {
                    if (en > x * 1e10f) {
                        pe_s += regcoef_s[sb] * (10.0f * LOG10);
                    }
                    else {
                        pe_s += regcoef_s[sb] * ct_mp3_fast_log10(en / x);
                    }
                }
            }
        }
    }

    return pe_s;
}

static float pecalc_l(const ct_mp3_psy_ratio *mr, float masking_lower)
{
    static const float regcoef_l[] = {
        6.8, /* these values are tuned only for 44.1kHz... */
        5.8,
        5.8,
        6.4,
        6.5,
        9.9,
        12.1,
        14.4,
        15,
        18.9,
        21.6,
        26.9,
        34.2,
        40.2,
        46.8,
        56.5,
        60.7,
        73.9,
        85.7,
        93.4,
        126.1,
    };
    float pe_l;
    unsigned int sb;

    pe_l = 1124.23f / 4;
    for (sb = 0; sb < SBMAX_l - 1; sb++) {
        float const thm = mr->thm.l[sb];
        if (thm > 0.0f) {
            float const x = thm * masking_lower;
            float const en = mr->en.l[sb];
            if (en > x) {
                if (en > x * 1e10f) {
                    pe_l += regcoef_l[sb] * (10.0f * LOG10);
                }
                else {
                    pe_l += regcoef_l[sb] * ct_mp3_fast_log10(en / x);
                }
            }
        }
    }

    return pe_l;
}

/* The stateful half of vbrpsy_attack_detection (its first part, handing
 * out the masking of the previous granule, is ct_mp3_psy_finish's):
 * compares the peaks of the high-passed signal of this granule's
 * sub-short-blocks with those before them, and decides for each channel
 * whether this granule needs short blocks. */
static void attack_detection(ct_mp3_state *gfc, const ct_mp3_psy_granule *pg, float energy[4],
                             int ns_attacks[4][4], int uselongblock[2])
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_psy_state *const psv = &gfc->sv_psy;
    /* chn=2 and 3 = Mid and Side channels */
    int const n_chn_psy = (cfg->mode == CT_MP3_JOINT_STEREO) ? 4 : cfg->channels_out;
    int chn, i;

    for (chn = 0; chn < n_chn_psy; chn++) {
        float attack_intensity[12];
        float en_subshort[12];
        float en_short[4] = { 0, 0, 0, 0 };
        int ns_uselongblock = 1;

        /* calculate energies of each sub-shortblocks */
        for (i = 0; i < 3; i++) {
            en_subshort[i] = psv->last_en_subshort[chn][i + 6];
            attack_intensity[i] = en_subshort[i] / psv->last_en_subshort[chn][i + 4];
            en_short[0] += en_subshort[i];
        }

        for (i = 0; i < 9; i++) {
            float p = pg->en_subshort[chn][i];
            psv->last_en_subshort[chn][i] = en_subshort[i + 3] = p;
            en_short[1 + i / 3] += p;
            if (p > en_subshort[i + 3 - 2]) {
                p = p / en_subshort[i + 3 - 2];
            }
            else if (en_subshort[i + 3 - 2] > p * 10.0f) {
                p = en_subshort[i + 3 - 2] / (p * 10.0f);
            }
            else {
                p = 0.0;
            }
            attack_intensity[i + 3] = p;
        }

        /* compare energies between sub-shortblocks */
        {
            float x = gfc->cd_psy.attack_threshold[chn];
            for (i = 0; i < 12; i++) {
                if (ns_attacks[chn][i / 3] == 0) {
                    if (attack_intensity[i] > x) {
                        ns_attacks[chn][i / 3] = (i % 3) + 1;
                    }
                }
            }
        }
        /* should have energy change between short blocks, in order to avoid
         * periodic signals. Good samples to show the effect are Trumpet test
         * songs. GB: tuned (1) to avoid too many short blocks for test
         * sample TRUMPET; RH: tuned (2) to let enough short blocks through
         * for test sample FSOL and SNAPS */
        for (i = 1; i < 4; i++) {
            float const u = en_short[i - 1];
            float const v = en_short[i];
            float const m = Max(u, v);
            if (m < 40000) { /* (2) */
                if (u < 1.7f * v && v < 1.7f * u) { /* (1) */
                    if (i == 1 && ns_attacks[chn][0] <= ns_attacks[chn][i]) {
                        ns_attacks[chn][0] = 0;
                    }
                    ns_attacks[chn][i] = 0;
                }
            }
        }

        if (ns_attacks[chn][0] <= psv->last_attacks[chn]) {
            ns_attacks[chn][0] = 0;
        }

        if (psv->last_attacks[chn] == 3 ||
            ns_attacks[chn][0] + ns_attacks[chn][1] + ns_attacks[chn][2] + ns_attacks[chn][3]) {
            ns_uselongblock = 0;

            if (ns_attacks[chn][1] && ns_attacks[chn][0]) {
                ns_attacks[chn][1] = 0;
            }
            if (ns_attacks[chn][2] && ns_attacks[chn][1]) {
                ns_attacks[chn][2] = 0;
            }
            if (ns_attacks[chn][3] && ns_attacks[chn][2]) {
                ns_attacks[chn][3] = 0;
            }
        }

        if (chn < 2) {
            uselongblock[chn] = ns_uselongblock;
        }
        else {
            if (ns_uselongblock == 0) {
                uselongblock[0] = uselongblock[1] = 0;
            }
        }

        /* there is a one granule delay: the energy computed last call */
        energy[chn] = psv->tot_ener[chn];
    }
}

/* The rest of vbrpsy_compute_masking_l: long block pre-echo control
 * against the two granules before (the energies ct_mp3_psy_decide kept of
 * them), then the tonal limit and masking_lower. */
static void compute_masking_l(const ct_mp3_psy_cb2sb *gdl, const ct_mp3_psy_granule *pg,
                              const ct_mp3_psy_decision *dec, float thr[CBANDS], int chn)
{
    float const *const eb_l = pg->eb_l[chn];
    int b;

    for (b = 0; b < gdl->npart; b++) {
        float const ecb = pg->ecb_l[chn][b];
        float const masking_lower = gdl->masking_lower[b] * dec->masking_lower;

        /* don't use long block pre-echo control if the previous granule was
         * a short block. This is to avoid the situation: frame0: quiet
         * (very low masking); frame1: surge (triggers short blocks);
         * frame2: regular frame, looks like pre-echo when compared to
         * frame0, but all pre-echo was in frame1. chn=0,1 L and R, chn=2,3
         * M and S. */
        if (dec->blocktype_old[chn & 0x01] == SHORT_TYPE) {
            float const ecb_limit = rpelev * dec->nb_l1[chn][b];
            if (ecb_limit > 0) {
                thr[b] = Min(ecb, ecb_limit);
            }
            else {
                /* Robert 071209: we don't calculate long block psy when we
                 * know a granule should be of short blocks, so we have no
                 * clue how the granule before would have looked like as a
                 * long block: guess a little for this END_TYPE block. */
                thr[b] = Min(ecb, eb_l[b] * NS_PREECHO_ATT2);
            }
        }
        else {
            float ecb_limit_2 = rpelev2 * dec->nb_l2[chn][b];
            float ecb_limit_1 = rpelev * dec->nb_l1[chn][b];
            float ecb_limit;
            if (ecb_limit_2 <= 0) {
                ecb_limit_2 = ecb;
            }
            if (ecb_limit_1 <= 0) {
                ecb_limit_1 = ecb;
            }
            if (dec->blocktype_old[chn & 0x01] == NORM_TYPE) {
                ecb_limit = Min(ecb_limit_1, ecb_limit_2);
            }
            else {
                ecb_limit = ecb_limit_1;
            }
            thr[b] = Min(ecb, ecb_limit);
        }
        /* if THR exceeds EB, the quantization routines will take the
         * difference from other bands. in case of strong tonal samples
         * (tonaltest.wav) this leads to heavy distortions. that's why we
         * limit THR here. */
        if (thr[b] > pg->lim_l[chn][b]) {
            thr[b] = pg->lim_l[chn][b];
        }
        if (masking_lower > 1) {
            thr[b] *= masking_lower;
        }
        if (thr[b] > eb_l[b]) {
            thr[b] = eb_l[b];
        }
        if (masking_lower < 1) {
            thr[b] *= masking_lower;
        }
    }
}

/* The rest of vbrpsy_compute_masking_s: masking_lower. */
static void compute_masking_s(const ct_mp3_psy_cb2sb *gds, const ct_mp3_psy_granule *pg,
                              float masking_lower_frame, float thr[CBANDS], int chn,
                              int sblock)
{
    float const *const eb = pg->eb_s[chn][sblock];
    int b;

    for (b = 0; b < gds->npart; b++) {
        float const masking_lower = gds->masking_lower[b] * masking_lower_frame;
        thr[b] = pg->thr_s[chn][sblock][b];
        if (masking_lower > 1) {
            thr[b] *= masking_lower;
        }
        if (thr[b] > eb[b]) {
            thr[b] = eb[b];
        }
        if (masking_lower < 1) {
            thr[b] *= masking_lower;
        }
    }
}

static void compute_block_type(const ct_mp3_config *cfg, int *uselongblock)
{
    int chn;

    if (cfg->short_blocks == CT_MP3_SHORT_BLOCK_COUPLED
        /* force both channels to use the same block type: necessary if the
         * frame is to be encoded in ms_stereo; FhG does it even without */
        && !(uselongblock[0] && uselongblock[1]))
        uselongblock[0] = uselongblock[1] = 0;

    for (chn = 0; chn < cfg->channels_out; chn++) {
        /* disable short blocks */
        if (cfg->short_blocks == CT_MP3_SHORT_BLOCK_DISPENSED) {
            uselongblock[chn] = 1;
        }
        if (cfg->short_blocks == CT_MP3_SHORT_BLOCK_FORCED) {
            uselongblock[chn] = 0;
        }
    }
}

/* The block type of the previous granule, now that this one's is known. */
static void apply_block_type(ct_mp3_psy_state *psv, int nch, const int *uselongblock,
                             int *blocktype_d)
{
    int chn;

    for (chn = 0; chn < nch; chn++) {
        int blocktype = NORM_TYPE;

        if (uselongblock[chn]) {
            /* no attack : use long blocks */
            if (psv->blocktype_old[chn] == SHORT_TYPE)
                blocktype = STOP_TYPE;
        }
        else {
            /* attack : use short blocks */
            blocktype = SHORT_TYPE;
            if (psv->blocktype_old[chn] == NORM_TYPE) {
                psv->blocktype_old[chn] = START_TYPE;
            }
            if (psv->blocktype_old[chn] == STOP_TYPE)
                psv->blocktype_old[chn] = SHORT_TYPE;
        }

        blocktype_d[chn] = psv->blocktype_old[chn]; /* value returned to calling program */
        psv->blocktype_old[chn] = blocktype; /* save for next call to l3psy_anal */
    }
}

/* vbrpsy_compute_MS_thresholds: M/S thresholds from Johnston & Ferreira
 * 1992 ICASSP paper, and Naoki Shibata's msfix (2000). */
static void compute_MS_thresholds(const float eb[4][CBANDS], float thr[4][CBANDS],
                                  const float cb_mld[CBANDS], const float ath_cb[CBANDS],
                                  float athlower, float msfix, int n)
{
    float const msfix2 = msfix * 2.f;
    float rside, rmid;
    int b;
    for (b = 0; b < n; ++b) {
        float const ebM = eb[2][b];
        float const ebS = eb[3][b];
        float const thmL = thr[0][b];
        float const thmR = thr[1][b];
        float thmM = thr[2][b];
        float thmS = thr[3][b];

        /* use this fix if L & R masking differs by 2db or less */
        if (thmL <= 1.58f * thmR && thmR <= 1.58f * thmL) {
            float const mld_m = cb_mld[b] * ebS;
            float const mld_s = cb_mld[b] * ebM;
            float const tmp_m = Min(thmS, mld_m);
            float const tmp_s = Min(thmM, mld_s);
            rmid = Max(thmM, tmp_m);
            rside = Max(thmS, tmp_s);
        }
        else {
            rmid = thmM;
            rside = thmS;
        }
        if (msfix > 0.f) {
            /* adjust M/S maskings if user set "msfix" */
            float thmLR, thmMS;
            float const ath = ath_cb[b] * athlower;
            float const tmp_l = Max(thmL, ath);
            float const tmp_r = Max(thmR, ath);
            thmLR = Min(tmp_l, tmp_r);
            thmM = Max(rmid, ath);
            thmS = Max(rside, ath);
            thmMS = thmM + thmS;
            if (thmMS > 0.f && (thmLR * msfix2) < thmMS) {
                float const f = thmLR * msfix2 / thmMS;
                thmM *= f;
                thmS *= f;
            }
            rmid = Min(thmM, rmid);
            rside = Min(thmS, rside);
        }
        if (rmid > ebM) {
            rmid = ebM;
        }
        if (rside > ebS) {
            rside = ebS;
        }
        thr[2][b] = rmid;
        thr[3][b] = rside;
    }
}

void ct_mp3_psy_decide(ct_mp3_state *gfc, const ct_mp3_psy_granule *pg, int gr_out,
                       float energy[4], int blocktype_d[2], ct_mp3_psy_decision *dec)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_psy_state *const psv = &gfc->sv_psy;
    int const npart = gfc->cd_psy.l.npart;
    int chn;
    /* chn=2 and 3 = Mid and Side channels */
    int const n_chn_psy = (cfg->mode == CT_MP3_JOINT_STEREO) ? 4 : cfg->channels_out;

    memset(dec->ns_attacks, 0, sizeof(dec->ns_attacks));
    dec->uselongblock[0] = dec->uselongblock[1] = 1; /* [1] unread for mono */
    memcpy(dec->last_attacks, psv->last_attacks, sizeof(dec->last_attacks));
    memcpy(dec->blocktype_old, psv->blocktype_old, sizeof(dec->blocktype_old));
    dec->masking_lower = gfc->sv_qnt.masking_lower;
    dec->ath_factor =
        (cfg->msfix > 0.f) ? (cfg->ATH_offset_factor * gfc->ATH.adjust_factor) : 1.f;

    attack_detection(gfc, pg, energy, dec->ns_attacks, dec->uselongblock);

    compute_block_type(cfg, dec->uselongblock);

    for (chn = 0; chn < n_chn_psy; chn++) {
        psv->tot_ener[chn] = pg->tot_ener[chn];
        if (chn < 2) { /* loudness approximation for the ATH auto-adjustment */
            gfc->ov_psy.loudness_sq[gr_out][chn] = psv->loudness_sq_save[chn];
            psv->loudness_sq_save[chn] = pg->loudness_sq[chn];
        }
        /* the long block pre-echo control's energies of the two granules
         * before */
        memcpy(dec->nb_l1[chn], psv->nb_l1[chn], sizeof(float) * (size_t) npart);
        memcpy(dec->nb_l2[chn], psv->nb_l2[chn], sizeof(float) * (size_t) npart);
        memcpy(psv->nb_l2[chn], psv->nb_l1[chn], sizeof(float) * (size_t) npart);
        memcpy(psv->nb_l1[chn], pg->ecb_l[chn], sizeof(float) * (size_t) npart);
        psv->last_attacks[chn] = dec->ns_attacks[chn][2];
    }

    /* determine final block type */
    apply_block_type(psv, cfg->channels_out, dec->uselongblock, blocktype_d);
}

void ct_mp3_psy_mask(const ct_mp3_state *gfc, ct_mp3_psy_granule *pg,
                     const float *const buffer[2], const ct_mp3_psy_decision *dec,
                     ct_mp3_psy_ratio mask[4])
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_psy_const const *const gd = &gfc->cd_psy;
    int const *const uselongblock = dec->uselongblock;
    float eb[4][CBANDS], thr[4][CBANDS];
    int chn, sblock;
    /* chn=2 and 3 = Mid and Side channels */
    int const n_chn_psy = (cfg->mode == CT_MP3_JOINT_STEREO) ? 4 : cfg->channels_out;

    /* long block case */
    for (chn = 0; chn < n_chn_psy; chn++) {
        memcpy(eb[chn], pg->eb_l[chn], sizeof(float) * gd->l.npart);
        compute_masking_l(&gd->l, pg, dec, thr[chn], chn);
    }
    if (cfg->mode == CT_MP3_JOINT_STEREO) {
        if ((uselongblock[0] + uselongblock[1]) == 2) {
            compute_MS_thresholds((const float (*)[CBANDS]) eb, thr, gd->l.mld_cb,
                                  gfc->ATH.cb_l, dec->ath_factor, cfg->msfix, gd->l.npart);
        }
    }
    for (chn = 0; chn < n_chn_psy; chn++) {
        convert_partition2scalefac_l(gd, eb[chn], thr[chn], &mask[chn]);
        convert_partition2scalefac_l_to_s(gd, eb[chn], thr[chn], &mask[chn]);
    }

    /* short blocks case */
    {
        int const force_short_block_calc = gd->force_short_block_calc;
        if (!pg->has_short) {
            int need_short = force_short_block_calc;
            for (chn = 0; chn < n_chn_psy; ++chn) {
                if (!uselongblock[chn & 0x01])
                    need_short = 1;
            }
            if (need_short)
                ct_mp3_psy_prepare_short(gfc, buffer, pg);
        }
        for (sblock = 0; sblock < 3; sblock++) {
            for (chn = 0; chn < n_chn_psy; ++chn) {
                int const ch01 = chn & 0x01;
                if (!uselongblock[ch01] || force_short_block_calc) {
                    memcpy(eb[chn], pg->eb_s[chn][sblock], sizeof(float) * gd->s.npart);
                    compute_masking_s(&gd->s, pg, dec->masking_lower, thr[chn], chn, sblock);
                }
            }
            if (cfg->mode == CT_MP3_JOINT_STEREO) {
                if ((uselongblock[0] + uselongblock[1]) == 0) {
                    compute_MS_thresholds((const float (*)[CBANDS]) eb, thr, gd->s.mld_cb,
                                          gfc->ATH.cb_s, dec->ath_factor, cfg->msfix,
                                          gd->s.npart);
                }
            }
            for (chn = 0; chn < n_chn_psy; ++chn) {
                int const ch01 = chn & 0x01;
                if (!uselongblock[ch01] || force_short_block_calc) {
                    convert_partition2scalefac_s(gd, eb[chn], thr[chn], &mask[chn], sblock);
                }
            }
        }
    }
}

void ct_mp3_psy_finish(ct_mp3_state *gfc, const ct_mp3_psy_granule *pg,
                       const ct_mp3_psy_decision *dec, const ct_mp3_psy_ratio mask[4],
                       int gr_out, ct_mp3_psy_ratio masking_ratio[2][2],
                       ct_mp3_psy_ratio masking_MS_ratio[2][2], float percep_entropy[2],
                       float percep_MS_entropy[2], const int blocktype_d[2])
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_psy_state *const psv = &gfc->sv_psy;
    ct_mp3_psy_xmin last_thm[4];
    float const pcfact = 0.6f;
    int const (*const ns_attacks)[4] = dec->ns_attacks;
    int const n_chn_out = cfg->channels_out;
    int chn, sb, sblock;
    /* chn=2 and 3 = Mid and Side channels */
    int const n_chn_psy = (cfg->mode == CT_MP3_JOINT_STEREO) ? 4 : n_chn_out;

    memcpy(&last_thm[0], &psv->thm[0], sizeof(last_thm));

    /* the masking of the previous granule */
    for (chn = 0; chn < n_chn_out; chn++) {
        masking_ratio[gr_out][chn].en = psv->en[chn];
        masking_ratio[gr_out][chn].thm = psv->thm[chn];
        if (n_chn_psy > 2) {
            /* MS maskings */
            masking_MS_ratio[gr_out][chn].en = psv->en[chn + 2];
            masking_MS_ratio[gr_out][chn].thm = psv->thm[chn + 2];
        }
    }
    for (chn = 0; chn < n_chn_psy; chn++) {
        psv->en[chn] = mask[chn].en;
        psv->thm[chn] = mask[chn].thm;
    }

    /* short block pre-echo control */
    for (chn = 0; chn < n_chn_psy; chn++) {
        for (sb = 0; sb < SBMAX_s; sb++) {
            float new_thmm[3], prev_thm, t1, t2, thmm;
            for (sblock = 0; sblock < 3; sblock++) {
                thmm = psv->thm[chn].s[sb][sblock];
                thmm *= NS_PREECHO_ATT0;

                t1 = t2 = thmm;

                if (sblock > 0) {
                    prev_thm = new_thmm[sblock - 1];
                }
                else {
                    prev_thm = last_thm[chn].s[sb][2];
                }
                if (ns_attacks[chn][sblock] >= 2 || ns_attacks[chn][sblock + 1] == 1) {
                    t1 = ns_interp(prev_thm, thmm, NS_PREECHO_ATT1 * pcfact);
                }
                thmm = Min(t1, thmm);
                if (ns_attacks[chn][sblock] == 1) {
                    t2 = ns_interp(prev_thm, thmm, NS_PREECHO_ATT2 * pcfact);
                }
                else if ((sblock == 0 && dec->last_attacks[chn] == 3)
                         || (sblock > 0 && ns_attacks[chn][sblock - 1] == 3)) {
                    /* 2nd preceding block */
                    switch (sblock) {
                    case 0:
                        prev_thm = last_thm[chn].s[sb][1];
                        break;
                    case 1:
                        prev_thm = last_thm[chn].s[sb][2];
                        break;
                    case 2:
                        prev_thm = new_thmm[0];
                        break;
                    }
                    t2 = ns_interp(prev_thm, thmm, NS_PREECHO_ATT2 * pcfact);
                }

                thmm = Min(t1, thmm);
                thmm = Min(t2, thmm);

                /* pulse like signal detection for fatboy.wav and so on */
                thmm *= pg->sub_short_factor[chn][sblock];

                new_thmm[sblock] = thmm;
            }
            for (sblock = 0; sblock < 3; sblock++) {
                psv->thm[chn].s[sb][sblock] = new_thmm[sblock];
            }
        }
    }

    /* compute the value of PE to return ... no delay and advance */
    for (chn = 0; chn < n_chn_psy; chn++) {
        int type;
        ct_mp3_psy_ratio const *mr;
        float pe;

        if (chn > 1) {
            type = NORM_TYPE;
            if (blocktype_d[0] == SHORT_TYPE || blocktype_d[1] == SHORT_TYPE)
                type = SHORT_TYPE;
            mr = &masking_MS_ratio[gr_out][chn - 2];
        }
        else {
            type = blocktype_d[chn];
            mr = &masking_ratio[gr_out][chn];
        }
        if (type == SHORT_TYPE) {
            pe = pecalc_s(mr, dec->masking_lower);
        }
        else {
            pe = pecalc_l(mr, dec->masking_lower);
        }
        if (chn > 1) {
            percep_MS_entropy[chn - 2] = pe;
        }
        else {
            percep_entropy[chn] = pe;
        }
    }
}

void ct_mp3_psy_resolve(ct_mp3_state *gfc, ct_mp3_psy_granule *pg,
                        const float *const buffer[2], int gr_out, ct_mp3_psy_ratio masking_ratio[2][2],
                        ct_mp3_psy_ratio masking_MS_ratio[2][2],
                        float percep_entropy[2], float percep_MS_entropy[2],
                        float energy[4], int blocktype_d[2])
{
    ct_mp3_psy_decision dec;
    ct_mp3_psy_ratio mask[4];

    ct_mp3_psy_decide(gfc, pg, gr_out, energy, blocktype_d, &dec);
    ct_mp3_psy_mask(gfc, pg, buffer, &dec, mask);
    ct_mp3_psy_finish(gfc, pg, &dec, mask, gr_out, masking_ratio, masking_MS_ratio,
                      percep_entropy, percep_MS_entropy, blocktype_d);
}

int ct_mp3_psy_anal(ct_mp3_state *gfc, const float *const buffer[2],
                    int gr_out, ct_mp3_psy_ratio masking_ratio[2][2],
                    ct_mp3_psy_ratio masking_MS_ratio[2][2],
                    float percep_entropy[2], float percep_MS_entropy[2],
                    float energy[4], int blocktype_d[2])
{
    ct_mp3_psy_granule pg;

    /* the short blocks only when resolve needs them, as LAME */
    ct_mp3_psy_prepare(gfc, buffer, 0, &pg);
    ct_mp3_psy_resolve(gfc, &pg, buffer, gr_out, masking_ratio, masking_MS_ratio, percep_entropy,
                       percep_MS_entropy, energy, blocktype_d);
    return 0;
}
