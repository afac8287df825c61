/*
 * Input rows -> float planes: 8-bit samples to float (exact), and for RGB
 * input the full-range BT.601 transform to YCbCr (JFIF clause 7).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/input.cc and lib/jpegli/color_transform.cc
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include "pixel_dsp.h"
#include "pixel_math.h"

/* ExtRGBToYCbCr. The constants are float expressions, as jpegli builds
 * them from Set() vectors. */
CT_PIX_INLINE void rgb8_to_ycbcr(const uint8_t *rgb, size_t n, float *y,
                                 float *cb, float *cr, int fma)
{
    const float k_r = 0.299f;
    const float k_g = 0.587f;
    const float k_b = 0.114f;
    const float k_amp_r = 0.701f;
    const float k_amp_b = 0.886f;
    const float k_diff_r = k_amp_r + k_r;
    const float k_diff_b = k_amp_b + k_b;
    const float k_norm_r = 1.0f / (k_amp_r + (k_g + k_b));
    const float k_norm_b = 1.0f / (k_r + (k_g + k_amp_b));
    for (size_t x = 0; x < n; ++x) {
        const float r = rgb[3 * x];
        const float g = rgb[3 * x + 1];
        const float b = rgb[3 * x + 2];
        const float y_base = r * k_r + (g * k_g + b * k_b);
        y[x] = y_base;
        cb[x] = ct_pix_muladd(b * k_diff_b - y_base, k_norm_b, 128.0f, fma);
        cr[x] = ct_pix_muladd(r * k_diff_r - y_base, k_norm_r, 128.0f, fma);
    }
}

void ct_jpeg_rgb8_to_ycbcr_c_sse2(const uint8_t *rgb, size_t n, float *y,
                                  float *cb, float *cr)
{
    rgb8_to_ycbcr(rgb, n, y, cb, cr, 0);
}

void ct_jpeg_rgb8_to_ycbcr_c_avx2(const uint8_t *rgb, size_t n, float *y,
                                  float *cb, float *cr)
{
    rgb8_to_ycbcr(rgb, n, y, cb, cr, 1);
}

void ct_jpeg_gray8_to_float_c(const uint8_t *gray, size_t n, float *out)
{
    for (size_t x = 0; x < n; ++x)
        out[x] = gray[x];
}
