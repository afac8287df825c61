/*
 * The psychoacoustic model's AVX2 kernels (psy_dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/psy_dsp.h"

#include "mp3/x86/simd.h"

AVX2 INLINE __m256 mask_add_avx2(__m256 m1, __m256 m2, __m256 near)
{
    __m256 const zero = _mm256_setzero_ps();
    __m256 gt, ratio, sum, res, far_res, mx, f;
    __m256i i;

    m1 = _mm256_blendv_ps(m1, zero, _mm256_cmp_ps(m1, zero, _CMP_LT_OQ));
    m2 = _mm256_blendv_ps(m2, zero, _mm256_cmp_ps(m2, zero, _CMP_LT_OQ));
    gt = _mm256_cmp_ps(m2, m1, _CMP_GT_OQ);
    ratio = _mm256_div_ps(_mm256_blendv_ps(m1, m2, gt), _mm256_blendv_ps(m2, m1, gt));
    sum = _mm256_add_ps(m1, m2);
    /* i = -(sum of the compare masks) of the 8 steps; table2[0 .. 7] by
     * a permutation, table2[8] where ratio >= the last step */
    {
        __m256i const c0 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[0]), _CMP_GE_OQ));
        __m256i const c1 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[1]), _CMP_GE_OQ));
        __m256i const c2 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[2]), _CMP_GE_OQ));
        __m256i const c3 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[3]), _CMP_GE_OQ));
        __m256i const c4 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[4]), _CMP_GE_OQ));
        __m256i const c5 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[5]), _CMP_GE_OQ));
        __m256i const c6 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[6]), _CMP_GE_OQ));
        __m256 const c7 =
            _mm256_cmp_ps(ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[7]), _CMP_GE_OQ);
        i = _mm256_sub_epi32(
            _mm256_setzero_si256(),
            _mm256_add_epi32(_mm256_add_epi32(_mm256_add_epi32(c0, c1), _mm256_add_epi32(c2, c3)),
                             _mm256_add_epi32(_mm256_add_epi32(c4, c5), c6)));
        f = _mm256_permutevar8x32_ps(_mm256_loadu_ps(ct_mp3_mask_add_table2), i);
        f = _mm256_blendv_ps(f, _mm256_set1_ps(ct_mp3_mask_add_table2[8]), c7);
    }
    res = _mm256_blendv_ps(
        _mm256_mul_ps(sum, f), sum,
        _mm256_cmp_ps(ratio, _mm256_set1_ps(ct_mp3_ma_max_i1), _CMP_GE_OQ));
    mx = _mm256_blendv_ps(m1, m2, _mm256_cmp_ps(m1, m2, _CMP_LT_OQ));
    far_res = _mm256_blendv_ps(
        mx, sum, _mm256_cmp_ps(ratio, _mm256_set1_ps(ct_mp3_ma_max_i2), _CMP_LT_OQ));
    res = _mm256_blendv_ps(far_res, res, near);
    res = _mm256_blendv_ps(res, m1, _mm256_cmp_ps(m2, zero, _CMP_LE_OQ));
    return _mm256_blendv_ps(res, m2, _mm256_cmp_ps(m1, zero, _CMP_LE_OQ));
}

/* One step j of the chains of the 8 partitions at b0. */
AVX2 INLINE __m256 mask_chain_step_avx2(const mask_chain_layout *ly, int b0, const float *xs,
                                        int j, __m256 e)
{
    __m256i const start = _mm256_loadu_si256((const __m256i *) &ly->start[b0]);
    __m256i const len = _mm256_loadu_si256((const __m256i *) &ly->len[b0]);
    __m256i const dist0 = _mm256_loadu_si256((const __m256i *) &ly->dist0[b0]);
    __m256i const vdelta = _mm256_loadu_si256((const __m256i *) &ly->delta[b0]);
    __m256i const vj = _mm256_set1_epi32(j);
    __m256i const active = _mm256_cmpgt_epi32(len, vj);
    /* inactive lanes read their first value again */
    __m256i const idx = _mm256_add_epi32(start, _mm256_and_si256(active, vj));
    __m256i const far =
        _mm256_cmpgt_epi32(_mm256_abs_epi32(_mm256_add_epi32(dist0, vj)), vdelta);
    __m256 const r =
        mask_add_avx2(e, _mm256_i32gather_ps(xs, idx, 4),
                      _mm256_castsi256_ps(_mm256_xor_si256(far, _mm256_set1_epi32(-1))));
    return _mm256_blendv_ps(e, r, _mm256_castsi256_ps(active));
}

