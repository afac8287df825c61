/*
 * SILK's encoder functions, float build: the prototypes of every function
 * the float encoder reaches from silk_Encode/silk_InitEncoder, transcribed
 * from silk/main.h, silk/float/main_FLP.h, silk/SigProc_FIX.h,
 * silk/float/SigProc_FLP.h, silk/API.h, silk/resampler_private.h and
 * silk/x86/main_sse.h. Each group names the reference file and ours
 * (ctcore/opus/silk/, lower case) that defines it.
 *
 * Names: silk_X -> ct_silk_X (check_control_input -> ct_check_control_input).
 * Where the reference calls a macro that drops arch and runs the C version
 * (silk_NSQ -> silk_NSQ_c, silk_VQ_WMat_EC, silk_NSQ_del_dec,
 * silk_LPC_inverse_pred_gain), ours is the macro's
 * name without the _c and without arch. An arch that reaches a SIMD kernel
 * becomes `const ct_opus_dsp *dsp`; one that reaches only C code is
 * dropped. Types: silk_encoder_state -> ct_silk_encoder_state and so on
 * (structs.h), ec_enc -> ct_ec_enc, opus_int -> int, silk_float -> float;
 * silk_Encode/silk_InitEncoder take a ct_silk_encoder * for the reference's
 * void *encState.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_SILK_SILK_H
#define CTCORE_OPUS_SILK_SILK_H

#include <stdint.h>

#include "opus/dsp.h"
#include "opus/range_enc.h"
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/structs.h"
#include "opus/silk/tables.h"

/* silk/main.h silk_VAD_GetSA_Q8 (x86/main_sse.h's run-time choice,
 * SILK_VAD_GETSA_Q8_IMPL): ct_silk_VAD_GetSA_Q8_sse4_1 where libopus'
 * arch >= 3 (SSE4.1), else ct_silk_VAD_GetSA_Q8_c, through the kernel
 * table (dsp->vad_get_sa_q8, filled by ct_opus_dsp_init) */
#define ct_silk_VAD_GetSA_Q8(psEncC, pIn) \
    ((psEncC)->dsp->vad_get_sa_q8((psEncC), (pIn)))

/* silk/resampler_private.h: number of input samples to process in the
 * inner loop */
#define RESAMPLER_MAX_BATCH_SIZE_MS             10
#define RESAMPLER_MAX_FS_KHZ                    48
#define RESAMPLER_MAX_BATCH_SIZE_IN             ( RESAMPLER_MAX_BATCH_SIZE_MS * RESAMPLER_MAX_FS_KHZ )

/* silk/enc_API.c -> enc_api.c */
int ct_silk_InitEncoder( /* O Returns error code */
    ct_silk_encoder *encState,          /* I/O State */
    const ct_opus_dsp *dsp,             /* I Kernel table (the reference's arch) */
    ct_silk_EncControlStruct *encStatus /* O Encoder Status */
);

int ct_silk_Encode( /* O Returns error code */
    ct_silk_encoder *encState,            /* I/O State */
    ct_silk_EncControlStruct *encControl, /* I Control status */
    const int16_t *samplesIn,             /* I Speech sample input vector */
    int nSamplesIn,                       /* I Number of samples in input vector */
    ct_ec_enc *psRangeEnc,                /* I/O Compressor data structure */
    int32_t *nBytesOut,                   /* I/O Number of bytes in payload (input: Max bytes) */
    const int prefillFlag,                /* I Flag to indicate prefilling buffers no coding */
    int activity                          /* I Decision of Opus voice activity detector */
);

/* silk/float/encode_frame_FLP.c -> encode_frame_flp.c */
void ct_silk_encode_do_VAD_FLP(
    ct_silk_encoder_state_FLP *psEnc, /* I/O Encoder state FLP */
    int activity                      /* I Decision of Opus voice activity detector */
);

int ct_silk_encode_frame_FLP(
    ct_silk_encoder_state_FLP *psEnc, /* I/O Encoder state FLP */
    int32_t *pnBytesOut,              /* O Number of payload bytes; */
    ct_ec_enc *psRangeEnc,            /* I/O compressor data structure */
    int condCoding,                   /* I The type of conditional coding to use */
    int maxBits,                      /* I If > 0: maximum number of output bits */
    int useCBR                        /* I Flag to force constant-bitrate operation */
);

/* silk/init_encoder.c -> init_encoder.c */
int ct_silk_init_encoder(
    ct_silk_encoder_state_FLP *psEnc, /* I/O Encoder state FLP */
    const ct_opus_dsp *dsp            /* I Kernel table (the reference's arch) */
);

/* silk/control_codec.c -> control_codec.c */
int ct_silk_control_encoder(
    ct_silk_encoder_state_FLP *psEnc,     /* I/O Pointer to Silk encoder state FLP */
    ct_silk_EncControlStruct *encControl, /* I Control structure */
    const int allow_bw_switch,            /* I Flag to allow switching audio bandwidth */
    const int channelNb,                  /* I Channel number */
    const int force_fs_kHz
);

/* silk/check_control_input.c -> check_control_input.c */
int ct_check_control_input(
    ct_silk_EncControlStruct *encControl /* I Control structure */
);

/* silk/control_audio_bandwidth.c -> control_audio_bandwidth.c */
int ct_silk_control_audio_bandwidth(
    ct_silk_encoder_state *psEncC,       /* I/O Pointer to Silk encoder state */
    ct_silk_EncControlStruct *encControl /* I Control structure */
);

