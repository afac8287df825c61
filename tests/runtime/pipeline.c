/*
 * The runtime's ordered pipelines: frames come out in order and whole; each
 * stage of a frame runs once, after the frame's previous stage; a serial
 * stage takes the frames strictly in order, one at a time, and what it
 * carries from frame to frame needs no lock; parallel stages run frames at
 * once; the ring never holds more than its slots (push says CT_EAGAIN);
 * drain, reset and errors work at any point and leave the pipeline
 * reusable; later stages go first; a serial stage waiting for its
 * predecessor holds no worker; a companion stage runs beside its partner
 * and never before it; pipelines and stages share pools. Slot data
 * is plain memory, so ThreadSanitizer checks the order the pipeline
 * promises. Prints the overhead per frame. Exits 0 when every check
 * passes, 1 otherwise.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "common/clock.h"
#include "runtime/pipeline.h"
#include "runtime/stage.h"
#include "worker_tracker.h"

#define MAX_STAGES 5
#define NO_FRAME UINT64_MAX
/* Long enough for a loaded machine under ThreadSanitizer. */
#define DEADLINE_SECONDS 60.0

static const char *const patterns[] = {"SPS", "PPP", "SSSS", "SPSPS", "PSPPS"};

static void sleep_briefly(void)
{
    const struct timespec ts = {.tv_nsec = 200 * 1000};
    nanosleep(&ts, NULL);
}

/*
 * What one pipeline's stages saw. The slot data is plain memory: the
 * producer writes `input`, every stage folds itself into `value`, the
 * consumer checks it, and a serial stage's `serial_next` is carried from
 * frame to frame; only the pipeline's ordering keeps these race-free.
 */
typedef struct recorder {
    const char *context;
    worker_tracker *tracker;
    int n_stages;
    ct_pipeline_kind kinds[MAX_STAGES];
    size_t slot_count;

    uint64_t *input;              /* per slot, from the producer */
    uint64_t *value;              /* per slot, from the stages */
    atomic_uint_fast64_t *owner;  /* per slot: the frame the producer put */
    atomic_int *stages_done;      /* per slot */
    atomic_uint_fast64_t popped;  /* frames the consumer has popped */

    uint64_t serial_next[MAX_STAGES]; /* serial stages: the next frame */
    atomic_int running[MAX_STAGES];
    atomic_int most_running[MAX_STAGES];
    atomic_ulong runs[MAX_STAGES];
    /* Parallel stages: the first task waits for a second one to start. */
    atomic_int wants_company[MAX_STAGES];

    /* The task that fails with fail_code. */
    int fail_stage;
    uint64_t fail_frame;
    int fail_code;
    /* Every task of this stage sleeps a little. */
    int slow_stage;
    /* The task that waits until gate_open. */
    int gate_stage;
    uint64_t gate_frame;
    atomic_int gate_open;
    /* Every task's (stage, frame), in the order they started. */
    atomic_uint_fast64_t *log;
    size_t log_capacity;
    atomic_size_t log_length;
    /* Cleared while no task may run (after a reset). */
    atomic_int tasks_allowed;
} recorder;

static void recorder_clear_stages(recorder *rec)
{
    for (int s = 0; s < MAX_STAGES; s++) {
        rec->serial_next[s] = 0;
        atomic_store(&rec->running[s], 0);
        atomic_store(&rec->most_running[s], 0);
        atomic_store(&rec->runs[s], 0);
        atomic_store(&rec->wants_company[s], 0);
    }
    atomic_store(&rec->popped, 0);
    atomic_store(&rec->log_length, 0);
}

static void recorder_init(recorder *rec, const char *pattern,
                          size_t slot_count, worker_tracker *tracker,
                          const char *context)
{
    *rec = (recorder){
        .context = context,
        .tracker = tracker,
        .n_stages = (int)strlen(pattern),
        .slot_count = slot_count,
        .input = checked_calloc(slot_count, sizeof(uint64_t)),
        .value = checked_calloc(slot_count, sizeof(uint64_t)),
        .owner = checked_calloc(slot_count, sizeof(atomic_uint_fast64_t)),
        .stages_done = checked_calloc(slot_count, sizeof(atomic_int)),
        .fail_stage = -1,
        .slow_stage = -1,
        .gate_stage = -1,
    };
    for (int s = 0; s < rec->n_stages; s++)
        rec->kinds[s] = pattern[s] == 'S' ? CT_PIPELINE_SERIAL
                                          : CT_PIPELINE_PARALLEL;
    for (size_t i = 0; i < slot_count; i++) {
        atomic_init(&rec->owner[i], NO_FRAME);
        atomic_init(&rec->stages_done[i], 0);
    }
    atomic_init(&rec->gate_open, 0);
    atomic_init(&rec->tasks_allowed, 1);
    recorder_clear_stages(rec);
}

static void recorder_free(recorder *rec)
{
    free(rec->input);
    free(rec->value);
    free(rec->owner);
    free(rec->stages_done);
    free(rec->log);
}

/* Parallel stages check that they run frames at once (with workers). */
static void recorder_want_company(recorder *rec)
{
    for (int s = 0; s < rec->n_stages; s++)
        atomic_store(&rec->wants_company[s],
                     rec->kinds[s] == CT_PIPELINE_PARALLEL);
}

static uint64_t input_of(uint64_t frame)
{
    return frame * 0x9e3779b97f4a7c15u + 1;
}

static uint64_t fold(uint64_t value, int stage, uint64_t frame)
{
    return value * 31 + (uint64_t)stage * 7 + frame;
}

static uint64_t expected_value(const recorder *rec, uint64_t frame)
{
    uint64_t value = input_of(frame);
    for (int s = 0; s < rec->n_stages; s++)
        value = fold(value, s, frame);
    return value;
}

/* Waits (yielding) until *flag is set; false at the deadline. */
static bool await_flag(atomic_int *flag)
{
    const double deadline = ct_clock_seconds() + DEADLINE_SECONDS;
    while (atomic_load(flag) == 0) {
        if (ct_clock_seconds() > deadline)
            return false;
        sched_yield();
    }
    return true;
}

