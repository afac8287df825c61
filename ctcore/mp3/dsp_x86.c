/*
 * The x86-64 MP3 kernels (dsp.h): SSE2 (x86-64's baseline) and AVX2
 * (__attribute__((target("avx2"))), called only where the CPU has it).
 * Each lane does one element's scalar operations in the scalar order and
 * types: float products, conversions to double where LAME's DOUBLEX
 * arithmetic is double, the IEEE 754 rounding trick with table lookups
 * (gathers) per lane. Sums that LAME adds in a fixed order are added in
 * that order (scalar, or pairwise where LAME's own expression pairs them).
 * No fused multiply-adds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dsp.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "state.h"
#include "util.h"

#define INLINE static inline __attribute__((always_inline))
#define AVX2 __attribute__((target("avx2")))

#define MAGIC_INT 0x4b000000
#define MAGIC_FLOAT (65536.0 * 128.0)

int ct_mp3_cpu_has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* ---- SSE2 ---------------------------------------------------------------- */

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

/* (x0^2 + x1^2) + (x2^2 + x3^2) in double of the 4 float lanes of d. */
INLINE double sum_sq4(__m128 d)
{
    __m128d lo = _mm_cvtps_pd(d);
    __m128d hi = _mm_cvtps_pd(_mm_movehl_ps(d, d));
    lo = _mm_mul_pd(lo, lo);
    hi = _mm_mul_pd(hi, hi);
    {
        __m128d const s = _mm_add_pd(_mm_unpacklo_pd(lo, hi), _mm_unpackhi_pd(lo, hi));
        return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
    }
}

INLINE float noise4_sse2(const float *pow43, const float *adj43asm, const float *xr,
                         const float *xr34, unsigned int groups, float sfpow,
                         float sfpow34, float xfsf)
{
    __m128 const vsfpow34 = _mm_set1_ps(sfpow34);
    __m128 const vsfpow = _mm_set1_ps(sfpow);
    __m128 const abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));

    while (groups-- > 0) {
        __m128 const x = _mm_mul_ps(vsfpow34, _mm_loadu_ps(xr34));
        __m128i const l3 = k34_sse2(adj43asm, x);
        __m128 const d = _mm_sub_ps(_mm_and_ps(abs_mask, _mm_loadu_ps(xr)),
                                    _mm_mul_ps(vsfpow, gather4(pow43, l3)));
        xfsf = (float) ((double) xfsf + sum_sq4(d));
        xr += 4;
        xr34 += 4;
    }
    return xfsf;
}

/* LAME's last group of bw % 4 lines is a group of 4 with zeros in the
 * unused lanes (their k_34 is 0, pow43[0] and adj43asm[0] are 0, and
 * their noise is set to 0): zero padded lines give the same sum. */
float ct_mp3_sfb_noise_x34_sse2(const float *pow43, const float *adj43asm, const float *xr,
                                const float *xr34, unsigned int bw, float sfpow,
                                float sfpow34)
{
    unsigned int const groups = bw >> 2u;
    unsigned int const rest = bw & 3u;
    float xfsf = noise4_sse2(pow43, adj43asm, xr, xr34, groups, sfpow, sfpow34, 0);
    if (rest) {
        float r[4] = {0, 0, 0, 0}, r34[4] = {0, 0, 0, 0};
        memcpy(r, xr + 4 * groups, sizeof(float) * rest);
        memcpy(r34, xr34 + 4 * groups, sizeof(float) * rest);
        xfsf = noise4_sse2(pow43, adj43asm, r, r34, 1, sfpow, sfpow34, xfsf);
    }
    return xfsf;
}

void ct_mp3_quantize_x34_sse2(const float *adj43asm, float istep, const float *xr34,
                              int *ix, unsigned int n)
{
    __m128 const vistep = _mm_set1_ps(istep);
    unsigned int i;

    for (i = 0; i + 4 <= n; i += 4) {
        __m128 const x = _mm_mul_ps(vistep, _mm_loadu_ps(xr34 + i));
        _mm_storeu_si128((__m128i *) (ix + i), k34_sse2(adj43asm, x));
    }
    if (i < n)
        ct_mp3_quantize_x34_c(adj43asm, istep, xr34 + i, ix + i, n - i);
}

