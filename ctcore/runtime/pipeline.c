/*
 * Ordered pipelines: a ring of frames, each on its way through the stages.
 * A task is one stage of one frame; it is put on its stage's ready list the
 * moment its inputs are done (the frame's previous stage and, for a serial
 * stage, the same stage of the frame before), so nothing ever waits for a
 * predecessor: finishing a task is what releases its successors, as TBB's
 * serial_in_order filters do. Workers take the head of the last non-empty
 * ready list; each list is kept oldest frame first.
 *
 * On a pool with threads, the pool's lock guards the scheduling state and
 * the pool queues the pipeline while it has ready tasks (pool.c); the
 * caller joins in while it waits. On a NULL pool or a pool of one worker
 * only the calling thread ever touches the state, and a push runs every
 * task it makes ready before it returns.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "pipeline.h"
#include "pool_internal.h"

#define NO_SLOT SIZE_MAX

/* The frame in one slot, from its push to its pop. */
typedef struct slot_state {
    uint64_t frame;
    int next_stage;     /* the first stage not done; n_stages once finished */
    size_t next_ready;  /* the next slot on its stage's ready list */
    /* At a serial stage with a companion: whether the companion's task is
     * queued (or ran), and how many of the pair are done (0..2). */
    bool companion_queued;
    int pair_done;
} slot_state;

typedef struct stage_state {
    ct_pipeline_fn fn;
    ct_pipeline_kind kind;
    uint64_t next_frame; /* serial: the frame it takes next */
    /* The slots whose frames are ready for it, oldest first (linked
     * through next_ready); NO_SLOT when none. */
    size_t first_ready, last_ready;
} stage_state;

/* What the caller waits for in ct_pipeline_peek(), drain or reset. */
typedef enum wait_goal {
    WAIT_NONE,      /* the caller is not waiting */
    WAIT_OLDEST,    /* the oldest frame done (or an error) */
    WAIT_ALL,       /* every pushed frame done (or an error) */
    WAIT_NO_TASKS,  /* no task running (reset) */
} wait_goal;

/* One stage of one frame. */
typedef struct task {
    int stage;
    size_t slot;
    uint64_t frame;
} task;

struct ct_pipeline {
    ct_pool *pool;
    bool runs_inline; /* a NULL pool or one worker: no pool thread */
    void *ctx;
    int n_stages;
    size_t slot_count;
    stage_state *stages;
    slot_state *slots;

    /* The scheduling state: guarded by the pool's lock unless runs_inline.
     * Frames oldest..next_push-1 are in flight. */
    uint64_t oldest;    /* the next frame to pop */
    uint64_t next_push; /* the next frame to push */
    uint64_t finished;  /* frames done with every stage, popped included */
    size_t n_ready;     /* tasks on the ready lists */
    int n_running;      /* tasks taken and not finished */
    int error;          /* CT_OK, or the first error a stage returned */
    bool resetting;     /* no task may start: a reset waits for the rest */
    ct_pool_queue_link queue_link;

    /* The calling thread while it waits on caller_wake, with the pool's
     * lock. It is woken when its goal is reached and, when it can run
     * tasks (WAIT_OLDEST, WAIT_ALL), as one of the helpers for new ones. */
    wait_goal caller_goal;
    bool caller_sleeping;
    /* The caller was counted as the thread that takes one of the ready
     * tasks: if it leaves without, a pool thread is woken instead. */
    bool caller_owes_a_task;
    pthread_cond_t caller_wake;
};

size_t ct_pipeline_ring_size(const ct_pool *pool)
{
    const size_t slots = 4 * (size_t)ct_pool_threads(pool);
    return slots < 16 ? 16 : slots > 128 ? 128 : slots;
}

static size_t slot_index(const ct_pipeline *p, uint64_t frame)
{
    return (size_t)(frame % p->slot_count);
}

static slot_state *slot_of_frame(const ct_pipeline *p, uint64_t frame)
{
    return &p->slots[slot_index(p, frame)];
}

static bool stopped(const ct_pipeline *p)
{
    return p->error != CT_OK || p->resetting;
}

/* The schedule: the same with pool threads or without. */

