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

#define MAX_ITERATIONS_RESIDUAL_NRG         10
#define REGULARIZATION_FACTOR               1e-8f

/* Residual energy: nrg = wxx - 2 * wXx * c + c' * wXX * c */
float ct_silk_residual_energy_covar_FLP(                              /* O    Weighted residual energy                    */
    const float                *c,                                 /* I    Filter coefficients                         */
    float                      *wXX,                               /* I/O  Weighted correlation matrix, reg. out       */
    const float                *wXx,                               /* I    Weighted correlation vector                 */
    const float                wxx,                                /* I    Weighted correlation value                  */
    const int                  D                                   /* I    Dimension                                   */
)
{
    int   i, j, k;
    float tmp, nrg = 0.0f, regularization;

    regularization = REGULARIZATION_FACTOR * ( wXX[ 0 ] + wXX[ D * D - 1 ] );
    for( k = 0; k < MAX_ITERATIONS_RESIDUAL_NRG; k++ ) {
        nrg = wxx;

        tmp = 0.0f;
        for( i = 0; i < D; i++ ) {
            tmp += wXx[ i ] * c[ i ];
        }
        nrg -= 2.0f * tmp;

        /* compute c' * wXX * c, assuming wXX is symmetric */
        for( i = 0; i < D; i++ ) {
            tmp = 0.0f;
            for( j = i + 1; j < D; j++ ) {
                tmp += matrix_c_ptr( wXX, i, j, D ) * c[ j ];
            }
            nrg += c[ i ] * ( 2.0f * tmp + matrix_c_ptr( wXX, i, i, D ) * c[ i ] );
        }
        if( nrg > 0 ) {
            break;
        } else {
            /* Add white noise */
            for( i = 0; i < D; i++ ) {
                matrix_c_ptr( wXX, i, i, D ) +=  regularization;
            }
            /* Increase noise for next run */
            regularization *= 2.0f;
        }
    }
    if( k == MAX_ITERATIONS_RESIDUAL_NRG ) {
        nrg = 1.0f;
    }

    return nrg;
}

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
