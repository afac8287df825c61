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

/* DCT1DImpl<4> on a, b, c, d; MulAdd is a multiply then an add on SSE2. */
INLINE void dct1d_4(__m128 *a, __m128 *b, __m128 *c, __m128 *d)
{
    const __m128 even0 = _mm_add_ps(*a, *d);
    const __m128 even1 = _mm_add_ps(*b, *c);
    const __m128 odd0 = _mm_mul_ps(_mm_sub_ps(*a, *d),
                                   _mm_set1_ps((float)0.541196100146197));
    const __m128 odd1 = _mm_mul_ps(_mm_sub_ps(*b, *c),
                                   _mm_set1_ps((float)1.3065629648763764));
    const __m128 sum = _mm_add_ps(odd0, odd1);
    const __m128 diff = _mm_sub_ps(odd0, odd1);
    *a = _mm_add_ps(even0, even1);
    *c = _mm_sub_ps(even0, even1);
    *b = _mm_add_ps(_mm_mul_ps(sum, _mm_set1_ps(1.41421356237f)), diff);
    *d = diff;
}

/* DCT1DImpl<8> on m[0..7], then the 1/8 scale of StoreToBlockAndScale.
 * Written out so that the 8 vectors stay in registers. */
INLINE void dct1d_8_scaled(__m128 *m)
{
    __m128 e0 = _mm_add_ps(m[0], m[7]);
    __m128 e1 = _mm_add_ps(m[1], m[6]);
    __m128 e2 = _mm_add_ps(m[2], m[5]);
    __m128 e3 = _mm_add_ps(m[3], m[4]);
    __m128 o0 = _mm_mul_ps(_mm_sub_ps(m[0], m[7]),
                           _mm_set1_ps((float)0.5097955791041592));
    __m128 o1 = _mm_mul_ps(_mm_sub_ps(m[1], m[6]),
                           _mm_set1_ps((float)0.6013448869350453));
    __m128 o2 = _mm_mul_ps(_mm_sub_ps(m[2], m[5]),
                           _mm_set1_ps((float)0.8999762231364156));
    __m128 o3 = _mm_mul_ps(_mm_sub_ps(m[3], m[4]),
                           _mm_set1_ps((float)2.5629154477415055));
    dct1d_4(&e0, &e1, &e2, &e3);
    dct1d_4(&o0, &o1, &o2, &o3);
    o0 = _mm_add_ps(_mm_mul_ps(o0, _mm_set1_ps(1.41421356237f)), o1);
    o1 = _mm_add_ps(o1, o2);
    o2 = _mm_add_ps(o2, o3);
    const __m128 eighth = _mm_set1_ps(0.125f);
    m[0] = _mm_mul_ps(eighth, e0);
    m[1] = _mm_mul_ps(eighth, o0);
    m[2] = _mm_mul_ps(eighth, e1);
    m[3] = _mm_mul_ps(eighth, o1);
    m[4] = _mm_mul_ps(eighth, e2);
    m[5] = _mm_mul_ps(eighth, o2);
    m[6] = _mm_mul_ps(eighth, e3);
    m[7] = _mm_mul_ps(eighth, o3);
}

/*
 * One DCT1D pass over half a block: columns 4h .. 4h+3 of the 8 rows at
 * in (stride floats apart), transposed into out (8 floats per row): out
 * row 4h + i holds the 8 outputs of column 4h + i.
 */
INLINE void dct_half_pass(const float *in, ptrdiff_t stride, int h,
                          float *out)
{
    __m128 m[8];
    m[0] = _mm_loadu_ps(in + 4 * h);
    m[1] = _mm_loadu_ps(in + stride + 4 * h);
    m[2] = _mm_loadu_ps(in + 2 * stride + 4 * h);
    m[3] = _mm_loadu_ps(in + 3 * stride + 4 * h);
    m[4] = _mm_loadu_ps(in + 4 * stride + 4 * h);
    m[5] = _mm_loadu_ps(in + 5 * stride + 4 * h);
    m[6] = _mm_loadu_ps(in + 6 * stride + 4 * h);
    m[7] = _mm_loadu_ps(in + 7 * stride + 4 * h);
    dct1d_8_scaled(m);
    _MM_TRANSPOSE4_PS(m[0], m[1], m[2], m[3]);
    _MM_TRANSPOSE4_PS(m[4], m[5], m[6], m[7]);
    float *row = out + 4 * h * 8;
    _mm_store_ps(row, m[0]);
    _mm_store_ps(row + 4, m[4]);
    _mm_store_ps(row + 8, m[1]);
    _mm_store_ps(row + 12, m[5]);
    _mm_store_ps(row + 16, m[2]);
    _mm_store_ps(row + 20, m[6]);
    _mm_store_ps(row + 24, m[3]);
    _mm_store_ps(row + 28, m[7]);
}

