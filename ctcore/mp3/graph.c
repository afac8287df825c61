/*
 * The frames of an MP3 stream: the sequential chain on one worker (at the
 * end of this comment), else the frame ring: one stream spread over the
 * pool's workers, frame by frame, as an ordered pipeline
 * (runtime/pipeline.h) over a ring of slots. Each frame takes one slot
 * (ct_mp3_frame_slot, graph.h: its per-frame record) from Dispatch to the
 * consumer and passes the nodes in order; a
 * serial node takes the frames one at a time in frame order and is the
 * only one that carries state from frame to frame, a parallel node (×N)
 * takes any frames at once and carries nothing that reaches the bytes
 * (CBR/ABR's speculation takes a hint from the previous frame's, a guess
 * Encode checks). The edges are the slot's fields.
 *
 *   PCM
 *    │    encoder.c, input.c, caller's thread: chunks of one frame's length,
 *    │    lame_encode_buffer's transform, fill_buffer / resampling,
 *    │    ReplayGain (carries: resampler, mfbuf, the ReplayGain filters)
 *   Dispatch ────────── the frame's window into the next slot, push (serial,
 *    │                  the caller's thread: where a frame ends is known
 *    │                  only once fill_buffer has run)
 *   window
 *    │
 *   Prepare ×N ──────── psychoacoustic prepare of both granules (FFTs,
 *    │                  energies, spreading), polyphase of every granule
 *   psy granules, subband samples
 *    │
 *   Decide ──────────── psy decide (attack detection, block types, the
 *    │                  loudness), adjust_ATH, the filterbank's carry,
 *    │                  masking_lower for the next frame (serial; carries
 *    │                  sv_psy but its en and thm, ov_psy,
 *    │                  ATH.adjust_factor/limit, sv_qnt.masking_lower, the
 *    │                  subband samples of the last granule)
 *   decisions, block types, energies, ATH.adjust_factor of the frame
 *    │
 *   Mask ×N ─────────── the masking of both granules as decided: long
 *    │                  block pre-echo, M/S thresholds, partitions to
 *    │                  scalefactor bands (the short blocks where needed)
 *   masking before the short block pre-echo
 *    │
 *   Resolve ─────────── psy finish (the masking one granule late, short
 *    │                  block pre-echo, pe), M/S decision; CBR/ABR: the
 *    │                  frame's padding and its pe through the FIR
 *    │                  (serial; carries sv_psy.en and thm, slot_lag, the
 *    │                  pe FIR)
 *   record, M/S decision
 *    │
 *   Search ×N ───────── VBR: scalefactor search and "as is" quantization;
 *    │                  CBR/ABR: the granules prepared for the loop and
 *    │                  the whole loop run ahead on the worker's scratch
 *    │                  state with a guessed reservoir (quantize.h)
 *   side info, scalefactors, quantized lines; CBR/ABR: the speculation
 *    │
 *   Encode ──────────── padding, CBR/ABR loop (a granule whose target bits
 *    │    ╲             and step size search agree with the speculation
 *    │     ╲            takes its result, any other is searched here) or
 *    │      ╲           VBR commit, reservoir, main data, bitstream, bytes
 *    │       ╲          out, LAME tag accounting (serial; carries its own
 *    │        ╲         state: bit stream, header ring, reservoir,
 *    │         ╲        slot_lag, step search start, seek table, music
 *    │          ╲       CRC)
 *    │        Split ─── beside Encode (CBR/ABR stereo, on enough workers):
 *    │                  the second channel's outer_loop of each granule
 *    │                  whose channels both miss, on its own state, posted
 *    │                  by Encode on a lane (runtime/lane.h,
 *    │                  ct_mp3_loop_split)
 *   bytes ───────────── to the consumer in frame order (encoder.c's FIFO)
 *
 * The state: the encoder's ct_mp3_state (gfc) holds the constants every
 * node reads and the state Dispatch (input.c), Decide and Resolve carry,
 * each in fields no other node touches while frames are in flight (Decide
 * and Resolve share sv_psy: Resolve only its en and thm, which Decide
 * neither reads nor writes, so Decide runs frames ahead of Resolve).
 * Encode carries its state in its own ct_mp3_state, a copy of gfc's bit
 * stream part and quantization part (state.h) taken at the start of the
 * stream: the quantization loops read ATH.adjust_factor, which Decide sets
 * for frames further on, so Encode has its own, set from the frame's
 * record. Each CBR/ABR Search worker has a scratch state, a copy of the
 * quantization part. The copies span whole parts, so a field added to a
 * part is in them; tests/mp3/state.c fills the rest with garbage. The one
 * value that crosses from quantization back to the model, masking_lower,
 * is a function of the rate control and the frame's last block type:
 * Decide sets it (ct_mp3_set_masking_lower), where LAME's loop leaves it,
 * and records, for Mask and Resolve, the value each granule reads.
 *
 * Kernels don't know about tasks: every node below only moves a frame's
 * data between its slot and the state of the node and calls the stages of
 * frame.h, psy.h, mdct.h and quantize.h.
 *
 * The sequential chain: with a pool of one worker (or none) and no ring
 * asked for, there is no ring: Dispatch runs ct_mp3_encode_frame, LAME's
 * lame_encode_mp3_frame, on gfc and hands the bytes to the sink. A ring on
 * one worker (tests, bench) runs every frame through all nodes at its
 * dispatch, which writes the same bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include "graph.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bitstream.h"
#include "frame.h"
#include "../runtime/pipeline.h"
#include "common/clock.h"

/* Node Split beside Encode from this many workers on. It holds a worker
 * for as long as Encode runs and takes Encode's time down by about 13 %
 * (-b 128, metal clip, speculation on every frame: 112 to 98 us/frame,
 * 0.4 granules a frame posted), so it pays only where the other workers
 * keep up without it: with W the other nodes' work per frame (296 us) and
 * E Encode's, from N on where (W + 2 E) / N < E, about 5 workers. On 2
 * workers it took the wall time from 159 to 213 ms (Search could no
 * longer speculate); more workers could not be measured on 2 cores. */
