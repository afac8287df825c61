/*
 * The FFT's AVX2 kernel (fft_dsp.h): x86/fft_sse2.c's transform with the
 * twiddled butterflies of 8 neighbouring i at a time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "mp3/fft_dsp.h"

#include "mp3/x86/simd.h"

AVX2 static void fht_stage_i8_avx2(float *fz, const float *fn, int st, int i, int k1, int k2,
                                   int k3, int k4, int done)
{
    __m256 const c1 = _mm256_loadu_ps(&ct_mp3_fht_tw.c1[st][i]);
    __m256 const s1 = _mm256_loadu_ps(&ct_mp3_fht_tw.s1[st][i]);
    __m256 const c2 = _mm256_loadu_ps(&ct_mp3_fht_tw.c2[st][i]);
    __m256 const s2 = _mm256_loadu_ps(&ct_mp3_fht_tw.s2[st][i]);
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
    ct_mp3_fht_vec8_sse2(fz, n, fht_stage_i8_avx2);
}
