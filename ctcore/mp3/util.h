/*
 * Helpers every stage of the MP3 encoder shares: LAME's math constants, the
 * absolute threshold of hearing, the Bark scale, the fast log2 of
 * USE_FAST_LOG builds, and the bitrate index lookup.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/util.c and util.h (LGPL-2.0-or-later,
 * the LAME project)
 */
#ifndef CTCORE_MP3_UTIL_H
#define CTCORE_MP3_UTIL_H

#include "state.h"

/* util.h's fallbacks, which equal glibc's M_PI, M_LN2, M_LN10, M_SQRT2
 * (not declared under strict C11). */
#define PI 3.14159265358979323846
#define LOG2 0.69314718055994530942
#define LOG10 2.30258509299404568402
#define SQRT2 1.41421356237309504880

/* ATHformula: the absolute threshold of hearing at f Hz, in dB, shaped by
 * cfg->ATHtype and cfg->ATHcurve. f < -0.3 asks for the minimum. */
float ct_mp3_ath_formula(const ct_mp3_config *cfg, float f);

/* freq2bark: Hz to Bark (Zwicker). */
float ct_mp3_freq2bark(float freq);

/* fast_log2: log2 by a 512-entry table with linear interpolation. */
float ct_mp3_fast_log2(float x);

/* USE_FAST_LOG's FAST_LOG10(x) and FAST_LOG10_X(x, y): the float log2
 * times a double constant, a double result, as LAME's macros expand. */
static inline double ct_mp3_fast_log10(float x)
{
    return ct_mp3_fast_log2(x) * (LOG2 / LOG10);
}

static inline double ct_mp3_fast_log10_x(float x, double y)
{
    return ct_mp3_fast_log2(x) * (LOG2 / LOG10 * y);
}

/* BitrateIndex: the index of bRate kbps in the bitrate table of version
 * (MPEG-2.5 below 16 kHz), or -1. */
int ct_mp3_bitrate_index(int bRate, int version, int samplerate);

#endif