/* silk/control_SNR.c -> control_snr.c */
int ct_silk_control_SNR(
    ct_silk_encoder_state *psEncC, /* I/O Pointer to Silk encoder state */
    int32_t TargetRate_bps         /* I Target max bitrate (bps) */
);

/* silk/HP_variable_cutoff.c -> hp_variable_cutoff.c */
void ct_silk_HP_variable_cutoff(
    ct_silk_encoder_state_FLP state_Fxx[] /* I/O Encoder states */
);

/* silk/LP_variable_cutoff.c -> lp_variable_cutoff.c */
void ct_silk_LP_variable_cutoff(
    ct_silk_LP_state *psLP, /* I/O LP filter state */
    int16_t *frame,         /* I/O Low-pass filtered output signal */
    const int frame_length  /* I Frame length */
);

/* silk/stereo_LR_to_MS.c -> stereo_lr_to_ms.c */
void ct_silk_stereo_LR_to_MS(
    ct_silk_stereo_enc_state *state, /* I/O State */
    int16_t x1[],                    /* I/O Left input signal, becomes mid signal */
    int16_t x2[],                    /* I/O Right input signal, becomes side signal */
    int8_t ix[ 2 ][ 3 ],             /* O Quantization indices */
    int8_t *mid_only_flag,           /* O Flag: only mid signal coded */
    int32_t mid_side_rates_bps[],    /* O Bitrates for mid and side signals */
    int32_t total_rate_bps,          /* I Total bitrate */
    int prev_speech_act_Q8,          /* I Speech activity level in previous frame */
    int toMono,                      /* I Last frame before a stereo->mono transition */
    int fs_kHz,                      /* I Sample rate (kHz) */
    int frame_length                 /* I Number of samples */
);

/* silk/stereo_find_predictor.c -> stereo_find_predictor.c */
int32_t ct_silk_stereo_find_predictor( /* O Returns predictor in Q13 */
    int32_t *ratio_Q14,       /* O Ratio of residual and mid energies */
    const int16_t x[],        /* I Basis signal */
    const int16_t y[],        /* I Target signal */
    int32_t mid_res_amp_Q0[], /* I/O Smoothed mid, residual norms */
    int length,               /* I Number of samples */
    int smooth_coef_Q16       /* I Smoothing coefficient */
);

/* silk/stereo_quant_pred.c -> stereo_quant_pred.c */
void ct_silk_stereo_quant_pred(
    int32_t pred_Q13[], /* I/O Predictors (out: quantized) */
    int8_t ix[ 2 ][ 3 ] /* O Quantization indices */
);

/* silk/stereo_encode_pred.c -> stereo_encode_pred.c */
void ct_silk_stereo_encode_pred(
    ct_ec_enc *psRangeEnc, /* I/O Compressor data structure */
    int8_t ix[ 2 ][ 3 ]    /* I Quantization indices */
);

void ct_silk_stereo_encode_mid_only(
    ct_ec_enc *psRangeEnc, /* I/O Compressor data structure */
    int8_t mid_only_flag
);

/* silk/VAD.c -> vad.c (silk_VAD_GetNoiseLevels is external there because x86/VAD_sse4_1.c calls it) */
int ct_silk_VAD_Init( /* O Return value, 0 if success */
    ct_silk_VAD_state *psSilk_VAD /* I/O Pointer to Silk VAD state */
);

int ct_silk_VAD_GetSA_Q8_c( /* O Return value, 0 if success */
    ct_silk_encoder_state *psEncC, /* I/O Encoder state */
    const int16_t pIn[]            /* I PCM input */
);

void ct_silk_VAD_GetNoiseLevels(
    const int32_t pX[ VAD_N_BANDS ], /* I subband energies */
    ct_silk_VAD_state *psSilk_VAD    /* I/O Pointer to Silk VAD state */
);

/* silk/x86/VAD_sse4_1.c -> x86/vad_sse4_1.c */
int ct_silk_VAD_GetSA_Q8_sse4_1(
    ct_silk_encoder_state *psEnC,
    const int16_t pIn[]
);

/* silk/encode_indices.c -> encode_indices.c */
void ct_silk_encode_indices(
    ct_silk_encoder_state *psEncC, /* I/O Encoder state */
    ct_ec_enc *psRangeEnc,         /* I/O Compressor data structure */
    int FrameIndex,                /* I Frame number */
    int encode_LBRR,               /* I Flag indicating LBRR data is being encoded */
    int condCoding                 /* I The type of conditional coding to use */
);

/* silk/encode_pulses.c -> encode_pulses.c */
void ct_silk_encode_pulses(
    ct_ec_enc *psRangeEnc,     /* I/O compressor data structure */
    const int signalType,      /* I Signal type */
    const int quantOffsetType, /* I quantOffsetType */
    int8_t pulses[],           /* I quantization indices */
    const int frame_length     /* I Frame length */
);

/* silk/shell_coder.c -> shell_coder.c */
void ct_silk_shell_encoder(
    ct_ec_enc *psRangeEnc, /* I/O compressor data structure */
    const int *pulses0     /* I data: nonnegative pulse amplitudes */
);

/* silk/code_signs.c -> code_signs.c */
void ct_silk_encode_signs(
    ct_ec_enc *psRangeEnc,                      /* I/O Compressor data structure */
    const int8_t pulses[],                      /* I pulse signal */
    int length,                                 /* I length of input */
    const int signalType,                       /* I Signal type */
    const int quantOffsetType,                  /* I Quantization offset type */
    const int sum_pulses[ MAX_NB_SHELL_BLOCKS ] /* I Sum of absolute pulses per block */
);

