/*
 * SILK's chirp (bandwidth expansion) of a Q16 (int32) AR filter.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/bwexpander_32.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"

/* Chirp (bandwidth expand) LP AR filter */
void ct_silk_bwexpander_32(
    int32_t                     *ar,                /* I/O  AR filter to be expanded (without leading 1)                */
    const int                   d,                  /* I    Length of ar                                                */
    int32_t                     chirp_Q16           /* I    Chirp factor in Q16                                         */
)
{
    int     i;
    int32_t chirp_minus_one_Q16 = chirp_Q16 - 65536;

    for( i = 0; i < d - 1; i++ ) {
        ar[ i ]    = silk_SMULWW( chirp_Q16, ar[ i ] );
        chirp_Q16 += silk_RSHIFT_ROUND( silk_MUL( chirp_Q16, chirp_minus_one_Q16 ), 16 );
    }
    ar[ d - 1 ] = silk_SMULWW( chirp_Q16, ar[ d - 1 ] );
}
