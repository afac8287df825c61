/*
 * Ordered pipelines over a ring of frame slots: what a stream of frames
 * needs from the runtime. Each frame passes the same stages in order; a
 * serial stage takes the frames one at a time in frame order (it may carry
 * state from one frame to the next), a parallel stage takes any number of
 * them at once; a companion stage runs beside a serial one (below). The
 * MP3 encoder runs Dispatch (serial), Prepare (parallel), Resolve
 * (serial), Search (parallel), Encode (serial) this way.
 *
 * The ring: frames are numbered by their push, from 0 (since
 * ct_pipeline_new() or the last ct_pipeline_reset()), and frame f occupies
 * slot f % slot_count from its push to its pop. At most slot_count frames
 * are in flight; ct_pipeline_push() says CT_EAGAIN when the ring is full
 * (backpressure). The slots' contents are the caller's: the pipeline hands
 * out slot indices, the encoder keeps its per-frame data in an array of
 * slot_count. The producer may fill ct_pipeline_next_slot() before the push
 * while the ring is not full, or leave that to the first stage.
 *
 * Order and memory: stage s of frame f runs after stage s-1 of frame f, and
 * for a serial stage after stage s of frame f-1; everything the earlier
 * step wrote is visible to it. What the producer wrote before the push is
 * visible to every stage of the frame; what the stages wrote is visible to
 * the consumer once ct_pipeline_peek() returns the frame, and what the
 * consumer did before the pop to the frame that next takes the slot.
 *
 * Scheduling: a task (one stage of one frame) is queued when its inputs are
 * ready, never earlier, so no worker waits for a serial predecessor. When a
 * worker picks a task, later stages go first, and of one stage the oldest
 * frame: the pipeline drains before it fills. The pool's threads run the
 * tasks; the calling thread joins them while it waits (ct_pipeline_peek()
 * with wait, ct_pipeline_drain()). On a NULL pool or a pool of one worker,
 * ct_pipeline_push() runs the frame through every stage on the calling
 * thread before it returns: the sequential path, same order.
 *
 * One thread at a time calls a pipeline's functions (the encoder's caller:
 * producer and consumer are one). Pipelines and stages (stage.h) may share
 * a pool: a thread that waits on a pipeline is the pool's worker 0 for that
 * time, as a stage's caller is for its stage, so a stage of another thread
 * starts after the wait and a wait starts after a running stage; pool
 * threads take a published stage before pipeline tasks (one busy with a
 * task joins the stage after it). A stage function must not call a
 * pipeline or run a stage on its own pool: it would wait for itself.
 *
 * An encoder's send/receive API on it:
 *   send:    for each complete frame of input, ct_pipeline_push(); on
 *            CT_EAGAIN keep the input and let the caller receive first
 *   receive: ct_pipeline_peek(), waiting when the ring is full or the
 *            stream is draining; take the frame's output from its slot,
 *            then ct_pipeline_pop()
 *   EOS:     ct_pipeline_drain(), then receive until nothing is in flight
 *   flush:   ct_pipeline_reset()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_RUNTIME_PIPELINE_H
#define CTCORE_RUNTIME_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctcore/runtime.h"

typedef struct ct_pipeline ct_pipeline;

typedef enum ct_pipeline_kind {
    CT_PIPELINE_SERIAL,    /* one frame at a time, in frame order */
    CT_PIPELINE_PARALLEL,  /* any frames at once, in any order */
    CT_PIPELINE_COMPANION, /* beside the serial stage before it: below */
} ct_pipeline_kind;

/*
 * A companion stage runs beside its partner, the serial stage just before
 * it (it may not be the first stage nor follow a parallel one or another
 * companion), for the partner to hand work to while it runs: its task for
 * frame f is queued at the same moment as the partner's for frame f, so
 * that two workers run them at once, and never taken before the partner's
 * (a companion may wait for its partner, which then always runs). It is
 * serial in itself: frame f's task is queued only once frame f-1's is
 * done, so where the last one ran late it starts after its partner's task.
 * The frame goes on to the stage after the companion once both are done.
 * On a NULL pool or a pool of one worker it runs after its partner on the
 * same thread: it must then find nothing to do and return. Its errors
 * stop the pipeline like any stage's. It holds a worker for as long as it
 * runs: it should return when its partner's task for the frame is done.
 */

/*
 * One stage of one frame: the frame's number and its slot. `worker` is in
 * [0, ct_pool_threads(pool)) and, as for stages, no two tasks or jobs with
 * the same worker index run at once on one pool, so it indexes per-worker
 * scratch memory. Returns CT_OK or a negative CT_E* code; an error stops
 * the pipeline (see ct_pipeline_push()).
 */
typedef int (*ct_pipeline_fn)(void *ctx, size_t slot, uint64_t frame,
                              int worker);

typedef struct ct_pipeline_stage {
    ct_pipeline_fn fn;
    ct_pipeline_kind kind;
} ct_pipeline_stage;

/* The ring for a pool: 4 slots per worker, 16 to 128. */
size_t ct_pipeline_ring_size(const ct_pool *pool);

/*
 * A pipeline of n_stages stages (copied) over slot_count slots, on `pool`
 * (referenced until ct_pipeline_free(); NULL runs everything on the calling
 * thread). ctx is passed to every stage function. NULL when out of memory,
 * or with no stages, no slots, an unknown kind or a NULL function.
 */
ct_pipeline *ct_pipeline_new(ct_pool *pool, const ct_pipeline_stage *stages,
                             int n_stages, size_t slot_count, void *ctx);
/* Resets (see ct_pipeline_reset()) and frees; NULL is ignored. */
void ct_pipeline_free(ct_pipeline *pipeline);

/* Frames pushed and not yet popped: the ring is full at slot_count. */
size_t ct_pipeline_in_flight(const ct_pipeline *pipeline);
/* The slot of the next frame to push: no stage touches it while
 * ct_pipeline_in_flight() < slot_count. */
size_t ct_pipeline_next_slot(const ct_pipeline *pipeline);

/*
 * Starts the next frame in ct_pipeline_next_slot(). Returns CT_OK, CT_EAGAIN
 * when the ring is full (pop first), or the error of a stage function:
 * after an error no further task starts, and push, peek, pop and drain
 * return that error until ct_pipeline_reset(). Never waits, except on a
 * NULL pool or a pool of one worker, where the frame's stages run before it
 * returns.
 */
int ct_pipeline_push(ct_pipeline *pipeline);

/*
 * The oldest frame in flight, once all of its stages are done: CT_OK with
 * its number in *frame and its slot in *slot (either may be NULL). CT_EAGAIN
 * when no frame is in flight, or (without `wait`) when the oldest one is
 * not done; with `wait`, the calling thread runs the pipeline's tasks until
 * it is. A stage's error is returned instead.
 */
int ct_pipeline_peek(ct_pipeline *pipeline, bool wait, uint64_t *frame,
                     size_t *slot);
/* Releases the oldest frame's slot: CT_OK, CT_EAGAIN when it is not done
 * (or none is in flight), or a stage's error. */
int ct_pipeline_pop(ct_pipeline *pipeline);

/* End of stream: runs the pipeline's tasks on the calling thread too until
 * every pushed frame is done (they stay to be peeked and popped). Returns
 * CT_OK or a stage's error. */
int ct_pipeline_drain(ct_pipeline *pipeline);

/* Flush: no further task starts, running ones are waited for, every frame
 * is discarded and the error forgotten; the next push is frame 0. */
void ct_pipeline_reset(ct_pipeline *pipeline);

#endif
