/*
 * SILK's encoder structures, float build: the NSQ, VAD, LP-filter,
 * stereo and resampler states, the side information, the common and the
 * float encoder states, the encoder control and the encoder super struct.
 * Ports silk/resampler_structs.h, silk/structs.h (encoder side),
 * silk/float/structs_FLP.h and silk/control.h's silk_EncControlStruct,
 * with the types renamed (ct_silk_*) and the fields as in the reference.
 * The common state's `int arch` becomes `const ct_opus_dsp *dsp`, the
 * kernel table its functions pass down.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_SILK_STRUCTS_H
#define CTCORE_OPUS_SILK_STRUCTS_H

#include <stdint.h>

#include "opus/dsp.h"
#include "opus/silk/define.h"
#include "opus/silk/macros.h"

/* ---- silk/resampler_structs.h ---- */

#define SILK_RESAMPLER_MAX_FIR_ORDER                 36
#define SILK_RESAMPLER_MAX_IIR_ORDER                 6

typedef struct ct_silk_resampler_state_struct {
    int32_t       sIIR[ SILK_RESAMPLER_MAX_IIR_ORDER ]; /* this must be the first element of this struct */
    union{
        int32_t   i32[ SILK_RESAMPLER_MAX_FIR_ORDER ];
        int16_t   i16[ SILK_RESAMPLER_MAX_FIR_ORDER ];
    }             sFIR;
    int16_t       delayBuf[ 48 ];
    int           resampler_function;
    int           batchSize;
    int32_t       invRatio_Q16;
    int           FIR_Order;
    int           FIR_Fracs;
    int           Fs_in_kHz;
    int           Fs_out_kHz;
    int           inputDelay;
    const int16_t *Coefs;
} ct_silk_resampler_state_struct;

/* ---- silk/structs.h, encoder side ---- */

/************************************/
/* Noise shaping quantization state */
/************************************/
typedef struct ct_silk_nsq_state {
    int16_t                     xq[           2 * MAX_FRAME_LENGTH ]; /* Buffer for quantized output signal                             */
    int32_t                     sLTP_shp_Q14[ 2 * MAX_FRAME_LENGTH ];
    int32_t                     sLPC_Q14[ MAX_SUB_FRAME_LENGTH + NSQ_LPC_BUF_LENGTH ];
    int32_t                     sAR2_Q14[ MAX_SHAPE_LPC_ORDER ];
    int32_t                     sLF_AR_shp_Q14;
    int32_t                     sDiff_shp_Q14;
    int                         lagPrev;
    int                         sLTP_buf_idx;
    int                         sLTP_shp_buf_idx;
    int32_t                     rand_seed;
    int32_t                     prev_gain_Q16;
    int                         rewhite_flag;
} ct_silk_nsq_state;

/********************************/
/* VAD state                    */
/********************************/
typedef struct ct_silk_VAD_state {
    int32_t                     AnaState[ 2 ];                  /* Analysis filterbank state: 0-8 kHz                                   */
    int32_t                     AnaState1[ 2 ];                 /* Analysis filterbank state: 0-4 kHz                                   */
    int32_t                     AnaState2[ 2 ];                 /* Analysis filterbank state: 0-2 kHz                                   */
    int32_t                     XnrgSubfr[ VAD_N_BANDS ];       /* Subframe energies                                                    */
    int32_t                     NrgRatioSmth_Q8[ VAD_N_BANDS ]; /* Smoothed energy level in each band                                   */
    int16_t                     HPstate;                        /* State of differentiator in the lowest band                           */
    int32_t                     NL[ VAD_N_BANDS ];              /* Noise energy level in each band                                      */
    int32_t                     inv_NL[ VAD_N_BANDS ];          /* Inverse noise energy level in each band                              */
    int32_t                     NoiseLevelBias[ VAD_N_BANDS ];  /* Noise level estimator bias/offset                                    */
    int32_t                     counter;                        /* Frame counter used in the initial phase                              */
} ct_silk_VAD_state;

/* Variable cut-off low-pass filter state */
typedef struct ct_silk_LP_state {
    int32_t                     In_LP_State[ 2 ];           /* Low pass filter state */
    int32_t                     transition_frame_no;        /* Counter which is mapped to a cut-off frequency */
    int                         mode;                       /* Operating mode, <0: switch down, >0: switch up; 0: do nothing           */
    int32_t                     saved_fs_kHz;               /* If non-zero, holds the last sampling rate before a bandwidth switching reset. */
} ct_silk_LP_state;

