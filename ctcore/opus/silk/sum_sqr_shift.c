/*
 * SILK's energy of an int16 vector, right-shifted to fit an int32 with
 * two bits of headroom.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/sum_sqr_shift.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors)
 */
#include "opus/silk/silk.h"

/* Compute number of bits to right shift the sum of squares of a vector */
/* of int16s to make it fit in an int32                                 */
void ct_silk_sum_sqr_shift(int32_t *energy, int *shift, const int16_t *x,
                           int len)
{
    int i, shft;
    uint32_t nrg_tmp;
    int32_t nrg;

    /* Do a first run with the maximum shift we could have. */
    shft = 31 - silk_CLZ32(len);
    /* Let's be conservative with rounding and start with nrg=len. */
    nrg = len;
    for (i = 0; i < len - 1; i += 2) {
        nrg_tmp = silk_SMULBB(x[i], x[i]);
        nrg_tmp = silk_SMLABB_ovflw(nrg_tmp, x[i + 1], x[i + 1]);
        nrg = (int32_t)silk_ADD_RSHIFT_uint(nrg, nrg_tmp, shft);
    }
    if (i < len) {
        /* One sample left to process */
        nrg_tmp = silk_SMULBB(x[i], x[i]);
        nrg = (int32_t)silk_ADD_RSHIFT_uint(nrg, nrg_tmp, shft);
    }
    /* Make sure the result will fit in a 32-bit signed integer with two bits
       of headroom. */
    shft = silk_max_32(0, shft + 3 - silk_CLZ32(nrg));
    nrg = 0;
    for (i = 0; i < len - 1; i += 2) {
        nrg_tmp = silk_SMULBB(x[i], x[i]);
        nrg_tmp = silk_SMLABB_ovflw(nrg_tmp, x[i + 1], x[i + 1]);
        nrg = (int32_t)silk_ADD_RSHIFT_uint(nrg, nrg_tmp, shft);
    }
    if (i < len) {
        /* One sample left to process */
        nrg_tmp = silk_SMULBB(x[i], x[i]);
        nrg = (int32_t)silk_ADD_RSHIFT_uint(nrg, nrg_tmp, shft);
    }

    /* Output arguments */
    *shift = shft;
    *energy = nrg;
}
