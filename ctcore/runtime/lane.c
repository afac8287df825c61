/*
 * The lane (lane.h): one job slot whose state moves
 * EMPTY -> POSTED (Encode) -> RUNNING (the helper's claim) -> DONE (the
 * helper) -> EMPTY (Encode), or POSTED -> EMPTY (Encode's claim back): the
 * two claims are one compare-and-swap, so exactly one side runs the job.
 *
 * Sleeping: a side about to sleep sets its `sleeping` flag, then looks at
 * the state again under the lock before each wait; the other side changes
 * the state, then looks at the flag and, where set, clears it and signals
 * under the lock (once: the posts that follow before the sleeper is up
 * make no system call). The flag and the state are sequentially
 * consistent, so one of the two sees the other's store: no wake-up is
 * lost.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include "runtime/lane.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "common/clock.h"

/* How long a side waits actively before it sleeps: Opus' theta trial
 * takes 1 to 2 µs and Encode posts a frame's trials a few µs apart, so
 * that a helper once awake stays awake through a frame's bands; a wake-up
 * costs tens of µs. */
#define SPIN_SECONDS 50e-6
/* The clock is read once every SPIN_CHECK pauses. */
#define SPIN_CHECK 32

enum job_state { JOB_EMPTY, JOB_POSTED, JOB_RUNNING, JOB_DONE };

struct ct_lane {
    atomic_int state;
    /* Written by Encode before the post, read by the side that claims. */
    ct_lane_job_fn fn;
    void *job;
    atomic_uint_fast64_t closed; /* the last ticket closed */
    atomic_bool helper_present;  /* a helper serves */

    pthread_mutex_t lock;
    pthread_cond_t helper_wake, encode_wake;
    atomic_bool helper_sleeping, encode_sleeping;

    atomic_uint_fast64_t served, taken_back;
    /* the trace: on, and the helper's time in jobs (the helper's alone
     * while it serves) */
    bool trace;
    double served_seconds;
};

static void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* A bounded active wait: true while it should go on. */
typedef struct spin {
    unsigned count;
    double deadline;
} spin;

static bool spin_on(spin *s)
{
    if (s->count++ % SPIN_CHECK == 0) {
        const double now = ct_clock_seconds();
        if (s->deadline == 0)
            s->deadline = now + SPIN_SECONDS;
        else if (now >= s->deadline)
            return false;
    }
    cpu_pause();
    return true;
}

ct_lane *ct_lane_new(void)
{
    ct_lane *lane = calloc(1, sizeof(*lane));
    if (lane == NULL)
        return NULL;
    if (pthread_mutex_init(&lane->lock, NULL) != 0) {
        free(lane);
        return NULL;
    }
    if (pthread_cond_init(&lane->helper_wake, NULL) != 0) {
        pthread_mutex_destroy(&lane->lock);
        free(lane);
        return NULL;
    }
    if (pthread_cond_init(&lane->encode_wake, NULL) != 0) {
        pthread_cond_destroy(&lane->helper_wake);
        pthread_mutex_destroy(&lane->lock);
        free(lane);
        return NULL;
    }
    ct_lane_reset(lane);
    return lane;
}

void ct_lane_free(ct_lane *lane)
{
    if (lane == NULL)
        return;
    pthread_cond_destroy(&lane->encode_wake);
    pthread_cond_destroy(&lane->helper_wake);
    pthread_mutex_destroy(&lane->lock);
    free(lane);
}

void ct_lane_reset(ct_lane *lane)
{
    atomic_store(&lane->state, JOB_EMPTY);
    atomic_store(&lane->closed, 0);
    atomic_store(&lane->helper_sleeping, false);
    atomic_store(&lane->encode_sleeping, false);
    atomic_store(&lane->helper_present, false);
    atomic_store(&lane->served, 0);
    atomic_store(&lane->taken_back, 0);
    lane->served_seconds = 0;
}

static void wake(ct_lane *lane, atomic_bool *sleeping, pthread_cond_t *cond)
{
    if (atomic_load(sleeping)) {
        pthread_mutex_lock(&lane->lock);
        if (atomic_load(sleeping)) {
            atomic_store(sleeping, false);
            pthread_cond_signal(cond);
        }
        pthread_mutex_unlock(&lane->lock);
    }
}

