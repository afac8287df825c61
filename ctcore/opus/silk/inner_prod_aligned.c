/*
 * The inner product of two int16 vectors, each product shifted right
 * before it is added (stereo_find_predictor's correlations).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/inner_prod_aligned.c (BSD-3-Clause,
 * Skype Limited, Xiph.Org Foundation and contributors)
 */
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"

int32_t ct_silk_inner_prod_aligned_scale(const int16_t *const inVec1, const int16_t *const inVec2,
                                         const int scale, const int len)
{
    int i;
    int32_t sum = 0;
    for (i = 0; i < len; i++) {
        sum = silk_ADD_RSHIFT32(sum, silk_SMULBB(inVec1[i], inVec2[i]), scale);
    }
    return sum;
}
