/*
 * SILK's NLSF dequantiser (the encoder decodes its own indices).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/NLSF_decode.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"
#include "opus/silk/structs.h"

/* Predictive dequantizer for NLSF residuals */
static inline void silk_NLSF_residual_dequant(               /* O    Returns RD value in Q30                     */
          int16_t            x_Q10[],                        /* O    Output [ order ]                            */
    const int8_t             indices[],                      /* I    Quantization indices [ order ]              */
    const uint8_t            pred_coef_Q8[],                 /* I    Backward predictor coefs [ order ]          */
    const int                quant_step_size_Q16,            /* I    Quantization step size                      */
    const int16_t            order                           /* I    Number of input values                      */
)
{
    int i, out_Q10, pred_Q10;

    out_Q10 = 0;
    for( i = order-1; i >= 0; i-- ) {
        pred_Q10 = silk_RSHIFT( silk_SMULBB( out_Q10, (int16_t)pred_coef_Q8[ i ] ), 8 );
        out_Q10  = silk_LSHIFT( indices[ i ], 10 );
        if( out_Q10 > 0 ) {
            out_Q10 = silk_SUB16( out_Q10, SILK_FIX_CONST( NLSF_QUANT_LEVEL_ADJ, 10 ) );
        } else if( out_Q10 < 0 ) {
            out_Q10 = silk_ADD16( out_Q10, SILK_FIX_CONST( NLSF_QUANT_LEVEL_ADJ, 10 ) );
        }
        out_Q10  = silk_SMLAWB( pred_Q10, (int32_t)out_Q10, quant_step_size_Q16 );
        x_Q10[ i ] = out_Q10;
    }
}


/***********************/
/* NLSF vector decoder */
/***********************/
void ct_silk_NLSF_decode(
          int16_t               *pNLSF_Q15,                     /* O    Quantized NLSF vector [ LPC_ORDER ]         */
          int8_t                *NLSFIndices,                   /* I    Codebook path vector [ LPC_ORDER + 1 ]      */
    const ct_silk_NLSF_CB_struct *psNLSF_CB                     /* I    Codebook object                             */
)
{
    int           i;
    uint8_t       pred_Q8[  MAX_LPC_ORDER ];
    int16_t       ec_ix[    MAX_LPC_ORDER ];
    int16_t       res_Q10[  MAX_LPC_ORDER ];
    int32_t       NLSF_Q15_tmp;
    const uint8_t *pCB_element;
    const int16_t *pCB_Wght_Q9;

    /* Unpack entropy table indices and predictor for current CB1 index */
    ct_silk_NLSF_unpack( ec_ix, pred_Q8, psNLSF_CB, NLSFIndices[ 0 ] );

    /* Predictive residual dequantizer */
    silk_NLSF_residual_dequant( res_Q10, &NLSFIndices[ 1 ], pred_Q8, psNLSF_CB->quantStepSize_Q16, psNLSF_CB->order );

    /* Apply inverse square-rooted weights to first stage and add to output */
    pCB_element = &psNLSF_CB->CB1_NLSF_Q8[ NLSFIndices[ 0 ] * psNLSF_CB->order ];
    pCB_Wght_Q9 = &psNLSF_CB->CB1_Wght_Q9[ NLSFIndices[ 0 ] * psNLSF_CB->order ];
    for( i = 0; i < psNLSF_CB->order; i++ ) {
        NLSF_Q15_tmp = silk_ADD_LSHIFT32( silk_DIV32_16( silk_LSHIFT( (int32_t)res_Q10[ i ], 14 ), pCB_Wght_Q9[ i ] ), (int16_t)pCB_element[ i ], 7 );
        pNLSF_Q15[ i ] = (int16_t)silk_LIMIT( NLSF_Q15_tmp, 0, 32767 );
    }

    /* NLSF stabilization */
    ct_silk_NLSF_stabilize( pNLSF_Q15, psNLSF_CB->deltaMin_Q15, psNLSF_CB->order );
}
