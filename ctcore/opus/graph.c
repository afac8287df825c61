/*
 * The frames of an Opus stream on the frame ring: one stream spread over
 * the pool's workers, frame by frame, as an ordered pipeline
 * (runtime/pipeline.h) over a ring of slots, with the bytes of the
 * sequential path (libopusenc's OggOpusEnc, stream.c). Each frame takes
 * one slot (frame_slot below: its record) from its planning to the
 * consumer; a serial node takes the frames one at a time in frame order
 * and carries state from frame to frame, a parallel node (×N) carries
 * nothing. The edges are the slot's fields and two rings of samples.
 *
 *   samples (float, interleaved, at the input rate)
 *    │
 *   Input ───────────── the caller's thread: libopusenc's write_float
 *    │                  bookkeeping (granule, LPC history), the samples
 *    │                  into the input ring (planar, at the input rate)
 *    │                  or, at 48 kHz, into the signal ring; which frames
 *    │                  are due (encode_buffer's loop head: its size, its
 *    │                  granule, the last packets' durations), each with
 *    │                  the 48 kHz samples counted for it, pushed (serial;
 *    │                  carries the stream's granules)
 *   frame, its range of 48 kHz samples
 *    │
 *   Resample ×N ──────── the frame's range of the 48 kHz signal from the
 *    │                  input ring: each output from its position alone,
 *    │                  the stream resampler's sums (ct_resampler_block)
 *   signal ring (48 kHz, interleaved)
 *    │
 *   Analysis ─────────── each stream's tonality analysis of the samples
 *    │                  the frame's call makes it read (up to 1.9 s past
 *    │                  the frame), its views (serial; carries the
 *    │                  analysis writers: history of 512 entries)
 *   views
 *    │
 *   Signal ───────────── each stream's CELT signal stage computed ahead
 *    │                  (celt_signal.h): the DC reject and pre-emphasis of
 *    │                  the frame, and, where the last frame Encode coded
 *    │                  was CELT-only, the pitch search, the transient
 *    │                  analysis and the MDCTs of its CELT calls on the
 *    │                  inputs assumed
 *    │                  "as at the last sync" (serial; carries each
 *    │                  stream's DC reject memory and pre-emphasised
 *    │                  history; reads the modes Encode synced)
 *   signal records
 *    │
 *   Encode ───────────── the codec on the frame: its analysis read back
 *    │                  through the views, SILK, CELT (taking a signal
 *    │                  record's results over only where the complete
 *    │                  input matches), the multistream layer (serial;
 *    │                  carries the codec's state; syncs each stream's
 *    │                  mode back to Signal)
 *    │   Theta ──────── beside Encode, where on (a companion): the round-up
 *    │                  trials of CELT's stereo theta searches that Encode
 *    │                  posts on the theta lane (runtime/lane.h), while
 *    │                  Encode runs the round-down ones; until Encode
 *    │                  closes the frame
 *    │   Speculate ──── beside Encode, where on (a companion, in place of
 *    │                  Theta): frame N + 1's CELT call up to and through
 *    │                  its band quantisation, on a copy of the encoder
 *    │                  that Encode posts where frame N's bands start,
 *    │                  with frame N's end done on the copy with a guess
 *    │                  of its leftover bits (celt_spec.h); Encode takes
 *    │                  the bands over in frame N + 1 only where their
 *    │                  complete input is the one assumed
 *   packet
 *    │
 *   the caller's thread: the packets in frame order to the stream's
 *   packet callback and Ogg packer
 *
 * The rings: the input ring holds each channel's input as the resampler
 * reads it (filt_len - 1 zeros, then the samples) with its first
 * filt_len - 1 samples repeated after its end; the signal ring holds the
 * 48 kHz signal with its first CT_OPUS_GRAPH_MIRROR samples repeated after
 * its end, so that a frame (at most 2880 samples) and an analysis step
 * (960) are contiguous wherever they start. The caller writes a sample only
 * where no frame in flight still reads: everything counted and not yet
 * coded (at most CT_OPE_MAX_BUFFERED plus the frames in flight) fits the
 * signal ring, and the input ring holds the input of all of it.
 *
 * What the nodes share with the sequential path: the stream (stream.c)
 * plans and commits the frames with encode_buffer's own steps, the codec
 * codes them with ct_opus_ms_encode_float's (multistream.h: the analysis
 * split into its writer, run ahead here, and its reader), so the bytes are
 * the same. Kernels don't know about tasks: the nodes only move a frame's
 * data and call those steps.
 *
 * The sequential path: with no ring (one worker, frames_in_flight 0) there
 * is no graph; encoder.c hands the samples to the stream. A ring on one
 * worker (tests, bench) runs every frame through all nodes at its push.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include "opus/graph.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/pipeline.h"
#include "common/clock.h"
#include "opus/celt_signal.h"
#include "opus/celt_spec.h"
#include "opus/multistream.h"
#include "runtime/lane.h"

/* The samples repeated after the end of the signal ring: more than the
 * longest frame (libopusenc's 120 ms) and an analysis step. */
#define CT_OPUS_GRAPH_MIRROR 5760
/* The input the caller appends at a time, before it looks for due frames:
 * the frames' ranges of samples to resample stay short. */
#define INPUT_STEP 1024
/* The streams the Signal node computes ahead (the first ones; the others'
 * CELT computes everything): bounds its records' memory. */
#define SIGNAL_MAX_STREAMS 8
/* A kind is computed ahead while fewer than SIGNAL_MISSES of its last
 * synced records in a row missed, and else in every SIGNAL_PROBE-th frame. */
#define SIGNAL_MISSES 4
#define SIGNAL_PROBE  8
/* The Theta node is on by default from this many workers, for streams with
 * a stereo stream at complexity 8 or more (the theta search's condition).
 * It holds a worker for all of Encode's time, which on fewer workers the
 * other nodes need: bench/opus_stages on soundtrack_warzone_48k_stereo.wav,
 * 2 workers (2 cores), median of 3 runs of 3: Encode 142.9 -> 139.8
 * us/frame (about 7.7 trials a frame, 91% on the helper), but the wall
 * 147.7 -> 224.1 us/frame, since Analysis and Signal (about 86 us/frame)
 * wait for the worker the helper holds. With them inline (Encode alone
 * beside the helper) Encode gains about 12 us/frame (221 -> 209, within
 * the noise). From 4 workers Encode and the helper leave 2 workers for
 * Input, Analysis and Signal (about 116 us/frame of Encode's 124-143);
 * 3 could not be measured on 2 cores. */
#define THETA_HELPER_MIN_THREADS 4
/* The Speculate node is on by default from this many workers (the seed
 * found speculation paying only from 7 threads): it holds a worker for all
 * of Encode's time and takes Encode's band quantisation off it only where
 * Encode would otherwise wait for it. On 2 cores it could be measured only
 * forced on (docs/opus.md). */
#define SPECULATE_MIN_THREADS 7

/* The per-frame record: one slot of the ring. Each field is written by
 * one node and read by the nodes after it. */
typedef struct frame_slot {
    /* Input: the frame as the stream plans it, and the 48 kHz samples
     * Resample computes for it: [resample_first, resample_end) */
    ct_ope_frame frame;
    int64_t resample_first;
    int64_t resample_end;
    /* Analysis (or Encode, with the analysis inline): each stream's view */
    ct_tonality_view *views;
    /* Signal: each of the first nsig streams' record (Encode writes its
     * counters) */
    ct_celt_signal_frame *signal;
    /* Encode: the packet, or the codec's refusal (< 0) */
    int nbytes;
    unsigned char *packet;
} frame_slot;

