/*
 * The CELT encoder's decisions: surround masking and temporal VBR, the
 * dynamic allocation, the time-frequency resolution, stereo coding, the
 * allocation trim and the VBR target. Float build, standard mode.
 *
 * Ports celt/celt_encoder.c (l1_metric, tf_analysis, alloc_trim_analysis,
 * stereo_analysis, median_of_5, median_of_3, dynalloc_analysis,
 * compute_vbr, and celt_encode_with_ec's surround masking and temporal
 * VBR blocks) of libopus 1.3.1. The fixed/float macros are written out as
 * the float build expands them, with their float/double promotions.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bands.h"
#include "celt_common.h"
#include "celt_encoder_internal.h"
#include "energy.h"
#include "mathops.h"

void ct_celt_surround_masking(const ct_celt_encoder *st, int C,
                              float *surround_dynalloc, float *surround_trim,
                              float *surround_masking)
{
    const int nbEBands = st->mode->nbEBands;
    const int16_t *eBands = st->mode->eBands;
    int i, c;
    int mask_end;
    int midband;
    int count_dynalloc;
    float mask_avg = 0;
    float diff = 0;
    int count = 0;
    mask_end = CT_IMAX(2, st->lastCodedBands);
    for (c = 0; c < C; c++) {
        for (i = 0; i < mask_end; i++) {
            float mask;
            mask = CT_MAX16(CT_MIN16(st->energy_mask[nbEBands * c + i], .25f),
                            -2.0f);
            if (mask > 0)
                mask = .5f * mask;
            mask_avg += (float)mask * (float)(eBands[i + 1] - eBands[i]);
            count += eBands[i + 1] - eBands[i];
            diff += (float)mask * (float)(1 + 2 * i - mask_end);
        }
    }
    mask_avg = mask_avg / (float)count;
    mask_avg += .2f;
    diff = diff * 6 / (C * (mask_end - 1) * (mask_end + 1) * mask_end);
    /* Again, being conservative */
    diff = .5f * diff;
    diff = CT_MAX32(CT_MIN32(diff, .031f), -.031f);
    /* Find the band that's in the middle of the coded spectrum */
    for (midband = 0; eBands[midband + 1] < eBands[mask_end] / 2; midband++)
        ;
    count_dynalloc = 0;
    for (i = 0; i < mask_end; i++) {
        float lin;
        float unmask;
        lin = mask_avg + diff * (i - midband);
        if (C == 2)
            unmask =
                CT_MAX16(st->energy_mask[i], st->energy_mask[nbEBands + i]);
        else
            unmask = st->energy_mask[i];
        unmask = CT_MIN16(unmask, .0f);
        unmask -= lin;
        if (unmask > .25f) {
            surround_dynalloc[i] = unmask - .25f;
            count_dynalloc++;
        }
    }
    if (count_dynalloc >= 3) {
        /* If we need dynalloc in many bands, it's probably because our
           initial masking rate was too low. */
        mask_avg += .25f;
        if (mask_avg > 0) {
            /* Something went really wrong in the original calculations,
               disabling masking. */
            mask_avg = 0;
            diff = 0;
            memset(surround_dynalloc, 0, mask_end * sizeof(*surround_dynalloc));
        } else {
            for (i = 0; i < mask_end; i++)
                surround_dynalloc[i] = CT_MAX16(0, surround_dynalloc[i] - .25f);
        }
    }
    mask_avg += .2f;
    /* Convert to 1/64th units used for the trim */
    *surround_trim = 64 * diff;
    *surround_masking = mask_avg;
}

