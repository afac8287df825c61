/*
 * pthread_create failing, at every call or from the Kth on: ct_pool_new
 * gives a pool of the workers it could start (the caller and the K - 1
 * threads made before the first failure), and on that pool every encoder
 * of fault_encodes writes the bytes of the sequential chain (no pool).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ctcore/ctcore.h"
#include "encodes.h"
#include "inject.h"

#define CAPACITY     (1 << 21)
#define POOL_THREADS 4
/* The inputs' scale: large enough that the pool's workers share them. */
#define INPUT_SIZE 6

int main(void)
{
    encode_bytes sequential = {checked_calloc(CAPACITY, 1), 0, CAPACITY};
    encode_bytes got = {checked_calloc(CAPACITY, 1), 0, CAPACITY};
    int runs = 0, identical = 0;

    /* from 1: every call fails; 0: none does. */
    for (long from = 1; from <= POOL_THREADS; from++) {
        long fail_from = from == POOL_THREADS ? 0 : from;
        inject_threads_fail_from(fail_from);
        ct_pool *pool = ct_pool_new(POOL_THREADS);
        long calls = inject_threads_calls();
        inject_threads_fail_from(0);
        if (!check(pool != NULL,
                   "ct_pool_new(%d) with pthread_create "
                   "failing from call %ld: NULL",
                   POOL_THREADS, fail_from))
            continue;
        int want = fail_from == 0 ? POOL_THREADS : (int)fail_from;
        check(ct_pool_threads(pool) == want,
              "pthread_create failing from call %ld: %d workers, not %d "
              "(%ld calls)",
              fail_from, ct_pool_threads(pool), want, calls);
        for (int e = 0; e < n_fault_encodes; e++) {
            const fault_encode *encode = &fault_encodes[e];
            sequential.size = 0;
            got.size = 0;
            int r0 = encode->run(NULL, 0, INPUT_SIZE, &sequential);
            int r = encode->run(pool, 0, INPUT_SIZE, &got);
            runs++;
            check(r0 == CT_OK && r == CT_OK,
                  "%s: %s, %s on the sequential "
                  "chain",
                  encode->name, encode_strerror(r), encode_strerror(r0));
            if (check(got.size == sequential.size &&
                          memcmp(got.data, sequential.data, got.size) == 0,
                      "%s on %d workers (pthread_create failing from call "
                      "%ld): other bytes than the sequential chain",
                      encode->name, ct_pool_threads(pool), fail_from))
                identical++;
        }
        printf("pthread_create failing from call %ld%s: %d of %d workers\n",
               fail_from,
               fail_from == 1   ? " (every call)"
               : fail_from == 0 ? " (never)"
                                : "",
               ct_pool_threads(pool), POOL_THREADS);
        ct_pool_unref(pool);
    }
    printf("%d of %d encodes identical to the sequential chain\n", identical,
           runs);
    free(sequential.data);
    free(got.data);
    return check_finish("fewer workers, same bytes");
}
