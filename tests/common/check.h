/*
 * The checks of the tests that run many of them and report every failure:
 * check() counts a failed check and prints its message (the first 30), from
 * any thread; check_finish() ends the test with the verdict.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_CHECK_H
#define CT_TESTS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* Returns ok; when false, counts a failure and prints "FAIL: message" on
 * stderr. */
bool check(bool ok, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* The exit status of the test: 1 after "N checks failed" on stderr when a
 * check failed, else 0 after `passed` on stdout. */
int check_finish(const char *passed);

/* calloc, or exits after "out of memory" (a test cannot go on without). */
void *checked_calloc(size_t n, size_t size);

#endif
