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
 * jobs with the same worker index run at the same time, so it indexes
 * per-worker scratch memory. Returns CT_OK or a negative CT_E* code.
 */
typedef int (*ct_job_fn)(void *ctx, size_t job, int worker);

/*
 * Runs jobs 0..n_jobs-1 of fn on the pool's workers (the caller is one of
 * them) and returns when all are done: workers claim job indices from an
 * atomic counter. Side jobs 0..n_side_jobs-1 of side_fn are claimed before
 * the stage's own jobs (the graphs free memory of earlier stages this way).
 * Returns CT_OK, or the first error a job returned; after an error the
 * remaining unclaimed jobs are skipped. A NULL pool runs everything in order
 * on the calling thread.
 */
int ct_stage_run(ct_pool *pool, size_t n_jobs, ct_job_fn fn, void *ctx);
int ct_stage_run_with_side_jobs(ct_pool *pool, size_t n_side_jobs,
                                ct_job_fn side_fn, void *side_ctx,
                                size_t n_jobs, ct_job_fn fn, void *ctx);

#endif