/* silk/gain_quant.c -> gain_quant.c */
void ct_silk_gains_quant(
    int8_t ind[ MAX_NB_SUBFR ],       /* O gain indices */
    int32_t gain_Q16[ MAX_NB_SUBFR ], /* I/O gains (quantized out) */
    int8_t *prev_ind,                 /* I/O last index in previous frame */
    const int conditional,            /* I first gain is delta coded if 1 */
    const int nb_subfr                /* I number of subframes */
);

void ct_silk_gains_dequant(
    int32_t gain_Q16[ MAX_NB_SUBFR ], /* O quantized gains */
    const int8_t ind[ MAX_NB_SUBFR ], /* I gain indices */
    int8_t *prev_ind,                 /* I/O last index in previous frame */
    const int conditional,            /* I first gain is delta coded if 1 */
    const int nb_subfr                /* I number of subframes */
);

int32_t ct_silk_gains_ID( /* O returns unique identifier of gains */
    const int8_t ind[ MAX_NB_SUBFR ], /* I gain indices */
    const int nb_subfr                /* I number of subframes */
);

/* silk/interpolate.c -> interpolate.c */
void ct_silk_interpolate(
    int16_t xi[ MAX_LPC_ORDER ],       /* O interpolated vector */
    const int16_t x0[ MAX_LPC_ORDER ], /* I first vector */
    const int16_t x1[ MAX_LPC_ORDER ], /* I second vector */
    const int ifact_Q2,                /* I interp. factor, weight on 2nd vector */
    const int d                        /* I number of parameters */
);

/* silk/quant_LTP_gains.c -> quant_ltp_gains.c (arch reached only the C VQ_WMat_EC: dropped) */
void ct_silk_quant_LTP_gains(
    int16_t B_Q14[ MAX_NB_SUBFR * LTP_ORDER ],                /* O Quantized LTP gains */
    int8_t cbk_index[ MAX_NB_SUBFR ],                         /* O Codebook Index */
    int8_t *periodicity_index,                                /* O Periodicity Index */
    int32_t *sum_gain_dB_Q7,                                  /* I/O Cumulative max prediction gain */
    int *pred_gain_dB_Q7,                                     /* O LTP prediction gain */
    const int32_t XX_Q17[ MAX_NB_SUBFR*LTP_ORDER*LTP_ORDER ], /* I Correlation matrix in Q18 */
    const int32_t xX_Q17[ MAX_NB_SUBFR*LTP_ORDER ],           /* I Correlation vector in Q18 */
    const int subfr_len,                                      /* I Number of samples per subframe */
    const int nb_subfr                                        /* I Number of subframes */
);

/* silk/VQ_WMat_EC.c -> vq_wmat_ec.c (silk_VQ_WMat_EC_c; the SSE4.1 version is behind #if 0) */
void ct_silk_VQ_WMat_EC(
    int8_t *ind,               /* O index of best codebook vector */
    int32_t *res_nrg_Q15,      /* O best residual energy */
    int32_t *rate_dist_Q8,     /* O best total bitrate */
    int *gain_Q7,              /* O sum of absolute LTP coefficients */
    const int32_t *XX_Q17,     /* I correlation matrix */
    const int32_t *xX_Q17,     /* I correlation vector */
    const int8_t *cb_Q7,       /* I codebook */
    const uint8_t *cb_gain_Q7, /* I codebook effective gain */
    const uint8_t *cl_Q5,      /* I code length for each codebook vector */
    const int subfr_len,       /* I number of samples per subframe */
    const int32_t max_gain_Q7, /* I maximum sum of absolute LTP coefficients */
    const int L                /* I number of vectors in codebook */
);

/* silk/NSQ.c -> nsq.c (silk_NSQ_c; the SSE4.1 version is behind #if 0) */
void ct_silk_NSQ(
    const ct_silk_encoder_state *psEncC,                        /* I Encoder State */
    ct_silk_nsq_state *NSQ,                                     /* I/O NSQ state */
    ct_silk_side_info_indices *psIndices,                       /* I/O Quantization Indices */
    const int16_t x16[],                                        /* I Input */
    int8_t pulses[],                                            /* O Quantized pulse signal */
    const int16_t PredCoef_Q12[ 2 * MAX_LPC_ORDER ],            /* I Short term prediction coefs */
    const int16_t LTPCoef_Q14[ LTP_ORDER * MAX_NB_SUBFR ],      /* I Long term prediction coefs */
    const int16_t AR_Q13[ MAX_NB_SUBFR * MAX_SHAPE_LPC_ORDER ], /* I Noise shaping coefs */
    const int HarmShapeGain_Q14[ MAX_NB_SUBFR ],                /* I Long term shaping coefs */
    const int Tilt_Q14[ MAX_NB_SUBFR ],                         /* I Spectral tilt */
    const int32_t LF_shp_Q14[ MAX_NB_SUBFR ],                   /* I Low frequency shaping coefs */
    const int32_t Gains_Q16[ MAX_NB_SUBFR ],                    /* I Quantization step sizes */
    const int pitchL[ MAX_NB_SUBFR ],                           /* I Pitch lags */
    const int Lambda_Q10,                                       /* I Rate/distortion tradeoff */
    const int LTP_scale_Q14                                     /* I LTP state scaling */
);

