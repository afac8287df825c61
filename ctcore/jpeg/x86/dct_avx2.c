/*
 * DCT, quantization and zigzag store with AVX2 and FMA: one 8x8 block in
 * eight registers (a row of 8 floats each), as Highway's AVX2 target runs
 * jpegli's DCT1D over 8 lanes. Same bits as ct_jpeg_dct_quant_row_c_avx2.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/dct-inl.h and lib/jpegli/transpose-inl.h
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <immintrin.h>

#include "../pixel_dsp.h"

#define TARGET_AVX2 __attribute__((target("avx2,fma")))
#define INLINE_AVX2 static inline TARGET_AVX2 __attribute__((always_inline))

/* DCT1DImpl<4> on a, b, c, d. */
INLINE_AVX2 void dct1d_4(__m256 *a, __m256 *b, __m256 *c, __m256 *d)
{
    const __m256 even0 = _mm256_add_ps(*a, *d);
    const __m256 even1 = _mm256_add_ps(*b, *c);
    const __m256 wc0 = _mm256_set1_ps((float)0.541196100146197);
    const __m256 wc1 = _mm256_set1_ps((float)1.3065629648763764);
    const __m256 odd0 = _mm256_mul_ps(_mm256_sub_ps(*a, *d), wc0);
    const __m256 odd1 = _mm256_mul_ps(_mm256_sub_ps(*b, *c), wc1);
    const __m256 sum = _mm256_add_ps(odd0, odd1);
    const __m256 diff = _mm256_sub_ps(odd0, odd1);
    *a = _mm256_add_ps(even0, even1);
    *c = _mm256_sub_ps(even0, even1);
    *b = _mm256_fmadd_ps(sum, _mm256_set1_ps(1.41421356237f), diff);
    *d = diff;
}

/* DCT1DImpl<8> on m[0..7], then the 1/8 scale of StoreToBlockAndScale.
 * Written out so that the block stays in registers. */
INLINE_AVX2 void dct1d_8_scaled(__m256 *m)
{
    __m256 e0 = _mm256_add_ps(m[0], m[7]);
    __m256 e1 = _mm256_add_ps(m[1], m[6]);
    __m256 e2 = _mm256_add_ps(m[2], m[5]);
    __m256 e3 = _mm256_add_ps(m[3], m[4]);
    __m256 o0 = _mm256_mul_ps(_mm256_sub_ps(m[0], m[7]),
                              _mm256_set1_ps((float)0.5097955791041592));
    __m256 o1 = _mm256_mul_ps(_mm256_sub_ps(m[1], m[6]),
                              _mm256_set1_ps((float)0.6013448869350453));
    __m256 o2 = _mm256_mul_ps(_mm256_sub_ps(m[2], m[5]),
                              _mm256_set1_ps((float)0.8999762231364156));
    __m256 o3 = _mm256_mul_ps(_mm256_sub_ps(m[3], m[4]),
                              _mm256_set1_ps((float)2.5629154477415055));
    dct1d_4(&e0, &e1, &e2, &e3);
    dct1d_4(&o0, &o1, &o2, &o3);
    o0 = _mm256_fmadd_ps(o0, _mm256_set1_ps(1.41421356237f), o1);
    o1 = _mm256_add_ps(o1, o2);
    o2 = _mm256_add_ps(o2, o3);
    const __m256 eighth = _mm256_set1_ps(0.125f);
    m[0] = _mm256_mul_ps(eighth, e0);
    m[1] = _mm256_mul_ps(eighth, o0);
    m[2] = _mm256_mul_ps(eighth, e1);
    m[3] = _mm256_mul_ps(eighth, o1);
    m[4] = _mm256_mul_ps(eighth, e2);
    m[5] = _mm256_mul_ps(eighth, o2);
    m[6] = _mm256_mul_ps(eighth, e3);
    m[7] = _mm256_mul_ps(eighth, o3);
}

INLINE_AVX2 void transpose8x8(__m256 *r)
{
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]);
    const __m256 t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]);
    const __m256 t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]);
    const __m256 t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]);
    const __m256 t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/* Low 16 bits of each 32-bit lane as int16 (C's conversion), in order. */
INLINE_AVX2 __m256i truncate_pack(__m256i a, __m256i b)
{
    a = _mm256_srai_epi32(_mm256_slli_epi32(a, 16), 16);
    b = _mm256_srai_epi32(_mm256_slli_epi32(b, 16), 16);
    return _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b),
                                    _MM_SHUFFLE(3, 1, 2, 0));
}

/*
 * The zigzag store: output vector j (zigzag positions 8j .. 8j+7) gathers
 * from the natural rows it touches, one byte shuffle per row (36 in all).
 * Position 0 (DC) is left 0.
 */
