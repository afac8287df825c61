/*
 * The worker pool: the calling thread plus threads that ct_pool_new()
 * creates once and the last ct_pool_unref() joins. Between stages the
 * threads sleep on a condition variable. ct_pool_run_stage() publishes a
 * stage under the pool's lock, wakes them, works on the stage itself as
 * worker 0, then waits until every pool thread it asked for has left the
 * stage (the join). A thread with no stage to take part in runs the ready
 * tasks of pipelines (pipeline.c), one at a time, and sleeps when there are
 * none: each new task wakes at most one sleeping thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "pool_internal.h"

/* One pool thread and what it needs to find its work. */
typedef struct pool_thread {
    ct_pool *pool;
    int worker; /* its worker index, 1..n_workers-1 */
    pthread_t thread;
} pool_thread;

struct ct_pool {
    atomic_int refs;
    int n_workers;         /* the caller plus the pool threads */
    pool_thread *threads;  /* n_workers - 1 of them */

    /* Held by a caller for its whole stage: stages run one at a time, so
     * two callers never hand out the same worker index. */
    pthread_mutex_t stage_lock;

    /* `lock` guards every field below it. */
    pthread_mutex_t lock;
    /* Pool threads wait here between stages; a ready pipeline task also
     * signals it, to one thread. */
    pthread_cond_t stage_published;
    pthread_cond_t stage_left;      /* the caller waits here for the join */
    ct_stage *stage;                /* the stage being run, NULL between */
    unsigned long stage_serial;     /* counts published stages */
    int stage_workers;    /* workers 0..stage_workers-1 take part in it */
    int threads_in_stage; /* pool threads that take part and have not left */
    bool shutting_down;

    /* Pipelines with a ready task, in turn order. */
    ct_pool_queue_link *first_pipeline, *last_pipeline;
    int threads_sleeping; /* pool threads waiting on stage_published */
    int wakes_pending;    /* signals for tasks that no thread took up yet */
};

/* With the lock held: waits for a stage or a task, or to shut down. */
static void wait_for_work(ct_pool *pool)
{
    pool->threads_sleeping++;
    pthread_cond_wait(&pool->stage_published, &pool->lock);
    pool->threads_sleeping--;
    /* Any waking thread counts as the one a signal was for: it looks for
     * work before it sleeps again, which is all a signal asks. */
    if (pool->wakes_pending > 0)
        pool->wakes_pending--;
}

static void *pool_thread_main(void *arg)
{
    const pool_thread *self = arg;
    ct_pool *pool = self->pool;
    /* No stage can be published before ct_pool_new() returns, so a thread
     * that starts late still sees every stage it is asked to take part in:
     * the caller waits for it. */
    unsigned long seen_serial = 0;

    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->shutting_down && pool->stage_serial == seen_serial &&
               pool->first_pipeline == NULL)
            wait_for_work(pool);
        if (pool->shutting_down)
            break;
        if (pool->stage_serial == seen_serial) {
            /* No stage for it (a new one goes first): a pipeline task. */
            ct_pipeline_work(pool->first_pipeline->pipeline, self->worker);
            continue;
        }
        seen_serial = pool->stage_serial;
        /* A stage with fewer jobs than workers leaves the last ones out. */
        if (self->worker >= pool->stage_workers)
            continue;

        ct_stage *stage = pool->stage;
        pthread_mutex_unlock(&pool->lock);
        ct_stage_work(stage, self->worker);
        pthread_mutex_lock(&pool->lock);
        if (--pool->threads_in_stage == 0)
            pthread_cond_signal(&pool->stage_left);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

void ct_pool_run_stage(ct_pool *pool, ct_stage *stage, int n_workers)
{
    pthread_mutex_lock(&pool->stage_lock);
    if (n_workers == 1) {
        ct_stage_work(stage, 0);
        pthread_mutex_unlock(&pool->stage_lock);
        return;
    }

    pthread_mutex_lock(&pool->lock);
    pool->stage = stage;
    pool->stage_workers = n_workers;
    pool->threads_in_stage = n_workers - 1;
    pool->stage_serial++;
    pthread_cond_broadcast(&pool->stage_published);
    pthread_mutex_unlock(&pool->lock);

    ct_stage_work(stage, 0);

    /* The stage lives on the caller's stack: no thread may still hold it. */
    pthread_mutex_lock(&pool->lock);
    while (pool->threads_in_stage > 0)
        pthread_cond_wait(&pool->stage_left, &pool->lock);
    pool->stage = NULL;
    pthread_mutex_unlock(&pool->lock);
    pthread_mutex_unlock(&pool->stage_lock);
}

pthread_mutex_t *ct_pool_lock(ct_pool *pool)
{
    return &pool->lock;
}