/* Structure containing NLSF codebook */
typedef struct ct_silk_NLSF_CB_struct {
    const int16_t               nVectors;
    const int16_t               order;
    const int16_t               quantStepSize_Q16;
    const int16_t               invQuantStepSize_Q6;
    const uint8_t               *CB1_NLSF_Q8;
    const int16_t               *CB1_Wght_Q9;
    const uint8_t               *CB1_iCDF;
    const uint8_t               *pred_Q8;
    const uint8_t               *ec_sel;
    const uint8_t               *ec_iCDF;
    const uint8_t               *ec_Rates_Q5;
    const int16_t               *deltaMin_Q15;
} ct_silk_NLSF_CB_struct;

typedef struct ct_silk_stereo_enc_state {
    int16_t                     pred_prev_Q13[ 2 ];
    int16_t                     sMid[ 2 ];
    int16_t                     sSide[ 2 ];
    int32_t                     mid_side_amp_Q0[ 4 ];
    int16_t                     smth_width_Q14;
    int16_t                     width_prev_Q14;
    int16_t                     silent_side_len;
    int8_t                      predIx[ MAX_FRAMES_PER_PACKET ][ 2 ][ 3 ];
    int8_t                      mid_only_flags[ MAX_FRAMES_PER_PACKET ];
} ct_silk_stereo_enc_state;

typedef struct ct_silk_side_info_indices {
    int8_t                      GainsIndices[ MAX_NB_SUBFR ];
    int8_t                      LTPIndex[ MAX_NB_SUBFR ];
    int8_t                      NLSFIndices[ MAX_LPC_ORDER + 1 ];
    int16_t                     lagIndex;
    int8_t                      contourIndex;
    int8_t                      signalType;
    int8_t                      quantOffsetType;
    int8_t                      NLSFInterpCoef_Q2;
    int8_t                      PERIndex;
    int8_t                      LTP_scaleIndex;
    int8_t                      Seed;
} ct_silk_side_info_indices;

