/*
 * The tokenizer's magnitude masks with SSE2: 16 coefficients per movemask.
 * Same bits as ct_jpeg_magnitude_masks_c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <emmintrin.h>

#include "../tokenize_dsp.h"

__attribute__((target("sse2"))) void
ct_jpeg_magnitude_masks_sse2(const int16_t *blocks, size_t n, int threshold,
                             uint64_t *masks)
{
    const __m128i limit = _mm_set1_epi16((int16_t)(threshold - 1));
    const __m128i zero = _mm_setzero_si128();
    for (size_t j = 0; j < n; ++j, blocks += 64) {
        uint64_t mask = 0;
        for (int i = 0; i < 4; ++i) {
            __m128i a = _mm_loadu_si128((const __m128i *)(blocks + 16 * i));
            __m128i b =
                _mm_loadu_si128((const __m128i *)(blocks + 16 * i + 8));
            a = _mm_max_epi16(a, _mm_sub_epi16(zero, a));
            b = _mm_max_epi16(b, _mm_sub_epi16(zero, b));
            const __m128i packed = _mm_packs_epi16(
                _mm_cmpgt_epi16(a, limit), _mm_cmpgt_epi16(b, limit));
            mask |= (uint64_t)(uint32_t)_mm_movemask_epi8(packed) << (16 * i);
        }
        masks[j] = mask;
    }
}
