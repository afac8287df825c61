/*
 * The SILK resampler's second-order AR filter. Ports
 * silk/resampler_private_AR2.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/silk/silk.h"

/* Second order AR filter with single delay elements */
void ct_silk_resampler_private_AR2(
    int32_t          S[],       /* I/O  State vector [ 2 ]          */
    int32_t          out_Q8[],  /* O    Output signal               */
    const int16_t    in[],      /* I    Input signal                */
    const int16_t    A_Q14[],   /* I    AR coefficients, Q14        */
    int32_t          len          /* I    Signal length               */
)
{
    int32_t    k;
    int32_t    out32;

    for( k = 0; k < len; k++ ) {
        out32       = silk_ADD_LSHIFT32( S[ 0 ], (int32_t)in[ k ], 8 );
        out_Q8[ k ] = out32;
        out32       = silk_LSHIFT( out32, 2 );
        S[ 0 ]      = silk_SMLAWB( S[ 1 ], out32, A_Q14[ 0 ] );
        S[ 1 ]      = silk_SMULWB( out32, A_Q14[ 1 ] );
    }
}