float ct_celt_temporal_vbr(ct_celt_encoder *st, const float *bandLogE,
                           int start, int end, int C, int shortBlocks, int LM)
{
    const int nbEBands = st->mode->nbEBands;
    int i;
    float temporal_vbr;
    float follow = -10.0f;
    float frame_avg = 0;
    float offset = shortBlocks ? .5f * LM : 0;
    for (i = start; i < end; i++) {
        follow = CT_MAX16(follow - 1.f, bandLogE[i] - offset);
        if (C == 2)
            follow = CT_MAX16(follow, bandLogE[i + nbEBands] - offset);
        frame_avg += follow;
    }
    frame_avg /= (end - start);
    temporal_vbr = frame_avg - st->spec_avg;
    temporal_vbr = CT_MIN16(3.f, CT_MAX16(-1.5f, temporal_vbr));
    st->spec_avg += .02f * temporal_vbr;
    return temporal_vbr;
}

static float l1_metric(const float *tmp, int N, int LM, float bias)
{
    int i;
    float L1;
    L1 = 0;
    for (i = 0; i < N; i++)
        L1 += CT_ABS16(tmp[i]);
    /* When in doubt, prefer good freq resolution */
    L1 = L1 + LM * bias * L1;
    return L1;
}

int ct_celt_tf_analysis(const ct_celt_mode *m, int len, int isTransient,
                        int *tf_res, int lambda, float *X, int N0, int LM,
                        float tf_estimate, int tf_chan, int *importance)
{
    int i;
    int metric[CT_CELT_NB_EBANDS];
    int cost0;
    int cost1;
    int path0[CT_CELT_NB_EBANDS];
    int path1[CT_CELT_NB_EBANDS];
    /* the widest band: 22 bins << LM */
    float tmp[176];
    float tmp_1[176];
    int sel;
    int selcost[2];
    int tf_select = 0;
    float bias;
    const signed char *table = ct_celt_tf_select_table[LM];

    bias = .04f * CT_MAX16(-.25f, .5f - tf_estimate);

    for (i = 0; i < len; i++) {
        int k, N;
        int narrow;
        float L1, best_L1;
        int best_level = 0;
        N = (m->eBands[i + 1] - m->eBands[i]) << LM;
        /* band is too narrow to be split down to LM=-1 */
        narrow = (m->eBands[i + 1] - m->eBands[i]) == 1;
        memcpy(tmp, &X[tf_chan * N0 + (m->eBands[i] << LM)], N * sizeof(*tmp));
        L1 = l1_metric(tmp, N, isTransient ? LM : 0, bias);
        best_L1 = L1;
        /* Check the -1 case for transients */
        if (isTransient && !narrow) {
            memcpy(tmp_1, tmp, N * sizeof(*tmp_1));
            ct_celt_haar1(tmp_1, N >> LM, 1 << LM);
            L1 = l1_metric(tmp_1, N, LM + 1, bias);
            if (L1 < best_L1) {
                best_L1 = L1;
                best_level = -1;
            }
        }
        for (k = 0; k < LM + !(isTransient || narrow); k++) {
            int B;

            if (isTransient)
                B = (LM - k - 1);
            else
                B = k + 1;

            ct_celt_haar1(tmp, N >> k, 1 << k);

            L1 = l1_metric(tmp, N, B, bias);

            if (L1 < best_L1) {
                best_L1 = L1;
                best_level = k + 1;
            }
        }
        /* metric is in Q1 to be able to select the mid-point (-0.5) for
           narrower bands */
        if (isTransient)
            metric[i] = 2 * best_level;
        else
            metric[i] = -2 * best_level;
        /* For bands that can't be split to -1, set the metric to the half-way
           point to avoid biasing the decision */
        if (narrow && (metric[i] == 0 || metric[i] == -2 * LM))
            metric[i] -= 1;
    }
    /* Search for the optimal tf resolution, including tf_select */
    tf_select = 0;
    for (sel = 0; sel < 2; sel++) {
        cost0 = importance[0] *
                abs(metric[0] - 2 * table[4 * isTransient + 2 * sel + 0]);
        cost1 = importance[0] *
                    abs(metric[0] - 2 * table[4 * isTransient + 2 * sel + 1]) +
                (isTransient ? 0 : lambda);
        for (i = 1; i < len; i++) {
            int curr0, curr1;
            curr0 = CT_IMIN(cost0, cost1 + lambda);
            curr1 = CT_IMIN(cost0 + lambda, cost1);
            cost0 = curr0 + importance[i] *
                                abs(metric[i] -
                                    2 * table[4 * isTransient + 2 * sel + 0]);
            cost1 = curr1 + importance[i] *
                                abs(metric[i] -
                                    2 * table[4 * isTransient + 2 * sel + 1]);
        }
        cost0 = CT_IMIN(cost0, cost1);
        selcost[sel] = cost0;
    }
    /* For now, we're conservative and only allow tf_select=1 for transients.
     * If tests confirm it's useful for non-transients, we could allow it. */
    if (selcost[1] < selcost[0] && isTransient)
        tf_select = 1;
    cost0 = importance[0] *
            abs(metric[0] - 2 * table[4 * isTransient + 2 * tf_select + 0]);
    cost1 =
        importance[0] *
            abs(metric[0] - 2 * table[4 * isTransient + 2 * tf_select + 1]) +
        (isTransient ? 0 : lambda);
    /* Viterbi forward pass */
    for (i = 1; i < len; i++) {
        int curr0, curr1;
        int from0, from1;

        from0 = cost0;
        from1 = cost1 + lambda;
        if (from0 < from1) {
            curr0 = from0;
            path0[i] = 0;
        } else {
            curr0 = from1;
            path0[i] = 1;
        }

        from0 = cost0 + lambda;
        from1 = cost1;
        if (from0 < from1) {
            curr1 = from0;
            path1[i] = 0;
        } else {
            curr1 = from1;
            path1[i] = 1;
        }
        cost0 = curr0 + importance[i] *
                            abs(metric[i] -
                                2 * table[4 * isTransient + 2 * tf_select + 0]);
        cost1 = curr1 + importance[i] *
                            abs(metric[i] -
                                2 * table[4 * isTransient + 2 * tf_select + 1]);
    }
    tf_res[len - 1] = cost0 < cost1 ? 0 : 1;
    /* Viterbi backward pass to check the decisions */
    for (i = len - 2; i >= 0; i--) {
        if (tf_res[i + 1] == 1)
            tf_res[i] = path1[i + 1];
        else
            tf_res[i] = path0[i + 1];
    }
    return tf_select;
}