AVX2 INLINE void mask_chain_store_avx2(float *ecb, int npart, int b0, __m256 e)
{
    if (npart - b0 >= 8) {
        _mm256_storeu_ps(&ecb[b0], e);
    }
    else if (npart > b0) {
        float tmp[8];
        int l;
        _mm256_storeu_ps(tmp, e);
        for (l = 0; l < npart - b0; l++)
            ecb[b0 + l] = tmp[l];
    }
}

/* Two groups of 8 partitions at a time: their chains are independent, so
 * the steps of one run while the other waits for its division. */
AVX2 void ct_mp3_mask_chain_avx2(int npart, const int (*s3ind)[2], const float *xs,
                                 const int *delta, float *ecb)
{
    mask_chain_layout ly;
    int b0;

    mask_chain_layout_init(&ly, npart, s3ind, delta, 16);
    for (b0 = 0; b0 < npart; b0 += 16) {
        __m256 e0 = _mm256_i32gather_ps(xs, _mm256_loadu_si256((const __m256i *) &ly.start[b0]), 4);
        __m256 e1 =
            _mm256_i32gather_ps(xs, _mm256_loadu_si256((const __m256i *) &ly.start[b0 + 8]), 4);
        int maxlen = 0, j, l;
        for (l = 0; l < 16; l++)
            if (maxlen < ly.len[b0 + l])
                maxlen = ly.len[b0 + l];
        for (j = 1; j < maxlen; j++) {
            e0 = mask_chain_step_avx2(&ly, b0, xs, j, e0);
            e1 = mask_chain_step_avx2(&ly, b0 + 8, xs, j, e1);
        }
        mask_chain_store_avx2(ecb, npart, b0, e0);
        mask_chain_store_avx2(ecb, npart, b0 + 8, e1);
    }
}

AVX2 void ct_mp3_attack_hpf_avx2(const float *firbuf, float out[576])
{
    const float *const c = ct_mp3_attack_fircoef;
    int i, j;
    for (i = 0; i < 576; i += 8) {
        const float *const f = firbuf + i;
        __m256 sum1 = _mm256_loadu_ps(f + 10);
        __m256 sum2 = _mm256_setzero_ps();
        for (j = 0; j < 9; j += 2) {
            sum1 = _mm256_add_ps(sum1, _mm256_mul_ps(_mm256_set1_ps(c[j]),
                                                     _mm256_add_ps(_mm256_loadu_ps(f + j),
                                                                   _mm256_loadu_ps(f + 21 - j))));
            sum2 = _mm256_add_ps(
                sum2, _mm256_mul_ps(_mm256_set1_ps(c[j + 1]),
                                    _mm256_add_ps(_mm256_loadu_ps(f + j + 1),
                                                  _mm256_loadu_ps(f + 20 - j))));
        }
        _mm256_storeu_ps(out + i, _mm256_add_ps(sum1, sum2));
    }
}

AVX2 void ct_mp3_abs_peaks_avx2(const float *x, float en[9])
{
    __m256 const abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    int i, k;
    for (i = 0; i < 9; i++) {
        __m256 p = _mm256_set1_ps(1.0f);
        for (k = 0; k < 64; k += 8)
            p = _mm256_max_ps(p, _mm256_and_ps(abs_mask, _mm256_loadu_ps(x + 64 * i + k)));
        en[i] = hmax4(_mm_max_ps(_mm256_castps256_ps128(p), _mm256_extractf128_ps(p, 1)));
    }
}
