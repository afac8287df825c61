/*
 * Chroma downsampling with SSE2, 4 output samples at a time. Same bits as
 * the kernels of downsample.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/downsample.cc (BSD-3-Clause, Copyright the
 * JPEG XL Project Authors).
 */
#include <emmintrin.h>

#include "../pixel_dsp.h"

void ct_jpeg_downsample_2x1_sse2(const float *in, size_t n_out, float *out)
{
    const __m128 half = _mm_set1_ps(0.5f);
    size_t x = 0;
    for (; x + 4 <= n_out; x += 4) {
        const __m128 a = _mm_loadu_ps(in + 2 * x);
        const __m128 b = _mm_loadu_ps(in + 2 * x + 4);
        const __m128 sum =
            _mm_add_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)),
                       _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
        _mm_storeu_ps(out + x, _mm_mul_ps(half, sum));
    }
    if (x < n_out)
        ct_jpeg_downsample_2x1_c(in + 2 * x, n_out - x, out + x);
}

void ct_jpeg_downsample_1x2_sse2(const float *in0, const float *in1,
                                 size_t n_out, float *out)
{
    const __m128 half = _mm_set1_ps(0.5f);
    size_t x = 0;
    for (; x + 4 <= n_out; x += 4) {
        const __m128 sum =
            _mm_add_ps(_mm_loadu_ps(in0 + x), _mm_loadu_ps(in1 + x));
        _mm_storeu_ps(out + x, _mm_mul_ps(half, sum));
    }
    if (x < n_out)
        ct_jpeg_downsample_1x2_c(in0 + x, in1 + x, n_out - x, out + x);
}

void ct_jpeg_downsample_2x2_sse2(const float *in0, const float *in1,
                                 size_t n_out, float *out)
{
    const __m128 quarter = _mm_set1_ps(0.25f);
    size_t x = 0;
    for (; x + 4 <= n_out; x += 4) {
        const __m128 a0 = _mm_loadu_ps(in0 + 2 * x);
        const __m128 b0 = _mm_loadu_ps(in0 + 2 * x + 4);
        const __m128 a1 = _mm_loadu_ps(in1 + 2 * x);
        const __m128 b1 = _mm_loadu_ps(in1 + 2 * x + 4);
        const __m128 row0 =
            _mm_add_ps(_mm_shuffle_ps(a0, b0, _MM_SHUFFLE(2, 0, 2, 0)),
                       _mm_shuffle_ps(a0, b0, _MM_SHUFFLE(3, 1, 3, 1)));
        const __m128 row1 =
            _mm_add_ps(_mm_shuffle_ps(a1, b1, _MM_SHUFFLE(2, 0, 2, 0)),
                       _mm_shuffle_ps(a1, b1, _MM_SHUFFLE(3, 1, 3, 1)));
        _mm_storeu_ps(out + x, _mm_mul_ps(quarter, _mm_add_ps(row0, row1)));
    }
    if (x < n_out)
        ct_jpeg_downsample_2x2_c(in0 + 2 * x, in1 + 2 * x, n_out - x, out + x);
}
