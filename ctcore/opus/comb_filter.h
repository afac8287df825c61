/*
 * CELT's comb (pitch pre-)filter: y = x + g * (3-tap filter of x delayed
 * by T), cross-fading over the window's overlap from (T0, g0, tapset0) to
 * (T1, g1, tapset1); the constant part is dsp->comb_filter_const.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/celt.c (BSD-3-Clause, Xiph.Org Foundation
 * and contributors)
 */
#ifndef CTCORE_OPUS_COMB_FILTER_H
#define CTCORE_OPUS_COMB_FILTER_H

#include "opus/dsp.h"

/* celt.h COMBFILTER_MAXPERIOD, COMBFILTER_MINPERIOD */
#define CT_CELT_COMBFILTER_MAXPERIOD 1024
#define CT_CELT_COMBFILTER_MINPERIOD 15

/* comb_filter: y[0 .. N) from x[-T - 2 .. N) (T the larger of T0, T1 and
 * COMBFILTER_MINPERIOD); y == x (in place) as the encoder calls it. */
void ct_celt_comb_filter(float *y, const float *x, int T0, int T1, int N, float g0,
                         float g1, int tapset0, int tapset1, const float *window,
                         int overlap, const ct_opus_dsp *dsp);

#endif