/* A serial stage takes its frames in order; a parallel one any of them. */
static bool may_start(const ct_pipeline *p, int stage, uint64_t frame)
{
    const stage_state *st = &p->stages[stage];
    return st->kind == CT_PIPELINE_PARALLEL || st->next_frame == frame;
}

static bool has_companion(const ct_pipeline *p, int stage)
{
    return stage + 1 < p->n_stages &&
           p->stages[stage + 1].kind == CT_PIPELINE_COMPANION;
}

/* Puts the frame in `slot` on `stage`'s ready list, in frame order: frames
 * mostly come in order, so this appends. */
static void make_ready(ct_pipeline *p, int stage, size_t slot)
{
    stage_state *st = &p->stages[stage];
    slot_state *s = &p->slots[slot];
    if (st->first_ready == NO_SLOT) {
        s->next_ready = NO_SLOT;
        st->first_ready = st->last_ready = slot;
    } else if (p->slots[st->last_ready].frame < s->frame) {
        s->next_ready = NO_SLOT;
        p->slots[st->last_ready].next_ready = slot;
        st->last_ready = slot;
    } else {
        size_t *link = &st->first_ready;
        while (p->slots[*link].frame < s->frame)
            link = &p->slots[*link].next_ready;
        s->next_ready = *link;
        *link = slot;
    }
    p->n_ready++;
}

/* The most urgent ready task: the latest stage, its oldest frame; but a
 * companion never before its partner's task for the same frame, so that
 * the partner always runs (a companion waits for it) and, on one thread,
 * runs first. */
static task take_ready(ct_pipeline *p)
{
    int stage = p->n_stages - 1;
    while (p->stages[stage].first_ready == NO_SLOT)
        stage--;
    if (p->stages[stage].kind == CT_PIPELINE_COMPANION) {
        const stage_state *partner = &p->stages[stage - 1];
        if (partner->first_ready != NO_SLOT &&
            p->slots[partner->first_ready].frame <=
                p->slots[p->stages[stage].first_ready].frame)
            stage--;
    }
    stage_state *st = &p->stages[stage];
    const size_t slot = st->first_ready;
    st->first_ready = p->slots[slot].next_ready;
    if (st->first_ready == NO_SLOT)
        st->last_ready = NO_SLOT;
    p->n_ready--;
    p->n_running++;
    return (task){.stage = stage, .slot = slot, .frame = p->slots[slot].frame};
}

static void drop_ready(ct_pipeline *p)
{
    for (int stage = 0; stage < p->n_stages; stage++)
        p->stages[stage].first_ready = p->stages[stage].last_ready = NO_SLOT;
    p->n_ready = 0;
}

/*
 * The companion of serial stage `stage - 1` for `frame`, queued if it may
 * start: the frame waits at the partner, the partner's task for it is
 * queued (or ran), and the companion is done with the frame before.
 */
static void ready_companion(ct_pipeline *p, int stage, uint64_t frame)
{
    if (frame >= p->next_push)
        return;
    slot_state *s = slot_of_frame(p, frame);
    if (s->next_stage == stage - 1 && !s->companion_queued &&
        p->stages[stage - 1].next_frame >= frame &&
        p->stages[stage].next_frame == frame) {
        s->companion_queued = true;
        make_ready(p, stage, slot_index(p, frame));
    }
}

/* make_ready(), and the stage's companion with it. */
static void make_stage_ready(ct_pipeline *p, int stage, size_t slot)
{
    make_ready(p, stage, slot);
    if (has_companion(p, stage))
        ready_companion(p, stage + 1, p->slots[slot].frame);
}

/* Admits frame next_push; returns how many tasks became ready (0..2). */
static int admit_frame(ct_pipeline *p)
{
    const uint64_t frame = p->next_push++;
    slot_state *s = slot_of_frame(p, frame);
    s->frame = frame;
    s->next_stage = 0;
    s->companion_queued = false;
    s->pair_done = 0;
    if (!may_start(p, 0, frame))
        return 0;
    const size_t n_ready_before = p->n_ready;
    make_stage_ready(p, 0, slot_index(p, frame));
    return (int)(p->n_ready - n_ready_before);
}