/* silk/NSQ_del_dec.c -> nsq_del_dec.c (silk_NSQ_del_dec_c; the SSE4.1 version is behind #if 0) */
void ct_silk_NSQ_del_dec(
    const ct_silk_encoder_state *psEncC,                        /* I Encoder State */
    ct_silk_nsq_state *NSQ,                                     /* I/O NSQ state */
    ct_silk_side_info_indices *psIndices,                       /* I/O Quantization Indices */
    const int16_t x16[],                                        /* I Input */
    int8_t pulses[],                                            /* O Quantized pulse signal */
    const int16_t PredCoef_Q12[ 2 * MAX_LPC_ORDER ],            /* I Short term prediction coefs */
    const int16_t LTPCoef_Q14[ LTP_ORDER * MAX_NB_SUBFR ],      /* I Long term prediction coefs */
    const int16_t AR_Q13[ MAX_NB_SUBFR * MAX_SHAPE_LPC_ORDER ], /* I Noise shaping coefs */
    const int HarmShapeGain_Q14[ MAX_NB_SUBFR ],                /* I Long term shaping coefs */
    const int Tilt_Q14[ MAX_NB_SUBFR ],                         /* I Spectral tilt */
    const int32_t LF_shp_Q14[ MAX_NB_SUBFR ],                   /* I Low frequency shaping coefs */
    const int32_t Gains_Q16[ MAX_NB_SUBFR ],                    /* I Quantization step sizes */
    const int pitchL[ MAX_NB_SUBFR ],                           /* I Pitch lags */
    const int Lambda_Q10,                                       /* I Rate/distortion tradeoff */
    const int LTP_scale_Q14                                     /* I LTP state scaling */
);

#if defined(__x86_64__)
/* x86/nsq_del_dec_avx2.c: ct_silk_NSQ_del_dec's bits, the states in the
 * lanes of AVX2 registers (the kernel table's nsq_del_dec at CT_SIMD_AVX2) */
ct_silk_nsq_del_dec_fn ct_silk_NSQ_del_dec_avx2;
#endif

/* silk/process_NLSFs.c -> process_nlsfs.c */
void ct_silk_process_NLSFs(
    ct_silk_encoder_state *psEncC,                /* I/O Encoder state */
    int16_t PredCoef_Q12[ 2 ][ MAX_LPC_ORDER ],   /* O Prediction coefficients */
    int16_t pNLSF_Q15[ MAX_LPC_ORDER ],           /* I/O Normalized LSFs (quant out) (0 - (2^15-1)) */
    const int16_t prev_NLSFq_Q15[ MAX_LPC_ORDER ] /* I Previous Normalized LSFs (0 - (2^15-1)) */
);

/* silk/NLSF_encode.c -> nlsf_encode.c */
int32_t ct_silk_NLSF_encode( /* O Returns RD value in Q25 */
    int8_t *NLSFIndices,                     /* I Codebook path vector [ LPC_ORDER + 1 ] */
    int16_t *pNLSF_Q15,                      /* I/O Quantized NLSF vector [ LPC_ORDER ] */
    const ct_silk_NLSF_CB_struct *psNLSF_CB, /* I Codebook object */
    const int16_t *pW_QW,                    /* I NLSF weight vector [ LPC_ORDER ] */
    const int NLSF_mu_Q20,                   /* I Rate weight for the RD optimization */
    const int nSurvivors,                    /* I Max survivors after first stage */
    const int signalType                     /* I Signal type: 0/1/2 */
);

/* silk/NLSF_VQ.c -> nlsf_vq.c */
void ct_silk_NLSF_VQ(
    int32_t err_Q26[],        /* O Quantization errors [K] */
    const int16_t in_Q15[],   /* I Input vectors to be quantized [LPC_order] */
    const uint8_t pCB_Q8[],   /* I Codebook vectors [K*LPC_order] */
    const int16_t pWght_Q9[], /* I Codebook weights [K*LPC_order] */
    const int K,              /* I Number of codebook vectors */
    const int LPC_order       /* I Number of LPCs */
);

/* silk/NLSF_del_dec_quant.c -> nlsf_del_dec_quant.c */
int32_t ct_silk_NLSF_del_dec_quant( /* O Returns RD value in Q25 */
    int8_t indices[],                     /* O Quantization indices [ order ] */
    const int16_t x_Q10[],                /* I Input [ order ] */
    const int16_t w_Q5[],                 /* I Weights [ order ] */
    const uint8_t pred_coef_Q8[],         /* I Backward predictor coefs [ order ] */
    const int16_t ec_ix[],                /* I Indices to entropy coding tables [ order ] */
    const uint8_t ec_rates_Q5[],          /* I Rates [] */
    const int quant_step_size_Q16,        /* I Quantization step size */
    const int16_t inv_quant_step_size_Q6, /* I Inverse quantization step size */
    const int32_t mu_Q20,                 /* I R/D tradeoff */
    const int16_t order                   /* I Number of input values */
);

/* silk/NLSF_unpack.c -> nlsf_unpack.c */
void ct_silk_NLSF_unpack(
    int16_t ec_ix[],                         /* O Indices to entropy tables [ LPC_ORDER ] */
    uint8_t pred_Q8[],                       /* O LSF predictor [ LPC_ORDER ] */
    const ct_silk_NLSF_CB_struct *psNLSF_CB, /* I Codebook object */
    const int CB1_index                      /* I Index of vector in first LSF codebook */
);

/* silk/NLSF_decode.c -> nlsf_decode.c (the encoder decodes its own NLSFs) */
void ct_silk_NLSF_decode(
    int16_t *pNLSF_Q15,                     /* O Quantized NLSF vector [ LPC_ORDER ] */
    int8_t *NLSFIndices,                    /* I Codebook path vector [ LPC_ORDER + 1 ] */
    const ct_silk_NLSF_CB_struct *psNLSF_CB /* I Codebook object */
);