static int recorded_stage(recorder *rec, int s, size_t slot, uint64_t frame,
                          int worker)
{
    char what[128];
    snprintf(what, sizeof(what), "%s: stage %d (%c) of frame %llu",
             rec->context, s,
             rec->kinds[s] == CT_PIPELINE_SERIAL ? 'S' : 'P',
             (unsigned long long)frame);
    if (!worker_enter(rec->tracker, worker, what))
        return CT_OK;
    check(atomic_load(&rec->tasks_allowed) == 1, "%s: runs after a reset",
          what);
    check(slot == frame % rec->slot_count, "%s: in slot %zu", what, slot);
    const uint64_t popped = atomic_load(&rec->popped);
    check(frame >= popped && frame - popped < rec->slot_count,
          "%s: in flight with %llu popped (%zu slots)", what,
          (unsigned long long)popped, rec->slot_count);
    check(atomic_load(&rec->owner[slot]) == frame,
          "%s: the slot holds frame %llu", what,
          (unsigned long long)atomic_load(&rec->owner[slot]));
    check(atomic_load(&rec->stages_done[slot]) == s,
          "%s: runs after %d stages of the frame", what,
          atomic_load(&rec->stages_done[slot]));

    const int running = atomic_fetch_add(&rec->running[s], 1) + 1;
    int most = atomic_load(&rec->most_running[s]);
    while (running > most &&
           !atomic_compare_exchange_weak(&rec->most_running[s], &most, running))
        ;
    if (rec->kinds[s] == CT_PIPELINE_SERIAL) {
        check(running == 1, "%s: %d frames in the serial stage", what,
              running);
        check(rec->serial_next[s] == frame, "%s: expected frame %llu", what,
              (unsigned long long)rec->serial_next[s]);
        rec->serial_next[s] = frame + 1;
    } else if (atomic_exchange(&rec->wants_company[s], 0) == 1) {
        const double deadline = ct_clock_seconds() + DEADLINE_SECONDS;
        while (atomic_load(&rec->most_running[s]) < 2 &&
               ct_clock_seconds() < deadline)
            sched_yield();
        check(atomic_load(&rec->most_running[s]) >= 2,
              "%s: no other frame came into the parallel stage", what);
    }
    if (rec->log != NULL) {
        const size_t i = atomic_fetch_add(&rec->log_length, 1);
        if (check(i < rec->log_capacity, "%s: log full", what))
            atomic_store(&rec->log[i], (uint64_t)s << 56 | frame);
    }
    if (s == rec->slow_stage)
        sleep_briefly();
    if (s == rec->gate_stage && frame == rec->gate_frame)
        check(await_flag(&rec->gate_open), "%s: the gate never opened",
              what);

    rec->value[slot] = fold(s == 0 ? rec->input[slot] : rec->value[slot], s,
                            frame);
    atomic_fetch_add(&rec->runs[s], 1);
    atomic_fetch_sub(&rec->running[s], 1);
    atomic_store(&rec->stages_done[slot], s + 1);
    worker_leave(rec->tracker, worker);
    return s == rec->fail_stage && frame == rec->fail_frame ? rec->fail_code
                                                            : CT_OK;
}

#define RECORDED_STAGE(s)                                                    \
    static int recorded_stage_##s(void *ctx, size_t slot, uint64_t frame,   \
                                  int worker)                                \
    {                                                                        \
        return recorded_stage(ctx, s, slot, frame, worker);                  \
    }
RECORDED_STAGE(0)
RECORDED_STAGE(1)
RECORDED_STAGE(2)
RECORDED_STAGE(3)
RECORDED_STAGE(4)

static const ct_pipeline_fn recorded_stages[MAX_STAGES] = {
    recorded_stage_0, recorded_stage_1, recorded_stage_2, recorded_stage_3,
    recorded_stage_4,
};

static ct_pipeline *new_recorded_pipeline(ct_pool *pool, recorder *rec)
{
    ct_pipeline_stage stages[MAX_STAGES];
    for (int s = 0; s < rec->n_stages; s++)
        stages[s] = (ct_pipeline_stage){recorded_stages[s], rec->kinds[s]};
    ct_pipeline *p =
        ct_pipeline_new(pool, stages, rec->n_stages, rec->slot_count, rec);
    check(p != NULL, "%s: ct_pipeline_new failed", rec->context);
    return p;
}

/* The producer's side of a push: the slot is free, fill it. */
static int push_frame(ct_pipeline *p, recorder *rec, uint64_t frame)
{
    const size_t slot = frame % rec->slot_count;
    check(ct_pipeline_next_slot(p) == slot, "%s: frame %llu goes to slot "
          "%zu", rec->context, (unsigned long long)frame,
          ct_pipeline_next_slot(p));
    rec->input[slot] = input_of(frame);
    atomic_store(&rec->owner[slot], frame);
    atomic_store(&rec->stages_done[slot], 0);
    return ct_pipeline_push(p);
}

/* The consumer's side: the oldest frame, if done (or waited for). */
static int pop_frame(ct_pipeline *p, recorder *rec, bool wait,
                     uint64_t expected_frame)
{
    uint64_t frame;
    size_t slot;
    const int rc = ct_pipeline_peek(p, wait, &frame, &slot);
    if (rc != CT_OK)
        return rc;
    check(frame == expected_frame, "%s: peeked frame %llu, expected %llu",
          rec->context, (unsigned long long)frame,
          (unsigned long long)expected_frame);
    check(slot == frame % rec->slot_count, "%s: frame %llu in slot %zu",
          rec->context, (unsigned long long)frame, slot);
    check(atomic_load(&rec->stages_done[slot]) == rec->n_stages,
          "%s: frame %llu peeked after %d stages", rec->context,
          (unsigned long long)frame, atomic_load(&rec->stages_done[slot]));
    check(rec->value[slot] == expected_value(rec, frame),
          "%s: frame %llu has the wrong value", rec->context,
          (unsigned long long)frame);
    /* An error between the peek and the pop wins. */
    const int pop_rc = ct_pipeline_pop(p);
    if (!check(pop_rc == CT_OK || (rec->fail_stage >= 0 &&
                                   pop_rc == rec->fail_code),
               "%s: pop returned %d", rec->context, pop_rc))
        return pop_rc;
    if (pop_rc == CT_OK)
        atomic_store(&rec->popped, frame + 1);
    return pop_rc;
}