static const int8_t zigzag_shuffles[36][16] __attribute__((aligned(16))) = {
    /* zigzag 0..7: natural rows 0, 1, 2 */
    {-1, -1, 2, 3, -1, -1, -1, -1, -1, -1, 4, 5, 6, 7, -1, -1},
    {-1, -1, -1, -1, 0, 1, -1, -1, 2, 3, -1, -1, -1, -1, 4, 5},
    {-1, -1, -1, -1, -1, -1, 0, 1, -1, -1, -1, -1, -1, -1, -1, -1},
    /* zigzag 8..15: natural rows 0, 1, 2, 3, 4 */
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 8, 9, 10, 11},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 6, 7, -1, -1, -1, -1},
    {2, 3, -1, -1, -1, -1, -1, -1, 4, 5, -1, -1, -1, -1, -1, -1},
    {-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, -1, 0, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    /* zigzag 16..23: natural rows 1, 2, 3, 4, 5, 6 */
    {8, 9, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {-1, -1, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, -1, 4, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, -1, -1, -1, 2, 3, -1, -1, -1, -1, -1, -1, 4, 5},
    {-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, -1, -1, 2, 3, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, -1, -1, -1, -1},
    /* zigzag 24..31: natural rows 0, 1, 2, 3 */
    {-1, -1, -1, -1, -1, -1, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, -1, 10, 11, -1, -1, -1, -1, 12, 13, -1, -1, -1, -1},
    {-1, -1, 8, 9, -1, -1, -1, -1, -1, -1, -1, -1, 10, 11, -1, -1},
    {6, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 8, 9},
    /* zigzag 32..39: natural rows 4, 5, 6, 7 */
    {6, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 8, 9},
    {-1, -1, 4, 5, -1, -1, -1, -1, -1, -1, -1, -1, 6, 7, -1, -1},
    {-1, -1, -1, -1, 2, 3, -1, -1, -1, -1, 4, 5, -1, -1, -1, -1},
    {-1, -1, -1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, -1, -1},
    /* zigzag 40..47: natural rows 1, 2, 3, 4, 5, 6 */
    {-1, -1, -1, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {-1, -1, 12, 13, -1, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1},
    {10, 11, -1, -1, -1, -1, -1, -1, 12, 13, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 10, 11, -1, -1, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 8, 9, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 6, 7},
    /* zigzag 48..55: natural rows 3, 4, 5, 6, 7 */
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 14, 15, -1, -1, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, 12, 13, -1, -1, 14, 15, -1, -1},
    {-1, -1, -1, -1, -1, -1, 10, 11, -1, -1, -1, -1, -1, -1, 12, 13},
    {-1, -1, -1, -1, 8, 9, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {4, 5, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    /* zigzag 56..63: natural rows 5, 6, 7 */
    {-1, -1, -1, -1, -1, -1, -1, -1, 14, 15, -1, -1, -1, -1, -1, -1},
    {10, 11, -1, -1, -1, -1, 12, 13, -1, -1, 14, 15, -1, -1, -1, -1},
    {-1, -1, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, 12, 13, 14, 15},
};

INLINE_AVX2 __m128i zigzag_part(__m128i row, int i)
{
    const __m128i shuffle =
        _mm_load_si128((const __m128i *)zigzag_shuffles[i]);
    return _mm_shuffle_epi8(row, shuffle);
}

INLINE_AVX2 __m128i or3(__m128i a, __m128i b, __m128i c)
{
    return _mm_or_si128(_mm_or_si128(a, b), c);
}

/* row[u]: natural row u as int16. */
INLINE_AVX2 void zigzag_store(const __m128i *row, int16_t *block)
{
    __m128i *out = (__m128i *)block;
    _mm_storeu_si128(out, or3(zigzag_part(row[0], 0), zigzag_part(row[1], 1),
                              zigzag_part(row[2], 2)));
    _mm_storeu_si128(out + 1,
                     _mm_or_si128(or3(zigzag_part(row[0], 3),
                                      zigzag_part(row[1], 4),
                                      zigzag_part(row[2], 5)),
                                  _mm_or_si128(zigzag_part(row[3], 6),
                                               zigzag_part(row[4], 7))));
    _mm_storeu_si128(out + 2,
                     _mm_or_si128(or3(zigzag_part(row[1], 8),
                                      zigzag_part(row[2], 9),
                                      zigzag_part(row[3], 10)),
                                  or3(zigzag_part(row[4], 11),
                                      zigzag_part(row[5], 12),
                                      zigzag_part(row[6], 13))));
    _mm_storeu_si128(out + 3,
                     _mm_or_si128(_mm_or_si128(zigzag_part(row[0], 14),
                                               zigzag_part(row[1], 15)),
                                  _mm_or_si128(zigzag_part(row[2], 16),
                                               zigzag_part(row[3], 17))));
    _mm_storeu_si128(out + 4,
                     _mm_or_si128(_mm_or_si128(zigzag_part(row[4], 18),
                                               zigzag_part(row[5], 19)),
                                  _mm_or_si128(zigzag_part(row[6], 20),
                                               zigzag_part(row[7], 21))));
    _mm_storeu_si128(out + 5,
                     _mm_or_si128(or3(zigzag_part(row[1], 22),
                                      zigzag_part(row[2], 23),
                                      zigzag_part(row[3], 24)),
                                  or3(zigzag_part(row[4], 25),
                                      zigzag_part(row[5], 26),
                                      zigzag_part(row[6], 27))));
    _mm_storeu_si128(out + 6,
                     _mm_or_si128(or3(zigzag_part(row[3], 28),
                                      zigzag_part(row[4], 29),
                                      zigzag_part(row[5], 30)),
                                  _mm_or_si128(zigzag_part(row[6], 31),
                                               zigzag_part(row[7], 32))));
    _mm_storeu_si128(out + 7, or3(zigzag_part(row[5], 33),
                                  zigzag_part(row[6], 34),
                                  zigzag_part(row[7], 35)));
}

/* QuantizeBlock for coefficients k .. k+7: zero below the threshold, else
 * rounded to nearest even (cvtps, as Round then ConvertTo). */
INLINE_AVX2 __m256i quantize8(__m256 coeffs, const float *qmc,
                              const float *zero_bias_offset,
                              const float *zero_bias_mul, __m256 aq_mul)
{
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 qval = _mm256_mul_ps(coeffs, _mm256_loadu_ps(qmc));
    const __m256 threshold =
        _mm256_add_ps(_mm256_loadu_ps(zero_bias_offset),
                      _mm256_mul_ps(_mm256_loadu_ps(zero_bias_mul), aq_mul));
    const __m256 nonzero =
        _mm256_cmp_ps(_mm256_and_ps(qval, abs_mask), threshold, _CMP_GE_OQ);
    return _mm256_and_si256(_mm256_cvtps_epi32(qval),
                            _mm256_castps_si256(nonzero));
}

/* Quantizes natural rows u and u + 1 into natural[u], natural[u + 1]. */
INLINE_AVX2 void quantize_rows(const __m256 *m, int u, const float *qmc,
                               const float *zero_bias_offset,
                               const float *zero_bias_mul, __m256 aq_mul,
                               __m128i *natural)
{
    const int k = 8 * u;
    const __m256i rows = truncate_pack(
        quantize8(m[u], qmc + k, zero_bias_offset + k, zero_bias_mul + k,
                  aq_mul),
        quantize8(m[u + 1], qmc + k + 8, zero_bias_offset + k + 8,
                  zero_bias_mul + k + 8, aq_mul));
    natural[u] = _mm256_castsi256_si128(rows);
    natural[u + 1] = _mm256_extracti128_si256(rows, 1);
}

TARGET_AVX2
void ct_jpeg_dct_quant_row_avx2(const float *pixels, ptrdiff_t stride,
                                size_t nblocks, const float *qmc,
                                const float *zero_bias_offset,
                                const float *zero_bias_mul, const float *aq,
                                size_t aq_step, int16_t *blocks,
                                float *dc_value, float *dc_threshold)
{
    for (size_t bx = 0; bx < nblocks; ++bx) {
        const float *p = pixels + 8 * bx;
        __m256 m[8];
        m[0] = _mm256_loadu_ps(p);
        m[1] = _mm256_loadu_ps(p + stride);
        m[2] = _mm256_loadu_ps(p + 2 * stride);
        m[3] = _mm256_loadu_ps(p + 3 * stride);
        m[4] = _mm256_loadu_ps(p + 4 * stride);
        m[5] = _mm256_loadu_ps(p + 5 * stride);
        m[6] = _mm256_loadu_ps(p + 6 * stride);
        m[7] = _mm256_loadu_ps(p + 7 * stride);
        dct1d_8_scaled(m);
        transpose8x8(m);
        dct1d_8_scaled(m);
        transpose8x8(m);

        const float aq_strength = aq != NULL ? aq[bx * aq_step] : 0.0f;
        const __m256 aq_mul = _mm256_set1_ps(aq_strength);
        __m128i natural[8];
        quantize_rows(m, 0, qmc, zero_bias_offset, zero_bias_mul, aq_mul,
                      natural);
        quantize_rows(m, 2, qmc, zero_bias_offset, zero_bias_mul, aq_mul,
                      natural);
        quantize_rows(m, 4, qmc, zero_bias_offset, zero_bias_mul, aq_mul,
                      natural);
        quantize_rows(m, 6, qmc, zero_bias_offset, zero_bias_mul, aq_mul,
                      natural);
        zigzag_store(natural, blocks + 64 * bx);

        dc_value[bx] = (_mm256_cvtss_f32(m[0]) - 128.0f) * qmc[0];
        dc_threshold[bx] = zero_bias_offset[0] + aq_strength * zero_bias_mul[0];
    }
}
