/*
 * The psychoacoustic model's FFTs: a windowed 1024-point (long) or three
 * 256-point (short) real transforms of one channel, by Ron Mayer's fast
 * Hartley transform. The result is in Hartley order: x[k] and x[N - k] hold
 * the real and imaginary parts' sum and difference (see psy_prepare.c).
 *
 * All three functions are stateless: they read the windows of cd_psy and
 * the input samples only (and the FHT kernel of the table they are given).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/fft.c and fft.h (LGPL-2.0-or-later,
 * the LAME project)
 */
#ifndef CTCORE_MP3_FFT_H
#define CTCORE_MP3_FFT_H

#include "fft_dsp.h"
#include "state.h"

/* init_fft: the Blackman window of the long FFT and the Hann window of the
 * short ones, into gd->window and gd->window_s. */
void ct_mp3_fft_init(ct_mp3_psy_const *gd);

/* fft_long: x = FHT (by dsp) of the window times buffer[0 .. BLKSIZE - 1]. */
void ct_mp3_fft_long(const ct_mp3_fft_dsp *dsp, const ct_mp3_psy_const *gd, float x[BLKSIZE],
                     const float *buffer);

/* fft_short: x[b] = FHT (by dsp) of the short window times the 256 samples
 * at buffer + 192 * (b + 1), b = 0..2. */
void ct_mp3_fft_short(const ct_mp3_fft_dsp *dsp, const ct_mp3_psy_const *gd,
                      float x[3][BLKSIZE_s], const float *buffer);

#endif
