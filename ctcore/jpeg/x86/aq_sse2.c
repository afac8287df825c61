/*
 * Adaptive quantization with SSE2. Same bits as the _c_sse2 (and for the
 * fuzzy erosion, _c) kernels of aq.c: lane-wise work runs over 4 pixels (or
 * 4 blocks) per vector, MulAdd is a multiply then an add, and the per-block
 * sums reduce 4 column lanes in Highway's SumOfLanes order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/adaptive_quantization.cc (BSD-3-Clause,
 * Copyright the JPEG XL Project Authors).
 */
#include <emmintrin.h>
#include <math.h>

#include "../pixel_dsp.h"

#define INLINE static inline __attribute__((always_inline))

#define INPUT_SCALING (1.0f / 255.0f)
#define INV_LOG2E ((float)0.6931471805599453)

INLINE __m128 muladd(__m128 mul, __m128 x, __m128 add)
{
    return _mm_add_ps(_mm_mul_ps(mul, x), add);
}

/* SumOfLanes over 4 lanes (Reverse4, then Reverse2); lane 0. */
INLINE float sum_of_lanes(__m128 v)
{
    const __m128 s =
        _mm_add_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 1, 2, 3)));
    const __m128 t =
        _mm_add_ps(s, _mm_shuffle_ps(s, s, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtss_f32(t);
}

/* Floor without SSE4.1; exact for |x| < 2^31 (all values seen here). */
INLINE __m128 floor_ps(__m128 x)
{
    const __m128 truncated = _mm_cvtepi32_ps(_mm_cvttps_epi32(x));
    const __m128 too_big = _mm_cmpgt_ps(truncated, x);
    return _mm_sub_ps(truncated, _mm_and_ps(too_big, _mm_set1_ps(1.0f)));
}

INLINE __m128 fast_log2f(__m128 x)
{
    const __m128i x_bits = _mm_castps_si128(x);
    const __m128i exp_bits = _mm_sub_epi32(x_bits, _mm_set1_epi32(0x3f2aaaab));
    const __m128i exp_shifted = _mm_srai_epi32(exp_bits, 23);
    const __m128 mantissa = _mm_castsi128_ps(
        _mm_sub_epi32(x_bits, _mm_slli_epi32(exp_shifted, 23)));
    const __m128 exp_val = _mm_cvtepi32_ps(exp_shifted);
    const __m128 m = _mm_sub_ps(mantissa, _mm_set1_ps(1.0f));
    __m128 yp = _mm_set1_ps(7.4245873327820566E-01f);
    __m128 yq = _mm_set1_ps(1.7409343003366853E-01f);
    yp = muladd(yp, m, _mm_set1_ps(1.4287160470083755E+00f));
    yq = muladd(yq, m, _mm_set1_ps(1.0096718572241148E+00f));
    yp = muladd(yp, m, _mm_set1_ps(-1.8503833400518310E-06f));
    yq = muladd(yq, m, _mm_set1_ps(9.9032814277590719E-01f));
    return _mm_add_ps(_mm_div_ps(yp, yq), exp_val);
}

INLINE __m128 fast_pow2f(__m128 x)
{
    const __m128 floorx = floor_ps(x);
    const __m128 exp = _mm_castsi128_ps(_mm_slli_epi32(
        _mm_add_epi32(_mm_cvttps_epi32(floorx), _mm_set1_epi32(127)), 23));
    const __m128 frac = _mm_sub_ps(x, floorx);
    __m128 num = _mm_add_ps(frac, _mm_set1_ps((float)1.01749063e+01));
    num = muladd(num, frac, _mm_set1_ps((float)4.88687798e+01));
    num = muladd(num, frac, _mm_set1_ps((float)9.85506591e+01));
    num = _mm_mul_ps(num, exp);
    __m128 den = muladd(frac, _mm_set1_ps((float)2.10242958e-01),
                        _mm_set1_ps((float)-2.22328856e-02));
    den = muladd(den, frac, _mm_set1_ps((float)-1.94414990e+01));
    den = muladd(den, frac, _mm_set1_ps((float)9.85506633e+01));
    return _mm_div_ps(num, den);
}

/* RatioOfDerivativesOfCubicRootToSimpleGamma. */
INLINE __m128 ratio_of_derivatives(__m128 v, int invert)
{
    const float sg_mul = 226.0480446705883f;
    const float sg_mul2 = 1.0f / 73.377132366608819f;
    const float sg_ret_mul = sg_mul2 * 18.6580932135f * INV_LOG2E;
    const float sg_v_offset = 7.14672470003f;
    const float epsilon = (float)1e-2;
    const __m128 num_offset =
        _mm_set1_ps(epsilon / INPUT_SCALING / INPUT_SCALING);
    const __m128 num_mul = _mm_set1_ps(sg_ret_mul * 3 * sg_mul);
    const __m128 v_offset =
        _mm_set1_ps((sg_v_offset * INV_LOG2E + epsilon) / INPUT_SCALING);
    const __m128 den_mul =
        _mm_set1_ps(INV_LOG2E * sg_mul * INPUT_SCALING * INPUT_SCALING);
    v = _mm_max_ps(v, _mm_setzero_ps());
    const __m128 v2 = _mm_mul_ps(v, v);
    const __m128 num = muladd(num_mul, v2, num_offset);
    const __m128 den = muladd(_mm_mul_ps(den_mul, v), v2, v_offset);
    return invert ? _mm_div_ps(num, den) : _mm_div_ps(den, num);
}

INLINE __m128 compute_mask(__m128 out_val)
{
    const float k_offset3 = 2.1925739705298404f;
    const __m128 v1 =
        _mm_max_ps(_mm_mul_ps(out_val, _mm_set1_ps(0.74760422233706747f)),
                   _mm_set1_ps(1e-3f));
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 v2 =
        _mm_div_ps(one, _mm_add_ps(v1, _mm_set1_ps(305.04035728311436f)));
    const __m128 v3 = _mm_div_ps(one, muladd(v1, v1, _mm_set1_ps(k_offset3)));
    const __m128 v4 =
        _mm_div_ps(one, muladd(v1, v1, _mm_set1_ps(0.25f * k_offset3)));
    const __m128 inner =
        muladd(_mm_set1_ps(12.906028311180409f), v2,
               _mm_mul_ps(_mm_set1_ps(5.0220313103171232f), v3));
    return _mm_add_ps(_mm_set1_ps(-0.74174993f),
                      muladd(_mm_set1_ps(3.2353257320940401f), v4, inner));
}

/* HfModulation's sum for one block: each row as columns 0..3 then 4..7. */
INLINE float hf_sum(const float *block, ptrdiff_t stride)
{
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    const __m128 mask_right[2] = {
        _mm_castsi128_ps(_mm_set1_epi32(-1)),
        _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)),
    };
    __m128 acc = _mm_setzero_ps();
    for (int dy = 0; dy < 8; ++dy) {
        const float *row = block + dy * stride;
        const float *row_next = dy == 7 ? row : row + stride;
        for (int half = 0; half < 2; ++half) {
            const __m128 p = _mm_loadu_ps(row + 4 * half);
            const __m128 pr = _mm_loadu_ps(row + 4 * half + 1);
            const __m128 pd = _mm_loadu_ps(row_next + 4 * half);
            acc = _mm_add_ps(
                acc, _mm_and_ps(mask_right[half],
                                _mm_and_ps(_mm_sub_ps(p, pr), abs_mask)));
            acc = _mm_add_ps(acc, _mm_and_ps(_mm_sub_ps(p, pd), abs_mask));
        }
    }
    return sum_of_lanes(acc);
}