/*
 * Records that `t` returned `rc` and releases what waited for it: the same
 * serial stage (or companion) for the next frame, the next stage for this
 * frame once it and its pair are done. Returns how many tasks became ready
 * (0..4).
 */
static int finish_task(ct_pipeline *p, task t, int rc)
{
    p->n_running--;
    if (rc != CT_OK && p->error == CT_OK) {
        p->error = rc;
        drop_ready(p);
    }
    if (stopped(p))
        return 0;

    const size_t n_ready_before = p->n_ready;
    stage_state *st = &p->stages[t.stage];
    if (st->kind == CT_PIPELINE_SERIAL) {
        st->next_frame = t.frame + 1;
        if (t.frame + 1 < p->next_push) {
            /* Its previous stage done, the next frame may be waiting. */
            slot_state *next = slot_of_frame(p, t.frame + 1);
            if (next->next_stage == t.stage)
                make_stage_ready(p, t.stage, slot_index(p, t.frame + 1));
        }
    } else if (st->kind == CT_PIPELINE_COMPANION) {
        st->next_frame = t.frame + 1;
        ready_companion(p, t.stage, t.frame + 1);
    }
    slot_state *s = &p->slots[t.slot];
    /* A pair (a serial stage and its companion) is done with the frame
     * when both are. */
    const bool in_pair =
        st->kind == CT_PIPELINE_COMPANION || has_companion(p, t.stage);
    if (in_pair && ++s->pair_done < 2)
        return (int)(p->n_ready - n_ready_before);
    const int pair_end =
        in_pair && st->kind != CT_PIPELINE_COMPANION ? t.stage + 1 : t.stage;
    s->pair_done = 0;
    s->companion_queued = false;
    s->next_stage = pair_end + 1;
    if (s->next_stage == p->n_stages)
        p->finished++;
    else if (may_start(p, s->next_stage, t.frame))
        make_stage_ready(p, s->next_stage, t.slot);
    return (int)(p->n_ready - n_ready_before);
}

static bool oldest_done(const ct_pipeline *p)
{
    return p->oldest < p->next_push &&
           slot_of_frame(p, p->oldest)->next_stage == p->n_stages;
}

static bool wait_over(const ct_pipeline *p)
{
    switch (p->caller_goal) {
    case WAIT_OLDEST:
        return p->error != CT_OK || oldest_done(p);
    case WAIT_ALL:
        return p->error != CT_OK || p->finished == p->next_push;
    case WAIT_NO_TASKS:
        return p->n_running == 0;
    case WAIT_NONE:
        break;
    }
    return false;
}

/* The sequential path: every ready task, on the calling thread. */
static void run_inline(ct_pipeline *p)
{
    if (p->pool != NULL)
        ct_pool_claim_worker0(p->pool);
    while (p->n_ready > 0) {
        const task t = take_ready(p);
        const int rc = p->stages[t.stage].fn(p->ctx, t.slot, t.frame, 0);
        finish_task(p, t, rc);
    }
    if (p->pool != NULL)
        ct_pool_release_worker0(p->pool);
}

/* With pool threads: called with the pool's lock held (but wait_for()). */

/* The pool queues the pipeline while it has a task for a pool thread. */
static void update_queue(ct_pipeline *p)
{
    if (p->n_ready > 0)
        ct_pool_queue_pipeline(p->pool, &p->queue_link);
    else
        ct_pool_unqueue_pipeline(p->pool, &p->queue_link);
}

/* Until a pool thread wakes it: its goal reached, or a task to run. */
static void caller_sleep(ct_pipeline *p)
{
    p->caller_sleeping = true;
    while (p->caller_sleeping)
        pthread_cond_wait(&p->caller_wake, ct_pool_lock(p->pool));
}

static void wake_caller(ct_pipeline *p)
{
    p->caller_sleeping = false;
    pthread_cond_signal(&p->caller_wake);
}

/* One wake per new ready task: the waiting caller first (it is otherwise
 * idle), then sleeping pool threads. */
