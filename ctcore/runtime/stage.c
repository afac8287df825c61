/*
 * Fork-join stages: one atomic counter hands out the job indices, side jobs
 * first, to whichever worker asks next; the first failing job's code stops
 * further claims. The pool (pool.c) brings the workers and joins them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdatomic.h>
#include <stdint.h>

#include "pool_internal.h"
#include "stage.h"

struct ct_stage {
    size_t n_side_jobs;
    ct_job_fn side_fn;
    void *side_ctx;
    size_t n_jobs;
    ct_job_fn fn;
    void *ctx;
    /* Claim index: 0..n_side_jobs-1 are the side jobs, the rest are fn's.
     * Job data is published and joined by the pool's lock, so the counter
     * itself needs no ordering. */
    atomic_size_t next_job;
    atomic_int error; /* CT_OK, or the first nonzero code a job returned */
};

void ct_stage_work(ct_stage *stage, int worker)
{
    const size_t n_claims = stage->n_side_jobs + stage->n_jobs;
    while (atomic_load_explicit(&stage->error, memory_order_relaxed) == CT_OK) {
        const size_t claim = atomic_fetch_add_explicit(&stage->next_job, 1,
                                                       memory_order_relaxed);
        if (claim >= n_claims)
            return;
        const int ret =
            claim < stage->n_side_jobs
                ? stage->side_fn(stage->side_ctx, claim, worker)
                : stage->fn(stage->ctx, claim - stage->n_side_jobs, worker);
        if (ret != CT_OK) {
            int no_error = CT_OK;
            atomic_compare_exchange_strong_explicit(&stage->error, &no_error,
                                                    ret, memory_order_relaxed,
                                                    memory_order_relaxed);
        }
    }
}

int ct_stage_run_with_side_jobs(ct_pool *pool, size_t n_side_jobs,
                                ct_job_fn side_fn, void *side_ctx,
                                size_t n_jobs, ct_job_fn fn, void *ctx)
{
    if ((n_side_jobs > 0 && side_fn == NULL) || (n_jobs > 0 && fn == NULL))
        return CT_EINVAL;
    /* Each worker overshoots the counter by one claim when it runs dry: a
     * sum up to SIZE_MAX / 2 leaves room for INT_MAX workers to do so. */
    if (n_side_jobs > SIZE_MAX / 2 || n_jobs > SIZE_MAX / 2 - n_side_jobs)
        return CT_EINVAL;
    const size_t n_claims = n_side_jobs + n_jobs;
    if (n_claims == 0)
        return CT_OK;

    ct_stage stage = {
        .n_side_jobs = n_side_jobs,
        .side_fn = side_fn,
        .side_ctx = side_ctx,
        .n_jobs = n_jobs,
        .fn = fn,
        .ctx = ctx,
    };
    atomic_init(&stage.next_job, 0);
    atomic_init(&stage.error, CT_OK);

    if (pool == NULL) {
        ct_stage_work(&stage, 0);
    } else {
        /* A worker beyond the number of jobs would only find none left. */
        const int threads = ct_pool_threads(pool);
        const int n_workers =
            n_claims < (size_t)threads ? (int)n_claims : threads;
        ct_pool_run_stage(pool, &stage, n_workers);
    }
    return atomic_load_explicit(&stage.error, memory_order_relaxed);
}

int ct_stage_run(ct_pool *pool, size_t n_jobs, ct_job_fn fn, void *ctx)
{
    return ct_stage_run_with_side_jobs(pool, 0, NULL, NULL, n_jobs, fn, ctx);
}
