/*
 * CELT's LPC helpers (float build): Levinson-Durbin from the
 * autocorrelation and the windowed autocorrelation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/celt_lpc.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors)
 */
#ifndef CTCORE_OPUS_LPC_H
#define CTCORE_OPUS_LPC_H

#include "opus/dsp.h"

/* The bound of the scratch array: ct_celt_autocorr's n when it windows
 * (overlap > 0). */
#define CT_CELT_AUTOCORR_MAX_N    2048

/* _celt_lpc: the p LPC coefficients _lpc[0 .. p) from the
 * autocorrelation ac[0 .. p]. */
void ct_celt_lpc(float *_lpc, const float *ac, int p);

/* _celt_autocorr: ac[0 .. lag] of x[0 .. n), its first and last overlap
 * samples windowed by window[]; returns the shift (0 in the float build). */
int ct_celt_autocorr(const float *x, float *ac, const float *window, int overlap,
                     int lag, int n, const ct_opus_dsp *dsp);

#endif
