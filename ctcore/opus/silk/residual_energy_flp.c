/*
 * SILK, float build: the residual energies of the subframes with the
 * quantised LPC coefficients. Ports silk/float/residual_energy_FLP.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/structs.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

/* Calculates residual energies of input subframes where all subframes have LPC_order   */
/* of preceding samples                                                                 */
void ct_silk_residual_energy_FLP(
    float                       nrgs[ MAX_NB_SUBFR ],                   /* O    Residual energy per subframe                */
    const float                 x[],                                    /* I    Input signal                                */
    float                       a[ 2 ][ MAX_LPC_ORDER ],                /* I    AR coefs for each frame half                */
    const float                 gains[],                                /* I    Quantization gains                          */
    const int                   subfr_length,                           /* I    Subframe length                             */
    const int                   nb_subfr,                               /* I    number of subframes                         */
    const int                   LPC_order                               /* I    LPC order                                   */
)
{
    int     shift;
    float   *LPC_res_ptr, LPC_res[ ( MAX_FRAME_LENGTH + MAX_NB_SUBFR * MAX_LPC_ORDER ) / 2 ];

    LPC_res_ptr = LPC_res + LPC_order;
    shift = LPC_order + subfr_length;

    /* Filter input to create the LPC residual for each frame half, and measure subframe energies */
    ct_silk_LPC_analysis_filter_FLP( LPC_res, a[ 0 ], x + 0 * shift, 2 * shift, LPC_order );
    nrgs[ 0 ] = ( float )( gains[ 0 ] * gains[ 0 ] * ct_silk_energy_FLP( LPC_res_ptr + 0 * shift, subfr_length ) );
    nrgs[ 1 ] = ( float )( gains[ 1 ] * gains[ 1 ] * ct_silk_energy_FLP( LPC_res_ptr + 1 * shift, subfr_length ) );

    if( nb_subfr == MAX_NB_SUBFR ) {
        ct_silk_LPC_analysis_filter_FLP( LPC_res, a[ 1 ], x + 2 * shift, 2 * shift, LPC_order );
        nrgs[ 2 ] = ( float )( gains[ 2 ] * gains[ 2 ] * ct_silk_energy_FLP( LPC_res_ptr + 0 * shift, subfr_length ) );
        nrgs[ 3 ] = ( float )( gains[ 3 ] * gains[ 3 ] * ct_silk_energy_FLP( LPC_res_ptr + 1 * shift, subfr_length ) );
    }
}