/********************************/
/* Encoder state                */
/********************************/
typedef struct ct_silk_encoder_state {
    int32_t                     In_HP_State[ 2 ];                  /* High pass filter state                                           */
    int32_t                     variable_HP_smth1_Q15;             /* State of first smoother                                          */
    int32_t                     variable_HP_smth2_Q15;             /* State of second smoother                                         */
    ct_silk_LP_state            sLP;                               /* Low pass filter state                                            */
    ct_silk_VAD_state           sVAD;                              /* Voice activity detector state                                    */
    ct_silk_nsq_state           sNSQ;                              /* Noise Shape Quantizer State                                      */
    int16_t                     prev_NLSFq_Q15[ MAX_LPC_ORDER ];   /* Previously quantized NLSF vector                                 */
    int                         speech_activity_Q8;                /* Speech activity                                                  */
    int                         allow_bandwidth_switch;            /* Flag indicating that switching of internal bandwidth is allowed  */
    int8_t                      LBRRprevLastGainIndex;
    int8_t                      prevSignalType;
    int                         prevLag;
    int                         pitch_LPC_win_length;
    int                         max_pitch_lag;                     /* Highest possible pitch lag (samples)                             */
    int32_t                     API_fs_Hz;                         /* API sampling frequency (Hz)                                      */
    int32_t                     prev_API_fs_Hz;                    /* Previous API sampling frequency (Hz)                             */
    int                         maxInternal_fs_Hz;                 /* Maximum internal sampling frequency (Hz)                         */
    int                         minInternal_fs_Hz;                 /* Minimum internal sampling frequency (Hz)                         */
    int                         desiredInternal_fs_Hz;             /* Soft request for internal sampling frequency (Hz)                */
    int                         fs_kHz;                            /* Internal sampling frequency (kHz)                                */
    int                         nb_subfr;                          /* Number of 5 ms subframes in a frame                              */
    int                         frame_length;                      /* Frame length (samples)                                           */
    int                         subfr_length;                      /* Subframe length (samples)                                        */
    int                         ltp_mem_length;                    /* Length of LTP memory                                             */
    int                         la_pitch;                          /* Look-ahead for pitch analysis (samples)                          */
    int                         la_shape;                          /* Look-ahead for noise shape analysis (samples)                    */
    int                         shapeWinLength;                    /* Window length for noise shape analysis (samples)                 */
    int32_t                     TargetRate_bps;                    /* Target bitrate (bps)                                             */
    int                         PacketSize_ms;                     /* Number of milliseconds to put in each packet                     */
    int                         PacketLoss_perc;                   /* Packet loss rate measured by farend                              */
    int32_t                     frameCounter;
    int                         Complexity;                        /* Complexity setting                                               */
    int                         nStatesDelayedDecision;            /* Number of states in delayed decision quantization                */
    int                         useInterpolatedNLSFs;              /* Flag for using NLSF interpolation                                */
    int                         shapingLPCOrder;                   /* Filter order for noise shaping filters                           */
    int                         predictLPCOrder;                   /* Filter order for prediction filters                              */
    int                         pitchEstimationComplexity;         /* Complexity level for pitch estimator                             */
    int                         pitchEstimationLPCOrder;           /* Whitening filter order for pitch estimator                       */
    int32_t                     pitchEstimationThreshold_Q16;      /* Threshold for pitch estimator                                    */
    int32_t                     sum_log_gain_Q7;                   /* Cumulative max prediction gain                                   */
    int                         NLSF_MSVQ_Survivors;               /* Number of survivors in NLSF MSVQ                                 */
    int                         first_frame_after_reset;           /* Flag for deactivating NLSF interpolation, pitch prediction       */
    int                         controlled_since_last_payload;     /* Flag for ensuring codec_control only runs once per packet        */
    int                         warping_Q16;                       /* Warping parameter for warped noise shaping                       */
    int                         useCBR;                            /* Flag to enable constant bitrate                                  */
    int                         prefillFlag;                       /* Flag to indicate that only buffers are prefilled, no coding      */
    const uint8_t               *pitch_lag_low_bits_iCDF;          /* Pointer to iCDF table for low bits of pitch lag index            */
    const uint8_t               *pitch_contour_iCDF;               /* Pointer to iCDF table for pitch contour index                    */
    const ct_silk_NLSF_CB_struct *psNLSF_CB;                       /* Pointer to NLSF codebook                                         */
    int                         input_quality_bands_Q15[ VAD_N_BANDS ];
    int                         input_tilt_Q15;
    int                         SNR_dB_Q7;                         /* Quality setting                                                  */

    int8_t                      VAD_flags[ MAX_FRAMES_PER_PACKET ];
    int8_t                      LBRR_flag;
    int                         LBRR_flags[ MAX_FRAMES_PER_PACKET ];

    ct_silk_side_info_indices   indices;
    int8_t                      pulses[ MAX_FRAME_LENGTH ];

    /* The reference's arch: the kernel table (xcorr_kernel, vad_get_sa_q8) */
    const ct_opus_dsp           *dsp;

    /* Input/output buffering */
    int16_t                     inputBuf[ MAX_FRAME_LENGTH + 2 ];  /* Buffer containing input signal                                   */
    int                         inputBufIx;
    int                         nFramesPerPacket;
    int                         nFramesEncoded;                    /* Number of frames analyzed in current packet                      */

    int                         nChannelsAPI;
    int                         nChannelsInternal;
    int                         channelNb;

    /* Parameters For LTP scaling Control */
    int                         frames_since_onset;

    /* Specifically for entropy coding */
    int                         ec_prevSignalType;
    int16_t                     ec_prevLagIndex;

    ct_silk_resampler_state_struct resampler_state;

    /* DTX */
    int                         useDTX;                            /* Flag to enable DTX                                               */
    int                         inDTX;                             /* Flag to signal DTX period                                        */
    int                         noSpeechCounter;                   /* Counts concecutive nonactive frames, used by DTX                 */

    /* Inband Low Bitrate Redundancy (LBRR) data */
    int                         useInBandFEC;                      /* Saves the API setting for query                                  */
    int                         LBRR_enabled;                      /* Depends on useInBandFRC, bitrate and packet loss rate            */
    int                         LBRR_GainIncreases;                /* Gains increment for coding LBRR frames                           */
    ct_silk_side_info_indices   indices_LBRR[ MAX_FRAMES_PER_PACKET ];
    int8_t                      pulses_LBRR[ MAX_FRAMES_PER_PACKET ][ MAX_FRAME_LENGTH ];
} ct_silk_encoder_state;

/* ---- silk/float/structs_FLP.h ---- */

/********************************/
/* Noise shaping analysis state */
/********************************/
typedef struct ct_silk_shape_state_FLP {
    int8_t                      LastGainIndex;
    float                       HarmShapeGain_smth;
    float                       Tilt_smth;
} ct_silk_shape_state_FLP;

/********************************/
/* Encoder state FLP            */
/********************************/
typedef struct ct_silk_encoder_state_FLP {
    ct_silk_encoder_state       sCmn;                               /* Common struct, shared with fixed-point code */
    ct_silk_shape_state_FLP     sShape;                             /* Noise shaping state */

    /* Buffer for find pitch and noise shape analysis */
    float                       x_buf[ 2 * MAX_FRAME_LENGTH + LA_SHAPE_MAX ];/* Buffer for find pitch and noise shape analysis */
    float                       LTPCorr;                            /* Normalized correlation from pitch lag estimator */
} ct_silk_encoder_state_FLP;

