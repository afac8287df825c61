/*
 * The encoder side of CELT's band processing: band energies and
 * normalisation, the spreading decision, and quant_all_bands, which codes
 * the normalised spectrum band by band (theta splits, PVQ, folding, the
 * stereo theta rate-distortion search).
 *
 * Encoder only: the reference's `encode` parameter is always 1 here and is
 * dropped; its encode==1 branches are kept, the decoder's are not. The
 * resynthesis the encoder runs (`resynth = theta_rdo`, i.e. stereo, not
 * dual stereo, complexity >= 8) is kept; denormalise_bands and
 * anti_collapse (decoder only) are not ported.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/bands.h and celt/bands.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors).
 */
#ifndef CTCORE_OPUS_BANDS_H
#define CTCORE_OPUS_BANDS_H

#include <stdint.h>

#include "dsp.h"
#include "mode.h"
#include "range_enc.h"
#include "runtime/lane.h"

struct ct_celt_seed_use;

/* The spreading decisions (celt/bands.h, same tokens) */
#define SPREAD_NONE       (0)
#define SPREAD_LIGHT      (1)
#define SPREAD_NORMAL     (2)
#define SPREAD_AGGRESSIVE (3)

/* The index of the first threshold val is below, kept at prev while val
 * stays within prev's hysteresis. */
int ct_celt_hysteresis_decision(float val, const float *thresholds,
                                const float *hysteresis, int N, int prev);

/* bandE[i + c * m->nbEBands] = sqrt(1e-27 + |X band i of channel c|^2),
 * i < end (the sum through dsp->inner_prod). */
void ct_celt_compute_band_energies(const ct_celt_mode *m, const float *X,
                                   float *bandE, int end, int C, int LM,
                                   const ct_opus_dsp *dsp);

/* X = freq / (1e-27 + bandE) band by band: unit-norm bands. */
void ct_celt_normalise_bands(const ct_celt_mode *m, const float *restrict freq,
                             float *restrict X, const float *bandE, int end,
                             int C, int M);

/* spreading_decision's sum over the high bands (from nbEBands - 3 to
 * end) that decides the tapset, for the normalised spectrum X. */
int ct_celt_spreading_hf_sum(const ct_celt_mode *m, const float *X, int end,
                             int C, int M);
/* spreading_decision's update_hf: *hf_average and *tapset_decision after a
 * frame of that sum. */
void ct_celt_tapset_update(int hf_sum, int C, int end, int nbEBands,
                           int *hf_average, int *tapset_decision);

/* SPREAD_* for the normalised spectrum X; updates *average and (with
 * update_hf) *hf_average and *tapset_decision. */
int ct_celt_spreading_decision(const ct_celt_mode *m, const float *X,
                               int *average, int last_decision,
                               int *hf_average, int *tapset_decision,
                               int update_hf, int end, int C, int M,
                               const int *spread_weight);

/* One level of the Haar transform on N0 samples of each of stride
 * interleaved blocks (also used by the encoder's tf_analysis). */
void ct_celt_haar1(float *X, int N0, int stride);

/* Codes bands start..end-1 of X_ (and Y_ for stereo, else NULL) into ec:
 * collapse_masks[i * C + c] gets each band's collapse mask, *seed the
 * folding noise generator's state. With theta_rdo (stereo, !dual_stereo,
 * complexity >= 8) X_ and Y_ end up as the quantised spectrum. With a
 * lane (ct; NULL: the reference's control flow), each band's theta
 * search posts its round-up trial to the lane's helper and runs the
 * round-down one itself: the same bytes. */
void ct_celt_quant_all_bands(const ct_celt_mode *m, int start, int end,
                             float *X_, float *Y_, unsigned char *collapse_masks,
                             const float *bandE, int *pulses, int shortBlocks,
                             int spread, int dual_stereo, int intensity,
                             int *tf_res, int32_t total_bits, int32_t balance,
                             ct_ec_enc *ec, int LM, int codedBands,
                             uint32_t *seed, int complexity,
                             const ct_opus_dsp *dsp, int disable_inv,
                             ct_lane *lane,
                             struct ct_celt_seed_use *seed_use);

#endif
