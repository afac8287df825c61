/*
 * SILK's autocorrelation on a warped frequency axis (float input, a
 * cascade of first-order allpass sections computed in double).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/warped_autocorrelation_FLP.c
 * (BSD-3-Clause, Xiph.Org Foundation and contributors)
 */
#include <assert.h>

#include "opus/silk/silk.h"

void ct_silk_warped_autocorrelation_FLP(float *corr, const float *input,
                                        const float warping, const int length,
                                        const int order)
{
    int n, i;
    double tmp1, tmp2;
    double state[MAX_SHAPE_LPC_ORDER + 1] = {0};
    double C[MAX_SHAPE_LPC_ORDER + 1] = {0};

    /* Order must be even */
    assert((order & 1) == 0);

    /* Loop over samples */
    for (n = 0; n < length; n++) {
        tmp1 = input[n];
        /* Loop over allpass sections */
        for (i = 0; i < order; i += 2) {
            /* Output of allpass section */
            tmp2 = state[i] + warping * (state[i + 1] - tmp1);
            state[i] = tmp1;
            C[i] += state[0] * tmp1;
            /* Output of allpass section */
            tmp1 = state[i + 1] + warping * (state[i + 2] - tmp2);
            state[i + 1] = tmp2;
            C[i + 1] += state[0] * tmp2;
        }
        state[order] = tmp1;
        C[order] += state[0] * tmp1;
    }

    /* Copy correlations in float output format */
    for (i = 0; i < order + 1; i++) {
        corr[i] = (float)C[i];
    }
}
