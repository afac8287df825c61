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

#include <stdint.h>
#include <string.h>

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

#define CT_MP3_LOG2_SIZE 512
#define CT_MP3_LOG2_SIZE_L2 9

/* init_log_table's log_table: log2(1 + j / 512) for j = 0..512. */
extern const float ct_mp3_log_table[CT_MP3_LOG2_SIZE + 1];

/* fast_log2: log2 by a 512-entry table with linear interpolation. Inline:
 * calc_noise calls it for every band whose noise it computes. */
static inline float ct_mp3_fast_log2(float x)
{
    float log2val, partial;
    uint32_t bits;
    int mantisse;

    memcpy(&bits, &x, sizeof(bits));
    mantisse = (int) (bits & 0x7fffff);
    log2val = (float) ((int) ((bits >> 23) & 0xFF) - 0x7f);
    partial = (float) (mantisse & ((1 << (23 - CT_MP3_LOG2_SIZE_L2)) - 1));
    partial *= 1.0f / ((1 << (23 - CT_MP3_LOG2_SIZE_L2)));

    mantisse >>= (23 - CT_MP3_LOG2_SIZE_L2);

    log2val += ct_mp3_log_table[mantisse] * (1.0f - partial)
               + ct_mp3_log_table[mantisse + 1] * partial;

    return log2val;
}

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
