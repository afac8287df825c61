/*
 * Adaptive quantization: the per-block aq strength of the luma channel.
 * Pre-erosion (local contrast at 1/4 resolution), fuzzy erosion (a weighted
 * sum of the 4 smallest values of each 3x3 neighborhood, summed per block)
 * and the per-block modulations (masking, high-frequency and gamma terms,
 * then 2^x).
 *
 * Target differences: MulAdd is fused on avx2, and the high-frequency and
 * gamma terms sum their per-lane accumulators with Highway's SumOfLanes over
 * 4 (sse2) or 8 (avx2) lanes. Everything else is lane-wise.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/adaptive_quantization.cc (BSD-3-Clause,
 * Copyright the JPEG XL Project Authors).
 */
#include "pixel_dsp.h"
#include "pixel_math.h"

#define INPUT_SCALING (1.0f / 255.0f)
/* kInvLog2e: 1 / log2(e), a float initialized from a double. */
#define INV_LOG2E ((float)0.6931471805599453)

/* Highway's SumOfLanes over lanes acc[0 .. lanes), lanes 4 or 8: across the
 * two 128-bit blocks first, then Reverse4 and Reverse2 within a block. */
CT_PIX_INLINE float sum_of_lanes(const float *acc, int lanes)
{
    if (lanes == 4)
        return (acc[0] + acc[3]) + (acc[1] + acc[2]);
    const float w0 = acc[0] + acc[4];
    const float w1 = acc[1] + acc[5];
    const float w2 = acc[2] + acc[6];
    const float w3 = acc[3] + acc[7];
    return (w0 + w3) + (w1 + w2);
}

/* FastLog2f: a 2,2 rational polynomial after range reduction. */
CT_PIX_INLINE float fast_log2f(float x, int fma)
{
    const float p0 = -1.8503833400518310E-06f;
    const float p1 = 1.4287160470083755E+00f;
    const float p2 = 7.4245873327820566E-01f;
    const float q0 = 9.9032814277590719E-01f;
    const float q1 = 1.0096718572241148E+00f;
    const float q2 = 1.7409343003366853E-01f;
    const uint32_t x_bits = (uint32_t)ct_pix_float_bits(x);
    /* Integer ops on the bits: subtract 2/3 so the mantissa lands in
     * [2/3, 4/3); the arithmetic shift gives the exponent. */
    const int32_t exp_bits = (int32_t)(x_bits - 0x3f2aaaabu);
    const int32_t exp_shifted = exp_bits >> 23;
    const float mantissa =
        ct_pix_bits_float((int32_t)(x_bits - ((uint32_t)exp_shifted << 23)));
    const float exp_val = (float)exp_shifted;
    const float m = mantissa - 1.0f;
    float yp = p2;
    float yq = q2;
    yp = ct_pix_muladd(yp, m, p1, fma);
    yq = ct_pix_muladd(yq, m, q1, fma);
    yp = ct_pix_muladd(yp, m, p0, fma);
    yq = ct_pix_muladd(yq, m, q0, fma);
    return yp / yq + exp_val;
}

/* FastPow2f. Its constants are double literals set into float vectors. */
CT_PIX_INLINE float fast_pow2f(float x, int fma)
{
    const float floorx = floorf(x);
    const float exp =
        ct_pix_bits_float((int32_t)((uint32_t)((int32_t)floorx + 127) << 23));
    const float frac = x - floorx;
    float num = frac + (float)1.01749063e+01;
    num = ct_pix_muladd(num, frac, (float)4.88687798e+01, fma);
    num = ct_pix_muladd(num, frac, (float)9.85506591e+01, fma);
    num = num * exp;
    float den = ct_pix_muladd(frac, (float)2.10242958e-01,
                              (float)-2.22328856e-02, fma);
    den = ct_pix_muladd(den, frac, (float)-1.94414990e+01, fma);
    den = ct_pix_muladd(den, frac, (float)9.85506633e+01, fma);
    return num / den;
}

