/*
 * SILK: the shell coder of the excitation pulses (a binary split tree of
 * 16-pulse blocks), encoder side. Ports silk/shell_coder.c
 * (silk_shell_encoder).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/range_enc.h"
#include "opus/silk/define.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

/* shell coder; pulse-subframe length is hardcoded */

static inline void combine_pulses(
    int                         *out,                                   /* O    combined pulses vector [len] */
    const int                   *in,                                    /* I    input vector       [2 * len] */
    const int                   len                                     /* I    number of OUTPUT samples     */
)
{
    int k;
    for( k = 0; k < len; k++ ) {
        out[ k ] = in[ 2 * k ] + in[ 2 * k + 1 ];
    }
}

static inline void encode_split(
    ct_ec_enc                   *psRangeEnc,                            /* I/O  compressor data structure                   */
    const int                   p_child1,                               /* I    pulse amplitude of first child subframe     */
    const int                   p,                                      /* I    pulse amplitude of current subframe         */
    const uint8_t               *shell_table                            /* I    table of shell cdfs                         */
)
{
    if( p > 0 ) {
        ct_ec_enc_icdf( psRangeEnc, p_child1, &shell_table[ ct_silk_shell_code_table_offsets[ p ] ], 8 );
    }
}

/* Shell encoder, operates on one shell code frame of 16 pulses */
void ct_silk_shell_encoder(
    ct_ec_enc                   *psRangeEnc,                            /* I/O  compressor data structure                   */
    const int                   *pulses0                                /* I    data: nonnegative pulse amplitudes          */
)
{
    int pulses1[ 8 ], pulses2[ 4 ], pulses3[ 2 ], pulses4[ 1 ];

    /* this function operates on one shell code frame of 16 pulses */

    /* tree representation per pulse-subframe */
    combine_pulses( pulses1, pulses0, 8 );
    combine_pulses( pulses2, pulses1, 4 );
    combine_pulses( pulses3, pulses2, 2 );
    combine_pulses( pulses4, pulses3, 1 );

    encode_split( psRangeEnc, pulses3[  0 ], pulses4[ 0 ], ct_silk_shell_code_table3 );

    encode_split( psRangeEnc, pulses2[  0 ], pulses3[ 0 ], ct_silk_shell_code_table2 );

    encode_split( psRangeEnc, pulses1[  0 ], pulses2[ 0 ], ct_silk_shell_code_table1 );
    encode_split( psRangeEnc, pulses0[  0 ], pulses1[ 0 ], ct_silk_shell_code_table0 );
    encode_split( psRangeEnc, pulses0[  2 ], pulses1[ 1 ], ct_silk_shell_code_table0 );

    encode_split( psRangeEnc, pulses1[  2 ], pulses2[ 1 ], ct_silk_shell_code_table1 );
    encode_split( psRangeEnc, pulses0[  4 ], pulses1[ 2 ], ct_silk_shell_code_table0 );
    encode_split( psRangeEnc, pulses0[  6 ], pulses1[ 3 ], ct_silk_shell_code_table0 );

    encode_split( psRangeEnc, pulses2[  2 ], pulses3[ 1 ], ct_silk_shell_code_table2 );

    encode_split( psRangeEnc, pulses1[  4 ], pulses2[ 2 ], ct_silk_shell_code_table1 );
    encode_split( psRangeEnc, pulses0[  8 ], pulses1[ 4 ], ct_silk_shell_code_table0 );
    encode_split( psRangeEnc, pulses0[ 10 ], pulses1[ 5 ], ct_silk_shell_code_table0 );

    encode_split( psRangeEnc, pulses1[  6 ], pulses2[ 3 ], ct_silk_shell_code_table1 );
    encode_split( psRangeEnc, pulses0[ 12 ], pulses1[ 6 ], ct_silk_shell_code_table0 );
    encode_split( psRangeEnc, pulses0[ 14 ], pulses1[ 7 ], ct_silk_shell_code_table0 );
}