/*
 * n_frames through the pipeline as an encoder's send/receive loop does it:
 * push while there is room (a full ring must say CT_EAGAIN), take what is
 * done; wait for the oldest only when the ring is full; drain at the end.
 * Returns CT_OK or the first error a call returned, after checking that
 * every call repeats it.
 */
static int run_stream(ct_pipeline *p, recorder *rec, uint64_t n_frames)
{
    uint64_t pushed = 0, popped = 0;
    int rc = CT_OK;
    while (rc == CT_OK && pushed < n_frames) {
        if (ct_pipeline_in_flight(p) < rec->slot_count) {
            rc = push_frame(p, rec, pushed);
            if (rc == CT_OK)
                pushed++;
        } else {
            check(ct_pipeline_push(p) == CT_EAGAIN || rec->fail_stage >= 0,
                  "%s: push into a full ring is not CT_EAGAIN",
                  rec->context);
            rc = pop_frame(p, rec, true, popped);
            if (rc == CT_OK)
                popped++;
        }
        while (rc == CT_OK && (rc = pop_frame(p, rec, false, popped)) == CT_OK)
            popped++;
        if (rc == CT_EAGAIN)
            rc = CT_OK;
        check(rc != CT_OK || (ct_pipeline_in_flight(p) == pushed - popped &&
                              pushed - popped <= rec->slot_count),
              "%s: %zu in flight, %llu pushed, %llu popped", rec->context,
              ct_pipeline_in_flight(p), (unsigned long long)pushed,
              (unsigned long long)popped);
    }
    if (rc == CT_OK)
        rc = ct_pipeline_drain(p);
    /* Drained: everything is done, no waiting needed. */
    while (rc == CT_OK && popped < pushed)
        if ((rc = pop_frame(p, rec, false, popped)) == CT_OK)
            popped++;
    if (rc == CT_OK) {
        check(ct_pipeline_in_flight(p) == 0, "%s: frames left after drain",
              rec->context);
        check(ct_pipeline_peek(p, true, NULL, NULL) == CT_EAGAIN,
              "%s: peek on an empty ring is not CT_EAGAIN", rec->context);
        check(ct_pipeline_pop(p) == CT_EAGAIN,
              "%s: pop on an empty ring is not CT_EAGAIN", rec->context);
        for (int s = 0; s < rec->n_stages; s++)
            check(atomic_load(&rec->runs[s]) == n_frames,
                  "%s: stage %d ran %lu times for %llu frames", rec->context,
                  s, atomic_load(&rec->runs[s]), (unsigned long long)n_frames);
        return CT_OK;
    }

    /* An error sticks until a reset. */
    check(popped <= rec->fail_frame,
          "%s: frame %llu came out though frame %llu failed", rec->context,
          (unsigned long long)popped, (unsigned long long)rec->fail_frame);
    check(ct_pipeline_push(p) == rc, "%s: push forgot error %d",
          rec->context, rc);
    check(ct_pipeline_peek(p, true, NULL, NULL) == rc,
          "%s: peek forgot error %d", rec->context, rc);
    check(ct_pipeline_pop(p) == rc, "%s: pop forgot error %d", rec->context,
          rc);
    check(ct_pipeline_drain(p) == rc, "%s: drain forgot error %d",
          rec->context, rc);
    return rc;
}

/* After ct_pipeline_reset(): empty, and no task runs any more. */
static void check_reset(ct_pipeline *p, recorder *rec)
{
    atomic_store(&rec->tasks_allowed, 0);
    check(ct_pipeline_in_flight(p) == 0, "%s: frames left after reset",
          rec->context);
    check(ct_pipeline_peek(p, true, NULL, NULL) == CT_EAGAIN,
          "%s: peek after reset is not CT_EAGAIN", rec->context);
    check(ct_pipeline_drain(p) == CT_OK, "%s: drain after reset failed",
          rec->context);
    /* Time for a straggler to show itself. */
    for (int i = 0; i < 10; i++)
        sleep_briefly();
    recorder_clear_stages(rec);
    atomic_store(&rec->tasks_allowed, 1);
}

static bool runs_inline(const ct_pool *pool)
{
    return ct_pool_threads(pool) == 1;
}

/* One pattern, ring and length, checked; then reused after a reset. */
static void test_stream(ct_pool *pool, worker_tracker *tracker,
                        const char *pattern, size_t slot_count,
                        uint64_t n_frames, const char *pool_name)
{
    char context[128];
    snprintf(context, sizeof(context), "%s, %s, %zu slots, %llu frames",
             pool_name, pattern, slot_count, (unsigned long long)n_frames);
    recorder rec;
    recorder_init(&rec, pattern, slot_count, tracker, context);
    ct_pipeline *p = new_recorded_pipeline(pool, &rec);
    if (p != NULL) {
        if (!runs_inline(pool) && slot_count >= 2 && n_frames >= 2)
            recorder_want_company(&rec);
        check(run_stream(p, &rec, n_frames) == CT_OK, "%s: failed", context);
        for (int s = 0; s < rec.n_stages; s++)
            check(rec.kinds[s] == CT_PIPELINE_SERIAL || runs_inline(pool) ||
                      slot_count < 2 || n_frames < 2 ||
                      atomic_load(&rec.most_running[s]) >= 2,
                  "%s: parallel stage %d never ran two frames at once",
                  context, s);
        ct_pipeline_reset(p);
        check_reset(p, &rec);
        check(run_stream(p, &rec, n_frames / 2 + 1) == CT_OK,
              "%s: failed after a reset", context);
        ct_pipeline_free(p);
    }
    recorder_free(&rec);
}

static void test_streams(ct_pool *pool, const char *pool_name)
{
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    const size_t slot_counts[] = {2, 16, ct_pipeline_ring_size(pool), 128};
    const uint64_t frame_counts[] = {0, 1, 300};
    for (size_t i = 0; i < sizeof(patterns) / sizeof(*patterns); i++)
        for (size_t j = 0; j < sizeof(slot_counts) / sizeof(*slot_counts); j++)
            for (size_t k = 0; k < sizeof(frame_counts) / sizeof(*frame_counts);
                 k++)
                test_stream(pool, &tracker, patterns[i], slot_counts[j],
                            frame_counts[k], pool_name);
}

