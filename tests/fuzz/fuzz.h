/*
 * What every fuzz target shares: libFuzzer's entry point, and a reader that
 * takes the target's choices from the input bytes (zeros once they run
 * out, so that every input is a valid run).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_FUZZ_H
#define CT_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size, pos;
} fuzz_input;

static inline unsigned fuzz_u8(fuzz_input *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline unsigned fuzz_u16(fuzz_input *in)
{
    const unsigned lo = fuzz_u8(in);
    return lo | fuzz_u8(in) << 8;
}

static inline uint32_t fuzz_u32(fuzz_input *in)
{
    const uint32_t lo = fuzz_u16(in);
    return lo | (uint32_t)fuzz_u16(in) << 16;
}

static inline int fuzz_done(const fuzz_input *in)
{
    return in->pos >= in->size;
}

/* A broken invariant: abort, so that libFuzzer keeps the input. */
#define fuzz_assert(cond)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);       \
            abort();                                                          \
        }                                                                     \
    } while (0)

#endif
