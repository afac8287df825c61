/*
 * SILK stereo: the entropy coding of the mid/side predictor indices and of
 * the mid-only flag.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/stereo_encode_pred.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors, Skype Limited)
 */
#include "opus/range_enc.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

/* Entropy code the mid/side quantization indices */
void ct_silk_stereo_encode_pred(
    ct_ec_enc                   *psRangeEnc,                    /* I/O  Compressor data structure                   */
    int8_t                      ix[ 2 ][ 3 ]                    /* I    Quantization indices                        */
)
{
    int        n;

    /* Entropy coding */
    n = 5 * ix[ 0 ][ 2 ] + ix[ 1 ][ 2 ];
    ct_ec_enc_icdf( psRangeEnc, n, ct_silk_stereo_pred_joint_iCDF, 8 );
    for( n = 0; n < 2; n++ ) {
        ct_ec_enc_icdf( psRangeEnc, ix[ n ][ 0 ], ct_silk_uniform3_iCDF, 8 );
        ct_ec_enc_icdf( psRangeEnc, ix[ n ][ 1 ], ct_silk_uniform5_iCDF, 8 );
    }
}

/* Entropy code the mid-only flag */
void ct_silk_stereo_encode_mid_only(
    ct_ec_enc                   *psRangeEnc,                    /* I/O  Compressor data structure                   */
    int8_t                      mid_only_flag
)
{
    /* Encode flag that only mid channel is coded */
    ct_ec_enc_icdf( psRangeEnc, mid_only_flag, ct_silk_stereo_only_code_mid_iCDF, 8 );
}
