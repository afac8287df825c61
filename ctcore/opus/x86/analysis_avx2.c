/*
 * The tonality analysis' loop over the FFT's bins with AVX2, the C loop's
 * bits: the bins are independent, so eight of them run in the lanes, each
 * through ct_opus_tonality_bins_c's operations in their order.
 * fast_atan2f's two branches are both computed and the lane's one kept (a
 * lane whose x and y are both tiny keeps 0, as the C code returns early);
 * float2int is the same conversion (cvtps2dq, round to nearest even, as
 * cvtss2si). The last bins that fill no register run the C loop.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * The operations are libopus 1.3.1 src/analysis.c's and celt/mathops.h's
 * fast_atan2f (BSD-3-Clause, Xiph.Org Foundation and contributors)
 */
#include <immintrin.h>

#include "opus/dsp.h"
#include "opus/mathops.h"

#define M_PI_D 3.14159265358979323846

/* fast_atan2f(y, x) in the lanes */
__attribute__((target("avx2"))) static inline __m256 atan2_lanes(__m256 y,
                                                                 __m256 x)
{
    const __m256 cA = _mm256_set1_ps(0.43157974f);
    const __m256 cB = _mm256_set1_ps(0.67848403f);
    const __m256 cC = _mm256_set1_ps(0.08595542f);
    const float e = (float)CT_PI / 2;
    const __m256 zero = _mm256_setzero_ps();
    const __m256 x2 = _mm256_mul_ps(x, x);
    const __m256 y2 = _mm256_mul_ps(y, y);
    const __m256 xy = _mm256_mul_ps(x, y);
    const __m256 tiny = _mm256_cmp_ps(_mm256_add_ps(x2, y2),
                                      _mm256_set1_ps(1e-18f), _CMP_LT_OQ);
    const __m256 x_below = _mm256_cmp_ps(x2, y2, _CMP_LT_OQ);
    /* (y < 0 ? -cE : cE), (x * y < 0 ? -cE : cE) */
    const __m256 ey = _mm256_blendv_ps(_mm256_set1_ps(e), _mm256_set1_ps(-e),
                                       _mm256_cmp_ps(y, zero, _CMP_LT_OQ));
    const __m256 exy = _mm256_blendv_ps(_mm256_set1_ps(e), _mm256_set1_ps(-e),
                                        _mm256_cmp_ps(xy, zero, _CMP_LT_OQ));
    /* x2 < y2: -x * y * (y2 + cA * x2) / den + ey */
    const __m256 den_a =
        _mm256_mul_ps(_mm256_add_ps(y2, _mm256_mul_ps(cB, x2)),
                      _mm256_add_ps(y2, _mm256_mul_ps(cC, x2)));
    const __m256 neg_x = _mm256_xor_ps(x, _mm256_set1_ps(-0.0f));
    const __m256 a = _mm256_add_ps(
        _mm256_div_ps(_mm256_mul_ps(_mm256_mul_ps(neg_x, y),
                                    _mm256_add_ps(y2, _mm256_mul_ps(cA, x2))),
                      den_a),
        ey);
    /* else: x * y * (x2 + cA * y2) / den + ey - exy */
    const __m256 den_b =
        _mm256_mul_ps(_mm256_add_ps(x2, _mm256_mul_ps(cB, y2)),
                      _mm256_add_ps(x2, _mm256_mul_ps(cC, y2)));
    const __m256 b = _mm256_sub_ps(
        _mm256_add_ps(
            _mm256_div_ps(
                _mm256_mul_ps(xy, _mm256_add_ps(x2, _mm256_mul_ps(cA, y2))),
                den_b),
            ey),
        exy);
    return _mm256_andnot_ps(tiny, _mm256_blendv_ps(b, a, x_below));
}

/* the real and imaginary parts of the eight complex values at v */
__attribute__((target("avx2"))) static inline void
load_parts(const ct_fft_cpx *v, __m256 *re, __m256 *im)
{
    const __m256 lo = _mm256_loadu_ps(&v[0].r);
    const __m256 hi = _mm256_loadu_ps(&v[4].r);
    *re = _mm256_castpd_ps(_mm256_permute4x64_pd(
        _mm256_castps_pd(_mm256_shuffle_ps(lo, hi, 0x88)), 0xD8));
    *im = _mm256_castpd_ps(_mm256_permute4x64_pd(
        _mm256_castps_pd(_mm256_shuffle_ps(lo, hi, 0xDD)), 0xD8));
}