/* mask ? a : b */
INLINE __m128 sel_ps(__m128 mask, __m128 a, __m128 b)
{
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/* vbrpsy_mask_add of 4 lanes; near: |b| <= delta. The table2 index
 * (int) fast_log10_x(ratio, 16) is, for ratio in [1, ma_max_i1), the
 * number of ct_mp3_mask_add_steps at or below ratio (fast_log2 does not
 * decrease there; checkasm checks every float of the range). */
INLINE __m128 mask_add_sse2(__m128 m1, __m128 m2, __m128 near)
{
    __m128 const zero = _mm_setzero_ps();
    __m128 gt, ratio, sum, res, far_res, mx, f;
    int j;

    m1 = sel_ps(_mm_cmplt_ps(m1, zero), zero, m1);
    m2 = sel_ps(_mm_cmplt_ps(m2, zero), zero, m2);
    gt = _mm_cmpgt_ps(m2, m1);
    ratio = _mm_div_ps(sel_ps(gt, m2, m1), sel_ps(gt, m1, m2));
    sum = _mm_add_ps(m1, m2);
    /* near: ratio >= ma_max_i1 ? m1 + m2 : (m1 + m2) * table2[i] */
    f = _mm_set1_ps(ct_mp3_mask_add_table2[0]);
    for (j = 1; j < 9; j++)
        f = sel_ps(_mm_cmpge_ps(ratio, _mm_set1_ps(ct_mp3_mask_add_steps[j - 1])),
                   _mm_set1_ps(ct_mp3_mask_add_table2[j]), f);
    res = sel_ps(_mm_cmpge_ps(ratio, _mm_set1_ps(ct_mp3_ma_max_i1)), sum, _mm_mul_ps(sum, f));
    /* far: ratio < ma_max_i2 ? m1 + m2 : max */
    mx = sel_ps(_mm_cmplt_ps(m1, m2), m2, m1);
    far_res = sel_ps(_mm_cmplt_ps(ratio, _mm_set1_ps(ct_mp3_ma_max_i2)), sum, mx);
    res = sel_ps(near, res, far_res);
    res = sel_ps(_mm_cmple_ps(m2, zero), m1, res);
    return sel_ps(_mm_cmple_ps(m1, zero), m2, res);
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

void ct_mp3_mask_chain_sse2(int npart, const int (*s3ind)[2], const float *xs,
                            const int *delta, float *ecb)
{
    mask_chain_layout ly;
    int b0;

    mask_chain_layout_init(&ly, npart, s3ind, delta, 4);
    for (b0 = 0; b0 < npart; b0 += 4) {
        __m128i const start = _mm_loadu_si128((const __m128i *) &ly.start[b0]);
        __m128i const len = _mm_loadu_si128((const __m128i *) &ly.len[b0]);
        __m128i const dist0 = _mm_loadu_si128((const __m128i *) &ly.dist0[b0]);
        __m128i const vdelta = _mm_loadu_si128((const __m128i *) &ly.delta[b0]);
        __m128 e = gather4(xs, start);
        int maxlen = 0, j, l;
        for (l = 0; l < 4; l++)
            if (maxlen < ly.len[b0 + l])
                maxlen = ly.len[b0 + l];
        for (j = 1; j < maxlen; j++) {
            __m128i const vj = _mm_set1_epi32(j);
            __m128i const active = _mm_cmpgt_epi32(len, vj);
            /* inactive lanes read their first value again */
            __m128i const idx = _mm_add_epi32(start, _mm_and_si128(active, vj));
            __m128i const dist = _mm_add_epi32(dist0, vj);
            __m128i const far = _mm_or_si128(
                _mm_cmpgt_epi32(dist, vdelta),
                _mm_cmpgt_epi32(_mm_sub_epi32(_mm_setzero_si128(), dist), vdelta));
            __m128 const r = mask_add_sse2(e, gather4(xs, idx),
                                           _mm_castsi128_ps(_mm_xor_si128(
                                               far, _mm_set1_epi32(-1))));
            e = sel_ps(_mm_castsi128_ps(active), r, e);
        }
        if (npart - b0 >= 4) {
            _mm_storeu_ps(&ecb[b0], e);
        }
        else {
            float tmp[4];
            _mm_storeu_ps(tmp, e);
            for (l = 0; l < npart - b0; l++)
                ecb[b0 + l] = tmp[l];
        }
    }
}

/* ---- ReplayGain filters ---------------------------------------------------- */

/* The input half of filterYule (s1: it reads no output), 4 samples per
 * vector, each lane in filterYule's order. */
static void yule_s1_sse2(const float *in, float *s1, int n, const float *k)
{
    int i;
    for (i = 0; i + 4 <= n; i += 4) {
        const float *const x = in + i;
#define TAP(j, t) _mm_mul_ps(_mm_loadu_ps(x + (j)), _mm_set1_ps(k[t]))
        __m128 const s00 =
            _mm_add_ps(_mm_add_ps(_mm_add_ps(TAP(-10, 0), TAP(-9, 1)), TAP(-8, 2)), TAP(-7, 3));
        __m128 const s01 =
            _mm_add_ps(_mm_add_ps(_mm_add_ps(TAP(-6, 4), TAP(-5, 5)), TAP(-4, 6)), TAP(-3, 7));
        __m128 const yG = _mm_add_ps(TAP(-2, 8), TAP(-1, 9));
        __m128 const yK = TAP(0, 10);
#undef TAP
        _mm_storeu_ps(s1 + i, _mm_add_ps(_mm_add_ps(_mm_add_ps(s00, s01), yG), yK));
    }
    for (; i < n; i++) {
        const float *const x = in + i;
        float y0 = x[-10] * k[0];
        float y2 = x[-9] * k[1];
        float y4 = x[-8] * k[2];
        float y6 = x[-7] * k[3];
        float s00 = y0 + y2 + y4 + y6;
        float y8 = x[-6] * k[4];
        float yA = x[-5] * k[5];
        float yC = x[-4] * k[6];
        float yE = x[-3] * k[7];
        float s01 = y8 + yA + yC + yE;
        float yG = x[-2] * k[8] + x[-1] * k[9];
        float yK = x[0] * k[10];
        s1[i] = s00 + s01 + yG + yK;
    }
}

/* two floats (lanes 0, 1) */
INLINE __m128 load2(const float *p)
{
    double d;
    memcpy(&d, p, sizeof(d));
    return _mm_castpd_ps(_mm_set_sd(d));
}

INLINE void store2(float *p, __m128 v)
{
    double const d = _mm_cvtsd_f64(_mm_castps_pd(v));
    memcpy(p, &d, sizeof(d));
}

INLINE __m128 pair(float l, float r)
{
    return _mm_unpacklo_ps(_mm_set_ss(l), _mm_set_ss(r));
}

#define RG_CHUNK 256

void ct_mp3_rg_filter_sse2(const float *in_l, const float *in_r, float *step_l,
                           float *step_r, float *out_l, float *out_r, size_t n,
                           const float *yule, const float *butter)
{
    float s1[2][RG_CHUNK];
    /* the Yule outputs, L and R interleaved, after 10 of history */
    float hist[2 * (10 + RG_CHUNK)];
    float obuf[2 * RG_CHUNK];
    __m128 const k11 = _mm_set1_ps(yule[11]), k12 = _mm_set1_ps(yule[12]);
    __m128 const k13 = _mm_set1_ps(yule[13]), k14 = _mm_set1_ps(yule[14]);
    __m128 const k15 = _mm_set1_ps(yule[15]), k16 = _mm_set1_ps(yule[16]);
    __m128 const k17 = _mm_set1_ps(yule[17]), k18 = _mm_set1_ps(yule[18]);
    __m128 const k19 = _mm_set1_ps(yule[19]), k20 = _mm_set1_ps(yule[20]);
    __m128 const b0 = _mm_set1_ps(butter[0]), b1 = _mm_set1_ps(butter[1]);
    __m128 const b2 = _mm_set1_ps(butter[2]), b3 = _mm_set1_ps(butter[3]);
    __m128 const b4 = _mm_set1_ps(butter[4]);
    __m128 p1, p2, r1, r2;
    size_t base;
    int i;

    for (i = 0; i < 10; i++) {
        hist[2 * i] = step_l[i - 10];
        hist[2 * i + 1] = step_r[i - 10];
    }
    p1 = pair(step_l[-1], step_r[-1]);
    p2 = pair(step_l[-2], step_r[-2]);
    r1 = pair(out_l[-1], out_r[-1]);
    r2 = pair(out_l[-2], out_r[-2]);

    for (base = 0; base < n; base += RG_CHUNK) {
        int const m = (n - base < RG_CHUNK) ? (int) (n - base) : RG_CHUNK;

        yule_s1_sse2(in_l + base, s1[0], m, yule);
        yule_s1_sse2(in_r + base, s1[1], m, yule);
        for (i = 0; i < m; i++) {
            const float *const h = &hist[2 * i]; /* the output 10 samples back */
            __m128 const x1 = _mm_add_ps(_mm_mul_ps(load2(h), k11), _mm_mul_ps(load2(h + 2), k12));
            __m128 const x5 =
                _mm_add_ps(_mm_mul_ps(load2(h + 4), k13), _mm_mul_ps(load2(h + 6), k14));
            __m128 const x9 =
                _mm_add_ps(_mm_mul_ps(load2(h + 8), k15), _mm_mul_ps(load2(h + 10), k16));
            __m128 const xD =
                _mm_add_ps(_mm_mul_ps(load2(h + 12), k17), _mm_mul_ps(load2(h + 14), k18));
            __m128 const xH = _mm_add_ps(_mm_mul_ps(p2, k19), _mm_mul_ps(p1, k20));
            __m128 const s2 = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_add_ps(x1, x5), x9), xD), xH);
            __m128 const o = _mm_sub_ps(pair(s1[0][i], s1[1][i]), s2);
            /* filterButter of the Yule outputs o[-2], o[-1], o */
            __m128 const bs1 =
                _mm_add_ps(_mm_add_ps(_mm_mul_ps(p2, b0), _mm_mul_ps(p1, b2)), _mm_mul_ps(o, b4));
            __m128 const bs2 = _mm_add_ps(_mm_mul_ps(r2, b1), _mm_mul_ps(r1, b3));
            __m128 const bo = _mm_sub_ps(bs1, bs2);
            store2(&hist[2 * (10 + i)], o);
            store2(&obuf[2 * i], bo);
            p2 = p1;
            p1 = o;
            r2 = r1;
            r1 = bo;
        }
        for (i = 0; i < m; i++) {
            step_l[base + i] = hist[2 * (10 + i)];
            step_r[base + i] = hist[2 * (10 + i) + 1];
            out_l[base + i] = obuf[2 * i];
            out_r[base + i] = obuf[2 * i + 1];
        }
        memmove(hist, &hist[2 * m], sizeof(float) * 2 * 10);
    }
}