/* A full ring refuses pushes until a frame is popped. */
static void test_backpressure(ct_pool *pool, const char *pool_name)
{
    char context[96];
    snprintf(context, sizeof(context), "%s, backpressure", pool_name);
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    const size_t slot_count = 5;
    recorder rec;
    recorder_init(&rec, "SPSPS", slot_count, &tracker, context);
    ct_pipeline *p = new_recorded_pipeline(pool, &rec);
    if (p != NULL) {
        for (uint64_t frame = 0; frame < slot_count; frame++)
            check(push_frame(p, &rec, frame) == CT_OK,
                  "%s: push %llu of %zu failed", context,
                  (unsigned long long)frame, slot_count);
        for (int i = 0; i < 3; i++)
            check(ct_pipeline_push(p) == CT_EAGAIN,
                  "%s: a full ring took a push", context);
        check(ct_pipeline_in_flight(p) == slot_count, "%s: %zu in flight",
              context, ct_pipeline_in_flight(p));
        check(pop_frame(p, &rec, true, 0) == CT_OK, "%s: no frame 0",
              context);
        check(push_frame(p, &rec, slot_count) == CT_OK,
              "%s: no push after a pop", context);
        check(ct_pipeline_push(p) == CT_EAGAIN,
              "%s: a full ring took a push", context);
        check(ct_pipeline_drain(p) == CT_OK, "%s: drain failed", context);
        check(ct_pipeline_push(p) == CT_EAGAIN,
              "%s: a full, drained ring took a push", context);
        for (uint64_t frame = 1; frame <= slot_count; frame++)
            check(pop_frame(p, &rec, false, frame) == CT_OK,
                  "%s: frame %llu not done after drain", context,
                  (unsigned long long)frame);
        ct_pipeline_free(p);
    }
    recorder_free(&rec);
}

/* Drain with nothing, one frame, many frames in flight. */
static void test_drain(ct_pool *pool, const char *pool_name)
{
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    const size_t slot_count = 64;
    const uint64_t frame_counts[] = {0, 1, 2, 63, 64};
    for (size_t i = 0; i < sizeof(frame_counts) / sizeof(*frame_counts); i++) {
        char context[96];
        snprintf(context, sizeof(context), "%s, drain of %llu", pool_name,
                 (unsigned long long)frame_counts[i]);
        recorder rec;
        recorder_init(&rec, "PSPSS", slot_count, &tracker, context);
        ct_pipeline *p = new_recorded_pipeline(pool, &rec);
        if (p == NULL) {
            recorder_free(&rec);
            continue;
        }
        for (int round = 0; round < 2; round++) {
            for (uint64_t frame = 0; frame < frame_counts[i]; frame++)
                check(push_frame(p, &rec, frame) == CT_OK, "%s: push failed",
                      context);
            check(ct_pipeline_drain(p) == CT_OK, "%s: drain failed", context);
            check(ct_pipeline_drain(p) == CT_OK, "%s: drain twice failed",
                  context);
            for (uint64_t frame = 0; frame < frame_counts[i]; frame++)
                check(pop_frame(p, &rec, false, frame) == CT_OK,
                      "%s: frame %llu not done", context,
                      (unsigned long long)frame);
            check(ct_pipeline_in_flight(p) == 0, "%s: frames left", context);
            /* Once more from frame 0. */
            ct_pipeline_reset(p);
            check_reset(p, &rec);
        }
        ct_pipeline_free(p);
        recorder_free(&rec);
    }
}

/* Resets with frames at every point of the ring, then a clean stream. */
static void test_reset_mid_stream(ct_pool *pool, const char *pool_name)
{
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    char context[96];
    snprintf(context, sizeof(context), "%s, reset mid-stream", pool_name);
    const size_t slot_count = 16;
    recorder rec;
    recorder_init(&rec, "SPSPS", slot_count, &tracker, context);
    ct_pipeline *p = new_recorded_pipeline(pool, &rec);
    if (p == NULL) {
        recorder_free(&rec);
        return;
    }
    for (uint64_t n_pushed = 0; n_pushed <= slot_count; n_pushed += 3) {
        for (uint64_t frame = 0; frame < n_pushed; frame++)
            check(push_frame(p, &rec, frame) == CT_OK, "%s: push failed",
                  context);
        if (n_pushed > 2)
            check(pop_frame(p, &rec, true, 0) == CT_OK, "%s: no frame 0",
                  context);
        ct_pipeline_reset(p);
        check_reset(p, &rec);
    }
    /* Resets while tasks run: stage 2 is slow, frames queue up behind it. */
    rec.slow_stage = 2;
    for (int round = 0; round < 5; round++) {
        for (uint64_t frame = 0; frame < slot_count; frame++)
            check(push_frame(p, &rec, frame) == CT_OK, "%s: push failed",
                  context);
        check(pop_frame(p, &rec, true, 0) == CT_OK, "%s: no frame 0",
              context);
        ct_pipeline_reset(p);
        check_reset(p, &rec);
    }
    rec.slow_stage = -1;
    check(run_stream(p, &rec, 200) == CT_OK, "%s: failed after resets",
          context);
    ct_pipeline_free(p);
    recorder_free(&rec);
}

