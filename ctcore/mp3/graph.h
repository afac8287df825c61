/*
 * The MP3 encoder's frames (graph.c): on one worker the sequential chain,
 * every frame through the stages of frame.h at its dispatch; on more, the
 * frame ring, one stream encoded on every worker of a pool, frame by
 * frame, with the bytes of the sequential chain. Its per-frame record, the
 * ring's slot, is declared here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_GRAPH_H
#define CTCORE_MP3_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitstream.h"
#include "ctcore/mp3.h"
#include "psy.h"
#include "quantize.h"
#include "state.h"

/* The frame's input window: mfbuf[ch][0 .. mf_needed) (calcNeeded; 1904
 * samples for two granules, 1328 for one). */
#define CT_MP3_WINDOW_MAX (BLKSIZE + 1152 - FFTOFFSET)

/* The most bytes one frame's Encode hands out: lame.h's worst case for one
 * frame of lame_encode_buffer (1.25 * 1152 + 7200). */
#define CT_MP3_SLOT_OUT_MAX 8640

/*
 * The per-frame record: one slot of the ring, everything one frame carries
 * from Dispatch to the consumer. Each field is written by one node and read
 * by the nodes after it; nothing here is carried from frame to frame.
 */
typedef struct ct_mp3_frame_slot {
    /* Dispatch: the frame's input window (mfbuf, resampled, with its
     * look-ahead) */
    float window[2][CT_MP3_WINDOW_MAX];
    /* Prepare: the model's stateless part of each granule (Mask adds
     * the short blocks when it needs them and they are missing), the
     * subband samples of each granule and channel */
    ct_mp3_psy_granule psy[2];
    float sb[2][2][18][SBLIMIT];
    /* Decide: the model's decisions of each granule and what Mask and
     * Resolve read of the model's state; ATH.adjust_factor of the frame */
    ct_mp3_psy_decision psy_dec[2];
    float ath_adjust_factor;
    /* Mask: each granule's masking before the short block pre-echo
     * control */
    ct_mp3_psy_ratio psy_mask[2][4];
    /* Decide: energies, block types; Resolve: masking, pe; the M/S
     * decision */
    ct_mp3_frame fr;
    int mode_ext;
    /* Decide: block types; Search: xr (the MDCT), M/S converted, VBR:
     * scalefactors, quantized lines, the side info of the "as is"
     * quantization; CBR/ABR: init_outer_loop's side info */
    ct_mp3_side_info side;
    /* CBR/ABR, Resolve: the frame's padding (its pe in fr is smoothed) */
    int padding;
    /* CBR/ABR, Search: whether it speculated */
    bool speculated;
    /* VBR: Search (ct_mp3_vbr_prepare, the search) -> Encode (commit);
     * CBR/ABR: Search (prepared granules, the speculative loop) -> Encode
     * (commit) */
    union {
        ct_mp3_vbr_work vbr;
        ct_mp3_loop_work loop;
    } work;
    /* VBR, Search: the main data of the searched frame, where it is coded
     * (main_data_coded: the frame within the fields' limits); Encode writes
     * it unless its commit requantizes the frame */
    bool main_data_coded;
    ct_mp3_main_data main_data;
    /* Encode: the bytes the frame hands out */
    int out_size;
    unsigned char out[CT_MP3_SLOT_OUT_MAX];
} ct_mp3_frame_slot;

typedef struct ct_mp3_graph ct_mp3_graph;

/* Receives the bytes each frame hands out, in frame order, and the bit
 * stream's own (the encoder's byte FIFO). Returns CT_OK or a CT_E* code. */
typedef int (*ct_mp3_graph_sink)(void *ctx, const unsigned char *data, size_t size);

/* The ring ct_mp3_encoder_new asks ct_mp3_graph_new for: the settings'
 * frames_in_flight on a pool of more than one worker (0 there: the
 * default ring), 0 on one worker or NULL (the sequential chain). */
size_t ct_mp3_graph_ring_for(const ct_pool *pool, int frames_in_flight);

/*
 * The frames of the encoder state gfc (set up; the graph reads it until
 * freed) to sink. ring 0: on a pool of more than one worker the ring of
 * ct_pipeline_ring_size(pool) slots, on one worker or NULL the sequential
 * chain; ring > 0: a ring of that many slots on any pool (tests, bench:
 * on one worker every frame runs through all nodes at its dispatch). NULL
 * when out of memory.
 */
ct_mp3_graph *ct_mp3_graph_new(ct_pool *pool, ct_mp3_state *gfc, size_t ring,
                               ct_mp3_graph_sink sink, void *sink_ctx);
/* Stops (ct_mp3_graph_stop) and frees; NULL is ignored. */
void ct_mp3_graph_free(ct_mp3_graph *graph);

/* Stops every frame in flight and waits for running nodes: gfc may then be
 * set up again. */
void ct_mp3_graph_stop(ct_mp3_graph *graph);
/* A new stream on gfc as set up: no frame, the carries at their start, the
 * nodes' own states copied from gfc. */