#define SPLIT_MIN_THREADS 6

struct ct_mp3_graph {
    ct_mp3_state *gfc;
    const ct_mp3_config *cfg;
    ct_pipeline *pipeline; /* NULL: the sequential chain */
    /* The ring without node Split and, CBR/ABR stereo, with it: pipeline
     * is one of them. */
    ct_pipeline *pipeline_plain, *pipeline_split;
    size_t ring;           /* 0 on the sequential chain */
    /* The bytes of the sequential chain's frame, or of the bit stream
     * (ct_mp3_graph_bitstream_out), on their way to the sink. */
    unsigned char *out;
    ct_mp3_frame_slot *slots;
    int vbr;           /* VBR: the Search node runs */

    /* Node Dispatch: the window's length, the frames dispatched; the
     * consumer. */
    int window_len;
    uint64_t dispatched;
    ct_mp3_graph_sink sink;
    void *sink_ctx;

    /* Node Prepare: whether it computes the short blocks of every granule
     * (else Mask computes those it needs, as the sequential chain). */
    int with_short;

    /* Node Decide: the filterbank's carry of each frame, the subband
     * samples of the frame before's last granule (sv_enc.sb_sample of the
     * sequential chain), for the frame's Search: frame f's at
     * f % (ring + 1), so that Decide writes the next frame's while the
     * ring's frames may read theirs. */
    float (*sb_carry)[2][18][SBLIMIT];

    /* Node Search, CBR/ABR: each worker's scratch copy of the encoder's
     * state for the speculative loop: its quantization part (state.h,
     * 307 of its 547 KB). The rest (the flags, the bit stream, the model's
     * and ReplayGain's state) is never touched and stays unmapped zeros. */
    ct_mp3_state **scratch;
    int n_scratch;
    /* Speculate on a frame only when it is this many frames or more ahead
     * of Encode (the frames Encode has finished). */
    uint64_t speculate_lag;
    atomic_uint_fast64_t encoded;
    /* Where the latest speculation left the step size search: the frame
     * it is the start for, plus 1 (0: none), in the upper 32 bits, then
     * OldValue and CurrentStep of channel 0 and 1, a byte each. */
    atomic_uint_fast64_t search_end;