/* silk/float/noise_shape_analysis_FLP.c -> noise_shape_analysis_flp.c */
void ct_silk_noise_shape_analysis_FLP(
    ct_silk_encoder_state_FLP *psEnc,       /* I/O Encoder state FLP */
    ct_silk_encoder_control_FLP *psEncCtrl, /* I/O Encoder control FLP */
    const float *pitch_res,                 /* I LPC residual from pitch analysis */
    const float *x                          /* I Input signal [frame_length + la_shape] */
);

/* silk/float/warped_autocorrelation_FLP.c -> warped_autocorrelation_flp.c */
void ct_silk_warped_autocorrelation_FLP(
    float *corr,         /* O Result [order + 1] */
    const float *input,  /* I Input data to correlate */
    const float warping, /* I Warping coefficient */
    const int length,    /* I Length of input */
    const int order      /* I Correlation order (even) */
);

/* ours: ct_silk_warped_autocorrelation_FLP's bits with AVX2 (the cells of a
 * diagonal at once), x86/warped_autocorrelation_avx2.c */
void ct_silk_warped_autocorrelation_FLP_avx2(float *corr, const float *input,
                                             const float warping,
                                             const int length, const int order);

/* silk/float/LTP_scale_ctrl_FLP.c -> ltp_scale_ctrl_flp.c */
void ct_silk_LTP_scale_ctrl_FLP(
    ct_silk_encoder_state_FLP *psEnc,       /* I/O Encoder state FLP */
    ct_silk_encoder_control_FLP *psEncCtrl, /* I/O Encoder control FLP */
    int condCoding                          /* I The type of conditional coding to use */
);

/* silk/float/find_pitch_lags_FLP.c -> find_pitch_lags_flp.c */
void ct_silk_find_pitch_lags_FLP(
    ct_silk_encoder_state_FLP *psEnc,       /* I/O Encoder state FLP */
    ct_silk_encoder_control_FLP *psEncCtrl, /* I/O Encoder control FLP */
    float res[],                            /* O Residual */
    const float x[],                        /* I Speech signal */
    const ct_opus_dsp *dsp                  /* I Kernel table (the reference's arch) */
);

/* silk/float/find_pred_coefs_FLP.c -> find_pred_coefs_flp.c */
void ct_silk_find_pred_coefs_FLP(
    ct_silk_encoder_state_FLP *psEnc,       /* I/O Encoder state FLP */
    ct_silk_encoder_control_FLP *psEncCtrl, /* I/O Encoder control FLP */
    const float res_pitch[],                /* I Residual from pitch analysis */
    const float x[],                        /* I Speech signal */
    int condCoding                          /* I The type of conditional coding to use */
);

/* silk/float/find_LPC_FLP.c -> find_lpc_flp.c */
void ct_silk_find_LPC_FLP(
    ct_silk_encoder_state *psEncC, /* I/O Encoder state */
    int16_t NLSF_Q15[],            /* O NLSFs */
    const float x[],               /* I Input signal */
    const float minInvGain         /* I Prediction gain from LTP (dB) */
);

/* silk/float/find_LTP_FLP.c -> find_ltp_flp.c */
void ct_silk_find_LTP_FLP(
    float XX[ MAX_NB_SUBFR * LTP_ORDER * LTP_ORDER ], /* O Weight for LTP quantization */
    float xX[ MAX_NB_SUBFR * LTP_ORDER ],             /* O Weight for LTP quantization */
    const float r_ptr[],                              /* I LPC residual */
    const int lag[ MAX_NB_SUBFR ],                    /* I LTP lags */
    const int subfr_length,                           /* I Subframe length */
    const int nb_subfr                                /* I number of subframes */
);

/* silk/float/LTP_analysis_filter_FLP.c -> ltp_analysis_filter_flp.c */
void ct_silk_LTP_analysis_filter_FLP(
    float *LTP_res,                            /* O LTP res MAX_NB_SUBFR*(pre_lgth+subfr_lngth) */
    const float *x,                            /* I Input signal, with preceding samples */
    const float B[ LTP_ORDER * MAX_NB_SUBFR ], /* I LTP coefficients for each subframe */
    const int pitchL[ MAX_NB_SUBFR ],          /* I Pitch lags */
    const float invGains[ MAX_NB_SUBFR ],      /* I Inverse quantization gains */
    const int subfr_length,                    /* I Length of each subframe */
    const int nb_subfr,                        /* I number of subframes */
    const int pre_length                       /* I Preceding samples for each subframe */
);

/* silk/float/residual_energy_FLP.c -> residual_energy_flp.c (not its
 * silk_residual_energy_covar_FLP: the float encoder never calls it) */
void ct_silk_residual_energy_FLP(
    float nrgs[ MAX_NB_SUBFR ],    /* O Residual energy per subframe */
    const float x[],               /* I Input signal */
    float a[ 2 ][ MAX_LPC_ORDER ], /* I AR coefs for each frame half */
    const float gains[],           /* I Quantization gains */
    const int subfr_length,        /* I Subframe length */
    const int nb_subfr,            /* I number of subframes */
    const int LPC_order            /* I LPC order */
);

/* silk/float/LPC_analysis_filter_FLP.c -> lpc_analysis_filter_flp.c */
void ct_silk_LPC_analysis_filter_FLP(
    float r_LPC[],          /* O LPC residual signal */
    const float PredCoef[], /* I LPC coefficients */
    const float s[],        /* I Input signal */
    const int length,       /* I Length of input signal */
    const int Order         /* I LPC order */
);

