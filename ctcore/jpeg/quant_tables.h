/*
 * jpegli's constant quantization data: base quantization matrices, the
 * 4:2:0 chroma rescale, zero-bias tables and the distance exponents. All
 * 64-entry tables are in natural (row-major) order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/quant.cc (BSD-3-Clause, Copyright the JPEG XL
 * Project Authors).
 */
#ifndef CTCORE_JPEG_QUANT_TABLES_H
#define CTCORE_JPEG_QUANT_TABLES_H

/* Global scales: butteraugli 3-norm matched to libjpeg at quality 90. */
extern const float ct_jpeg_global_scale_xyb;
extern const float ct_jpeg_global_scale_ycbcr;
extern const float ct_jpeg_420_global_scale;

extern const float ct_jpeg_base_quant_xyb[3 * 64];
extern const float ct_jpeg_base_quant_ycbcr[3 * 64];
extern const float ct_jpeg_base_quant_std[2 * 64];
extern const float ct_jpeg_420_rescale[64];

extern const float ct_jpeg_zero_bias_mul_ycbcr_lq[3 * 64];
extern const float ct_jpeg_zero_bias_mul_ycbcr_hq[3 * 64];
extern const float ct_jpeg_zero_bias_offset_ycbcr_dc[3];
extern const float ct_jpeg_zero_bias_offset_ycbcr_ac[3];

/* Distance where the non-linear scaling starts, and its exponents. */
extern const float ct_jpeg_quant_dist0;
extern const float ct_jpeg_quant_exponent[64];

#endif