int ct_celt_alloc_trim_analysis(const ct_celt_mode *m, const float *X,
                                const float *bandLogE, int end, int LM, int C,
                                int N0, ct_analysis_info *analysis,
                                float *stereo_saving, float tf_estimate,
                                int intensity, float surround_trim,
                                int32_t equiv_rate, const ct_opus_dsp *dsp)
{
    int i;
    float diff = 0;
    int c;
    int trim_index;
    float trim = 5.f;
    float logXC, logXC2;
    /* At low bitrate, reducing the trim seems to help. At higher bitrates, it's
       less clear what's best, so we're keeping it as it was before, at least
       for now. */
    if (equiv_rate < 64000) {
        trim = 4.f;
    } else if (equiv_rate < 80000) {
        int32_t frac = (equiv_rate - 64000) >> 10;
        trim = 4.f + 1.f / 16.f * frac;
    }
    if (C == 2) {
        float sum = 0; /* Q10 */
        float minXC;   /* Q10 */
        /* Compute inter-channel correlation for low frequencies */
        for (i = 0; i < 8; i++) {
            float partial;
            partial = dsp->inner_prod(&X[m->eBands[i] << LM],
                                      &X[N0 + (m->eBands[i] << LM)],
                                      (m->eBands[i + 1] - m->eBands[i]) << LM);
            sum = sum + partial;
        }
        sum = 1.f / 8 * sum;
        sum = CT_MIN16(1.f, CT_ABS16(sum));
        minXC = sum;
        for (i = 8; i < intensity; i++) {
            float partial;
            partial = dsp->inner_prod(&X[m->eBands[i] << LM],
                                      &X[N0 + (m->eBands[i] << LM)],
                                      (m->eBands[i + 1] - m->eBands[i]) << LM);
            minXC = CT_MIN16(minXC, CT_ABS16(partial));
        }
        minXC = CT_MIN16(1.f, CT_ABS16(minXC));
        /* mid-side savings estimations based on the LF average*/
        logXC = ct_celt_log2(1.001f - (float)sum * (float)sum);
        /* mid-side savings estimations based on min correlation */
        logXC2 = CT_MAX16(.5f * logXC,
                          ct_celt_log2(1.001f - (float)minXC * (float)minXC));

        trim += CT_MAX16(-4.f, .75f * logXC);
        *stereo_saving = CT_MIN16(*stereo_saving + 0.25f, -(.5f * logXC2));
    }

    /* Estimate spectral tilt */
    c = 0;
    do {
        for (i = 0; i < end - 1; i++)
            diff += bandLogE[i + c * m->nbEBands] * (int32_t)(2 + 2 * i - end);
    } while (++c < C);
    diff /= C * (end - 1);
    trim -= CT_MAX32(-2.f, CT_MIN32(2.f, (diff + 1.f) / 6));
    trim -= surround_trim;
    trim -= 2 * tf_estimate;
    if (analysis->valid) {
        trim -= CT_MAX16(
            -2.f,
            CT_MIN16(2.f, (float)(2.f * (analysis->tonality_slope + .05f))));
    }

    trim_index = (int)floor(.5f + trim);
    trim_index = CT_IMAX(0, CT_IMIN(10, trim_index));
    return trim_index;
}