/* GammaModulation's sum for one block. */
INLINE float gamma_sum(const float *block, ptrdiff_t stride)
{
    const __m128 bias = _mm_set1_ps(0.16f / INPUT_SCALING);
    __m128 acc = _mm_setzero_ps();
    for (int dy = 0; dy < 8; ++dy) {
        for (int half = 0; half < 2; ++half) {
            const __m128 v =
                _mm_add_ps(_mm_loadu_ps(block + dy * stride + 4 * half), bias);
            acc = _mm_add_ps(acc, ratio_of_derivatives(v, 1));
        }
    }
    return sum_of_lanes(acc);
}

/* The rest of PerBlockModulations and the aq strength, for 4 blocks. */
INLINE __m128 modulate(__m128 fuzzy, __m128 hf, __m128 gamma_ratio,
                       __m128 mul, __m128 add)
{
    const __m128 sum_coeff =
        _mm_set1_ps((float)(-2.0052193233688884f * INPUT_SCALING / 112.0));
    const __m128 scale = _mm_set1_ps(INPUT_SCALING / 64.0f);
    const __m128 gamma = _mm_set1_ps(-0.15526878023684174f * INV_LOG2E);
    __m128 out_val = compute_mask(fuzzy);
    out_val = muladd(hf, sum_coeff, out_val);
    out_val =
        muladd(gamma, fast_log2f(_mm_mul_ps(gamma_ratio, scale)), out_val);
    const __m128 field = _mm_add_ps(
        _mm_mul_ps(fast_pow2f(_mm_mul_ps(out_val, _mm_set1_ps(1.442695041f))),
                   mul),
        add);
    const __m128 strength =
        _mm_sub_ps(_mm_div_ps(_mm_set1_ps(0.6f), field), _mm_set1_ps(1.0f));
    return _mm_max_ps(strength, _mm_setzero_ps());
}

