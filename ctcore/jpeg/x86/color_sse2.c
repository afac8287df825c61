/*
 * 8-bit input rows -> float planes with SSE2, 8 pixels at a time. Same bits
 * as ct_jpeg_rgb8_to_ycbcr_c_sse2 and ct_jpeg_gray8_to_float_c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/input.cc and lib/jpegli/color_transform.cc
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <emmintrin.h>

#include "../pixel_dsp.h"

typedef struct ycbcr_constants {
    __m128 kr, kg, kb, kdiff_r, kdiff_b, knorm_r, knorm_b, c128;
} ycbcr_constants;

/* ExtRGBToYCbCr on 4 pixels; MulAdd is a multiply then an add on SSE2. */
static inline void store_ycbcr(const ycbcr_constants *k, __m128 r, __m128 g,
                               __m128 b, float *y, float *cb, float *cr)
{
    const __m128 y_base =
        _mm_add_ps(_mm_mul_ps(r, k->kr),
                   _mm_add_ps(_mm_mul_ps(g, k->kg), _mm_mul_ps(b, k->kb)));
    const __m128 b_diff = _mm_sub_ps(_mm_mul_ps(b, k->kdiff_b), y_base);
    const __m128 r_diff = _mm_sub_ps(_mm_mul_ps(r, k->kdiff_r), y_base);
    _mm_storeu_ps(y, y_base);
    _mm_storeu_ps(cb, _mm_add_ps(_mm_mul_ps(b_diff, k->knorm_b), k->c128));
    _mm_storeu_ps(cr, _mm_add_ps(_mm_mul_ps(r_diff, k->knorm_r), k->c128));
}

/* 4 interleaved pixels f0 = R0 G0 B0 R1, f1 = G1 B1 R2 G2,
 * f2 = B2 R3 G3 B3 -> planes. */
static inline void deinterleave3(__m128 f0, __m128 f1, __m128 f2, __m128 *r,
                                 __m128 *g, __m128 *b)
{
    const __m128 r01 = _mm_shuffle_ps(f0, f0, _MM_SHUFFLE(0, 3, 0, 0));
    const __m128 r23 = _mm_shuffle_ps(f1, f2, _MM_SHUFFLE(0, 1, 0, 2));
    const __m128 g01 = _mm_shuffle_ps(f0, f1, _MM_SHUFFLE(0, 0, 0, 1));
    const __m128 g23 = _mm_shuffle_ps(f1, f2, _MM_SHUFFLE(0, 2, 0, 3));
    const __m128 b01 = _mm_shuffle_ps(f0, f1, _MM_SHUFFLE(0, 1, 0, 2));
    const __m128 b23 = _mm_shuffle_ps(f2, f2, _MM_SHUFFLE(0, 3, 0, 0));
    *r = _mm_shuffle_ps(r01, r23, _MM_SHUFFLE(2, 0, 2, 0));
    *g = _mm_shuffle_ps(g01, g23, _MM_SHUFFLE(2, 0, 2, 0));
    *b = _mm_shuffle_ps(b01, b23, _MM_SHUFFLE(2, 0, 2, 0));
}

static inline __m128 bytes_to_float(__m128i bytes16)
{
    return _mm_cvtepi32_ps(_mm_unpacklo_epi16(bytes16, _mm_setzero_si128()));
}

static inline __m128 bytes_to_float_hi(__m128i bytes16)
{
    return _mm_cvtepi32_ps(_mm_unpackhi_epi16(bytes16, _mm_setzero_si128()));
}

void ct_jpeg_rgb8_to_ycbcr_sse2(const uint8_t *rgb, size_t n, float *y,
                                float *cb, float *cr)
{
    const float k_r = 0.299f;
    const float k_g = 0.587f;
    const float k_b = 0.114f;
    const float k_amp_r = 0.701f;
    const float k_amp_b = 0.886f;
    const ycbcr_constants k = {
        .kr = _mm_set1_ps(k_r),
        .kg = _mm_set1_ps(k_g),
        .kb = _mm_set1_ps(k_b),
        .kdiff_r = _mm_set1_ps(k_amp_r + k_r),
        .kdiff_b = _mm_set1_ps(k_amp_b + k_b),
        .knorm_r = _mm_set1_ps(1.0f / (k_amp_r + (k_g + k_b))),
        .knorm_b = _mm_set1_ps(1.0f / (k_r + (k_g + k_amp_b))),
        .c128 = _mm_set1_ps(128.0f),
    };
    const __m128i zero = _mm_setzero_si128();
    size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m128i lo = _mm_loadu_si128((const __m128i *)(rgb + 3 * x));
        const __m128i hi = _mm_loadl_epi64((const __m128i *)(rgb + 3 * x + 16));
        const __m128i w0 = _mm_unpacklo_epi8(lo, zero);
        const __m128i w1 = _mm_unpackhi_epi8(lo, zero);
        const __m128i w2 = _mm_unpacklo_epi8(hi, zero);
        __m128 r, g, b;
        deinterleave3(bytes_to_float(w0), bytes_to_float_hi(w0),
                      bytes_to_float(w1), &r, &g, &b);
        store_ycbcr(&k, r, g, b, y + x, cb + x, cr + x);
        deinterleave3(bytes_to_float_hi(w1), bytes_to_float(w2),
                      bytes_to_float_hi(w2), &r, &g, &b);
        store_ycbcr(&k, r, g, b, y + x + 4, cb + x + 4, cr + x + 4);
    }
    if (x < n)
        ct_jpeg_rgb8_to_ycbcr_c_sse2(rgb + 3 * x, n - x, y + x, cb + x, cr + x);
}

void ct_jpeg_gray8_to_float_sse2(const uint8_t *gray, size_t n, float *out)
{
    size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m128i v = _mm_loadl_epi64((const __m128i *)(gray + x));
        const __m128i w = _mm_unpacklo_epi8(v, _mm_setzero_si128());
        _mm_storeu_ps(out + x, bytes_to_float(w));
        _mm_storeu_ps(out + x + 4, bytes_to_float_hi(w));
    }
    if (x < n)
        ct_jpeg_gray8_to_float_c(gray + x, n - x, out + x);
}
