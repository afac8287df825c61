/*
 * A monotonic clock in seconds, for traces, benches and tools' timings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_COMMON_CLOCK_H
#define CTCORE_COMMON_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC in seconds; only differences mean anything. */
static inline double ct_clock_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