    /* Node Encode: its state, a copy of the bit stream part and the
     * quantization part of gfc (state.h); the input and analysis part
     * stays zeros. */
    ct_mp3_state *enc;

    /* Node Split, CBR/ABR stereo: its lane and its state (split.helper, a
     * copy of the quantization part, as Search's scratch), where on. */
    ct_mp3_loop_split split;

    /* Tests (ct_mp3_graph_poison): the byte the parts of the copies that
     * are not copied are filled with, -1 for none. */
    int poison;

    /* The trace (bench/mp3_stages), or NULL: a row per worker, as nodes
     * of one worker index never run at once. */
    struct trace_row {
        double seconds[CT_MP3_NUM_NODES];
        ct_mp3_graph_speculation speculation;
    } *trace;
    int n_workers;
};

/* A node's start for the trace: 0 without one. */
static double trace_start(const ct_mp3_graph *g)
{
    return g->trace != NULL ? ct_clock_seconds() : 0;
}

static void trace_add(ct_mp3_graph *g, int worker, ct_mp3_graph_node node, double start)
{
    if (g->trace != NULL)
        g->trace[worker].seconds[node] += ct_clock_seconds() - start;
}

static ct_mp3_frame_slot *slot_at(ct_mp3_graph *g, size_t slot)
{
    return &g->slots[slot];
}

static void slot_input(const ct_mp3_frame_slot *s, const float *inbuf[2])
{
    inbuf[0] = s->window[0];
    inbuf[1] = s->window[1];
}

/* ---- Dispatch (serial, the caller's thread) ----------------------------- */

/* The sequential chain: the frame through every stage on gfc, now. */
static int encode_sequential(ct_mp3_graph *g, const float *const mfbuf[2])
{
    int n = ct_mp3_encode_frame(g->gfc, mfbuf[0], mfbuf[1], g->out, CT_MP3_BUFFER_SIZE);
    if (n < 0)
        return CT_EINVAL;
    g->dispatched++;
    return g->sink(g->sink_ctx, g->out, (size_t) n);
}

int ct_mp3_graph_dispatch(ct_mp3_graph *g, const float *const mfbuf[2])
{
    ct_mp3_frame_slot *s;
    int ch, rc;
    double start;

    if (g->pipeline == NULL)
        return encode_sequential(g, mfbuf);

    while (ct_pipeline_in_flight(g->pipeline) == g->ring) {
        rc = ct_mp3_graph_collect(g, true, NULL);
        if (rc != CT_OK)
            return rc;
    }
    start = trace_start(g);
    s = slot_at(g, ct_pipeline_next_slot(g->pipeline));
    for (ch = 0; ch < g->cfg->channels_out; ch++)
        memcpy(s->window[ch], mfbuf[ch], sizeof(float) * (size_t) g->window_len);
    /* the caller's thread is the pool's worker 0 for this pipeline */
    trace_add(g, 0, CT_MP3_NODE_DISPATCH, start);
    rc = ct_pipeline_push(g->pipeline);
    if (rc != CT_OK)
        return rc;
    g->dispatched++;
    /* what is done goes on, so that output flows */
    return ct_mp3_graph_collect(g, false, NULL);
}

/* ---- Prepare ×N --------------------------------------------------------- */

static int node_prepare(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_mp3_graph *g = ctx;
    ct_mp3_frame_slot *s = slot_at(g, slot);
    const float *inbuf[2];
    double const start = trace_start(g);
    (void) frame;

    slot_input(s, inbuf);
    ct_mp3_frame_prepare(g->gfc, inbuf, g->with_short, s->psy, s->sb);
    trace_add(g, worker, CT_MP3_NODE_PREPARE, start);
    return CT_OK;
}

/* ---- Decide (serial) ---------------------------------------------------- */