/* silk/float/process_gains_FLP.c -> process_gains_flp.c */
void ct_silk_process_gains_FLP(
    ct_silk_encoder_state_FLP *psEnc,       /* I/O Encoder state FLP */
    ct_silk_encoder_control_FLP *psEncCtrl, /* I/O Encoder control FLP */
    int condCoding                          /* I The type of conditional coding to use */
);

/* silk/float/corrMatrix_FLP.c -> corrmatrix_flp.c */
void ct_silk_corrMatrix_FLP(
    const float *x,  /* I x vector [ L+order-1 ] used to create X */
    const int L,     /* I Length of vectors */
    const int Order, /* I Max lag for correlation */
    float *XX        /* O X'*X correlation matrix [order x order] */
);

void ct_silk_corrVector_FLP(
    const float *x,  /* I x vector [L+order-1] used to create X */
    const float *t,  /* I Target vector [L] */
    const int L,     /* I Length of vecors */
    const int Order, /* I Max lag for correlation */
    float *Xt        /* O X'*t correlation vector [order] */
);

/* silk/float/apply_sine_window_FLP.c -> apply_sine_window_flp.c */
void ct_silk_apply_sine_window_FLP(
    float px_win[],     /* O Pointer to windowed signal */
    const float px[],   /* I Pointer to input signal */
    const int win_type, /* I Selects a window type */
    const int length    /* I Window length, multiple of 4 */
);

/* silk/float/wrappers_FLP.c -> wrappers_flp.c (arch reached only C code: dropped) */
void ct_silk_A2NLSF_FLP(
    int16_t *NLSF_Q15,  /* O NLSF vector [ LPC_order ] */
    const float *pAR,   /* I LPC coefficients [ LPC_order ] */
    const int LPC_order /* I LPC order */
);

void ct_silk_NLSF2A_FLP(
    float *pAR,              /* O LPC coefficients [ LPC_order ] */
    const int16_t *NLSF_Q15, /* I NLSF vector [ LPC_order ] */
    const int LPC_order      /* I LPC order */
);

void ct_silk_process_NLSFs_FLP(
    ct_silk_encoder_state *psEncC,               /* I/O Encoder state */
    float PredCoef[ 2 ][ MAX_LPC_ORDER ],        /* O Prediction coefficients */
    int16_t NLSF_Q15[ MAX_LPC_ORDER ],           /* I/O Normalized LSFs (quant out) (0 - (2^15-1)) */
    const int16_t prev_NLSF_Q15[ MAX_LPC_ORDER ] /* I Previous Normalized LSFs (0 - (2^15-1)) */
);

void ct_silk_NSQ_wrapper_FLP(
    ct_silk_encoder_state_FLP *psEnc,       /* I/O Encoder state FLP */
    ct_silk_encoder_control_FLP *psEncCtrl, /* I/O Encoder control FLP */
    ct_silk_side_info_indices *psIndices,   /* I/O Quantization indices */
    ct_silk_nsq_state *psNSQ,               /* I/O Noise Shaping Quantzation state */
    int8_t pulses[],                        /* O Quantized pulse signal */
    const float x[]                         /* I Prefiltered input signal */
);

void ct_silk_quant_LTP_gains_FLP(
    float B[ MAX_NB_SUBFR * LTP_ORDER ],                    /* O Quantized LTP gains */
    int8_t cbk_index[ MAX_NB_SUBFR ],                       /* O Codebook index */
    int8_t *periodicity_index,                              /* O Periodicity index */
    int32_t *sum_log_gain_Q7,                               /* I/O Cumulative max prediction gain */
    float *pred_gain_dB,                                    /* O LTP prediction gain */
    const float XX[ MAX_NB_SUBFR * LTP_ORDER * LTP_ORDER ], /* I Correlation matrix */
    const float xX[ MAX_NB_SUBFR * LTP_ORDER ],             /* I Correlation vector */
    const int subfr_len,                                    /* I Number of samples per subframe */
    const int nb_subfr                                      /* I Number of subframes */
);

/* silk/float/bwexpander_FLP.c -> bwexpander_flp.c */
void ct_silk_bwexpander_FLP(
    float *ar,        /* I/O AR filter to be expanded (without leading 1) */
    const int d,      /* I length of ar */
    const float chirp /* I chirp factor (typically in range (0..1) ) */
);

/* silk/float/schur_FLP.c -> schur_flp.c */
float ct_silk_schur_FLP( /* O returns residual energy */
    float refl_coef[],       /* O reflection coefficients (length order) */
    const float auto_corr[], /* I autocorrelation sequence (length order+1) */
    int order                /* I order */
);

/* silk/float/k2a_FLP.c -> k2a_flp.c */
void ct_silk_k2a_FLP(
    float *A,        /* O prediction coefficients [order] */
    const float *rc, /* I reflection coefficients [order] */
    int32_t order    /* I prediction order */
);

/* silk/float/autocorrelation_FLP.c -> autocorrelation_flp.c */
void ct_silk_autocorrelation_FLP(
    float *results,         /* O result (length correlationCount) */
    const float *inputData, /* I input data to correlate */
    int inputDataSize,      /* I length of input */
    int correlationCount    /* I number of correlation taps to compute */
);

