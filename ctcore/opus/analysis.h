/*
 * The tonality analysis of the float encoder: per 20 ms of the signal
 * (downmixed, at 24 kHz), tonality, noisiness, activity, the music and
 * activity probabilities of a small recurrent network, the bandwidth and
 * the leakage boosts CELT's dynalloc uses; kept for up to 100 frames ahead
 * and read back frame by frame with the look-ahead libopusenc gives.
 * Also the float downmix through which the encoder feeds it.
 *
 * Split in two halves (ct): the writer (the analysis of new samples,
 * ct_opus_tonality_analysis_write) and the reader (ct_opus_tonality_get_info),
 * which reads what the writer wrote through a view taken after the writer's
 * calls for its encoder call, so that the writer may run ahead of it on
 * another thread; ct_opus_run_analysis joins them as the reference's
 * run_analysis.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/analysis.h, the AnalysisInfo of
 * celt/celt.h and downmix_func and downmix_float of src/opus_private.h
 * (BSD-3-Clause, Xiph.Org Foundation and contributors).
 */
#ifndef CTCORE_OPUS_ANALYSIS_H
#define CTCORE_OPUS_ANALYSIS_H

#include <stdint.h>

#include "dsp.h"
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

/* The samples of one encoder call from offset on (relative to the first
 * sample the call analyses), interleaved, at least Fs / 50 of them
 * contiguous (fewer where the call has fewer); valid until the next call. */
typedef const float *(*ct_opus_analysis_pcm_at)(const void *ctx, int offset);

/*
 * src/analysis.h TonalityAnalysisState, with the reference's ring of
 * DETECT_SIZE entries replaced by a history of CT_OPUS_ANALYSIS_HISTORY
 * entries held by their number (entry a, the a-th written since the reset,
 * in history[a % CT_OPUS_ANALYSIS_HISTORY]). The reader reads it through
 * ring positions as the reference does and maps each to the entry the
 * reference's ring would hold there.
 *
 * Two halves, on two threads when the writer runs ahead: the writer's
 * fields are written only by the writer (and the reset), the reader's only
 * by the reader (and the reset); the reader reads of the writer only Fs,
 * the history (entries its view counts) and its view.
 */
typedef struct ct_tonality_analysis {
    /* Set at init, read by both halves */
    int application;
    int32_t Fs;
    const ct_opus_dsp *dsp; /* the writer's FFT */
    /* ct_opus_tonality_analysis_reset clears from here to the end */

    /* The writer's */
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
    /* entries written since the reset; the reference's write_pos is this
     * modulo CT_OPUS_DETECT_SIZE */
    int64_t write_count;
    float hp_ener_accum;
    int initialized;
    float rnn_state[CT_MLP_MAX_NEURONS];
    float downmix_state[3];
    ct_analysis_info history[CT_OPUS_ANALYSIS_HISTORY];

    /* The reader's */
    int read_pos;
    int read_subframe;
} ct_tonality_analysis;

/*
 * What a reader sees of the writer (ct): the entries written so far and
 * its count, as they were right after the analysis of one encoder call.
 * The reference's reader reads the writer's live write_pos and count; a
 * view taken at the same point gives it the same numbers later. A view
 * stays readable while the writer has written at most
 * CT_OPUS_ANALYSIS_HISTORY - CT_OPUS_DETECT_SIZE entries after it.
 */
typedef struct ct_tonality_view {
    int64_t write_count; /* entries written since the reset */
    int count;
} ct_tonality_view;

/* The writer's view now. */
void ct_opus_tonality_view(const ct_tonality_analysis *tonal, ct_tonality_view *view);

/* Sets Fs (48000, 24000 or 16000) and resets the rest; application is the
 * caller's to set. */
void ct_opus_tonality_analysis_init(ct_tonality_analysis *tonal, int32_t Fs,
                                    const ct_opus_dsp *dsp);

/* Call this when there's a discontinuity in the data. Both halves: only
 * with no writer or reader running. */
void ct_opus_tonality_analysis_reset(ct_tonality_analysis *tonal);

/* The reader: the analysis of the len samples to be coded next (at Fs),
 * smoothed over the frames around it, as the writer's entries stood at
 * view; moves the read position on by len. */
void ct_opus_tonality_get_info(ct_tonality_analysis *tonal,
                               const ct_tonality_view *view,
                               ct_analysis_info *info_out, int len);

/* ct: the entry that ct_opus_tonality_get_info for len samples copies
 * first (its valid and max_pitch_ratio stay as they are) with the reader at
 * *read_pos, *read_subframe, which move on as get_info moves tonal's; reads
 * only the history, as a reader does (the frame ring's Signal node
 * predicts the reader this way). */
const ct_analysis_info *ct_opus_tonality_peek_entry(
    const ct_tonality_analysis *tonal, const ct_tonality_view *view,
    int *read_pos, int *read_subframe, int len);

/* The writer of run_analysis: analyses the analysis_frame_size samples of
 * an encoder call (pcm_at(ctx, offset); those before
 * analysis->analysis_offset were analysed by the previous call) through
 * downmix, then moves analysis_offset on by frame_size. celt_mode is
 * ct_celt_mode_get()'s (its FFT of 480). Touches only the writer's fields. */
void ct_opus_tonality_analysis_write(ct_tonality_analysis *analysis,
                                     const ct_celt_mode *celt_mode,
                                     ct_opus_analysis_pcm_at pcm_at,
                                     const void *ctx, int analysis_frame_size,
                                     int frame_size, int c1, int c2, int C,
                                     int32_t Fs, int lsb_depth,
                                     ct_opus_downmix_func downmix);

/* run_analysis: with analysis_pcm (analysis_frame_size samples, C
 * interleaved), ct_opus_tonality_analysis_write of them, then *view = the
 * writer's view; NULL: nothing new, *view as it is (the view of the
 * writer's last calls, taken here or by whoever ran the writer). Then
 * ct_opus_tonality_get_info through *view for frame_size. */
void ct_opus_run_analysis(ct_tonality_analysis *analysis,
                          const ct_celt_mode *celt_mode,
                          const float *analysis_pcm, int analysis_frame_size,
                          int frame_size, int c1, int c2, int C, int32_t Fs,
                          int lsb_depth, ct_opus_downmix_func downmix,
                          ct_tonality_view *view,
                          ct_analysis_info *analysis_info);

#endif