/* RatioOfDerivativesOfCubicRootToSimpleGamma: converts a difference in
 * jpegli's cube-root space into butteraugli's log-gamma space. */
CT_PIX_INLINE float ratio_of_derivatives(float v, int invert, int fma)
{
    const float sg_mul = 226.0480446705883f;
    const float sg_mul2 = 1.0f / 73.377132366608819f;
    const float sg_ret_mul = sg_mul2 * 18.6580932135f * INV_LOG2E;
    const float sg_v_offset = 7.14672470003f;
    const float epsilon = (float)1e-2;
    const float num_offset = epsilon / INPUT_SCALING / INPUT_SCALING;
    const float num_mul = sg_ret_mul * 3 * sg_mul;
    const float v_offset =
        (sg_v_offset * INV_LOG2E + epsilon) / INPUT_SCALING;
    const float den_mul = INV_LOG2E * sg_mul * INPUT_SCALING * INPUT_SCALING;

    if (v < 0.0f)
        v = 0.0f;
    const float v2 = v * v;
    const float num = ct_pix_muladd(num_mul, v2, num_offset, fma);
    const float den = ct_pix_muladd(den_mul * v, v2, v_offset, fma);
    return invert ? num / den : den / num;
}

/* MaskingSqrt. kMul * 1e8 is a double product rounded to float. */
CT_PIX_INLINE float masking_sqrt(float v, int fma)
{
    const float log_offset = 28.0f;
    const float mul = 211.50759899638012f;
    const float sqrt_mul = sqrtf((float)(mul * 1e8));
    return 0.25f * sqrtf(ct_pix_muladd(v, sqrt_mul, log_offset, fma));
}

/* ComputeMask. */
CT_PIX_INLINE float compute_mask(float out_val, int fma)
{
    const float k_base = -0.74174993f;
    const float k_mul4 = 3.2353257320940401f;
    const float k_mul2 = 12.906028311180409f;
    const float k_offset2 = 305.04035728311436f;
    const float k_mul3 = 5.0220313103171232f;
    const float k_offset3 = 2.1925739705298404f;
    const float k_offset4 = 0.25f * k_offset3;
    const float k_mul0 = 0.74760422233706747f;

    /* Avoids a division by zero. */
    const float v1 = ct_pix_max(out_val * k_mul0, 1e-3f);
    const float v2 = 1.0f / (v1 + k_offset2);
    const float v3 = 1.0f / ct_pix_muladd(v1, v1, k_offset3, fma);
    const float v4 = 1.0f / ct_pix_muladd(v1, v1, k_offset4, fma);
    return k_base + ct_pix_muladd(k_mul4, v4,
                                  ct_pix_muladd(k_mul2, v2, k_mul3 * v3, fma),
                                  fma);
}

/* HfModulation: sum of absolute differences to the right (within the
 * block) and below (the last row against itself), per lane first. */
CT_PIX_INLINE float hf_modulation(const float *block, ptrdiff_t stride,
                                  float out_val, int lanes, int fma)
{
    const float sum_coeff =
        (float)(-2.0052193233688884f * INPUT_SCALING / 112.0);
    float acc[8] = {0};
    for (int dy = 0; dy < 8; ++dy) {
        const float *row = block + dy * stride;
        const float *row_next = dy == 7 ? row : row + stride;
        for (int dx = 0; dx < 8; dx += lanes) {
            for (int i = 0; i < lanes; ++i) {
                const int x = dx + i;
                /* The masked lane adds +0, as And(mask, AbsDiff) does. */
                const float right = x == 7 ? 0.0f : fabsf(row[x] - row[x + 1]);
                acc[i] = acc[i] + right;
                acc[i] = acc[i] + fabsf(row[x] - row_next[x]);
            }
        }
    }
    const float sum = sum_of_lanes(acc, lanes);
    return ct_pix_muladd(sum, sum_coeff, out_val, fma);
}

