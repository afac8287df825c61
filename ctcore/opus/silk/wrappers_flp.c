/*
 * SILK, float build: the wrappers between the float analysis and the
 * fixed-point quantisers (A2NLSF, NLSF2A, process_NLSFs, the NSQ, the LTP
 * gains). Ports silk/float/wrappers_FLP.c. Debian's build runs the C NSQ
 * and NSQ_del_dec (their SSE4.1 versions are behind #if 0 in
 * silk/x86/main_sse.h and x86_silk_map.c); NSQ_del_dec comes from the
 * kernel table, whose AVX2 version gives the C's bits.
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

/* Convert AR filter coefficients to NLSF parameters */
void ct_silk_A2NLSF_FLP(
    int16_t                     *NLSF_Q15,                              /* O    NLSF vector      [ LPC_order ]              */
    const float                 *pAR,                                   /* I    LPC coefficients [ LPC_order ]              */
    const int                   LPC_order                               /* I    LPC order                                   */
)
{
    int   i;
    int32_t a_fix_Q16[ MAX_LPC_ORDER ];

    for( i = 0; i < LPC_order; i++ ) {
        a_fix_Q16[ i ] = silk_float2int( pAR[ i ] * 65536.0f );
    }

    ct_silk_A2NLSF( NLSF_Q15, a_fix_Q16, LPC_order );
}

/* Convert LSF parameters to AR prediction filter coefficients */
void ct_silk_NLSF2A_FLP(
    float                       *pAR,                                   /* O    LPC coefficients [ LPC_order ]              */
    const int16_t               *NLSF_Q15,                              /* I    NLSF vector      [ LPC_order ]              */
    const int                   LPC_order                               /* I    LPC order                                   */
)
{
    int   i;
    int16_t a_fix_Q12[ MAX_LPC_ORDER ];

    ct_silk_NLSF2A( a_fix_Q12, NLSF_Q15, LPC_order );

    for( i = 0; i < LPC_order; i++ ) {
        pAR[ i ] = ( float )a_fix_Q12[ i ] * ( 1.0f / 4096.0f );
    }
}

/******************************************/
/* Floating-point NLSF processing wrapper */
/******************************************/
void ct_silk_process_NLSFs_FLP(
    ct_silk_encoder_state       *psEncC,                                /* I/O  Encoder state                               */
    float                       PredCoef[ 2 ][ MAX_LPC_ORDER ],         /* O    Prediction coefficients                     */
    int16_t                     NLSF_Q15[      MAX_LPC_ORDER ],         /* I/O  Normalized LSFs (quant out) (0 - (2^15-1))  */
    const int16_t               prev_NLSF_Q15[ MAX_LPC_ORDER ]          /* I    Previous Normalized LSFs (0 - (2^15-1))     */
)
{
    int     i, j;
    int16_t   PredCoef_Q12[ 2 ][ MAX_LPC_ORDER ];

    ct_silk_process_NLSFs( psEncC, PredCoef_Q12, NLSF_Q15, prev_NLSF_Q15);

    for( j = 0; j < 2; j++ ) {
        for( i = 0; i < psEncC->predictLPCOrder; i++ ) {
            PredCoef[ j ][ i ] = ( float )PredCoef_Q12[ j ][ i ] * ( 1.0f / 4096.0f );
        }
    }
}

