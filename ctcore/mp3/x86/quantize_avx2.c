/*
 * The quantization's AVX2 kernels (quantize_dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/quantize_dsp.h"

#include <math.h>

#include "mp3/x86/simd.h"

/* The first 16 entries of a table in two registers: most lines quantize
 * below 16, where two permutes look up what a gather would load. */
typedef struct table16 {
    __m256 lo, hi;
} table16;

AVX2 INLINE table16 table16_load(const float *t)
{
    table16 const r = {_mm256_loadu_ps(t), _mm256_loadu_ps(t + 8)};
    return r;
}

/* t[n[0]], .., t[n[7]] (n >= 0) */
AVX2 INLINE __m256 lookup8(const float *t, table16 t16, __m256i n)
{
    if (_mm256_testz_si256(n, _mm256_set1_epi32(~15))) {
        __m256 const a = _mm256_permutevar8x32_ps(t16.lo, n);
        __m256 const b = _mm256_permutevar8x32_ps(t16.hi, n);
        /* bit 3 of n in the sign bit picks the upper half */
        return _mm256_blendv_ps(a, b, _mm256_castsi256_ps(_mm256_slli_epi32(n, 28)));
    }
    return _mm256_i32gather_ps(t, n, 4);
}

/* k_34's second rounding as LAME does it: x + 2^23 + adj in double, to
 * float. */
AVX2 INLINE __m256i k34_double_avx2(__m256 x, __m256 adj)
{
    __m256d const magic = _mm256_set1_pd(MAGIC_FLOAT);
    __m256d const xlo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)), magic);
    __m256d const xhi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)), magic);
    __m256d const alo = _mm256_add_pd(xlo, _mm256_cvtps_pd(_mm256_castps256_ps128(adj)));
    __m256d const ahi = _mm256_add_pd(xhi, _mm256_cvtps_pd(_mm256_extractf128_ps(adj, 1)));
    __m256 const g = _mm256_set_m128(_mm256_cvtpd_ps(ahi), _mm256_cvtpd_ps(alo));
    return _mm256_sub_epi32(_mm256_castps_si256(g), _mm256_set1_epi32(MAGIC_INT));
}

/* k_34 of 8 lanes (k34_sse2), in float where that gives LAME's integers.
 * The first rounding: x + 2^23 is exact in double for the x it sees
 * (0 <= x <= IXMAX_VAL, a float) or, below 2^-6, a double that is no
 * float midpoint, so the float sum is the same float. The second: LAME's
 * integer is the nearest (ties to even) to d, the double nearest to
 * x + adj + 2^23 (adj = 0 where x < 0.5). The float s nearest to x + adj
 * (x >= 0.5: its ulp u >= 2^-24) has the same nearest integer unless s is
 * half an integer: otherwise s lies at least u from every half integer
 * and x + adj within u / 2 of s, and d within 2^-30 of x + adj (which is
 * within 2^-30 of a half integer only where s is that half integer). So a
 * vector with a half integer s takes LAME's double path. */
AVX2 INLINE __m256i k34_avx2(const float *adj43asm, table16 adj16, __m256 x)
{
    __m256i const magic_i = _mm256_set1_epi32(MAGIC_INT);
    __m256 const f = _mm256_add_ps(x, _mm256_set1_ps((float) MAGIC_FLOAT));
    __m256 const adj =
        lookup8(adj43asm, adj16, _mm256_sub_epi32(_mm256_castps_si256(f), magic_i));
    __m256 const s = _mm256_add_ps(x, adj);
    __m256 const frac = _mm256_sub_ps(s, _mm256_floor_ps(s));

    if (_mm256_movemask_ps(_mm256_cmp_ps(frac, _mm256_set1_ps(0.5f), _CMP_EQ_OQ)))
        return k34_double_avx2(x, adj);
    /* the MXCSR's rounding, to nearest even, as the magic's addition */
    return _mm256_cvtps_epi32(s);
}

/* The noise of 8 lines at one step: the two groups of 4 of LAME's loop,
 * each (x0^2 + x1^2) + (x2^2 + x3^2) in double, in lanes 0 and 1. */
