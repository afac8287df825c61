/*
 * Adaptive quantization with AVX2 and FMA. Same bits as the _c_avx2 (and
 * for the fuzzy erosion, _c) kernels of aq.c: lane-wise work runs over 8
 * pixels (or 8 blocks) per vector, and the per-block sums reduce 8 column
 * lanes in Highway's SumOfLanes order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/adaptive_quantization.cc (BSD-3-Clause,
 * Copyright the JPEG XL Project Authors).
 */
#include <immintrin.h>
#include <math.h>

#include "../pixel_dsp.h"

#define TARGET_AVX2 __attribute__((target("avx2,fma")))
#define INLINE_AVX2 static inline TARGET_AVX2 __attribute__((always_inline))

#define INPUT_SCALING (1.0f / 255.0f)
#define INV_LOG2E ((float)0.6931471805599453)

/* SumOfLanes over 8 lanes: across the 128-bit blocks, then Reverse4 and
 * Reverse2 within the block; lane 0 of the result. */
INLINE_AVX2 float sum_of_lanes(__m256 v)
{
    const __m128 w = _mm_add_ps(_mm256_castps256_ps128(v),
                                _mm256_extractf128_ps(v, 1));
    const __m128 s =
        _mm_add_ps(w, _mm_shuffle_ps(w, w, _MM_SHUFFLE(0, 1, 2, 3)));
    const __m128 t =
        _mm_add_ps(s, _mm_shuffle_ps(s, s, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtss_f32(t);
}

INLINE_AVX2 __m256 fast_log2f(__m256 x)
{
    const __m256i x_bits = _mm256_castps_si256(x);
    const __m256i exp_bits =
        _mm256_sub_epi32(x_bits, _mm256_set1_epi32(0x3f2aaaab));
    const __m256i exp_shifted = _mm256_srai_epi32(exp_bits, 23);
    const __m256 mantissa = _mm256_castsi256_ps(
        _mm256_sub_epi32(x_bits, _mm256_slli_epi32(exp_shifted, 23)));
    const __m256 exp_val = _mm256_cvtepi32_ps(exp_shifted);
    const __m256 m = _mm256_sub_ps(mantissa, _mm256_set1_ps(1.0f));
    __m256 yp = _mm256_set1_ps(7.4245873327820566E-01f);
    __m256 yq = _mm256_set1_ps(1.7409343003366853E-01f);
    yp = _mm256_fmadd_ps(yp, m, _mm256_set1_ps(1.4287160470083755E+00f));
    yq = _mm256_fmadd_ps(yq, m, _mm256_set1_ps(1.0096718572241148E+00f));
    yp = _mm256_fmadd_ps(yp, m, _mm256_set1_ps(-1.8503833400518310E-06f));
    yq = _mm256_fmadd_ps(yq, m, _mm256_set1_ps(9.9032814277590719E-01f));
    return _mm256_add_ps(_mm256_div_ps(yp, yq), exp_val);
}

INLINE_AVX2 __m256 fast_pow2f(__m256 x)
{
    const __m256 floorx = _mm256_floor_ps(x);
    const __m256 exp = _mm256_castsi256_ps(_mm256_slli_epi32(
        _mm256_add_epi32(_mm256_cvttps_epi32(floorx), _mm256_set1_epi32(127)),
        23));
    const __m256 frac = _mm256_sub_ps(x, floorx);
    __m256 num = _mm256_add_ps(frac, _mm256_set1_ps((float)1.01749063e+01));
    num = _mm256_fmadd_ps(num, frac, _mm256_set1_ps((float)4.88687798e+01));
    num = _mm256_fmadd_ps(num, frac, _mm256_set1_ps((float)9.85506591e+01));
    num = _mm256_mul_ps(num, exp);
    __m256 den = _mm256_fmadd_ps(frac, _mm256_set1_ps((float)2.10242958e-01),
                                 _mm256_set1_ps((float)-2.22328856e-02));
    den = _mm256_fmadd_ps(den, frac, _mm256_set1_ps((float)-1.94414990e+01));
    den = _mm256_fmadd_ps(den, frac, _mm256_set1_ps((float)9.85506633e+01));
    return _mm256_div_ps(num, den);
}

/* RatioOfDerivativesOfCubicRootToSimpleGamma. */
INLINE_AVX2 __m256 ratio_of_derivatives(__m256 v, int invert)
{
    const float sg_mul = 226.0480446705883f;
    const float sg_mul2 = 1.0f / 73.377132366608819f;
    const float sg_ret_mul = sg_mul2 * 18.6580932135f * INV_LOG2E;
    const float sg_v_offset = 7.14672470003f;
    const float epsilon = (float)1e-2;
    const __m256 num_offset =
        _mm256_set1_ps(epsilon / INPUT_SCALING / INPUT_SCALING);
    const __m256 num_mul = _mm256_set1_ps(sg_ret_mul * 3 * sg_mul);
    const __m256 v_offset = _mm256_set1_ps(
        (sg_v_offset * INV_LOG2E + epsilon) / INPUT_SCALING);
    const __m256 den_mul = _mm256_set1_ps(INV_LOG2E * sg_mul * INPUT_SCALING *
                                          INPUT_SCALING);
    v = _mm256_max_ps(v, _mm256_setzero_ps());
    const __m256 v2 = _mm256_mul_ps(v, v);
    const __m256 num = _mm256_fmadd_ps(num_mul, v2, num_offset);
    const __m256 den = _mm256_fmadd_ps(_mm256_mul_ps(den_mul, v), v2, v_offset);
    return invert ? _mm256_div_ps(num, den) : _mm256_div_ps(den, num);
}

INLINE_AVX2 __m256 compute_mask(__m256 out_val)
{
    const float k_offset3 = 2.1925739705298404f;
    const __m256 v1 = _mm256_max_ps(
        _mm256_mul_ps(out_val, _mm256_set1_ps(0.74760422233706747f)),
        _mm256_set1_ps(1e-3f));
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 v2 = _mm256_div_ps(
        one, _mm256_add_ps(v1, _mm256_set1_ps(305.04035728311436f)));
    const __m256 v3 = _mm256_div_ps(
        one, _mm256_fmadd_ps(v1, v1, _mm256_set1_ps(k_offset3)));
    const __m256 v4 = _mm256_div_ps(
        one, _mm256_fmadd_ps(v1, v1, _mm256_set1_ps(0.25f * k_offset3)));
    const __m256 inner =
        _mm256_fmadd_ps(_mm256_set1_ps(12.906028311180409f), v2,
                        _mm256_mul_ps(_mm256_set1_ps(5.0220313103171232f), v3));
    return _mm256_add_ps(
        _mm256_set1_ps(-0.74174993f),
        _mm256_fmadd_ps(_mm256_set1_ps(3.2353257320940401f), v4, inner));
}

/* HfModulation's sum for one block. */
INLINE_AVX2 float hf_sum(const float *block, ptrdiff_t stride)
{
    const __m256 mask_right = _mm256_castsi256_ps(
        _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0));
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 acc = _mm256_setzero_ps();
    for (int dy = 0; dy < 8; ++dy) {
        const float *row = block + dy * stride;
        const float *row_next = dy == 7 ? row : row + stride;
        const __m256 p = _mm256_loadu_ps(row);
        const __m256 pr = _mm256_loadu_ps(row + 1);
        const __m256 pd = _mm256_loadu_ps(row_next);
        acc = _mm256_add_ps(
            acc, _mm256_and_ps(mask_right,
                               _mm256_and_ps(_mm256_sub_ps(p, pr), abs_mask)));
        acc = _mm256_add_ps(acc, _mm256_and_ps(_mm256_sub_ps(p, pd), abs_mask));
    }
    return sum_of_lanes(acc);
}

/* GammaModulation's sum for one block. */
INLINE_AVX2 float gamma_sum(const float *block, ptrdiff_t stride)
{
    const __m256 bias = _mm256_set1_ps(0.16f / INPUT_SCALING);
    __m256 acc = _mm256_setzero_ps();
    for (int dy = 0; dy < 8; ++dy) {
        const __m256 v =
            _mm256_add_ps(_mm256_loadu_ps(block + dy * stride), bias);
        acc = _mm256_add_ps(acc, ratio_of_derivatives(v, 1));
    }
    return sum_of_lanes(acc);
}

/* The rest of PerBlockModulations and the aq strength, for 8 blocks. */
INLINE_AVX2 __m256 modulate(__m256 fuzzy, __m256 hf, __m256 gamma_ratio,
                            __m256 mul, __m256 add)
{
    const __m256 sum_coeff =
        _mm256_set1_ps((float)(-2.0052193233688884f * INPUT_SCALING / 112.0));
    const __m256 scale = _mm256_set1_ps(INPUT_SCALING / 64.0f);
    const __m256 gamma = _mm256_set1_ps(-0.15526878023684174f * INV_LOG2E);
    __m256 out_val = compute_mask(fuzzy);
    out_val = _mm256_fmadd_ps(hf, sum_coeff, out_val);
    out_val = _mm256_fmadd_ps(
        gamma, fast_log2f(_mm256_mul_ps(gamma_ratio, scale)), out_val);
    const __m256 field = _mm256_add_ps(
        _mm256_mul_ps(fast_pow2f(_mm256_mul_ps(out_val,
                                               _mm256_set1_ps(1.442695041f))),
                      mul),
        add);
    const __m256 strength = _mm256_sub_ps(
        _mm256_div_ps(_mm256_set1_ps(0.6f), field), _mm256_set1_ps(1.0f));
    return _mm256_max_ps(strength, _mm256_setzero_ps());
}

TARGET_AVX2
void ct_jpeg_block_modulations_avx2(const float *rows, ptrdiff_t stride,
                                    size_t nblocks, int y_quant_01, float *qf)
{
    float dampen_mul, dampen_add;
    ct_jpeg_aq_dampening(y_quant_01, &dampen_mul, &dampen_add);
    const __m256 mul = _mm256_set1_ps(dampen_mul);
    const __m256 add = _mm256_set1_ps(dampen_add);
    for (size_t bx = 0; bx < nblocks; bx += 8) {
        const size_t count = nblocks - bx < 8 ? nblocks - bx : 8;
        float hf[8] = {0}, gamma_ratio[8] = {0}, fuzzy[8] = {0};
        for (size_t i = 0; i < count; ++i) {
            const float *block = rows + 8 * (bx + i);
            hf[i] = hf_sum(block, stride);
            gamma_ratio[i] = gamma_sum(block, stride);
            fuzzy[i] = qf[bx + i];
        }
        float strength[8];
        _mm256_storeu_ps(strength,
                         modulate(_mm256_loadu_ps(fuzzy), _mm256_loadu_ps(hf),
                                  _mm256_loadu_ps(gamma_ratio), mul, add));
        for (size_t i = 0; i < count; ++i)
            qf[bx + i] = strength[i];
    }
}

/* One term of ComputePreErosion for 8 pixels. */
INLINE_AVX2 __m256 pre_erosion_diff(const float *row_t, const float *row_m,
                                    const float *row_b)
{
    const __m256 in = _mm256_loadu_ps(row_m);
    const __m256 base = _mm256_mul_ps(
        _mm256_set1_ps(0.25f),
        _mm256_add_ps(_mm256_add_ps(_mm256_loadu_ps(row_m + 1),
                                    _mm256_loadu_ps(row_m - 1)),
                      _mm256_add_ps(_mm256_loadu_ps(row_t),
                                    _mm256_loadu_ps(row_b))));
    const __m256 gammacv = ratio_of_derivatives(
        _mm256_add_ps(in, _mm256_set1_ps((float)(0.019 / INPUT_SCALING))), 0);
    __m256 diff = _mm256_mul_ps(gammacv, _mm256_sub_ps(in, base));
    diff = _mm256_mul_ps(diff, diff);
    diff = _mm256_min_ps(diff, _mm256_set1_ps(0.2f));
    const float sqrt_mul = sqrtf((float)(211.50759899638012f * 1e8));
    return _mm256_mul_ps(
        _mm256_set1_ps(0.25f),
        _mm256_sqrt_ps(_mm256_fmadd_ps(diff, _mm256_set1_ps(sqrt_mul),
                                       _mm256_set1_ps(28.0f))));
}

/* The four rows' terms of 8 pixels at x, summed as jpegli accumulates. */
INLINE_AVX2 __m256 pre_erosion_sum(const float *const rows[6], size_t x)
{
    __m256 sum = pre_erosion_diff(rows[0] + x, rows[1] + x, rows[2] + x);
    for (int iy = 1; iy < 4; ++iy) {
        sum = _mm256_add_ps(pre_erosion_diff(rows[iy] + x, rows[iy + 1] + x,
                                             rows[iy + 2] + x),
                            sum);
    }
    return sum;
}

TARGET_AVX2
void ct_jpeg_pre_erosion_avx2(const float *const rows[6], size_t n_out,
                              float *out)
{
    const __m256 quarter = _mm256_set1_ps(0.25f);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    size_t xo = 0;
    for (; xo + 8 <= n_out; xo += 8) {
        /* 32 pixels: output j sums lanes 4j .. 4j+3 in order, so transpose
         * 4x4 within each 128-bit half and add the rows. */
        const __m256 s0 = pre_erosion_sum(rows, 4 * xo);
        const __m256 s1 = pre_erosion_sum(rows, 4 * xo + 8);
        const __m256 s2 = pre_erosion_sum(rows, 4 * xo + 16);
        const __m256 s3 = pre_erosion_sum(rows, 4 * xo + 24);
        const __m256 u0 = _mm256_unpacklo_ps(s0, s1);
        const __m256 u1 = _mm256_unpackhi_ps(s0, s1);
        const __m256 u2 = _mm256_unpacklo_ps(s2, s3);
        const __m256 u3 = _mm256_unpackhi_ps(s2, s3);
        const __m256 t0 = _mm256_shuffle_ps(u0, u2, _MM_SHUFFLE(1, 0, 1, 0));
        const __m256 t1 = _mm256_shuffle_ps(u0, u2, _MM_SHUFFLE(3, 2, 3, 2));
        const __m256 t2 = _mm256_shuffle_ps(u1, u3, _MM_SHUFFLE(1, 0, 1, 0));
        const __m256 t3 = _mm256_shuffle_ps(u1, u3, _MM_SHUFFLE(3, 2, 3, 2));
        const __m256 sum =
            _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(t0, t1), t2), t3);
        _mm256_storeu_ps(out + xo, _mm256_permutevar8x32_ps(
                                       _mm256_mul_ps(sum, quarter), order));
    }
    for (; xo < n_out; xo += 2) {
        float s[8];
        _mm256_storeu_ps(s, pre_erosion_sum(rows, 4 * xo));
        out[xo] = (s[0] + s[1] + s[2] + s[3]) * 0.25f;
        out[xo + 1] = (s[4] + s[5] + s[6] + s[7]) * 0.25f;
    }
}

