/*
 * ctcore: parallel, byte-exact encoders.
 * Common definitions shared by every encoder's public header.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_CTCORE_H
#define CTCORE_CTCORE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes: 0 on success, a negative CT_E* code on failure. */
enum {
    CT_OK = 0,
    CT_EINVAL = -1,   /* invalid argument or setting */
    CT_ENOMEM = -2,   /* allocation failed */
    CT_ETOOBIG = -3,  /* image or stream exceeds what the format allows */
    CT_EUNSUPPORTED = -4, /* valid request that ctcore does not implement */
    CT_EAGAIN = -5,   /* nothing ready yet: send more input */
    CT_EOF = -6,      /* drained: no more output will come */
    CT_ESTATE = -7,   /* call not allowed in the encoder's current state */
};

/* A short English description of a CT_E* code. */
const char *ct_strerror(int code);

/* The worker pool that runs the encoders' task graphs. NULL everywhere
 * means "run on the calling thread". */
typedef struct ct_pool ct_pool;

/* Which arithmetic (and so which reference bytes) the kernels reproduce. */
typedef enum ct_simd {
    CT_SIMD_AUTO = 0, /* avx2 where the CPU has AVX2 and FMA, else sse2;
                         overridden by the environment variable CT_SIMD */
    CT_SIMD_SSE2 = 1, /* 4 float lanes, no fused multiply-add */
    CT_SIMD_AVX2 = 2, /* 8 float lanes, fused multiply-add at Highway's
                         MulAdd/NegMulAdd sites */
} ct_simd;

/* The target CT_SIMD_AUTO resolves to on this CPU (after CT_SIMD). */
ct_simd ct_simd_resolve(ct_simd requested);
/* "sse2" or "avx2". */
const char *ct_simd_name(ct_simd simd);

#ifdef __cplusplus
}
#endif

#endif
