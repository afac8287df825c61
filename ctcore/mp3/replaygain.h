/*
 * ReplayGain analysis (the RadioGain field of the LAME tag): an equal
 * loudness filter (10th order Yule-Walker IIR, then a 2nd order Butterworth
 * high pass) over the encoder's input, the mean power of each 50 ms block
 * in a histogram of 0.01 dB steps, and the 95th percentile against the pink
 * noise reference.
 *
 * Carried from frame to frame: the filter histories and the partly filled
 * block (lsum, rsum, totsamp) and the histogram A. The analysis is serial
 * over the input samples and independent of the encoding.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/gain_analysis.c and gain_analysis.h
 * (LGPL-2.0-or-later, the LAME project).
 */
#ifndef CTCORE_MP3_REPLAYGAIN_H
#define CTCORE_MP3_REPLAYGAIN_H

#include <stddef.h>
#include <stdint.h>

#include "replaygain_dsp.h"

#define CT_MP3_RG_YULE_ORDER 10
#define CT_MP3_RG_MAX_ORDER 10        /* max(YULE_ORDER, BUTTER_ORDER) */
#define CT_MP3_RG_STEPS_PER_DB 100    /* histogram entries per dB */
#define CT_MP3_RG_MAX_DB 120          /* histogram covers 0..MAX_dB */
/* Samples in one 50 ms block at the highest rate (48 kHz), plus one. */
#define CT_MP3_RG_MAX_SAMPLES_PER_WINDOW (48000 / 20 + 1)

/* LAME's replaygain_t. The input, step (after the Yule filter) and out
 * (after the Butterworth filter) buffers start with MAX_ORDER samples of
 * history; LAME's linpre/lstep/lout pointers are buf + MAX_ORDER. */
typedef struct ct_mp3_replaygain {
    float linprebuf[CT_MP3_RG_MAX_ORDER * 2];
    float lstepbuf[CT_MP3_RG_MAX_SAMPLES_PER_WINDOW + CT_MP3_RG_MAX_ORDER];
    float loutbuf[CT_MP3_RG_MAX_SAMPLES_PER_WINDOW + CT_MP3_RG_MAX_ORDER];
    float rinprebuf[CT_MP3_RG_MAX_ORDER * 2];
    float rstepbuf[CT_MP3_RG_MAX_SAMPLES_PER_WINDOW + CT_MP3_RG_MAX_ORDER];
    float routbuf[CT_MP3_RG_MAX_SAMPLES_PER_WINDOW + CT_MP3_RG_MAX_ORDER];
    long sampleWindow;  /* samples in one 50 ms block */
    long totsamp;       /* samples of the current block so far */
    double lsum;
    double rsum;
    int freqindex;
    uint32_t A[CT_MP3_RG_STEPS_PER_DB * CT_MP3_RG_MAX_DB];
} ct_mp3_replaygain;

/* GetTitleGain's answer when no 50 ms block was complete. */
#define CT_MP3_GAIN_NOT_ENOUGH_SAMPLES -24601

/* InitGainAnalysis: returns 1, or 0 for a sample rate without filters
 * (LAME then turns the analysis off). */
int ct_mp3_init_gain_analysis(ct_mp3_replaygain *rgData, long samplefreq);

/* AnalyzeSamples, with the filters of dsp: num_channels 1 (right_samples
 * ignored) or 2. Returns 1, or 0 on an invalid channel count. */
int ct_mp3_analyze_samples(ct_mp3_replaygain *rgData, const ct_mp3_replaygain_dsp *dsp,
                           const float *left_samples, const float *right_samples,
                           size_t num_samples, int num_channels);

/* GetTitleGain: the proposed gain in dB of everything analysed since the
 * last call (CT_MP3_GAIN_NOT_ENOUGH_SAMPLES if nothing), then a reset of the
 * filters and the histogram. */
float ct_mp3_get_title_gain(ct_mp3_replaygain *rgData);

#endif
