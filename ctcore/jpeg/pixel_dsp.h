/*
 * The kernels of the pixel phase, as a table of function pointers chosen
 * once per frame. Every kernel works on a row (or a row of blocks), so the
 * dispatch costs one indirect call per row.
 *
 * Each kernel has a scalar reference per arithmetic target (suffix _c_sse2:
 * four lanes, unfused MulAdd; _c_avx2: eight lanes, fused MulAdd; plain _c
 * where the target makes no difference) and SIMD versions (x86/) that give
 * the same bits (tests/jpeg/checkasm.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_PIXEL_DSP_H
#define CTCORE_JPEG_PIXEL_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/ctcore.h"

/* Interleaved 8-bit RGB -> Y, Cb, Cr floats (jpegli's ReadUint8Row and
 * RGBToYCbCr). */
typedef void (*ct_jpeg_rgb8_to_ycbcr_fn)(const uint8_t *rgb, size_t n,
                                         float *y, float *cb, float *cr);
/* 8-bit gray -> floats. */
typedef void (*ct_jpeg_gray8_to_float_fn)(const uint8_t *gray, size_t n,
                                          float *out);
/* Downsampling by 2 horizontally (one input row), vertically (two rows) or
 * both; n_out output samples. */
typedef void (*ct_jpeg_downsample_h2_fn)(const float *in, size_t n_out,
                                         float *out);
typedef void (*ct_jpeg_downsample_v2_fn)(const float *in0, const float *in1,
                                         size_t n_out, float *out);

/*
 * One row of adaptive quantization's pre-erosion image (1/4 resolution):
 * rows[0..5] are the luma rows 4p-1 .. 4p+4 of pre-erosion row p, rows[1..4]
 * readable at x = -1 .. 4 * n_out. Writes out[0 .. n_out); n_out is even
 * (2 per block).
 */
typedef void (*ct_jpeg_pre_erosion_fn)(const float *const rows[6],
                                       size_t n_out, float *out);
/*
 * Fuzzy erosion of pre-erosion rows 2yb-1 .. 2yb+2 (pre[0..3], readable at
 * x = -1 .. 2 * nblocks) into the per-block values aq[0 .. nblocks) of block
 * row yb.
 */
typedef void (*ct_jpeg_fuzzy_erosion_fn)(const float *const pre[4],
                                         size_t nblocks, float *aq);
/*
 * PerBlockModulations and the final mapping of ComputeAdaptiveQuantField:
 * luma block row at `rows` (8 rows, `stride` floats apart, readable at
 * x = 0 .. 8 * nblocks), qf in: fuzzy erosion values, out: the quant field
 * (aq strength per block).
 */
typedef void (*ct_jpeg_block_modulations_fn)(const float *rows,
                                             ptrdiff_t stride, size_t nblocks,
                                             int y_quant_01, float *qf);

/* ComputeAdaptiveQuantField's dampening by y_quant_01 (quantval[1] of the
 * luma table): the block_modulations kernels map a block's modulated field
 * f to f * mul + add before they take its aq strength. */
static inline void ct_jpeg_aq_dampening(int y_quant_01, float *mul,
                                        float *add)
{
    const float ac_quant = 0.841f;
    const float base_level = 0.48f * ac_quant;
    const float dampen_ramp_start = 9.0f;
    const float dampen_ramp_end = 65.0f;
    const float y_quant = (float)y_quant_01;
    float dampen = 1.0f;
    if (y_quant >= dampen_ramp_start) {
        dampen = 1.0f - ((y_quant - dampen_ramp_start) /
                         (dampen_ramp_end - dampen_ramp_start));
        if (dampen < 0)
            dampen = 0;
    }
    *mul = ac_quant * dampen;
    *add = (1.0f - dampen) * base_level;
}

/*
 * ComputeCoefficientBlock for a row of blocks of one component: DCT,
 * quantization and zigzag store of the AC coefficients into blocks (64 per
 * block, coefficient 0 set to 0), the unrounded DC and its threshold into
 * dc_value and dc_threshold. The aq strength of block bx is
 * aq[bx * aq_step], or 0 when aq is NULL.
 */
typedef void (*ct_jpeg_dct_quant_row_fn)(
    const float *pixels, ptrdiff_t stride, size_t nblocks, const float *qmc,
    const float *zero_bias_offset, const float *zero_bias_mul,
    const float *aq, size_t aq_step, int16_t *blocks, float *dc_value,
    float *dc_threshold);

typedef struct ct_jpeg_pixel_dsp {
    ct_jpeg_rgb8_to_ycbcr_fn rgb8_to_ycbcr;
    ct_jpeg_gray8_to_float_fn gray8_to_float;
    ct_jpeg_downsample_h2_fn downsample_2x1;
    ct_jpeg_downsample_v2_fn downsample_1x2;
    ct_jpeg_downsample_v2_fn downsample_2x2;
    ct_jpeg_pre_erosion_fn pre_erosion;
    ct_jpeg_fuzzy_erosion_fn fuzzy_erosion;
    ct_jpeg_block_modulations_fn block_modulations;
    ct_jpeg_dct_quant_row_fn dct_quant_row;
} ct_jpeg_pixel_dsp;