static int node_decide(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_mp3_graph *g = ctx;
    ct_mp3_state *gfc = g->gfc;
    ct_mp3_frame_slot *s = slot_at(g, slot);
    int ch;
    double const start = trace_start(g);

    if (frame == 0) { /* lame_encode_frame_init */
        const float *inbuf[2];
        slot_input(s, inbuf);
        ct_mp3_prime_filterbank(g->cfg, &gfc->dsp.mdct, gfc->sv_enc.amp_filter, inbuf,
                                g->sb_carry[0]);
    }

    ct_mp3_frame_record_init(&s->fr);
    ct_mp3_frame_psy_decide(gfc, s->psy, &s->fr, s->psy_dec, &s->side);
    ct_mp3_adjust_ath(gfc);
    s->ath_adjust_factor = gfc->ATH.adjust_factor;
    /* the next frame's filterbank carry, for its MDCT in Search */
    for (ch = 0; ch < g->cfg->channels_out; ch++)
        memcpy(g->sb_carry[(frame + 1) % (g->ring + 1)][ch], s->sb[g->cfg->mode_gr - 1][ch],
               sizeof(g->sb_carry[0][ch]));
    /* where LAME's loop leaves it: a function of the block types alone */
    ct_mp3_set_masking_lower(gfc, &s->side);
    trace_add(g, worker, CT_MP3_NODE_DECIDE, start);
    return CT_OK;
}

/* ---- Mask ×N ------------------------------------------------------------ */

static int node_mask(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_mp3_graph *g = ctx;
    ct_mp3_frame_slot *s = slot_at(g, slot);
    const float *inbuf[2];
    double const start = trace_start(g);
    (void) frame;

    slot_input(s, inbuf);
    ct_mp3_frame_psy_mask(g->gfc, inbuf, s->psy, s->psy_dec, s->psy_mask);
    trace_add(g, worker, CT_MP3_NODE_MASK, start);
    return CT_OK;
}

/* ---- Resolve (serial) --------------------------------------------------- */

static int node_resolve(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_mp3_graph *g = ctx;
    ct_mp3_state *gfc = g->gfc;
    ct_mp3_frame_slot *s = slot_at(g, slot);
    double const start = trace_start(g);
    (void) frame;

    ct_mp3_frame_psy_finish(gfc, s->psy, s->psy_dec,
                            (const ct_mp3_psy_ratio (*)[4]) s->psy_mask, &s->fr);
    s->mode_ext = ct_mp3_ms_decision(g->cfg, &s->fr, &s->side);
    if (!g->vbr)
        s->padding = ct_mp3_frame_loop_resolve(gfc, &s->fr, s->mode_ext);
    trace_add(g, worker, CT_MP3_NODE_RESOLVE, start);
    return CT_OK;
}

/* ---- Search ×N ---------------------------------------------------------- */

/* The frame's tag in search_end: the frame a value is the start for,
 * plus 1. */
static uint64_t start_tag(uint64_t frame)
{
    return (frame + 1) & 0xffffffffu;
}

/* The step size search's start for the frame's speculation: where the
 * previous frame's speculation left it, if that one has run (the commit
 * starts there where that speculation was right), else where the stream
 * starts (iteration_init). Returns whether the previous one had run. */
static bool search_guess(ct_mp3_graph *g, uint64_t frame, int search[2][2])
{
    uint64_t const end = atomic_load_explicit(&g->search_end, memory_order_relaxed);
    bool const found = end >> 32 == start_tag(frame);
    int ch;

    for (ch = 0; ch < 2; ch++) {
        if (found) {
            search[ch][0] = (int) (end >> (16 * ch)) & 0xff;
            search[ch][1] = (int) (end >> (16 * ch + 8)) & 0xff;
        } else {
            search[ch][0] = 180;
            search[ch][1] = 4;
        }
    }
    return found;
}

static void search_publish(ct_mp3_graph *g, uint64_t frame, int search[2][2])
{
    uint64_t end = start_tag(frame + 1) << 32;
    int ch;

    for (ch = 0; ch < 2; ch++)
        end |= (uint64_t) (search[ch][0] | search[ch][1] << 8) << (16 * ch);
    atomic_store_explicit(&g->search_end, end, memory_order_relaxed);
}

