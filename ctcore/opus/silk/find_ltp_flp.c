/*
 * SILK, float build: the correlations the LTP quantisation weighs. Ports
 * silk/float/find_LTP_FLP.c.
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

void ct_silk_find_LTP_FLP(
    float                       XX[ MAX_NB_SUBFR * LTP_ORDER * LTP_ORDER ], /* O    Weight for LTP quantization         */
    float                       xX[ MAX_NB_SUBFR * LTP_ORDER ],             /* O    Weight for LTP quantization                 */
    const float                 r_ptr[],                                    /* I    LPC residual                                */
    const int                   lag[ MAX_NB_SUBFR ],                        /* I    LTP lags                                    */
    const int                   subfr_length,                               /* I    Subframe length                             */
    const int                   nb_subfr                                    /* I    number of subframes                         */
)
{
    int   k;
    float *xX_ptr, *XX_ptr;
    const float *lag_ptr;
    float xx, temp;

    xX_ptr = xX;
    XX_ptr = XX;
    for( k = 0; k < nb_subfr; k++ ) {
        lag_ptr = r_ptr - ( lag[ k ] + LTP_ORDER / 2 );
        ct_silk_corrMatrix_FLP( lag_ptr, subfr_length, LTP_ORDER, XX_ptr );
        ct_silk_corrVector_FLP( lag_ptr, r_ptr, subfr_length, LTP_ORDER, xX_ptr );
        xx = ( float )ct_silk_energy_FLP( r_ptr, subfr_length + LTP_ORDER );
        temp = 1.0f / silk_max( xx, LTP_CORR_INV_MAX * 0.5f * ( XX_ptr[ 0 ] + XX_ptr[ 24 ] ) + 1.0f );
        ct_silk_scale_vector_FLP( XX_ptr, temp, LTP_ORDER * LTP_ORDER );
        ct_silk_scale_vector_FLP( xX_ptr, temp, LTP_ORDER );

        r_ptr  += subfr_length;
        XX_ptr += LTP_ORDER * LTP_ORDER;
        xX_ptr += LTP_ORDER;
    }
}
