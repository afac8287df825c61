/*
 * The runtime's pools and stages: every job runs exactly once, worker
 * indices are in range and never shared by two running jobs (even between
 * callers sharing a pool), every worker of a pool takes part, errors stop a
 * stage and leave the pool usable, and pools can be shared, created and
 * destroyed at will. Exits 0 when every check passes, 1 otherwise.
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
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "common/clock.h"
#include "runtime/stage.h"
#include "worker_tracker.h"

#define NO_FAILING_JOB SIZE_MAX

static const size_t job_counts[] = {0, 1, 2, 3, 7, 64, 1000, 10000};
static const size_t side_job_counts[] = {0, 1, 7};

/* What happened to the jobs (or the side jobs) of one stage. */
typedef struct job_log {
    const char *what; /* "job" or "side job", for the messages */
    size_t n_jobs;
    worker_tracker *tracker;
    atomic_uint *runs;        /* per job: how often it ran */
    atomic_size_t *position;  /* per job: its place in the order of runs */
    atomic_size_t *sequence;  /* the next place, shared by both logs */
    size_t failing_job;       /* returns failing_code; or NO_FAILING_JOB */
    int failing_code;
} job_log;

static void job_log_init(job_log *log, const char *what, size_t n_jobs,
                         worker_tracker *tracker, atomic_size_t *sequence)
{
    /* One more than needed: calloc(0) may return NULL. */
    *log = (job_log){
        .what = what,
        .n_jobs = n_jobs,
        .tracker = tracker,
        .runs = checked_calloc(n_jobs + 1, sizeof(*log->runs)),
        .position = checked_calloc(n_jobs + 1, sizeof(*log->position)),
        .sequence = sequence,
        .failing_job = NO_FAILING_JOB,
    };
    for (size_t i = 0; i < n_jobs; i++) {
        atomic_init(&log->runs[i], 0);
        atomic_init(&log->position[i], 0);
    }
}

static void job_log_free(job_log *log)
{
    free(log->runs);
    free(log->position);
}

static int logged_job(void *ctx, size_t job, int worker)
{
    job_log *log = ctx;
    worker_tracker *tracker = log->tracker;
    if (!check(worker >= 0 && worker < tracker->n_workers,
               "%s %zu: worker %d out of [0, %d)", log->what, job, worker,
               tracker->n_workers) ||
        !check(job < log->n_jobs, "%s %zu: out of [0, %zu)", log->what, job,
               log->n_jobs))
        return CT_OK;

    check(atomic_exchange(&tracker->busy[worker], 1) == 0,
          "%s %zu: worker %d is already running a job", log->what, job,
          worker);
    atomic_fetch_add(&log->runs[job], 1);
    atomic_store(&log->position[job], atomic_fetch_add(log->sequence, 1));
    /* Now and then let another thread in while this worker is busy. */
    if (job % 8 == 0)
        sched_yield();
    atomic_store(&tracker->busy[worker], 0);

    return job == log->failing_job ? log->failing_code : CT_OK;
}

static void check_ran_once(const job_log *log, const char *context)
{
    for (size_t job = 0; job < log->n_jobs; job++) {
        const unsigned runs = atomic_load(&log->runs[job]);
        if (!check(runs == 1, "%s: %s %zu of %zu ran %u times", context,
                   log->what, job, log->n_jobs, runs))
            return;
    }
}

/* In order, from place `first` on, as one worker runs them. */
static void check_in_order(const job_log *log, size_t first,
                           const char *context)
{
    for (size_t job = 0; job < log->n_jobs; job++) {
        const size_t position = atomic_load(&log->position[job]);
        if (!check(position == first + job, "%s: %s %zu ran at place %zu",
                   context, log->what, job, position))
            return;
    }
}

static bool runs_inline(const ct_pool *pool)
{
    return ct_pool_threads(pool) == 1;
}