static int node_search(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_mp3_graph *g = ctx;
    ct_mp3_frame_slot *s = slot_at(g, slot);
    double const start = trace_start(g);

    ct_mp3_frame_mdct(g->cfg, g->gfc->sv_enc.amp_filter,
                      (const float (*)[18][SBLIMIT]) g->sb_carry[frame % (g->ring + 1)],
                      (const float (*)[2][18][SBLIMIT]) s->sb, &s->side);
    if (g->vbr) {
        ct_mp3_frame_vbr_prepare(g->gfc, &s->fr, s->mode_ext, s->ath_adjust_factor, &s->side,
                                 &s->work.vbr);
        ct_mp3_vbr_search_frame(g->gfc, &s->side, &s->work.vbr);
        /* a frame beyond the fields' limits is requantized by the commit
           whatever its budget: Encode codes its main data */
        s->main_data_coded = ct_mp3_vbr_within_limits(g->cfg, &s->work.vbr);
        if (s->main_data_coded)
            ct_mp3_encode_main_data(g->cfg, &g->gfc->scalefac_band, &s->side, NULL,
                                    &s->main_data);
    } else {
        /* A speculation that misses is work for nothing, and one that
         * hits saves work only the serial Encode would do: it pays where
         * Encode is behind and the workers would otherwise wait for it,
         * not where they have frames of their own to work on. */
        uint64_t const encoded = atomic_load_explicit(&g->encoded, memory_order_relaxed);
        int const speculate = frame >= encoded + g->speculate_lag;
        int search[2][2];
        bool guessed;

        s->speculated = speculate;
        guessed = !search_guess(g, frame, search);
        ct_mp3_frame_loop_search(g->scratch[worker], &s->fr, s->mode_ext, s->padding,
                                 s->ath_adjust_factor, speculate, search, &s->side,
                                 &s->work.loop);
        if (speculate) {
            /* the previous frame's speculation, still running when this
             * one started, has likely ended by now: where the commit will
             * start the first granule's search if it was right */
            int second[2][2];
            bool const second_known = guessed && search_guess(g, frame, second);
            search_publish(g, frame, search);
            if (second_known)
                ct_mp3_loop_second_start(g->scratch[worker], &s->side,
                                         (const int (*)[2]) second, &s->work.loop);
            if (g->trace != NULL)
                g->trace[worker].speculation.frames++;
        }
    }
    trace_add(g, worker, CT_MP3_NODE_SEARCH, start);
    return CT_OK;
}

/* ---- Encode (serial) ---------------------------------------------------- */

/* The frame's side info into the Encode state's: the searched (VBR) or
 * prepared (CBR/ABR) granules; VBR: scfsi (main_data_begin and the drain
 * fields are the reservoir's). */
static void side_to_encode(const ct_mp3_graph *g, const ct_mp3_side_info *from,
                           ct_mp3_side_info *to)
{
    int gr, ch;

    for (gr = 0; gr < g->cfg->mode_gr; gr++)
        for (ch = 0; ch < g->cfg->channels_out; ch++)
            to->tt[gr][ch] = from->tt[gr][ch];
    if (g->vbr)
        memcpy(to->scfsi, from->scfsi, sizeof(to->scfsi));
}

static int node_encode(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_mp3_graph *g = ctx;
    ct_mp3_state *enc = g->enc;
    ct_mp3_frame_slot *s = slot_at(g, slot);
    int n;
    double const start = trace_start(g);

    side_to_encode(g, &s->side, &enc->l3_side);
    enc->ATH.adjust_factor = s->ath_adjust_factor;
    n = ct_mp3_frame_encode(enc, &s->fr, s->mode_ext, g->vbr ? &s->work.vbr : NULL,
                            g->vbr && s->main_data_coded ? &s->main_data : NULL,
                            g->vbr ? NULL : &s->work.loop,
                            g->pipeline == g->pipeline_split ? &g->split : NULL, s->out,
                            (int) sizeof(s->out));
    /* the frame's Split returns, whatever the frame gave */
    if (g->pipeline == g->pipeline_split)
        ct_lane_close(g->split.lane, frame + 1);
    if (n < 0)
        return CT_EINVAL;
    s->out_size = n;
    if (!g->vbr && s->speculated && g->trace != NULL) {
        g->trace[worker].speculation.granules += (uint64_t) s->work.loop.speculated;
        g->trace[worker].speculation.taken += (uint64_t) s->work.loop.taken;
    }
    atomic_store_explicit(&g->encoded, frame + 1, memory_order_relaxed);
    trace_add(g, worker, CT_MP3_NODE_ENCODE, start);
    return CT_OK;
}