/* silk/float/pitch_analysis_core_FLP.c -> pitch_analysis_core_flp.c (celt_pitch_xcorr through dsp) */
int ct_silk_pitch_analysis_core_FLP( /* O Voicing estimate: 0 voiced, 1 unvoiced */
    const float *frame,        /* I Signal of length PE_FRAME_LENGTH_MS*Fs_kHz */
    int *pitch_out,            /* O Pitch lag values [nb_subfr] */
    int16_t *lagIndex,         /* O Lag Index */
    int8_t *contourIndex,      /* O Pitch contour Index */
    float *LTPCorr,            /* I/O Normalized correlation; input: value from previous frame */
    int prevLag,               /* I Last lag of previous frame; set to zero is unvoiced */
    const float search_thres1, /* I First stage threshold for lag candidates 0 - 1 */
    const float search_thres2, /* I Final threshold for lag candidates 0 - 1 */
    const int Fs_kHz,          /* I sample frequency (kHz) */
    const int complexity,      /* I Complexity setting, 0-2, where 2 is highest */
    const int nb_subfr,        /* I Number of 5 ms subframes */
    const ct_opus_dsp *dsp     /* I Kernel table (the reference's arch) */
);

/* silk/float/sort_FLP.c -> sort_flp.c */
void ct_silk_insertion_sort_decreasing_FLP(
    float *a,    /* I/O Unsorted / Sorted vector */
    int *idx,    /* O Index vector for the sorted elements */
    const int L, /* I Vector length */
    const int K  /* I Number of correctly sorted positions */
);

/* silk/float/burg_modified_FLP.c -> burg_modified_flp.c */
float ct_silk_burg_modified_FLP( /* O returns residual energy */
    float A[],              /* O prediction coefficients (length order) */
    const float x[],        /* I input signal, length: nb_subfr*(D+L_sub) */
    const float minInvGain, /* I minimum inverse prediction gain */
    const int subfr_length, /* I input signal subframe length (incl. D preceding samples) */
    const int nb_subfr,     /* I number of subframes stacked in x */
    const int D             /* I order */
);

/* silk/float/scale_vector_FLP.c -> scale_vector_flp.c */
void ct_silk_scale_vector_FLP(
    float *data1,
    float gain,
    int dataSize
);

/* silk/float/scale_copy_vector_FLP.c -> scale_copy_vector_flp.c */
void ct_silk_scale_copy_vector_FLP(
    float *data_out,
    const float *data_in,
    float gain,
    int dataSize
);

/* silk/float/inner_product_FLP.c -> inner_product_flp.c */
double ct_silk_inner_product_FLP(
    const float *data1,
    const float *data2,
    int dataSize
);

/* silk/float/energy_FLP.c -> energy_flp.c */
double ct_silk_energy_FLP(
    const float *data,
    int dataSize
);

/* silk/resampler.c -> resampler.c */
int ct_silk_resampler_init(
    ct_silk_resampler_state_struct *S, /* I/O Resampler state */
    int32_t Fs_Hz_in,                  /* I Input sampling rate (Hz) */
    int32_t Fs_Hz_out,                 /* I Output sampling rate (Hz) */
    int forEnc                         /* I If 1: encoder; if 0: decoder */
);

int ct_silk_resampler(
    ct_silk_resampler_state_struct *S, /* I/O Resampler state */
    int16_t out[],                     /* O Output signal */
    const int16_t in[],                /* I Input signal */
    int32_t inLen                      /* I Number of input samples */
);

/* silk/resampler_down2.c -> resampler_down2.c */
void ct_silk_resampler_down2(
    int32_t *S,        /* I/O State vector [ 2 ] */
    int16_t *out,      /* O Output signal [ len ] */
    const int16_t *in, /* I Input signal [ floor(len/2) ] */
    int32_t inLen      /* I Number of input samples */
);

/* silk/resampler_down2_3.c -> resampler_down2_3.c */
void ct_silk_resampler_down2_3(
    int32_t *S,        /* I/O State vector [ 6 ] */
    int16_t *out,      /* O Output signal [ floor(2*inLen/3) ] */
    const int16_t *in, /* I Input signal [ inLen ] */
    int32_t inLen      /* I Number of input samples */
);

/* silk/resampler_private_IIR_FIR.c -> resampler_private_iir_fir.c */
void ct_silk_resampler_private_IIR_FIR(
    void *SS,           /* I/O Resampler state */
    int16_t out[],      /* O Output signal */
    const int16_t in[], /* I Input signal */
    int32_t inLen       /* I Number of input samples */
);

/* silk/resampler_private_down_FIR.c -> resampler_private_down_fir.c */
void ct_silk_resampler_private_down_FIR(
    void *SS,           /* I/O Resampler state */
    int16_t out[],      /* O Output signal */
    const int16_t in[], /* I Input signal */
    int32_t inLen       /* I Number of input samples */
);

/* silk/resampler_private_up2_HQ.c -> resampler_private_up2_hq.c */
void ct_silk_resampler_private_up2_HQ_wrapper(
    void *SS,          /* I/O Resampler state (unused) */
    int16_t *out,      /* O Output signal [ 2 * len ] */
    const int16_t *in, /* I Input signal [ len ] */
    int32_t len        /* I Number of input samples */
);

void ct_silk_resampler_private_up2_HQ(
    int32_t *S,        /* I/O Resampler state [ 6 ] */
    int16_t *out,      /* O Output signal [ 2 * len ] */
    const int16_t *in, /* I Input signal [ len ] */
    int32_t len        /* I Number of input samples */
);

/* silk/resampler_private_AR2.c -> resampler_private_ar2.c */
void ct_silk_resampler_private_AR2(
    int32_t S[],           /* I/O State vector [ 2 ] */
    int32_t out_Q8[],      /* O Output signal */
    const int16_t in[],    /* I Input signal */
    const int16_t A_Q14[], /* I AR coefficients, Q14 */
    int32_t len            /* I Signal length */
);