/* One stage of n_side_jobs + n_jobs logged jobs, checked. */
static void run_checked_stage(ct_pool *pool, worker_tracker *tracker,
                              size_t n_side_jobs, size_t n_jobs,
                              const char *pool_name)
{
    char context[96];
    snprintf(context, sizeof(context), "%s, %zu side jobs + %zu jobs",
             pool_name, n_side_jobs, n_jobs);
    atomic_size_t sequence;
    atomic_init(&sequence, 0);
    job_log side_log, log;
    job_log_init(&side_log, "side job", n_side_jobs, tracker, &sequence);
    job_log_init(&log, "job", n_jobs, tracker, &sequence);

    const int ret = n_side_jobs > 0
        ? ct_stage_run_with_side_jobs(pool, n_side_jobs, logged_job,
                                      &side_log, n_jobs, logged_job, &log)
        : ct_stage_run(pool, n_jobs, logged_job, &log);
    check(ret == CT_OK, "%s: returned %d", context, ret);
    check_ran_once(&side_log, context);
    check_ran_once(&log, context);
    if (runs_inline(pool)) {
        check_in_order(&side_log, 0, context);
        check_in_order(&log, n_side_jobs, context);
    }
    job_log_free(&side_log);
    job_log_free(&log);
}

static void test_job_counts(ct_pool *pool, const char *pool_name)
{
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    for (size_t s = 0; s < sizeof(side_job_counts) / sizeof(*side_job_counts); s++)
        for (size_t j = 0; j < sizeof(job_counts) / sizeof(*job_counts); j++)
            run_checked_stage(pool, &tracker, side_job_counts[s],
                              job_counts[j], pool_name);
}

static void test_many_stages(ct_pool *pool, const char *pool_name)
{
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    for (size_t i = 0; i < 1000; i++)
        run_checked_stage(pool, &tracker, i % 3, i % 11, pool_name);
}

/* A stage where job `failing_job` (of the side jobs when `in_side_jobs`)
 * fails: the stage returns its code, no job runs twice, and a pool of one
 * worker skips every job after it. */
static void run_failing_stage(ct_pool *pool, bool in_side_jobs,
                              size_t failing_job, const char *pool_name)
{
    char context[96];
    snprintf(context, sizeof(context), "%s, failing %s %zu", pool_name,
             in_side_jobs ? "side job" : "job", failing_job);
    const size_t n_side_jobs = 10, n_jobs = 1000;
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    atomic_size_t sequence;
    atomic_init(&sequence, 0);
    job_log side_log, log;
    job_log_init(&side_log, "side job", n_side_jobs, &tracker, &sequence);
    job_log_init(&log, "job", n_jobs, &tracker, &sequence);
    job_log *failing_log = in_side_jobs ? &side_log : &log;
    failing_log->failing_job = failing_job;
    failing_log->failing_code = CT_ENOMEM;

    const int ret = ct_stage_run_with_side_jobs(
        pool, n_side_jobs, logged_job, &side_log, n_jobs, logged_job, &log);
    check(ret == CT_ENOMEM, "%s: returned %d, not CT_ENOMEM", context, ret);
    check(atomic_load(&failing_log->runs[failing_job]) == 1,
          "%s: the failing job ran %u times", context,
          atomic_load(&failing_log->runs[failing_job]));
    const size_t n_claims = n_side_jobs + n_jobs;
    const size_t failing_claim =
        in_side_jobs ? failing_job : n_side_jobs + failing_job;
    for (size_t claim = 0; claim < n_claims; claim++) {
        const job_log *claim_log = claim < n_side_jobs ? &side_log : &log;
        const size_t job = claim < n_side_jobs ? claim : claim - n_side_jobs;
        const unsigned runs = atomic_load(&claim_log->runs[job]);
        const unsigned expected = claim <= failing_claim ? 1 : 0;
        if (!check(runs <= 1, "%s: %s %zu ran %u times", context,
                   claim_log->what, job, runs) ||
            !check(!runs_inline(pool) || runs == expected,
                   "%s: %s %zu ran %u times on one worker, expected %u",
                   context, claim_log->what, job, runs, expected))
            break;
    }
    job_log_free(&side_log);
    job_log_free(&log);
}

