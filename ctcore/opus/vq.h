/*
 * CELT's pyramid vector quantiser, encoder side: the spreading rotation,
 * alg_quant (search, pulse coding, resynthesis), renormalisation and the
 * stereo angle. The search itself is the dsp table's pvq_search
 * (ct_opus_pvq_search_c here, ct_opus_pvq_search_sse2 in x86/vq_sse2.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/vq.h and celt/vq.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors).
 */
#ifndef CTCORE_OPUS_VQ_H
#define CTCORE_OPUS_VQ_H

#include "dsp.h"
#include "range_enc.h"

/* The spreading rotation of X (len samples, stride blocks) for K pulses;
 * dir 1 before the search, -1 to undo it. */
void ct_celt_exp_rotation(float *X, int len, int dir, int stride, int K,
                          int spread);

/* Quantises the unit-norm X (N >= 2) with K > 0 pulses and codes them in
 * enc; with resynth, X becomes the quantised vector times gain. Returns the
 * mask of the B blocks that got pulses. */
unsigned ct_celt_alg_quant(float *X, int N, int K, int spread, int B,
                           ct_ec_enc *enc, float gain, int resynth,
                           const ct_opus_dsp *dsp);

/* X scaled to norm gain. */
void ct_celt_renormalise_vector(float *X, int N, float gain,
                                const ct_opus_dsp *dsp);

/* The angle between X and Y (stereo: mid/side of X, Y; else the norms of
 * X and Y) in units of pi/2 / 16384. */
int ct_celt_stereo_itheta(const float *X, const float *Y, int stereo, int N,
                          const ct_opus_dsp *dsp);

#endif