/* A stage error stops the pipeline, sticks, and a reset clears it. */
static void test_errors(ct_pool *pool, const char *pool_name)
{
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    const struct {
        const char *pattern;
        int stage;
        uint64_t frame;
    } cases[] = {
        {"SPSPS", 0, 0}, {"SPSPS", 1, 7}, {"SPSPS", 2, 40},
        {"SPSPS", 4, 99}, {"PPP", 2, 0}, {"PSPPS", 3, 150},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char context[96];
        snprintf(context, sizeof(context), "%s, %s failing in stage %d of "
                 "frame %llu", pool_name, cases[i].pattern, cases[i].stage,
                 (unsigned long long)cases[i].frame);
        recorder rec;
        recorder_init(&rec, cases[i].pattern, 16, &tracker, context);
        rec.fail_stage = cases[i].stage;
        rec.fail_frame = cases[i].frame;
        rec.fail_code = CT_ENOMEM;
        ct_pipeline *p = new_recorded_pipeline(pool, &rec);
        if (p == NULL) {
            recorder_free(&rec);
            continue;
        }
        check(run_stream(p, &rec, 200) == CT_ENOMEM,
              "%s: the error did not come out", context);
        if (runs_inline(pool))
            for (int s = cases[i].stage + 1; s < rec.n_stages; s++)
                check(atomic_load(&rec.runs[s]) == cases[i].frame,
                      "%s: stage %d ran %lu times, after the error", context,
                      s, atomic_load(&rec.runs[s]));
        ct_pipeline_reset(p);
        check_reset(p, &rec);
        rec.fail_stage = -1;
        check(run_stream(p, &rec, 100) == CT_OK,
              "%s: failed after the reset", context);
        ct_pipeline_free(p);
        recorder_free(&rec);
    }
}

/* A pipeline on a pool of its own, with frames 0 .. n_frames - 1 pushed and
 * frame 0 held in stage 0 until rec.gate_open. */
typedef struct gated_run {
    ct_pool *pool;
    worker_tracker tracker;
    recorder rec;
    ct_pipeline *p;
} gated_run;

/* Starts the run; log_capacity > 0 logs that many tasks. False (after a
 * failed check) when the pool or the pipeline could not be made. */
static bool gated_run_start(gated_run *run, int threads, const char *pattern,
                            const char *context, size_t log_capacity,
                            uint64_t n_frames)
{
    run->pool = tracked_pool_new(threads, &run->tracker);
    if (run->pool == NULL)
        return false;
    recorder_init(&run->rec, pattern, 16, &run->tracker, context);
    if (log_capacity > 0) {
        run->rec.log_capacity = log_capacity;
        run->rec.log = checked_calloc(log_capacity, sizeof(*run->rec.log));
    }
    run->rec.gate_stage = 0;
    run->rec.gate_frame = 0;
    run->p = new_recorded_pipeline(run->pool, &run->rec);
    if (run->p == NULL) {
        recorder_free(&run->rec);
        ct_pool_unref(run->pool);
        return false;
    }
    for (uint64_t frame = 0; frame < n_frames; frame++)
        check(push_frame(run->p, &run->rec, frame) == CT_OK,
              "%s: push failed", context);
    return true;
}

static void gated_run_free(gated_run *run)
{
    ct_pipeline_free(run->p);
    recorder_free(&run->rec);
    ct_pool_unref(run->pool);
}

/*
 * On a pool of two, only the pool thread runs tasks while the caller does
 * not wait. With every frame pushed while it is held in the first task, it
 * then takes them latest stage first: one frame through all stages, then
 * the next.
 */
static void test_priorities(void)
{
    const char *context = "priorities";
    const uint64_t n_frames = 6;
    gated_run run;
    if (!gated_run_start(&run, 2, "SPSPS", context, (size_t)n_frames * 5,
                         n_frames))
        return;
    recorder *rec = &run.rec;
    atomic_store(&rec->gate_open, 1);
    /* Waiting would make the caller a worker too: poll instead. */
    const double deadline = ct_clock_seconds() + DEADLINE_SECONDS;
    while (atomic_load(&rec->log_length) < rec->log_capacity &&
           ct_clock_seconds() < deadline)
        sleep_briefly();
    check(ct_pipeline_drain(run.p) == CT_OK, "%s: drain failed", context);
    for (size_t i = 0; i < rec->log_capacity; i++) {
        const uint64_t entry = atomic_load(&rec->log[i]);
        const uint64_t stage = entry >> 56, frame = entry & 0xffffffu;
        if (!check(stage == i % 5 && frame == i / 5,
                   "%s: task %zu was stage %llu of frame %llu, expected "
                   "stage %zu of frame %zu", context, i,
                   (unsigned long long)stage, (unsigned long long)frame,
                   i % 5, i / 5))
            break;
    }
    gated_run_free(&run);
}

/*
 * A serial stage waiting for its predecessor holds no worker: with frame 0
 * held in parallel stage 0, the serial stage 1 of frames 1.. cannot start,
 * yet the other worker still runs stage 0 of every later frame.
 */
static void test_serial_wait_holds_no_worker(void)
{
    const char *context = "serial wait";
    const uint64_t n_frames = 12;
    gated_run run;
    if (!gated_run_start(&run, 3, "PSP", context, 0, n_frames))
        return;
    recorder *rec = &run.rec;
    const double deadline = ct_clock_seconds() + DEADLINE_SECONDS;
    while (atomic_load(&rec->runs[0]) < n_frames - 1 &&
           ct_clock_seconds() < deadline)
        sleep_briefly();
    check(atomic_load(&rec->runs[0]) == n_frames - 1 &&
              atomic_load(&rec->runs[1]) == 0,
          "%s: with frame 0 held, stage 0 ran %lu times, stage 1 %lu",
          context, atomic_load(&rec->runs[0]), atomic_load(&rec->runs[1]));
    atomic_store(&rec->gate_open, 1);
    check(ct_pipeline_drain(run.p) == CT_OK, "%s: drain failed", context);
    for (uint64_t frame = 0; frame < n_frames; frame++)
        check(pop_frame(run.p, rec, false, frame) == CT_OK,
              "%s: frame %llu not done", context, (unsigned long long)frame);
    gated_run_free(&run);
}

/* Stage jobs that share the worker tracker with pipeline tasks. */
static int tracked_job(void *ctx, size_t job, int worker)
{
    worker_tracker *tracker = ctx;
    if (worker_enter(tracker, worker, "stage job")) {
        if (job % 16 == 0)
            sched_yield();
        worker_leave(tracker, worker);
    }
    return CT_OK;
}

typedef struct pool_user {
    ct_pool *pool;
    worker_tracker *tracker;
    int user;
    pthread_t thread;
} pool_user;

