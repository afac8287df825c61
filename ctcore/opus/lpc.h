/*
 * CELT's LPC helpers (float build): Levinson-Durbin from the
 * autocorrelation, the FIR filter and the windowed autocorrelation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/celt_lpc.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors)
 */
#ifndef CTCORE_OPUS_LPC_H
#define CTCORE_OPUS_LPC_H

#include "opus/dsp.h"

/* celt_lpc.h LPC_ORDER */
#define CT_CELT_LPC_ORDER 24
/* The bounds of the scratch arrays: ct_celt_fir's ord and
 * ct_celt_autocorr's n when it windows (overlap > 0). */
#define CT_CELT_FIR_MAX_ORDER     CT_CELT_LPC_ORDER
#define CT_CELT_AUTOCORR_MAX_N    2048

/* _celt_lpc: the p LPC coefficients _lpc[0 .. p) from the
 * autocorrelation ac[0 .. p]. */
void ct_celt_lpc(float *_lpc, const float *ac, int p);

/* celt_fir_c: y[i] = x[i] + sum over j < ord of num[j] * x[i - j - 1],
 * i < N (x[-ord .. -1] is the history; x != y). */
void ct_celt_fir(const float *x, const float *num, float *y, int N, int ord,
                 const ct_opus_dsp *dsp);

/* _celt_autocorr: ac[0 .. lag] of x[0 .. n), its first and last overlap
 * samples windowed by window[]; returns the shift (0 in the float build). */
int ct_celt_autocorr(const float *x, float *ac, const float *window, int overlap,
                     int lag, int n, const ct_opus_dsp *dsp);

#endif