AVX2 INLINE __m128d noise8_avx2(const float *pow43, table16 pow16, const float *adj43asm,
                                table16 adj16, __m256 xr_abs, __m256 xr34, float sfpow,
                                float sfpow34)
{
    __m256 const x = _mm256_mul_ps(_mm256_set1_ps(sfpow34), xr34);
    __m256i const l3 = k34_avx2(adj43asm, adj16, x);
    __m256 const p = lookup8(pow43, pow16, l3);
    __m256 const d = _mm256_sub_ps(xr_abs, _mm256_mul_ps(_mm256_set1_ps(sfpow), p));
    __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(d));
    __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(d, 1));
    __m256d h;
    lo = _mm256_mul_pd(lo, lo);
    hi = _mm256_mul_pd(hi, hi);
    /* (x0 + x1, x4 + x5, x2 + x3, x6 + x7) */
    h = _mm256_hadd_pd(lo, hi);
    /* ((x0 + x1) + (x2 + x3), (x4 + x5) + (x6 + x7)) */
    return _mm_add_pd(_mm256_castpd256_pd128(h), _mm256_extractf128_pd(h, 1));
}

AVX2 float ct_mp3_sfb_noise_x34_avx2(const float *pow43, const float *adj43asm,
                                     const float *xr, const float *xr34, unsigned int bw,
                                     float sfpow, float sfpow34, float limit)
{
    __m256 const abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    table16 const pow16 = table16_load(pow43);
    table16 const adj16 = table16_load(adj43asm);
    unsigned int groups = bw >> 3u;
    unsigned int const rest = bw & 7u;
    float xfsf = 0;

    while (groups-- > 0) {
        __m128d const s =
            noise8_avx2(pow43, pow16, adj43asm, adj16, _mm256_and_ps(abs_mask, _mm256_loadu_ps(xr)),
                        _mm256_loadu_ps(xr34), sfpow, sfpow34);
        xfsf = (float) ((double) xfsf + _mm_cvtsd_f64(s));
        xfsf = (float) ((double) xfsf + _mm_cvtsd_f64(_mm_unpackhi_pd(s, s)));
        xr += 8;
        xr34 += 8;
        if (xfsf > limit)
            return xfsf;
    }
    if (rest) {
        /* the last lines, zero padded (see x86/quantize_sse2.c); a second
         * group only if LAME has one (rest > 4) */
        __m256i const mask =
            _mm256_cmpgt_epi32(_mm256_set1_epi32((int) rest), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m128d const s = noise8_avx2(pow43, pow16, adj43asm, adj16,
                                      _mm256_and_ps(abs_mask, _mm256_maskload_ps(xr, mask)),
                                      _mm256_maskload_ps(xr34, mask), sfpow, sfpow34);
        xfsf = (float) ((double) xfsf + _mm_cvtsd_f64(s));
        if (rest > 4)
            xfsf = (float) ((double) xfsf + _mm_cvtsd_f64(_mm_unpackhi_pd(s, s)));
    }
    return xfsf;
}

AVX2 void ct_mp3_quantize_x34_avx2(const float *adj43asm, float istep, const float *xr34,
                                   int *ix, unsigned int n)
{
    __m256 const vistep = _mm256_set1_ps(istep);
    table16 const adj16 = table16_load(adj43asm);
    unsigned int i;

    for (i = 0; i + 8 <= n; i += 8) {
        __m256 const x = _mm256_mul_ps(vistep, _mm256_loadu_ps(xr34 + i));
        _mm256_storeu_si256((__m256i *) (ix + i), k34_avx2(adj43asm, adj16, x));
    }
    if (i < n) {
        /* the last lines, zeros in the lanes past n (k_34 of 0 is 0) */
        __m256i const mask =
            _mm256_cmpgt_epi32(_mm256_set1_epi32((int) (n - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m256 const x = _mm256_mul_ps(vistep, _mm256_maskload_ps(xr34 + i, mask));
        _mm256_maskstore_epi32(ix + i, mask, k34_avx2(adj43asm, adj16, x));
    }
}

AVX2 float ct_mp3_init_xrpow_avx2(const float *xr, float *xrpow, int n, float *sum, float max)
{
    __m256 const abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 vmax = _mm256_set1_ps(max);
    float s = *sum;
    int i;
    for (i = 0; i < n; i++)
        s += fabsf(xr[i]);
    *sum = s;
    for (i = 0; i + 8 <= n; i += 8) {
        __m256 const t = _mm256_and_ps(abs_mask, _mm256_loadu_ps(xr + i));
        __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(t));
        __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(t, 1));
        __m256 p;
        lo = _mm256_sqrt_pd(_mm256_mul_pd(lo, _mm256_sqrt_pd(lo)));
        hi = _mm256_sqrt_pd(_mm256_mul_pd(hi, _mm256_sqrt_pd(hi)));
        p = _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
        _mm256_storeu_ps(xrpow + i, p);
        vmax = _mm256_max_ps(vmax, p);
    }
    max = hmax4(_mm_max_ps(_mm256_castps256_ps128(vmax), _mm256_extractf128_ps(vmax, 1)));
    for (; i < n; i++) {
        float const tmp = fabsf(xr[i]);
        xrpow[i] = sqrt(tmp * sqrt(tmp));
        if (xrpow[i] > max)
            max = xrpow[i];
    }
    return max;
}

AVX2 float ct_mp3_amp_xrpow_avx2(float *x, int n, float f, float max)
{
    __m256 const vf = _mm256_set1_ps(f);
    __m256 vmax = _mm256_set1_ps(max);
    int i;
    for (i = 0; i + 8 <= n; i += 8) {
        __m256 const v = _mm256_mul_ps(_mm256_loadu_ps(x + i), vf);
        _mm256_storeu_ps(x + i, v);
        vmax = _mm256_max_ps(vmax, v);
    }
    max = hmax4(_mm_max_ps(_mm256_castps256_ps128(vmax), _mm256_extractf128_ps(vmax, 1)));
    for (; i < n; i++) {
        x[i] *= f;
        if (x[i] > max)
            max = x[i];
    }
    return max;
}

AVX2 int ct_mp3_ix_max_avx2(const int *ix, int n)
{
    __m256i m8 = _mm256_setzero_si256();
    __m128i m;
    int i, max1;
    for (i = 0; i + 8 <= n; i += 8)
        m8 = _mm256_max_epi32(m8, _mm256_loadu_si256((const __m256i *) (ix + i)));
    m = _mm_max_epi32(_mm256_castsi256_si128(m8), _mm256_extracti128_si256(m8, 1));
    if (i + 4 <= n) {
        m = _mm_max_epi32(m, _mm_loadu_si128((const __m128i *) (ix + i)));
        i += 4;
    }
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    max1 = _mm_cvtsi128_si32(m);
    for (; i < n; i++)
        if (max1 < ix[i])
            max1 = ix[i];
    return max1;
}

/* The pairs' table indices x0 * xlen + x1 of 4 pairs, one in each 64-bit
 * lane (x0 the lane's low half, x1 its high half). */
AVX2 INLINE __m256i pair_index4(__m256i pairs, __m256i xlen)
{
    return _mm256_add_epi64(_mm256_mul_epu32(pairs, xlen), _mm256_srli_epi64(pairs, 32));
}

AVX2 uint32_t ct_mp3_pair_sum32_avx2(const uint32_t *table, unsigned int xlen, const int *ix,
                                     int n)
{
    __m256i const vxlen = _mm256_set1_epi64x(xlen);
    __m128i acc = _mm_setzero_si128();
    uint32_t sum;
    int i;

    for (i = 0; i + 8 <= n; i += 8) {
        __m256i const idx = pair_index4(_mm256_loadu_si256((const __m256i *) (ix + i)), vxlen);
        acc = _mm_add_epi32(acc, _mm256_i64gather_epi32((const int *) table, idx, 4));
    }
    acc = _mm_add_epi32(acc, _mm_unpackhi_epi64(acc, acc));
    acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 1));
    sum = (uint32_t) _mm_cvtsi128_si32(acc);
    return sum + ct_mp3_pair_sum32_c(table, xlen, ix + i, n - i);
}