/* ---- the fast Hartley transform --------------------------------------------- */

/* The twiddles of stage st (kx = 2 * 4^st) for i = 1 .. kx - 1, from
 * fht's recurrence, in its float arithmetic. */
static struct {
    float c1[4][128], s1[4][128], c2[4][128], s2[4][128];
} fht_tw;
static pthread_once_t fht_tw_once = PTHREAD_ONCE_INIT;

static void fht_tw_init(void)
{
    const float *tri = ct_mp3_fht_costab;
    int st, kx, i;
    for (st = 0, kx = 2; st < 4; st++, kx <<= 2, tri += 2) {
        float c1 = tri[0], s1 = tri[1];
        for (i = 1; i < kx; i++) {
            float c2 = 1 - (2 * s1) * s1;
            float const s2 = (2 * s1) * c1;
            fht_tw.c1[st][i] = c1;
            fht_tw.s1[st][i] = s1;
            fht_tw.c2[st][i] = c2;
            fht_tw.s2[st][i] = s2;
            c2 = c1;
            c1 = c2 * tri[0] - s1 * tri[1];
            s1 = c2 * tri[1] + s1 * tri[0];
        }
    }
}

/* The butterflies of stage st without twiddles (i = 0 and i = kx). */
static void fht_stage_first(float *fz, const float *fn, int kx, int k1, int k2, int k3, int k4)
{
    float *fi = fz, *gi = fz + kx;
    do {
        float f0, f1, f2, f3;
        f1 = fi[0] - fi[k1];
        f0 = fi[0] + fi[k1];
        f3 = fi[k2] - fi[k3];
        f2 = fi[k2] + fi[k3];
        fi[k2] = f0 - f2;
        fi[0] = f0 + f2;
        fi[k3] = f1 - f3;
        fi[k1] = f1 + f3;
        f1 = gi[0] - gi[k1];
        f0 = gi[0] + gi[k1];
        f3 = SQRT2 * gi[k3];
        f2 = SQRT2 * gi[k2];
        gi[k2] = f0 - f2;
        gi[0] = f0 + f2;
        gi[k3] = f1 - f3;
        gi[k1] = f1 + f3;
        gi += k4;
        fi += k4;
    } while (fi < fn);
}

INLINE __m128 rev4(__m128 v)
{
    return _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 1, 2, 3));
}

/* The twiddled butterflies of i .. i + 3 (gi: k1 - i - 3 .. k1 - i,
 * reversed into the lanes of their i), in every block. Lanes set in keep
 * (i already done) store back what they loaded. */
static void fht_stage_i4_sse2(float *fz, const float *fn, int st, int i, int k1, int k2,
                              int k3, int k4, __m128 keep)
{
    __m128 const c1 = _mm_loadu_ps(&fht_tw.c1[st][i]), s1 = _mm_loadu_ps(&fht_tw.s1[st][i]);
    __m128 const c2 = _mm_loadu_ps(&fht_tw.c2[st][i]), s2 = _mm_loadu_ps(&fht_tw.s2[st][i]);
    float *fi = fz + i, *gi = fz + k1 - i - 3;
    do {
        __m128 a, b, g0, f0, f1, g1, f2, g2, f3, g3;
        __m128 const F0 = _mm_loadu_ps(fi), FK1 = _mm_loadu_ps(fi + k1);
        __m128 const FK2 = _mm_loadu_ps(fi + k2), FK3 = _mm_loadu_ps(fi + k3);
        __m128 const G0 = rev4(_mm_loadu_ps(gi)), GK1 = rev4(_mm_loadu_ps(gi + k1));
        __m128 const GK2 = rev4(_mm_loadu_ps(gi + k2)), GK3 = rev4(_mm_loadu_ps(gi + k3));
        b = _mm_sub_ps(_mm_mul_ps(s2, FK1), _mm_mul_ps(c2, GK1));
        a = _mm_add_ps(_mm_mul_ps(c2, FK1), _mm_mul_ps(s2, GK1));
        f1 = _mm_sub_ps(F0, a);
        f0 = _mm_add_ps(F0, a);
        g1 = _mm_sub_ps(G0, b);
        g0 = _mm_add_ps(G0, b);
        b = _mm_sub_ps(_mm_mul_ps(s2, FK3), _mm_mul_ps(c2, GK3));
        a = _mm_add_ps(_mm_mul_ps(c2, FK3), _mm_mul_ps(s2, GK3));
        f3 = _mm_sub_ps(FK2, a);
        f2 = _mm_add_ps(FK2, a);
        g3 = _mm_sub_ps(GK2, b);
        g2 = _mm_add_ps(GK2, b);
        b = _mm_sub_ps(_mm_mul_ps(s1, f2), _mm_mul_ps(c1, g3));
        a = _mm_add_ps(_mm_mul_ps(c1, f2), _mm_mul_ps(s1, g3));
        _mm_storeu_ps(fi + k2, sel_ps(keep, FK2, _mm_sub_ps(f0, a)));
        _mm_storeu_ps(fi, sel_ps(keep, F0, _mm_add_ps(f0, a)));
        _mm_storeu_ps(gi + k3, rev4(sel_ps(keep, GK3, _mm_sub_ps(g1, b))));
        _mm_storeu_ps(gi + k1, rev4(sel_ps(keep, GK1, _mm_add_ps(g1, b))));
        b = _mm_sub_ps(_mm_mul_ps(c1, g2), _mm_mul_ps(s1, f3));
        a = _mm_add_ps(_mm_mul_ps(s1, g2), _mm_mul_ps(c1, f3));
        _mm_storeu_ps(gi + k2, rev4(sel_ps(keep, GK2, _mm_sub_ps(g0, a))));
        _mm_storeu_ps(gi, rev4(sel_ps(keep, G0, _mm_add_ps(g0, a))));
        _mm_storeu_ps(fi + k3, sel_ps(keep, FK3, _mm_sub_ps(f1, b)));
        _mm_storeu_ps(fi + k1, sel_ps(keep, FK1, _mm_add_ps(f1, b)));
        gi += k4;
        fi += k4;
    } while (fi < fn);
}