void ct_jpeg_block_modulations_sse2(const float *rows, ptrdiff_t stride,
                                    size_t nblocks, int y_quant_01, float *qf)
{
    float dampen_mul, dampen_add;
    ct_jpeg_aq_dampening(y_quant_01, &dampen_mul, &dampen_add);
    const __m128 mul = _mm_set1_ps(dampen_mul);
    const __m128 add = _mm_set1_ps(dampen_add);
    for (size_t bx = 0; bx < nblocks; bx += 4) {
        const size_t count = nblocks - bx < 4 ? nblocks - bx : 4;
        float hf[4] = {0}, gamma_ratio[4] = {0}, fuzzy[4] = {0};
        for (size_t i = 0; i < count; ++i) {
            const float *block = rows + 8 * (bx + i);
            hf[i] = hf_sum(block, stride);
            gamma_ratio[i] = gamma_sum(block, stride);
            fuzzy[i] = qf[bx + i];
        }
        float strength[4];
        _mm_storeu_ps(strength, modulate(_mm_loadu_ps(fuzzy), _mm_loadu_ps(hf),
                                         _mm_loadu_ps(gamma_ratio), mul, add));
        for (size_t i = 0; i < count; ++i)
            qf[bx + i] = strength[i];
    }
}

/* One term of ComputePreErosion for 4 pixels. */
INLINE __m128 pre_erosion_diff(const float *row_t, const float *row_m,
                               const float *row_b)
{
    const __m128 in = _mm_loadu_ps(row_m);
    const __m128 base = _mm_mul_ps(
        _mm_set1_ps(0.25f),
        _mm_add_ps(_mm_add_ps(_mm_loadu_ps(row_m + 1), _mm_loadu_ps(row_m - 1)),
                   _mm_add_ps(_mm_loadu_ps(row_t), _mm_loadu_ps(row_b))));
    const __m128 gammacv = ratio_of_derivatives(
        _mm_add_ps(in, _mm_set1_ps((float)(0.019 / INPUT_SCALING))), 0);
    __m128 diff = _mm_mul_ps(gammacv, _mm_sub_ps(in, base));
    diff = _mm_mul_ps(diff, diff);
    diff = _mm_min_ps(diff, _mm_set1_ps(0.2f));
    const float sqrt_mul = sqrtf((float)(211.50759899638012f * 1e8));
    return _mm_mul_ps(_mm_set1_ps(0.25f),
                      _mm_sqrt_ps(muladd(diff, _mm_set1_ps(sqrt_mul),
                                         _mm_set1_ps(28.0f))));
}

/* The four rows' terms of 4 pixels at x, summed as jpegli accumulates. */
INLINE __m128 pre_erosion_sum(const float *const rows[6], size_t x)
{
    __m128 sum = pre_erosion_diff(rows[0] + x, rows[1] + x, rows[2] + x);
    for (int iy = 1; iy < 4; ++iy) {
        sum = _mm_add_ps(
            pre_erosion_diff(rows[iy] + x, rows[iy + 1] + x, rows[iy + 2] + x),
            sum);
    }
    return sum;
}

void ct_jpeg_pre_erosion_sse2(const float *const rows[6], size_t n_out,
                              float *out)
{
    const __m128 quarter = _mm_set1_ps(0.25f);
    size_t xo = 0;
    for (; xo + 4 <= n_out; xo += 4) {
        /* Output j sums lanes 0..3 of vector j in order: transpose. */
        __m128 s0 = pre_erosion_sum(rows, 4 * xo);
        __m128 s1 = pre_erosion_sum(rows, 4 * xo + 4);
        __m128 s2 = pre_erosion_sum(rows, 4 * xo + 8);
        __m128 s3 = pre_erosion_sum(rows, 4 * xo + 12);
        _MM_TRANSPOSE4_PS(s0, s1, s2, s3);
        const __m128 sum = _mm_add_ps(_mm_add_ps(_mm_add_ps(s0, s1), s2), s3);
        _mm_storeu_ps(out + xo, _mm_mul_ps(sum, quarter));
    }
    for (; xo < n_out; ++xo) {
        float s[4];
        _mm_storeu_ps(s, pre_erosion_sum(rows, 4 * xo));
        out[xo] = (s[0] + s[1] + s[2] + s[3]) * 0.25f;
    }
}