AVX2 uint64_t ct_mp3_pair_sum64_avx2(const uint64_t *table, unsigned int xlen, const int *ix,
                                     int n)
{
    __m256i const vxlen = _mm256_set1_epi64x(xlen);
    __m256i acc = _mm256_setzero_si256();
    __m128i a;
    int i;

    for (i = 0; i + 8 <= n; i += 8) {
        __m256i const idx = pair_index4(_mm256_loadu_si256((const __m256i *) (ix + i)), vxlen);
        acc = _mm256_add_epi64(acc, _mm256_i64gather_epi64((const long long *) table, idx, 8));
    }
    a = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    a = _mm_add_epi64(a, _mm_unpackhi_epi64(a, a));
    return (uint64_t) _mm_cvtsi128_si64(a) + ct_mp3_pair_sum64_c(table, xlen, ix + i, n - i);
}

AVX2 uint32_t ct_mp3_pair_sum_esc_avx2(const uint32_t *largetbl, const int *ix, int n,
                                       unsigned int *nesc)
{
    __m256i const fifteen = _mm256_set1_epi32(15);
    __m256i const sixteen = _mm256_set1_epi64x(16);
    __m128i acc = _mm_setzero_si128();
    __m256i esc = _mm256_setzero_si256();
    unsigned int rest_esc;
    uint32_t sum;
    __m128i e;
    int i;

    for (i = 0; i + 8 <= n; i += 8) {
        __m256i const v = _mm256_loadu_si256((const __m256i *) (ix + i));
        /* values >= 15: compare as 15 <= v (v >= 0) */
        esc = _mm256_sub_epi32(esc, _mm256_cmpeq_epi32(_mm256_min_epu32(v, fifteen), fifteen));
        acc = _mm_add_epi32(acc, _mm256_i64gather_epi32((const int *) largetbl,
                                                        pair_index4(_mm256_min_epu32(v, fifteen), sixteen),
                                                        4));
    }
    acc = _mm_add_epi32(acc, _mm_unpackhi_epi64(acc, acc));
    acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 1));
    sum = (uint32_t) _mm_cvtsi128_si32(acc);
    e = _mm_add_epi32(_mm256_castsi256_si128(esc), _mm256_extracti128_si256(esc, 1));
    e = _mm_add_epi32(e, _mm_unpackhi_epi64(e, e));
    e = _mm_add_epi32(e, _mm_shuffle_epi32(e, 1));
    sum += ct_mp3_pair_sum_esc_c(largetbl, ix + i, n - i, &rest_esc);
    *nesc = (unsigned int) _mm_cvtsi128_si32(e) + rest_esc;
    return sum;
}

