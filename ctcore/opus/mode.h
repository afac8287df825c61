/*
 * The CELT mode: band layout, allocation table, window, pulse cache and
 * MDCT/FFT setup. Only the standard mode (48 kHz, 960-sample frames,
 * overlap 120) exists, as the constant tables of
 * celt/static_modes_float.h (mode_tables.c). Ports celt/modes.{c,h}
 * (opus_custom_mode_create's lookup of the static mode).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_MODE_H
#define CTCORE_OPUS_MODE_H

#include <stdint.h>

#include "mdct.h"

/* celt/modes.h MAX_PERIOD */
#define CT_MAX_PERIOD 1024

/* PulseCache */
typedef struct ct_celt_pulse_cache {
    int size;
    const int16_t *index;
    const unsigned char *bits;
    const unsigned char *caps;
} ct_celt_pulse_cache;

/* struct OpusCustomMode */
typedef struct ct_celt_mode {
    int32_t Fs;
    int overlap;

    int nbEBands;
    int effEBands;
    float preemph[4];
    /* Definition of each "pseudo-critical band" */
    const int16_t *eBands;

    int maxLM;
    int nbShortMdcts;
    int shortMdctSize;

    /* Number of lines in the matrix below */
    int nbAllocVectors;
    /* Number of bits in each band for several rates */
    const unsigned char *allocVectors;
    const int16_t *logN;

    const float *window;
    ct_mdct_lookup mdct;
    ct_celt_pulse_cache cache;
} ct_celt_mode;

/* The standard mode (mode48000_960_120), defined in mode_tables.c */
extern const ct_celt_mode ct_celt_mode48000_960_120;

/* opus_custom_mode_create(48000, 960, NULL): the standard mode */
const ct_celt_mode *ct_celt_mode_get(void);

#endif