static void *stage_user_main(void *arg)
{
    const pool_user *self = arg;
    for (size_t i = 0; i < 300; i++)
        check(ct_stage_run(self->pool, (i * 37) % 97, tracked_job,
                           self->tracker) == CT_OK,
              "shared pool: a stage failed");
    return NULL;
}

static void *pipeline_user_main(void *arg)
{
    const pool_user *self = arg;
    char context[96];
    snprintf(context, sizeof(context), "shared pool of %d, pipeline user %d",
             ct_pool_threads(self->pool), self->user);
    recorder rec;
    recorder_init(&rec, patterns[self->user % 5], 8, self->tracker, context);
    ct_pipeline *p = new_recorded_pipeline(self->pool, &rec);
    if (p != NULL) {
        for (int round = 0; round < 4; round++) {
            check(run_stream(p, &rec, 300) == CT_OK, "%s: failed", context);
            ct_pipeline_reset(p);
            recorder_clear_stages(&rec);
        }
        ct_pipeline_free(p);
    }
    recorder_free(&rec);
    return NULL;
}

/* Stages and pipelines from several threads on one pool at once. */
static void test_shared_pool(int threads)
{
    worker_tracker tracker;
    ct_pool *pool = tracked_pool_new(threads, &tracker);
    if (pool == NULL)
        return;
    pool_user users[4];
    for (int u = 0; u < 4; u++)
        users[u] = (pool_user){.pool = pool, .tracker = &tracker, .user = u};
    int started = 0;
    while (started < 4 &&
           check(pthread_create(&users[started].thread, NULL,
                                started == 0 ? stage_user_main
                                             : pipeline_user_main,
                                &users[started]) == 0,
                 "pthread_create failed"))
        started++;
    for (int i = 0; i < started; i++)
        pthread_join(users[i].thread, NULL);
    ct_pool_unref(pool);
}

/* Pipelines created and freed in every state, on pools of every size. */
static void test_create_destroy(void)
{
    ct_pool *pools[4] = {NULL, ct_pool_new(1), ct_pool_new(3),
                         ct_pool_new(MAX_THREADS)};
    worker_tracker trackers[4];
    for (int i = 0; i < 4; i++)
        worker_tracker_init(&trackers[i], pools[i]);
    for (int i = 0; i < 1000; i++) {
        char context[96];
        snprintf(context, sizeof(context), "short-lived pipeline %d", i);
        recorder rec;
        recorder_init(&rec, patterns[i % 5], 1 + (size_t)i % 20,
                      &trackers[i % 4], context);
        ct_pipeline *p = new_recorded_pipeline(pools[i % 4], &rec);
        if (p == NULL) {
            recorder_free(&rec);
            continue;
        }
        const uint64_t n_frames = (uint64_t)i % 37;
        const size_t fill = (size_t)i % rec.slot_count;
        switch (i % 3) {
        case 0: /* freed with frames in flight */
            for (uint64_t frame = 0; frame < fill; frame++)
                push_frame(p, &rec, frame);
            break;
        case 1:
            check(run_stream(p, &rec, n_frames) == CT_OK, "%s: failed",
                  context);
            break;
        case 2:
            for (uint64_t frame = 0; frame < fill; frame++)
                push_frame(p, &rec, frame);
            ct_pipeline_reset(p);
            break;
        }
        ct_pipeline_free(p);
        recorder_free(&rec);
    }
    for (int i = 0; i < 4; i++)
        ct_pool_unref(pools[i]);
}

/*
 * A companion beside its partner: stages Serial, Partner (serial),
 * Companion, Serial. The partner of frame f marks itself started, waits a
 * while for the companion to start (where a worker is free it does), then
 * closes the frame; the companion waits for its frame's close, as a
 * helper serves its partner until the frame's end. The last stage checks
 * both are done.
 */
#define COMPANION_FRAMES 200
/* A partner's wait for its companion: long, it only bounds a failure. */
#define COMPANION_WAIT_SECONDS 5.0

typedef struct companion_run {
    const char *context;
    bool inline_path;    /* a NULL pool or one worker */
    uint64_t fail_frame; /* the companion returns CT_EUNSUPPORTED there */
    atomic_uint_fast64_t partner_started; /* frames whose partner started */
    atomic_uint_fast64_t closed;          /* frames whose partner is done */
    atomic_uint_fast64_t companion_started;
    atomic_uint_fast64_t companion_next; /* the next frame it should get */
    atomic_uint_fast64_t concurrent;     /* frames where both ran at once */
    uint64_t *companion_done;            /* per slot: frame + 1, plain memory */
    uint64_t last_done;                  /* the last stage's frames */
} companion_run;

static int companion_first(void *ctx, size_t slot, uint64_t frame, int worker)
{
    (void)ctx;
    (void)slot;
    (void)frame;
    (void)worker;
    return CT_OK;
}

static int companion_partner(void *ctx, size_t slot, uint64_t frame, int worker)
{
    (void)slot;
    (void)worker;
    companion_run *run = ctx;
    atomic_store(&run->partner_started, frame + 1);
    if (!run->inline_path) {
        const double deadline = ct_clock_seconds() + COMPANION_WAIT_SECONDS;
        while (atomic_load(&run->companion_started) < frame + 1 &&
               ct_clock_seconds() < deadline)
            sched_yield();
        if (atomic_load(&run->companion_started) >= frame + 1)
            atomic_fetch_add(&run->concurrent, 1);
    }
    atomic_store(&run->closed, frame + 1);
    return CT_OK;
}

static int companion_helper(void *ctx, size_t slot, uint64_t frame, int worker)
{
    (void)worker;
    companion_run *run = ctx;
    check(atomic_load(&run->companion_next) == frame,
          "%s: the companion got frame %llu, expected %llu", run->context,
          (unsigned long long)frame,
          (unsigned long long)atomic_load(&run->companion_next));
    atomic_store(&run->companion_next, frame + 1);
    if (run->inline_path)
        check(atomic_load(&run->closed) >= frame + 1,
              "%s: inline, the companion of frame %llu ran before its "
              "partner was done",
              run->context, (unsigned long long)frame);
    atomic_store(&run->companion_started, frame + 1);
    /* Its partner was taken first: it runs (or ran) on another worker. */
    const double deadline = ct_clock_seconds() + DEADLINE_SECONDS;
    while (atomic_load(&run->closed) < frame + 1 &&
           ct_clock_seconds() < deadline)
        sched_yield();
    check(atomic_load(&run->closed) >= frame + 1,
          "%s: the partner of frame %llu never ran", run->context,
          (unsigned long long)frame);
    run->companion_done[slot] = frame + 1;
    return frame == run->fail_frame ? CT_EUNSUPPORTED : CT_OK;
}