static void wake_helpers(ct_pipeline *p, int n_tasks)
{
    if (n_tasks > 0 && p->caller_sleeping &&
        (p->caller_goal == WAIT_OLDEST || p->caller_goal == WAIT_ALL)) {
        wake_caller(p);
        p->caller_owes_a_task = true;
        n_tasks--;
    }
    ct_pool_wake_threads(p->pool, n_tasks);
}

/*
 * Runs the most urgent ready task as `worker`. The thread goes on looking
 * for tasks afterwards, so of the tasks that finishing this one makes
 * ready, it leaves one for itself and wakes helpers for the others.
 * Returns how many tasks became ready.
 */
static int run_task(ct_pipeline *p, int worker)
{
    pthread_mutex_t *lock = ct_pool_lock(p->pool);
    const task t = take_ready(p);
    /* The rest wait their turn behind other pipelines. */
    ct_pool_unqueue_pipeline(p->pool, &p->queue_link);
    update_queue(p);
    pthread_mutex_unlock(lock);

    const int rc = p->stages[t.stage].fn(p->ctx, t.slot, t.frame, worker);

    pthread_mutex_lock(lock);
    const int n_new = finish_task(p, t, rc);
    update_queue(p);
    if (p->caller_sleeping && wait_over(p))
        wake_caller(p);
    if (n_new > 1)
        wake_helpers(p, n_new - 1);
    return n_new;
}

void ct_pipeline_work(ct_pipeline *pipeline, int worker)
{
    run_task(pipeline, worker);
}

/*
 * Until `goal` is reached, the calling thread runs the pipeline's tasks as
 * the pool's worker 0 and sleeps when there are none. Returns the
 * pipeline's error.
 */
static int wait_for(ct_pipeline *p, wait_goal goal)
{
    pthread_mutex_t *lock = ct_pool_lock(p->pool);
    ct_pool_claim_worker0(p->pool);
    pthread_mutex_lock(lock);
    p->caller_goal = goal;
    while (!wait_over(p)) {
        if (p->n_ready > 0) {
            p->caller_owes_a_task = run_task(p, 0) > 0;
            continue;
        }
        p->caller_owes_a_task = false;
        caller_sleep(p);
    }
    if (p->caller_owes_a_task && p->n_ready > 0)
        ct_pool_wake_threads(p->pool, 1);
    p->caller_owes_a_task = false;
    p->caller_goal = WAIT_NONE;
    const int rc = p->error;
    pthread_mutex_unlock(lock);
    ct_pool_release_worker0(p->pool);
    return rc;
}

static void lock_state(ct_pipeline *p)
{
    if (!p->runs_inline)
        pthread_mutex_lock(ct_pool_lock(p->pool));
}

static void unlock_state(ct_pipeline *p)
{
    if (!p->runs_inline)
        pthread_mutex_unlock(ct_pool_lock(p->pool));
}

ct_pipeline *ct_pipeline_new(ct_pool *pool, const ct_pipeline_stage *stages,
                             int n_stages, size_t slot_count, void *ctx)
{
    /* Slot indices stay below NO_SLOT. */
    if (stages == NULL || n_stages < 1 || slot_count < 1 ||
        slot_count >= NO_SLOT)
        return NULL;
    for (int stage = 0; stage < n_stages; stage++)
        if (stages[stage].fn == NULL ||
            (stages[stage].kind != CT_PIPELINE_SERIAL &&
             stages[stage].kind != CT_PIPELINE_PARALLEL &&
             stages[stage].kind != CT_PIPELINE_COMPANION) ||
            (stages[stage].kind == CT_PIPELINE_COMPANION &&
             (stage == 0 || stages[stage - 1].kind != CT_PIPELINE_SERIAL)))
            return NULL;

    ct_pipeline *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    p->stages = calloc((size_t)n_stages, sizeof(*p->stages));
    p->slots = calloc(slot_count, sizeof(*p->slots));
    p->runs_inline = ct_pool_threads(pool) == 1;
    if (p->stages == NULL || p->slots == NULL ||
        (!p->runs_inline && pthread_cond_init(&p->caller_wake, NULL) != 0)) {
        free(p->stages);
        free(p->slots);
        free(p);
        return NULL;
    }

    p->pool = ct_pool_ref(pool);
    p->ctx = ctx;
    p->n_stages = n_stages;
    p->slot_count = slot_count;
    for (int stage = 0; stage < n_stages; stage++) {
        p->stages[stage].fn = stages[stage].fn;
        p->stages[stage].kind = stages[stage].kind;
    }
    drop_ready(p);
    p->queue_link.pipeline = p;
    return p;
}

