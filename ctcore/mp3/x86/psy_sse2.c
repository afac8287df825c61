/*
 * The psychoacoustic model's SSE2 kernels (psy_dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/psy_dsp.h"

#include "mp3/x86/simd.h"

/* vbrpsy_mask_add of 4 lanes; near: |b| <= delta. The table2 index
 * (int) fast_log10_x(ratio, 16) is, for ratio in [1, ma_max_i1), the
 * number of ct_mp3_mask_add_steps at or below ratio (fast_log2 does not
 * decrease there; checkasm checks every float of the range). */
INLINE __m128 mask_add_sse2(__m128 m1, __m128 m2, __m128 near)
{
    __m128 const zero = _mm_setzero_ps();
    __m128 gt, ratio, sum, res, far_res, mx, f;
    int j;

    m1 = sel_ps(_mm_cmplt_ps(m1, zero), zero, m1);
    m2 = sel_ps(_mm_cmplt_ps(m2, zero), zero, m2);
    gt = _mm_cmpgt_ps(m2, m1);
    ratio = _mm_div_ps(sel_ps(gt, m2, m1), sel_ps(gt, m1, m2));
    sum = _mm_add_ps(m1, m2);
    /* near: ratio >= ma_max_i1 ? m1 + m2 : (m1 + m2) * table2[i] */
    f = _mm_set1_ps(ct_mp3_mask_add_table2[0]);
    for (j = 1; j < 9; j++)
        f = sel_ps(_mm_cmpge_ps(ratio, _mm_set1_ps(ct_mp3_mask_add_steps[j - 1])),
                   _mm_set1_ps(ct_mp3_mask_add_table2[j]), f);
    res = sel_ps(_mm_cmpge_ps(ratio, _mm_set1_ps(ct_mp3_ma_max_i1)), sum, _mm_mul_ps(sum, f));
    /* far: ratio < ma_max_i2 ? m1 + m2 : max */
    mx = sel_ps(_mm_cmplt_ps(m1, m2), m2, m1);
    far_res = sel_ps(_mm_cmplt_ps(ratio, _mm_set1_ps(ct_mp3_ma_max_i2)), sum, mx);
    res = sel_ps(near, res, far_res);
    res = sel_ps(_mm_cmple_ps(m2, zero), m1, res);
    return sel_ps(_mm_cmple_ps(m1, zero), m2, res);
}

void ct_mp3_mask_chain_sse2(int npart, const int (*s3ind)[2], const float *xs,
                            const int *delta, float *ecb)
{
    mask_chain_layout ly;
    int b0;

    mask_chain_layout_init(&ly, npart, s3ind, delta, 4);
    for (b0 = 0; b0 < npart; b0 += 4) {
        __m128i const start = _mm_loadu_si128((const __m128i *) &ly.start[b0]);
        __m128i const len = _mm_loadu_si128((const __m128i *) &ly.len[b0]);
        __m128i const dist0 = _mm_loadu_si128((const __m128i *) &ly.dist0[b0]);
        __m128i const vdelta = _mm_loadu_si128((const __m128i *) &ly.delta[b0]);
        __m128 e = gather4(xs, start);
        int maxlen = 0, j, l;
        for (l = 0; l < 4; l++)
            if (maxlen < ly.len[b0 + l])
                maxlen = ly.len[b0 + l];
        for (j = 1; j < maxlen; j++) {
            __m128i const vj = _mm_set1_epi32(j);
            __m128i const active = _mm_cmpgt_epi32(len, vj);
            /* inactive lanes read their first value again */
            __m128i const idx = _mm_add_epi32(start, _mm_and_si128(active, vj));
            __m128i const dist = _mm_add_epi32(dist0, vj);
            __m128i const far = _mm_or_si128(
                _mm_cmpgt_epi32(dist, vdelta),
                _mm_cmpgt_epi32(_mm_sub_epi32(_mm_setzero_si128(), dist), vdelta));
            __m128 const r = mask_add_sse2(e, gather4(xs, idx),
                                           _mm_castsi128_ps(_mm_xor_si128(
                                               far, _mm_set1_epi32(-1))));
            e = sel_ps(_mm_castsi128_ps(active), r, e);
        }
        if (npart - b0 >= 4) {
            _mm_storeu_ps(&ecb[b0], e);
        }
        else {
            float tmp[4];
            _mm_storeu_ps(tmp, e);
            for (l = 0; l < npart - b0; l++)
                ecb[b0 + l] = tmp[l];
        }
    }
}

/* ---- the attack detection's high pass ------------------------------------- */

void ct_mp3_attack_hpf_sse2(const float *firbuf, float out[576])
{
    const float *const c = ct_mp3_attack_fircoef;
    int i, j;
    for (i = 0; i < 576; i += 4) {
        const float *const f = firbuf + i;
        __m128 sum1 = _mm_loadu_ps(f + 10);
        __m128 sum2 = _mm_setzero_ps();
        for (j = 0; j < 9; j += 2) {
            sum1 = _mm_add_ps(sum1, _mm_mul_ps(_mm_set1_ps(c[j]),
                                               _mm_add_ps(_mm_loadu_ps(f + j),
                                                          _mm_loadu_ps(f + 21 - j))));
            sum2 = _mm_add_ps(sum2, _mm_mul_ps(_mm_set1_ps(c[j + 1]),
                                               _mm_add_ps(_mm_loadu_ps(f + j + 1),
                                                          _mm_loadu_ps(f + 20 - j))));
        }
        _mm_storeu_ps(out + i, _mm_add_ps(sum1, sum2));
    }
}

void ct_mp3_abs_peaks_sse2(const float *x, float en[9])
{
    __m128 const abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    int i, k;
    for (i = 0; i < 9; i++) {
        __m128 p = _mm_set1_ps(1.0f);
        for (k = 0; k < 64; k += 4)
            p = _mm_max_ps(p, _mm_and_ps(abs_mask, _mm_loadu_ps(x + 64 * i + k)));
        en[i] = hmax4(p);
    }
}
