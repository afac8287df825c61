/*
 * CELT's FFT butterflies with AVX2, the C code's bits: the radix-3, -4 and
 * -5 butterflies of a stage with m >= 4 are independent of each other and
 * do the same operations, so four of them (four consecutive complex values,
 * interleaved as in memory) run in the lanes of a register, each value
 * through the reference's operations in its order. A complex product is
 * (a.r * b.r - a.i * b.i, a.i * b.r + a.r * b.i): the reference adds
 * a.r * b.i + a.i * b.r, the same two products, and a sum of two does not
 * depend on their order. The radix-2 stage and the radix-4 one with m == 1
 * (each butterfly within one register) run the C code.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * The butterflies are libopus 1.3.1 celt/kiss_fft.c's (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include <immintrin.h>

#include "opus/fft.h"

/* (r, i) pairs swapped: (i, r) */
#define SWAP_RI(v) _mm256_permute_ps((v), 0xB1)

/* four complex twiddles tw[k * step], tw[(k + 1) * step] ... */
__attribute__((target("avx2"))) static inline __m256
twiddles4(const ct_fft_cpx *tw, int k, int step)
{
    const __m128i index = _mm_setr_epi32(k * step, (k + 1) * step,
                                         (k + 2) * step, (k + 3) * step);
    return _mm256_castpd_ps(_mm256_i32gather_pd((const double *)tw, index, 8));
}

/* C_MUL: (a.r * b.r - a.i * b.i, a.i * b.r + a.r * b.i) */
__attribute__((target("avx2"))) static inline __m256 cmul(__m256 a, __m256 b)
{
    const __m256 br = _mm256_moveldup_ps(b);
    const __m256 bi = _mm256_movehdup_ps(b);
    return _mm256_addsub_ps(_mm256_mul_ps(a, br),
                            _mm256_mul_ps(SWAP_RI(a), bi));
}

/* (a.r + b.i, a.i - b.r) and (a.r - b.i, a.i + b.r) */
__attribute__((target("avx2"))) static inline __m256 add_rot(__m256 a, __m256 b)
{
    const __m256 sign = _mm256_set1_ps(-0.0f);
    return _mm256_addsub_ps(a, _mm256_xor_ps(SWAP_RI(b), sign));
}

__attribute__((target("avx2"))) static inline __m256 sub_rot(__m256 a, __m256 b)
{
    return _mm256_addsub_ps(a, SWAP_RI(b));
}

__attribute__((target("avx2"))) static void bfly4_avx2(ct_fft_cpx *Fout_beg,
                                                       const size_t fstride,
                                                       const ct_fft_state *st,
                                                       int m, int N, int mm)
{
    const int m2 = 2 * m, m3 = 3 * m;
    const int s = (int)fstride;
    for (int i = 0; i < N; i++) {
        float *F = (float *)(Fout_beg + i * mm);
        for (int j = 0; j < m; j += 4) {
            float *f = F + 2 * j;
            const __m256 s0 =
                cmul(_mm256_loadu_ps(f + 2 * m), twiddles4(st->twiddles, j, s));
            const __m256 s1 = cmul(_mm256_loadu_ps(f + 2 * m2),
                                   twiddles4(st->twiddles, j, 2 * s));
            const __m256 s2 = cmul(_mm256_loadu_ps(f + 2 * m3),
                                   twiddles4(st->twiddles, j, 3 * s));
            __m256 f0 = _mm256_loadu_ps(f);
            const __m256 s5 = _mm256_sub_ps(f0, s1);
            __m256 s3, s4;
            f0 = _mm256_add_ps(f0, s1);
            s3 = _mm256_add_ps(s0, s2);
            s4 = _mm256_sub_ps(s0, s2);
            _mm256_storeu_ps(f + 2 * m2, _mm256_sub_ps(f0, s3));
            _mm256_storeu_ps(f, _mm256_add_ps(f0, s3));
            _mm256_storeu_ps(f + 2 * m, add_rot(s5, s4));
            _mm256_storeu_ps(f + 2 * m3, sub_rot(s5, s4));
        }
    }
}

__attribute__((target("avx2"))) static void bfly3_avx2(ct_fft_cpx *Fout_beg,
                                                       const size_t fstride,
                                                       const ct_fft_state *st,
                                                       int m, int N, int mm)
{
    const int m2 = 2 * m;
    const int s = (int)fstride;
    const __m256 epi3i = _mm256_set1_ps(st->twiddles[fstride * m].i);
    const __m256 half = _mm256_set1_ps(.5f);
    for (int i = 0; i < N; i++) {
        float *F = (float *)(Fout_beg + i * mm);
        for (int k = 0; k < m; k += 4) {
            float *f = F + 2 * k;
            const __m256 s1 =
                cmul(_mm256_loadu_ps(f + 2 * m), twiddles4(st->twiddles, k, s));
            const __m256 s2 = cmul(_mm256_loadu_ps(f + 2 * m2),
                                   twiddles4(st->twiddles, k, 2 * s));
            const __m256 s3 = _mm256_add_ps(s1, s2);
            const __m256 s0 = _mm256_mul_ps(_mm256_sub_ps(s1, s2), epi3i);
            const __m256 f0 = _mm256_loadu_ps(f);
            const __m256 fm = _mm256_sub_ps(f0, _mm256_mul_ps(s3, half));
            _mm256_storeu_ps(f, _mm256_add_ps(f0, s3));
            _mm256_storeu_ps(f + 2 * m2, add_rot(fm, s0));
            _mm256_storeu_ps(f + 2 * m, sub_rot(fm, s0));
        }
    }
}