static int companion_last(void *ctx, size_t slot, uint64_t frame, int worker)
{
    (void)worker;
    companion_run *run = ctx;
    check(atomic_load(&run->closed) >= frame + 1 &&
              run->companion_done[slot] == frame + 1,
          "%s: frame %llu left its pair before both were done", run->context,
          (unsigned long long)frame);
    check(run->last_done == frame, "%s: the last stage got frame %llu",
          run->context, (unsigned long long)frame);
    run->last_done = frame + 1;
    return CT_OK;
}

/* Pushes COMPANION_FRAMES frames and drains; returns the pipeline's code. */
static int companion_stream(ct_pipeline *p)
{
    uint64_t pushed = 0;
    int rc = CT_OK;
    while (rc == CT_OK && pushed < COMPANION_FRAMES) {
        rc = ct_pipeline_push(p);
        if (rc == CT_OK) {
            pushed++;
        } else if (rc == CT_EAGAIN) {
            rc = ct_pipeline_peek(p, true, NULL, NULL);
            if (rc == CT_OK)
                rc = ct_pipeline_pop(p);
        }
    }
    if (rc == CT_OK)
        rc = ct_pipeline_drain(p);
    while (rc == CT_OK && ct_pipeline_in_flight(p) > 0)
        rc = ct_pipeline_pop(p);
    return rc;
}

/* The pipeline reset (frames from 0), the next stream failing at
 * fail_frame. */
static void companion_restart(ct_pipeline *p, companion_run *run,
                              uint64_t fail_frame)
{
    ct_pipeline_reset(p);
    run->fail_frame = fail_frame;
    atomic_store(&run->partner_started, 0);
    atomic_store(&run->closed, 0);
    atomic_store(&run->companion_started, 0);
    atomic_store(&run->companion_next, 0);
    atomic_store(&run->concurrent, 0);
    run->last_done = 0;
}

static void test_companion(ct_pool *pool, const char *pool_name)
{
    const ct_pipeline_stage stages[] = {
        {companion_first, CT_PIPELINE_PARALLEL},
        {companion_partner, CT_PIPELINE_SERIAL},
        {companion_helper, CT_PIPELINE_COMPANION},
        {companion_last, CT_PIPELINE_SERIAL},
    };
    char context[64];
    snprintf(context, sizeof(context), "%s, companion", pool_name);
    companion_run run = {.context = context, .inline_path = runs_inline(pool)};
    const size_t slot_count = ct_pipeline_ring_size(pool);
    run.companion_done = checked_calloc(slot_count, sizeof(uint64_t));
    ct_pipeline *p = ct_pipeline_new(pool, stages, 4, slot_count, &run);
    if (!check(p != NULL, "%s: ct_pipeline_new failed", context)) {
        free(run.companion_done);
        return;
    }

    companion_restart(p, &run, NO_FRAME);
    check(companion_stream(p) == CT_OK, "%s: the stream failed", context);
    check(run.last_done == COMPANION_FRAMES,
          "%s: %llu of %d frames came through", context,
          (unsigned long long)run.last_done, COMPANION_FRAMES);
    /* Every frame: the partner waits for its companion, and a worker is
     * always free before long (the caller waits too). */
    if (!run.inline_path)
        check(atomic_load(&run.concurrent) == COMPANION_FRAMES,
              "%s: the companion ran beside its partner in %llu of %d "
              "frames",
              context, (unsigned long long)atomic_load(&run.concurrent),
              COMPANION_FRAMES);

    /* A companion's error stops the pipeline; a reset clears it (and
     * restarts the frames). */
    companion_restart(p, &run, 37);
    check(companion_stream(p) == CT_EUNSUPPORTED,
          "%s: the companion's error did not come out", context);
    /* The tasks running at the error finish first. */
    ct_pipeline_reset(p);
    check(run.last_done <= 37, "%s: frame %llu went on past the error", context,
          (unsigned long long)run.last_done);
    companion_restart(p, &run, NO_FRAME);
    check(companion_stream(p) == CT_OK, "%s: failed after the reset", context);
    check(run.last_done == COMPANION_FRAMES,
          "%s: after the reset, %llu of %d frames came through", context,
          (unsigned long long)run.last_done, COMPANION_FRAMES);

    ct_pipeline_free(p);
    free(run.companion_done);
}

static int any_stage(void *ctx, size_t slot, uint64_t frame, int worker)
{
    (void)ctx;
    (void)slot;
    (void)frame;
    (void)worker;
    return CT_OK;
}

