/*
 * The frames of an Opus stream (graph.c): on one worker with no ring the
 * sequential path (libopusenc's OggOpusEnc, stream.c, on the caller's
 * thread); else the frame ring, one stream spread over the pool's workers
 * with the sequential path's bytes. The nodes and their edges are drawn
 * in graph.c and docs/opus.md.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_OPUS_GRAPH_H
#define CTCORE_OPUS_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctcore/runtime.h"
#include "opus/stream.h"

/* The most frames in flight: the tonality analysis' history (512 entries,
 * analysis.h) holds what Encode still reads while the Analysis node runs
 * up to 3 entries per frame ahead. */
#define CT_OPUS_GRAPH_MAX_RING 128

typedef struct ct_opus_graph ct_opus_graph;

/* The ring ct_opus_encoder_new asks for: frames_in_flight (clamped to
 * CT_OPUS_GRAPH_MAX_RING) where > 0, else on a pool of more than one
 * worker ct_pipeline_ring_size(pool), else 0 (the sequential path). */
size_t ct_opus_graph_ring_for(const ct_pool *pool, int frames_in_flight);

/*
 * The frame ring of `ring` slots (1 .. CT_OPUS_GRAPH_MAX_RING) on `pool`
 * (NULL or one worker: every frame runs through all nodes at its push,
 * the decomposition alone) for streams of `channels` channels at `rate`.
 * NULL when out of memory.
 */
ct_opus_graph *ct_opus_graph_new(ct_pool *pool, size_t ring, int rate, int channels);
/* Stops (ct_opus_graph_stop) and frees; NULL is ignored. */
void ct_opus_graph_free(ct_opus_graph *graph);

/* A new stream: `stream` (created, its ctls sent, no samples yet) is the
 * graph's until ct_opus_graph_stop. Returns CT_OPE_OK or CT_OPE_ALLOC_FAIL. */
int ct_opus_graph_start(ct_opus_graph *graph, ct_ogg_opus_enc *stream);
/* Stops every frame in flight and waits for the running nodes: the stream
 * may then be destroyed. */
void ct_opus_graph_stop(ct_opus_graph *graph);

/* ope_encoder_write_float on the ring: the stream's bytes as if the
 * samples went to ct_opus_ope_encoder_write_float. Finished packets reach
 * the stream's Ogg packer (and packet callback) in order; when the ring is
 * full, the caller's thread works on it. Returns a CT_OPE_* code. */
int ct_opus_graph_write_float(ct_opus_graph *graph, const float *pcm, int samples_per_channel);
/* ope_encoder_drain on the ring: every packet to the stream. */
int ct_opus_graph_drain(ct_opus_graph *graph);
/* The finished packets to the stream without waiting (the caller receives
 * pages between its writes). Returns a CT_OPE_* code. */
int ct_opus_graph_collect(ct_opus_graph *graph);

/* Tests: the optional nodes forced off (or the Theta helper on), whatever
 * the rules choose; before a stream's first samples, and for every later
 * stream. Never changes the bytes. */
enum {
    /* the caller's thread resamples, through the stream's resampler */
    CT_OPUS_GRAPH_RESAMPLE_INLINE = 1 << 0,
    /* Encode runs each stream's tonality analysis itself, as the
     * sequential path */
    CT_OPUS_GRAPH_ANALYSIS_INLINE = 1 << 1,
    /* no Signal node: Encode computes CELT's signal stage itself, as the
     * sequential path */
    CT_OPUS_GRAPH_SIGNAL_INLINE = 1 << 2,
    /* the Signal node perturbs what it assumes, so that every take-over
     * misses (Encode computes everything, the bytes stay the same) */
    CT_OPUS_GRAPH_SIGNAL_WRONG = 1 << 3,
    /* the Theta node beside Encode, whatever the thread count and the
     * streams' channels */
    CT_OPUS_GRAPH_THETA_HELPER = 1 << 4,
    /* the Speculate node beside Encode (in place of Theta), whatever the
     * thread count */
    CT_OPUS_GRAPH_SPECULATE = 1 << 5,
    /* with it, every speculation starts from a perturbed energy history,
     * so that its take-overs miss (the bytes stay the same) */
    CT_OPUS_GRAPH_SPECULATE_WRONG = 1 << 6,
};
void ct_opus_graph_force(ct_opus_graph *graph, unsigned flags);

