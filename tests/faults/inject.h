/*
 * Fault injection for the tests of tests/faults: the allocation functions
 * and pthread_create, wrapped at link time (-Wl,--wrap=...), so that only
 * the calls made by ctcore and the test itself go through them (glibc's own
 * allocations, such as a new thread's TLS, do not).
 *
 * While armed, every allocation call is counted (from any thread) and the
 * live blocks it returned are recorded, so that a leak is any block still
 * recorded once everything was freed; the plan says which call fails.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_FAULTS_INJECT_H
#define CT_TESTS_FAULTS_INJECT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum inject_mode {
    INJECT_NONE, /* count only */
    INJECT_NTH,  /* the call numbered `at` fails, the others succeed */
    INJECT_FROM, /* every call from the one numbered `at` on fails */
} inject_mode;

/* Starts counting allocation calls from 1 and failing them as the plan
 * says; forgets the blocks recorded by the run before. */
void inject_alloc_arm(inject_mode mode, long at);
/* Stops counting and failing. */
void inject_alloc_disarm(void);
/* Allocation calls made while armed (the last run's). */
long inject_alloc_calls(void);
/* Calls that were made to fail. */
long inject_alloc_failed(void);
/* Blocks allocated while armed and not freed. */
long inject_alloc_live(void);

/* pthread_create fails (EAGAIN) from the call numbered `from` on (1: every
 * call; 0: none); the count starts again at each call of this function. */
void inject_threads_fail_from(long from);
/* pthread_create calls since inject_threads_fail_from, failed or not. */
long inject_threads_calls(void);

#endif
