/*
 * SILK's scaled copy of a float vector.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/scale_copy_vector_FLP.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include "opus/silk/silk.h"

/* copy and multiply a vector by a constant */
void ct_silk_scale_copy_vector_FLP(float *data_out, const float *data_in,
                                   float gain, int dataSize)
{
    int i, dataSize4;

    /* 4x unrolled loop */
    dataSize4 = dataSize & 0xFFFC;
    for (i = 0; i < dataSize4; i += 4) {
        data_out[i + 0] = gain * data_in[i + 0];
        data_out[i + 1] = gain * data_in[i + 1];
        data_out[i + 2] = gain * data_in[i + 2];
        data_out[i + 3] = gain * data_in[i + 3];
    }

    /* any remaining elements */
    for (; i < dataSize; i++) {
        data_out[i] = gain * data_in[i];
    }
}