/* x * SQRT2 in double, rounded to float, lane-wise */
INLINE __m128 mul_sqrt2_sse2(__m128 x)
{
    __m128d const r2 = _mm_set1_pd(SQRT2);
    __m128d const lo = _mm_mul_pd(r2, _mm_cvtps_pd(x));
    __m128d const hi = _mm_mul_pd(r2, _mm_cvtps_pd(_mm_movehl_ps(x, x)));
    return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
}

/* The first stage (kx = 2: blocks of 16 lines, positions p of a block:
 * i = 0 at 0, 4, 8, 12, kx at 2, 6, 10, 14, i = 1 at 1, 5, 9, 13 and
 * k1 - 1 at 3, 7, 11, 15), 4 blocks at a time in lanes: transposed in,
 * every butterfly of the stage, transposed out. */
static void fht_stage0_sse2(float *fz, const float *fn)
{
    float const c1s = fht_tw.c1[0][1], s1s = fht_tw.s1[0][1];
    float const c2s = fht_tw.c2[0][1], s2s = fht_tw.s2[0][1];
    __m128 const c1 = _mm_set1_ps(c1s), s1 = _mm_set1_ps(s1s);
    __m128 const c2 = _mm_set1_ps(c2s), s2 = _mm_set1_ps(s2s);
    float *blk;

    for (blk = fz; blk < fn; blk += 64) {
        __m128 P[16];
        int r;
        for (r = 0; r < 4; r++) {
            __m128 r0 = _mm_loadu_ps(blk + 4 * r);
            __m128 r1 = _mm_loadu_ps(blk + 16 + 4 * r);
            __m128 r2 = _mm_loadu_ps(blk + 32 + 4 * r);
            __m128 r3 = _mm_loadu_ps(blk + 48 + 4 * r);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            P[4 * r + 0] = r0;
            P[4 * r + 1] = r1;
            P[4 * r + 2] = r2;
            P[4 * r + 3] = r3;
        }
        {
            __m128 f0, f1, f2, f3;
            /* fi: 0, 4, 8, 12 */
            f1 = _mm_sub_ps(P[0], P[4]);
            f0 = _mm_add_ps(P[0], P[4]);
            f3 = _mm_sub_ps(P[8], P[12]);
            f2 = _mm_add_ps(P[8], P[12]);
            P[8] = _mm_sub_ps(f0, f2);
            P[0] = _mm_add_ps(f0, f2);
            P[12] = _mm_sub_ps(f1, f3);
            P[4] = _mm_add_ps(f1, f3);
            /* gi: 2, 6, 10, 14 */
            f1 = _mm_sub_ps(P[2], P[6]);
            f0 = _mm_add_ps(P[2], P[6]);
            f3 = mul_sqrt2_sse2(P[14]);
            f2 = mul_sqrt2_sse2(P[10]);
            P[10] = _mm_sub_ps(f0, f2);
            P[2] = _mm_add_ps(f0, f2);
            P[14] = _mm_sub_ps(f1, f3);
            P[6] = _mm_add_ps(f1, f3);
        }
        {
            /* i = 1: fi 1, 5, 9, 13; gi 3, 7, 11, 15 */
            __m128 a, b, g0, f0, f1, g1, f2, g2, f3, g3;
            b = _mm_sub_ps(_mm_mul_ps(s2, P[5]), _mm_mul_ps(c2, P[7]));
            a = _mm_add_ps(_mm_mul_ps(c2, P[5]), _mm_mul_ps(s2, P[7]));
            f1 = _mm_sub_ps(P[1], a);
            f0 = _mm_add_ps(P[1], a);
            g1 = _mm_sub_ps(P[3], b);
            g0 = _mm_add_ps(P[3], b);
            b = _mm_sub_ps(_mm_mul_ps(s2, P[13]), _mm_mul_ps(c2, P[15]));
            a = _mm_add_ps(_mm_mul_ps(c2, P[13]), _mm_mul_ps(s2, P[15]));
            f3 = _mm_sub_ps(P[9], a);
            f2 = _mm_add_ps(P[9], a);
            g3 = _mm_sub_ps(P[11], b);
            g2 = _mm_add_ps(P[11], b);
            b = _mm_sub_ps(_mm_mul_ps(s1, f2), _mm_mul_ps(c1, g3));
            a = _mm_add_ps(_mm_mul_ps(c1, f2), _mm_mul_ps(s1, g3));
            P[9] = _mm_sub_ps(f0, a);
            P[1] = _mm_add_ps(f0, a);
            P[15] = _mm_sub_ps(g1, b);
            P[7] = _mm_add_ps(g1, b);
            b = _mm_sub_ps(_mm_mul_ps(c1, g2), _mm_mul_ps(s1, f3));
            a = _mm_add_ps(_mm_mul_ps(s1, g2), _mm_mul_ps(c1, f3));
            P[11] = _mm_sub_ps(g0, a);
            P[3] = _mm_add_ps(g0, a);
            P[13] = _mm_sub_ps(f1, b);
            P[5] = _mm_add_ps(f1, b);
        }
        for (r = 0; r < 4; r++) {
            __m128 r0 = P[4 * r + 0], r1 = P[4 * r + 1], r2 = P[4 * r + 2], r3 = P[4 * r + 3];
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            _mm_storeu_ps(blk + 4 * r, r0);
            _mm_storeu_ps(blk + 16 + 4 * r, r1);
            _mm_storeu_ps(blk + 32 + 4 * r, r2);
            _mm_storeu_ps(blk + 48 + 4 * r, r3);
        }
    }
}

typedef void (*fht_stage_vec_fn)(float *fz, const float *fn, int st, int i, int k1, int k2,
                                 int k3, int k4, int keep);

/* fht: the first stage by fht_stage0_sse2; then per stage the butterflies
 * without twiddles (scalar), and the twiddled ones of w = 8 (vec8, if
 * given) or 4 neighbouring i at a time; the last i are one vector ending at
 * kx - 1 whose lanes of i already done are kept. */