/* x - (float)float2int(x) */
__attribute__((target("avx2"))) static inline __m256 frac_lanes(__m256 x)
{
    return _mm256_sub_ps(x, _mm256_cvtepi32_ps(_mm256_cvtps_epi32(x)));
}

__attribute__((target("avx2"))) void
ct_opus_tonality_bins_avx2(const ct_fft_cpx *out, int N, int first, int end,
                           float *A, float *dA, float *d2A, float *tonality,
                           float *tonality2, float *noisiness)
{
    const float pi4 = (float)(M_PI_D * M_PI_D * M_PI_D * M_PI_D);
    const __m256 scale = _mm256_set1_ps((float)(.5f / M_PI_D));
    const __m256 k = _mm256_set1_ps(40.f * 16.f * pi4);
    const __m256 one = _mm256_set1_ps(1.f);
    const __m256 offset = _mm256_set1_ps(.015f);
    const __m256 quarter = _mm256_set1_ps(.25f);
    const __m256 two = _mm256_set1_ps(2.f);
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256i reverse = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    int i;

    for (i = first; i + 8 <= end; i += 8) {
        __m256 r, im, rr, imr;
        __m256 X1r, X1i, X2r, X2i;
        __m256 angle, d_angle, d2_angle, angle2, d_angle2, d2_angle2;
        __m256 mod1, mod2, avg_mod;
        load_parts(out + i, &r, &im);
        /* out[N - i], out[N - i - 1] ... */
        load_parts(out + N - i - 7, &rr, &imr);
        rr = _mm256_permutevar8x32_ps(rr, reverse);
        imr = _mm256_permutevar8x32_ps(imr, reverse);
        X1r = _mm256_add_ps(r, rr);
        X1i = _mm256_sub_ps(im, imr);
        X2r = _mm256_add_ps(im, imr);
        X2i = _mm256_sub_ps(rr, r);

        angle = _mm256_mul_ps(scale, atan2_lanes(X1i, X1r));
        d_angle = _mm256_sub_ps(angle, _mm256_loadu_ps(A + i));
        d2_angle = _mm256_sub_ps(d_angle, _mm256_loadu_ps(dA + i));

        angle2 = _mm256_mul_ps(scale, atan2_lanes(X2i, X2r));
        d_angle2 = _mm256_sub_ps(angle2, angle);
        d2_angle2 = _mm256_sub_ps(d_angle2, d_angle);

        mod1 = frac_lanes(d2_angle);
        mod2 = frac_lanes(d2_angle2);
        _mm256_storeu_ps(noisiness + i,
                         _mm256_add_ps(_mm256_and_ps(mod1, abs_mask),
                                       _mm256_and_ps(mod2, abs_mask)));
        mod1 = _mm256_mul_ps(mod1, mod1);
        mod1 = _mm256_mul_ps(mod1, mod1);
        mod2 = _mm256_mul_ps(mod2, mod2);
        mod2 = _mm256_mul_ps(mod2, mod2);

        avg_mod = _mm256_mul_ps(
            quarter,
            _mm256_add_ps(_mm256_add_ps(_mm256_loadu_ps(d2A + i), mod1),
                          _mm256_mul_ps(two, mod2)));
        _mm256_storeu_ps(
            tonality + i,
            _mm256_sub_ps(
                _mm256_div_ps(one,
                              _mm256_add_ps(one, _mm256_mul_ps(k, avg_mod))),
                offset));
        _mm256_storeu_ps(
            tonality2 + i,
            _mm256_sub_ps(
                _mm256_div_ps(one, _mm256_add_ps(one, _mm256_mul_ps(k, mod2))),
                offset));
        _mm256_storeu_ps(A + i, angle2);
        _mm256_storeu_ps(dA + i, d_angle2);
        _mm256_storeu_ps(d2A + i, mod2);
    }
    ct_opus_tonality_bins_c(out, N, i, end, A, dA, d2A, tonality, tonality2,
                            noisiness);
}
