/*
 * Which workers of one pool are running a task or a job right now: the
 * runtime tests check that no worker index is out of range or runs two
 * things at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_WORKER_TRACKER_H
#define CT_TESTS_WORKER_TRACKER_H

#include <stdatomic.h>
#include <stdbool.h>

#include "check.h"
#include "ctcore/runtime.h"

/* The largest pool the runtime tests make. */
#define MAX_THREADS 8

typedef struct worker_tracker {
    int n_workers;
    atomic_int busy[MAX_THREADS];
} worker_tracker;

static inline void worker_tracker_init(worker_tracker *tracker,
                                       const ct_pool *pool)
{
    tracker->n_workers = ct_pool_threads(pool);
    for (int i = 0; i < MAX_THREADS; i++)
        atomic_init(&tracker->busy[i], 0);
}

/* A pool of `threads` and its tracker; NULL (after a failed check) when
 * the pool could not be made. */
static inline ct_pool *tracked_pool_new(int threads, worker_tracker *tracker)
{
    ct_pool *pool = ct_pool_new(threads);
    if (!check(pool != NULL, "ct_pool_new(%d) failed", threads))
        return NULL;
    worker_tracker_init(tracker, pool);
    return pool;
}

/* Marks `worker` busy running `what`: false (a failed check) when it is out
 * of range or busy already. */
static inline bool worker_enter(worker_tracker *tracker, int worker,
                                const char *what)
{
    if (!check(worker >= 0 && worker < tracker->n_workers,
               "%s: worker %d out of [0, %d)", what, worker,
               tracker->n_workers))
        return false;
    return check(atomic_exchange(&tracker->busy[worker], 1) == 0,
                 "%s: worker %d is already running something", what, worker);
}

static inline void worker_leave(worker_tracker *tracker, int worker)
{
    atomic_store(&tracker->busy[worker], 0);
}

#endif