/****************************************/
/* Floating-point Silk NSQ wrapper      */
/****************************************/
void ct_silk_NSQ_wrapper_FLP(
    ct_silk_encoder_state_FLP   *psEnc,                                 /* I/O  Encoder state FLP                           */
    ct_silk_encoder_control_FLP *psEncCtrl,                             /* I/O  Encoder control FLP                         */
    ct_silk_side_info_indices   *psIndices,                             /* I/O  Quantization indices                        */
    ct_silk_nsq_state           *psNSQ,                                 /* I/O  Noise Shaping Quantzation state             */
    int8_t                      pulses[],                               /* O    Quantized pulse signal                      */
    const float                 x[]                                     /* I    Prefiltered input signal                    */
)
{
    int     i, j;
    int16_t   x16[ MAX_FRAME_LENGTH ];
    int32_t   Gains_Q16[ MAX_NB_SUBFR ];
    silk_DWORD_ALIGN int16_t PredCoef_Q12[ 2 ][ MAX_LPC_ORDER ];
    int16_t   LTPCoef_Q14[ LTP_ORDER * MAX_NB_SUBFR ];
    int     LTP_scale_Q14;

    /* Noise shaping parameters */
    int16_t   AR_Q13[ MAX_NB_SUBFR * MAX_SHAPE_LPC_ORDER ];
    int32_t   LF_shp_Q14[ MAX_NB_SUBFR ];         /* Packs two int16 coefficients per int32 value             */
    int     Lambda_Q10;
    int     Tilt_Q14[ MAX_NB_SUBFR ];
    int     HarmShapeGain_Q14[ MAX_NB_SUBFR ];

    /* Convert control struct to fix control struct */
    /* Noise shape parameters */
    for( i = 0; i < psEnc->sCmn.nb_subfr; i++ ) {
        for( j = 0; j < psEnc->sCmn.shapingLPCOrder; j++ ) {
            AR_Q13[ i * MAX_SHAPE_LPC_ORDER + j ] = silk_float2int( psEncCtrl->AR[ i * MAX_SHAPE_LPC_ORDER + j ] * 8192.0f );
        }
    }

    for( i = 0; i < psEnc->sCmn.nb_subfr; i++ ) {
        LF_shp_Q14[ i ] =   silk_LSHIFT32( silk_float2int( psEncCtrl->LF_AR_shp[ i ]     * 16384.0f ), 16 ) |
                              (uint16_t)silk_float2int( psEncCtrl->LF_MA_shp[ i ]     * 16384.0f );
        Tilt_Q14[ i ]   =        (int)silk_float2int( psEncCtrl->Tilt[ i ]          * 16384.0f );
        HarmShapeGain_Q14[ i ] = (int)silk_float2int( psEncCtrl->HarmShapeGain[ i ] * 16384.0f );
    }
    Lambda_Q10 = ( int )silk_float2int( psEncCtrl->Lambda * 1024.0f );

    /* prediction and coding parameters */
    for( i = 0; i < psEnc->sCmn.nb_subfr * LTP_ORDER; i++ ) {
        LTPCoef_Q14[ i ] = (int16_t)silk_float2int( psEncCtrl->LTPCoef[ i ] * 16384.0f );
    }

    for( j = 0; j < 2; j++ ) {
        for( i = 0; i < psEnc->sCmn.predictLPCOrder; i++ ) {
            PredCoef_Q12[ j ][ i ] = (int16_t)silk_float2int( psEncCtrl->PredCoef[ j ][ i ] * 4096.0f );
        }
    }

    for( i = 0; i < psEnc->sCmn.nb_subfr; i++ ) {
        Gains_Q16[ i ] = silk_float2int( psEncCtrl->Gains[ i ] * 65536.0f );
    }

    if( psIndices->signalType == TYPE_VOICED ) {
        LTP_scale_Q14 = ct_silk_LTPScales_table_Q14[ psIndices->LTP_scaleIndex ];
    } else {
        LTP_scale_Q14 = 0;
    }

    /* Convert input to fix */
    for( i = 0; i < psEnc->sCmn.frame_length; i++ ) {
        x16[ i ] = silk_float2int( x[ i ] );
    }

    /* Call NSQ */
    if( psEnc->sCmn.nStatesDelayedDecision > 1 || psEnc->sCmn.warping_Q16 > 0 ) {
        psEnc->sCmn.dsp->nsq_del_dec( &psEnc->sCmn, psNSQ, psIndices, x16, pulses, (const int16_t *)PredCoef_Q12, LTPCoef_Q14,
            AR_Q13, HarmShapeGain_Q14, Tilt_Q14, LF_shp_Q14, Gains_Q16, psEncCtrl->pitchL, Lambda_Q10, LTP_scale_Q14 );
    } else {
        ct_silk_NSQ( &psEnc->sCmn, psNSQ, psIndices, x16, pulses, (const int16_t *)PredCoef_Q12, LTPCoef_Q14,
            AR_Q13, HarmShapeGain_Q14, Tilt_Q14, LF_shp_Q14, Gains_Q16, psEncCtrl->pitchL, Lambda_Q10, LTP_scale_Q14 );
    }
}

/***********************************************/
/* Floating-point Silk LTP quantiation wrapper */
/***********************************************/
void ct_silk_quant_LTP_gains_FLP(
    float                       B[ MAX_NB_SUBFR * LTP_ORDER ],              /* O    Quantized LTP gains                            */
    int8_t                      cbk_index[ MAX_NB_SUBFR ],                  /* O    Codebook index                              */
    int8_t                      *periodicity_index,                         /* O    Periodicity index                           */
    int32_t                     *sum_log_gain_Q7,                           /* I/O  Cumulative max prediction gain  */
    float                       *pred_gain_dB,                              /* O    LTP prediction gain                            */
    const float                 XX[ MAX_NB_SUBFR * LTP_ORDER * LTP_ORDER ], /* I    Correlation matrix                    */
    const float                 xX[ MAX_NB_SUBFR * LTP_ORDER ],             /* I    Correlation vector                            */
    const int                   subfr_len,                                  /* I    Number of samples per subframe                */
    const int                   nb_subfr                                    /* I    Number of subframes                            */
)
{
    int   i, pred_gain_dB_Q7;
    int16_t B_Q14[ MAX_NB_SUBFR * LTP_ORDER ];
    int32_t XX_Q17[ MAX_NB_SUBFR * LTP_ORDER * LTP_ORDER ] = { 0 }; /* nb_subfr == 2 fills half (quiets -Wmaybe-uninitialized) */
    int32_t xX_Q17[ MAX_NB_SUBFR * LTP_ORDER ] = { 0 };

    for( i = 0; i < nb_subfr * LTP_ORDER * LTP_ORDER; i++ ) {
        XX_Q17[ i ] = (int32_t)silk_float2int( XX[ i ] * 131072.0f );
    }
    for( i = 0; i < nb_subfr * LTP_ORDER; i++ ) {
        xX_Q17[ i ] = (int32_t)silk_float2int( xX[ i ] * 131072.0f );
    }

    ct_silk_quant_LTP_gains( B_Q14, cbk_index, periodicity_index, sum_log_gain_Q7, &pred_gain_dB_Q7, XX_Q17, xX_Q17, subfr_len, nb_subfr );

    for( i = 0; i < nb_subfr * LTP_ORDER; i++ ) {
        B[ i ] = (float)B_Q14[ i ] * ( 1.0f / 16384.0f );
    }

    *pred_gain_dB = (float)pred_gain_dB_Q7 * ( 1.0f / 128.0f );
}