void ct_pipeline_free(ct_pipeline *pipeline)
{
    if (pipeline == NULL)
        return;
    ct_pipeline_reset(pipeline);
    if (!pipeline->runs_inline)
        pthread_cond_destroy(&pipeline->caller_wake);
    ct_pool_unref(pipeline->pool);
    free(pipeline->stages);
    free(pipeline->slots);
    free(pipeline);
}

/* oldest and next_push change only in the caller's own calls. */
size_t ct_pipeline_in_flight(const ct_pipeline *pipeline)
{
    return (size_t)(pipeline->next_push - pipeline->oldest);
}

size_t ct_pipeline_next_slot(const ct_pipeline *pipeline)
{
    return slot_index(pipeline, pipeline->next_push);
}

int ct_pipeline_push(ct_pipeline *pipeline)
{
    lock_state(pipeline);
    int rc = pipeline->error;
    if (rc == CT_OK && ct_pipeline_in_flight(pipeline) == pipeline->slot_count)
        rc = CT_EAGAIN;
    if (rc == CT_OK) {
        const int n_new = admit_frame(pipeline);
        if (!pipeline->runs_inline) {
            update_queue(pipeline);
            wake_helpers(pipeline, n_new);
        }
    }
    unlock_state(pipeline);
    if (rc == CT_OK && pipeline->runs_inline) {
        run_inline(pipeline);
        rc = pipeline->error;
    }
    return rc;
}

int ct_pipeline_peek(ct_pipeline *pipeline, bool wait, uint64_t *frame,
                     size_t *slot)
{
    lock_state(pipeline);
    int rc = pipeline->error;
    if (rc == CT_OK && !oldest_done(pipeline))
        rc = CT_EAGAIN;
    unlock_state(pipeline);
    /* Inline, every frame in flight is done: there is nothing to wait for. */
    if (rc == CT_EAGAIN && wait && pipeline->oldest < pipeline->next_push &&
        !pipeline->runs_inline)
        rc = wait_for(pipeline, WAIT_OLDEST);
    if (rc == CT_OK) {
        if (frame != NULL)
            *frame = pipeline->oldest;
        if (slot != NULL)
            *slot = slot_index(pipeline, pipeline->oldest);
    }
    return rc;
}

int ct_pipeline_pop(ct_pipeline *pipeline)
{
    lock_state(pipeline);
    int rc = pipeline->error;
    if (rc == CT_OK && !oldest_done(pipeline))
        rc = CT_EAGAIN;
    if (rc == CT_OK)
        pipeline->oldest++;
    unlock_state(pipeline);
    return rc;
}

int ct_pipeline_drain(ct_pipeline *pipeline)
{
    lock_state(pipeline);
    const int rc = pipeline->error;
    const bool all_done =
        rc != CT_OK || pipeline->finished == pipeline->next_push;
    unlock_state(pipeline);
    return all_done ? rc : wait_for(pipeline, WAIT_ALL);
}

void ct_pipeline_reset(ct_pipeline *pipeline)
{
    lock_state(pipeline);
    if (!pipeline->runs_inline) {
        /* No task starts any more; the running ones finish. */
        pipeline->resetting = true;
        drop_ready(pipeline);
        update_queue(pipeline);
        pipeline->caller_goal = WAIT_NO_TASKS;
        while (!wait_over(pipeline))
            caller_sleep(pipeline);
        pipeline->caller_goal = WAIT_NONE;
        pipeline->resetting = false;
    }
    pipeline->oldest = pipeline->next_push = pipeline->finished = 0;
    for (int stage = 0; stage < pipeline->n_stages; stage++)
        pipeline->stages[stage].next_frame = 0;
    drop_ready(pipeline);
    pipeline->error = CT_OK;
    unlock_state(pipeline);
}
