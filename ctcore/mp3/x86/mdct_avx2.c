/*
 * The filterbank's AVX2 kernel (mdct_dsp.h): 8 of window_subband's i per
 * vector (x86/mdct_sse2.c: 4).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/mdct_dsp.h"

#include "mp3/x86/simd.h"

AVX2 static void window_subband8_avx2(const float *x1, const float *x2, int m, float a[32])
{
#define W(j) _mm256_loadu_ps(&ct_mp3_wsub_w[(j) + 10][m])
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
    window_subband8_avx2(x1, x2, 0, a);
    window_subband8_avx2(x1, x2, 8, a);
}