static int two_failing_jobs(void *ctx, size_t job, int worker)
{
    (void)ctx;
    (void)worker;
    return job == 3 ? CT_EINVAL : job == 5 ? CT_ETOOBIG : CT_OK;
}

static void test_errors(ct_pool *pool, const char *pool_name)
{
    run_failing_stage(pool, false, 0, pool_name);
    run_failing_stage(pool, false, 500, pool_name);
    run_failing_stage(pool, false, 999, pool_name);
    run_failing_stage(pool, true, 3, pool_name);

    /* Two failures: one of their codes, the first one on one worker. */
    const int ret = ct_stage_run(pool, 100, two_failing_jobs, NULL);
    check(ret == CT_EINVAL || (ret == CT_ETOOBIG && !runs_inline(pool)),
          "%s, two failing jobs: returned %d", pool_name, ret);

    /* The pool is still usable. */
    worker_tracker tracker;
    worker_tracker_init(&tracker, pool);
    run_checked_stage(pool, &tracker, 7, 1000, pool_name);
}

/* Each of the pool's workers takes part: n_workers jobs that each wait for
 * all of them to have started can only finish on n_workers threads. */
typedef struct rendezvous {
    int n_workers;
    atomic_int arrived;
    atomic_int worker_seen[MAX_THREADS];
} rendezvous;

static int rendezvous_job(void *ctx, size_t job, int worker)
{
    (void)job;
    rendezvous *meeting = ctx;
    atomic_fetch_add(&meeting->worker_seen[worker], 1);
    atomic_fetch_add(&meeting->arrived, 1);
    /* A deadline instead of a hang when a worker never comes. */
    const double deadline = ct_clock_seconds() + 60.0;
    while (atomic_load(&meeting->arrived) < meeting->n_workers) {
        if (ct_clock_seconds() > deadline)
            return CT_EINVAL;
        sched_yield();
    }
    return CT_OK;
}

static void test_all_workers_take_part(ct_pool *pool, const char *pool_name)
{
    rendezvous meeting = {.n_workers = ct_pool_threads(pool)};
    atomic_init(&meeting.arrived, 0);
    for (int i = 0; i < MAX_THREADS; i++)
        atomic_init(&meeting.worker_seen[i], 0);
    const int ret = ct_stage_run(pool, (size_t)meeting.n_workers,
                                 rendezvous_job, &meeting);
    check(ret == CT_OK, "%s: %d jobs waiting for each other: returned %d "
          "(not all workers came)", pool_name, meeting.n_workers, ret);
    for (int worker = 0; worker < meeting.n_workers; worker++)
        check(atomic_load(&meeting.worker_seen[worker]) == 1,
              "%s: worker %d ran %d of the waiting jobs", pool_name, worker,
              atomic_load(&meeting.worker_seen[worker]));
}

/* Several threads running stages on one pool at once. */
typedef struct shared_pool_caller {
    ct_pool *pool;
    worker_tracker *tracker; /* shared: worker indices are per pool */
    int caller;
    pthread_t thread;
} shared_pool_caller;

static void *shared_pool_caller_main(void *arg)
{
    const shared_pool_caller *self = arg;
    char name[64];
    snprintf(name, sizeof(name), "shared pool of %d, caller %d",
             ct_pool_threads(self->pool), self->caller);
    for (size_t i = 0; i < 300; i++)
        run_checked_stage(self->pool, self->tracker, i % 2,
                          (i * 37 + (size_t)self->caller) % 97, name);
    return NULL;
}

