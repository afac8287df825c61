/*
 * The CELT band energies in the log domain: conversion from amplitudes
 * and their quantization (coarse, with intra/inter prediction and the
 * Laplace model, then fine and the leftover bits). Encoder side of
 * celt/quant_bands.{c,h}.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_ENERGY_H
#define CTCORE_OPUS_ENERGY_H

#include <stdint.h>

#include "mode.h"
#include "range_enc.h"

/* eMeans: the mean energy of each band (Q4 values as floats) */
extern const float ct_celt_eMeans[25];

/* amp2Log2: bandLogE = log2(bandE) - eMeans for bands < effEnd, -14 for
 * effEnd <= band < end */
void ct_celt_amp2Log2(const ct_celt_mode *m, int effEnd, int end,
                      float *bandE, float *bandLogE, int C);

void ct_celt_quant_coarse_energy(const ct_celt_mode *m, int start, int end,
                                 int effEnd, const float *eBands,
                                 float *oldEBands, uint32_t budget,
                                 float *error, ct_ec_enc *enc, int C, int LM,
                                 int nbAvailableBytes, int force_intra,
                                 float *delayedIntra, int two_pass,
                                 int loss_rate, int lfe);

void ct_celt_quant_fine_energy(const ct_celt_mode *m, int start, int end,
                               float *oldEBands, float *error,
                               int *fine_quant, ct_ec_enc *enc, int C);

void ct_celt_quant_energy_finalise(const ct_celt_mode *m, int start, int end,
                                   float *oldEBands, float *error,
                                   int *fine_quant, int *fine_priority,
                                   int bits_left, ct_ec_enc *enc, int C);

#endif