/* Sort4 and UpdateMin4 of FuzzyErosion, then the weighted sum, for 4
 * pixels at x. */
INLINE __m128 fuzzy_erosion_pixels(const float *row_t, const float *row_m,
                                   const float *row_b)
{
    __m128 m0 = _mm_loadu_ps(row_m);
    __m128 m1 = _mm_loadu_ps(row_m - 1);
    __m128 m2 = _mm_loadu_ps(row_m + 1);
    __m128 m3 = _mm_loadu_ps(row_t - 1);
    const __m128 tmp0 = _mm_min_ps(m0, m1);
    const __m128 tmp1 = _mm_max_ps(m0, m1);
    const __m128 tmp2 = _mm_min_ps(m2, m3);
    const __m128 tmp3 = _mm_max_ps(m2, m3);
    const __m128 tmp4 = _mm_max_ps(tmp0, tmp2);
    const __m128 tmp5 = _mm_min_ps(tmp1, tmp3);
    m0 = _mm_min_ps(tmp0, tmp2);
    m1 = _mm_min_ps(tmp4, tmp5);
    m2 = _mm_max_ps(tmp4, tmp5);
    m3 = _mm_max_ps(tmp1, tmp3);
    const __m128 candidates[5] = {
        _mm_loadu_ps(row_t),     _mm_loadu_ps(row_t + 1),
        _mm_loadu_ps(row_b - 1), _mm_loadu_ps(row_b),
        _mm_loadu_ps(row_b + 1),
    };
    for (int i = 0; i < 5; ++i) {
        const __m128 v = candidates[i];
        const __m128 u0 = _mm_max_ps(m0, v);
        const __m128 u1 = _mm_max_ps(m1, u0);
        const __m128 u2 = _mm_max_ps(m2, u1);
        m0 = _mm_min_ps(m0, v);
        m1 = _mm_min_ps(m1, u0);
        m2 = _mm_min_ps(m2, u1);
        m3 = _mm_min_ps(m3, u2);
    }
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(0.125f), m0),
                                 _mm_mul_ps(_mm_set1_ps(0.075f), m1)),
                      _mm_add_ps(_mm_mul_ps(_mm_set1_ps(0.06f), m2),
                                 _mm_mul_ps(_mm_set1_ps(0.05f), m3)));
}

void ct_jpeg_fuzzy_erosion_sse2(const float *const pre[4], size_t nblocks,
                                float *aq)
{
    size_t bx = 0;
    for (; bx + 4 <= nblocks; bx += 4) {
        const size_t x = 2 * bx;
        const size_t x4 = x + 4;
        const __m128 top0 =
            fuzzy_erosion_pixels(pre[0] + x, pre[1] + x, pre[2] + x);
        const __m128 top1 =
            fuzzy_erosion_pixels(pre[0] + x4, pre[1] + x4, pre[2] + x4);
        const __m128 bottom0 =
            fuzzy_erosion_pixels(pre[1] + x, pre[2] + x, pre[3] + x);
        const __m128 bottom1 =
            fuzzy_erosion_pixels(pre[1] + x4, pre[2] + x4, pre[3] + x4);
        const __m128 sum = _mm_add_ps(
            _mm_add_ps(
                _mm_add_ps(
                    _mm_shuffle_ps(bottom0, bottom1, _MM_SHUFFLE(2, 0, 2, 0)),
                    _mm_shuffle_ps(bottom0, bottom1, _MM_SHUFFLE(3, 1, 3, 1))),
                _mm_shuffle_ps(top0, top1, _MM_SHUFFLE(2, 0, 2, 0))),
            _mm_shuffle_ps(top0, top1, _MM_SHUFFLE(3, 1, 3, 1)));
        _mm_storeu_ps(aq + bx, sum);
    }
    if (bx < nblocks) {
        const float *rest[4] = {pre[0] + 2 * bx, pre[1] + 2 * bx,
                                pre[2] + 2 * bx, pre[3] + 2 * bx};
        ct_jpeg_fuzzy_erosion_c(rest, nblocks - bx, aq + bx);
    }
}
