/*
 * What the pool (pool.c) and the stages (stage.c) know of each other: the
 * pool owns the threads and hands them a stage, the stage decides which jobs
 * a worker runs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_RUNTIME_POOL_INTERNAL_H
#define CTCORE_RUNTIME_POOL_INTERNAL_H

#include "ctcore/runtime.h"

/* A stage being run: its jobs, the next unclaimed one and the first error. */
typedef struct ct_stage ct_stage;

/*
 * Claims and runs jobs of `stage` as worker `worker` until none is left or
 * a job has failed (stage.c).
 */
void ct_stage_work(ct_stage *stage, int worker);

/*
 * Runs `stage` on workers 0..n_workers-1 of `pool` (1 <= n_workers <=
 * ct_pool_threads(pool)): the calling thread is worker 0, pool thread i is
 * worker i. Returns once every one of them has left the stage, so the stage
 * may live on the caller's stack. Stages on one pool run one at a time; a
 * second caller waits for the first (pool.c).
 */
void ct_pool_run_stage(ct_pool *pool, ct_stage *stage, int n_workers);

#endif
