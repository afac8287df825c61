/*
 * SILK's NLSF vector encoder: first-stage VQ survivors, trellis residuals, RD choice.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/NLSF_encode.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"
#include "opus/silk/structs.h"

#include <string.h>

/***********************/
/* NLSF vector encoder */
/***********************/
/* The reference's stack allocations (ALLOC) are sized for the largest codebook and survivor
   count: both codebooks have NLSF_VQ_MAX_VECTORS vectors, and nSurvivors <= nVectors. */
int32_t ct_silk_NLSF_encode(                                    /* O    Returns RD value in Q25                     */
          int8_t                *NLSFIndices,                   /* I    Codebook path vector [ LPC_ORDER + 1 ]      */
          int16_t               *pNLSF_Q15,                     /* I/O  (Un)quantized NLSF vector [ LPC_ORDER ]     */
    const ct_silk_NLSF_CB_struct *psNLSF_CB,                    /* I    Codebook object                             */
    const int16_t               *pW_Q2,                         /* I    NLSF weight vector [ LPC_ORDER ]            */
    const int                   NLSF_mu_Q20,                    /* I    Rate weight for the RD optimization         */
    const int                   nSurvivors,                     /* I    Max survivors after first stage             */
    const int                   signalType                      /* I    Signal type: 0/1/2                          */
)
{
    int           i, s, ind1, bestIndex, prob_Q8, bits_q7;
    int32_t       W_tmp_Q9, ret;
    int32_t       err_Q24[      NLSF_VQ_MAX_VECTORS ];
    int32_t       RD_Q25[       NLSF_VQ_MAX_VECTORS ];
    int           tempIndices1[ NLSF_VQ_MAX_VECTORS ];
    int8_t        tempIndices2[ NLSF_VQ_MAX_VECTORS * MAX_LPC_ORDER ];
    int16_t       res_Q10[      MAX_LPC_ORDER ];
    int16_t       NLSF_tmp_Q15[ MAX_LPC_ORDER ];
    int16_t       W_adj_Q5[     MAX_LPC_ORDER ];
    uint8_t       pred_Q8[      MAX_LPC_ORDER ];
    int16_t       ec_ix[        MAX_LPC_ORDER ];
    const uint8_t *pCB_element, *iCDF_ptr;
    const int16_t *pCB_Wght_Q9;

    silk_assert( signalType >= 0 && signalType <= 2 );
    silk_assert( nSurvivors <= psNLSF_CB->nVectors && psNLSF_CB->nVectors <= NLSF_VQ_MAX_VECTORS );

    /* NLSF stabilization */
    ct_silk_NLSF_stabilize( pNLSF_Q15, psNLSF_CB->deltaMin_Q15, psNLSF_CB->order );

    /* First stage: VQ */
    ct_silk_NLSF_VQ( err_Q24, pNLSF_Q15, psNLSF_CB->CB1_NLSF_Q8, psNLSF_CB->CB1_Wght_Q9, psNLSF_CB->nVectors, psNLSF_CB->order );

    /* Sort the quantization errors */
    ct_silk_insertion_sort_increasing( err_Q24, tempIndices1, psNLSF_CB->nVectors, nSurvivors );

    /* Loop over survivors */
    for( s = 0; s < nSurvivors; s++ ) {
        ind1 = tempIndices1[ s ];

        /* Residual after first stage */
        pCB_element = &psNLSF_CB->CB1_NLSF_Q8[ ind1 * psNLSF_CB->order ];
        pCB_Wght_Q9 = &psNLSF_CB->CB1_Wght_Q9[ ind1 * psNLSF_CB->order ];
        for( i = 0; i < psNLSF_CB->order; i++ ) {
            NLSF_tmp_Q15[ i ] = silk_LSHIFT16( (int16_t)pCB_element[ i ], 7 );
            W_tmp_Q9 = pCB_Wght_Q9[ i ];
            res_Q10[ i ] = (int16_t)silk_RSHIFT( silk_SMULBB( pNLSF_Q15[ i ] - NLSF_tmp_Q15[ i ], W_tmp_Q9 ), 14 );
            W_adj_Q5[ i ] = silk_DIV32_varQ( (int32_t)pW_Q2[ i ], silk_SMULBB( W_tmp_Q9, W_tmp_Q9 ), 21 );
        }

        /* Unpack entropy table indices and predictor for current CB1 index */
        ct_silk_NLSF_unpack( ec_ix, pred_Q8, psNLSF_CB, ind1 );

        /* Trellis quantizer */
        RD_Q25[ s ] = ct_silk_NLSF_del_dec_quant( &tempIndices2[ s * MAX_LPC_ORDER ], res_Q10, W_adj_Q5, pred_Q8, ec_ix,
            psNLSF_CB->ec_Rates_Q5, psNLSF_CB->quantStepSize_Q16, psNLSF_CB->invQuantStepSize_Q6, NLSF_mu_Q20, psNLSF_CB->order );

        /* Add rate for first stage */
        iCDF_ptr = &psNLSF_CB->CB1_iCDF[ ( signalType >> 1 ) * psNLSF_CB->nVectors ];
        if( ind1 == 0 ) {
            prob_Q8 = 256 - iCDF_ptr[ ind1 ];
        } else {
            prob_Q8 = iCDF_ptr[ ind1 - 1 ] - iCDF_ptr[ ind1 ];
        }
        bits_q7 = ( 8 << 7 ) - ct_silk_lin2log( prob_Q8 );
        RD_Q25[ s ] = silk_SMLABB( RD_Q25[ s ], bits_q7, silk_RSHIFT( NLSF_mu_Q20, 2 ) );
    }

    /* Find the lowest rate-distortion error */
    ct_silk_insertion_sort_increasing( RD_Q25, &bestIndex, nSurvivors, 1 );

    NLSFIndices[ 0 ] = (int8_t)tempIndices1[ bestIndex ];
    memcpy( &NLSFIndices[ 1 ], &tempIndices2[ bestIndex * MAX_LPC_ORDER ], psNLSF_CB->order * sizeof( int8_t ) );

    /* Decode */
    ct_silk_NLSF_decode( pNLSF_Q15, NLSFIndices, psNLSF_CB );

    ret = RD_Q25[ 0 ];
    return ret;
}
