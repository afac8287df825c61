/*
 * SILK's 2x downsampler (allpass sections). Ports silk/resampler_down2.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/silk/silk.h"

/* Downsample by a factor 2 */
void ct_silk_resampler_down2(
    int32_t          *S,      /* I/O  State vector [ 2 ]                                          */
    int16_t          *out,    /* O    Output signal [ floor(len/2) ]                              */
    const int16_t    *in,     /* I    Input signal [ len ]                                        */
    int32_t          inLen    /* I    Number of input samples                                     */
)
{
    int32_t k, len2 = silk_RSHIFT32( inLen, 1 );
    int32_t in32, out32, Y, X;

    /* Internal variables and state are in Q10 format */
    for( k = 0; k < len2; k++ ) {
        /* Convert to Q10 */
        in32 = silk_LSHIFT( (int32_t)in[ 2 * k ], 10 );

        /* All-pass section for even input sample */
        Y      = silk_SUB32( in32, S[ 0 ] );
        X      = silk_SMLAWB( Y, Y, ct_silk_resampler_down2_1 );
        out32  = silk_ADD32( S[ 0 ], X );
        S[ 0 ] = silk_ADD32( in32, X );

        /* Convert to Q10 */
        in32 = silk_LSHIFT( (int32_t)in[ 2 * k + 1 ], 10 );

        /* All-pass section for odd input sample, and add to output of previous section */
        Y      = silk_SUB32( in32, S[ 1 ] );
        X      = silk_SMULWB( Y, ct_silk_resampler_down2_0 );
        out32  = silk_ADD32( out32, S[ 1 ] );
        out32  = silk_ADD32( out32, X );
        S[ 1 ] = silk_ADD32( in32, X );

        /* Add, convert back to int16 and store to output */
        out[ k ] = (int16_t)silk_SAT16( silk_RSHIFT_ROUND( out32, 11 ) );
    }
}
