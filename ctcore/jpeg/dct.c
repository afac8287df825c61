/*
 * Forward DCT, quantization and zigzag store of 8x8 blocks: jpegli's
 * ComputeCoefficientBlock without the DC decision (see coeffs.h).
 *
 * The 1-D DCT is jpegli's recursive factorization, columns first, each pass
 * scaled by 1/8. Its only fused operation is the MulAdd of B<N>.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/dct-inl.h, lib/jpegli/transpose-inl.h and
 * lib/jpegli/encode_streaming.cc (BSD-3-Clause, Copyright the JPEG XL
 * Project Authors).
 */
#include "frame.h"
#include "pixel_dsp.h"
#include "pixel_math.h"

const uint8_t ct_jpeg_natural_order[CT_DCTSIZE2] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

#define DCT_SQRT2 1.41421356237f

/* WcMultipliers: 1 / (2 cos((i + 0.5) pi / N)), double literals in a float
 * array. */
static const float wc_multipliers4[2] = {
    (float)0.541196100146197,
    (float)1.3065629648763764,
};
static const float wc_multipliers8[4] = {
    (float)0.5097955791041592,
    (float)0.6013448869350453,
    (float)0.8999762231364156,
    (float)2.5629154477415055,
};

/* DCT1DImpl<4> in place. */
CT_PIX_INLINE void dct1d_4(float *m, int fma)
{
    const float even0 = m[0] + m[3];
    const float even1 = m[1] + m[2];
    float odd0 = (m[0] - m[3]) * wc_multipliers4[0];
    float odd1 = (m[1] - m[2]) * wc_multipliers4[1];
    const float sum = odd0 + odd1;
    odd1 = odd0 - odd1;
    odd0 = ct_pix_muladd(sum, DCT_SQRT2, odd1, fma);
    m[0] = even0 + even1;
    m[2] = even0 - even1;
    m[1] = odd0;
    m[3] = odd1;
}

/* DCT1DImpl<8> in place. */
CT_PIX_INLINE void dct1d_8(float *m, int fma)
{
    float even[4], odd[4];
    for (int i = 0; i < 4; ++i) {
        even[i] = m[i] + m[7 - i];
        odd[i] = (m[i] - m[7 - i]) * wc_multipliers8[i];
    }
    dct1d_4(even, fma);
    dct1d_4(odd, fma);
    /* B<4>: each odd output but the last absorbs its successor. */
    odd[0] = ct_pix_muladd(odd[0], DCT_SQRT2, odd[1], fma);
    odd[1] = odd[1] + odd[2];
    odd[2] = odd[2] + odd[3];
    for (int i = 0; i < 4; ++i) {
        m[2 * i] = even[i];
        m[2 * i + 1] = odd[i];
    }
}

/* TransformFromPixels: coefficient [u * 8 + v], u vertical frequency. */
CT_PIX_INLINE void transform_from_pixels(const float *pixels, ptrdiff_t stride,
                                         float *coeffs, int fma)
{
    float columns[64];
    float v[8];
    for (int x = 0; x < 8; ++x) {
        for (int y = 0; y < 8; ++y)
            v[y] = pixels[y * stride + x];
        dct1d_8(v, fma);
        for (int u = 0; u < 8; ++u)
            columns[u * 8 + x] = v[u] * 0.125f;
    }
    for (int u = 0; u < 8; ++u) {
        for (int x = 0; x < 8; ++x)
            v[x] = columns[u * 8 + x];
        dct1d_8(v, fma);
        for (int k = 0; k < 8; ++k)
            coeffs[u * 8 + k] = v[k] * 0.125f;
    }
}

CT_PIX_INLINE void dct_quant_row(const float *pixels, ptrdiff_t stride,
                                 size_t nblocks, const float *qmc,
                                 const float *zero_bias_offset,
                                 const float *zero_bias_mul, const float *aq,
                                 size_t aq_step, int16_t *blocks,
                                 float *dc_value, float *dc_threshold, int fma)
{
    for (size_t bx = 0; bx < nblocks; ++bx) {
        float dct[64];
        int32_t quantized[64];
        transform_from_pixels(pixels + 8 * bx, stride, dct, fma);
        const float aq_strength = aq != NULL ? aq[bx * aq_step] : 0.0f;
        /* QuantizeBlock: zero below the threshold, else round to nearest
         * even. */
        for (int k = 0; k < 64; ++k) {
            const float qval = dct[k] * qmc[k];
            const float threshold =
                zero_bias_offset[k] + zero_bias_mul[k] * aq_strength;
            quantized[k] =
                fabsf(qval) >= threshold ? (int32_t)nearbyintf(qval) : 0;
        }
        int16_t *block = blocks + 64 * bx;
        block[0] = 0;
        for (int k = 1; k < 64; ++k)
            block[k] = (int16_t)quantized[ct_jpeg_natural_order[k]];
        /* Centered around zero; the threshold is DC's zero bias. */
        dc_value[bx] = (dct[0] - 128.0f) * qmc[0];
        dc_threshold[bx] = zero_bias_offset[0] + aq_strength * zero_bias_mul[0];
    }
}

void ct_jpeg_dct_quant_row_c_sse2(const float *pixels, ptrdiff_t stride,
                                  size_t nblocks, const float *qmc,
                                  const float *zero_bias_offset,
                                  const float *zero_bias_mul, const float *aq,
                                  size_t aq_step, int16_t *blocks,
                                  float *dc_value, float *dc_threshold)
{
    dct_quant_row(pixels, stride, nblocks, qmc, zero_bias_offset,
                  zero_bias_mul, aq, aq_step, blocks, dc_value, dc_threshold,
                  0);
}

void ct_jpeg_dct_quant_row_c_avx2(const float *pixels, ptrdiff_t stride,
                                  size_t nblocks, const float *qmc,
                                  const float *zero_bias_offset,
                                  const float *zero_bias_mul, const float *aq,
                                  size_t aq_step, int16_t *blocks,
                                  float *dc_value, float *dc_threshold)
{
    dct_quant_row(pixels, stride, nblocks, qmc, zero_bias_offset,
                  zero_bias_mul, aq, aq_step, blocks, dc_value, dc_threshold,
                  1);
}
