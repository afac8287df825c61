/*
 * The tokenizer's magnitude masks with SSE2: 16 coefficients per movemask.
 * Same bits as ct_jpeg_magnitude_masks_c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <emmintrin.h>

#include "../tokenize_dsp.h"

/*
 * |v| >= t iff v + t - 1, taken as an unsigned 16-bit number, exceeds
 * 2t - 2: it lies in [0, 2t - 2] exactly for the v of (-t, t), and a
 * negative v + t - 1 is a large unsigned number (v has 12 bits and
 * t <= 1024, so no sum wraps as a signed number). Adding 0x8000 more turns
 * the unsigned order into the signed one that SSE2 compares: one add and
 * one compare per 8 coefficients.
 */
__attribute__((target("sse2"))) void
ct_jpeg_magnitude_masks_sse2(const int16_t *blocks, size_t n, int threshold,
                             uint64_t *masks)
{
    const __m128i offset = _mm_set1_epi16((int16_t)(threshold - 1 - 0x8000));
    const __m128i limit =
        _mm_set1_epi16((int16_t)(2 * threshold - 2 - 0x8000));
    for (size_t j = 0; j < n; ++j, blocks += 64) {
        uint64_t mask = 0;
        for (int i = 0; i < 4; ++i) {
            const __m128i a =
                _mm_loadu_si128((const __m128i *)(blocks + 16 * i));
            const __m128i b =
                _mm_loadu_si128((const __m128i *)(blocks + 16 * i + 8));
            const __m128i packed =
                _mm_packs_epi16(_mm_cmpgt_epi16(_mm_add_epi16(a, offset), limit),
                                _mm_cmpgt_epi16(_mm_add_epi16(b, offset), limit));
            mask |= (uint64_t)(uint32_t)_mm_movemask_epi8(packed) << (16 * i);
        }
        masks[j] = mask;
    }
}
