/*
 * What the MP3 encoder's x86-64 kernels (x86/<module>_<isa>.c) share:
 * lane helpers, the layout of a mask chain, the FHT's twiddles and the
 * transposed polyphase window. Each lane does one element's scalar
 * operations in the scalar order and types: float products, conversions to
 * double where LAME's DOUBLEX arithmetic is double, the IEEE 754 rounding
 * trick with table lookups (gathers) per lane. Sums that LAME adds in a
 * fixed order are added in that order (scalar, or pairwise where LAME's own
 * expression pairs them). No fused multiply-adds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_X86_SIMD_H
#define CTCORE_MP3_X86_SIMD_H

#include <immintrin.h>

#include "mp3/state.h"

#define INLINE static inline __attribute__((always_inline))
#define AVX2 __attribute__((target("avx2")))

#define MAGIC_INT 0x4b000000
#define MAGIC_FLOAT (65536.0 * 128.0)

/* t[n[0]], .., t[n[3]] */
INLINE __m128 gather4(const float *t, __m128i n)
{
    long long const lo = _mm_cvtsi128_si64(n);
    long long const hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(n, n));
    __m128 const a = _mm_unpacklo_ps(_mm_load_ss(&t[(int) lo]),
                                     _mm_load_ss(&t[(int) (lo >> 32)]));
    __m128 const b = _mm_unpacklo_ps(_mm_load_ss(&t[(int) hi]),
                                     _mm_load_ss(&t[(int) (hi >> 32)]));
    return _mm_movelh_ps(a, b);
}

/* k_34 of 4 lanes: x (float products) -> double, + 2^23 -> float (the
 * rounded integer in the mantissa), + adj43asm of it in double -> float,
 * minus the magic. */
INLINE __m128i k34_sse2(const float *adj43asm, __m128 x)
{
    __m128d const magic = _mm_set1_pd(MAGIC_FLOAT);
    __m128i const magic_i = _mm_set1_epi32(MAGIC_INT);
    __m128d const xlo = _mm_add_pd(_mm_cvtps_pd(x), magic);
    __m128d const xhi = _mm_add_pd(_mm_cvtps_pd(_mm_movehl_ps(x, x)), magic);
    __m128 const f = _mm_movelh_ps(_mm_cvtpd_ps(xlo), _mm_cvtpd_ps(xhi));
    __m128 const adj = gather4(adj43asm, _mm_sub_epi32(_mm_castps_si128(f), magic_i));
    __m128d const alo = _mm_add_pd(xlo, _mm_cvtps_pd(adj));
    __m128d const ahi = _mm_add_pd(xhi, _mm_cvtps_pd(_mm_movehl_ps(adj, adj)));
    __m128 const g = _mm_movelh_ps(_mm_cvtpd_ps(alo), _mm_cvtpd_ps(ahi));
    return _mm_sub_epi32(_mm_castps_si128(g), magic_i);
}

/* mask ? a : b */
INLINE __m128 sel_ps(__m128 mask, __m128 a, __m128 b)
{
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/* The per-partition layout of a mask chain: start in xs, length, and the
 * distance kk - b of the first masker; lanes past npart get length 1. */
typedef struct mask_chain_layout {
    int start[CBANDS + 16];
    int len[CBANDS + 16];
    int dist0[CBANDS + 16];
    int delta[CBANDS + 16];
} mask_chain_layout;

INLINE void mask_chain_layout_init(mask_chain_layout *ly, int npart, const int (*s3ind)[2],
                                   const int *delta, int pad)
{
    int b, k = 0;
    for (b = 0; b < npart; b++) {
        ly->start[b] = k;
        ly->len[b] = s3ind[b][1] - s3ind[b][0] + 1;
        ly->dist0[b] = s3ind[b][0] - b;
        ly->delta[b] = delta[b];
        k += ly->len[b];
    }
    for (; b < npart + pad; b++) {
        ly->start[b] = 0;
        ly->len[b] = 1;
        ly->dist0[b] = 0;
        ly->delta[b] = 0;
    }
}

INLINE __m128 rev4(__m128 v)
{
    return _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 1, 2, 3));
}

/* the larger of the 4 lanes (values >= +0, no NaN) */
INLINE float hmax4(__m128 v)
{
    v = _mm_max_ps(v, _mm_movehl_ps(v, v));
    v = _mm_max_ss(v, _mm_shuffle_ps(v, v, 1));
    return _mm_cvtss_f32(v);
}

AVX2 INLINE __m256 rev8(__m256 v)
{
    return _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}

/* The twiddles of stage st (kx = 2 * 4^st) for i = 1 .. kx - 1, from
 * fht's recurrence, in its float arithmetic (x86/fft_sse2.c). */
typedef struct ct_mp3_fht_twiddles {
    float c1[4][128], s1[4][128], c2[4][128], s2[4][128];
} ct_mp3_fht_twiddles;
extern const ct_mp3_fht_twiddles ct_mp3_fht_tw;

/* The twiddled butterflies of 8 neighbouring i of a stage (x86/fft_avx2.c). */
typedef void (*ct_mp3_fht_stage_vec_fn)(float *fz, const float *fn, int st, int i, int k1,
                                        int k2, int k3, int k4, int keep);
/* fht by the SSE2 stages, the twiddled butterflies by vec8 where a stage
 * has more than 8 i (x86/fft_sse2.c). */
void ct_mp3_fht_vec8_sse2(float *fz, int n, ct_mp3_fht_stage_vec_fn vec8);

/* enwindow transposed: ct_mp3_wsub_w[j + 10][m] = enwindow[10 + j + 18 m],
 * the weight j of i = m - 15, for m < 15 (m = 15: zeros) (x86/mdct_sse2.c). */
extern const float ct_mp3_wsub_w[18][16];

#endif
