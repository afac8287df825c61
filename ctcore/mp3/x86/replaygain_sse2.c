/*
 * ReplayGain's SSE2 kernel (replaygain_dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/replaygain_dsp.h"

#include <string.h>

#include "mp3/x86/simd.h"

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
