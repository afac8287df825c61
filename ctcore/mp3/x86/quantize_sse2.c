/*
 * The quantization's SSE2 kernels (quantize_dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/quantize_dsp.h"

#include <math.h>
#include <string.h>

#include "mp3/x86/simd.h"

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

/* The noise of groups of 4 lines added to xfsf; stops after an odd group
 * (the end of 8 lines) where the sum exceeds limit, and sets *over. */
INLINE float noise4_sse2(const float *pow43, const float *adj43asm, const float *xr,
                         const float *xr34, unsigned int groups, float sfpow,
                         float sfpow34, float xfsf, float limit, int *over)
{
    __m128 const vsfpow34 = _mm_set1_ps(sfpow34);
    __m128 const vsfpow = _mm_set1_ps(sfpow);
    __m128 const abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    unsigned int g;

    for (g = 0; g < groups; g++) {
        __m128 const x = _mm_mul_ps(vsfpow34, _mm_loadu_ps(xr34));
        __m128i const l3 = k34_sse2(adj43asm, x);
        __m128 const d = _mm_sub_ps(_mm_and_ps(abs_mask, _mm_loadu_ps(xr)),
                                    _mm_mul_ps(vsfpow, gather4(pow43, l3)));
        xfsf = (float) ((double) xfsf + sum_sq4(d));
        xr += 4;
        xr34 += 4;
        if ((g & 1u) && xfsf > limit) {
            *over = 1;
            break;
        }
    }
    return xfsf;
}

/* LAME's last group of bw % 4 lines is a group of 4 with zeros in the
 * unused lanes (their k_34 is 0, pow43[0] and adj43asm[0] are 0, and
 * their noise is set to 0): zero padded lines give the same sum. */
float ct_mp3_sfb_noise_x34_sse2(const float *pow43, const float *adj43asm, const float *xr,
                                const float *xr34, unsigned int bw, float sfpow,
                                float sfpow34, float limit)
{
    unsigned int const groups = bw >> 2u;
    unsigned int const rest = bw & 3u;
    int over = 0;
    float xfsf =
        noise4_sse2(pow43, adj43asm, xr, xr34, groups, sfpow, sfpow34, 0, limit, &over);
    if (rest && !over) {
        float r[4] = {0, 0, 0, 0}, r34[4] = {0, 0, 0, 0};
        memcpy(r, xr + 4 * groups, sizeof(float) * rest);
        memcpy(r34, xr34 + 4 * groups, sizeof(float) * rest);
        /* the last group (its index 0: no check, the sum ends here) */
        xfsf = noise4_sse2(pow43, adj43asm, r, r34, 1, sfpow, sfpow34, xfsf, limit, &over);
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

/* ---- xr^3/4 ----------------------------------------------------------------- */

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