INLINE void fht_vec(float *fz, int n, fht_stage_vec_fn vec8)
{
    const float *fn;
    int k4, st;

    pthread_once(&fht_tw_once, fht_tw_init);
    n <<= 1;
    fn = fz + n;
    fht_stage0_sse2(fz, fn);
    k4 = 16;
    st = 1;
    while (k4 < n) {
        int i, k1, k2, k3, kx;
        kx = k4 >> 1;
        k1 = k4;
        k2 = k4 << 1;
        k3 = k2 + k1;
        k4 = k2 << 1;
        fht_stage_first(fz, fn, kx, k1, k2, k3, k4);
        i = 1;
        if (vec8 && kx > 8) {
            for (; i + 8 <= kx; i += 8)
                vec8(fz, fn, st, i, k1, k2, k3, k4, 0);
            if (i < kx)
                vec8(fz, fn, st, kx - 8, k1, k2, k3, k4, i - (kx - 8));
        }
        else {
            for (; i + 4 <= kx; i += 4)
                fht_stage_i4_sse2(fz, fn, st, i, k1, k2, k3, k4, _mm_setzero_ps());
            if (i < kx) {
                /* keep the first i - (kx - 4) lanes */
                int const done = i - (kx - 4);
                __m128i const lane = _mm_setr_epi32(0, 1, 2, 3);
                __m128 const keep =
                    _mm_castsi128_ps(_mm_cmplt_epi32(lane, _mm_set1_epi32(done)));
                fht_stage_i4_sse2(fz, fn, st, kx - 4, k1, k2, k3, k4, keep);
            }
        }
        st++;
    }
}

void ct_mp3_fht_sse2(float *fz, int n)
{
    fht_vec(fz, n, NULL);
}

/* ---- the polyphase window ------------------------------------------------- */

/* enwindow transposed: wsub_w[j + 10][m] = enwindow[10 + j + 18 m], the
 * weight j of i = m - 15, for m < 15 (m = 15: zeros). */
static float wsub_w[18][16];
static pthread_once_t wsub_once = PTHREAD_ONCE_INIT;

static void wsub_init(void)
{
    int j, m;
    for (j = 0; j < 18; j++)
        for (m = 0; m < 16; m++)
            wsub_w[j][m] = (m < 15) ? ct_mp3_enwindow[j + 18 * m] : 0.0f;
}

/* The lanes m .. m + 3 (i = m - 15 ..): x1 - m descending (reversed
 * loads), x2 + m ascending. */
static void window_subband4_sse2(const float *x1, const float *x2, int m, float a[32])
{
#define W(j) _mm_loadu_ps(&wsub_w[(j) + 10][m])
#define X1(c) rev4(_mm_loadu_ps(x1 + (c) - m - 3))
#define X2(c) _mm_loadu_ps(x2 + (c) + m)
    __m128 w, s, t;
    w = W(-10);
    s = _mm_mul_ps(X2(-224), w);
    t = _mm_mul_ps(X1(224), w);
    w = W(-9);
    s = _mm_add_ps(s, _mm_mul_ps(X2(-160), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(160), w));
    w = W(-8);
    s = _mm_add_ps(s, _mm_mul_ps(X2(-96), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(96), w));
    w = W(-7);
    s = _mm_add_ps(s, _mm_mul_ps(X2(-32), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(32), w));
    w = W(-6);
    s = _mm_add_ps(s, _mm_mul_ps(X2(32), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-32), w));
    w = W(-5);
    s = _mm_add_ps(s, _mm_mul_ps(X2(96), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-96), w));
    w = W(-4);
    s = _mm_add_ps(s, _mm_mul_ps(X2(160), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-160), w));
    w = W(-3);
    s = _mm_add_ps(s, _mm_mul_ps(X2(224), w));
    t = _mm_add_ps(t, _mm_mul_ps(X1(-224), w));
    w = W(-2);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-256), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(256), w));
    w = W(-1);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-192), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(192), w));
    w = W(0);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-128), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(128), w));
    w = W(1);
    s = _mm_add_ps(s, _mm_mul_ps(X1(-64), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(64), w));
    w = W(2);
    s = _mm_add_ps(s, _mm_mul_ps(X1(0), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(0), w));
    w = W(3);
    s = _mm_add_ps(s, _mm_mul_ps(X1(64), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(-64), w));
    w = W(4);
    s = _mm_add_ps(s, _mm_mul_ps(X1(128), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(-128), w));
    w = W(5);
    s = _mm_add_ps(s, _mm_mul_ps(X1(192), w));
    t = _mm_sub_ps(t, _mm_mul_ps(X2(-192), w));
    s = _mm_mul_ps(s, W(6));
    {
        __m128 const sum = _mm_add_ps(t, s);
        __m128 const dif = _mm_mul_ps(W(7), _mm_sub_ps(t, s));
        _mm_storeu_ps(a + 2 * m, _mm_unpacklo_ps(sum, dif));
        _mm_storeu_ps(a + 2 * m + 4, _mm_unpackhi_ps(sum, dif));
    }
#undef W
#undef X1
#undef X2
}

void ct_mp3_window_subband_sse2(const float *x1, float a[32])
{
    const float *const x2 = &x1[238 - 14 - 286];
    int m;
    pthread_once(&wsub_once, wsub_init);
    for (m = 0; m < 16; m += 4)
        window_subband4_sse2(x1, x2, m, a);
}

/* ---- xr^3/4 ----------------------------------------------------------------- */

/* the larger of the 4 lanes (values >= +0, no NaN) */
INLINE float hmax4(__m128 v)
{
    v = _mm_max_ps(v, _mm_movehl_ps(v, v));
    v = _mm_max_ss(v, _mm_shuffle_ps(v, v, 1));
    return _mm_cvtss_f32(v);
}

/* sqrt(t * sqrt(t)) in double of 4 lanes, rounded to float */
INLINE __m128 pow34_sse2(__m128 t)
{
    __m128d lo = _mm_cvtps_pd(t);
    __m128d hi = _mm_cvtps_pd(_mm_movehl_ps(t, t));
    lo = _mm_sqrt_pd(_mm_mul_pd(lo, _mm_sqrt_pd(lo)));
    hi = _mm_sqrt_pd(_mm_mul_pd(hi, _mm_sqrt_pd(hi)));
    return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
}

float ct_mp3_init_xrpow_sse2(const float *xr, float *xrpow, int n, float *sum, float max)
{
    __m128 const abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 vmax = _mm_set1_ps(max);
    float s = *sum;
    int i;
    for (i = 0; i < n; i++)
        s += fabsf(xr[i]);
    *sum = s;
    for (i = 0; i + 4 <= n; i += 4) {
        __m128 const p = pow34_sse2(_mm_and_ps(abs_mask, _mm_loadu_ps(xr + i)));
        _mm_storeu_ps(xrpow + i, p);
        vmax = _mm_max_ps(vmax, p);
    }
    max = hmax4(vmax);
    for (; i < n; i++) {
        float const tmp = fabsf(xr[i]);
        xrpow[i] = sqrt(tmp * sqrt(tmp));
        if (xrpow[i] > max)
            max = xrpow[i];
    }
    return max;
}

float ct_mp3_amp_xrpow_sse2(float *x, int n, float f, float max)
{
    __m128 const vf = _mm_set1_ps(f);
    __m128 vmax = _mm_set1_ps(max);
    int i;
    for (i = 0; i + 4 <= n; i += 4) {
        __m128 const v = _mm_mul_ps(_mm_loadu_ps(x + i), vf);
        _mm_storeu_ps(x + i, v);
        vmax = _mm_max_ps(vmax, v);
    }
    max = hmax4(vmax);
    for (; i < n; i++) {
        x[i] *= f;
        if (x[i] > max)
            max = x[i];
    }
    return max;
}

