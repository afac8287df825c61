/*
 * SILK, float build: the LTP analysis filter (the LTP residual scaled by
 * the inverse gains). Ports silk/float/LTP_analysis_filter_FLP.c.
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

void ct_silk_LTP_analysis_filter_FLP(
    float                       *LTP_res,                               /* O    LTP res MAX_NB_SUBFR*(pre_lgth+subfr_lngth) */
    const float                 *x,                                     /* I    Input signal, with preceding samples        */
    const float                 B[ LTP_ORDER * MAX_NB_SUBFR ],          /* I    LTP coefficients for each subframe          */
    const int                   pitchL[   MAX_NB_SUBFR ],               /* I    Pitch lags                                  */
    const float                 invGains[ MAX_NB_SUBFR ],               /* I    Inverse quantization gains                  */
    const int                   subfr_length,                           /* I    Length of each subframe                     */
    const int                   nb_subfr,                               /* I    number of subframes                         */
    const int                   pre_length                              /* I    Preceding samples for each subframe         */
)
{
    const float *x_ptr, *x_lag_ptr;
    float   Btmp[ LTP_ORDER ];
    float   *LTP_res_ptr;
    float   inv_gain;
    int     k, i, j;

    x_ptr = x;
    LTP_res_ptr = LTP_res;
    for( k = 0; k < nb_subfr; k++ ) {
        x_lag_ptr = x_ptr - pitchL[ k ];
        inv_gain = invGains[ k ];
        for( i = 0; i < LTP_ORDER; i++ ) {
            Btmp[ i ] = B[ k * LTP_ORDER + i ];
        }

        /* LTP analysis FIR filter */
        for( i = 0; i < subfr_length + pre_length; i++ ) {
            LTP_res_ptr[ i ] = x_ptr[ i ];
            /* Subtract long-term prediction */
            for( j = 0; j < LTP_ORDER; j++ ) {
                LTP_res_ptr[ i ] -= Btmp[ j ] * x_lag_ptr[ LTP_ORDER / 2 - j ];
            }
            LTP_res_ptr[ i ] *= inv_gain;
            x_lag_ptr++;
        }

        /* Update pointers */
        LTP_res_ptr += subfr_length + pre_length;
        x_ptr       += subfr_length;
    }
}