/* The scalar references for a target (CT_SIMD_SSE2 or CT_SIMD_AVX2). */
void ct_jpeg_pixel_dsp_init_c(ct_jpeg_pixel_dsp *dsp, ct_simd simd);
/* The scalar references, upgraded to the fastest kernels that cpu_flags
 * (common/cpu.h) allow and that reproduce the target. */
void ct_jpeg_pixel_dsp_init(ct_jpeg_pixel_dsp *dsp, ct_simd simd,
                            unsigned cpu_flags);

/* color.c */
void ct_jpeg_rgb8_to_ycbcr_c_sse2(const uint8_t *rgb, size_t n, float *y,
                                  float *cb, float *cr);
void ct_jpeg_rgb8_to_ycbcr_c_avx2(const uint8_t *rgb, size_t n, float *y,
                                  float *cb, float *cr);
void ct_jpeg_gray8_to_float_c(const uint8_t *gray, size_t n, float *out);

/* downsample.c */
void ct_jpeg_downsample_2x1_c(const float *in, size_t n_out, float *out);
void ct_jpeg_downsample_1x2_c(const float *in0, const float *in1,
                              size_t n_out, float *out);
void ct_jpeg_downsample_2x2_c(const float *in0, const float *in1,
                              size_t n_out, float *out);

/* aq.c */
void ct_jpeg_pre_erosion_c_sse2(const float *const rows[6], size_t n_out,
                                float *out);
void ct_jpeg_pre_erosion_c_avx2(const float *const rows[6], size_t n_out,
                                float *out);
void ct_jpeg_fuzzy_erosion_c(const float *const pre[4], size_t nblocks,
                             float *aq);
void ct_jpeg_block_modulations_c_sse2(const float *rows, ptrdiff_t stride,
                                      size_t nblocks, int y_quant_01,
                                      float *qf);
void ct_jpeg_block_modulations_c_avx2(const float *rows, ptrdiff_t stride,
                                      size_t nblocks, int y_quant_01,
                                      float *qf);

/* dct.c */
void ct_jpeg_dct_quant_row_c_sse2(const float *pixels, ptrdiff_t stride,
                                  size_t nblocks, const float *qmc,
                                  const float *zero_bias_offset,
                                  const float *zero_bias_mul, const float *aq,
                                  size_t aq_step, int16_t *blocks,
                                  float *dc_value, float *dc_threshold);
void ct_jpeg_dct_quant_row_c_avx2(const float *pixels, ptrdiff_t stride,
                                  size_t nblocks, const float *qmc,
                                  const float *zero_bias_offset,
                                  const float *zero_bias_mul, const float *aq,
                                  size_t aq_step, int16_t *blocks,
                                  float *dc_value, float *dc_threshold);

/*
 * SIMD kernels (x86/), same signatures and bits as the references: _sse2
 * as the _c_sse2 (or _c) kernel, _avx2 (AVX2 and FMA) as the _c_avx2 (or
 * _c) kernel.
 */
#define CT_JPEG_DECLARE_SIMD(isa)                                             \
    void ct_jpeg_rgb8_to_ycbcr_##isa(const uint8_t *rgb, size_t n, float *y,  \
                                     float *cb, float *cr);                   \
    void ct_jpeg_gray8_to_float_##isa(const uint8_t *gray, size_t n,          \
                                      float *out);                            \
    void ct_jpeg_downsample_2x1_##isa(const float *in, size_t n_out,          \
                                      float *out);                            \
    void ct_jpeg_downsample_1x2_##isa(const float *in0, const float *in1,     \
                                      size_t n_out, float *out);              \
    void ct_jpeg_downsample_2x2_##isa(const float *in0, const float *in1,     \
                                      size_t n_out, float *out);              \
    void ct_jpeg_pre_erosion_##isa(const float *const rows[6], size_t n_out,  \
                                   float *out);                               \
    void ct_jpeg_fuzzy_erosion_##isa(const float *const pre[4],               \
                                     size_t nblocks, float *aq);              \
    void ct_jpeg_block_modulations_##isa(const float *rows, ptrdiff_t stride, \
                                         size_t nblocks, int y_quant_01,      \
                                         float *qf);                          \
    void ct_jpeg_dct_quant_row_##isa(                                         \
        const float *pixels, ptrdiff_t stride, size_t nblocks,                \
        const float *qmc, const float *zero_bias_offset,                      \
        const float *zero_bias_mul, const float *aq, size_t aq_step,          \
        int16_t *blocks, float *dc_value, float *dc_threshold);

CT_JPEG_DECLARE_SIMD(sse2)
CT_JPEG_DECLARE_SIMD(avx2)

#endif