/* The ring's nodes, in the order a frame passes them. */
typedef enum ct_opus_graph_node {
    CT_OPUS_NODE_INPUT,    /* the caller's thread: samples in, frames out
                              (serial) */
    CT_OPUS_NODE_RESAMPLE, /* ×N */
    CT_OPUS_NODE_ANALYSIS, /* serial */
    CT_OPUS_NODE_SIGNAL,   /* serial */
    CT_OPUS_NODE_ENCODE,   /* serial */
    CT_OPUS_NODE_THETA,    /* beside Encode (a companion), where on */
    CT_OPUS_NODE_SPECULATE, /* beside Encode (a companion), where on */
    CT_OPUS_NUM_NODES
} ct_opus_graph_node;

const char *ct_opus_graph_node_name(ct_opus_graph_node node);
/* Whether the node takes the frames one at a time in order. */
bool ct_opus_graph_node_serial(ct_opus_graph_node node);
/* Whether the node runs beside another one (Theta or Speculate, beside
 * Encode): it
 * paces nothing by itself. */
bool ct_opus_graph_node_companion(ct_opus_graph_node node);

/*
 * A trace for bench/opus_stages: with `on`, from now on each node adds its
 * busy time (CLOCK_MONOTONIC, summed over its runs on all workers) to the
 * trace, which starts empty; off: none (the default). Only while no frame
 * is in flight. Returns CT_OK or CT_ENOMEM.
 */
int ct_opus_graph_trace(ct_opus_graph *graph, bool on);
/* The trace so far (zeros without one), while no frame is in flight, and
 * the frames encoded (may be NULL). */
void ct_opus_graph_trace_read(const ct_opus_graph *graph, double seconds[CT_OPUS_NUM_NODES],
                              uint64_t *frames);

/* The Signal node's take-over kinds (celt_signal.h). */
typedef enum ct_opus_graph_hit_kind {
    CT_OPUS_HIT_PITCH,     /* the prefilter's pitch_downsample + pitch_search */
    CT_OPUS_HIT_TRANSIENT, /* transient_analysis */
    CT_OPUS_HIT_DC_REJECT, /* opus_encode_native's dc_reject (every mode) */
    CT_OPUS_HIT_MDCT,      /* compute_mdcts */
    CT_OPUS_HIT_PREFILTER, /* run_prefilter's decision and comb filter */
    CT_OPUS_HIT_BANDS,     /* band energies and log energies (and with them
                              the normalisation) */
    CT_OPUS_HIT_DYNALLOC,  /* dynalloc_analysis */
    CT_OPUS_HIT_TF,        /* tf_analysis */
    CT_OPUS_NUM_HIT_KINDS
} ct_opus_graph_hit_kind;

/* Since the stream's start, per kind: *computed, the CELT calls the Signal
 * node computed ahead; *needed, Encode's CELT calls that ran the function
 * with a frame's record offered; *taken, those that took the result over
 * (the inputs matched). Any pointer may be NULL; while no frame is in
 * flight. */
void ct_opus_graph_hits(const ct_opus_graph *graph, ct_opus_graph_hit_kind kind,
                        uint64_t *computed, uint64_t *needed, uint64_t *taken);
const char *ct_opus_graph_hit_name(ct_opus_graph_hit_kind kind);

/* Since the stream's start: the theta trials the Theta node ran, and those
 * Encode posted and took back (the node had not taken them yet); zeros
 * without the node. Either pointer may be NULL; while no frame is in
 * flight. */
void ct_opus_graph_theta_trials(const ct_opus_graph *graph, uint64_t *helper,
                                uint64_t *taken_back);

/* Since the stream's start: the speculations Encode posted (frame N + 1's
 * bands while it codes frame N's), those the Speculate node ran to their
 * end, those Encode offered to the frame's CELT call and those it took
 * over. Any pointer may be NULL; while no frame is in flight. */
void ct_opus_graph_speculations(const ct_opus_graph *graph, uint64_t *posted,
                                uint64_t *run, uint64_t *offered,
                                uint64_t *taken);

#endif
