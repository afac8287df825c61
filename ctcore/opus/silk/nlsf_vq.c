/*
 * SILK's first-stage NLSF VQ: weighted predictive errors against every codebook vector.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/NLSF_VQ.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"

/* Compute quantization errors for an LPC_order element input vector for a VQ codebook */
void ct_silk_NLSF_VQ(
    int32_t                     err_Q24[],                      /* O    Quantization errors [K]                     */
    const int16_t               in_Q15[],                       /* I    Input vectors to be quantized [LPC_order]   */
    const uint8_t               pCB_Q8[],                       /* I    Codebook vectors [K*LPC_order]              */
    const int16_t               pWght_Q9[],                     /* I    Codebook weights [K*LPC_order]              */
    const int                   K,                              /* I    Number of codebook vectors                  */
    const int                   LPC_order                       /* I    Number of LPCs                              */
)
{
    int           i, m;
    int32_t       diff_Q15, diffw_Q24, sum_error_Q24, pred_Q24;
    const int16_t *w_Q9_ptr;
    const uint8_t *cb_Q8_ptr;

    silk_assert( ( LPC_order & 1 ) == 0 );

    /* Loop over codebook */
    cb_Q8_ptr = pCB_Q8;
    w_Q9_ptr = pWght_Q9;
    for( i = 0; i < K; i++ ) {
        sum_error_Q24 = 0;
        pred_Q24 = 0;
        for( m = LPC_order-2; m >= 0; m -= 2 ) {
            /* Compute weighted absolute predictive quantization error for index m + 1 */
            diff_Q15 = silk_SUB_LSHIFT32( in_Q15[ m + 1 ], (int32_t)cb_Q8_ptr[ m + 1 ], 7 ); /* range: [ -32767 : 32767 ]*/
            diffw_Q24 = silk_SMULBB( diff_Q15, w_Q9_ptr[ m + 1 ] );
            sum_error_Q24 = silk_ADD32( sum_error_Q24, silk_abs( silk_SUB_RSHIFT32( diffw_Q24, pred_Q24, 1 ) ) );
            pred_Q24 = diffw_Q24;

            /* Compute weighted absolute predictive quantization error for index m */
            diff_Q15 = silk_SUB_LSHIFT32( in_Q15[ m ], (int32_t)cb_Q8_ptr[ m ], 7 ); /* range: [ -32767 : 32767 ]*/
            diffw_Q24 = silk_SMULBB( diff_Q15, w_Q9_ptr[ m ] );
            sum_error_Q24 = silk_ADD32( sum_error_Q24, silk_abs( silk_SUB_RSHIFT32( diffw_Q24, pred_Q24, 1 ) ) );
            pred_Q24 = diffw_Q24;
        }
        err_Q24[ i ] = sum_error_Q24;
        cb_Q8_ptr += LPC_order;
        w_Q9_ptr += LPC_order;
    }
}
