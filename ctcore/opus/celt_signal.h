/*
 * The CELT signal stage computed ahead (graph.c's Signal node): for a
 * frame, per stream, opus_encode_native's dc_reject of its samples (every
 * mode), the pitch pre-filter (pitch_downsample and pitch_search, then
 * run_prefilter's decision and comb filter), the transient analysis and
 * the MDCTs (long blocks, and short ones where it found a transient) that
 * the frame's CELT calls would run, on the inputs assumed "as at the last
 * sync", and the checks with which the codec and the CELT encoder take a
 * result over: only where the complete input of the function (all its
 * samples, its memory and its parameters) is the one assumed, byte for
 * byte; else they compute as the reference does.
 *
 * What is assumed, for the CELT call at the 48 kHz position p of the
 * stream's signal (opus_encode_native's pcm_buf: 192 samples of delay
 * buffer, then the call's DC-rejected samples):
 *  - its pcm is the stream's DC-rejected signal from p - 192 on (no
 *    stereo_fade, no gain_fade, no NaN guard), the DC reject's memory
 *    carried over every earlier frame;
 *  - preemph_memE is the pre-emphasis of the sample before, so the
 *    pre-emphasised input is a function of that signal, E;
 *  - prefilter_mem holds E's 1024 samples before the call (what the
 *    prefilter keeps after every CELT call, whatever its gain);
 *  - the prefilter's state (period, gain, tapset, in_mem) and the
 *    analysis reader's position are the chain's: the Signal node runs
 *    run_prefilter's decisions itself, frame after frame, from the state
 *    Encode last synced back (ct_celt_signal_chain); where Encode finds
 *    another state than the one predicted for a frame, the node replays
 *    the decisions of the frames it computed since from Encode's
 *    (ct_celt_signal_frame_replay); off the chain (no pitch search), the
 *    comb filter is assumed the identity, in_mem E's 120 samples before
 *    the call;
 *  - run_prefilter's parameters (tapset_decision, enabled, the classes of
 *    nbAvailableBytes, loss_rate) are those of the last frame synced.
 * The transient analysis and compute_mdcts read the comb filter's output.
 * After a reset of the CELT encoder (a mode switch), a fade or a changed
 * parameter the inputs differ and Encode computes: a wrong assumption
 * costs time, never bytes.
 *
 * Kernel level: knows no tasks (graph.c calls it from its node).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_OPUS_CELT_SIGNAL_H
#define CTCORE_OPUS_CELT_SIGNAL_H

#include <stdint.h>

#include "analysis.h"
#include "celt_encoder.h"

/* The most CELT calls of a frame: 120 ms in 20 ms calls. */
#define CT_CELT_SIGNAL_MAX_CALLS 6
/* The samples of E kept before a frame: the delay compensation (192) and
 * the prefilter's memory (1024). */
#define CT_CELT_SIGNAL_KEEP (192 + CT_CELT_COMBFILTER_MAXPERIOD)
/* The most samples of a frame (120 ms). */
#define CT_CELT_SIGNAL_MAX_FRAME 5760
/* The samples of E kept before those: the last CELT call of the frame
 * before (at most 960), whose comb filter a replay runs again. */
#define CT_CELT_SIGNAL_EXTRA 960

/* The take-over kinds. */
enum {
    CT_CELT_SIGNAL_PITCH,     /* pitch_downsample + pitch_search */
    CT_CELT_SIGNAL_TRANSIENT, /* transient_analysis */
    CT_CELT_SIGNAL_DC_REJECT, /* opus_encode_native's dc_reject */
    CT_CELT_SIGNAL_MDCT,      /* compute_mdcts on the same input */
    CT_CELT_SIGNAL_PREFILTER, /* run_prefilter after the pitch search */
    CT_CELT_SIGNAL_BANDS,     /* band energies, log energies, normalisation */
    CT_CELT_SIGNAL_DYNALLOC,  /* dynalloc_analysis */
    CT_CELT_SIGNAL_TF,        /* tf_analysis */
    CT_CELT_SIGNAL_NUM_KINDS
};

/* The CELT encoder's state that run_prefilter carries from call to call:
 * prefilter_period, prefilter_gain, prefilter_tapset, in_mem. */
typedef struct ct_celt_prefilter_state {
    int period;
    float gain;
    int tapset;
    float in_mem[CT_CELT_MAX_CHANNELS * CT_CELT_OVERLAP];
} ct_celt_prefilter_state;

/* What a CELT call's front end reads besides the signal and the chain's
 * state. run_prefilter's decision: prefilter_tapset (the
 * tapset_decision), enabled, the classes of nbAvailableBytes it tests
 * (below 25, below 35) and loss_rate. The tapset's update later in the
 * call: whether spreading_decision runs (but for short blocks), effEnd
 * and the coded channels. The band energies, dynalloc_analysis and
 * tf_analysis: end, lsb_depth, vbr, constrained_vbr, effectiveBytes and
 * whether tf_analysis runs. */
