/*
 * SILK's step-up recursion (float): reflection coefficients to
 * prediction coefficients.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/k2a_FLP.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors)
 */
#include "opus/silk/silk.h"

void ct_silk_k2a_FLP(float *A, const float *rc, int32_t order)
{
    int k, n;
    float rck, tmp1, tmp2;

    for (k = 0; k < order; k++) {
        rck = rc[k];
        for (n = 0; n < (k + 1) >> 1; n++) {
            tmp1 = A[n];
            tmp2 = A[k - n - 1];
            A[n] = tmp1 + tmp2 * rck;
            A[k - n - 1] = tmp2 + tmp1 * rck;
        }
        A[k] = -rck;
    }
}