/* What Encode syncs back to the Signal node after a frame of a stream: the
 * chain it found (the CELT encoder's and the analysis reader's state) and
 * run_prefilter's parameters in the frame's last CELT call. */
typedef struct signal_sync {
    uint64_t frame_plus1; /* 0: nothing synced yet */
    ct_celt_signal_chain chain;
    int seen;
    ct_celt_signal_params params;
} signal_sync;

/* The chain the Signal node predicted after a frame. */
typedef struct signal_prediction {
    uint64_t frame_plus1;
    ct_celt_signal_chain chain;
} signal_prediction;

struct ct_opus_graph {
    ct_pool *pool;
    size_t ring;
    int rate;
    int channels;
    /* The ring's pipeline: one of the three, without a companion, with
     * the Theta node, with the Speculate node, chosen at each stream's
     * start */
    ct_pipeline *pipeline;
    ct_pipeline *pipeline_plain, *pipeline_theta, *pipeline_spec;
    frame_slot *slots;
    unsigned force;
    /* The Theta node's lane, used by this stream's Encode where on */
    ct_lane *theta_lane;
    bool theta_helper;
    /* The Speculate node: its lane (a theta lane carrying one job), the
     * job (frame N + 1's bands, posted by Encode in frame N), the frame
     * it speculates + 1 (0: none posted), the frame Encode codes, the
     * frames Signal has done (its last frame + 1: Encode reads the next
     * frame's record only once it is done), the counts of
     * ct_opus_graph_speculations */
    ct_lane *spec_lane;
    ct_celt_spec_job *spec_job;
    bool spec_cell;
    bool speculate;
    bool spec_wrong;
    uint64_t spec_frame_plus1;
    uint64_t encode_frame;
    /* the offers in a row Encode could not take (SIGNAL_MISSES: the
       Signal node's brake), and whether the frame's CELT had one */
    int spec_misses;
    bool spec_offered;
    atomic_uint_fast64_t signal_done;
    atomic_uint_fast64_t spec_counts[4];

    /* The stream and what the nodes read of it */
    ct_ogg_opus_enc *stream;
    ct_opus_ms_encoder *codec;
    const ct_resampler *re; /* NULL: 48 kHz, or resampled inline */
    ct_resampler *re_inline; /* the stream's, CT_OPUS_GRAPH_RESAMPLE_INLINE */
    int analysis_inline;
    /* The Signal node: the streams it computes ahead (0: none), their
     * channels in the signal, its state per stream, the modes Encode
     * synced back (the last coded frame's, per stream), its scratch */
    int nsig;
    int sig_wrong;
    int sig_c1[SIGNAL_MAX_STREAMS], sig_c2[SIGNAL_MAX_STREAMS];
    ct_celt_signal_state *sig;
    atomic_int sig_mode[SIGNAL_MAX_STREAMS];
    atomic_int sig_misses[SIGNAL_MAX_STREAMS][CT_OPUS_NUM_HIT_KINDS];
    float *sig_x;
    atomic_uint_fast64_t hits[CT_OPUS_NUM_HIT_KINDS][3];
    /* the chain: Encode's syncs (under sync_lock), and the Signal node's
     * own: its predictions per stream and slot, the last sync it handled,
     * the parameters it assumes */
    pthread_mutex_t sync_lock;
    signal_sync sync[SIGNAL_MAX_STREAMS];
    signal_prediction *sig_pred;
    ct_celt_signal_kept *sig_kept;
    uint64_t sig_synced[SIGNAL_MAX_STREAMS];
    ct_celt_signal_params sig_params[SIGNAL_MAX_STREAMS];

    /* The signal ring: 48 kHz, interleaved, pcm_len samples + the mirror */
    float *pcm;
    int64_t pcm_len;
    /* The input ring (resampled streams): per channel in_len samples +
     * filt_len - 1, at in_stride floats from channel to channel */
    float *in_ring;
    int64_t in_len;
    size_t in_stride;
    int filt_len;
    /* The caller's scratch: resampled samples (inline), the drain's
     * extension */
    float *scratch;
    size_t scratch_frames;

    /* Node Input: the input samples taken, the 48 kHz samples they give
     * (counted: Resample computes them), those given to frames, the next
     * frame's start */
    int64_t taken;
    int64_t counted;
    int64_t assigned;
    int64_t next_start;
    uint64_t pushed;
    /* the most samples to count (the drain's padding ends there) */
    int64_t count_limit;

    /* The trace (bench): each node's busy time in ns */
    bool tracing;
    atomic_uint_fast64_t busy_ns[CT_OPUS_NUM_NODES];
};

static const char *const node_names[CT_OPUS_NUM_NODES] = {
    "Input",
    "Resample",
    "Analysis",
    "Signal",
    "Encode",
    "Theta",
    "Speculate",
};

const char *ct_opus_graph_node_name(ct_opus_graph_node node)
{
    return (unsigned)node < CT_OPUS_NUM_NODES ? node_names[node] : "?";
}

bool ct_opus_graph_node_serial(ct_opus_graph_node node)
{
    return node != CT_OPUS_NODE_RESAMPLE;
}

bool ct_opus_graph_node_companion(ct_opus_graph_node node)
{
    return node == CT_OPUS_NODE_THETA || node == CT_OPUS_NODE_SPECULATE;
}

size_t ct_opus_graph_ring_for(const ct_pool *pool, int frames_in_flight)
{
    if (frames_in_flight > 0)
        return frames_in_flight > CT_OPUS_GRAPH_MAX_RING ? CT_OPUS_GRAPH_MAX_RING
                                                          : (size_t)frames_in_flight;
    if (pool && ct_pool_threads(pool) > 1) {
        size_t ring = ct_pipeline_ring_size(pool);
        return ring > CT_OPUS_GRAPH_MAX_RING ? CT_OPUS_GRAPH_MAX_RING : ring;
    }
    return 0;
}

static uint64_t now_ns(void)
{
    return (uint64_t)(ct_clock_seconds() * 1e9);
}

static uint64_t trace_begin(const ct_opus_graph *g)
{
    return g->tracing ? now_ns() : 0;
}

static void trace_end(ct_opus_graph *g, ct_opus_graph_node node, uint64_t t0)
{
    if (g->tracing)
        atomic_fetch_add_explicit(&g->busy_ns[node], now_ns() - t0,
                                  memory_order_relaxed);
}

/* The signal ring */

static float *pcm_at_position(const ct_opus_graph *g, int64_t position)
{
    return &g->pcm[(size_t)(position % g->pcm_len) * (size_t)g->channels];
}

/* Samples [position, position + n) of the signal ring from src
 * (interleaved), mirror included. */
static void pcm_write(ct_opus_graph *g, int64_t position, const float *src, int64_t n)
{
    const size_t ch = (size_t)g->channels;
    while (n > 0) {
        int64_t index = position % g->pcm_len;
        int64_t run = g->pcm_len - index < n ? g->pcm_len - index : n;
        memcpy(&g->pcm[(size_t)index * ch], src, (size_t)run * ch * sizeof(float));
        if (index < CT_OPUS_GRAPH_MIRROR) {
            int64_t m = CT_OPUS_GRAPH_MIRROR - index < run ? CT_OPUS_GRAPH_MIRROR - index : run;
            memcpy(&g->pcm[(size_t)(g->pcm_len + index) * ch], src,
                   (size_t)m * ch * sizeof(float));
        }
        position += run;
        src += (size_t)run * ch;
        n -= run;
    }
}

/* What the analysis reads: the frame's call's samples from offset on. */
typedef struct analysis_source {
    const ct_opus_graph *g;
    int64_t start;
} analysis_source;

static const float *analysis_pcm_at(const void *ctx, int offset)
{
    const analysis_source *src = ctx;
    return pcm_at_position(src->g, src->start + offset);
}