typedef struct ct_celt_signal_params {
    int tapset;
    int enabled;
    int avail_below25;
    int avail_below35;
    int loss_rate;
    int spread_runs;
    int eff_end;
    int C;
    int end;
    int lsb_depth;
    int vbr;
    int constrained_vbr;
    int effective_bytes;
    int tf_runs;
} ct_celt_signal_params;

/* One CELT call as assumed: its complete inputs and the results. */
typedef struct ct_celt_signal_call {
    int N;  /* samples per channel */
    int CC; /* channels */
    int has[CT_CELT_SIGNAL_NUM_KINDS];
    /* per channel c: the prefilter memory assumed and the pre-emphasised
     * input */
    float prefilter_mem[CT_CELT_MAX_CHANNELS * CT_CELT_COMBFILTER_MAXPERIOD];
    float pre[CT_CELT_MAX_CHANNELS * 960];
    /* pitch: the downsampled buffer remove_doubling reads, and the period
     * (COMBFILTER_MAXPERIOD - pitch_search's) */
    float pitch_buf[(CT_CELT_COMBFILTER_MAXPERIOD + 960) >> 1];
    int pitch_index;
    /* run_prefilter: what its decision assumed of the CELT encoder (its
     * state after the call before, as the chain predicts it, and the
     * parameters as at the last sync) and what it gave */
    ct_celt_prefilter_state pf_old;
    ct_celt_signal_params pf_params;
    int pf_analysis_valid;
    float pf_max_pitch_ratio;
    int pf_pitch_index;
    float pf_gain;
    int pf_qg;
    int pf_on;
    /* the input of the transient analysis and the MDCTs: the comb filter's
     * output after in_mem (the identity where no prefilter was computed) */
    float in[CT_CELT_MAX_CHANNELS * (960 + CT_CELT_OVERLAP)];
    /* transient_analysis with allow_weak_transients 0 */
    int is_transient;
    float tf_estimate;
    int tf_chan;
    int weak_transient;
    /* compute_mdcts with C == CC: long blocks, and where the transient
     * analysis found a transient (and LM > 0) short blocks */
    int has_short;
    /* the tapset's update: the high bands' sum of the normalised long
     * blocks (has_hf 0: not computed) */
    int has_hf;
    int hf_sum;
    /* the front end of the long blocks where no transient was found (has[]
     * of BANDS, DYNALLOC, TF), on the parameters assumed: band energies,
     * log energies (bandLogE2 the same: no second MDCT), the normalised
     * spectrum; dynalloc_analysis' inputs from the analysis (valid,
     * leak_boost) and its results; tf_analysis' */
    ct_celt_signal_params fe_params;
    float bandE[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float bandLogE[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float X[CT_CELT_MAX_CHANNELS * 960];
    int fe_analysis_valid;
    unsigned char fe_leak_boost[CT_OPUS_LEAK_BANDS];
    int offsets[CT_CELT_NB_EBANDS];
    int importance[CT_CELT_NB_EBANDS];
    int spread_weight[CT_CELT_NB_EBANDS];
    float max_depth;
    int32_t tot_boost;
    int tf_res[CT_CELT_NB_EBANDS];
    int tf_select;
    float mdct_long[CT_CELT_MAX_CHANNELS * 960];
    float mdct_short[CT_CELT_MAX_CHANNELS * 960];
} ct_celt_signal_call;

/* What a CELT encoder's checks count of the record offered to it: the
 * calls that ran each function with it offered, those that took its
 * result over, and run_prefilter's parameters in the frame's last call
 * (seen 0: no CELT call ran). Apart from the record, so that a
 * speculation (celt_spec.h) reads a record while Encode counts in it. */
typedef struct ct_celt_signal_tally {
    uint32_t needed[CT_CELT_SIGNAL_NUM_KINDS];
    uint32_t taken[CT_CELT_SIGNAL_NUM_KINDS];
    int seen;
    ct_celt_signal_params seen_params;
} ct_celt_signal_tally;

/* The record of one frame of one stream: what the Signal node computed,
 * and what the CELT encoder's calls did with it (counters per kind). */
typedef struct ct_celt_signal_frame {
    int ncalls;
    ct_celt_signal_call calls[CT_CELT_SIGNAL_MAX_CALLS];
    /* dc_reject (every frame): the stream's input (dc_len samples of
     * dc_channels), its output, and the memory (hp_mem) before each step
     * of dc_step samples and at the end: dc_hp[k] before sample k *
     * dc_step */
    int dc_len;
    int dc_step;
    int dc_channels;
    float dc_hp[CT_CELT_SIGNAL_MAX_FRAME / 120 + 1][4];
    float dc_in[CT_CELT_MAX_CHANNELS * CT_CELT_SIGNAL_MAX_FRAME];
    float dc_out[CT_CELT_MAX_CHANNELS * CT_CELT_SIGNAL_MAX_FRAME];
    /* Encode's CELT calls' counts of this record (their signal_tally) */
    ct_celt_signal_tally tally;
} ct_celt_signal_frame;

/* The chain: the state of the CELT encoder and of the codec's analysis
 * reader after a frame, as the Signal node predicts it or as Encode
 * found it (valid 0: unknown). */
typedef struct ct_celt_signal_chain {
    int valid;
    ct_celt_prefilter_state pf;
    int read_pos;
    int read_subframe;
    /* spreading_decision's: the next call's prefilter tapset */
    int hf_average;
    int tapset_decision;
} ct_celt_signal_chain;

/* What the Signal node keeps of a frame it computed, for a replay of its
 * prefilter decisions: per call the pitch search's results, and the view
 * of the analysis the frame's calls read. */
typedef struct ct_celt_signal_kept {
    int ncalls; /* 0: nothing to replay */
    int N;
    ct_tonality_view view;
    int pitch_index[CT_CELT_SIGNAL_MAX_CALLS];
    float pitch_buf[CT_CELT_SIGNAL_MAX_CALLS]
                   [(CT_CELT_COMBFILTER_MAXPERIOD + 960) >> 1];
    /* the tapset's update: the high bands' sum of the long blocks (has_hf
     * 0: not computed) and whether the call has short blocks */
    int has_hf[CT_CELT_SIGNAL_MAX_CALLS];
    int hf_sum[CT_CELT_SIGNAL_MAX_CALLS];
    int is_short[CT_CELT_SIGNAL_MAX_CALLS];
} ct_celt_signal_kept;

/* The Signal node's state of one stream, carried from frame to frame:
 * the DC reject's memory (codec.c's hp_mem), the last scaled sample
 * (the pre-emphasis' memory) and E's last CT_CELT_SIGNAL_EXTRA +
 * CT_CELT_SIGNAL_KEEP samples. */
typedef struct ct_celt_signal_state {
    int channels;
    float hp_mem[4];
    float last_x[CT_CELT_MAX_CHANNELS];
    float hist[CT_CELT_MAX_CHANNELS][CT_CELT_SIGNAL_EXTRA +
                                     CT_CELT_SIGNAL_KEEP +
                                     CT_CELT_SIGNAL_MAX_FRAME];
    /* the chain after the last frame computed */
    ct_celt_signal_chain chain;
} ct_celt_signal_state;

/* The state at the start of a stream (channels 1 or 2): everything 0, as
 * opus_encode_native's delay buffer and CELT's memories. */
void ct_celt_signal_init(ct_celt_signal_state *state, int channels);

/* What to compute for a frame. */
typedef struct ct_celt_signal_want {
    int pitch;     /* pitch_downsample + pitch_search */
    int transient; /* transient_analysis */
    int mdct;      /* compute_mdcts */
    int prefilter; /* run_prefilter's decision and comb filter (with
                      pitch, and a valid chain) */
    int wrong;     /* tests: the assumed memories perturbed (every
                      take-over misses) */
    /* run_prefilter's parameters, as at the last sync (but the tapset:
     * the chain's) */
    ct_celt_signal_params params;
    /* the codec's analysis and the frame's view (tonal NULL: it does not
     * run, CELT's analysis is not valid) */
    const ct_tonality_analysis *tonal;
    const ct_tonality_view *view;
} ct_celt_signal_want;

/*
 * One frame of frame_size samples (at most CT_CELT_SIGNAL_MAX_FRAME) of
 * the stream: x holds its state->channels channels interleaved, as
 * opus_encode_native's pcm. Advances the state (always) and fills rec
 * with the calls of the frame (frame_size <= 960: one call, else 20 ms
 * calls) where want asks for something (rec->ncalls 0 otherwise), and
 * kept with what a replay of the frame needs.
 */
void ct_celt_signal_frame_compute(ct_celt_signal_state *state, const float *x,
                                  int frame_size,
                                  const ct_celt_signal_want *want,
                                  const ct_opus_dsp *dsp,
                                  ct_celt_signal_frame *rec,
                                  ct_celt_signal_kept *kept);

/*
 * The decisions of run_prefilter for the calls of a frame computed (kept)
 * again, from the chain before it (moved on to the chain after it), with
 * want's params and tonal (its view: kept's): what Signal does for the
 * frames it computed ahead of a resync. The last frame before the state's
 * next (last 1) also runs its last call's comb filter for in_mem, on the
 * samples the state keeps. Gives 0 (chain invalid) where a call has no
 * pitch search to decide on.
 */
int ct_celt_signal_frame_replay(const ct_celt_signal_state *state,
                                ct_celt_signal_chain *chain,
                                const ct_celt_signal_kept *kept,
                                const ct_celt_signal_want *want, int last,
                                const ct_opus_dsp *dsp);

/* The chain the CELT encoder st and its codec's analysis reader are in
 * after a frame. */
void ct_celt_signal_chain_read(ct_celt_signal_chain *chain,
                               const ct_celt_encoder *st, int read_pos,
                               int read_subframe);
/* 1 where both chains are valid and their decisions' state is the same,
 * byte for byte: all but in_mem, which a call's comb filter computes from
 * the signal and the decisions alone (a wrong in_mem is the next call's
 * miss, never the chain's). */
int ct_celt_signal_chain_same(const ct_celt_signal_chain *a,
                              const ct_celt_signal_chain *b);

/* The checks of the CELT encoder (rec may be NULL: no offer). Each
 * returns 1 and writes the results where a call of rec has exactly the
 * input given, else 0; counts in tally (rec's offer's). */
/* pre[c]: COMBFILTER_MAXPERIOD + N samples (run_prefilter's) */
int ct_celt_signal_take_pitch(const ct_celt_signal_frame *rec,
                              ct_celt_signal_tally *tally, float *const pre[],
                              int CC, int N, float *pitch_buf,
                              int *pitch_index);
/* opus_encode_native's dc_reject (at 3 Hz, 48 kHz) of len samples of in
 * (channels interleaved) into out with hp_mem */
int ct_celt_signal_take_dc_reject(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally, const float *in,
                                  int len, int channels, float *hp_mem,
                                  float *out);
/* compute_mdcts (upsample 1) of in (CC channels of N + overlap samples)
 * into out, with shortBlocks 0 or 1 << LM */
int ct_celt_signal_take_mdcts(const ct_celt_signal_frame *rec,
                              ct_celt_signal_tally *tally, int shortBlocks,
                              const float *in, float *out, int C, int CC,
                              int N);
/* in: CC channels of N + overlap samples (celt_encode_with_ec's) */
/* The parameters of a CELT call's front end after the prefilter (rec may
 * be NULL): spread_runs, and the fields from eff_end on, recorded as
 * seen. */
void ct_celt_signal_seen_spread(const ct_celt_signal_frame *rec,
                                ct_celt_signal_tally *tally, int spread_runs);
void ct_celt_signal_seen_frontend(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally,
                                  const ct_celt_signal_params *params);
/* compute_band_energies and amp2Log2 (bandE, bandLogE), or with X the
 * normalisation, of freq (C channels of N), long blocks, for effEnd, end */
int ct_celt_signal_take_bands(const ct_celt_signal_frame *rec,
                              ct_celt_signal_tally *tally, const float *freq,
                              int shortBlocks, int effEnd, int end, int C,
                              int N, float *bandE, float *bandLogE);
int ct_celt_signal_take_normalise(const ct_celt_signal_frame *rec,
                                  const float *freq, const float *bandE,
                                  int effEnd, int C, int N, float *X);
/* dynalloc_analysis with params' end, lsb_depth, vbr, constrained_vbr and
 * effective_bytes (start 0, not LFE, no surround masking) */
int ct_celt_signal_take_dynalloc(const ct_celt_signal_frame *rec,
                                 ct_celt_signal_tally *tally,
                                 const float *bandLogE, const float *bandLogE2,
                                 const ct_celt_signal_params *params,
                                 int isTransient, int N,
                                 const ct_analysis_info *analysis, int *offsets,
                                 int *importance, int *spread_weight,
                                 float *max_depth, int32_t *tot_boost);
int ct_celt_signal_take_tf(const ct_celt_signal_frame *rec,
                           ct_celt_signal_tally *tally, const float *X, int len,
                           int isTransient, int lambda, int N,
                           float tf_estimate, int tf_chan,
                           const int *importance, int *tf_res, int *tf_select);
/* run_prefilter (from the comb filter's input pre on, after the pitch
 * search) with st's state and the other inputs given: the results, the
 * comb filter's output in in, and st's in_mem and prefilter_mem (and
 * its prefilter_period raised to COMBFILTER_MINPERIOD) as the reference
 * leaves them. Records params as seen (also where it misses). */
int ct_celt_signal_take_prefilter(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally,
                                  ct_celt_encoder *st, float *const pre[],
                                  float *in, float *prefilter_mem, int CC,
                                  int N, const ct_celt_signal_params *params,
                                  const ct_analysis_info *analysis,
                                  int *pitch_index, float *gain, int *qgain,
                                  int *pf_on);
int ct_celt_signal_take_transient(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally, const float *in,
                                  int CC, int N, int allow_weak_transients,
                                  int *is_transient, float *tf_estimate,
                                  int *tf_chan, int *weak_transient);

#endif
