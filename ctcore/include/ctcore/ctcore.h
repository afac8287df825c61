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

/* Marks the public API: the only symbols the shared library exports (it is
 * built with -fvisibility=hidden). */
#if defined(__GNUC__)
#define CT_API __attribute__((visibility("default")))
#else
#define CT_API
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
CT_API const char *ct_strerror(int code);

/* The worker pool that runs the encoders' task graphs. NULL everywhere
 * means "run on the calling thread". */
typedef struct ct_pool ct_pool;

/*
 * Which SIMD level an encoder uses, and so, where the reference's own SIMD
 * changes its results, which reference build's bytes it writes. Each
 * encoder's header says what the setting means for it (JPEG: the jpegli
 * target's bytes; MP3: only the speed). The environment variable CT_SIMD
 * (c, sse2, avx2) caps the level the CPU is taken to have, for every
 * encoder and every CT_SIMD_AUTO.
 */
typedef enum ct_simd {
    CT_SIMD_AUTO = 0, /* the best this CPU has (after CT_SIMD) */
    CT_SIMD_C = 1,    /* the scalar code only */
    CT_SIMD_SSE2 = 2, /* 4 float lanes, no fused multiply-add */
    CT_SIMD_AVX2 = 3, /* 8 float lanes; AVX2 and FMA */
} ct_simd;

/* What CT_SIMD_AUTO resolves to on this CPU, after CT_SIMD: CT_SIMD_AVX2
 * where the CPU has AVX2 and FMA, else CT_SIMD_SSE2 (the x86-64 baseline);
 * any other request is returned as it is. */
CT_API ct_simd ct_simd_resolve(ct_simd requested);
/* "auto", "c", "sse2" or "avx2". */
CT_API const char *ct_simd_name(ct_simd simd);

#ifdef __cplusplus
}
#endif

#endif
