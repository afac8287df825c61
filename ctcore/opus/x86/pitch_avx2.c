/*
 * The pitch correlation's eight lags at once with AVX2, each lane the
 * bits of ct_opus_xcorr_kernel_sse's for its lag: lane k adds
 * x[j] * y[j + k] to the first of two partial sums for even j and to the
 * second for odd j, as the SSE kernel's xsum1 and xsum2 do, and adds the
 * two at the end.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <immintrin.h>

#include "opus/dsp.h"

__attribute__((target("avx2"))) void ct_opus_xcorr_kernel8_avx2(const float *x,
                                                                const float *y,
                                                                float sum[8],
                                                                int len)
{
    __m256 even = _mm256_loadu_ps(sum);
    __m256 odd = _mm256_setzero_ps();
    int j;

    for (j = 0; j + 1 < len; j += 2) {
        even = _mm256_add_ps(even, _mm256_mul_ps(_mm256_broadcast_ss(x + j),
                                                 _mm256_loadu_ps(y + j)));
        odd = _mm256_add_ps(odd, _mm256_mul_ps(_mm256_broadcast_ss(x + j + 1),
                                               _mm256_loadu_ps(y + j + 1)));
    }
    if (j < len)
        even = _mm256_add_ps(even, _mm256_mul_ps(_mm256_broadcast_ss(x + j),
                                                 _mm256_loadu_ps(y + j)));
    _mm256_storeu_ps(sum, _mm256_add_ps(even, odd));
}
