/*
 * The tonality analysis of the float encoder: per 20 ms of the signal
 * (downmixed, at 24 kHz), tonality, noisiness, activity, the music and
 * activity probabilities of a small recurrent network, the bandwidth and
 * the leakage boosts CELT's dynalloc uses; kept for up to 100 frames ahead
 * and read back frame by frame with the look-ahead libopusenc gives.
 * Also the float downmix through which the encoder feeds it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/analysis.h, the AnalysisInfo of
 * celt/celt.h and downmix_func and downmix_float of src/opus_private.h
 * (BSD-3-Clause, Xiph.Org Foundation and contributors).
 */
#ifndef CTCORE_OPUS_ANALYSIS_H
#define CTCORE_OPUS_ANALYSIS_H

#include <stdint.h>

#include "mlp.h"
#include "mode.h"

#define CT_OPUS_LEAK_BANDS 19

#define CT_OPUS_NB_FRAMES 8
#define CT_OPUS_NB_TBANDS 18
/* 30 ms at 24 kHz */
#define CT_OPUS_ANALYSIS_BUF_SIZE 720
/* At that point we can stop counting frames because it no longer matters. */
#define CT_OPUS_ANALYSIS_COUNT_MAX 10000
#define CT_OPUS_DETECT_SIZE        100
/* The entries kept (ct ring): the reference keeps DETECT_SIZE in a ring;
 * this history holds them by their number, so that the writer may run up
 * to CT_OPUS_ANALYSIS_HISTORY - CT_OPUS_DETECT_SIZE entries ahead of what
 * a reader's view still reads. */
#define CT_OPUS_ANALYSIS_HISTORY 512

typedef struct ct_analysis_info {
    int valid;
    float tonality;
    float tonality_slope;
    float noisiness;
    float activity;
    float music_prob;
    float music_prob_min;
    float music_prob_max;
    int bandwidth;
    float activity_probability;
    float max_pitch_ratio;
    /* Q6 */
    unsigned char leak_boost[CT_OPUS_LEAK_BANDS];
} ct_analysis_info;

/* y[j] = the sum of the chosen channels of sample j + offset of the
 * interleaved C-channel input _x, j < subframe, on the int16 scale: channel
 * c1, plus c2 if c2 > -1, plus channels 1..C-1 if c2 == -2 */
typedef void (*ct_opus_downmix_func)(const void *_x, float *y, int subframe,
                                     int offset, int c1, int c2, int C);

/* Float input (+-1.0 full scale) */
void ct_opus_downmix_float(const void *_x, float *y, int subframe, int offset,
                           int c1, int c2, int C);

typedef struct ct_tonality_analysis {
    int application;
    int32_t Fs;
    /* ct_opus_tonality_analysis_reset clears from here to the end */
    float angle[240];
    float d_angle[240];
    float d2_angle[240];
    float inmem[CT_OPUS_ANALYSIS_BUF_SIZE];
    int mem_fill; /* number of usable samples in the buffer */
    float prev_band_tonality[CT_OPUS_NB_TBANDS];
    float prev_tonality;
    int prev_bandwidth;
    float E[CT_OPUS_NB_FRAMES][CT_OPUS_NB_TBANDS];
    float logE[CT_OPUS_NB_FRAMES][CT_OPUS_NB_TBANDS];
    float lowE[CT_OPUS_NB_TBANDS];
    float highE[CT_OPUS_NB_TBANDS];
    float meanE[CT_OPUS_NB_TBANDS + 1];
    float mem[32];
    float cmean[8];
    float std[9];
    float Etracker;
    float lowECount;
    int E_count;
    int count;
    int analysis_offset;
    int write_pos;
    int read_pos;
    int read_subframe;
    float hp_ener_accum;
    int initialized;
    float rnn_state[CT_MLP_MAX_NEURONS];
    float downmix_state[3];
    ct_analysis_info info[CT_OPUS_DETECT_SIZE];
} ct_tonality_analysis;

/*
 * What a reader sees of the writer (ct): the entries written so far and
 * its count, as they were right after the analysis of one encoder call.
 * The reference's reader reads the writer's live write_pos and count; a
 * view taken at the same point gives it the same numbers later.
 */
typedef struct ct_tonality_view {
    int64_t write_count; /* entries written since the reset */
    int count;
} ct_tonality_view;

/* The writer's view now. */
void ct_opus_tonality_view(const ct_tonality_analysis *tonal, ct_tonality_view *view);

/* Sets Fs (48000, 24000 or 16000) and resets the rest; application is the
 * caller's to set. */
void ct_opus_tonality_analysis_init(ct_tonality_analysis *tonal, int32_t Fs);

/* Call this when there's a discontinuity in the data. */
void ct_opus_tonality_analysis_reset(ct_tonality_analysis *tonal);

/* The analysis of the len samples to be coded next (at Fs), smoothed over
 * the frames around it, and moves the read position on by len. */
void ct_opus_tonality_get_info(ct_tonality_analysis *tonal,
                               ct_analysis_info *info_out, int len);

/* Analyses the samples of analysis_pcm (analysis_frame_size of them, of
 * which those before analysis->analysis_offset were analysed by the
 * previous call; NULL: nothing new) through downmix, then
 * ct_opus_tonality_get_info for frame_size. celt_mode is
 * ct_celt_mode_get()'s (its FFT of 480). */
void ct_opus_run_analysis(ct_tonality_analysis *analysis,
                          const ct_celt_mode *celt_mode,
                          const void *analysis_pcm, int analysis_frame_size,
                          int frame_size, int c1, int c2, int C, int32_t Fs,
                          int lsb_depth, ct_opus_downmix_func downmix,
                          ct_analysis_info *analysis_info);

#endif