AVX2 int ct_mp3_zero_pairs_end_avx2(const int *ix, int i)
{
    while (i >= 8) {
        __m256i const v = _mm256_loadu_si256((const __m256i *) (ix + i - 8));
        if (!_mm256_testz_si256(v, v))
            break;
        i -= 8;
    }
    return ct_mp3_zero_pairs_end_c(ix, i);
}

/* A quadruple's code from its lanes' bits (bit k: lane k's value 1, the
 * lowest line in bit 0): the lowest line weighs 8. */
static const uint8_t quad_code[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};

AVX2 int ct_mp3_count1_quads_avx2(const int *ix, int i, const uint8_t *t32l,
                                  const uint8_t *t33l, int *a1, int *a2)
{
    __m256i const one = _mm256_set1_epi32(1);
    int s1 = *a1, s2 = *a2;

    while (i >= 8) {
        __m256i const v = _mm256_loadu_si256((const __m256i *) (ix + i - 8));
        /* lanes 0 or 1 (as unsigned, as LAME's check) */
        int const small =
            _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_min_epu32(v, one), v)));
        int const bits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(v, 31)));
        int const hi = quad_code[bits >> 4];
        if ((small & 0xf0) != 0xf0)
            break;
        s1 += t32l[hi];
        s2 += t33l[hi];
        i -= 4;
        if (small != 0xff)
            break;
        s1 += t32l[quad_code[bits & 15]];
        s2 += t33l[quad_code[bits & 15]];
        i -= 4;
    }
    *a1 = s1;
    *a2 = s2;
    return ct_mp3_count1_quads_c(ix, i, t32l, t33l, a1, a2);
}
