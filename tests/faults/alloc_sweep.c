/*
 * Allocation failure, swept over every allocation of one small encode per
 * encoder (fault_encodes) on 1 and 2 threads, pool creation included: a
 * clean run counts the allocation calls; then for N = 1 .. count the Nth
 * call fails, and in a second pass every call from the Nth on. Each run
 * must return CT_ENOMEM, or CT_OK with the bytes of the clean run (an
 * allocation that was optional), leave no block allocated, and end within
 * a few seconds (a hang ends the test). Prints the counts of each sweep.
 * Every call is a failure point: the whole sweep takes under a second.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ctcore/ctcore.h"
#include "encodes.h"
#include "inject.h"

#define CAPACITY     (1 << 20)
#define CLEAN_RUNS   3
#define HANG_SECONDS 20

static char current_run[128];

static void on_hang(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: hang (no end within 20 s): ";
    write(2, msg, sizeof(msg) - 1);
    write(2, current_run, strlen(current_run));
    write(2, "\n", 1);
    _exit(1);
}

static const char *mode_name(inject_mode mode)
{
    return mode == INJECT_NTH ? "the Nth call fails"
                              : "every call from the Nth fails";
}

/* One pass over the failure points; returns those handled. */
static long sweep(const fault_encode *encode, int threads, inject_mode mode,
                  long count, const encode_bytes *expected, encode_bytes *got,
                  long *points, long *optional)
{
    long handled = 0;
    *points = 0;
    *optional = 0;
    for (long n = 1; n <= count; n++) {
        snprintf(current_run, sizeof(current_run),
                 "%s, %d threads, %s, N = %ld", encode->name, threads,
                 mode_name(mode), n);
        (*points)++;
        got->size = 0;
        alarm(HANG_SECONDS);
        inject_alloc_arm(mode, n);
        int r = encode->run(NULL, threads, 1, got);
        inject_alloc_disarm();
        alarm(0);
        long live = inject_alloc_live();
        long failed = inject_alloc_failed();
        bool ok = check(live == 0, "%s: %ld blocks leaked (%s)", current_run,
                        live, encode_strerror(r));
        if (r == CT_OK) {
            ok &= check(got->size == expected->size &&
                            memcmp(got->data, expected->data, got->size) == 0,
                        "%s: success with other bytes (%zu, clean %zu)",
                        current_run, got->size, expected->size);
            if (failed > 0)
                (*optional)++;
        } else {
            ok &= check(r == CT_ENOMEM, "%s: returned %d (%s), not CT_ENOMEM",
                        current_run, r, encode_strerror(r));
            ok &= check(failed > 0, "%s: CT_ENOMEM with no failed allocation",
                        current_run);
        }
        if (ok)
            handled++;
    }
    return handled;
}

int main(void)
{
    signal(SIGALRM, on_hang);

    encode_bytes expected = {checked_calloc(CAPACITY, 1), 0, CAPACITY};
    encode_bytes clean = {checked_calloc(CAPACITY, 1), 0, CAPACITY};
    encode_bytes got = {checked_calloc(CAPACITY, 1), 0, CAPACITY};

    for (int e = 0; e < n_fault_encodes; e++) {
        const fault_encode *encode = &fault_encodes[e];
        for (int threads = 1; threads <= 2; threads++) {
            long count = 0, least = -1;
            for (int i = 0; i < CLEAN_RUNS; i++) {
                encode_bytes *out = i == 0 ? &expected : &clean;
                out->size = 0;
                snprintf(current_run, sizeof(current_run),
                         "%s, %d threads, clean run", encode->name, threads);
                alarm(HANG_SECONDS);
                inject_alloc_arm(INJECT_NONE, 0);
                int r = encode->run(NULL, threads, 1, out);
                inject_alloc_disarm();
                alarm(0);
                long calls = inject_alloc_calls();
                count = calls > count ? calls : count;
                least = least < 0 || calls < least ? calls : least;
                check(r == CT_OK && out->size > 0, "%s: %s", current_run,
                      encode_strerror(r));
                check(inject_alloc_live() == 0, "%s: %ld blocks leaked",
                      current_run, inject_alloc_live());
                check(out->size == expected.size &&
                          memcmp(out->data, expected.data, out->size) == 0,
                      "%s: other bytes than the first clean run", current_run);
            }
            char calls[64];
            if (least == count)
                snprintf(calls, sizeof(calls), "%ld allocations", count);
            else
                snprintf(calls, sizeof(calls), "%ld to %ld allocations", least,
                         count);
            for (int m = 0; m < 2; m++) {
                inject_mode mode = m == 0 ? INJECT_NTH : INJECT_FROM;
                long points, optional;
                long handled = sweep(encode, threads, mode, count, &expected,
                                     &got, &points, &optional);
                printf("%s, %d thread%s: %s, %ld of %ld failure points handled "
                       "(%s; %ld succeeded with the same bytes)\n",
                       encode->name, threads, threads > 1 ? "s" : "", calls,
                       handled, points, mode_name(mode), optional);
                fflush(stdout);
            }
        }
    }
    free(expected.data);
    free(clean.data);
    free(got.data);
    return check_finish("every failure point handled");
}
