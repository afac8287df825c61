/*
 * The CELT encoder: its state, init, reset, the settings opus_encoder.c
 * makes through celt_encoder_ctl, and the frame encoder
 * (ct_celt_encode_with_ec). Float build, standard mode (48 kHz, 960,
 * overlap 120), at most 2 channels.
 *
 * Ports celt/celt_encoder.c (the struct, celt_encoder_init,
 * opus_custom_encoder_init_arch, opus_custom_encoder_ctl,
 * celt_encode_with_ec) of libopus 1.3.1.
 *
 * ct_celt_encode_with_ec runs three phases, in the reference's order of
 * operations, spread over three files. Their steps interleave as the
 * reference's do: front end; dynalloc and tf analysis; coarse energy and
 * the tf symbols; spreading; the dynalloc symbols; stereo, intensity and
 * trim; VBR; then the rest of the coding. The state each phase uses (r:
 * reads, w: writes, rw: both):
 *
 *  front end (celt_frontend.c and the encoder's set-up): rate set-up,
 *  silence, pre-emphasis, prefilter, transient analysis, MDCTs, band
 *  energies, surround masking, temporal VBR, transient patch,
 *  normalisation.
 *    r  channels stream_channels start bitrate vbr constrained_vbr
 *       signalling upsample clip lsb_depth complexity disable_pf lfe
 *       loss_rate analysis (valid max_pitch_ratio tonality)
 *       silk_info.signalType energy_mask lastCodedBands tapset_decision
 *       prefilter_gain prefilter_tapset vbr_reservoir oldBandE dsp
 *    rw overlap_max preemph_memE in_mem prefilter_mem spec_avg
 *       prefilter_period (raised to COMBFILTER_MINPERIOD)
 *       end (only with signalling and enc == NULL)
 *
 *  decisions (celt_decisions.c, bands.c's spreading decision): dynalloc,
 *  tf analysis, spreading, stereo and intensity, allocation trim, VBR
 *  target and reservoir.
 *    r  lsb_depth vbr constrained_vbr lfe complexity start
 *       analysis (valid leak_boost tonality_slope activity tonality)
 *       silk_info.offset energy_mask lastCodedBands dsp
 *    rw spread_decision tonal_average hf_average tapset_decision
 *       intensity stereo_saving vbr_reservoir vbr_drift vbr_offset
 *       vbr_count
 *
 *  coding (celt_encoder.c): coarse energy, the tf/spread/dynalloc/trim
 *  symbols, allocation, fine energy, quant_all_bands, anti-collapse bit,
 *  energy finalisation, the state for the next frame.
 *    r  force_intra loss_rate complexity lfe disable_inv spread_decision
 *       analysis.bandwidth dsp
 *    rw oldBandE energyError delayedIntra intensity lastCodedBands rng
 *       oldLogE consec_transient
 *    w  oldLogE2 prefilter_period prefilter_gain
 *       prefilter_tapset
 *
 * The range coder's rng carried in st->rng is read only by
 * quant_all_bands (its folding noise); energyError is read by the next
 * frame's coarse energy, oldBandE by its transient patch and coarse energy.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_CELT_ENCODER_H
#define CTCORE_OPUS_CELT_ENCODER_H

#include <stdint.h>

#include "analysis.h"
#include "comb_filter.h"
#include "dsp.h"
#include "mode.h"
#include "range_enc.h"

/* The standard mode's sizes the state is built for (and
 * CT_CELT_COMBFILTER_MAXPERIOD, comb_filter.h). */
#define CT_CELT_MAX_CHANNELS 2
#define CT_CELT_OVERLAP      120
#define CT_CELT_NB_EBANDS    21

/* OPUS_BITRATE_MAX: no rate limit (CBR at the packet's size). */
#define CT_CELT_BITRATE_MAX (-1)

/* The return values of the setters and of ct_celt_encode_with_ec's
 * errors: libopus' OPUS_OK, OPUS_BAD_ARG, OPUS_INTERNAL_ERROR. */
#define CT_CELT_OK             0
#define CT_CELT_BAD_ARG        (-1)
#define CT_CELT_INTERNAL_ERROR (-3)

