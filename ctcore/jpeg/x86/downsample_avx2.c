/*
 * Chroma downsampling with AVX2, 8 output samples at a time. Same bits as
 * the kernels of downsample.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/downsample.cc (BSD-3-Clause, Copyright the
 * JPEG XL Project Authors).
 */
#include <immintrin.h>

#include "../pixel_dsp.h"

#define TARGET_AVX2 __attribute__((target("avx2,fma")))
#define INLINE_AVX2 static inline TARGET_AVX2 __attribute__((always_inline))

/* The even and odd samples of in[0 .. 16), in order. */
INLINE_AVX2 void deinterleave2(const float *in, __m256 *even, __m256 *odd)
{
    const __m256 a = _mm256_loadu_ps(in);
    const __m256 b = _mm256_loadu_ps(in + 8);
    *even = _mm256_castpd_ps(_mm256_permute4x64_pd(
        _mm256_castps_pd(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))),
        _MM_SHUFFLE(3, 1, 2, 0)));
    *odd = _mm256_castpd_ps(_mm256_permute4x64_pd(
        _mm256_castps_pd(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1))),
        _MM_SHUFFLE(3, 1, 2, 0)));
}

TARGET_AVX2
void ct_jpeg_downsample_2x1_avx2(const float *in, size_t n_out, float *out)
{
    const __m256 half = _mm256_set1_ps(0.5f);
    size_t x = 0;
    for (; x + 8 <= n_out; x += 8) {
        __m256 even, odd;
        deinterleave2(in + 2 * x, &even, &odd);
        const __m256 sum = _mm256_add_ps(even, odd);
        _mm256_storeu_ps(out + x, _mm256_mul_ps(half, sum));
    }
    if (x < n_out)
        ct_jpeg_downsample_2x1_c(in + 2 * x, n_out - x, out + x);
}

TARGET_AVX2
void ct_jpeg_downsample_1x2_avx2(const float *in0, const float *in1,
                                 size_t n_out, float *out)
{
    const __m256 half = _mm256_set1_ps(0.5f);
    size_t x = 0;
    for (; x + 8 <= n_out; x += 8) {
        const __m256 sum = _mm256_add_ps(_mm256_loadu_ps(in0 + x),
                                         _mm256_loadu_ps(in1 + x));
        _mm256_storeu_ps(out + x, _mm256_mul_ps(half, sum));
    }
    if (x < n_out)
        ct_jpeg_downsample_1x2_c(in0 + x, in1 + x, n_out - x, out + x);
}

TARGET_AVX2
void ct_jpeg_downsample_2x2_avx2(const float *in0, const float *in1,
                                 size_t n_out, float *out)
{
    const __m256 quarter = _mm256_set1_ps(0.25f);
    size_t x = 0;
    for (; x + 8 <= n_out; x += 8) {
        __m256 even0, odd0, even1, odd1;
        deinterleave2(in0 + 2 * x, &even0, &odd0);
        deinterleave2(in1 + 2 * x, &even1, &odd1);
        const __m256 sum = _mm256_add_ps(_mm256_add_ps(even0, odd0),
                                         _mm256_add_ps(even1, odd1));
        _mm256_storeu_ps(out + x, _mm256_mul_ps(quarter, sum));
    }
    if (x < n_out)
        ct_jpeg_downsample_2x2_c(in0 + 2 * x, in1 + 2 * x, n_out - x, out + x);
}
