/*
 * SILK's float energy: the sum of squares of a float vector, in double,
 * 4 products per addition to the sum.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/energy_FLP.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors)
 */
#include "opus/silk/silk.h"

/* sum of squares of a float array, with result as double */
double ct_silk_energy_FLP(const float *data, int dataSize)
{
    int i;
    double result;

    /* 4x unrolled loop */
    result = 0.0;
    for (i = 0; i < dataSize - 3; i += 4) {
        result += data[i + 0] * (double)data[i + 0] +
                  data[i + 1] * (double)data[i + 1] +
                  data[i + 2] * (double)data[i + 2] +
                  data[i + 3] * (double)data[i + 3];
    }

    /* add any remaining products */
    for (; i < dataSize; i++) {
        result += data[i] * (double)data[i];
    }

    return result;
}