static void test_invalid_arguments(void)
{
    const ct_pipeline_stage good[] = {{any_stage, CT_PIPELINE_SERIAL},
                                      {any_stage, CT_PIPELINE_PARALLEL}};
    const ct_pipeline_stage no_fn[] = {{any_stage, CT_PIPELINE_SERIAL},
                                       {NULL, CT_PIPELINE_PARALLEL}};
    const ct_pipeline_stage bad_kind[] = {{any_stage, (ct_pipeline_kind)7}};
    const ct_pipeline_stage first_companion[] = {
        {any_stage, CT_PIPELINE_COMPANION}, {any_stage, CT_PIPELINE_SERIAL}};
    const ct_pipeline_stage parallel_partner[] = {
        {any_stage, CT_PIPELINE_PARALLEL}, {any_stage, CT_PIPELINE_COMPANION}};
    const ct_pipeline_stage two_companions[] = {
        {any_stage, CT_PIPELINE_SERIAL},
        {any_stage, CT_PIPELINE_COMPANION},
        {any_stage, CT_PIPELINE_COMPANION}};
    check(ct_pipeline_new(NULL, NULL, 1, 16, NULL) == NULL,
          "no stages is not NULL");
    check(ct_pipeline_new(NULL, good, 0, 16, NULL) == NULL,
          "0 stages is not NULL");
    check(ct_pipeline_new(NULL, good, 2, 0, NULL) == NULL,
          "0 slots is not NULL");
    check(ct_pipeline_new(NULL, no_fn, 2, 16, NULL) == NULL,
          "a NULL function is not NULL");
    check(ct_pipeline_new(NULL, bad_kind, 1, 16, NULL) == NULL,
          "an unknown kind is not NULL");
    check(ct_pipeline_new(NULL, first_companion, 2, 16, NULL) == NULL,
          "a companion as the first stage is not NULL");
    check(ct_pipeline_new(NULL, parallel_partner, 2, 16, NULL) == NULL,
          "a companion after a parallel stage is not NULL");
    check(ct_pipeline_new(NULL, two_companions, 3, 16, NULL) == NULL,
          "a companion after a companion is not NULL");
    ct_pipeline_free(NULL);

    ct_pipeline *one_slot = ct_pipeline_new(NULL, good, 2, 1, NULL);
    if (check(one_slot != NULL, "a ring of 1 slot failed")) {
        check(ct_pipeline_push(one_slot) == CT_OK &&
                  ct_pipeline_push(one_slot) == CT_EAGAIN &&
                  ct_pipeline_pop(one_slot) == CT_OK &&
                  ct_pipeline_push(one_slot) == CT_OK,
              "a ring of 1 slot is not one frame at a time");
        ct_pipeline_free(one_slot);
    }

    check(ct_pipeline_ring_size(NULL) == 16, "ring of a NULL pool");
    const struct {
        int threads;
        size_t slots;
    } rings[] = {{1, 16}, {4, 16}, {5, 20}, {8, 32}, {33, 128}};
    for (size_t i = 0; i < sizeof(rings) / sizeof(*rings); i++) {
        ct_pool *pool = ct_pool_new(rings[i].threads);
        if (pool != NULL && ct_pool_threads(pool) == rings[i].threads)
            check(ct_pipeline_ring_size(pool) == rings[i].slots,
                  "ring for %d threads: %zu slots, expected %zu",
                  rings[i].threads, ct_pipeline_ring_size(pool),
                  rings[i].slots);
        ct_pool_unref(pool);
    }
}

/* The cost of the pipeline itself: tasks that do almost nothing. */
typedef struct tiny_frames {
    uint64_t *value; /* per slot */
    size_t slot_count;
} tiny_frames;

static int tiny_stage(void *ctx, size_t slot, uint64_t frame, int worker)
{
    (void)worker;
    tiny_frames *tiny = ctx;
    tiny->value[slot] += frame;
    return CT_OK;
}

static void test_throughput(int threads, uint64_t n_frames)
{
    ct_pool *pool = ct_pool_new(threads);
    if (!check(pool != NULL, "ct_pool_new(%d) failed", threads))
        return;
    tiny_frames tiny = {.slot_count = ct_pipeline_ring_size(pool)};
    tiny.value = checked_calloc(tiny.slot_count, sizeof(uint64_t));
    ct_pipeline_stage stages[5];
    for (int s = 0; s < 5; s++)
        stages[s] = (ct_pipeline_stage){
            tiny_stage, s % 2 == 0 ? CT_PIPELINE_SERIAL : CT_PIPELINE_PARALLEL};
    ct_pipeline *p = ct_pipeline_new(pool, stages, 5, tiny.slot_count, &tiny);
    if (!check(p != NULL, "throughput: ct_pipeline_new failed")) {
        free(tiny.value);
        ct_pool_unref(pool);
        return;
    }

    const double start = ct_clock_seconds();
    uint64_t pushed = 0, popped = 0;
    while (popped < n_frames) {
        while (pushed < n_frames && ct_pipeline_push(p) == CT_OK)
            pushed++;
        uint64_t frame;
        bool wait = true;
        while (ct_pipeline_peek(p, wait, &frame, NULL) == CT_OK) {
            if (!check(frame == popped, "throughput: frame %llu out as %llu",
                       (unsigned long long)popped, (unsigned long long)frame))
                break;
            ct_pipeline_pop(p);
            popped++;
            wait = false;
        }
        if (wait)
            break;
    }
    const double seconds = ct_clock_seconds() - start;
    check(popped == n_frames, "throughput: %llu of %llu frames came out",
          (unsigned long long)popped, (unsigned long long)n_frames);
    printf("%llu frames x 5 stages (SPSPS), %d threads, %zu slots: %.0f ns "
           "per frame\n", (unsigned long long)n_frames, threads,
           tiny.slot_count, 1e9 * seconds / (double)n_frames);
    ct_pipeline_free(p);
    free(tiny.value);
    ct_pool_unref(pool);
}

int main(void)
{
    test_invalid_arguments();

    test_streams(NULL, "NULL pool");
    test_backpressure(NULL, "NULL pool");
    test_drain(NULL, "NULL pool");
    test_reset_mid_stream(NULL, "NULL pool");
    test_errors(NULL, "NULL pool");
    test_companion(NULL, "NULL pool");
    for (int threads = 1; threads <= MAX_THREADS; threads++) {
        ct_pool *pool = ct_pool_new(threads);
        if (!check(pool != NULL && ct_pool_threads(pool) == threads,
                   "ct_pool_new(%d) failed", threads)) {
            ct_pool_unref(pool);
            continue;
        }
        char name[32];
        snprintf(name, sizeof(name), "pool of %d", threads);
        test_streams(pool, name);
        test_backpressure(pool, name);
        test_drain(pool, name);
        test_reset_mid_stream(pool, name);
        test_errors(pool, name);
        test_companion(pool, name);
        ct_pool_unref(pool);
    }
    test_priorities();
    test_serial_wait_holds_no_worker();
    test_shared_pool(1);
    test_shared_pool(2);
    test_shared_pool(MAX_THREADS);
    test_create_destroy();
    for (int threads = 1; threads <= MAX_THREADS; threads *= 2)
        test_throughput(threads, 100000);

    return check_finish("runtime pipelines: all checks passed");
}
