/*
 * SILK's sine window (float): the rising (type 1, 0 to pi/2) or falling
 * (type 2, pi/2 to pi) quarter of a sine, from the recursion
 * sin(n*f) = 2 * cos(f) * sin((n-1)*f) - sin((n-2)*f) with approximations of
 * 2 * cos(f) and of the first values.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/apply_sine_window_FLP.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include <assert.h>

#include "opus/silk/silk.h"

void ct_silk_apply_sine_window_FLP(float px_win[], const float px[],
                                   const int win_type, const int length)
{
    int k;
    float freq, c, S0, S1;

    assert(win_type == 1 || win_type == 2);

    /* Length must be multiple of 4 */
    assert((length & 3) == 0);

    freq = PI / (length + 1);

    /* Approximation of 2 * cos(f) */
    c = 2.0f - freq * freq;

    /* Initialize state */
    if (win_type < 2) {
        /* Start from 0 */
        S0 = 0.0f;
        /* Approximation of sin(f) */
        S1 = freq;
    } else {
        /* Start from 1 */
        S0 = 1.0f;
        /* Approximation of cos(f) */
        S1 = 0.5f * c;
    }

    /* 4 samples at a time */
    for (k = 0; k < length; k += 4) {
        px_win[k + 0] = px[k + 0] * 0.5f * (S0 + S1);
        px_win[k + 1] = px[k + 1] * S1;
        S0 = c * S1 - S0;
        px_win[k + 2] = px[k + 2] * 0.5f * (S1 + S0);
        px_win[k + 3] = px[k + 3] * S0;
        S1 = c * S0 - S1;
    }
}