static void test_shared_pool(int threads, int n_callers)
{
    worker_tracker tracker;
    ct_pool *pool = tracked_pool_new(threads, &tracker);
    if (pool == NULL)
        return;
    shared_pool_caller callers[4];
    int started = 0;
    for (; started < n_callers; started++) {
        callers[started] = (shared_pool_caller){
            .pool = ct_pool_ref(pool), .tracker = &tracker, .caller = started};
        if (!check(pthread_create(&callers[started].thread, NULL,
                                  shared_pool_caller_main,
                                  &callers[started]) == 0,
                   "pthread_create failed")) {
            ct_pool_unref(pool);
            break;
        }
    }
    for (int i = 0; i < started; i++) {
        pthread_join(callers[i].thread, NULL);
        ct_pool_unref(callers[i].pool);
    }
    ct_pool_unref(pool);
}

static void test_create_destroy(void)
{
    check(ct_pool_new(-1) == NULL, "ct_pool_new(-1) is not NULL");
    check(ct_pool_threads(NULL) == 1, "ct_pool_threads(NULL) is not 1");
    check(ct_pool_ref(NULL) == NULL, "ct_pool_ref(NULL) is not NULL");
    ct_pool_unref(NULL);

    ct_pool *pool = ct_pool_new(0);
    if (check(pool != NULL, "ct_pool_new(0) failed")) {
        const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        const int threads = ct_pool_threads(pool);
        check(threads >= 1 && (cpus < 1 || threads <= cpus),
              "ct_pool_new(0): %d threads for %ld CPUs", threads, cpus);
        ct_pool_unref(pool);
    }

    for (int i = 0; i < 200; i++) {
        const int threads = 1 + i % MAX_THREADS;
        pool = ct_pool_new(threads);
        if (!check(pool != NULL, "ct_pool_new(%d) failed", threads))
            return;
        check(ct_pool_threads(pool) == threads, "ct_pool_new(%d): %d threads",
              threads, ct_pool_threads(pool));
        check(ct_pool_ref(pool) == pool, "ct_pool_ref changed the pool");
        /* Half of the pools die without ever running a stage. */
        if (i % 2 == 0) {
            worker_tracker tracker;
            worker_tracker_init(&tracker, pool);
            run_checked_stage(pool, &tracker, 1, (size_t)i, "short-lived pool");
        }
        ct_pool_unref(pool);
        ct_pool_unref(pool);
    }
}

static int any_job(void *ctx, size_t job, int worker)
{
    (void)ctx;
    (void)job;
    (void)worker;
    return CT_OK;
}

static void test_invalid_arguments(void)
{
    check(ct_stage_run(NULL, 1, NULL, NULL) == CT_EINVAL,
          "jobs without a function are not CT_EINVAL");
    check(ct_stage_run_with_side_jobs(NULL, 1, NULL, NULL, 1, any_job,
                                      NULL) == CT_EINVAL,
          "side jobs without a function are not CT_EINVAL");
    check(ct_stage_run(NULL, 0, NULL, NULL) == CT_OK,
          "no jobs (and no function) is not CT_OK");
    check(ct_stage_run_with_side_jobs(NULL, SIZE_MAX / 2, any_job, NULL,
                                      SIZE_MAX / 2, any_job,
                                      NULL) == CT_EINVAL,
          "job counts summing to SIZE_MAX - 1 are not CT_EINVAL");
}

int main(void)
{
    test_invalid_arguments();

    test_job_counts(NULL, "NULL pool");
    test_errors(NULL, "NULL pool");
    for (int threads = 1; threads <= MAX_THREADS; threads++) {
        ct_pool *pool = ct_pool_new(threads);
        if (!check(pool != NULL, "ct_pool_new(%d) failed", threads))
            continue;
        char name[32];
        snprintf(name, sizeof(name), "pool of %d", threads);
        check(ct_pool_threads(pool) == threads, "%s: %d threads", name,
              ct_pool_threads(pool));
        test_job_counts(pool, name);
        test_all_workers_take_part(pool, name);
        test_errors(pool, name);
        test_many_stages(pool, name);
        ct_pool_unref(pool);
    }

    test_shared_pool(1, 2);
    test_shared_pool(2, 2);
    test_shared_pool(4, 3);
    test_shared_pool(8, 4);
    test_create_destroy();

    return check_finish("runtime: all checks passed");
}