/* The nodes */

static int node_resample(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_opus_graph *g = ctx;
    const frame_slot *s = &g->slots[slot];
    const size_t ch = (size_t)g->channels;
    int64_t position = s->resample_first;
    uint64_t t0 = trace_begin(g);
    (void)frame;
    (void)worker;
    while (position < s->resample_end) {
        int64_t index = position % g->pcm_len;
        int64_t run = s->resample_end - position;
        size_t c;
        if (run > g->pcm_len - index)
            run = g->pcm_len - index;
        for (c = 0; c < ch; c++)
            ct_resampler_block(g->re, g->in_ring + c * g->in_stride, (size_t)g->in_len,
                               position, (int)run, &g->pcm[(size_t)index * ch + c], (int)ch);
        if (index < CT_OPUS_GRAPH_MIRROR) {
            int64_t m = CT_OPUS_GRAPH_MIRROR - index < run ? CT_OPUS_GRAPH_MIRROR - index : run;
            memcpy(&g->pcm[(size_t)(g->pcm_len + index) * ch], &g->pcm[(size_t)index * ch],
                   (size_t)m * ch * sizeof(float));
        }
        position += run;
    }
    trace_end(g, CT_OPUS_NODE_RESAMPLE, t0);
    return CT_OK;
}

static void analyse(ct_opus_graph *g, frame_slot *s)
{
    analysis_source src = {g, s->frame.start};
    ct_opus_ms_analysis_write(g->codec, analysis_pcm_at, &src, s->frame.buffered,
                              s->frame.frame_size, s->views);
}

static int node_analysis(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_opus_graph *g = ctx;
    uint64_t t0 = trace_begin(g);
    (void)frame;
    (void)worker;
    if (!g->analysis_inline)
        analyse(g, &g->slots[slot]);
    trace_end(g, CT_OPUS_NODE_ANALYSIS, t0);
    return CT_OK;
}

/* The Signal node's prediction of the chain after frame. */
static void predicted(ct_opus_graph *g, int st, uint64_t frame, const ct_celt_signal_chain *chain)
{
    signal_prediction *p = &g->sig_pred[(size_t)st * g->ring + frame % g->ring];
    p->frame_plus1 = frame + 1;
    p->chain = *chain;
}

/* Before the Signal node computes frame of stream st: Encode's last sync.
 * Where the chain Encode found after a frame P is not the one predicted,
 * or the parameters changed, the node takes Encode's chain and replays the
 * decisions of the frames it computed since (P + 1 .. frame - 1, still in
 * the ring: Encode has not coded them) with the parameters synced. */
static void resync(ct_opus_graph *g, int st, uint64_t frame)
{
    signal_sync sync;
    const signal_prediction *p;
    ct_celt_signal_chain chain;
    uint64_t j;
    int params_changed;
    /* with the analysis inline the views are Encode's: no chain */
    if (g->analysis_inline)
        return;
    pthread_mutex_lock(&g->sync_lock);
    sync = g->sync[st];
    pthread_mutex_unlock(&g->sync_lock);
    if (sync.frame_plus1 <= g->sig_synced[st])
        return;
    g->sig_synced[st] = sync.frame_plus1;
    params_changed = sync.seen && memcmp(&sync.params, &g->sig_params[st],
                                         sizeof(sync.params)) != 0;
    if (sync.seen)
        g->sig_params[st] = sync.params;
    p = &g->sig_pred[(size_t)st * g->ring + (sync.frame_plus1 - 1) % g->ring];
    if (!params_changed && p->frame_plus1 == sync.frame_plus1 &&
        ct_celt_signal_chain_same(&p->chain, &sync.chain))
        return;
    chain = sync.chain;
    for (j = sync.frame_plus1; j < frame; j++) {
        const ct_opus_codec *codec = &g->codec->streams[st];
        ct_celt_signal_want want;
        memset(&want, 0, sizeof(want));
        want.params = g->sig_params[st];
        want.tonal = codec->user_complexity >= 7 ? &codec->analysis : NULL;
        /* the node's own copy of what it computed for frame j (the ring's
           slot may already hold a later frame) */
        ct_celt_signal_frame_replay(&g->sig[st], &chain,
                                    &g->sig_kept[(size_t)st * g->ring + j % g->ring], &want,
                                    j + 1 == frame, g->codec->dsp);
        predicted(g, st, j, &chain);
    }
    g->sig[st].chain = chain;
}

static int node_signal(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_opus_graph *g = ctx;
    frame_slot *s = &g->slots[slot];
    const int fs = s->frame.frame_size;
    const float *pcm = pcm_at_position(g, s->frame.start);
    const size_t ch = (size_t)g->channels;
    uint64_t t0 = trace_begin(g);
    int st;
    (void)worker;
    for (st = 0; st < g->nsig && fs <= CT_CELT_SIGNAL_MAX_FRAME; st++) {
        const ct_opus_codec *codec = &g->codec->streams[st];
        ct_celt_signal_frame *rec = &s->signal[st];
        ct_celt_signal_want want;
        /* what the frame is likely to use, from the last synced frames:
           the functions run in CELT-only frames (Hybrid frames' pcm is
           faded: never the one assumed); where the pitch search's last
           take-overs missed (the pcm was not the one assumed: stereo faded
           at low rates) both kinds are tried again every SIGNAL_PROBE-th
           frame only. The transient analysis' own misses (the prefilter
           on) come and go: they count only where no pitch search runs. */
        int celt = atomic_load_explicit(&g->sig_mode[st], memory_order_relaxed) ==
                   CT_MODE_CELT_ONLY;
        int probe = frame % SIGNAL_PROBE == 0;
        int pitch = codec->user_complexity >= 5;
        int misses = atomic_load_explicit(
            &g->sig_misses[st][pitch ? CT_OPUS_HIT_PITCH : CT_OPUS_HIT_TRANSIENT],
            memory_order_relaxed);
        int likely = celt && (probe || misses < SIGNAL_MISSES);
        int i, k;
        want.pitch = likely && pitch;
        want.transient = likely && codec->user_complexity >= 1 && !codec->lfe;
        want.mdct = likely;
        want.wrong = g->sig_wrong;
        /* the prefilter on the chain; with the analysis inline the views
           are Encode's, written after this node */
        want.prefilter = want.pitch && !g->analysis_inline;
        want.tonal = codec->user_complexity >= 7 ? &codec->analysis : NULL;
        resync(g, st, frame);
        want.params = g->sig_params[st];
        want.view = &s->views[st];
        /* the stream's channels, as the multistream layer copies them */
        if (g->sig_c2[st] < 0) {
            for (i = 0; i < fs; i++)
                g->sig_x[i] = pcm[(size_t)i * ch + (size_t)g->sig_c1[st]];
        } else {
            for (i = 0; i < fs; i++) {
                g->sig_x[2 * i] = pcm[(size_t)i * ch + (size_t)g->sig_c1[st]];
                g->sig_x[2 * i + 1] = pcm[(size_t)i * ch + (size_t)g->sig_c2[st]];
            }
        }
        ct_celt_signal_frame_compute(&g->sig[st], g->sig_x, fs, &want, g->codec->dsp, rec,
                                     &g->sig_kept[(size_t)st * g->ring + frame % g->ring]);
        predicted(g, st, frame, &g->sig[st].chain);
        for (i = 0; i < rec->ncalls; i++)
            for (k = CT_OPUS_HIT_PREFILTER; k < CT_OPUS_NUM_HIT_KINDS; k++)
                if (rec->calls[i].has[k])
                    atomic_fetch_add_explicit(&g->hits[k][0], 1, memory_order_relaxed);
        if (want.pitch)
            atomic_fetch_add_explicit(&g->hits[CT_OPUS_HIT_PITCH][0], (uint64_t)rec->ncalls,
                                      memory_order_relaxed);
        if (want.transient)
            atomic_fetch_add_explicit(&g->hits[CT_OPUS_HIT_TRANSIENT][0], (uint64_t)rec->ncalls,
                                      memory_order_relaxed);
        if (want.mdct)
            atomic_fetch_add_explicit(&g->hits[CT_OPUS_HIT_MDCT][0], (uint64_t)rec->ncalls,
                                      memory_order_relaxed);
        atomic_fetch_add_explicit(&g->hits[CT_OPUS_HIT_DC_REJECT][0], 1, memory_order_relaxed);
    }
    /* the frame's records are final: Encode may read them from now on */
    atomic_store_explicit(&g->signal_done, frame + 1, memory_order_release);
    trace_end(g, CT_OPUS_NODE_SIGNAL, t0);
    return CT_OK;
}