void ct_pool_queue_pipeline(ct_pool *pool, ct_pool_queue_link *link)
{
    if (link->queued)
        return;
    link->queued = true;
    link->prev = pool->last_pipeline;
    link->next = NULL;
    if (pool->last_pipeline != NULL)
        pool->last_pipeline->next = link;
    else
        pool->first_pipeline = link;
    pool->last_pipeline = link;
}

void ct_pool_unqueue_pipeline(ct_pool *pool, ct_pool_queue_link *link)
{
    if (!link->queued)
        return;
    link->queued = false;
    if (link->prev != NULL)
        link->prev->next = link->next;
    else
        pool->first_pipeline = link->next;
    if (link->next != NULL)
        link->next->prev = link->prev;
    else
        pool->last_pipeline = link->prev;
}

void ct_pool_wake_threads(ct_pool *pool, int n_tasks)
{
    for (; n_tasks > 0 && pool->threads_sleeping > pool->wakes_pending;
         n_tasks--) {
        pool->wakes_pending++;
        pthread_cond_signal(&pool->stage_published);
    }
}

/* The stage lock is exactly this: whoever holds it is worker 0. */
void ct_pool_claim_worker0(ct_pool *pool)
{
    pthread_mutex_lock(&pool->stage_lock);
}

void ct_pool_release_worker0(ct_pool *pool)
{
    pthread_mutex_unlock(&pool->stage_lock);
}

static int online_cpus(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > INT_MAX ? INT_MAX : (int)n;
}

/* The locks and condition variables, all or none. */
static bool pool_init_sync(ct_pool *pool)
{
    if (pthread_mutex_init(&pool->stage_lock, NULL) != 0)
        return false;
    if (pthread_mutex_init(&pool->lock, NULL) != 0)
        goto fail_lock;
    if (pthread_cond_init(&pool->stage_published, NULL) != 0)
        goto fail_stage_published;
    if (pthread_cond_init(&pool->stage_left, NULL) != 0)
        goto fail_stage_left;
    return true;

fail_stage_left:
    pthread_cond_destroy(&pool->stage_published);
fail_stage_published:
    pthread_mutex_destroy(&pool->lock);
fail_lock:
    pthread_mutex_destroy(&pool->stage_lock);
    return false;
}

static void pool_destroy_sync(ct_pool *pool)
{
    pthread_cond_destroy(&pool->stage_left);
    pthread_cond_destroy(&pool->stage_published);
    pthread_mutex_destroy(&pool->lock);
    pthread_mutex_destroy(&pool->stage_lock);
}

/*
 * When a thread cannot be created (a process thread limit, no memory for
 * its stack), the pool keeps the ones it has: fewer workers, same results.
 * Only running out of memory for the pool itself returns NULL.
 */
ct_pool *ct_pool_new(int threads)
{
    if (threads < 0)
        return NULL;
    if (threads == 0)
        threads = online_cpus();

    ct_pool *pool = calloc(1, sizeof(*pool));
    if (pool == NULL)
        return NULL;
    if (threads > 1) {
        pool->threads = calloc((size_t)threads - 1, sizeof(*pool->threads));
        if (pool->threads == NULL) {
            free(pool);
            return NULL;
        }
    }
    if (!pool_init_sync(pool)) {
        free(pool->threads);
        free(pool);
        return NULL;
    }
    atomic_init(&pool->refs, 1);

    pool->n_workers = 1;
    for (int worker = 1; worker < threads; worker++) {
        pool_thread *thread = &pool->threads[worker - 1];
        thread->pool = pool;
        thread->worker = worker;
        if (pthread_create(&thread->thread, NULL, pool_thread_main, thread) != 0)
            break;
        pool->n_workers++;
    }
    return pool;
}

ct_pool *ct_pool_ref(ct_pool *pool)
{
    if (pool != NULL)
        atomic_fetch_add_explicit(&pool->refs, 1, memory_order_relaxed);
    return pool;
}

static void pool_free(ct_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->shutting_down = true;
    pthread_cond_broadcast(&pool->stage_published);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->n_workers - 1; i++)
        pthread_join(pool->threads[i].thread, NULL);

    pool_destroy_sync(pool);
    free(pool->threads);
    free(pool);
}

void ct_pool_unref(ct_pool *pool)
{
    if (pool == NULL)
        return;
    /* acq_rel: whatever the other owners did with the pool happens before
     * the last one frees it. */
    if (atomic_fetch_sub_explicit(&pool->refs, 1, memory_order_acq_rel) == 1)
        pool_free(pool);
}

int ct_pool_threads(const ct_pool *pool)
{
    return pool == NULL ? 1 : pool->n_workers;
}