/* ---- Split (beside Encode) ---------------------------------------------- */

/* The frame's second channels that Encode posts and this node claims
 * first, until Encode closes the frame. On one worker it runs after
 * Encode and returns at once. */
static int node_split(void *ctx, size_t slot, uint64_t frame, int worker)
{
    ct_mp3_graph *g = ctx;
    (void) slot;
    (void) worker;

    ct_lane_serve(g->split.lane, frame + 1);
    return CT_OK;
}

/* ---- the consumer ------------------------------------------------------- */

int ct_mp3_graph_collect(ct_mp3_graph *g, bool wait, size_t *popped)
{
    size_t n = 0;
    int rc = CT_OK;

    while (g->pipeline != NULL) {
        size_t slot;
        rc = ct_pipeline_peek(g->pipeline, wait, NULL, &slot);
        if (rc == CT_EAGAIN) {
            rc = CT_OK;
            break;
        }
        if (rc != CT_OK)
            break;
        rc = g->sink(g->sink_ctx, slot_at(g, slot)->out, (size_t) slot_at(g, slot)->out_size);
        if (rc != CT_OK)
            break;
        rc = ct_pipeline_pop(g->pipeline);
        if (rc != CT_OK)
            break;
        n++;
        wait = false;
    }
    if (popped != NULL)
        *popped = n;
    return rc;
}

int ct_mp3_graph_bitstream_out(ct_mp3_graph *g, int mp3data)
{
    int n = ct_mp3_copy_buffer(ct_mp3_graph_encode_state(g), g->out, CT_MP3_BUFFER_SIZE,
                               mp3data);
    if (n < 0)
        return CT_EINVAL;
    return g->sink(g->sink_ctx, g->out, (size_t) n);
}

int ct_mp3_graph_finish(ct_mp3_graph *g)
{
    if (g->pipeline != NULL) {
        int rc = ct_pipeline_drain(g->pipeline);
        if (rc == CT_OK)
            rc = ct_mp3_graph_collect(g, false, NULL);
        if (rc == CT_OK && ct_pipeline_in_flight(g->pipeline) != 0)
            rc = CT_EINVAL;
        if (rc != CT_OK)
            return rc;
        /* what the tag reads of the input side */
        g->enc->ov_rpg = g->gfc->ov_rpg;
        g->enc->ov_enc.encoder_padding = g->gfc->ov_enc.encoder_padding;
    }
    /* mp3 related stuff. bit buffer might still contain some mp3 data */
    ct_mp3_flush_bitstream(ct_mp3_graph_encode_state(g));
    return ct_mp3_graph_bitstream_out(g, 1);
}

/* The state from offset `part` (state.h: CT_MP3_BITSTREAM_PART,
 * CT_MP3_QUANTIZE_PART) to its end, into a node's own copy; with poison
 * (tests), every byte before it set to that byte. */
static void copy_part(ct_mp3_state *to, const ct_mp3_state *from, size_t part, int poison)
{
    if (poison >= 0)
        memset(to, poison, part);
    memcpy((unsigned char *) to + part, (const unsigned char *) from + part, sizeof(*to) - part);
}

/* ---- the graph ---------------------------------------------------------- */

size_t ct_mp3_graph_ring_for(const ct_pool *pool, int frames_in_flight)
{
    return ct_pool_threads(pool) > 1 ? (size_t) frames_in_flight : 0;
}

