/*
 * The encodes the fault tests repeat: each creates its pool (when threads
 * > 0), encodes a fixed input and frees everything, returning CT_OK with
 * its bytes in *out, or the first error code met.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_FAULTS_ENCODES_H
#define CT_TESTS_FAULTS_ENCODES_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/runtime.h"

/* Room for the bytes of one encode, allocated before the run so that the
 * test allocates nothing while armed. */
typedef struct encode_bytes {
    uint8_t *data;
    size_t size, capacity;
} encode_bytes;

/* A named encode: threads 0 runs it with no pool; otherwise on
 * ct_pool_new(threads), or on `pool` when it is not NULL (threads is then
 * ignored). `size` scales the input (1: the small one of the sweep). */
typedef struct fault_encode {
    const char *name;
    int (*run)(ct_pool *pool, int threads, int size, encode_bytes *out);
} fault_encode;

extern const fault_encode fault_encodes[];
extern const int n_fault_encodes;

#endif
