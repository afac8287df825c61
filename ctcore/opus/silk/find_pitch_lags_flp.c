/*
 * SILK's pitch lag search (float): the whitening LPC of the windowed
 * input, its residual, and the pitch analysis on it, which sets the
 * signal type, the lags and the lag and contour indices.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/find_pitch_lags_FLP.c
 * (BSD-3-Clause, Xiph.Org Foundation and contributors)
 */
#include <assert.h>
#include <string.h>

#include "opus/silk/silk.h"

void ct_silk_find_pitch_lags_FLP(ct_silk_encoder_state_FLP *psEnc,
                                 ct_silk_encoder_control_FLP *psEncCtrl,
                                 float res[], const float x[],
                                 const ct_opus_dsp *dsp)
{
    int buf_len;
    float thrhld, res_nrg;
    const float *x_buf_ptr, *x_buf;
    float auto_corr[MAX_FIND_PITCH_LPC_ORDER + 1];
    float A[MAX_FIND_PITCH_LPC_ORDER];
    float refl_coef[MAX_FIND_PITCH_LPC_ORDER];
    float Wsig[FIND_PITCH_LPC_WIN_MAX];
    float *Wsig_ptr;

    /******************************************/
    /* Set up buffer lengths etc based on Fs  */
    /******************************************/
    buf_len = psEnc->sCmn.la_pitch + psEnc->sCmn.frame_length +
              psEnc->sCmn.ltp_mem_length;

    /* Safety check */
    assert(buf_len >= psEnc->sCmn.pitch_LPC_win_length);

    x_buf = x - psEnc->sCmn.ltp_mem_length;

    /******************************************/
    /* Estimate LPC AR coeficients            */
    /******************************************/

    /* Calculate windowed signal */

    /* First LA_LTP samples */
    x_buf_ptr = x_buf + buf_len - psEnc->sCmn.pitch_LPC_win_length;
    Wsig_ptr = Wsig;
    ct_silk_apply_sine_window_FLP(Wsig_ptr, x_buf_ptr, 1, psEnc->sCmn.la_pitch);

    /* Middle non-windowed samples */
    Wsig_ptr += psEnc->sCmn.la_pitch;
    x_buf_ptr += psEnc->sCmn.la_pitch;
    memcpy(Wsig_ptr, x_buf_ptr,
           (psEnc->sCmn.pitch_LPC_win_length - (psEnc->sCmn.la_pitch << 1)) *
               sizeof(float));

    /* Last LA_LTP samples */
    Wsig_ptr += psEnc->sCmn.pitch_LPC_win_length - (psEnc->sCmn.la_pitch << 1);
    x_buf_ptr += psEnc->sCmn.pitch_LPC_win_length - (psEnc->sCmn.la_pitch << 1);
    ct_silk_apply_sine_window_FLP(Wsig_ptr, x_buf_ptr, 2, psEnc->sCmn.la_pitch);

    /* Calculate autocorrelation sequence */
    ct_silk_autocorrelation_FLP(auto_corr, Wsig,
                                psEnc->sCmn.pitch_LPC_win_length,
                                psEnc->sCmn.pitchEstimationLPCOrder + 1);

    /* Add white noise, as a fraction of the energy */
    auto_corr[0] += auto_corr[0] * FIND_PITCH_WHITE_NOISE_FRACTION + 1;

    /* Calculate the reflection coefficients using Schur */
    res_nrg = ct_silk_schur_FLP(refl_coef, auto_corr,
                                psEnc->sCmn.pitchEstimationLPCOrder);

    /* Prediction gain */
    psEncCtrl->predGain = auto_corr[0] / silk_max_float(res_nrg, 1.0f);

    /* Convert reflection coefficients to prediction coefficients */
    ct_silk_k2a_FLP(A, refl_coef, psEnc->sCmn.pitchEstimationLPCOrder);

    /* Bandwidth expansion */
    ct_silk_bwexpander_FLP(A, psEnc->sCmn.pitchEstimationLPCOrder,
                           FIND_PITCH_BANDWIDTH_EXPANSION);

    /*****************************************/
    /* LPC analysis filtering                */
    /*****************************************/
    ct_silk_LPC_analysis_filter_FLP(res, A, x_buf, buf_len,
                                    psEnc->sCmn.pitchEstimationLPCOrder);

    if (psEnc->sCmn.indices.signalType != TYPE_NO_VOICE_ACTIVITY &&
        psEnc->sCmn.first_frame_after_reset == 0) {
        /* Threshold for pitch estimator */
        thrhld = 0.6f;
        thrhld -= 0.004f * psEnc->sCmn.pitchEstimationLPCOrder;
        thrhld -= 0.1f * psEnc->sCmn.speech_activity_Q8 * (1.0f / 256.0f);
        thrhld -= 0.15f * (psEnc->sCmn.prevSignalType >> 1);
        thrhld -= 0.1f * psEnc->sCmn.input_tilt_Q15 * (1.0f / 32768.0f);

        /*****************************************/
        /* Call Pitch estimator                  */
        /*****************************************/
        if (ct_silk_pitch_analysis_core_FLP(
                res, psEncCtrl->pitchL, &psEnc->sCmn.indices.lagIndex,
                &psEnc->sCmn.indices.contourIndex, &psEnc->LTPCorr,
                psEnc->sCmn.prevLag,
                psEnc->sCmn.pitchEstimationThreshold_Q16 / 65536.0f, thrhld,
                psEnc->sCmn.fs_kHz, psEnc->sCmn.pitchEstimationComplexity,
                psEnc->sCmn.nb_subfr, dsp) == 0) {
            psEnc->sCmn.indices.signalType = TYPE_VOICED;
        } else {
            psEnc->sCmn.indices.signalType = TYPE_UNVOICED;
        }
    } else {
        memset(psEncCtrl->pitchL, 0, sizeof(psEncCtrl->pitchL));
        psEnc->sCmn.indices.lagIndex = 0;
        psEnc->sCmn.indices.contourIndex = 0;
        psEnc->LTPCorr = 0;
    }
}