__attribute__((target("avx2"))) static void bfly5_avx2(ct_fft_cpx *Fout_beg,
                                                       const size_t fstride,
                                                       const ct_fft_state *st,
                                                       int m, int N, int mm)
{
    const ct_fft_cpx ya = st->twiddles[fstride * m];
    const ct_fft_cpx yb = st->twiddles[fstride * 2 * m];
    const __m256 yar = _mm256_set1_ps(ya.r), yai = _mm256_set1_ps(ya.i);
    const __m256 ybr = _mm256_set1_ps(yb.r), ybi = _mm256_set1_ps(yb.i);
    /* the imaginary lanes */
    const __m256 odd =
        _mm256_castsi256_ps(_mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1));
    const int s = (int)fstride;
    for (int i = 0; i < N; i++) {
        float *F = (float *)(Fout_beg + i * mm);
        for (int u = 0; u < m; u += 4) {
            float *f = F + 2 * u;
            const __m256 s0 = _mm256_loadu_ps(f);
            const __m256 s1 =
                cmul(_mm256_loadu_ps(f + 2 * m), twiddles4(st->twiddles, u, s));
            const __m256 s2 = cmul(_mm256_loadu_ps(f + 4 * m),
                                   twiddles4(st->twiddles, u, 2 * s));
            const __m256 s3 = cmul(_mm256_loadu_ps(f + 6 * m),
                                   twiddles4(st->twiddles, u, 3 * s));
            const __m256 s4 = cmul(_mm256_loadu_ps(f + 8 * m),
                                   twiddles4(st->twiddles, u, 4 * s));
            const __m256 s7 = _mm256_add_ps(s1, s4);
            const __m256 s10 = _mm256_sub_ps(s1, s4);
            const __m256 s8 = _mm256_add_ps(s2, s3);
            const __m256 s9 = _mm256_sub_ps(s2, s3);
            const __m256 s5 =
                _mm256_add_ps(s0, _mm256_add_ps(_mm256_mul_ps(s7, yar),
                                                _mm256_mul_ps(s8, ybr)));
            /* s6 = (s10.i ya.i + s9.i yb.i, -(s10.r ya.i + s9.r yb.i)) */
            const __m256 s6 =
                _mm256_xor_ps(_mm256_add_ps(_mm256_mul_ps(SWAP_RI(s10), yai),
                                            _mm256_mul_ps(SWAP_RI(s9), ybi)),
                              _mm256_and_ps(odd, _mm256_set1_ps(-0.0f)));
            const __m256 s11 =
                _mm256_add_ps(s0, _mm256_add_ps(_mm256_mul_ps(s7, ybr),
                                                _mm256_mul_ps(s8, yar)));
            /* s12 = (s9.i ya.i - s10.i yb.i, s10.r yb.i - s9.r ya.i) */
            const __m256 a = _mm256_mul_ps(SWAP_RI(s9), yai);
            const __m256 b = _mm256_mul_ps(SWAP_RI(s10), ybi);
            const __m256 s12 =
                _mm256_blendv_ps(_mm256_sub_ps(a, b), _mm256_sub_ps(b, a), odd);
            _mm256_storeu_ps(f, _mm256_add_ps(s0, _mm256_add_ps(s7, s8)));
            _mm256_storeu_ps(f + 2 * m, _mm256_sub_ps(s5, s6));
            _mm256_storeu_ps(f + 8 * m, _mm256_add_ps(s5, s6));
            _mm256_storeu_ps(f + 4 * m, _mm256_add_ps(s11, s12));
            _mm256_storeu_ps(f + 6 * m, _mm256_sub_ps(s11, s12));
        }
    }
}

/* The stages' butterflies: in the lanes where m is a multiple of 4 */
__attribute__((target("avx2"))) static void bfly3_stage(ct_fft_cpx *Fout,
                                                        const size_t fstride,
                                                        const ct_fft_state *st,
                                                        int m, int N, int mm)
{
    if (m % 4 == 0)
        bfly3_avx2(Fout, fstride, st, m, N, mm);
    else
        ct_opus_fft_bfly3(Fout, fstride, st, m, N, mm);
}

__attribute__((target("avx2"))) static void bfly4_stage(ct_fft_cpx *Fout,
                                                        const size_t fstride,
                                                        const ct_fft_state *st,
                                                        int m, int N, int mm)
{
    if (m % 4 == 0)
        bfly4_avx2(Fout, fstride, st, m, N, mm);
    else
        ct_opus_fft_bfly4(Fout, fstride, st, m, N, mm);
}

__attribute__((target("avx2"))) static void bfly5_stage(ct_fft_cpx *Fout,
                                                        const size_t fstride,
                                                        const ct_fft_state *st,
                                                        int m, int N, int mm)
{
    if (m % 4 == 0)
        bfly5_avx2(Fout, fstride, st, m, N, mm);
    else
        ct_opus_fft_bfly5(Fout, fstride, st, m, N, mm);
}

void ct_opus_fft_impl_avx2(const ct_fft_state *st, ct_fft_cpx *fout)
{
    ct_opus_fft_stages(st, fout, bfly3_stage, bfly4_stage, bfly5_stage);
}