ct_mp3_graph *ct_mp3_graph_new(ct_pool *pool, ct_mp3_state *gfc, size_t ring,
                               ct_mp3_graph_sink sink, void *sink_ctx)
{
    const ct_pipeline_stage nodes[] = {
        {node_prepare, CT_PIPELINE_PARALLEL},
        {node_decide, CT_PIPELINE_SERIAL},
        {node_mask, CT_PIPELINE_PARALLEL},
        {node_resolve, CT_PIPELINE_SERIAL},
        {node_search, CT_PIPELINE_PARALLEL},
        {node_encode, CT_PIPELINE_SERIAL},
        {node_split, CT_PIPELINE_COMPANION},
    };
    int const n_nodes = (int) (sizeof(nodes) / sizeof(nodes[0]));
    ct_mp3_graph *g = calloc(1, sizeof(*g));
    const ct_mp3_config *cfg = &gfc->cfg;
    int mf_needed, i, split;
    int scratch_ok = 1;

    if (g == NULL)
        return NULL;
    g->gfc = gfc;
    g->cfg = cfg;
    g->sink = sink;
    g->sink_ctx = sink_ctx;
    g->poison = -1;
    g->n_workers = ct_pool_threads(pool);
    g->out = malloc(CT_MP3_BUFFER_SIZE);
    if (g->out == NULL) {
        ct_mp3_graph_free(g);
        return NULL;
    }
    if (ring == 0 && g->n_workers <= 1)
        return g; /* the sequential chain */

    g->vbr = cfg->vbr == CT_MP3_VBR_MT || cfg->vbr == CT_MP3_VBR_MTRH;
    g->ring = ring > 0 ? ring : ct_pipeline_ring_size(pool);
    /* calcNeeded */
    mf_needed = BLKSIZE + 576 * cfg->mode_gr - FFTOFFSET;
    if (mf_needed < 512 + 576 * cfg->mode_gr - 32)
        mf_needed = 512 + 576 * cfg->mode_gr - 32;
    g->window_len = mf_needed;
    /* a quarter of the ring. On 2 cores (-b 128, the corpus): the frames
     * take 11 % less time than with speculation on every frame and 22 %
     * less than with none; an eighth, three eighths or half the ring
     * measured 3 to 5 % slower. */
    g->speculate_lag = g->ring / 4;
    g->with_short = 0;
    g->slots = calloc(g->ring, sizeof(*g->slots));
    g->sb_carry = calloc(g->ring + 1, sizeof(*g->sb_carry));
    g->enc = calloc(1, sizeof(*g->enc));
    if (!g->vbr) {
        g->n_scratch = g->n_workers;
        g->scratch = calloc((size_t) g->n_scratch, sizeof(*g->scratch));
        for (i = 0; g->scratch != NULL && i < g->n_scratch; i++) {
            g->scratch[i] = calloc(1, sizeof(*g->scratch[i]));
            if (g->scratch[i] == NULL)
                break;
        }
        scratch_ok = g->scratch != NULL && i == g->n_scratch;
    }
    split = !g->vbr && cfg->channels_out == 2;
    if (split) {
        g->split.lane = ct_lane_new();
        g->split.helper = calloc(1, sizeof(*g->split.helper));
        if (g->split.lane == NULL || g->split.helper == NULL)
            scratch_ok = 0;
    }
    if (g->slots != NULL && g->sb_carry != NULL && g->enc != NULL && scratch_ok) {
        g->pipeline_plain = ct_pipeline_new(pool, nodes, n_nodes - 1, g->ring, g);
        if (split)
            g->pipeline_split = ct_pipeline_new(pool, nodes, n_nodes, g->ring, g);
    }
    if (g->pipeline_plain == NULL || (split && g->pipeline_split == NULL)) {
        ct_mp3_graph_free(g);
        return NULL;
    }
    g->pipeline = g->n_workers >= SPLIT_MIN_THREADS && split ? g->pipeline_split
                                                                : g->pipeline_plain;
    return g;
}

void ct_mp3_graph_free(ct_mp3_graph *g)
{
    int i;

    if (g == NULL)
        return;
    ct_pipeline_free(g->pipeline_split);
    ct_pipeline_free(g->pipeline_plain);
    ct_lane_free(g->split.lane);
    free(g->split.helper);
    if (g->scratch != NULL)
        for (i = 0; i < g->n_scratch; i++)
            free(g->scratch[i]);
    free(g->scratch);
    free(g->trace);
    free(g->slots);
    free(g->sb_carry);
    free(g->enc);
    free(g->out);
    free(g);
}

void ct_mp3_graph_stop(ct_mp3_graph *g)
{
    if (g->pipeline != NULL)
        ct_pipeline_reset(g->pipeline);
}

