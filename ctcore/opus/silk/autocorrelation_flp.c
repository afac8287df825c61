/*
 * SILK's float autocorrelation: results[i], i < correlationCount, the
 * double inner products of the input with itself shifted by i, rounded to
 * float.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/autocorrelation_FLP.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include "opus/silk/silk.h"

void ct_silk_autocorrelation_FLP(float *results, const float *inputData,
                                 int inputDataSize, int correlationCount)
{
    int i;

    if (correlationCount > inputDataSize) {
        correlationCount = inputDataSize;
    }

    for (i = 0; i < correlationCount; i++) {
        results[i] = (float)ct_silk_inner_product_FLP(inputData, inputData + i,
                                                      inputDataSize - i);
    }
}
