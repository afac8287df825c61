/*
 * The encodes the fault tests repeat: each creates its pool (when threads
 * > 0), encodes a fixed input and frees everything, returning CT_OK with
 * its bytes in *out, the first error code met, or one of the test's own
 * codes (ENCODE_*) when the encoder broke its API's promise.
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
 * ignored). `size` (1..8) scales the input: 24 size x 16 size pixels, 8 x
 * size MP3 frames; 1 is the small one of the sweep. */
typedef struct fault_encode {
    const char *name;
    int (*run)(ct_pool *pool, int threads, int size, encode_bytes *out);
} fault_encode;

/* The test's codes: positive, so never a ctcore one. */
enum {
    ENCODE_NO_ROOM = 1,   /* more bytes than out's capacity */
    ENCODE_NOT_EMPTY = 2, /* a failed ct_jpeg_encode left an output */
    ENCODE_NO_END = 3,    /* the MP3 drain gave no CT_EOF */
};

/* ct_strerror, and the test's codes. */
const char *encode_strerror(int code);

extern const fault_encode fault_encodes[];
extern const int n_fault_encodes;

#endif