void ct_mp3_graph_start(ct_mp3_graph *g)
{
    int i;

    g->dispatched = 0;
    if (g->pipeline == NULL)
        return;
    ct_pipeline_reset(g->pipeline);
    memset(g->sb_carry, 0, (g->ring + 1) * sizeof(*g->sb_carry));
    copy_part(g->enc, g->gfc, CT_MP3_BITSTREAM_PART, g->poison);
    atomic_store(&g->encoded, 0);
    atomic_store(&g->search_end, 0);
    for (i = 0; i < g->n_scratch; i++)
        copy_part(g->scratch[i], g->gfc, CT_MP3_QUANTIZE_PART, g->poison);
    if (g->split.lane != NULL) {
        ct_lane_reset(g->split.lane);
        copy_part(g->split.helper, g->gfc, CT_MP3_QUANTIZE_PART, g->poison);
    }
}

void ct_mp3_graph_speculate_every_frame(ct_mp3_graph *g, bool on)
{
    g->speculate_lag = on ? 0 : g->ring / 4;
}

void ct_mp3_graph_split_channels(ct_mp3_graph *g, bool on)
{
    if (g->pipeline_split != NULL)
        g->pipeline = on ? g->pipeline_split : g->pipeline_plain;
}

void ct_mp3_graph_poison(ct_mp3_graph *g, int byte)
{
    int i;

    g->poison = byte;
    if (g->enc != NULL)
        memset(g->enc, byte, CT_MP3_BITSTREAM_PART);
    for (i = 0; i < g->n_scratch; i++)
        memset(g->scratch[i], byte, CT_MP3_QUANTIZE_PART);
    if (g->split.helper != NULL)
        memset(g->split.helper, byte, CT_MP3_QUANTIZE_PART);
}

uint64_t ct_mp3_graph_frames(const ct_mp3_graph *g)
{
    return g->dispatched;
}

size_t ct_mp3_graph_in_flight(const ct_mp3_graph *g)
{
    return g->pipeline != NULL ? ct_pipeline_in_flight(g->pipeline) : 0;
}

size_t ct_mp3_graph_ring(const ct_mp3_graph *g)
{
    return g->ring;
}

ct_mp3_state *ct_mp3_graph_encode_state(ct_mp3_graph *g)
{
    return g->pipeline != NULL ? g->enc : g->gfc;
}

/* ---- the trace ---------------------------------------------------------- */

const char *ct_mp3_graph_node_name(ct_mp3_graph_node node)
{
    static const char *const names[CT_MP3_NUM_NODES] = {
        "Dispatch", "Prepare", "Decide", "Mask", "Resolve", "Search", "Encode", "Split",
    };
    return node < CT_MP3_NUM_NODES ? names[node] : "?";
}

int ct_mp3_graph_trace(ct_mp3_graph *g, bool on)
{
    free(g->trace);
    g->trace = NULL;
    if (!on)
        return CT_OK;
    g->trace = calloc((size_t) g->n_workers, sizeof(*g->trace));
    if (g->split.lane != NULL)
        ct_lane_trace(g->split.lane, g->trace != NULL);
    return g->trace != NULL ? CT_OK : CT_ENOMEM;
}

void ct_mp3_graph_trace_read(const ct_mp3_graph *g, double seconds[CT_MP3_NUM_NODES],
                             ct_mp3_graph_speculation *speculation)
{
    ct_mp3_graph_speculation sum = {0, 0, 0, 0, 0};
    int w, n;

    for (n = 0; n < CT_MP3_NUM_NODES; n++)
        seconds[n] = 0;
    for (w = 0; g->trace != NULL && w < g->n_workers; w++) {
        for (n = 0; n < CT_MP3_NUM_NODES; n++)
            seconds[n] += g->trace[w].seconds[n];
        sum.frames += g->trace[w].speculation.frames;
        sum.granules += g->trace[w].speculation.granules;
        sum.taken += g->trace[w].speculation.taken;
    }
    if (g->trace != NULL && g->split.lane != NULL) {
        uint64_t served, taken_back;
        ct_lane_counts(g->split.lane, &served, &taken_back);
        sum.split_posted = served + taken_back;
        sum.split_served = served;
        seconds[CT_MP3_NODE_SPLIT] = ct_lane_served_seconds(g->split.lane);
    }
    if (speculation != NULL)
        *speculation = sum;
}