/* Low 16 bits of each 32-bit lane as int16 (C's conversion), in order. */
INLINE __m128i truncate_pack(__m128i a, __m128i b)
{
    a = _mm_srai_epi32(_mm_slli_epi32(a, 16), 16);
    b = _mm_srai_epi32(_mm_slli_epi32(b, 16), 16);
    return _mm_packs_epi32(a, b);
}

/* QuantizeBlock for coefficients k .. k+3: zero below the threshold, else
 * rounded to nearest even (cvtps, as Round then ConvertTo). */
INLINE __m128i quantize4(const float *coeffs, const float *qmc,
                         const float *zero_bias_offset,
                         const float *zero_bias_mul, __m128 aq_mul)
{
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    const __m128 qval = _mm_mul_ps(_mm_load_ps(coeffs), _mm_loadu_ps(qmc));
    const __m128 threshold =
        _mm_add_ps(_mm_loadu_ps(zero_bias_offset),
                   _mm_mul_ps(_mm_loadu_ps(zero_bias_mul), aq_mul));
    const __m128 nonzero = _mm_cmpge_ps(_mm_and_ps(qval, abs_mask), threshold);
    return _mm_and_si128(_mm_cvtps_epi32(qval), _mm_castps_si128(nonzero));
}

/* The zigzag store: zigzag position k takes natural[ct_jpeg_natural_order[k]]
 * (written out so every index is a constant); position 0 (DC) is 0. */
INLINE void zigzag_store(const int16_t *n, int16_t *block)
{
    block[0] = 0;     block[1] = n[1];   block[2] = n[8];   block[3] = n[16];
    block[4] = n[9];  block[5] = n[2];   block[6] = n[3];   block[7] = n[10];
    block[8] = n[17]; block[9] = n[24];  block[10] = n[32]; block[11] = n[25];
    block[12] = n[18]; block[13] = n[11]; block[14] = n[4]; block[15] = n[5];
    block[16] = n[12]; block[17] = n[19]; block[18] = n[26]; block[19] = n[33];
    block[20] = n[40]; block[21] = n[48]; block[22] = n[41]; block[23] = n[34];
    block[24] = n[27]; block[25] = n[20]; block[26] = n[13]; block[27] = n[6];
    block[28] = n[7]; block[29] = n[14]; block[30] = n[21]; block[31] = n[28];
    block[32] = n[35]; block[33] = n[42]; block[34] = n[49]; block[35] = n[56];
    block[36] = n[57]; block[37] = n[50]; block[38] = n[43]; block[39] = n[36];
    block[40] = n[29]; block[41] = n[22]; block[42] = n[15]; block[43] = n[23];
    block[44] = n[30]; block[45] = n[37]; block[46] = n[44]; block[47] = n[51];
    block[48] = n[58]; block[49] = n[59]; block[50] = n[52]; block[51] = n[45];
    block[52] = n[38]; block[53] = n[31]; block[54] = n[39]; block[55] = n[46];
    block[56] = n[53]; block[57] = n[60]; block[58] = n[61]; block[59] = n[54];
    block[60] = n[47]; block[61] = n[55]; block[62] = n[62]; block[63] = n[63];
}

void ct_jpeg_dct_quant_row_sse2(const float *pixels, ptrdiff_t stride,
                                size_t nblocks, const float *qmc,
                                const float *zero_bias_offset,
                                const float *zero_bias_mul, const float *aq,
                                size_t aq_step, int16_t *blocks,
                                float *dc_value, float *dc_threshold)
{
    float columns[64] __attribute__((aligned(16)));
    float coeffs[64] __attribute__((aligned(16)));
    int16_t natural[64] __attribute__((aligned(16)));
    for (size_t bx = 0; bx < nblocks; ++bx) {
        /* TransformFromPixels: columns, transpose, rows, transpose. */
        dct_half_pass(pixels + 8 * bx, stride, 0, columns);
        dct_half_pass(pixels + 8 * bx, stride, 1, columns);
        dct_half_pass(columns, 8, 0, coeffs);
        dct_half_pass(columns, 8, 1, coeffs);

        const float aq_strength = aq != NULL ? aq[bx * aq_step] : 0.0f;
        const __m128 aq_mul = _mm_set1_ps(aq_strength);
        for (int k = 0; k < 64; k += 8) {
            const __m128i lo = quantize4(coeffs + k, qmc + k,
                                         zero_bias_offset + k,
                                         zero_bias_mul + k, aq_mul);
            const __m128i hi = quantize4(coeffs + k + 4, qmc + k + 4,
                                         zero_bias_offset + k + 4,
                                         zero_bias_mul + k + 4, aq_mul);
            _mm_store_si128((__m128i *)(natural + k), truncate_pack(lo, hi));
        }
        zigzag_store(natural, blocks + 64 * bx);

        dc_value[bx] = (coeffs[0] - 128.0f) * qmc[0];
        dc_threshold[bx] = zero_bias_offset[0] + aq_strength * zero_bias_mul[0];
    }
}