/* Sleeps until called(lane, ticket), with the protocol above. */
static void sleep_until(ct_lane *lane, atomic_bool *sleeping,
                        pthread_cond_t *cond,
                        bool (*called)(ct_lane *, uint64_t), uint64_t ticket)
{
    pthread_mutex_lock(&lane->lock);
    for (;;) {
        atomic_store(sleeping, true);
        if (called(lane, ticket))
            break;
        pthread_cond_wait(cond, &lane->lock);
    }
    atomic_store(sleeping, false);
    pthread_mutex_unlock(&lane->lock);
}

bool ct_lane_has_helper(const ct_lane *lane)
{
    return atomic_load(&((ct_lane *)lane)->helper_present);
}

void ct_lane_post(ct_lane *lane, ct_lane_job_fn fn, void *job)
{
    lane->fn = fn;
    lane->job = job;
    atomic_store(&lane->state, JOB_POSTED);
    wake(lane, &lane->helper_sleeping, &lane->helper_wake);
}

void ct_lane_wake(ct_lane *lane)
{
    wake(lane, &lane->helper_sleeping, &lane->helper_wake);
}

static bool job_done(ct_lane *lane, uint64_t ticket)
{
    (void)ticket;
    return atomic_load(&lane->state) == JOB_DONE;
}

bool ct_lane_complete(ct_lane *lane)
{
    int expected = JOB_POSTED;
    if (atomic_compare_exchange_strong(&lane->state, &expected, JOB_EMPTY)) {
        lane->fn(lane->job);
        atomic_fetch_add_explicit(&lane->taken_back, 1, memory_order_relaxed);
        return false;
    }
    /* The helper runs it. */
    spin s = {0};
    while (atomic_load(&lane->state) != JOB_DONE && spin_on(&s))
        ;
    if (!job_done(lane, 0))
        sleep_until(lane, &lane->encode_sleeping, &lane->encode_wake, job_done,
                    0);
    atomic_store(&lane->state, JOB_EMPTY);
    return true;
}

bool ct_lane_cancel(ct_lane *lane)
{
    int expected = JOB_POSTED;
    return atomic_compare_exchange_strong(&lane->state, &expected, JOB_EMPTY);
}

void ct_lane_close(ct_lane *lane, uint64_t ticket)
{
    atomic_store(&lane->closed, ticket);
    wake(lane, &lane->helper_sleeping, &lane->helper_wake);
}

/* Whether the helper has something to do: a job to claim, or its return. */
static bool helper_called(ct_lane *lane, uint64_t ticket)
{
    return atomic_load(&lane->state) == JOB_POSTED ||
           atomic_load(&lane->closed) >= ticket;
}

void ct_lane_serve(ct_lane *lane, uint64_t ticket)
{
    atomic_store(&lane->helper_present, true);
    for (;;) {
        spin s = {0};
        while (!helper_called(lane, ticket) && spin_on(&s))
            ;
        if (!helper_called(lane, ticket))
            sleep_until(lane, &lane->helper_sleeping, &lane->helper_wake,
                        helper_called, ticket);
        int expected = JOB_POSTED;
        if (atomic_compare_exchange_strong(&lane->state, &expected,
                                           JOB_RUNNING)) {
            const double start = lane->trace ? ct_clock_seconds() : 0;
            lane->fn(lane->job);
            if (lane->trace)
                lane->served_seconds += ct_clock_seconds() - start;
            atomic_fetch_add_explicit(&lane->served, 1, memory_order_relaxed);
            atomic_store(&lane->state, JOB_DONE);
            wake(lane, &lane->encode_sleeping, &lane->encode_wake);
        } else if (atomic_load(&lane->closed) >= ticket) {
            /* Encode closes only once its last job is complete. */
            atomic_store(&lane->helper_present, false);
            return;
        }
    }
}

void ct_lane_counts(const ct_lane *lane, uint64_t *served, uint64_t *taken_back)
{
    ct_lane *l = (ct_lane *)lane;
    if (served != NULL)
        *served = atomic_load(&l->served);
    if (taken_back != NULL)
        *taken_back = atomic_load(&l->taken_back);
}

void ct_lane_trace(ct_lane *lane, bool on)
{
    lane->trace = on;
}

double ct_lane_served_seconds(const ct_lane *lane)
{
    return lane->served_seconds;
}
