/*
 * DCT, quantization and zigzag store with SSE2: an 8x8 block as two
 * halves of four columns, as Highway's SSE2 target runs jpegli's DCT1D over
 * 4 lanes. Same bits as ct_jpeg_dct_quant_row_c_sse2.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/dct-inl.h and lib/jpegli/transpose-inl.h
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <emmintrin.h>

#include "../pixel_dsp.h"

#define INLINE static inline __attribute__((always_inline))

/* DCT1DImpl<4> on m[0..3]; MulAdd is a multiply then an add on SSE2. */
INLINE void dct1d_4(__m128 *m)
{
    const __m128 even0 = _mm_add_ps(m[0], m[3]);
    const __m128 even1 = _mm_add_ps(m[1], m[2]);
    const __m128 odd0 = _mm_mul_ps(_mm_sub_ps(m[0], m[3]),
                                   _mm_set1_ps((float)0.541196100146197));
    const __m128 odd1 = _mm_mul_ps(_mm_sub_ps(m[1], m[2]),
                                   _mm_set1_ps((float)1.3065629648763764));
    const __m128 sum = _mm_add_ps(odd0, odd1);
    const __m128 diff = _mm_sub_ps(odd0, odd1);
    m[0] = _mm_add_ps(even0, even1);
    m[2] = _mm_sub_ps(even0, even1);
    m[1] = _mm_add_ps(_mm_mul_ps(sum, _mm_set1_ps(1.41421356237f)), diff);
    m[3] = diff;
}

/* DCT1DImpl<8> on m[0..7] (stride apart), then the 1/8 scale. */
INLINE void dct1d_8_scaled(__m128 *m, int stride)
{
    static const float wc[4] = {
        (float)0.5097955791041592,
        (float)0.6013448869350453,
        (float)0.8999762231364156,
        (float)2.5629154477415055,
    };
    __m128 even[4], odd[4];
    for (int i = 0; i < 4; ++i) {
        even[i] = _mm_add_ps(m[i * stride], m[(7 - i) * stride]);
        odd[i] = _mm_mul_ps(_mm_sub_ps(m[i * stride], m[(7 - i) * stride]),
                            _mm_set1_ps(wc[i]));
    }
    dct1d_4(even);
    dct1d_4(odd);
    odd[0] = _mm_add_ps(_mm_mul_ps(odd[0], _mm_set1_ps(1.41421356237f)),
                        odd[1]);
    odd[1] = _mm_add_ps(odd[1], odd[2]);
    odd[2] = _mm_add_ps(odd[2], odd[3]);
    const __m128 eighth = _mm_set1_ps(0.125f);
    for (int i = 0; i < 4; ++i) {
        m[2 * i * stride] = _mm_mul_ps(eighth, even[i]);
        m[(2 * i + 1) * stride] = _mm_mul_ps(eighth, odd[i]);
    }
}

/* The block as m[2 * row + half], half 0: columns 0..3, 1: columns 4..7. */
INLINE void dct_pass(__m128 *m)
{
    dct1d_8_scaled(m, 2);
    dct1d_8_scaled(m + 1, 2);
}

INLINE void transpose8x8(__m128 *m)
{
    __m128 t[16];
    for (int n = 0; n < 2; ++n) {
        for (int half = 0; half < 2; ++half) {
            __m128 r0 = m[2 * (4 * n) + half];
            __m128 r1 = m[2 * (4 * n + 1) + half];
            __m128 r2 = m[2 * (4 * n + 2) + half];
            __m128 r3 = m[2 * (4 * n + 3) + half];
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            /* Rows 4n..4n+3, columns 4half..: rows 4half.., columns 4n.. */
            t[2 * (4 * half) + n] = r0;
            t[2 * (4 * half + 1) + n] = r1;
            t[2 * (4 * half + 2) + n] = r2;
            t[2 * (4 * half + 3) + n] = r3;
        }
    }
    for (int i = 0; i < 16; ++i)
        m[i] = t[i];
}

/* Low 16 bits of each 32-bit lane as int16 (C's conversion), in order. */
INLINE __m128i truncate_pack(__m128i a, __m128i b)
{
    a = _mm_srai_epi32(_mm_slli_epi32(a, 16), 16);
    b = _mm_srai_epi32(_mm_slli_epi32(b, 16), 16);
    return _mm_packs_epi32(a, b);
}

void ct_jpeg_dct_quant_row_sse2(const float *pixels, ptrdiff_t stride,
                                size_t nblocks, const float *qmc,
                                const float *zero_bias_offset,
                                const float *zero_bias_mul, const float *aq,
                                size_t aq_step, int16_t *blocks,
                                float *dc_value, float *dc_threshold)
{
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    for (size_t bx = 0; bx < nblocks; ++bx) {
        __m128 m[16];
        for (int y = 0; y < 8; ++y) {
            m[2 * y] = _mm_loadu_ps(pixels + y * stride + 8 * bx);
            m[2 * y + 1] = _mm_loadu_ps(pixels + y * stride + 8 * bx + 4);
        }
        dct_pass(m);
        transpose8x8(m);
        dct_pass(m);
        transpose8x8(m);

        const float aq_strength = aq != NULL ? aq[bx * aq_step] : 0.0f;
        const __m128 aq_mul = _mm_set1_ps(aq_strength);
        int16_t natural[64] __attribute__((aligned(16)));
        for (int i = 0; i < 16; i += 2) {
            __m128i q[2];
            for (int j = 0; j < 2; ++j) {
                const int k = 4 * (i + j);
                const __m128 qval = _mm_mul_ps(m[i + j], _mm_loadu_ps(qmc + k));
                const __m128 threshold = _mm_add_ps(
                    _mm_loadu_ps(zero_bias_offset + k),
                    _mm_mul_ps(_mm_loadu_ps(zero_bias_mul + k), aq_mul));
                const __m128 nonzero =
                    _mm_cmpge_ps(_mm_and_ps(qval, abs_mask), threshold);
                /* cvtps rounds to nearest even, as Round then ConvertTo. */
                q[j] = _mm_and_si128(_mm_cvtps_epi32(qval),
                                     _mm_castps_si128(nonzero));
            }
            _mm_store_si128((__m128i *)(natural + 4 * i),
                            truncate_pack(q[0], q[1]));
        }
        int16_t *block = blocks + 64 * bx;
        block[0] = 0;
        for (int k = 1; k < 64; ++k)
            block[k] = natural[ct_jpeg_natural_order[k]];

        dc_value[bx] = (_mm_cvtss_f32(m[0]) - 128.0f) * qmc[0];
        dc_threshold[bx] = zero_bias_offset[0] + aq_strength * zero_bias_mul[0];
    }
}