int ct_celt_stereo_analysis(const ct_celt_mode *m, const float *X, int LM,
                            int N0)
{
    int i;
    int thetas;
    float sumLR = CT_EPSILON, sumMS = CT_EPSILON;

    /* Use the L1 norm to model the entropy of the L/R signal vs the M/S signal
     */
    for (i = 0; i < 13; i++) {
        int j;
        for (j = m->eBands[i] << LM; j < m->eBands[i + 1] << LM; j++) {
            float L, R, M, S;
            L = X[j];
            R = X[N0 + j];
            M = L + R;
            S = L - R;
            sumLR = sumLR + (CT_ABS32(L) + CT_ABS32(R));
            sumMS = sumMS + (CT_ABS32(M) + CT_ABS32(S));
        }
    }
    sumMS = 0.707107f * sumMS;
    thetas = 13;
    /* We don't need thetas for lower bands with LM<=1 */
    if (LM <= 1)
        thetas -= 8;
    return ((m->eBands[13] << (LM + 1)) + thetas) * sumMS >
           (m->eBands[13] << (LM + 1)) * sumLR;
}

#define MSWAP(a, b)                                                            \
    do {                                                                       \
        float tmp = a;                                                         \
        a = b;                                                                 \
        b = tmp;                                                               \
    } while (0)
static float median_of_5(const float *x)
{
    float t0, t1, t2, t3, t4;
    t2 = x[2];
    if (x[0] > x[1]) {
        t0 = x[1];
        t1 = x[0];
    } else {
        t0 = x[0];
        t1 = x[1];
    }
    if (x[3] > x[4]) {
        t3 = x[4];
        t4 = x[3];
    } else {
        t3 = x[3];
        t4 = x[4];
    }
    if (t0 > t3) {
        MSWAP(t0, t3);
        MSWAP(t1, t4);
    }
    if (t2 > t1) {
        if (t1 < t3)
            return CT_MIN16(t2, t3);
        else
            return CT_MIN16(t4, t1);
    } else {
        if (t2 < t3)
            return CT_MIN16(t1, t3);
        else
            return CT_MIN16(t2, t4);
    }
}

static float median_of_3(const float *x)
{
    float t0, t1, t2;
    if (x[0] > x[1]) {
        t0 = x[1];
        t1 = x[0];
    } else {
        t0 = x[0];
        t1 = x[1];
    }
    t2 = x[2];
    if (t1 < t2)
        return t1;
    else if (t0 < t2)
        return t2;
    else
        return t0;
}

