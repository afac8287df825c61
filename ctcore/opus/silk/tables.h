/*
 * SILK's constant tables, declared: the entropy coding tables, the LTP and
 * NLSF codebooks, the transition filters, the LSF cosine table, the
 * resampler's coefficients and the pitch estimator's codebooks. Ports
 * silk/tables.h, silk/resampler_rom.h and the table declarations of
 * silk/pitch_est_defines.h; each table keeps its reference name with the
 * prefix ct_ (silk_gain_iCDF -> ct_silk_gain_iCDF). Defined in
 * tables_*.c, table_lsf_cos.c, resampler_rom.c and pitch_est_tables.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_SILK_TABLES_H
#define CTCORE_OPUS_SILK_TABLES_H

#include <stdint.h>

#include "opus/silk/define.h"
#include "opus/silk/structs.h"

/* ---- silk/tables.h ---- */

/* Entropy coding tables (with size in bytes indicated) */
extern const uint8_t   ct_silk_gain_iCDF[ 3 ][ N_LEVELS_QGAIN / 8 ];                                 /* 24 */
extern const uint8_t   ct_silk_delta_gain_iCDF[ MAX_DELTA_GAIN_QUANT - MIN_DELTA_GAIN_QUANT + 1 ];   /* 41 */

extern const uint8_t   ct_silk_pitch_lag_iCDF[ 2 * ( PITCH_EST_MAX_LAG_MS - PITCH_EST_MIN_LAG_MS ) ];/* 32 */
extern const uint8_t   ct_silk_pitch_delta_iCDF[ 21 ];                                               /*  21 */
extern const uint8_t   ct_silk_pitch_contour_iCDF[ 34 ];                                             /*  34 */
extern const uint8_t   ct_silk_pitch_contour_NB_iCDF[ 11 ];                                          /*  11 */
extern const uint8_t   ct_silk_pitch_contour_10_ms_iCDF[ 12 ];                                       /*  12 */
extern const uint8_t   ct_silk_pitch_contour_10_ms_NB_iCDF[ 3 ];                                     /*   3 */

extern const uint8_t   ct_silk_pulses_per_block_iCDF[ N_RATE_LEVELS ][ SILK_MAX_PULSES + 2 ];        /* 180 */
extern const uint8_t   ct_silk_pulses_per_block_BITS_Q5[ N_RATE_LEVELS - 1 ][ SILK_MAX_PULSES + 2 ]; /* 162 */

extern const uint8_t   ct_silk_rate_levels_iCDF[ 2 ][ N_RATE_LEVELS - 1 ];                           /*  18 */
extern const uint8_t   ct_silk_rate_levels_BITS_Q5[ 2 ][ N_RATE_LEVELS - 1 ];                        /*  18 */

extern const uint8_t   ct_silk_max_pulses_table[ 4 ];                                                /*   4 */

extern const uint8_t   ct_silk_shell_code_table0[ 152 ];                                             /* 152 */
extern const uint8_t   ct_silk_shell_code_table1[ 152 ];                                             /* 152 */
extern const uint8_t   ct_silk_shell_code_table2[ 152 ];                                             /* 152 */
extern const uint8_t   ct_silk_shell_code_table3[ 152 ];                                             /* 152 */
extern const uint8_t   ct_silk_shell_code_table_offsets[ SILK_MAX_PULSES + 1 ];                      /*  17 */

extern const uint8_t   ct_silk_lsb_iCDF[ 2 ];                                                        /*   2 */

extern const uint8_t   ct_silk_sign_iCDF[ 42 ];                                                      /*  42 */

extern const uint8_t   ct_silk_uniform3_iCDF[ 3 ];                                                   /*   3 */
extern const uint8_t   ct_silk_uniform4_iCDF[ 4 ];                                                   /*   4 */
extern const uint8_t   ct_silk_uniform5_iCDF[ 5 ];                                                   /*   5 */
extern const uint8_t   ct_silk_uniform6_iCDF[ 6 ];                                                   /*   6 */
extern const uint8_t   ct_silk_uniform8_iCDF[ 8 ];                                                   /*   8 */

extern const uint8_t   ct_silk_NLSF_EXT_iCDF[ 7 ];                                                   /*   7 */

extern const uint8_t   ct_silk_LTP_per_index_iCDF[ 3 ];                                              /*   3 */
extern const uint8_t   * const ct_silk_LTP_gain_iCDF_ptrs[ NB_LTP_CBKS ];                            /*   3 */
extern const uint8_t   * const ct_silk_LTP_gain_BITS_Q5_ptrs[ NB_LTP_CBKS ];                         /*   3 */
extern const int8_t     * const ct_silk_LTP_vq_ptrs_Q7[ NB_LTP_CBKS ];                                /* 168 */
extern const uint8_t   * const ct_silk_LTP_vq_gain_ptrs_Q7[NB_LTP_CBKS];
extern const int8_t     ct_silk_LTP_vq_sizes[ NB_LTP_CBKS ];                                          /*   3 */

extern const uint8_t   ct_silk_LTPscale_iCDF[ 3 ];                                                   /*   4 */
extern const int16_t   ct_silk_LTPScales_table_Q14[ 3 ];                                             /*   6 */

