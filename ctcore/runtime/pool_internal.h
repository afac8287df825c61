/*
 * What the pool (pool.c) and the stages (stage.c) know of each other: the
 * pool owns the threads and hands them a stage, the stage decides which jobs
 * a worker runs. Between stages, the pool hands its threads the ready tasks
 * of pipelines (pipeline.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_RUNTIME_POOL_INTERNAL_H
#define CTCORE_RUNTIME_POOL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

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

/*
 * Pipelines (pipeline.c) hand the pool one task at a time: the pool keeps a
 * queue of the pipelines that have a ready task, and a pool thread that has
 * no stage to take part in runs a task of the first one. Pipelines take
 * turns. The pool's lock guards the queue and the scheduling state of every
 * pipeline whose tasks pool threads run.
 */
typedef struct ct_pipeline ct_pipeline;

/* A pipeline's place in the queue (pipeline.c embeds it, pool.c links it). */
typedef struct ct_pool_queue_link {
    ct_pipeline *pipeline;
    struct ct_pool_queue_link *prev, *next;
    bool queued;
} ct_pool_queue_link;

/*
 * Runs one ready task of `pipeline` as worker `worker` (pipeline.c). Called
 * with the pool's lock held, returns with it held; drops it while the
 * task's function runs.
 */
void ct_pipeline_work(ct_pipeline *pipeline, int worker);

/* The lock that guards the queue and the pipelines' scheduling state. */
pthread_mutex_t *ct_pool_lock(ct_pool *pool);

/* With the lock held: puts a pipeline at the end of the queue, or takes it
 * out; either is a no-op when it already is where it should be. */
void ct_pool_queue_pipeline(ct_pool *pool, ct_pool_queue_link *link);
void ct_pool_unqueue_pipeline(ct_pool *pool, ct_pool_queue_link *link);

/* With the lock held: wakes one sleeping pool thread per new ready task,
 * as far as there are sleeping threads not already woken. */
void ct_pool_wake_threads(ct_pool *pool, int n_tasks);

/*
 * Makes the calling thread the pool's worker 0 until the release, as a
 * stage's caller is for its stage: waits while another caller is. Taken
 * before the pool's lock, never while holding it.
 */
void ct_pool_claim_worker0(ct_pool *pool);
void ct_pool_release_worker0(ct_pool *pool);

#endif
