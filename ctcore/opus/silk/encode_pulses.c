/*
 * SILK: the excitation pulses of a frame (rate level, pulse sums per
 * 16-sample block, shell coding, LSBs, signs). Ports silk/encode_pulses.c
 * (silk_encode_pulses).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/range_enc.h"
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/structs.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

/*********************************************/
/* Encode quantization indices of excitation */
/*********************************************/

static inline int combine_and_check(    /* return ok                           */
    int         *pulses_comb,           /* O                                   */
    const int   *pulses_in,             /* I                                   */
    int         max_pulses,             /* I    max value for sum of pulses    */
    int         len                     /* I    number of output values        */
)
{
    int k, sum;

    for( k = 0; k < len; k++ ) {
        sum = pulses_in[ 2 * k ] + pulses_in[ 2 * k + 1 ];
        if( sum > max_pulses ) {
            return 1;
        }
        pulses_comb[ k ] = sum;
    }

    return 0;
}

/* Encode quantization indices of excitation */
void ct_silk_encode_pulses(
    ct_ec_enc                   *psRangeEnc,                            /* I/O  compressor data structure                   */
    const int                   signalType,                             /* I    Signal type                                 */
    const int                   quantOffsetType,                        /* I    quantOffsetType                             */
    int8_t                      pulses[],                               /* I    quantization indices                        */
    const int                   frame_length                            /* I    Frame length                                */
)
{
    int   i, k, j, iter, bit, nLS, scale_down, RateLevelIndex = 0;
    int32_t abs_q, minSumBits_Q5, sumBits_Q5;
    int abs_pulses[ MAX_NB_SHELL_BLOCKS * SHELL_CODEC_FRAME_LENGTH ];
    int sum_pulses[ MAX_NB_SHELL_BLOCKS ];
    int nRshifts[ MAX_NB_SHELL_BLOCKS ];
    int   pulses_comb[ 8 ];
    int   *abs_pulses_ptr;
    const int8_t *pulses_ptr;
    const uint8_t *cdf_ptr;
    const uint8_t *nBits_ptr;

    silk_memset( pulses_comb, 0, 8 * sizeof( int ) ); /* Fixing Valgrind reported problem*/

    /****************************/
    /* Prepare for shell coding */
    /****************************/
    /* Calculate number of shell blocks */
    iter = silk_RSHIFT( frame_length, LOG2_SHELL_CODEC_FRAME_LENGTH );
    if( iter * SHELL_CODEC_FRAME_LENGTH < frame_length ) {
        iter++;
        silk_memset( &pulses[ frame_length ], 0, SHELL_CODEC_FRAME_LENGTH * sizeof(int8_t));
    }

    /* Take the absolute value of the pulses */
    for( i = 0; i < iter * SHELL_CODEC_FRAME_LENGTH; i+=4 ) {
        abs_pulses[i+0] = ( int )silk_abs( pulses[ i + 0 ] );
        abs_pulses[i+1] = ( int )silk_abs( pulses[ i + 1 ] );
        abs_pulses[i+2] = ( int )silk_abs( pulses[ i + 2 ] );
        abs_pulses[i+3] = ( int )silk_abs( pulses[ i + 3 ] );
    }

    /* Calc sum pulses per shell code frame */
    abs_pulses_ptr = abs_pulses;
    for( i = 0; i < iter; i++ ) {
        nRshifts[ i ] = 0;

        while( 1 ) {
            /* 1+1 -> 2 */
            scale_down = combine_and_check( pulses_comb, abs_pulses_ptr, ct_silk_max_pulses_table[ 0 ], 8 );
            /* 2+2 -> 4 */
            scale_down += combine_and_check( pulses_comb, pulses_comb, ct_silk_max_pulses_table[ 1 ], 4 );
            /* 4+4 -> 8 */
            scale_down += combine_and_check( pulses_comb, pulses_comb, ct_silk_max_pulses_table[ 2 ], 2 );
            /* 8+8 -> 16 */
            scale_down += combine_and_check( &sum_pulses[ i ], pulses_comb, ct_silk_max_pulses_table[ 3 ], 1 );

            if( scale_down ) {
                /* We need to downscale the quantization signal */
                nRshifts[ i ]++;
                for( k = 0; k < SHELL_CODEC_FRAME_LENGTH; k++ ) {
                    abs_pulses_ptr[ k ] = silk_RSHIFT( abs_pulses_ptr[ k ], 1 );
                }
            } else {
                /* Jump out of while(1) loop and go to next shell coding frame */
                break;
            }
        }
        abs_pulses_ptr += SHELL_CODEC_FRAME_LENGTH;
    }

    /**************/
    /* Rate level */
    /**************/
    /* find rate level that leads to fewest bits for coding of pulses per block info */
    minSumBits_Q5 = silk_int32_MAX;
    for( k = 0; k < N_RATE_LEVELS - 1; k++ ) {
        nBits_ptr  = ct_silk_pulses_per_block_BITS_Q5[ k ];
        sumBits_Q5 = ct_silk_rate_levels_BITS_Q5[ signalType >> 1 ][ k ];
        for( i = 0; i < iter; i++ ) {
            if( nRshifts[ i ] > 0 ) {
                sumBits_Q5 += nBits_ptr[ SILK_MAX_PULSES + 1 ];
            } else {
                sumBits_Q5 += nBits_ptr[ sum_pulses[ i ] ];
            }
        }
        if( sumBits_Q5 < minSumBits_Q5 ) {
            minSumBits_Q5 = sumBits_Q5;
            RateLevelIndex = k;
        }
    }
    ct_ec_enc_icdf( psRangeEnc, RateLevelIndex, ct_silk_rate_levels_iCDF[ signalType >> 1 ], 8 );

    /***************************************************/
    /* Sum-Weighted-Pulses Encoding                    */
    /***************************************************/
    cdf_ptr = ct_silk_pulses_per_block_iCDF[ RateLevelIndex ];
    for( i = 0; i < iter; i++ ) {
        if( nRshifts[ i ] == 0 ) {
            ct_ec_enc_icdf( psRangeEnc, sum_pulses[ i ], cdf_ptr, 8 );
        } else {
            ct_ec_enc_icdf( psRangeEnc, SILK_MAX_PULSES + 1, cdf_ptr, 8 );
            for( k = 0; k < nRshifts[ i ] - 1; k++ ) {
                ct_ec_enc_icdf( psRangeEnc, SILK_MAX_PULSES + 1, ct_silk_pulses_per_block_iCDF[ N_RATE_LEVELS - 1 ], 8 );
            }
            ct_ec_enc_icdf( psRangeEnc, sum_pulses[ i ], ct_silk_pulses_per_block_iCDF[ N_RATE_LEVELS - 1 ], 8 );
        }
    }

    /******************/
    /* Shell Encoding */
    /******************/
    for( i = 0; i < iter; i++ ) {
        if( sum_pulses[ i ] > 0 ) {
            ct_silk_shell_encoder( psRangeEnc, &abs_pulses[ i * SHELL_CODEC_FRAME_LENGTH ] );
        }
    }

    /****************/
    /* LSB Encoding */
    /****************/
    for( i = 0; i < iter; i++ ) {
        if( nRshifts[ i ] > 0 ) {
            pulses_ptr = &pulses[ i * SHELL_CODEC_FRAME_LENGTH ];
            nLS = nRshifts[ i ] - 1;
            for( k = 0; k < SHELL_CODEC_FRAME_LENGTH; k++ ) {
                abs_q = (int8_t)silk_abs( pulses_ptr[ k ] );
                for( j = nLS; j > 0; j-- ) {
                    bit = silk_RSHIFT( abs_q, j ) & 1;
                    ct_ec_enc_icdf( psRangeEnc, bit, ct_silk_lsb_iCDF, 8 );
                }
                bit = abs_q & 1;
                ct_ec_enc_icdf( psRangeEnc, bit, ct_silk_lsb_iCDF, 8 );
            }
        }
    }

    /****************/
    /* Encode signs */
    /****************/
    ct_silk_encode_signs( psRangeEnc, pulses, frame_length, signalType, quantOffsetType, sum_pulses );
}
