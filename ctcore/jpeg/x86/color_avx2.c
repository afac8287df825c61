/*
 * 8-bit input rows -> float planes with AVX2 and FMA, 8 pixels at a time.
 * Same bits as ct_jpeg_rgb8_to_ycbcr_c_avx2 and ct_jpeg_gray8_to_float_c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/input.cc and lib/jpegli/color_transform.cc
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <immintrin.h>

#include "../pixel_dsp.h"

#define TARGET_AVX2 __attribute__((target("avx2,fma")))

TARGET_AVX2
void ct_jpeg_rgb8_to_ycbcr_avx2(const uint8_t *rgb, size_t n, float *y,
                                float *cb, float *cr)
{
    const float k_r = 0.299f;
    const float k_g = 0.587f;
    const float k_b = 0.114f;
    const float k_amp_r = 0.701f;
    const float k_amp_b = 0.886f;
    const __m256 kr = _mm256_set1_ps(k_r);
    const __m256 kg = _mm256_set1_ps(k_g);
    const __m256 kb = _mm256_set1_ps(k_b);
    const __m256 kdiff_r = _mm256_set1_ps(k_amp_r + k_r);
    const __m256 kdiff_b = _mm256_set1_ps(k_amp_b + k_b);
    const __m256 knorm_r = _mm256_set1_ps(1.0f / (k_amp_r + (k_g + k_b)));
    const __m256 knorm_b = _mm256_set1_ps(1.0f / (k_r + (k_g + k_amp_b)));
    const __m256 c128 = _mm256_set1_ps(128.0f);
    /* Bytes 0..15 and 16..23 of 8 pixels -> the 8 samples of a channel. */
    const __m128i r_lo = _mm_setr_epi8(0, 3, 6, 9, 12, 15, -1, -1, -1, -1, -1,
                                       -1, -1, -1, -1, -1);
    const __m128i r_hi = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, 2, 5, -1, -1,
                                       -1, -1, -1, -1, -1, -1);
    const __m128i g_lo = _mm_setr_epi8(1, 4, 7, 10, 13, -1, -1, -1, -1, -1,
                                       -1, -1, -1, -1, -1, -1);
    const __m128i g_hi = _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 3, 6, -1, -1,
                                       -1, -1, -1, -1, -1, -1);
    const __m128i b_lo = _mm_setr_epi8(2, 5, 8, 11, 14, -1, -1, -1, -1, -1,
                                       -1, -1, -1, -1, -1, -1);
    const __m128i b_hi = _mm_setr_epi8(-1, -1, -1, -1, -1, 1, 4, 7, -1, -1,
                                       -1, -1, -1, -1, -1, -1);
    size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m128i lo = _mm_loadu_si128((const __m128i *)(rgb + 3 * x));
        const __m128i hi = _mm_loadl_epi64((const __m128i *)(rgb + 3 * x + 16));
        const __m128i r8 = _mm_or_si128(_mm_shuffle_epi8(lo, r_lo),
                                        _mm_shuffle_epi8(hi, r_hi));
        const __m128i g8 = _mm_or_si128(_mm_shuffle_epi8(lo, g_lo),
                                        _mm_shuffle_epi8(hi, g_hi));
        const __m128i b8 = _mm_or_si128(_mm_shuffle_epi8(lo, b_lo),
                                        _mm_shuffle_epi8(hi, b_hi));
        const __m256 r = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(r8));
        const __m256 g = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(g8));
        const __m256 b = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b8));
        const __m256 y_base = _mm256_add_ps(
            _mm256_mul_ps(r, kr),
            _mm256_add_ps(_mm256_mul_ps(g, kg), _mm256_mul_ps(b, kb)));
        const __m256 b_diff = _mm256_sub_ps(_mm256_mul_ps(b, kdiff_b), y_base);
        const __m256 r_diff = _mm256_sub_ps(_mm256_mul_ps(r, kdiff_r), y_base);
        _mm256_storeu_ps(y + x, y_base);
        _mm256_storeu_ps(cb + x, _mm256_fmadd_ps(b_diff, knorm_b, c128));
        _mm256_storeu_ps(cr + x, _mm256_fmadd_ps(r_diff, knorm_r, c128));
    }
    if (x < n)
        ct_jpeg_rgb8_to_ycbcr_c_avx2(rgb + 3 * x, n - x, y + x, cb + x, cr + x);
}

TARGET_AVX2
void ct_jpeg_gray8_to_float_avx2(const uint8_t *gray, size_t n, float *out)
{
    size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m128i v = _mm_loadl_epi64((const __m128i *)(gray + x));
        _mm256_storeu_ps(out + x, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v)));
    }
    if (x < n)
        ct_jpeg_gray8_to_float_c(gray + x, n - x, out + x);
}
