/*
 * CELT's band quantisation speculated a frame ahead (the frame ring's
 * Speculate node, graph.c): while Encode quantises the bands of frame N,
 * frame N + 1 is coded on a copy of the CELT encoder up to and through its
 * quant_all_bands, with frame N's end (the energy finalisation, which spends
 * the bits the bands leave over) done on the copy with a guess of those
 * bits. When Encode reaches frame N + 1's bands, it takes the result over
 * only where quant_all_bands' complete input is the one the speculation had:
 * every argument, the normalised spectrum, the folding seed where the
 * speculation used it, and the range coder's state (ct_celt_spec_take).
 *
 * Why a guess of the leftover bits does: those bits refine a few bands'
 * energies of frame N by a quarter of a step or less, which moves frame
 * N + 1's coarse energy symbols only where a band sits at a rounding edge.
 * Measured on the corpus (the coarse energy's range coder state after frame
 * N + 1's coarse energy, for every leftover from 0 to 9 against the real
 * one): with a guess of 2 the state is the real one in 99.4 % of the frames
 * of soundtrack, 98.7 % of metal, 98.2 % of adventure.
 *
 * Why the range coder's state suffices: quant_all_bands decides from
 * ec_tell_frac (nbits_total and rng) and its arguments; where the state at
 * its start is the same, it writes the same symbols and the same bytes
 * after the state's offs, and the same raw bits after end_offs. Only the raw
 * bits pending before it (the fine energy's, which depend on frame N's
 * finalisation) may differ: they are merged back bit for bit.
 *
 * The seed: quant_all_bands' folding noise (stereo at complexity >= 8
 * only) starts from the range coder's final state of frame N, known when
 * Encode has coded frame N; the speculation waits for it at its first use
 * (ct_celt_seed_cell), usually in a late band.
 *
 * Kernel level: knows no tasks (graph.c runs it on its node).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_OPUS_CELT_SPEC_H
#define CTCORE_OPUS_CELT_SPEC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "celt_encoder.h"
#include "range_enc.h"

/* The leftover bits of frame N the speculation assumes (see above). */
#define CT_CELT_SPEC_LEFTOVER_GUESS 2
/* The most bytes of a CELT frame. */
#define CT_CELT_SPEC_MAX_BYTES 1275
/* The most samples per channel of a speculated call (20 ms) and the
 * delay compensation before them. */
#define CT_CELT_SPEC_MAX_N 960
#define CT_CELT_SPEC_DELAY 192

/* The seed of the speculated frame: Encode publishes it once it has coded
 * the frame before, or abandons it; the speculation waits for one or the
 * other. */
typedef struct ct_celt_seed_cell {
    atomic_int state; /* 0 pending, 1 published, 2 abandoned */
    uint32_t value;
    pthread_mutex_t lock;
    pthread_cond_t cond;
} ct_celt_seed_cell;

/* 0 or a negative error (pthread's init failed). */
int ct_celt_seed_cell_init(ct_celt_seed_cell *cell);
void ct_celt_seed_cell_destroy(ct_celt_seed_cell *cell);
/* Pending again; no one may wait. */
void ct_celt_seed_cell_rearm(ct_celt_seed_cell *cell);
void ct_celt_seed_cell_publish(ct_celt_seed_cell *cell, uint32_t seed);
void ct_celt_seed_cell_abandon(ct_celt_seed_cell *cell);
/* true with *seed once published; false once abandoned. */
bool ct_celt_seed_cell_wait(ct_celt_seed_cell *cell, uint32_t *seed);

/* quant_all_bands' seed where it is not known at its start: taken from
 * cell at its first use (used, value), or 0 where the cell was abandoned
 * (failed: the bands' result is void). */
typedef struct ct_celt_seed_use {
    ct_celt_seed_cell *cell;
    int used;
    int failed;
    uint32_t value;
} ct_celt_seed_use;

/* What frame N's end reads besides the encoder: celt_encode_with_ec's
 * locals after its fine energy (Encode's own end of the frame runs from the
 * same, ct_celt_encode_with_ec). */
typedef struct ct_celt_frame_tail {
    int start, end, C, CC;
    int isTransient, transient_got_disabled, silence;
    int pitch_index;
    float gain1;
    int prefilter_tapset;
    float error[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    int fine_quant[CT_CELT_NB_EBANDS];
    int fine_priority[CT_CELT_NB_EBANDS];
} ct_celt_frame_tail;

/* quant_all_bands' input as the speculation had it, and its result. */
typedef struct ct_celt_spec_result {
    int valid;
    int start, end, C, N, LM;
    int shortBlocks, spread, dual_stereo, intensity, codedBands;
    int complexity, disable_inv;
    int32_t total_bits, balance;
    int pulses[CT_CELT_NB_EBANDS];
    int tf_res[CT_CELT_NB_EBANDS];
    float bandE[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float X[CT_CELT_MAX_CHANNELS * CT_CELT_SPEC_MAX_N];
    /* the seed it used (seed_used 0: none) */
    int seed_used;
    uint32_t seed;
    unsigned char collapse_masks[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    /* the range coder before and after the bands, over buf */
    ct_ec_enc before, after;
    unsigned char buf[CT_CELT_SPEC_MAX_BYTES];
} ct_celt_spec_result;

/* A speculation: frame N's encoder copied at its bands, frame N's tail,
 * frame N + 1's CELT call as assumed (its pcm: the delay compensation's
 * samples, then the call's; its analysis; its size in bytes), the seed's
 * cell, and the result. */
typedef struct ct_celt_spec_job {
    ct_celt_encoder st;
    ct_celt_frame_tail tail;
    int leftover_guess;
    int frame_size;
    int nb_compr_bytes;
    float pcm[CT_CELT_MAX_CHANNELS * (CT_CELT_SPEC_DELAY + CT_CELT_SPEC_MAX_N)];
    ct_analysis_info analysis;
    const struct ct_celt_signal_frame *signal;
    ct_celt_seed_cell seed;
    ct_celt_spec_result result;
} ct_celt_spec_job;

/* Frame N's end on st from the tail: the energy finalisation with
 * bits_left, the energy error, the prefilter's state and the energy
 * history; celt_encode_with_ec's, shared with the speculation's. */
void ct_celt_frame_close(ct_celt_encoder *st, const ct_celt_frame_tail *tail,
                         int bits_left, ct_ec_enc *enc);

/* The speculation of job (its result's valid says whether the bands ran
 * to their end on the seed published). The signal record is only read. */
void ct_celt_spec_run(ct_celt_spec_job *job);

/* Encode, where quant_all_bands would run: the result taken over (true:
 * *ec as after the bands, collapse_masks written) where its input is the
 * one given here, byte for byte; else false and nothing touched. */
bool ct_celt_spec_take(const ct_celt_spec_result *r, int start, int end,
                       const float *X, int C, int N, const float *bandE,
                       const int *pulses, int shortBlocks, int spread,
                       int dual_stereo, int intensity, const int *tf_res,
                       int32_t total_bits, int32_t balance, ct_ec_enc *ec,
                       int LM, int codedBands, uint32_t seed, int complexity,
                       int disable_inv, unsigned char *collapse_masks);

#endif