/* GammaModulation. */
CT_PIX_INLINE float gamma_modulation(const float *block, ptrdiff_t stride,
                                     float out_val, int lanes, int fma)
{
    const float bias = 0.16f / INPUT_SCALING;
    const float scale = INPUT_SCALING / 64.0f;
    /* Ideally -1, but the optimal correction adds some entropy; ln 2
     * folded in because FastLog2f gives log2. */
    const float gamma = -0.15526878023684174f * INV_LOG2E;
    float acc[8] = {0};
    for (int dy = 0; dy < 8; ++dy) {
        const float *row = block + dy * stride;
        for (int dx = 0; dx < 8; dx += lanes) {
            for (int i = 0; i < lanes; ++i) {
                acc[i] = acc[i] +
                         ratio_of_derivatives(row[dx + i] + bias, 1, fma);
            }
        }
    }
    const float overall_ratio = sum_of_lanes(acc, lanes) * scale;
    return ct_pix_muladd(gamma, fast_log2f(overall_ratio, fma), out_val, fma);
}

/* PerBlockModulations, then ComputeAdaptiveQuantField's mapping of the
 * multiplicative field to the aq strength. */
CT_PIX_INLINE void block_modulations(const float *rows, ptrdiff_t stride,
                                     size_t nblocks, int y_quant_01,
                                     float *qf, int lanes, int fma)
{
    float mul, add;
    ct_jpeg_aq_dampening(y_quant_01, &mul, &add);
    for (size_t bx = 0; bx < nblocks; ++bx) {
        const float *block = rows + 8 * bx;
        float out_val = compute_mask(qf[bx], fma);
        out_val = hf_modulation(block, stride, out_val, lanes, fma);
        out_val = gamma_modulation(block, stride, out_val, lanes, fma);
        /* Everything so far modulated an exponent. */
        const float field = fast_pow2f(out_val * 1.442695041f, fma) * mul + add;
        const float strength = 0.6f / field - 1.0f;
        qf[bx] = 0.0f < strength ? strength : 0.0f;
    }
}

void ct_jpeg_block_modulations_c_sse2(const float *rows, ptrdiff_t stride,
                                      size_t nblocks, int y_quant_01,
                                      float *qf)
{
    block_modulations(rows, stride, nblocks, y_quant_01, qf, 4, 0);
}

void ct_jpeg_block_modulations_c_avx2(const float *rows, ptrdiff_t stride,
                                      size_t nblocks, int y_quant_01,
                                      float *qf)
{
    block_modulations(rows, stride, nblocks, y_quant_01, qf, 8, 1);
}

/* One pixel's term of ComputePreErosion: the gamma-weighted difference to
 * the mean of its 4 neighbors, squared, limited and compressed. x is signed:
 * at x = 0, row[x - 1] is the left border, which a size_t x would reach
 * through a wrapped offset (undefined). */
CT_PIX_INLINE float pre_erosion_diff(const float *row_t, const float *row_m,
                                     const float *row_b, ptrdiff_t x, int fma)
{
    /* The XYB gamma is 3; one more cube root brings the total near
     * butteraugli's 2.6. */
    const float match_gamma_offset = (float)(0.019 / INPUT_SCALING);
    const float limit = 0.2f;
    const float in = row_m[x];
    const float base =
        0.25f * ((row_m[x + 1] + row_m[x - 1]) + (row_t[x] + row_b[x]));
    const float gammacv =
        ratio_of_derivatives(in + match_gamma_offset, 0, fma);
    float diff = gammacv * (in - base);
    diff = diff * diff;
    diff = ct_pix_min(diff, limit);
    return masking_sqrt(diff, fma);
}

/* ComputePreErosion for one output row: four input rows summed per pixel,
 * then averaged over 4 pixels. */
