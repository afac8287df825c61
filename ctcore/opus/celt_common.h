/*
 * The parts of celt/celt.c and celt/celt.h that the CELT encoder uses,
 * other than the comb filter: the resampling factor, the band caps, the
 * tf_select table and the icdf tables of the trim, spread and tapset
 * symbols.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_CELT_COMMON_H
#define CTCORE_OPUS_CELT_COMMON_H

#include <stdint.h>

#include "mode.h"

/* celt.h trim_icdf, spread_icdf, tapset_icdf */
extern const unsigned char ct_celt_trim_icdf[11];
extern const unsigned char ct_celt_spread_icdf[4];
extern const unsigned char ct_celt_tapset_icdf[3];

/* celt.c tf_select_table[LM][4*isTransient + 2*tf_select + per_band_flag]:
 * the TF change (positive: better frequency resolution) */
extern const signed char ct_celt_tf_select_table[4][8];

/* resampling_factor: 48000 / rate for 48, 24, 16, 12 and 8 kHz; 0 else */
int ct_celt_resampling_factor(int32_t rate);

/* init_caps: the most bits (1/8 bits) each band can use */
void ct_celt_init_caps(const ct_celt_mode *m, int *cap, int LM, int C);

#endif