/* Encode's sync of stream st after frame, for the Signal node. */
static void sync_back(ct_opus_graph *g, int st, uint64_t frame, const ct_celt_signal_frame *rec)
{
    const ct_opus_codec *codec = &g->codec->streams[st];
    ct_celt_signal_chain chain;
    ct_celt_signal_chain_read(&chain, &codec->celt_enc, codec->analysis.read_pos,
                              codec->analysis.read_subframe);
    pthread_mutex_lock(&g->sync_lock);
    g->sync[st].frame_plus1 = frame + 1;
    g->sync[st].chain = chain;
    g->sync[st].seen = rec->tally.seen;
    if (rec->tally.seen) {
        g->sync[st].params = rec->tally.seen_params;
        /* the tapset is the chain's */
        g->sync[st].params.tapset = 0;
    }
    pthread_mutex_unlock(&g->sync_lock);
}

/* The counts of ct_opus_graph_speculations. */
enum { SPEC_POSTED, SPEC_RUN, SPEC_OFFERED, SPEC_TAKEN };

/* The Speculate node's job. */
static void run_speculation(void *arg)
{
    ct_opus_graph *g = arg;
    ct_celt_spec_run(g->spec_job);
    if (g->spec_job->result.valid)
        atomic_fetch_add_explicit(&g->spec_counts[SPEC_RUN], 1, memory_order_relaxed);
}

/* CELT's call in frame N (Encode's thread) where its bands are about to be
 * quantised: frame N + 1's call posted to the Speculate node, where a
 * helper serves, frame N + 1's signal record is final and its call is
 * likely one like this (the same size, all bands, the 48 kHz input whose
 * DC reject the record holds). What is assumed only decides whether the
 * speculation is tried: Encode checks the complete input of the bands.
 *
 * Encode and the speculation take turns (the seed's rule): where frame N's
 * bands were taken over, frame N + 1's speculation would start only now,
 * a whole frame's bands later than Encode's own would, and Encode would wait
 * for it at frame N + 1's bands and post N + 2 only then; so Encode codes
 * frame N + 1's bands itself and posts frame N + 2's where they start. */
static void speculate_next(void *arg, const ct_celt_encoder *celt,
                           const ct_celt_frame_tail *tail, int frame_size, int nb_compr_bytes)
{
    ct_opus_graph *g = arg;
    const uint64_t next = g->encode_frame + 1;
    const ct_opus_codec *codec = &g->codec->streams[0];
    const frame_slot *s = &g->slots[g->encode_frame % g->ring];
    const frame_slot *s1 = &g->slots[next % g->ring];
    ct_celt_spec_job *job = g->spec_job;
    const int C = codec->channels;
    const int delay = CT_CELT_SPEC_DELAY;
    const ct_celt_signal_frame *rec;
    if (celt->spec_taken > 0 || g->spec_frame_plus1 != 0 ||
        !ct_lane_has_helper(g->spec_lane) ||
        atomic_load_explicit(&g->signal_done, memory_order_acquire) < next + 1 ||
        (g->spec_misses >= SIGNAL_MISSES && next % SIGNAL_PROBE != 0))
        return;
    rec = &s1->signal[0];
    if (s->frame.frame_size != frame_size || s1->frame.frame_size != frame_size ||
        frame_size > CT_CELT_SPEC_MAX_N || tail->start != 0 || rec->dc_len != frame_size ||
        rec->dc_channels != C || nb_compr_bytes > CT_CELT_SPEC_MAX_BYTES)
        return;
    job->st = *celt;
    job->tail = *tail;
    job->leftover_guess = CT_CELT_SPEC_LEFTOVER_GUESS;
    job->frame_size = frame_size;
    job->nb_compr_bytes = nb_compr_bytes;
    /* the call's pcm: the delay compensation's samples (the last of frame
       N's), then the frame's DC-rejected input */
    memcpy(job->pcm, &codec->delay_buffer[(size_t)(codec->encoder_buffer - delay) * (size_t)C],
           (size_t)(delay * C) * sizeof(float));
    if (frame_size > delay)
        memcpy(job->pcm + delay * C, rec->dc_out,
               (size_t)((frame_size - delay) * C) * sizeof(float));
    ct_opus_encoder_peek_analysis(&g->codec->streams[0], &s1->views[0], frame_size,
                                  &job->analysis);
    job->signal = &g->slots[next % g->ring].signal[0];
    if (g->spec_wrong) {
        /* an energy history that frame N + 1's coarse energy codes from
           with other symbols (not in intra frames) */
        int i;
        for (i = 0; i < CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS; i++)
            job->st.oldBandE[i] += 6.f;
    }
    ct_celt_seed_cell_rearm(&job->seed);
    g->spec_frame_plus1 = next + 1;
    atomic_fetch_add_explicit(&g->spec_counts[SPEC_POSTED], 1, memory_order_relaxed);
    ct_lane_post(g->spec_lane, run_speculation, g);
}

/* CELT's calls in frame N + 1 where their bands start (the first one
 * that asks): the speculation of frame N + 1's bands once the Speculate
 * node is done with it, where it ran to its end. */
static const ct_celt_spec_result *claim_speculation(void *arg)
{
    ct_opus_graph *g = arg;
    if (g->spec_frame_plus1 != g->encode_frame + 1)
        return NULL;
    ct_lane_complete(g->spec_lane);
    g->spec_frame_plus1 = 0;
    if (!g->spec_job->result.valid)
        return NULL;
    g->spec_offered = true;
    atomic_fetch_add_explicit(&g->spec_counts[SPEC_OFFERED], 1, memory_order_relaxed);
    return &g->spec_job->result;
}

/* Encode, before frame: its CELT calls claim the speculation of their
 * bands and post the next frame's. */
static void speculation_begin(ct_opus_graph *g, uint64_t frame)
{
    ct_celt_encoder *celt = &g->codec->streams[0].celt_enc;
    g->encode_frame = frame;
    celt->spec_claim = claim_speculation;
    celt->spec_post = speculate_next;
    celt->spec_arg = g;
    celt->spec_taken = 0;
    g->spec_offered = false;
}

/* Encode, after frame (coded, or refused with coded < 0): the take-overs
 * counted; a speculation of this frame that no call claimed (no CELT
 * bands) waited for or taken back; a speculation of the next frame that
 * no helper has claimed taken back (Encode codes those bands sooner
 * itself), else its seed published (the final range of the frame's CELT),
 * or abandoned on a refusal; the frame's Speculate returns. */