/************************/
/* Encoder control FLP  */
/************************/
typedef struct ct_silk_encoder_control_FLP {
    /* Prediction and coding parameters */
    float                       Gains[ MAX_NB_SUBFR ];
    float                       PredCoef[ 2 ][ MAX_LPC_ORDER ];     /* holds interpolated and final coefficients */
    float                       LTPCoef[LTP_ORDER * MAX_NB_SUBFR];
    float                       LTP_scale;
    int                         pitchL[ MAX_NB_SUBFR ];

    /* Noise shaping parameters */
    float                       AR[ MAX_NB_SUBFR * MAX_SHAPE_LPC_ORDER ];
    float                       LF_MA_shp[     MAX_NB_SUBFR ];
    float                       LF_AR_shp[     MAX_NB_SUBFR ];
    float                       Tilt[          MAX_NB_SUBFR ];
    float                       HarmShapeGain[ MAX_NB_SUBFR ];
    float                       Lambda;
    float                       input_quality;
    float                       coding_quality;

    /* Measures */
    float                       predGain;
    float                       LTPredCodGain;
    float                       ResNrg[ MAX_NB_SUBFR ];             /* Residual energy per subframe */

    /* Parameters for CBR mode */
    int32_t                     GainsUnq_Q16[ MAX_NB_SUBFR ];
    int8_t                      lastGainIndexPrev;
} ct_silk_encoder_control_FLP;

/************************/
/* Encoder Super Struct */
/************************/
typedef struct ct_silk_encoder {
    ct_silk_encoder_state_FLP   state_Fxx[ ENCODER_NUM_CHANNELS ];
    ct_silk_stereo_enc_state    sStereo;
    int32_t                     nBitsUsedLBRR;
    int32_t                     nBitsExceeded;
    int                         nChannelsAPI;
    int                         nChannelsInternal;
    int                         nPrevChannelsInternal;
    int                         timeSinceSwitchAllowed_ms;
    int                         allowBandwidthSwitch;
    int                         prev_decode_only_middle;
} ct_silk_encoder;

/* ---- silk/control.h: silk_EncControlStruct ---- */

/***********************************************/
/* Structure for controlling encoder operation */
/***********************************************/
typedef struct ct_silk_EncControlStruct {
    /* I:   Number of channels; 1/2                                                         */
    int32_t nChannelsAPI;

    /* I:   Number of channels; 1/2                                                         */
    int32_t nChannelsInternal;

    /* I:   Input signal sampling rate in Hertz; 8000/12000/16000/24000/32000/44100/48000   */
    int32_t API_sampleRate;

    /* I:   Maximum internal sampling rate in Hertz; 8000/12000/16000                       */
    int32_t maxInternalSampleRate;

    /* I:   Minimum internal sampling rate in Hertz; 8000/12000/16000                       */
    int32_t minInternalSampleRate;

    /* I:   Soft request for internal sampling rate in Hertz; 8000/12000/16000              */
    int32_t desiredInternalSampleRate;

    /* I:   Number of samples per packet in milliseconds; 10/20/40/60                       */
    int payloadSize_ms;

    /* I:   Bitrate during active speech in bits/second; internally limited                 */
    int32_t bitRate;

    /* I:   Uplink packet loss in percent (0-100)                                           */
    int packetLossPercentage;

    /* I:   Complexity mode; 0 is lowest, 10 is highest complexity                          */
    int complexity;

    /* I:   Flag to enable in-band Forward Error Correction (FEC); 0/1                      */
    int useInBandFEC;

    /* I:   Flag to actually code in-band Forward Error Correction (FEC) in the current packet; 0/1 */
    int LBRR_coded;

    /* I:   Flag to enable discontinuous transmission (DTX); 0/1                            */
    int useDTX;

    /* I:   Flag to use constant bitrate                                                    */
    int useCBR;

    /* I:   Maximum number of bits allowed for the frame                                    */
    int maxBits;

    /* I:   Causes a smooth downmix to mono                                                 */
    int toMono;

    /* I:   Opus encoder is allowing us to switch bandwidth                                 */
    int opusCanSwitch;

    /* I: Make frames as independent as possible (but still use LPC)                        */
    int reducedDependency;

    /* O:   Internal sampling rate used, in Hertz; 8000/12000/16000                         */
    int32_t internalSampleRate;

    /* O: Flag that bandwidth switching is allowed (because low voice activity)             */
    int allowBandwidthSwitch;

    /* O:   Flag that SILK runs in WB mode without variable LP filter (use for switching between WB/SWB/FB) */
    int inWBmodeWithoutVariableLP;

    /* O:   Stereo width */
    int stereoWidth_Q14;

    /* O:   Tells the Opus encoder we're ready to switch                                    */
    int switchReady;

    /* O: SILK Signal type */
    int signalType;

    /* O: SILK offset (dithering) */
    int offset;
} ct_silk_EncControlStruct;

#endif
