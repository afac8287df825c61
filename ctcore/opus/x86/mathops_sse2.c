/*
 * celt_maxabs16 with SSE2: the lane maxima and minima of the samples. A
 * maximum involves no rounding, so wherever the result is a positive
 * number it is the C loop's whatever the order; the C loop's result is
 * not order-free only through NaN (a comparison with NaN is false, so a
 * NaN replaces the running value and the next sample replaces it) and the
 * sign of a zero result, and for those the C loop runs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <emmintrin.h>
#include <xmmintrin.h>

#include "opus/dsp.h"

float ct_opus_maxabs_sse2(const float *x, int len)
{
    __m128 vmax = _mm_setzero_ps();
    __m128 vmin = _mm_setzero_ps();
    __m128 unordered = _mm_setzero_ps();
    float lanes_max[4], lanes_min[4];
    float maxval, minval, result;
    int i;

    for (i = 0; i + 4 <= len; i += 4) {
        __m128 v = _mm_loadu_ps(x + i);
        unordered = _mm_or_ps(unordered, _mm_cmpunord_ps(v, v));
        vmax = _mm_max_ps(vmax, v);
        vmin = _mm_min_ps(vmin, v);
    }
    if (_mm_movemask_ps(unordered) != 0)
        return ct_opus_maxabs_c(x, len);
    _mm_storeu_ps(lanes_max, vmax);
    _mm_storeu_ps(lanes_min, vmin);
    maxval = lanes_max[0];
    minval = lanes_min[0];
    for (int k = 1; k < 4; k++) {
        maxval = maxval > lanes_max[k] ? maxval : lanes_max[k];
        minval = minval < lanes_min[k] ? minval : lanes_min[k];
    }
    for (; i < len; i++) {
        if (x[i] != x[i])
            return ct_opus_maxabs_c(x, len);
        maxval = maxval > x[i] ? maxval : x[i];
        minval = minval < x[i] ? minval : x[i];
    }
    result = maxval > -minval ? maxval : -minval;
    return result > 0 ? result : ct_opus_maxabs_c(x, len);
}
