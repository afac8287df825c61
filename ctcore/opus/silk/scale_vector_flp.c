/*
 * SILK's in-place scaling of a float vector by a constant.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/scale_vector_FLP.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include "opus/silk/silk.h"

/* multiply a vector by a constant */
void ct_silk_scale_vector_FLP(float *data1, float gain, int dataSize)
{
    int i, dataSize4;

    /* 4x unrolled loop */
    dataSize4 = dataSize & 0xFFFC;
    for (i = 0; i < dataSize4; i += 4) {
        data1[i + 0] *= gain;
        data1[i + 1] *= gain;
        data1[i + 2] *= gain;
        data1[i + 3] *= gain;
    }

    /* any remaining elements */
    for (; i < dataSize; i++) {
        data1[i] *= gain;
    }
}