static void speculation_end(ct_opus_graph *g, uint64_t frame, int coded)
{
    ct_celt_encoder *celt = &g->codec->streams[0].celt_enc;
    atomic_fetch_add_explicit(&g->spec_counts[SPEC_TAKEN], celt->spec_taken,
                              memory_order_relaxed);
    if (celt->spec_taken > 0)
        g->spec_misses = 0;
    else if (g->spec_offered)
        g->spec_misses++;
    celt->spec_claim = NULL;
    celt->spec_post = NULL;
    celt->spec_arg = NULL;
    if (g->spec_frame_plus1 == frame + 1) {
        if (!ct_lane_cancel(g->spec_lane))
            ct_lane_complete(g->spec_lane);
        g->spec_frame_plus1 = 0;
    }
    if (g->spec_frame_plus1 == frame + 2) {
        if (ct_lane_cancel(g->spec_lane))
            g->spec_frame_plus1 = 0;
        else if (coded >= 0)
            ct_celt_seed_cell_publish(&g->spec_job->seed, celt->rng);
        else
            ct_celt_seed_cell_abandon(&g->spec_job->seed);
    }
    ct_lane_close(g->spec_lane, frame + 1);
}

static int node_encode(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_opus_graph *g = ctx;
    frame_slot *s = &g->slots[slot];
    uint64_t t0 = trace_begin(g);
    int st, k;
    (void)worker;
    if (g->analysis_inline)
        analyse(g, s);
    if (g->speculate)
        speculation_begin(g, frame);
    if (g->nsig)
        ct_opus_ms_offer_signal(g->codec, s->signal, g->nsig);
    if (g->theta_helper)
        ct_opus_ms_offer_theta_lane(g->codec, g->theta_lane);
    s->nbytes = ct_opus_ope_code_frame(g->stream, pcm_at_position(g, s->frame.start), &s->frame,
                                       s->views, s->packet);
    if (g->theta_helper) {
        /* the frame's Theta returns, whatever the codec said */
        ct_opus_ms_offer_theta_lane(g->codec, NULL);
        ct_lane_close(g->theta_lane, frame + 1);
    }
    if (g->speculate)
        speculation_end(g, frame, s->nbytes);
    if (g->nsig) {
        ct_opus_ms_offer_signal(g->codec, NULL, 0);
        for (st = 0; st < g->nsig; st++) {
            const ct_celt_signal_frame *rec = &s->signal[st];
            for (k = 0; k < CT_OPUS_NUM_HIT_KINDS; k++) {
                atomic_fetch_add_explicit(&g->hits[k][1], rec->tally.needed[k], memory_order_relaxed);
                atomic_fetch_add_explicit(&g->hits[k][2], rec->tally.taken[k], memory_order_relaxed);
                /* the sync back of the outcome: a computed record that
                   missed, or one that hit */
                if (rec->ncalls > 0 && rec->calls[0].has[k] && rec->tally.needed[k] > 0) {
                    int misses = rec->tally.taken[k] > 0 ? 0
                                                   : atomic_load_explicit(&g->sig_misses[st][k],
                                                                          memory_order_relaxed) +
                                                         1;
                    atomic_store_explicit(&g->sig_misses[st][k], misses, memory_order_relaxed);
                }
            }
            /* the sync back: the mode the Signal node assumes from now on,
               the chain as it is and the prefilter's parameters */
            atomic_store_explicit(&g->sig_mode[st], g->codec->streams[st].mode,
                                  memory_order_relaxed);
            sync_back(g, st, frame, rec);
        }
    }
    trace_end(g, CT_OPUS_NODE_ENCODE, t0);
    /* a refusal stops the ring; the caller fails the stream with it */
    return s->nbytes < 0 ? CT_EINVAL : CT_OK;
}

/* Node Theta: the frame's theta trials that it claims, until Encode
 * closes the frame (its time waiting for them counts as busy: it holds the
 * worker). On one worker it runs after Encode and returns at once. */
static int node_theta(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_opus_graph *g = ctx;
    uint64_t t0 = trace_begin(g);
    (void)slot;
    (void)worker;
    ct_lane_serve(g->theta_lane, frame + 1);
    trace_end(g, CT_OPUS_NODE_THETA, t0);
    return CT_OK;
}

/* Node Speculate: the speculation Encode posts in the frame, where it
 * claims it first, until Encode closes the frame (its time waiting counts
 * as busy: it holds the worker). On one worker it runs after Encode and
 * returns at once. */
static int node_speculate(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_opus_graph *g = ctx;
    uint64_t t0 = trace_begin(g);
    (void)slot;
    (void)worker;
    ct_lane_serve(g->spec_lane, frame + 1);
    trace_end(g, CT_OPUS_NODE_SPECULATE, t0);
    return CT_OK;
}

static const ct_pipeline_stage stages_plain[] = {
    {node_resample, CT_PIPELINE_PARALLEL},
    {node_analysis, CT_PIPELINE_SERIAL},
    {node_signal, CT_PIPELINE_SERIAL},
    {node_encode, CT_PIPELINE_SERIAL},
};

static const ct_pipeline_stage stages_theta[] = {
    {node_resample, CT_PIPELINE_PARALLEL},
    {node_analysis, CT_PIPELINE_SERIAL},
    {node_signal, CT_PIPELINE_SERIAL},
    {node_encode, CT_PIPELINE_SERIAL},
    {node_theta, CT_PIPELINE_COMPANION},
};

static const ct_pipeline_stage stages_spec[] = {
    {node_resample, CT_PIPELINE_PARALLEL},
    {node_analysis, CT_PIPELINE_SERIAL},
    {node_signal, CT_PIPELINE_SERIAL},
    {node_encode, CT_PIPELINE_SERIAL},
    {node_speculate, CT_PIPELINE_COMPANION},
};

/* Set-up */

ct_opus_graph *ct_opus_graph_new(ct_pool *pool, size_t ring, int rate, int channels)
{
    ct_opus_graph *g;
    if (ring < 1 || ring > CT_OPUS_GRAPH_MAX_RING)
        return NULL;
    g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    if (pthread_mutex_init(&g->sync_lock, NULL) != 0) {
        free(g);
        return NULL;
    }
    g->pool = pool ? ct_pool_ref(pool) : NULL;
    g->ring = ring;
    g->rate = rate;
    g->channels = channels;
    g->slots = calloc(ring, sizeof(*g->slots));
    g->pipeline_plain = ct_pipeline_new(
        pool, stages_plain, (int)(sizeof(stages_plain) / sizeof(stages_plain[0])), ring, g);
    g->pipeline_theta = ct_pipeline_new(
        pool, stages_theta, (int)(sizeof(stages_theta) / sizeof(stages_theta[0])), ring, g);
    g->pipeline_spec = ct_pipeline_new(
        pool, stages_spec, (int)(sizeof(stages_spec) / sizeof(stages_spec[0])), ring, g);
    g->pipeline = g->pipeline_plain;
    g->theta_lane = ct_lane_new();
    g->spec_lane = ct_lane_new();
    g->spec_job = malloc(sizeof(*g->spec_job));
    g->spec_cell = g->spec_job && ct_celt_seed_cell_init(&g->spec_job->seed) == 0;
    /* everything counted and not yet coded, plus an input step's worth */
    g->pcm_len = CT_OPE_MAX_BUFFERED + (int64_t)ring * 2880 + 8 * INPUT_STEP;
    g->pcm = malloc((size_t)(g->pcm_len + CT_OPUS_GRAPH_MIRROR) * (size_t)channels *
                    sizeof(float));
    g->scratch_frames = 8 * INPUT_STEP + 2 * CT_OPUS_GRAPH_MIRROR;
    g->scratch = malloc(g->scratch_frames * (size_t)channels * sizeof(float));
    if (!g->slots || !g->pipeline_plain || !g->pipeline_theta || !g->pipeline_spec ||
        !g->theta_lane || !g->spec_lane || !g->spec_cell || !g->pcm || !g->scratch) {
        ct_opus_graph_free(g);
        return NULL;
    }
    return g;
}

