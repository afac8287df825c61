/*
 * The tests' checks (check.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "check.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_REPORTED_FAILURES 30

/* Failures so far, from any thread: one test per process, so one count. */
static atomic_int failures;

bool check(bool ok, const char *format, ...)
{
    if (ok)
        return true;
    if (atomic_fetch_add(&failures, 1) < MAX_REPORTED_FAILURES) {
        va_list args;
        va_start(args, format);
        fputs("FAIL: ", stderr);
        vfprintf(stderr, format, args);
        fputc('\n', stderr);
        va_end(args);
    }
    return false;
}

int check_finish(const char *passed)
{
    const int n_failures = atomic_load(&failures);
    if (n_failures > 0) {
        fprintf(stderr, "%d checks failed\n", n_failures);
        return 1;
    }
    printf("%s\n", passed);
    return 0;
}

void *checked_calloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}