/* The frame ring's record of a frame (celt_signal.h). */
struct ct_celt_signal_frame;

/* celt/celt.h SILKInfo: what the SILK layer tells CELT in hybrid mode. */
typedef struct ct_silk_info {
    int signalType;
    int offset;
} ct_silk_info;

struct ct_celt_frame_tail;
struct ct_celt_spec_result;
struct ct_celt_seed_cell;

/* celt/celt_encoder.c struct OpusCustomEncoder. */
typedef struct ct_celt_encoder {
    const ct_celt_mode *mode; /* the standard mode */
    int channels;
    int stream_channels;

    int force_intra;
    int clip;
    int disable_pf;
    int complexity;
    int upsample;
    int start, end;

    int32_t bitrate;
    int vbr;
    int signalling;
    int constrained_vbr; /* if zero, VBR can do whatever it likes with the rate
                          */
    int loss_rate;
    int lsb_depth;
    int lfe;
    int disable_inv;
    ct_opus_dsp dsp; /* the reference's arch: a copy of the kernel table */
    /* The frame ring's offer (ct, celt_signal.h): the signal stage
     * computed ahead for this frame, taken over where its inputs match;
     * NULL (the sequential path): computed here */
    const struct ct_celt_signal_frame *signal_offer;
    /* where the checks of the offer count (celt_signal.h) */
    struct ct_celt_signal_tally *signal_tally;
    /* The frame ring's helper (ct, runtime/lane.h): the theta search's
     * round-up trials go to it; NULL (the sequential path): run here */
    struct ct_lane *theta_lane;
    /* The frame ring's speculation (ct, celt_spec.h), called where this
     * call's bands start. spec_claim: the speculation of this call's
     * bands, once it is done (NULL: none), taken over where its input
     * matches (spec_taken counts the take-overs). spec_post: then, with
     * the frame's tail, the call's size and bytes (the speculation of
     * the next frame's bands starts from here). spec_result and
     * spec_seed: set on a speculation's copy, which stops after its bands
     * and leaves them in spec_result; the seed comes from spec_seed. All
     * NULL on the sequential path. */
    const struct ct_celt_spec_result *(*spec_claim)(void *arg);
    void (*spec_post)(void *arg, const struct ct_celt_encoder *st,
                      const struct ct_celt_frame_tail *tail, int frame_size,
                      int nb_compr_bytes);
    void *spec_arg;
    uint32_t spec_taken;
    struct ct_celt_spec_result *spec_result;
    struct ct_celt_seed_cell *spec_seed;

    /* Everything from rng on is cleared by ct_celt_encoder_reset. */
    uint32_t rng;
    int spread_decision;
    float delayedIntra;
    int tonal_average;
    int lastCodedBands;
    int hf_average;
    int tapset_decision;

    int prefilter_period;
    float prefilter_gain;
    int prefilter_tapset;
    int consec_transient;
    ct_analysis_info analysis;
    ct_silk_info silk_info;

    float preemph_memE[2];
    float preemph_memD[2];

    /* VBR-related parameters */
    int32_t vbr_reservoir;
    int32_t vbr_drift;
    int32_t vbr_offset;
    int32_t vbr_count;
    float overlap_max;
    float stereo_saving;
    int intensity;
    const float *energy_mask; /* the caller's; NULL: none */
    float spec_avg;

    /* The reference's trailing arrays, channel c at c * (size per channel). */
    float in_mem[CT_CELT_MAX_CHANNELS * CT_CELT_OVERLAP];
    float prefilter_mem[CT_CELT_MAX_CHANNELS * CT_CELT_COMBFILTER_MAXPERIOD];
    float oldBandE[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float oldLogE[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float oldLogE2[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float energyError[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
} ct_celt_encoder;

/* celt_encoder_init: the standard mode, channels 1 or 2, at the input
 * rate sampling_rate (8000, 12000, 16000, 24000 or 48000: upsample), the
 * settings' defaults (complexity 5, CBR at the packet's size, constrained
 * VBR once VBR is on, signalling 1, lsb_depth 24), then a reset. dsp is
 * copied. Returns CT_CELT_OK or CT_CELT_BAD_ARG. */
int ct_celt_encoder_init(ct_celt_encoder *st, int32_t sampling_rate,
                         int channels, const ct_opus_dsp *dsp);

/* OPUS_RESET_STATE: clears everything from rng on, then oldLogE and
 * oldLogE2 at -28, delayedIntra 1, spread_decision SPREAD_NORMAL,
 * tonal_average 256. */
void ct_celt_encoder_reset(ct_celt_encoder *st);

/* The celt_encoder_ctl requests opus_encoder.c makes, with the reference's
 * checks. Those returning int return CT_CELT_OK, or CT_CELT_BAD_ARG and
 * leave the state as it was. */
int ct_celt_encoder_set_complexity(ct_celt_encoder *st, int value); /* 0..10 */
int ct_celt_encoder_set_start_band(ct_celt_encoder *st,
                                   int32_t value); /* 0..20 */
int ct_celt_encoder_set_end_band(ct_celt_encoder *st,
                                 int32_t value); /* 1..21 */
/* CELT_SET_PREDICTION: 0 independent frames (force_intra, no prefilter),
 * 1 no prefilter, 2 everything. */
int ct_celt_encoder_set_prediction(ct_celt_encoder *st, int value);
int ct_celt_encoder_set_packet_loss_perc(ct_celt_encoder *st,
                                         int value); /* 0..100 */
void ct_celt_encoder_set_vbr_constraint(ct_celt_encoder *st, int32_t value);
void ct_celt_encoder_set_vbr(ct_celt_encoder *st, int32_t value);
/* > 500 or CT_CELT_BITRATE_MAX; clamped to 260000 per channel. */
int ct_celt_encoder_set_bitrate(ct_celt_encoder *st, int32_t value);
int ct_celt_encoder_set_channels(ct_celt_encoder *st,
                                 int32_t value); /* stream_channels 1..2 */
int ct_celt_encoder_set_lsb_depth(ct_celt_encoder *st,
                                  int32_t value); /* 8..24 */
int ct_celt_encoder_set_phase_inversion_disabled(ct_celt_encoder *st,
                                                 int32_t value); /* 0..1 */
/* 0 for every use by opus_encoder.c (the default is 1). Non-zero: as in
 * Debian's build (custom modes), a frame with enc == NULL starts with its
 * TOC byte (and end is rounded to what the TOC can say), the CBR size and
 * the VBR rate leave room for it, and the returned size counts it. */
void ct_celt_encoder_set_signalling(ct_celt_encoder *st, int32_t value);
/* Copied; NULL is ignored, as the reference. */
void ct_celt_encoder_set_analysis(ct_celt_encoder *st,
                                  const ct_analysis_info *info);
void ct_celt_encoder_set_silk_info(ct_celt_encoder *st,
                                   const ct_silk_info *info);
void ct_celt_encoder_set_lfe(ct_celt_encoder *st, int32_t value);
/* Kept as a pointer (read at every frame); NULL: none. */
void ct_celt_encoder_set_energy_mask(ct_celt_encoder *st, const float *value);
/* OPUS_GET_FINAL_RANGE */
uint32_t ct_celt_encoder_get_final_range(const ct_celt_encoder *st);
/* CELT_GET_MODE (the lookahead is mode->overlap) */
const ct_celt_mode *ct_celt_encoder_get_mode(const ct_celt_encoder *st);

/* celt_encode_with_ec: encodes frame_size samples per channel (120, 240,
 * 480 or 960 at 48 kHz, divided by upsample) of interleaved pcm (full
 * scale +-1.0, CC = channels interleaved) into compressed[0..nbCompressedBytes)
 * (enc == NULL: a range coder of its own on compressed) or on enc, which the
 * caller has started and finishes. Returns the bytes used or a CT_CELT_* error.
 */
int ct_celt_encode_with_ec(ct_celt_encoder *st, const float *pcm,
                           int frame_size, unsigned char *compressed,
                           int nbCompressedBytes, ct_ec_enc *enc);

/* celt_preemphasis (also called by the multistream encoder's surround
 * analysis). */
void ct_celt_preemphasis(const float *pcmp, float *inp, int N, int CC,
                         int upsample, const float *coef, float *mem, int clip);

#endif