void ct_mp3_graph_start(ct_mp3_graph *graph);

/* Dispatch: the next frame's window mfbuf[ch][0 .. mf_needed). The
 * sequential chain encodes it and hands its bytes to the sink; the ring
 * copies it into the next slot and on. When the ring is full, finished
 * frames go to the sink first (the calling thread works on the ring while
 * it waits). */
int ct_mp3_graph_dispatch(ct_mp3_graph *graph, const float *const mfbuf[2]);
/* The finished frames, oldest first, to the sink until one is not done;
 * with wait, the oldest in flight at least. *popped (may be NULL): how
 * many (0 on the sequential chain, where none is in flight). */
int ct_mp3_graph_collect(ct_mp3_graph *graph, bool wait, size_t *popped);
/* The bytes the bit stream holds to the sink (copy_buffer; mp3data: as
 * the frames' bytes, with the LAME tag's accounting), while no frame is in
 * flight: before the first frame, the LAME tag's placeholder. */
int ct_mp3_graph_bitstream_out(ct_mp3_graph *graph, int mp3data);
/* End of stream: every frame in flight, finished, to the sink; on the
 * ring, the input side's results the LAME tag needs (ReplayGain, encoder
 * padding) from gfc into the Encode state; then the end of the bit stream
 * (flush_bitstream) to the sink. */
int ct_mp3_graph_finish(ct_mp3_graph *graph);

/* Frames dispatched since the start. */
uint64_t ct_mp3_graph_frames(const ct_mp3_graph *graph);
/* Frames dispatched and not yet handed to the sink. */
size_t ct_mp3_graph_in_flight(const ct_mp3_graph *graph);
/* The ring's slots, 0 on the sequential chain. */
size_t ct_mp3_graph_ring(const ct_mp3_graph *graph);
/* The state that holds the bit stream, the reservoir and the LAME tag's
 * accounting: the Encode node's on the ring, gfc on the sequential chain.
 * Only while no frame is in flight. */
ct_mp3_state *ct_mp3_graph_encode_state(ct_mp3_graph *graph);

/* The ring's nodes, in the order a frame passes them (graph.c). */
typedef enum ct_mp3_graph_node {
    CT_MP3_NODE_DISPATCH, /* the caller's copy of the window into the slot */
    CT_MP3_NODE_PREPARE,
    CT_MP3_NODE_DECIDE,
    CT_MP3_NODE_MASK,
    CT_MP3_NODE_RESOLVE,
    CT_MP3_NODE_SEARCH,
    CT_MP3_NODE_ENCODE,
    CT_MP3_NODE_SPLIT, /* beside Encode: its time in jobs, not its waits */
    CT_MP3_NUM_NODES
} ct_mp3_graph_node;

const char *ct_mp3_graph_node_name(ct_mp3_graph_node node);

/*
 * A trace for bench/mp3_stages: with `on`, from now on each node adds its
 * wall time (CLOCK_MONOTONIC) to the trace, which starts empty; off: none
 * (the default). Only while no frame is in flight. Returns CT_OK or
 * CT_ENOMEM (no trace then).
 */
int ct_mp3_graph_trace(ct_mp3_graph *graph, bool on);
/* CBR/ABR's speculation in a trace: the frames Search speculated on, the
 * granules those speculations quantized and the ones Encode took. */
typedef struct ct_mp3_graph_speculation {
    uint64_t frames;
    uint64_t granules;
    uint64_t taken;
    /* since the start: the stereo granules whose second channel Encode
     * posted for Split, and those Split ran */
    uint64_t split_posted;
    uint64_t split_served;
} ct_mp3_graph_speculation;

/* The trace so far (zeros without one), while no frame is in flight: each
 * node's busy time, summed over its runs on all workers, and, CBR/ABR, the
 * speculation (may be NULL). */
void ct_mp3_graph_trace_read(const ct_mp3_graph *graph, double seconds[CT_MP3_NUM_NODES],
                             ct_mp3_graph_speculation *speculation);

/*
 * For tests and bench/mp3_stages, while no frame is in flight: CBR/ABR's
 * Search speculates on every frame (on) instead of only on frames a
 * quarter of the ring or more ahead of Encode (off, the default): as on
 * many cores, where Search keeps ahead. The bytes are the same.
 */
void ct_mp3_graph_speculate_every_frame(ct_mp3_graph *graph, bool on);

/*
 * For tests and bench/mp3_stages, after ct_mp3_graph_start and before the
 * first frame: CBR/ABR stereo's node Split beside Encode (on) or not
 * (off), whatever the thread count would choose. The bytes are the same.
 */
void ct_mp3_graph_split_channels(ct_mp3_graph *graph, bool on);

/*
 * For tests/mp3/state.c, while no frame is in flight: from now on, the
 * Encode state and the Search workers' scratch states hold `byte` in every
 * byte of the state they do not copy from gfc (state.h's parts), instead
 * of zeros: the bytes must not change.
 */
void ct_mp3_graph_poison(ct_mp3_graph *graph, int byte);

#endif