/* Sort4 and UpdateMin4 of FuzzyErosion, then the weighted sum, for 8
 * pixels at x. */
INLINE_AVX2 __m256 fuzzy_erosion_pixels(const float *row_t, const float *row_m,
                                        const float *row_b)
{
    __m256 m0 = _mm256_loadu_ps(row_m);
    __m256 m1 = _mm256_loadu_ps(row_m - 1);
    __m256 m2 = _mm256_loadu_ps(row_m + 1);
    __m256 m3 = _mm256_loadu_ps(row_t - 1);
    const __m256 tmp0 = _mm256_min_ps(m0, m1);
    const __m256 tmp1 = _mm256_max_ps(m0, m1);
    const __m256 tmp2 = _mm256_min_ps(m2, m3);
    const __m256 tmp3 = _mm256_max_ps(m2, m3);
    const __m256 tmp4 = _mm256_max_ps(tmp0, tmp2);
    const __m256 tmp5 = _mm256_min_ps(tmp1, tmp3);
    m0 = _mm256_min_ps(tmp0, tmp2);
    m1 = _mm256_min_ps(tmp4, tmp5);
    m2 = _mm256_max_ps(tmp4, tmp5);
    m3 = _mm256_max_ps(tmp1, tmp3);
    const __m256 candidates[5] = {
        _mm256_loadu_ps(row_t),     _mm256_loadu_ps(row_t + 1),
        _mm256_loadu_ps(row_b - 1), _mm256_loadu_ps(row_b),
        _mm256_loadu_ps(row_b + 1),
    };
    for (int i = 0; i < 5; ++i) {
        const __m256 v = candidates[i];
        const __m256 u0 = _mm256_max_ps(m0, v);
        const __m256 u1 = _mm256_max_ps(m1, u0);
        const __m256 u2 = _mm256_max_ps(m2, u1);
        m0 = _mm256_min_ps(m0, v);
        m1 = _mm256_min_ps(m1, u0);
        m2 = _mm256_min_ps(m2, u1);
        m3 = _mm256_min_ps(m3, u2);
    }
    return _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.125f), m0),
                      _mm256_mul_ps(_mm256_set1_ps(0.075f), m1)),
        _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.06f), m2),
                      _mm256_mul_ps(_mm256_set1_ps(0.05f), m3)));
}

