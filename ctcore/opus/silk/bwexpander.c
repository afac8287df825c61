/*
 * SILK's chirp (bandwidth expansion) of a Q12 AR filter.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/bwexpander.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"

/* Chirp (bandwidth expand) LP AR filter */
void ct_silk_bwexpander(
    int16_t                     *ar,                /* I/O  AR filter to be expanded (without leading 1)                */
    const int                   d,                  /* I    Length of ar                                                */
    int32_t                     chirp_Q16           /* I    Chirp factor (typically in the range 0 to 1)                */
)
{
    int     i;
    int32_t chirp_minus_one_Q16 = chirp_Q16 - 65536;

    /* NB: Dont use silk_SMULWB, instead of silk_RSHIFT_ROUND( silk_MUL(), 16 ), below.  */
    /* Bias in silk_SMULWB can lead to unstable filters                                */
    for( i = 0; i < d - 1; i++ ) {
        ar[ i ]    = (int16_t)silk_RSHIFT_ROUND( silk_MUL( chirp_Q16, ar[ i ]             ), 16 );
        chirp_Q16 +=          silk_RSHIFT_ROUND( silk_MUL( chirp_Q16, chirp_minus_one_Q16 ), 16 );
    }
    ar[ d - 1 ] = (int16_t)silk_RSHIFT_ROUND( silk_MUL( chirp_Q16, ar[ d - 1 ] ), 16 );
}
