/*
 * CELT's pitch analysis (float build): the 2x downsampling with its
 * 4th-order whitening, the pitch cross-correlation (also used by SILK's
 * float pitch analysis), the coarse-to-fine pitch search and the removal
 * of period doubling, for the prefilter of the CELT encoder.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/pitch.c, celt/pitch.h (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#ifndef CTCORE_OPUS_PITCH_H
#define CTCORE_OPUS_PITCH_H

#include "opus/dsp.h"

/* The largest len of ct_celt_pitch_search (a 20 ms frame at 48 kHz) and
 * the largest max_pitch and maxperiod (celt.h COMBFILTER_MAXPERIOD): the
 * bounds of the functions' scratch arrays. */
#define CT_CELT_PITCH_MAX_LEN    960
#define CT_CELT_PITCH_MAX_PERIOD 1024

/* pitch_downsample: x_lp[0 .. len/2) = the low-passed, 2x decimated sum of
 * the C channels x[c][0 .. len), whitened by a 4th-order LPC with a zero. */
void ct_celt_pitch_downsample(float *x[], float *x_lp, int len, int C,
                              const ct_opus_dsp *dsp);

/* celt_pitch_xcorr (the C version, whose kernels are dsp's):
 * xcorr[i] = sum over j < len of _x[j] * _y[i + j], i < max_pitch. */
void ct_celt_pitch_xcorr(const float *_x, const float *_y, float *xcorr, int len,
                         int max_pitch, const ct_opus_dsp *dsp);

/* pitch_search: the pitch period of x_lp (len samples at half rate)
 * against y (len + max_pitch samples), in *pitch. len <=
 * CT_CELT_PITCH_MAX_LEN, max_pitch <= CT_CELT_PITCH_MAX_PERIOD. */
void ct_celt_pitch_search(const float *x_lp, float *y, int len, int max_pitch,
                          int *pitch, const ct_opus_dsp *dsp);

/* remove_doubling: refines *T0 (in full-rate samples) to the shortest
 * period that explains the correlation, returns the pitch gain. x is
 * maxperiod/2 + N/2 half-rate samples. maxperiod <= CT_CELT_PITCH_MAX_PERIOD. */
float ct_celt_remove_doubling(const float *x, int maxperiod, int minperiod, int N,
                              int *T0, int prev_period, float prev_gain,
                              const ct_opus_dsp *dsp);

#endif
