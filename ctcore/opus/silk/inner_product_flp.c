/*
 * SILK's float inner product of two float vectors, in double, 4
 * products per addition to the sum.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/inner_product_FLP.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include "opus/silk/silk.h"

/* inner product of two float arrays, with result as double */
double ct_silk_inner_product_FLP(const float *data1, const float *data2,
                                 int dataSize)
{
    int i;
    double result;

    /* 4x unrolled loop */
    result = 0.0;
    for (i = 0; i < dataSize - 3; i += 4) {
        result += data1[i + 0] * (double)data2[i + 0] +
                  data1[i + 1] * (double)data2[i + 1] +
                  data1[i + 2] * (double)data2[i + 2] +
                  data1[i + 3] * (double)data2[i + 3];
    }

    /* add any remaining products */
    for (; i < dataSize; i++) {
        result += data1[i] * (double)data2[i];
    }

    return result;
}