TARGET_AVX2
void ct_jpeg_fuzzy_erosion_avx2(const float *const pre[4], size_t nblocks,
                                float *aq)
{
    size_t bx = 0;
    for (; bx + 8 <= nblocks; bx += 8) {
        const size_t x = 2 * bx;
        const __m256 top0 = fuzzy_erosion_pixels(pre[0] + x, pre[1] + x,
                                                 pre[2] + x);
        const __m256 top1 = fuzzy_erosion_pixels(pre[0] + x + 8, pre[1] + x + 8,
                                                 pre[2] + x + 8);
        const __m256 bottom0 = fuzzy_erosion_pixels(pre[1] + x, pre[2] + x,
                                                    pre[3] + x);
        const __m256 bottom1 = fuzzy_erosion_pixels(
            pre[1] + x + 8, pre[2] + x + 8, pre[3] + x + 8);
        /* Even and odd pixels; the blocks come out as 0 1 4 5 2 3 6 7. */
        const __m256 top_even =
            _mm256_shuffle_ps(top0, top1, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 top_odd =
            _mm256_shuffle_ps(top0, top1, _MM_SHUFFLE(3, 1, 3, 1));
        const __m256 bottom_even =
            _mm256_shuffle_ps(bottom0, bottom1, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 bottom_odd =
            _mm256_shuffle_ps(bottom0, bottom1, _MM_SHUFFLE(3, 1, 3, 1));
        const __m256 sum = _mm256_add_ps(
            _mm256_add_ps(_mm256_add_ps(bottom_even, bottom_odd), top_even),
            top_odd);
        _mm256_storeu_pd((double *)(aq + bx),
                         _mm256_permute4x64_pd(_mm256_castps_pd(sum),
                                               _MM_SHUFFLE(3, 1, 2, 0)));
    }
    if (bx < nblocks) {
        const float *rest[4] = {pre[0] + 2 * bx, pre[1] + 2 * bx,
                                pre[2] + 2 * bx, pre[3] + 2 * bx};
        ct_jpeg_fuzzy_erosion_c(rest, nblocks - bx, aq + bx);
    }
}