CT_PIX_INLINE void pre_erosion(const float *const rows[6], size_t n_out,
                               float *out, int fma)
{
    for (size_t xo = 0; xo < n_out; ++xo) {
        float sum[4];
        for (int i = 0; i < 4; ++i) {
            const ptrdiff_t x = (ptrdiff_t)(4 * xo) + i;
            float s = pre_erosion_diff(rows[0], rows[1], rows[2], x, fma);
            for (int iy = 1; iy < 4; ++iy) {
                s = pre_erosion_diff(rows[iy], rows[iy + 1], rows[iy + 2], x,
                                     fma) + s;
            }
            sum[i] = s;
        }
        out[xo] = (sum[0] + sum[1] + sum[2] + sum[3]) * 0.25f;
    }
}

void ct_jpeg_pre_erosion_c_sse2(const float *const rows[6], size_t n_out,
                                float *out)
{
    pre_erosion(rows, n_out, out, 0);
}

void ct_jpeg_pre_erosion_c_avx2(const float *const rows[6], size_t n_out,
                                float *out)
{
    pre_erosion(rows, n_out, out, 1);
}

/* Sort4 of FuzzyErosion: min0 <= min1 <= min2 <= min3. */
static inline void sort4(float *m)
{
    const float tmp0 = ct_pix_min(m[0], m[1]);
    const float tmp1 = ct_pix_max(m[0], m[1]);
    const float tmp2 = ct_pix_min(m[2], m[3]);
    const float tmp3 = ct_pix_max(m[2], m[3]);
    const float tmp4 = ct_pix_max(tmp0, tmp2);
    const float tmp5 = ct_pix_min(tmp1, tmp3);
    m[0] = ct_pix_min(tmp0, tmp2);
    m[1] = ct_pix_min(tmp4, tmp5);
    m[2] = ct_pix_max(tmp4, tmp5);
    m[3] = ct_pix_max(tmp1, tmp3);
}

/* UpdateMin4: keeps the 4 smallest values seen. */
static inline void update_min4(float v, float *m)
{
    const float tmp0 = ct_pix_max(m[0], v);
    const float tmp1 = ct_pix_max(m[1], tmp0);
    const float tmp2 = ct_pix_max(m[2], tmp1);
    m[0] = ct_pix_min(m[0], v);
    m[1] = ct_pix_min(m[1], tmp0);
    m[2] = ct_pix_min(m[2], tmp1);
    m[3] = ct_pix_min(m[3], tmp2);
}

/* One pixel of FuzzyErosion; x is signed as in pre_erosion_diff. */
static inline float fuzzy_erosion_pixel(const float *row_t, const float *row_m,
                                        const float *row_b, ptrdiff_t x)
{
    float m[4] = {row_m[x], row_m[x - 1], row_m[x + 1], row_t[x - 1]};
    sort4(m);
    update_min4(row_t[x], m);
    update_min4(row_t[x + 1], m);
    update_min4(row_b[x - 1], m);
    update_min4(row_b[x], m);
    update_min4(row_b[x + 1], m);
    return (0.125f * m[0] + 0.075f * m[1]) + (0.06f * m[2] + 0.05f * m[3]);
}

void ct_jpeg_fuzzy_erosion_c(const float *const pre[4], size_t nblocks,
                             float *aq)
{
    for (size_t bx = 0; bx < nblocks; ++bx) {
        const ptrdiff_t x = (ptrdiff_t)(2 * bx);
        const float top0 = fuzzy_erosion_pixel(pre[0], pre[1], pre[2], x);
        const float top1 = fuzzy_erosion_pixel(pre[0], pre[1], pre[2], x + 1);
        const float bottom0 = fuzzy_erosion_pixel(pre[1], pre[2], pre[3], x);
        const float bottom1 =
            fuzzy_erosion_pixel(pre[1], pre[2], pre[3], x + 1);
        aq[bx] = bottom0 + bottom1 + top0 + top1;
    }
}
