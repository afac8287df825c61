/*
 * The speex resampler's SSE dot product (libopusenc builds resample.c with
 * __SSE__ defined, as every x86-64 build is): two 4-lane partial sums per
 * 8 taps, then the horizontal add (lanes 0+2, 1+3, then their sum), so the
 * float result differs from the C loop's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopusenc 0.2.1 src/resample_sse.h (BSD-3-Clause, Jean-Marc
 * Valin, Xiph.Org Foundation and contributors)
 */
#include "opus/dsp.h"

#include <xmmintrin.h>

/* len is a multiple of 8 (update_filter rounds the filter length up to 8;
 * the up-sampling length of every quality is one). */
float ct_opus_resampler_inner_product_sse(const float *a, const float *b, unsigned len)
{
    unsigned i;
    float ret;
    __m128 sum = _mm_setzero_ps();
    for (i = 0; i < len; i += 8) {
        sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)));
        sum = _mm_add_ps(sum, _mm_mul_ps(_mm_loadu_ps(a + i + 4), _mm_loadu_ps(b + i + 4)));
    }
    sum = _mm_add_ps(sum, _mm_movehl_ps(sum, sum));
    sum = _mm_add_ss(sum, _mm_shuffle_ps(sum, sum, 0x55));
    _mm_store_ss(&ret, sum);
    return ret;
}
