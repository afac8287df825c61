/*
 * The coefficients of a block that a scan codes, as a bit mask: bit k set
 * iff |block[k]| >= threshold (1 <= threshold <= 1024), for all 64
 * coefficients, so that the tokenizer visits them in order by their set
 * bits rather than by testing all 64. Coefficients of 8-bit JPEG have 12
 * bits, so |v| never overflows int16.
 *
 * A scalar reference and its SSE2 twin (the same bits, tests/jpeg/
 * checkasm.c); ct_jpeg_magnitude_mask is the SSE2 one wherever the
 * compiler targets SSE2, as on every x86-64.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_MAGNITUDE_MASK_H
#define CTCORE_JPEG_MAGNITUDE_MASK_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint64_t ct_jpeg_magnitude_mask_c(const int16_t *block,
                                                int threshold)
{
    uint64_t mask = 0;
    for (int k = 0; k < 64; ++k) {
        const int v = block[k];
        mask |= (uint64_t)((v < 0 ? -v : v) >= threshold) << k;
    }
    return mask;
}

#if defined(__SSE2__)
static inline uint64_t ct_jpeg_magnitude_mask_sse2(const int16_t *block,
                                                   int threshold)
{
    const __m128i limit = _mm_set1_epi16((int16_t)(threshold - 1));
    const __m128i zero = _mm_setzero_si128();
    uint64_t mask = 0;
    for (int i = 0; i < 4; ++i) {
        __m128i a = _mm_loadu_si128((const __m128i *)(block + 16 * i));
        __m128i b = _mm_loadu_si128((const __m128i *)(block + 16 * i + 8));
        a = _mm_max_epi16(a, _mm_sub_epi16(zero, a));
        b = _mm_max_epi16(b, _mm_sub_epi16(zero, b));
        const __m128i packed = _mm_packs_epi16(_mm_cmpgt_epi16(a, limit),
                                               _mm_cmpgt_epi16(b, limit));
        mask |= (uint64_t)(uint32_t)_mm_movemask_epi8(packed) << (16 * i);
    }
    return mask;
}
#endif

static inline uint64_t ct_jpeg_magnitude_mask(const int16_t *block,
                                              int threshold)
{
#if defined(__SSE2__)
    return ct_jpeg_magnitude_mask_sse2(block, threshold);
#else
    return ct_jpeg_magnitude_mask_c(block, threshold);
#endif
}

#endif
