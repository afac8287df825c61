/*
 * SILK's linear interpolation of two NLSF vectors (Q2 factor).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/interpolate.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"

/* Interpolate two vectors */
void ct_silk_interpolate(
    int16_t                     xi[ MAX_LPC_ORDER ],            /* O    interpolated vector                         */
    const int16_t               x0[ MAX_LPC_ORDER ],            /* I    first vector                                */
    const int16_t               x1[ MAX_LPC_ORDER ],            /* I    second vector                               */
    const int                   ifact_Q2,                       /* I    interp. factor, weight on 2nd vector        */
    const int                   d                               /* I    number of parameters                        */
)
{
    int i;

    silk_assert( ifact_Q2 >= 0 );
    silk_assert( ifact_Q2 <= 4 );

    for( i = 0; i < d; i++ ) {
        xi[ i ] = (int16_t)silk_ADD_RSHIFT( x0[ i ], silk_SMULBB( x1[ i ] - x0[ i ], ifact_Q2 ), 2 );
    }
}