static void free_stream_parts(ct_opus_graph *g)
{
    size_t i;
    for (i = 0; i < g->ring; i++) {
        free(g->slots[i].views);
        free(g->slots[i].packet);
        free(g->slots[i].signal);
        g->slots[i].views = NULL;
        g->slots[i].packet = NULL;
        g->slots[i].signal = NULL;
    }
    free(g->in_ring);
    g->in_ring = NULL;
    free(g->sig);
    free(g->sig_x);
    free(g->sig_pred);
    free(g->sig_kept);
    g->sig_kept = NULL;
    g->sig = NULL;
    g->sig_x = NULL;
    g->sig_pred = NULL;
    g->nsig = 0;
}

void ct_opus_graph_free(ct_opus_graph *g)
{
    if (!g)
        return;
    ct_opus_graph_stop(g);
    ct_pipeline_free(g->pipeline_plain);
    ct_pipeline_free(g->pipeline_theta);
    ct_pipeline_free(g->pipeline_spec);
    ct_lane_free(g->theta_lane);
    ct_lane_free(g->spec_lane);
    if (g->spec_cell)
        ct_celt_seed_cell_destroy(&g->spec_job->seed);
    free(g->spec_job);
    free_stream_parts(g);
    free(g->slots);
    free(g->pcm);
    free(g->scratch);
    ct_pool_unref(g->pool);
    pthread_mutex_destroy(&g->sync_lock);
    free(g);
}

void ct_opus_graph_force(ct_opus_graph *g, unsigned flags)
{
    g->force = flags;
    if (g->stream && g->taken == 0)
        ct_opus_graph_start(g, g->stream);
}

int ct_opus_graph_start(ct_opus_graph *g, ct_ogg_opus_enc *stream)
{
    const ct_resampler *re = ct_opus_ope_encoder_resampler(stream);
    int nb_streams;
    size_t i;

    ct_opus_graph_stop(g);
    free_stream_parts(g);
    g->stream = stream;
    g->codec = ct_opus_ope_encoder_codec(stream);
    nb_streams = g->codec->layout.nb_streams;
    g->analysis_inline = (g->force & CT_OPUS_GRAPH_ANALYSIS_INLINE) != 0;
    /* the Theta node: where the theta search runs, on enough workers */
    g->theta_helper = (g->force & CT_OPUS_GRAPH_THETA_HELPER) != 0;
    if (g->pool && ct_pool_threads(g->pool) >= THETA_HELPER_MIN_THREADS)
        for (i = 0; (int)i < g->codec->layout.nb_coupled_streams; i++)
            if (g->codec->streams[i].user_complexity >= 8)
                g->theta_helper = true;
    g->re = NULL;
    g->re_inline = NULL;
    if (re && (g->force & CT_OPUS_GRAPH_RESAMPLE_INLINE))
        g->re_inline = (ct_resampler *)re;
    else
        g->re = re;
    /* the Signal node: the first streams that code as it assumes (48 kHz,
       application audio: dc_reject, 192 samples of delay compensation) */
    g->nsig = 0;
    g->sig_wrong = (g->force & CT_OPUS_GRAPH_SIGNAL_WRONG) != 0;
    if (!(g->force & CT_OPUS_GRAPH_SIGNAL_INLINE))
        while (g->nsig < nb_streams && g->nsig < SIGNAL_MAX_STREAMS) {
            const ct_opus_codec *codec = &g->codec->streams[g->nsig];
            if (codec->Fs != 48000 || codec->application == CT_OPUS_APPLICATION_VOIP ||
                codec->delay_compensation != 192)
                break;
            ct_opus_ms_stream_channels(g->codec, g->nsig, &g->sig_c1[g->nsig],
                                       &g->sig_c2[g->nsig]);
            g->nsig++;
        }
    /* the Speculate node: one CELT stream whose records the Signal node
       computes, with the analysis ahead (the job reads the next frame's
       view); in place of the Theta node */
    g->speculate = false;
    if (nb_streams == 1 && g->nsig == 1 && !g->analysis_inline &&
        ((g->force & CT_OPUS_GRAPH_SPECULATE) ||
         (g->pool && ct_pool_threads(g->pool) >= SPECULATE_MIN_THREADS)))
        g->speculate = true;
    g->spec_wrong = (g->force & CT_OPUS_GRAPH_SPECULATE_WRONG) != 0;
    if (g->speculate)
        g->theta_helper = false;
    g->pipeline = g->speculate      ? g->pipeline_spec
                  : g->theta_helper ? g->pipeline_theta
                                    : g->pipeline_plain;
    g->spec_frame_plus1 = 0;
    g->spec_misses = 0;
    atomic_store(&g->signal_done, 0);
    for (i = 0; i < 4; i++)
        atomic_store(&g->spec_counts[i], 0);
    for (i = 0; i < CT_OPUS_NUM_HIT_KINDS; i++) {
        atomic_store(&g->hits[i][0], 0);
        atomic_store(&g->hits[i][1], 0);
        atomic_store(&g->hits[i][2], 0);
    }
    if (g->nsig) {
        int st;
        g->sig = malloc((size_t)g->nsig * sizeof(*g->sig));
        g->sig_x = malloc((size_t)2 * CT_CELT_SIGNAL_MAX_FRAME * sizeof(float));
        g->sig_pred = calloc((size_t)g->nsig * g->ring, sizeof(*g->sig_pred));
        g->sig_kept = calloc((size_t)g->nsig * g->ring, sizeof(*g->sig_kept));
        if (!g->sig || !g->sig_x || !g->sig_pred || !g->sig_kept)
            return CT_OPE_ALLOC_FAIL;
        for (st = 0; st < g->nsig; st++) {
            ct_celt_signal_init(&g->sig[st], g->sig_c2[st] < 0 ? 1 : 2);
            /* nothing synced: the prefilter as the codec's settings start
               it (Encode's first sync corrects what differs) */
            memset(&g->sync[st], 0, sizeof(g->sync[st]));
            g->sig_synced[st] = 0;
            memset(&g->sig_params[st], 0, sizeof(g->sig_params[st]));
            g->sig_params[st].enabled = 1;
            g->sig_params[st].spread_runs = 1;
            g->sig_params[st].eff_end = CT_CELT_NB_EBANDS;
            g->sig_params[st].C = g->sig_c2[st] < 0 ? 1 : 2;
            /* no frame coded yet: assume CELT */
            atomic_store(&g->sig_mode[st], CT_MODE_CELT_ONLY);
            for (i = 0; i < CT_OPUS_NUM_HIT_KINDS; i++)
                atomic_store(&g->sig_misses[st][i], 0);
        }
    }
    g->taken = g->counted = g->assigned = g->next_start = 0;
    g->count_limit = INT64_MAX;
    g->pushed = 0;
    for (i = 0; i < g->ring; i++) {
        g->slots[i].views = calloc((size_t)nb_streams, sizeof(*g->slots[i].views));
        g->slots[i].packet = malloc((size_t)ct_opus_ope_max_packet(stream));
        if (!g->slots[i].views || !g->slots[i].packet)
            return CT_OPE_ALLOC_FAIL;
        if (g->nsig) {
            g->slots[i].signal = calloc((size_t)g->nsig, sizeof(*g->slots[i].signal));
            if (!g->slots[i].signal)
                return CT_OPE_ALLOC_FAIL;
        }
    }
    if (g->re) {
        /* the input of everything the signal ring holds, and the filter's
           span on both sides */
        g->filt_len = (int)g->re->filt_len;
        g->in_len = (g->pcm_len + 1) * (int64_t)g->re->num_rate / g->re->den_rate +
                    2 * (int64_t)g->filt_len + 16;
        g->in_stride = (size_t)(g->in_len + g->filt_len - 1);
        g->in_ring = calloc(g->in_stride * (size_t)g->channels, sizeof(float));
        if (!g->in_ring)
            return CT_OPE_ALLOC_FAIL;
    }
    return CT_OPE_OK;
}

