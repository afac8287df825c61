/*
 * SILK: the signs of the excitation pulses, encoder side. Ports
 * silk/code_signs.c (silk_encode_signs).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/range_enc.h"
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

/* shifting avoids if-statement */
#define silk_enc_map(a)                  ( silk_RSHIFT( (a), 15 ) + 1 )

/* Encodes signs of excitation */
void ct_silk_encode_signs(
    ct_ec_enc                   *psRangeEnc,                            /* I/O  Compressor data structure                   */
    const int8_t                pulses[],                               /* I    pulse signal                                */
    int                         length,                                 /* I    length of input                             */
    const int                   signalType,                             /* I    Signal type                                 */
    const int                   quantOffsetType,                        /* I    Quantization offset type                    */
    const int                   sum_pulses[ MAX_NB_SHELL_BLOCKS ]       /* I    Sum of absolute pulses per block            */
)
{
    int           i, j, p;
    uint8_t       icdf[ 2 ];
    const int8_t  *q_ptr;
    const uint8_t *icdf_ptr;

    icdf[ 1 ] = 0;
    q_ptr = pulses;
    i = silk_SMULBB( 7, silk_ADD_LSHIFT( quantOffsetType, signalType, 1 ) );
    icdf_ptr = &ct_silk_sign_iCDF[ i ];
    length = silk_RSHIFT( length + SHELL_CODEC_FRAME_LENGTH/2, LOG2_SHELL_CODEC_FRAME_LENGTH );
    for( i = 0; i < length; i++ ) {
        p = sum_pulses[ i ];
        if( p > 0 ) {
            icdf[ 0 ] = icdf_ptr[ silk_min( p & 0x1F, 6 ) ];
            for( j = 0; j < SHELL_CODEC_FRAME_LENGTH; j++ ) {
                if( q_ptr[ j ] != 0 ) {
                    ct_ec_enc_icdf( psRangeEnc, silk_enc_map( q_ptr[ j ]), icdf, 8 );
                }
            }
        }
        q_ptr += SHELL_CODEC_FRAME_LENGTH;
    }
}