/* silk/biquad_alt.c -> biquad_alt.c */
void ct_silk_biquad_alt_stride1(
    const int16_t *in,    /* I input signal */
    const int32_t *B_Q28, /* I MA coefficients [3] */
    const int32_t *A_Q28, /* I AR coefficients [2] */
    int32_t *S,           /* I/O State vector [2] */
    int16_t *out,         /* O output signal */
    const int32_t len     /* I signal length (must be even) */
);

/* silk/LPC_analysis_filter.c -> lpc_analysis_filter.c (arch unused in the float build: dropped) */
void ct_silk_LPC_analysis_filter(
    int16_t *out,      /* O Output signal */
    const int16_t *in, /* I Input signal */
    const int16_t *B,  /* I MA prediction coefficients, Q12 [order] */
    const int32_t len, /* I Signal length */
    const int32_t d    /* I Filter order */
);

/* silk/LPC_inv_pred_gain.c -> lpc_inv_pred_gain.c (silk_LPC_inverse_pred_gain_c, whose macro drops arch) */
int32_t ct_silk_LPC_inverse_pred_gain( /* O Returns inverse prediction gain in energy domain, Q30 */
    const int16_t *A_Q12, /* I Prediction coefficients, Q12 [order] */
    const int order       /* I Prediction order */
);

/* silk/ana_filt_bank_1.c -> ana_filt_bank_1.c */
void ct_silk_ana_filt_bank_1(
    const int16_t *in, /* I Input signal [N] */
    int32_t *S,        /* I/O State vector [2] */
    int16_t *outL,     /* O Low band [N/2] */
    int16_t *outH,     /* O High band [N/2] */
    const int32_t N    /* I Number of input samples */
);

/* silk/lin2log.c -> lin2log.c */
int32_t ct_silk_lin2log(
    const int32_t inLin /* I input in linear scale */
);

/* silk/log2lin.c -> log2lin.c */
int32_t ct_silk_log2lin(
    const int32_t inLog_Q7 /* I input on log scale */
);

/* silk/sigm_Q15.c -> sigm_q15.c */
int ct_silk_sigm_Q15(
    int in_Q5 /* I */
);

/* silk/sum_sqr_shift.c -> sum_sqr_shift.c */
void ct_silk_sum_sqr_shift(
    int32_t *energy,  /* O Energy of x, after shifting to the right */
    int *shift,       /* O Number of bits right shift applied to energy */
    const int16_t *x, /* I Input vector */
    int len           /* I Length of input vector */
);

/* silk/A2NLSF.c -> a2nlsf.c */
void ct_silk_A2NLSF(
    int16_t *NLSF,  /* O Normalized Line Spectral Frequencies in Q15 (0..2^15-1) [d] */
    int32_t *a_Q16, /* I/O Monic whitening filter coefficients in Q16 [d] */
    const int d     /* I Filter order (must be even) */
);

/* silk/NLSF2A.c -> nlsf2a.c (arch reached only the C LPC_inverse_pred_gain: dropped) */
void ct_silk_NLSF2A(
    int16_t *a_Q12,      /* O monic whitening filter coefficients in Q12, [ d ] */
    const int16_t *NLSF, /* I normalized line spectral frequencies in Q15, [ d ] */
    const int d          /* I filter order (should be even) */
);

/* silk/LPC_fit.c -> lpc_fit.c */
void ct_silk_LPC_fit(
    int16_t *a_QOUT, /* O Output signal */
    int32_t *a_QIN,  /* I/O Input signal */
    const int QOUT,  /* I Input Q domain */
    const int QIN,   /* I Input Q domain */
    const int d      /* I Filter order */
);

/* silk/bwexpander_32.c -> bwexpander_32.c */
void ct_silk_bwexpander_32(
    int32_t *ar,      /* I/O AR filter to be expanded (without leading 1) */
    const int d,      /* I Length of ar */
    int32_t chirp_Q16 /* I Chirp factor in Q16 */
);

/* silk/sort.c -> sort.c */
void ct_silk_insertion_sort_increasing(
    int32_t *a,  /* I/O Unsorted / Sorted vector */
    int *idx,    /* O Index vector for the sorted elements */
    const int L, /* I Vector length */
    const int K  /* I Number of correctly sorted positions */
);

void ct_silk_insertion_sort_increasing_all_values_int16(
    int16_t *a, /* I/O Unsorted / Sorted vector */
    const int L /* I Vector length */
);

/* silk/NLSF_stabilize.c -> nlsf_stabilize.c */
void ct_silk_NLSF_stabilize(
    int16_t *NLSF_Q15,            /* I/O Unstable/stabilized normalized LSF vector in Q15 [L] */
    const int16_t *NDeltaMin_Q15, /* I Min distance vector, NDeltaMin_Q15[L] must be >= 1 [L+1] */
    const int L                   /* I Number of NLSF parameters in the input vector */
);

/* silk/NLSF_VQ_weights_laroia.c -> nlsf_vq_weights_laroia.c */
void ct_silk_NLSF_VQ_weights_laroia(
    int16_t *pNLSFW_Q_OUT,    /* O Pointer to input vector weights [D] */
    const int16_t *pNLSF_Q15, /* I Pointer to input vector [D] */
    const int D               /* I Input vector dimension (even) */
);

/* silk/inner_prod_aligned.c -> inner_prod_aligned.c */
int32_t ct_silk_inner_prod_aligned_scale(
    const int16_t *const inVec1, /* I input vector 1 */
    const int16_t *const inVec2, /* I input vector 2 */
    const int scale,             /* I number of bits to shift */
    const int len                /* I vector lengths */
);

#endif