/* ---- takehiro.c ix_max ------------------------------------------------------ */

INLINE __m128i max_epi32_sse2(__m128i a, __m128i b)
{
    __m128i const gt = _mm_cmpgt_epi32(a, b);
    return _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, b));
}

int ct_mp3_ix_max_sse2(const int *ix, int n)
{
    __m128i m = _mm_setzero_si128();
    int i, max1 = 0;
    for (i = 0; i + 4 <= n; i += 4)
        m = max_epi32_sse2(m, _mm_loadu_si128((const __m128i *) (ix + i)));
    m = max_epi32_sse2(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = max_epi32_sse2(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    max1 = _mm_cvtsi128_si32(m);
    for (; i < n; i++)
        if (max1 < ix[i])
            max1 = ix[i];
    return max1;
}

/* ---- the attack detection's high pass ------------------------------------- */

void ct_mp3_attack_hpf_sse2(const float *firbuf, float out[576])
{
    const float *const c = ct_mp3_attack_fircoef;
    int i, j;
    for (i = 0; i < 576; i += 4) {
        const float *const f = firbuf + i;
        __m128 sum1 = _mm_loadu_ps(f + 10);
        __m128 sum2 = _mm_setzero_ps();
        for (j = 0; j < 9; j += 2) {
            sum1 = _mm_add_ps(sum1, _mm_mul_ps(_mm_set1_ps(c[j]),
                                               _mm_add_ps(_mm_loadu_ps(f + j),
                                                          _mm_loadu_ps(f + 21 - j))));
            sum2 = _mm_add_ps(sum2, _mm_mul_ps(_mm_set1_ps(c[j + 1]),
                                               _mm_add_ps(_mm_loadu_ps(f + j + 1),
                                                          _mm_loadu_ps(f + 20 - j))));
        }
        _mm_storeu_ps(out + i, _mm_add_ps(sum1, sum2));
    }
}

void ct_mp3_abs_peaks_sse2(const float *x, float en[9])
{
    __m128 const abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    int i, k;
    for (i = 0; i < 9; i++) {
        __m128 p = _mm_set1_ps(1.0f);
        for (k = 0; k < 64; k += 4)
            p = _mm_max_ps(p, _mm_and_ps(abs_mask, _mm_loadu_ps(x + 64 * i + k)));
        en[i] = hmax4(p);
    }
}

/* ---- AVX2 ---------------------------------------------------------------- */

AVX2 INLINE __m256i k34_avx2(const float *adj43asm, __m256 x)
{
    __m256d const magic = _mm256_set1_pd(MAGIC_FLOAT);
    __m256i const magic_i = _mm256_set1_epi32(MAGIC_INT);
    __m256d const xlo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)), magic);
    __m256d const xhi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)), magic);
    __m256 const f = _mm256_set_m128(_mm256_cvtpd_ps(xhi), _mm256_cvtpd_ps(xlo));
    __m256 const adj =
        _mm256_i32gather_ps(adj43asm, _mm256_sub_epi32(_mm256_castps_si256(f), magic_i), 4);
    __m256d const alo = _mm256_add_pd(xlo, _mm256_cvtps_pd(_mm256_castps256_ps128(adj)));
    __m256d const ahi = _mm256_add_pd(xhi, _mm256_cvtps_pd(_mm256_extractf128_ps(adj, 1)));
    __m256 const g = _mm256_set_m128(_mm256_cvtpd_ps(ahi), _mm256_cvtpd_ps(alo));
    return _mm256_sub_epi32(_mm256_castps_si256(g), magic_i);
}

/* The noise of 8 lines at one step: the two groups of 4 of LAME's loop,
 * each (x0^2 + x1^2) + (x2^2 + x3^2) in double, in lanes 0 and 1. */
AVX2 INLINE __m128d noise8_avx2(const float *pow43, const float *adj43asm, __m256 xr_abs,
                                __m256 xr34, float sfpow, float sfpow34)
{
    __m256 const x = _mm256_mul_ps(_mm256_set1_ps(sfpow34), xr34);
    __m256i const l3 = k34_avx2(adj43asm, x);
    __m256 const p = _mm256_i32gather_ps(pow43, l3, 4);
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
                                     float sfpow, float sfpow34)
{
    __m256 const abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    unsigned int groups = bw >> 3u;
    unsigned int const rest = bw & 7u;
    float xfsf = 0;

    while (groups-- > 0) {
        __m128d const s = noise8_avx2(pow43, adj43asm, _mm256_and_ps(abs_mask, _mm256_loadu_ps(xr)),
                                      _mm256_loadu_ps(xr34), sfpow, sfpow34);
        xfsf = (float) ((double) xfsf + _mm_cvtsd_f64(s));
        xfsf = (float) ((double) xfsf + _mm_cvtsd_f64(_mm_unpackhi_pd(s, s)));
        xr += 8;
        xr34 += 8;
    }
    if (rest) {
        /* the last lines, zero padded (see the SSE2 version); a second
         * group only if LAME has one (rest > 4) */
        __m256i const mask =
            _mm256_cmpgt_epi32(_mm256_set1_epi32((int) rest), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m128d const s = noise8_avx2(pow43, adj43asm,
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
    unsigned int i;

    for (i = 0; i + 8 <= n; i += 8) {
        __m256 const x = _mm256_mul_ps(vistep, _mm256_loadu_ps(xr34 + i));
        _mm256_storeu_si256((__m256i *) (ix + i), k34_avx2(adj43asm, x));
    }
    if (i < n)
        ct_mp3_quantize_x34_sse2(adj43asm, istep, xr34 + i, ix + i, n - i);
}

AVX2 INLINE __m256 mask_add_avx2(__m256 m1, __m256 m2, __m256 near)
{
    __m256 const zero = _mm256_setzero_ps();
    __m256 gt, ratio, sum, res, far_res, mx, f;
    __m256i i;

    m1 = _mm256_blendv_ps(m1, zero, _mm256_cmp_ps(m1, zero, _CMP_LT_OQ));
    m2 = _mm256_blendv_ps(m2, zero, _mm256_cmp_ps(m2, zero, _CMP_LT_OQ));
    gt = _mm256_cmp_ps(m2, m1, _CMP_GT_OQ);
    ratio = _mm256_div_ps(_mm256_blendv_ps(m1, m2, gt), _mm256_blendv_ps(m2, m1, gt));
    sum = _mm256_add_ps(m1, m2);
    /* i = -(sum of the compare masks) of the 8 steps; table2[0 .. 7] by
     * a permutation, table2[8] where ratio >= the last step */
    {
        __m256i const c0 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[0]), _CMP_GE_OQ));
        __m256i const c1 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[1]), _CMP_GE_OQ));
        __m256i const c2 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[2]), _CMP_GE_OQ));
        __m256i const c3 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[3]), _CMP_GE_OQ));
        __m256i const c4 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[4]), _CMP_GE_OQ));
        __m256i const c5 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[5]), _CMP_GE_OQ));
        __m256i const c6 = _mm256_castps_si256(_mm256_cmp_ps(
            ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[6]), _CMP_GE_OQ));
        __m256 const c7 =
            _mm256_cmp_ps(ratio, _mm256_set1_ps(ct_mp3_mask_add_steps[7]), _CMP_GE_OQ);
        i = _mm256_sub_epi32(
            _mm256_setzero_si256(),
            _mm256_add_epi32(_mm256_add_epi32(_mm256_add_epi32(c0, c1), _mm256_add_epi32(c2, c3)),
                             _mm256_add_epi32(_mm256_add_epi32(c4, c5), c6)));
        f = _mm256_permutevar8x32_ps(_mm256_loadu_ps(ct_mp3_mask_add_table2), i);
        f = _mm256_blendv_ps(f, _mm256_set1_ps(ct_mp3_mask_add_table2[8]), c7);
    }
    res = _mm256_blendv_ps(
        _mm256_mul_ps(sum, f), sum,
        _mm256_cmp_ps(ratio, _mm256_set1_ps(ct_mp3_ma_max_i1), _CMP_GE_OQ));
    mx = _mm256_blendv_ps(m1, m2, _mm256_cmp_ps(m1, m2, _CMP_LT_OQ));
    far_res = _mm256_blendv_ps(
        mx, sum, _mm256_cmp_ps(ratio, _mm256_set1_ps(ct_mp3_ma_max_i2), _CMP_LT_OQ));
    res = _mm256_blendv_ps(far_res, res, near);
    res = _mm256_blendv_ps(res, m1, _mm256_cmp_ps(m2, zero, _CMP_LE_OQ));
    return _mm256_blendv_ps(res, m2, _mm256_cmp_ps(m1, zero, _CMP_LE_OQ));
}

