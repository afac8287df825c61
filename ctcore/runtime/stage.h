/*
 * Fork-join stages: the building block of every ctcore task graph.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_RUNTIME_STAGE_H
#define CTCORE_RUNTIME_STAGE_H

#include <stddef.h>

#include "ctcore/runtime.h"

/*
 * One job of a stage. `worker` is in [0, ct_pool_threads(pool)) and no two
 * jobs with the same worker index run at the same time on one pool, even
 * for different callers, so it indexes per-worker scratch memory; worker 0
 * is the thread that called ct_stage_run(). Returns CT_OK or a negative
 * CT_E* code.
 */
typedef int (*ct_job_fn)(void *ctx, size_t job, int worker);

/*
 * Runs jobs 0..n_jobs-1 of fn on the pool's workers (the caller is one of
 * them) and returns when all are done: workers claim job indices from an
 * atomic counter. Side jobs 0..n_side_jobs-1 of side_fn are claimed before
 * the stage's own jobs (the graphs free memory of earlier stages this way);
 * they run even when n_jobs is 0. Returns CT_OK, or the first error a job
 * returned; after an error the remaining unclaimed jobs are skipped.
 * Nothing to run returns CT_OK at once; a NULL fn (side_fn) with jobs (side
 * jobs), or counts summing above SIZE_MAX / 2, return CT_EINVAL. A NULL pool
 * or a pool of one worker runs everything in order on the calling thread.
 *
 * Stages on one pool run one at a time: a second thread calling with the
 * same pool waits until the first stage is done. So a job must not run a
 * stage on its own pool: it would wait for itself forever.
 */
int ct_stage_run(ct_pool *pool, size_t n_jobs, ct_job_fn fn, void *ctx);
int ct_stage_run_with_side_jobs(ct_pool *pool, size_t n_side_jobs,
                                ct_job_fn side_fn, void *side_ctx,
                                size_t n_jobs, ct_job_fn fn, void *ctx);

#endif
