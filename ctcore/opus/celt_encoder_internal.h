/*
 * The phases of the CELT frame encoder, between celt_frontend.c,
 * celt_decisions.c and celt_encoder.c: the reference's static functions
 * of celt/celt_encoder.c that another of these files calls (with the
 * ct_celt_ prefix), and two blocks of celt_encode_with_ec made functions
 * of their own (surround masking, temporal VBR), their operations in the
 * reference's order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_CELT_ENCODER_INTERNAL_H
#define CTCORE_OPUS_CELT_ENCODER_INTERNAL_H

#include <stdint.h>

#include "celt_encoder.h"
#include "celt_signal.h"

/* The largest frame: 960 samples per channel. */
#define CT_CELT_MAX_N 960

/* ---- front end (celt_frontend.c) ---- */

int ct_celt_transient_analysis(const float *in, int len, int C,
                               float *tf_estimate, int *tf_chan,
                               int allow_weak_transients, int *weak_transient);

int ct_celt_patch_transient_decision(float *newE, float *oldE, int nbEBands,
                                     int start, int end, int C);

void ct_celt_compute_mdcts(const ct_celt_mode *mode, int shortBlocks, float *in,
                           float *out, int C, int CC, int LM, int upsample,
                           const ct_opus_dsp *dsp);

/* run_prefilter's decision after the pitch search (pitch: the period
 * pitch_search found; pitch_buf: the downsampled signal, read where
 * enabled): the period, gain and quantised gain, and whether the filter
 * is on, given the state of the call before (prev_period, prev_gain). */
int ct_celt_prefilter_decide(const float *pitch_buf, int N,
                             const ct_celt_signal_params *params,
                             int prev_period, float prev_gain,
                             int analysis_valid, float max_pitch_ratio,
                             int *pitch, float *gain, int *qgain,
                             const ct_opus_dsp *dsp);
/* run_prefilter's comb filter of one channel: in (N + overlap samples) =
 * in_mem, then pre (COMBFILTER_MAXPERIOD + N samples) filtered from the
 * call before's period, gain and tapset (period at least
 * COMBFILTER_MINPERIOD) to this one's; in_mem = its last overlap samples. */
void ct_celt_prefilter_comb(float *in, const float *pre, float *in_mem,
                            int prev_period, float prev_gain, int prev_tapset,
                            int pitch_index, float gain, int tapset, int N,
                            const ct_celt_mode *mode, const ct_opus_dsp *dsp);
/* in holds CC channels of N + overlap samples (pre-emphasised from
 * overlap on); prefilter_mem is st->prefilter_mem. */
int ct_celt_run_prefilter(ct_celt_encoder *st, float *in, float *prefilter_mem,
                          int CC, int N, int prefilter_tapset, int *pitch,
                          float *gain, int *qgain, int enabled,
                          int nbAvailableBytes, ct_analysis_info *analysis);

/* ---- decisions (celt_decisions.c) ---- */

/* celt_encode_with_ec's surround masking block (st->energy_mask set, not
 * hybrid, not LFE): surround_dynalloc[0..mask_end), *surround_trim and
 * *surround_masking. */
void ct_celt_surround_masking(const ct_celt_encoder *st, int C,
                              float *surround_dynalloc, float *surround_trim,
                              float *surround_masking);

/* celt_encode_with_ec's temporal VBR block (not LFE): returns temporal_vbr,
 * updates st->spec_avg. */
float ct_celt_temporal_vbr(ct_celt_encoder *st, const float *bandLogE,
                           int start, int end, int C, int shortBlocks, int LM);

int ct_celt_tf_analysis(const ct_celt_mode *m, int len, int isTransient,
                        int *tf_res, int lambda, float *X, int N0, int LM,
                        float tf_estimate, int tf_chan, int *importance);

int ct_celt_alloc_trim_analysis(const ct_celt_mode *m, const float *X,
                                const float *bandLogE, int end, int LM, int C,
                                int N0, ct_analysis_info *analysis,
                                float *stereo_saving, float tf_estimate,
                                int intensity, float surround_trim,
                                int32_t equiv_rate, const ct_opus_dsp *dsp);

int ct_celt_stereo_analysis(const ct_celt_mode *m, const float *X, int LM,
                            int N0);

float ct_celt_dynalloc_analysis(const float *bandLogE, const float *bandLogE2,
                                int nbEBands, int start, int end, int C,
                                int *offsets, int lsb_depth,
                                const int16_t *logN, int isTransient, int vbr,
                                int constrained_vbr, const int16_t *eBands,
                                int LM, int effectiveBytes, int32_t *tot_boost_,
                                int lfe, float *surround_dynalloc,
                                ct_analysis_info *analysis, int *importance,
                                int *spread_weight);

int32_t ct_celt_compute_vbr(const ct_celt_mode *mode,
                            ct_analysis_info *analysis, int32_t base_target,
                            int LM, int32_t bitrate, int lastCodedBands, int C,
                            int intensity, int constrained_vbr,
                            float stereo_saving, int tot_boost,
                            float tf_estimate, int pitch_change, float maxDepth,
                            int lfe, int has_surround_mask,
                            float surround_masking, float temporal_vbr);

#endif