void ct_opus_graph_stop(ct_opus_graph *g)
{
    if (g->pipeline)
        ct_pipeline_reset(g->pipeline);
    /* no Theta node runs now: the tickets restart with the frames */
    if (g->theta_lane)
        ct_lane_reset(g->theta_lane);
    if (g->spec_lane)
        ct_lane_reset(g->spec_lane);
    g->spec_frame_plus1 = 0;
    atomic_store(&g->signal_done, 0);
}

/* Node Input: the caller's thread */

/* The first 48 kHz sample a frame in flight still reads, and the first
 * input sample (in the input ring's terms) a frame's Resample still
 * reads: the oldest frame's, or the next frame's when none is in flight. */
static int64_t oldest_start(const ct_opus_graph *g)
{
    if (ct_pipeline_in_flight(g->pipeline) == 0)
        return g->next_start;
    return g->slots[(g->pushed - ct_pipeline_in_flight(g->pipeline)) % g->ring].frame.start;
}

static int64_t oldest_resample(const ct_opus_graph *g)
{
    if (ct_pipeline_in_flight(g->pipeline) == 0)
        return g->assigned;
    return g->slots[(g->pushed - ct_pipeline_in_flight(g->pipeline)) % g->ring].resample_first;
}

/* The ring stopped on the codec's refusal of a frame (Encode keeps its
 * code in the frame's slot; nothing runs after it): the stream fails as
 * the sequential path's does. */
static int ring_failed(ct_opus_graph *g)
{
    size_t i;
    for (i = 0; i < g->ring; i++)
        if (g->slots[i].nbytes < 0) {
            ct_opus_ope_frame_failed(g->stream, &g->slots[i].frame, g->slots[i].nbytes);
            return CT_OPE_INTERNAL_ERROR;
        }
    return CT_OPE_INTERNAL_ERROR;
}

/* The oldest frame's packet to the stream once it is finished (waiting for
 * it with `wait`): *done says whether one was. */
static int commit_oldest(ct_opus_graph *g, bool wait, bool *done)
{
    size_t slot;
    frame_slot *s;
    unsigned char *packet;
    uint64_t t0;
    int ret = ct_pipeline_peek(g->pipeline, wait, NULL, &slot);
    *done = false;
    if (ret == CT_EAGAIN)
        return CT_OPE_OK;
    if (ret != CT_OK)
        return ring_failed(g);
    t0 = trace_begin(g);
    s = &g->slots[slot];
    packet = ct_opus_ope_packet_buffer(g->stream);
    if (!packet)
        return CT_OPE_ALLOC_FAIL;
    memcpy(packet, s->packet, (size_t)s->nbytes);
    ret = ct_opus_ope_commit_frame(g->stream, &s->frame, packet, s->nbytes);
    ct_pipeline_pop(g->pipeline);
    trace_end(g, CT_OPUS_NODE_INPUT, t0);
    *done = true;
    return ret;
}

int ct_opus_graph_collect(ct_opus_graph *g)
{
    bool done = true;
    int ret = CT_OPE_OK;
    while (done && ret == CT_OPE_OK && ct_pipeline_in_flight(g->pipeline) > 0)
        ret = commit_oldest(g, false, &done);
    return ret;
}

/* Makes room: the oldest frame's packet out, waiting for it. The rings
 * are sized so that there is always one when room is needed. */
static int wait_oldest(ct_opus_graph *g)
{
    bool done;
    if (ct_pipeline_in_flight(g->pipeline) == 0)
        return CT_OPE_INTERNAL_ERROR;
    return commit_oldest(g, true, &done);
}

/* Every frame the counted samples make due, pushed. */
static int push_due_frames(ct_opus_graph *g)
{
    for (;;) {
        ct_ope_frame frame;
        frame_slot *s;
        int ret;
        uint64_t t0 = trace_begin(g);
        if (!ct_opus_ope_next_frame(g->stream, (int)(g->counted - g->next_start), &frame)) {
            trace_end(g, CT_OPUS_NODE_INPUT, t0);
            return CT_OPE_OK;
        }
        trace_end(g, CT_OPUS_NODE_INPUT, t0);
        if (ct_pipeline_in_flight(g->pipeline) == g->ring && (ret = wait_oldest(g)) != CT_OPE_OK)
            return ret;
        t0 = trace_begin(g);
        s = &g->slots[ct_pipeline_next_slot(g->pipeline)];
        s->frame = frame;
        s->resample_first = g->assigned;
        s->resample_end = g->re ? g->counted : g->assigned;
        s->nbytes = 0;
        g->assigned = g->counted;
        g->next_start = frame.start + frame.frame_size;
        ret = ct_pipeline_push(g->pipeline);
        trace_end(g, CT_OPUS_NODE_INPUT, t0);
        if (ret != CT_OK)
            return ring_failed(g);
        g->pushed++;
    }
}

/* How many of n input samples fit now: their 48 kHz samples in the signal
 * ring, their input in the input ring. */
static int64_t input_room(const ct_opus_graph *g, int64_t n)
{
    int64_t take = n < INPUT_STEP ? n : INPUT_STEP;
    int64_t pcm_limit = oldest_start(g) + g->pcm_len;
    while (take > 0) {
        int64_t counted;
        if (g->re)
            counted = ct_resampler_outputs(g->re, g->taken + take);
        else if (g->re_inline)
            counted = ct_resampler_outputs(g->re_inline, g->taken + take);
        else
            counted = g->taken + take;
        if (counted > g->count_limit)
            counted = g->count_limit;
        if (counted <= pcm_limit &&
            (!g->re || g->filt_len - 1 + g->taken + take <=
                           ct_resampler_input_start(g->re, oldest_resample(g)) + g->in_len) &&
            (!g->re_inline || counted - g->counted <= (int64_t)g->scratch_frames))
            break;
        take /= 2;
    }
    return take;
}

/* Input samples into the rings: the input ring (Resample's), or through
 * the stream's resampler or as they are into the signal ring. */
static int append_input(ct_opus_graph *g, const float *pcm, int64_t n)
{
    const size_t ch = (size_t)g->channels;
    if (g->re) {
        /* the ring's index of the first sample, then one on */
        int64_t index = (g->filt_len - 1 + g->taken) % g->in_len;
        int64_t i;
        for (i = 0; i < n; i++) {
            size_t c;
            for (c = 0; c < ch; c++) {
                float v = pcm[(size_t)i * ch + c];
                g->in_ring[c * g->in_stride + (size_t)index] = v;
                if (index < g->filt_len - 1)
                    g->in_ring[c * g->in_stride + (size_t)(g->in_len + index)] = v;
            }
            if (++index == g->in_len)
                index = 0;
        }
        g->taken += n;
        g->counted = ct_resampler_outputs(g->re, g->taken);
        if (g->counted > g->count_limit)
            g->counted = g->count_limit;
    } else if (g->re_inline) {
        uint32_t in_samples = (uint32_t)n;
        uint32_t out_samples = (uint32_t)g->scratch_frames;
        ct_resampler_process_interleaved_float(g->re_inline, pcm, &in_samples, g->scratch,
                                               &out_samples);
        if ((int64_t)in_samples != n)
            return CT_OPE_INTERNAL_ERROR;
        pcm_write(g, g->counted, g->scratch, out_samples);
        g->taken += n;
        g->counted += out_samples;
        g->assigned = g->counted;
    } else {
        pcm_write(g, g->counted, pcm, n);
        g->taken += n;
        g->counted += n;
        g->assigned = g->counted;
    }
    return CT_OPE_OK;
}