extern const uint8_t   ct_silk_type_offset_VAD_iCDF[ 4 ];                                            /*   4 */
extern const uint8_t   ct_silk_type_offset_no_VAD_iCDF[ 2 ];                                         /*   2 */

extern const int16_t   ct_silk_stereo_pred_quant_Q13[ STEREO_QUANT_TAB_SIZE ];                       /*  32 */
extern const uint8_t   ct_silk_stereo_pred_joint_iCDF[ 25 ];                                         /*  25 */
extern const uint8_t   ct_silk_stereo_only_code_mid_iCDF[ 2 ];                                       /*   2 */

extern const uint8_t   * const ct_silk_LBRR_flags_iCDF_ptr[ 2 ];                                     /*  10 */

extern const uint8_t   ct_silk_NLSF_interpolation_factor_iCDF[ 5 ];                                  /*   5 */

extern const ct_silk_NLSF_CB_struct ct_silk_NLSF_CB_WB;                                                   /* 1040 */
extern const ct_silk_NLSF_CB_struct ct_silk_NLSF_CB_NB_MB;                                                /* 728 */

/* Quantization offsets */
extern const int16_t   ct_silk_Quantization_Offsets_Q10[ 2 ][ 2 ];                                   /*   8 */

/* Interpolation points for filter coefficients used in the bandwidth transition smoother */
extern const int32_t   ct_silk_Transition_LP_B_Q28[ TRANSITION_INT_NUM ][ TRANSITION_NB ];           /*  60 */
extern const int32_t   ct_silk_Transition_LP_A_Q28[ TRANSITION_INT_NUM ][ TRANSITION_NA ];           /*  60 */

/* Rom table with cosine values */
extern const int16_t   ct_silk_LSFCosTab_FIX_Q12[ LSF_COS_TAB_SZ_FIX + 1 ];                          /* 258 */

/* ---- silk/resampler_rom.h ---- */

#define RESAMPLER_DOWN_ORDER_FIR0               18
#define RESAMPLER_DOWN_ORDER_FIR1               24
#define RESAMPLER_DOWN_ORDER_FIR2               36
#define RESAMPLER_ORDER_FIR_12                  8

/* Tables for 2x downsampler */
static const int16_t  ct_silk_resampler_down2_0 = 9872;
static const int16_t  ct_silk_resampler_down2_1 = 39809 - 65536;

/* Tables for 2x upsampler, high quality */
static const int16_t  ct_silk_resampler_up2_hq_0[ 3 ] = { 1746, 14986, 39083 - 65536 };
static const int16_t  ct_silk_resampler_up2_hq_1[ 3 ] = { 6854, 25769, 55542 - 65536 };

/* Tables with IIR and FIR coefficients for fractional downsamplers */
extern const int16_t  ct_silk_Resampler_3_4_COEFS[ 2 + 3 * RESAMPLER_DOWN_ORDER_FIR0 / 2 ];
extern const int16_t  ct_silk_Resampler_2_3_COEFS[ 2 + 2 * RESAMPLER_DOWN_ORDER_FIR0 / 2 ];
extern const int16_t  ct_silk_Resampler_1_2_COEFS[ 2 +     RESAMPLER_DOWN_ORDER_FIR1 / 2 ];
extern const int16_t  ct_silk_Resampler_1_3_COEFS[ 2 +     RESAMPLER_DOWN_ORDER_FIR2 / 2 ];
extern const int16_t  ct_silk_Resampler_1_4_COEFS[ 2 +     RESAMPLER_DOWN_ORDER_FIR2 / 2 ];
extern const int16_t  ct_silk_Resampler_1_6_COEFS[ 2 +     RESAMPLER_DOWN_ORDER_FIR2 / 2 ];
extern const int16_t  ct_silk_Resampler_2_3_COEFS_LQ[ 2 + 2 * 2 ];

/* Table with interplation fractions of 1/24, 3/24, ..., 23/24 */
extern const int16_t  ct_silk_resampler_frac_FIR_12[ 12 ][ RESAMPLER_ORDER_FIR_12 / 2 ];

/* ---- silk/pitch_est_defines.h, tables ---- */

/* Tables for 20 ms frames */
extern const int8_t   ct_silk_CB_lags_stage2[ PE_MAX_NB_SUBFR ][ PE_NB_CBKS_STAGE2_EXT ];
extern const int8_t   ct_silk_CB_lags_stage3[ PE_MAX_NB_SUBFR ][ PE_NB_CBKS_STAGE3_MAX ];
extern const int8_t   ct_silk_Lag_range_stage3[ SILK_PE_MAX_COMPLEX + 1 ] [ PE_MAX_NB_SUBFR ][ 2 ];
extern const int8_t   ct_silk_nb_cbk_searchs_stage3[ SILK_PE_MAX_COMPLEX + 1 ];

/* Tables for 10 ms frames */
extern const int8_t   ct_silk_CB_lags_stage2_10_ms[ PE_MAX_NB_SUBFR >> 1][ 3 ];
extern const int8_t   ct_silk_CB_lags_stage3_10_ms[ PE_MAX_NB_SUBFR >> 1 ][ 12 ];
extern const int8_t   ct_silk_Lag_range_stage3_10_ms[ PE_MAX_NB_SUBFR >> 1 ][ 2 ];

#endif