float ct_celt_dynalloc_analysis(const float *bandLogE, const float *bandLogE2,
                                int nbEBands, int start, int end, int C,
                                int *offsets, int lsb_depth,
                                const int16_t *logN, int isTransient, int vbr,
                                int constrained_vbr, const int16_t *eBands,
                                int LM, int effectiveBytes, int32_t *tot_boost_,
                                int lfe, float *surround_dynalloc,
                                ct_analysis_info *analysis, int *importance,
                                int *spread_weight)
{
    int i, c;
    int32_t tot_boost = 0;
    float maxDepth;
    float follower[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float noise_floor[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    memset(offsets, 0, nbEBands * sizeof(*offsets));
    /* Dynamic allocation code */
    maxDepth = -31.9f;
    for (i = 0; i < end; i++) {
        /* Noise floor must take into account eMeans, the depth, the width of
           the bands and the preemphasis filter (approx. square of bark band ID)
         */
        noise_floor[i] = (float)0.0625f * (float)logN[i] + .5f +
                         (9 - lsb_depth) - ct_celt_eMeans[i] +
                         (float)(.0062) * (float)((i + 5) * (i + 5));
    }
    c = 0;
    do {
        for (i = 0; i < end; i++)
            maxDepth =
                CT_MAX16(maxDepth, bandLogE[c * nbEBands + i] - noise_floor[i]);
    } while (++c < C);
    {
        /* Compute a really simple masking model to avoid taking into account
           completely masked bands when computing the spreading decision. */
        float mask[CT_CELT_NB_EBANDS];
        float sig[CT_CELT_NB_EBANDS];
        for (i = 0; i < end; i++)
            mask[i] = bandLogE[i] - noise_floor[i];
        if (C == 2) {
            for (i = 0; i < end; i++)
                mask[i] =
                    CT_MAX16(mask[i], bandLogE[nbEBands + i] - noise_floor[i]);
        }
        memcpy(sig, mask, end * sizeof(*sig));
        for (i = 1; i < end; i++)
            mask[i] = CT_MAX16(mask[i], mask[i - 1] - 2.f);
        for (i = end - 2; i >= 0; i--)
            mask[i] = CT_MAX16(mask[i], mask[i + 1] - 3.f);
        for (i = 0; i < end; i++) {
            /* Compute SMR: Mask is never more than 72 dB below the peak and
               never below the noise floor.*/
            float smr =
                sig[i] - CT_MAX16(CT_MAX16(0, maxDepth - 12.f), mask[i]);
            /* Clamp SMR to make sure we're not shifting by something negative
               or too large. */
            int shift = CT_IMIN(5, CT_IMAX(0, -(int)floor(.5f + smr)));
            spread_weight[i] = 32 >> shift;
        }
    }
    /* Make sure that dynamic allocation can't make us bust the budget */
    if (effectiveBytes > 50 && LM >= 1 && !lfe) {
        int last = 0;
        c = 0;
        do {
            float offset;
            float tmp;
            float *f;
            f = &follower[c * nbEBands];
            f[0] = bandLogE2[c * nbEBands];
            for (i = 1; i < end; i++) {
                /* The last band to be at least 3 dB higher than the previous
                   one is the last we'll consider. Otherwise, we run into
                   problems on bandlimited signals. */
                if (bandLogE2[c * nbEBands + i] >
                    bandLogE2[c * nbEBands + i - 1] + .5f)
                    last = i;
                f[i] = CT_MIN16(f[i - 1] + 1.5f, bandLogE2[c * nbEBands + i]);
            }
            for (i = last - 1; i >= 0; i--)
                f[i] = CT_MIN16(f[i], CT_MIN16(f[i + 1] + 2.f,
                                               bandLogE2[c * nbEBands + i]));

            /* Combine with a median filter to avoid dynalloc triggering
               unnecessarily. The "offset" value controls how conservative we
               are -- a higher offset reduces the impact of the median filter
               and makes dynalloc use more bits. */
            offset = 1.f;
            for (i = 2; i < end - 2; i++)
                f[i] = CT_MAX16(f[i],
                                median_of_5(&bandLogE2[c * nbEBands + i - 2]) -
                                    offset);
            tmp = median_of_3(&bandLogE2[c * nbEBands]) - offset;
            f[0] = CT_MAX16(f[0], tmp);
            f[1] = CT_MAX16(f[1], tmp);
            tmp = median_of_3(&bandLogE2[c * nbEBands + end - 3]) - offset;
            f[end - 2] = CT_MAX16(f[end - 2], tmp);
            f[end - 1] = CT_MAX16(f[end - 1], tmp);

            for (i = 0; i < end; i++)
                f[i] = CT_MAX16(f[i], noise_floor[i]);
        } while (++c < C);
        if (C == 2) {
            for (i = start; i < end; i++) {
                /* Consider 24 dB "cross-talk" */
                follower[nbEBands + i] =
                    CT_MAX16(follower[nbEBands + i], follower[i] - 4.f);
                follower[i] =
                    CT_MAX16(follower[i], follower[nbEBands + i] - 4.f);
                follower[i] = .5f * (CT_MAX16(0, bandLogE[i] - follower[i]) +
                                     CT_MAX16(0, bandLogE[nbEBands + i] -
                                                     follower[nbEBands + i]));
            }
        } else {
            for (i = start; i < end; i++)
                follower[i] = CT_MAX16(0, bandLogE[i] - follower[i]);
        }
        for (i = start; i < end; i++)
            follower[i] = CT_MAX16(follower[i], surround_dynalloc[i]);
        for (i = start; i < end; i++)
            importance[i] =
                (int)floor(.5f + 13 * ct_celt_exp2(CT_MIN16(follower[i], 4.f)));
        /* For non-transient CBR/CVBR frames, halve the dynalloc contribution */
        if ((!vbr || constrained_vbr) && !isTransient) {
            for (i = start; i < end; i++)
                follower[i] = .5f * follower[i];
        }
        for (i = start; i < end; i++) {
            if (i < 8)
                follower[i] *= 2;
            if (i >= 12)
                follower[i] = .5f * follower[i];
        }
        if (analysis->valid) {
            for (i = start; i < CT_IMIN(CT_OPUS_LEAK_BANDS, end); i++)
                follower[i] =
                    follower[i] + 1.f / 64.f * analysis->leak_boost[i];
        }
        for (i = start; i < end; i++) {
            int width;
            int boost;
            int boost_bits;

            follower[i] = CT_MIN16(follower[i], 4);

            width = C * (eBands[i + 1] - eBands[i]) << LM;
            if (width < 6) {
                boost = (int)follower[i];
                boost_bits = boost * width << CT_BITRES;
            } else if (width > 48) {
                boost = (int)(follower[i] * 8);
                boost_bits = (boost * width << CT_BITRES) / 8;
            } else {
                boost = (int)(follower[i] * width / 6);
                boost_bits = boost * 6 << CT_BITRES;
            }
            /* For CBR and non-transient CVBR frames, limit dynalloc to 2/3 of
             * the bits */
            if ((!vbr || (constrained_vbr && !isTransient)) &&
                (tot_boost + boost_bits) >> CT_BITRES >> 3 >
                    2 * effectiveBytes / 3) {
                int32_t cap = ((2 * effectiveBytes / 3) << CT_BITRES << 3);
                offsets[i] = cap - tot_boost;
                tot_boost = cap;
                break;
            } else {
                offsets[i] = boost;
                tot_boost += boost_bits;
            }
        }
    } else {
        for (i = start; i < end; i++)
            importance[i] = 13;
    }
    *tot_boost_ = tot_boost;
    return maxDepth;
}

int32_t ct_celt_compute_vbr(const ct_celt_mode *mode,
                            ct_analysis_info *analysis, int32_t base_target,
                            int LM, int32_t bitrate, int lastCodedBands, int C,
                            int intensity, int constrained_vbr,
                            float stereo_saving, int tot_boost,
                            float tf_estimate, int pitch_change, float maxDepth,
                            int lfe, int has_surround_mask,
                            float surround_masking, float temporal_vbr)
{
    /* The target rate in 8th bits per frame */
    int32_t target;
    int coded_bins;
    int coded_bands;
    float tf_calibration;
    int nbEBands;
    const int16_t *eBands;

    nbEBands = mode->nbEBands;
    eBands = mode->eBands;

    coded_bands = lastCodedBands ? lastCodedBands : nbEBands;
    coded_bins = eBands[coded_bands] << LM;
    if (C == 2)
        coded_bins += eBands[CT_IMIN(intensity, coded_bands)] << LM;

    target = base_target;

    if (analysis->valid && analysis->activity < .4)
        target -=
            (int32_t)((coded_bins << CT_BITRES) * (.4f - analysis->activity));
    /* Stereo savings */
    if (C == 2) {
        int coded_stereo_bands;
        int coded_stereo_dof;
        float max_frac;
        coded_stereo_bands = CT_IMIN(intensity, coded_bands);
        coded_stereo_dof =
            (eBands[coded_stereo_bands] << LM) - coded_stereo_bands;
        /* Maximum fraction of the bits we can save if the signal is mono. */
        max_frac = ((float)((float)0.8f * (float)coded_stereo_dof)) /
                   (float)coded_bins;
        stereo_saving = CT_MIN16(stereo_saving, 1.f);
        target -= (int32_t)CT_MIN32(max_frac * target,
                                    (float)(stereo_saving - 0.1f) *
                                        (float)(coded_stereo_dof << CT_BITRES));
    }
    /* Boost the rate according to dynalloc (minus the dynalloc average for
     * calibration). */
    target += tot_boost - (19 << LM);
    /* Apply transient boost, compensating for average boost. */
    tf_calibration = 0.044f;
    target += (int32_t)((tf_estimate - tf_calibration) * target);

    /* Apply tonality boost */
    if (analysis->valid && !lfe) {
        int32_t tonal_target;
        float tonal;

        /* Tonality boost (compensating for the average). */
        tonal = CT_MAX16(0.f, analysis->tonality - .15f) - 0.12f;
        tonal_target =
            target + (int32_t)((coded_bins << CT_BITRES) * 1.2f * tonal);
        if (pitch_change)
            tonal_target += (int32_t)((coded_bins << CT_BITRES) * .8f);
        target = tonal_target;
    }

    if (has_surround_mask && !lfe) {
        int32_t surround_target =
            target + (int32_t)((float)surround_masking *
                               (float)(coded_bins << CT_BITRES));
        target = CT_IMAX(target / 4, surround_target);
    }

    {
        int32_t floor_depth;
        int bins;
        bins = eBands[nbEBands - 2] << LM;
        floor_depth =
            (int32_t)((float)(C * bins << CT_BITRES) * (float)maxDepth);
        floor_depth = CT_IMAX(floor_depth, target >> 2);
        target = CT_IMIN(target, floor_depth);
    }

    /* Make VBR less aggressive for constrained VBR because we can't keep a
       higher bitrate for long. Needs tuning. */
    if ((!has_surround_mask || lfe) && constrained_vbr)
        target = base_target + (int32_t)(0.67f * (target - base_target));

    if (!has_surround_mask && tf_estimate < .2f) {
        float amount;
        float tvbr_factor;
        amount = .0000031f * CT_IMAX(0, CT_IMIN(32000, 96000 - bitrate));
        tvbr_factor = (float)temporal_vbr * (float)amount;
        target += (int32_t)(tvbr_factor * target);
    }

    /* Don't allow more than doubling the rate */
    target = CT_IMIN(2 * base_target, target);

    return target;
}
