/*
 * SILK's float chirp (bandwidth expansion) of an AR filter.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/bwexpander_FLP.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/silk.h"

/* Chirp (bw expand) LP AR filter */
void ct_silk_bwexpander_FLP(
    float               *ar,                /* I/O  AR filter to be expanded (without leading 1)                */
    const int           d,                  /* I    length of ar                                                */
    const float         chirp               /* I    chirp factor (typically in range (0..1) )                   */
)
{
    int   i;
    float cfac = chirp;

    for( i = 0; i < d - 1; i++ ) {
        ar[ i ] *=  cfac;
        cfac    *=  chirp;
    }
    ar[ d - 1 ] *=  cfac;
}