/* One step j of the chains of the 8 partitions at b0. */
AVX2 INLINE __m256 mask_chain_step_avx2(const mask_chain_layout *ly, int b0, const float *xs,
                                        int j, __m256 e)
{
    __m256i const start = _mm256_loadu_si256((const __m256i *) &ly->start[b0]);
    __m256i const len = _mm256_loadu_si256((const __m256i *) &ly->len[b0]);
    __m256i const dist0 = _mm256_loadu_si256((const __m256i *) &ly->dist0[b0]);
    __m256i const vdelta = _mm256_loadu_si256((const __m256i *) &ly->delta[b0]);
    __m256i const vj = _mm256_set1_epi32(j);
    __m256i const active = _mm256_cmpgt_epi32(len, vj);
    /* inactive lanes read their first value again */
    __m256i const idx = _mm256_add_epi32(start, _mm256_and_si256(active, vj));
    __m256i const far =
        _mm256_cmpgt_epi32(_mm256_abs_epi32(_mm256_add_epi32(dist0, vj)), vdelta);
    __m256 const r =
        mask_add_avx2(e, _mm256_i32gather_ps(xs, idx, 4),
                      _mm256_castsi256_ps(_mm256_xor_si256(far, _mm256_set1_epi32(-1))));
    return _mm256_blendv_ps(e, r, _mm256_castsi256_ps(active));
}

AVX2 INLINE void mask_chain_store_avx2(float *ecb, int npart, int b0, __m256 e)
{
    if (npart - b0 >= 8) {
        _mm256_storeu_ps(&ecb[b0], e);
    }
    else if (npart > b0) {
        float tmp[8];
        int l;
        _mm256_storeu_ps(tmp, e);
        for (l = 0; l < npart - b0; l++)
            ecb[b0 + l] = tmp[l];
    }
}

/* Two groups of 8 partitions at a time: their chains are independent, so
 * the steps of one run while the other waits for its division. */
AVX2 void ct_mp3_mask_chain_avx2(int npart, const int (*s3ind)[2], const float *xs,
                                 const int *delta, float *ecb)
{
    mask_chain_layout ly;
    int b0;

    mask_chain_layout_init(&ly, npart, s3ind, delta, 16);
    for (b0 = 0; b0 < npart; b0 += 16) {
        __m256 e0 = _mm256_i32gather_ps(xs, _mm256_loadu_si256((const __m256i *) &ly.start[b0]), 4);
        __m256 e1 =
            _mm256_i32gather_ps(xs, _mm256_loadu_si256((const __m256i *) &ly.start[b0 + 8]), 4);
        int maxlen = 0, j, l;
        for (l = 0; l < 16; l++)
            if (maxlen < ly.len[b0 + l])
                maxlen = ly.len[b0 + l];
        for (j = 1; j < maxlen; j++) {
            e0 = mask_chain_step_avx2(&ly, b0, xs, j, e0);
            e1 = mask_chain_step_avx2(&ly, b0 + 8, xs, j, e1);
        }
        mask_chain_store_avx2(ecb, npart, b0, e0);
        mask_chain_store_avx2(ecb, npart, b0 + 8, e1);
    }
}

AVX2 INLINE __m256 rev8(__m256 v)
{
    return _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}

AVX2 static void fht_stage_i8_avx2(float *fz, const float *fn, int st, int i, int k1, int k2,
                                   int k3, int k4, int done)
{
    __m256 const c1 = _mm256_loadu_ps(&fht_tw.c1[st][i]);
    __m256 const s1 = _mm256_loadu_ps(&fht_tw.s1[st][i]);
    __m256 const c2 = _mm256_loadu_ps(&fht_tw.c2[st][i]);
    __m256 const s2 = _mm256_loadu_ps(&fht_tw.s2[st][i]);
    /* lanes below done keep what they loaded */
    __m256 const keep = _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_set1_epi32(done), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
    float *fi = fz + i, *gi = fz + k1 - i - 7;
    do {
        __m256 a, b, g0, f0, f1, g1, f2, g2, f3, g3;
        __m256 const F0 = _mm256_loadu_ps(fi), FK1 = _mm256_loadu_ps(fi + k1);
        __m256 const FK2 = _mm256_loadu_ps(fi + k2), FK3 = _mm256_loadu_ps(fi + k3);
        __m256 const G0 = rev8(_mm256_loadu_ps(gi)), GK1 = rev8(_mm256_loadu_ps(gi + k1));
        __m256 const GK2 = rev8(_mm256_loadu_ps(gi + k2)), GK3 = rev8(_mm256_loadu_ps(gi + k3));
        b = _mm256_sub_ps(_mm256_mul_ps(s2, FK1), _mm256_mul_ps(c2, GK1));
        a = _mm256_add_ps(_mm256_mul_ps(c2, FK1), _mm256_mul_ps(s2, GK1));
        f1 = _mm256_sub_ps(F0, a);
        f0 = _mm256_add_ps(F0, a);
        g1 = _mm256_sub_ps(G0, b);
        g0 = _mm256_add_ps(G0, b);
        b = _mm256_sub_ps(_mm256_mul_ps(s2, FK3), _mm256_mul_ps(c2, GK3));
        a = _mm256_add_ps(_mm256_mul_ps(c2, FK3), _mm256_mul_ps(s2, GK3));
        f3 = _mm256_sub_ps(FK2, a);
        f2 = _mm256_add_ps(FK2, a);
        g3 = _mm256_sub_ps(GK2, b);
        g2 = _mm256_add_ps(GK2, b);
        b = _mm256_sub_ps(_mm256_mul_ps(s1, f2), _mm256_mul_ps(c1, g3));
        a = _mm256_add_ps(_mm256_mul_ps(c1, f2), _mm256_mul_ps(s1, g3));
        _mm256_storeu_ps(fi + k2, _mm256_blendv_ps(_mm256_sub_ps(f0, a), FK2, keep));
        _mm256_storeu_ps(fi, _mm256_blendv_ps(_mm256_add_ps(f0, a), F0, keep));
        _mm256_storeu_ps(gi + k3, rev8(_mm256_blendv_ps(_mm256_sub_ps(g1, b), GK3, keep)));
        _mm256_storeu_ps(gi + k1, rev8(_mm256_blendv_ps(_mm256_add_ps(g1, b), GK1, keep)));
        b = _mm256_sub_ps(_mm256_mul_ps(c1, g2), _mm256_mul_ps(s1, f3));
        a = _mm256_add_ps(_mm256_mul_ps(s1, g2), _mm256_mul_ps(c1, f3));
        _mm256_storeu_ps(gi + k2, rev8(_mm256_blendv_ps(_mm256_sub_ps(g0, a), GK2, keep)));
        _mm256_storeu_ps(gi, rev8(_mm256_blendv_ps(_mm256_add_ps(g0, a), G0, keep)));
        _mm256_storeu_ps(fi + k3, _mm256_blendv_ps(_mm256_sub_ps(f1, b), FK3, keep));
        _mm256_storeu_ps(fi + k1, _mm256_blendv_ps(_mm256_add_ps(f1, b), FK1, keep));
        gi += k4;
        fi += k4;
    } while (fi < fn);
}