/* Samples through Input: into the rings as room allows, the frames they
 * make due pushed (with push), the oldest awaited where there is no room. */
static int feed(ct_opus_graph *g, const float *pcm, int64_t n, bool push)
{
    while (n > 0) {
        int64_t take = input_room(g, n);
        uint64_t t0;
        int ret;
        if (take == 0) {
            if ((ret = wait_oldest(g)) != CT_OPE_OK)
                return ret;
            continue;
        }
        t0 = trace_begin(g);
        ret = append_input(g, pcm, take);
        trace_end(g, CT_OPUS_NODE_INPUT, t0);
        if (ret != CT_OPE_OK)
            return ret;
        pcm += (size_t)take * (size_t)g->channels;
        n -= take;
        if (push && (ret = push_due_frames(g)) != CT_OPE_OK)
            return ret;
    }
    return CT_OPE_OK;
}

int ct_opus_graph_write_float(ct_opus_graph *g, const float *pcm, int samples_per_channel)
{
    int ret = ct_opus_ope_write_begin(g->stream, pcm, samples_per_channel);
    if (ret != CT_OPE_OK)
        return ret;
    ret = feed(g, pcm, samples_per_channel, true);
    if (ret == CT_OPE_OK)
        ret = ct_opus_graph_collect(g);
    return ret;
}

/* The drain's padding of pad_samples 48 kHz samples: the stream's LPC
 * extension at the input rate, then zeros, as the stream's resampler turns
 * them; at 48 kHz the extension of the signal itself. No frame is planned
 * until the padding is in (drain plans them with its own rules). */
static int pad(ct_opus_graph *g, int pad_samples)
{
    const size_t ch = (size_t)g->channels;
    int ret;
    if (g->re) {
        /* the padding's outputs from the extended input: as far as the
           last of them reads, and not one output more */
        const float *ext = ct_opus_ope_lpc_extension(g->stream);
        int64_t end = g->counted + pad_samples;
        int64_t needed = ct_resampler_input_start(g->re, end - 1) + 1 - g->taken;
        int64_t lpc = needed < 120 ? needed : 120;
        g->count_limit = end;
        ret = feed(g, ext, lpc, false);
        memset(g->scratch, 0, (size_t)INPUT_STEP * ch * sizeof(float));
        for (needed -= lpc; ret == CT_OPE_OK && needed > 0; needed -= INPUT_STEP)
            ret = feed(g, g->scratch, needed < INPUT_STEP ? needed : INPUT_STEP, false);
        return ret;
    }
    if (g->re_inline) {
        /* drain's loop: the extension, then zeros, until the padding is
           out */
        float *in = g->scratch, *out = g->scratch + (size_t)120 * ch;
        memcpy(in, ct_opus_ope_lpc_extension(g->stream), (size_t)120 * ch * sizeof(float));
        while (pad_samples > 0) {
            uint32_t in_samples = 120;
            uint32_t out_samples = (uint32_t)pad_samples;
            ct_resampler_process_interleaved_float(g->re_inline, in, &in_samples, out,
                                                   &out_samples);
            pcm_write(g, g->counted, out, out_samples);
            g->counted += out_samples;
            g->assigned = g->counted;
            pad_samples -= (int)out_samples;
            memset(in, 0, (size_t)120 * ch * sizeof(float));
        }
        return CT_OPE_OK;
    }
    {
        int before = g->counted < 480 ? (int)g->counted : 480;
        float *x = g->scratch + (size_t)before * ch;
        int i;
        for (i = 0; i < before; i++)
            memcpy(g->scratch + (size_t)i * ch, pcm_at_position(g, g->counted - before + i),
                   ch * sizeof(float));
        memset(x, 0, (size_t)pad_samples * ch * sizeof(float));
        ct_opus_ope_extend_signal(x, before, 120, g->channels);
        return feed(g, x, pad_samples, false);
    }
}

int ct_opus_graph_drain(ct_opus_graph *g)
{
    int pad_samples;
    int ret = ct_opus_ope_drain_begin(g->stream, &pad_samples);
    if (ret != CT_OPE_OK)
        return ret;
    /* drain's check of the buffer's room cannot fail: at most a frame and
       the decision delay are buffered, and the padding is short */
    ret = pad(g, pad_samples);
    if (ret != CT_OPE_OK)
        return ret;
    ct_opus_ope_drain_end(g->stream);
    if ((ret = push_due_frames(g)) != CT_OPE_OK)
        return ret;
    while (ct_pipeline_in_flight(g->pipeline) > 0)
        if ((ret = wait_oldest(g)) != CT_OPE_OK)
            return ret;
    /* Draining should have completed the stream. */
    return ct_opus_ope_encoder_open(g->stream) ? CT_OPE_INTERNAL_ERROR : CT_OPE_OK;
}

/* The trace */

int ct_opus_graph_trace(ct_opus_graph *g, bool on)
{
    int i;
    g->tracing = on;
    for (i = 0; i < CT_OPUS_NUM_NODES; i++)
        atomic_store(&g->busy_ns[i], 0);
    return CT_OK;
}

void ct_opus_graph_trace_read(const ct_opus_graph *g, double seconds[CT_OPUS_NUM_NODES],
                              uint64_t *frames)
{
    int i;
    for (i = 0; i < CT_OPUS_NUM_NODES; i++)
        seconds[i] = (double)atomic_load(&g->busy_ns[i]) * 1e-9;
    if (frames)
        *frames = g->pushed;
}

/* The Signal node's take-overs */

static const char *const hit_names[CT_OPUS_NUM_HIT_KINDS] = {
    "pitch", "transient", "dc_reject", "mdct", "prefilter", "bands", "dynalloc", "tf"};

const char *ct_opus_graph_hit_name(ct_opus_graph_hit_kind kind)
{
    return (unsigned)kind < CT_OPUS_NUM_HIT_KINDS ? hit_names[kind] : "?";
}

void ct_opus_graph_hits(const ct_opus_graph *g, ct_opus_graph_hit_kind kind, uint64_t *computed,
                        uint64_t *needed, uint64_t *taken)
{
    uint64_t v[3] = {0, 0, 0};
    int i;
    if ((unsigned)kind < CT_OPUS_NUM_HIT_KINDS)
        for (i = 0; i < 3; i++)
            v[i] = atomic_load(&((ct_opus_graph *)g)->hits[kind][i]);
    if (computed)
        *computed = v[0];
    if (needed)
        *needed = v[1];
    if (taken)
        *taken = v[2];
}

void ct_opus_graph_theta_trials(const ct_opus_graph *g, uint64_t *helper, uint64_t *taken_back)
{
    ct_lane_counts(g->theta_lane, helper, taken_back);
}

void ct_opus_graph_speculations(const ct_opus_graph *g, uint64_t *posted, uint64_t *run,
                                uint64_t *offered, uint64_t *taken)
{
    ct_opus_graph *m = (ct_opus_graph *)g;
    if (posted)
        *posted = atomic_load(&m->spec_counts[SPEC_POSTED]);
    if (run)
        *run = atomic_load(&m->spec_counts[SPEC_RUN]);
    if (offered)
        *offered = atomic_load(&m->spec_counts[SPEC_OFFERED]);
    if (taken)
        *taken = atomic_load(&m->spec_counts[SPEC_TAKEN]);
}