void ct_mp3_fht_avx2(float *fz, int n)
{
    fht_vec(fz, n, fht_stage_i8_avx2);
}

AVX2 static void window_subband8_avx2(const float *x1, const float *x2, int m, float a[32])
{
#define W(j) _mm256_loadu_ps(&wsub_w[(j) + 10][m])
#define X1(c) rev8(_mm256_loadu_ps(x1 + (c) - m - 7))
#define X2(c) _mm256_loadu_ps(x2 + (c) + m)
#define ACC(v, x, w) v = _mm256_add_ps(v, _mm256_mul_ps(x, w))
#define DEC(v, x, w) v = _mm256_sub_ps(v, _mm256_mul_ps(x, w))
    __m256 w, s, t;
    w = W(-10);
    s = _mm256_mul_ps(X2(-224), w);
    t = _mm256_mul_ps(X1(224), w);
    w = W(-9);
    ACC(s, X2(-160), w);
    ACC(t, X1(160), w);
    w = W(-8);
    ACC(s, X2(-96), w);
    ACC(t, X1(96), w);
    w = W(-7);
    ACC(s, X2(-32), w);
    ACC(t, X1(32), w);
    w = W(-6);
    ACC(s, X2(32), w);
    ACC(t, X1(-32), w);
    w = W(-5);
    ACC(s, X2(96), w);
    ACC(t, X1(-96), w);
    w = W(-4);
    ACC(s, X2(160), w);
    ACC(t, X1(-160), w);
    w = W(-3);
    ACC(s, X2(224), w);
    ACC(t, X1(-224), w);
    w = W(-2);
    ACC(s, X1(-256), w);
    DEC(t, X2(256), w);
    w = W(-1);
    ACC(s, X1(-192), w);
    DEC(t, X2(192), w);
    w = W(0);
    ACC(s, X1(-128), w);
    DEC(t, X2(128), w);
    w = W(1);
    ACC(s, X1(-64), w);
    DEC(t, X2(64), w);
    w = W(2);
    ACC(s, X1(0), w);
    DEC(t, X2(0), w);
    w = W(3);
    ACC(s, X1(64), w);
    DEC(t, X2(-64), w);
    w = W(4);
    ACC(s, X1(128), w);
    DEC(t, X2(-128), w);
    w = W(5);
    ACC(s, X1(192), w);
    DEC(t, X2(-192), w);
    s = _mm256_mul_ps(s, W(6));
    {
        __m256 const sum = _mm256_add_ps(t, s);
        __m256 const dif = _mm256_mul_ps(W(7), _mm256_sub_ps(t, s));
        __m256 const lo = _mm256_unpacklo_ps(sum, dif); /* m 0, 1 | 4, 5 */
        __m256 const hi = _mm256_unpackhi_ps(sum, dif); /* m 2, 3 | 6, 7 */
        _mm256_storeu_ps(a + 2 * m, _mm256_permute2f128_ps(lo, hi, 0x20));
        _mm256_storeu_ps(a + 2 * m + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
    }
#undef W
#undef X1
#undef X2
#undef ACC
#undef DEC
}

void ct_mp3_window_subband_avx2(const float *x1, float a[32])
{
    const float *const x2 = &x1[238 - 14 - 286];
    pthread_once(&wsub_once, wsub_init);
    window_subband8_avx2(x1, x2, 0, a);
    window_subband8_avx2(x1, x2, 8, a);
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

AVX2 void ct_mp3_attack_hpf_avx2(const float *firbuf, float out[576])
{
    const float *const c = ct_mp3_attack_fircoef;
    int i, j;
    for (i = 0; i < 576; i += 8) {
        const float *const f = firbuf + i;
        __m256 sum1 = _mm256_loadu_ps(f + 10);
        __m256 sum2 = _mm256_setzero_ps();
        for (j = 0; j < 9; j += 2) {
            sum1 = _mm256_add_ps(sum1, _mm256_mul_ps(_mm256_set1_ps(c[j]),
                                                     _mm256_add_ps(_mm256_loadu_ps(f + j),
                                                                   _mm256_loadu_ps(f + 21 - j))));
            sum2 = _mm256_add_ps(
                sum2, _mm256_mul_ps(_mm256_set1_ps(c[j + 1]),
                                    _mm256_add_ps(_mm256_loadu_ps(f + j + 1),
                                                  _mm256_loadu_ps(f + 20 - j))));
        }
        _mm256_storeu_ps(out + i, _mm256_add_ps(sum1, sum2));
    }
}

AVX2 void ct_mp3_abs_peaks_avx2(const float *x, float en[9])
{
    __m256 const abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    int i, k;
    for (i = 0; i < 9; i++) {
        __m256 p = _mm256_set1_ps(1.0f);
        for (k = 0; k < 64; k += 8)
            p = _mm256_max_ps(p, _mm256_and_ps(abs_mask, _mm256_loadu_ps(x + 64 * i + k)));
        en[i] = hmax4(_mm_max_ps(_mm256_castps256_ps128(p), _mm256_extractf128_ps(p, 1)));
    }
}

#endif
