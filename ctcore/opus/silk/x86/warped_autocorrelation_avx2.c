/*
 * SILK's warped autocorrelation with AVX2, the C loop's bits.
 *
 * The C loop runs, for each sample n, a cascade of allpass sections along
 * k = 1..order: v[n][0] = x[n] and
 *     v[n][k] = v[n-1][k-1] + warping * (v[n-1][k] - v[n][k-1]),
 * then C[k] += x[n] * v[n][k], every value a double. A cell depends on
 * cells of the two diagonals n + k before it only, so the cells
 * (t, k), (t-1, k+1), (t-2, k+2), (t-3, k+3) are computed at once, in the
 * four lanes of a group of four sections, with the same subtraction,
 * product and sum; each C[k] still adds its samples in the order of n.
 * Group g (sections 4g+1 .. 4g+4) runs four steps behind group g-1, whose
 * last lane is its input. Before the first sample the cells are the C
 * loop's zero state; the cells a group computes past the last sample feed
 * nothing the C loop computes, and their products are left out of C.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <assert.h>
#include <immintrin.h>

#include "opus/silk/silk.h"

#define GROUPS 6 /* MAX_SHAPE_LPC_ORDER / 4 */
/* group g runs 4g steps behind group 0 */
#define SKEW      (4 * (GROUPS - 1))
#define STEPS_MAX (SHAPE_LPC_WIN_MAX + 3 + SKEW)

_Static_assert(4 * GROUPS == MAX_SHAPE_LPC_ORDER,
               "six groups of four sections");

/* [b3, a0, a1, a2]: a's lanes one up, b's last lane first */
__attribute__((target("avx2"))) static inline __m256d shift_in(__m256d a,
                                                               __m256d b)
{
    return _mm256_shuffle_pd(_mm256_permute2f128_pd(a, b, 0x03), a, 0x5);
}

__attribute__((target("avx2"))) void
ct_silk_warped_autocorrelation_FLP_avx2(float *corr, const float *input,
                                        const float warping, const int length,
                                        const int order)
{
    const __m256d w = _mm256_set1_pd((double)warping);
    const __m256d zero = _mm256_setzero_pd();
    /* Per step t (from -SKEW): x of lanes 0..3 (the samples t .. t-3, zero
       outside), and which lanes' cells are samples: all before the last
       sample (the cells before the first are zeros), fewer after it. */
    __m256d x[STEPS_MAX + SKEW], valid[STEPS_MAX + SKEW];
    /* per group: B of the step before (A of this one), v of the step
       before, the sums */
    __m256d b_prev[GROUPS], v_prev[GROUPS], acc[GROUPS];
    const int steps = length + 3 + SKEW;
    double c0 = 0;
    double out[4 * GROUPS];
    int g, t, i;

    assert((order & 1) == 0 && order <= MAX_SHAPE_LPC_ORDER);
    assert(length >= 0 && length <= SHAPE_LPC_WIN_MAX);
    for (t = -SKEW; t < steps; t++) {
        double lane[4];
        int64_t in[4];
        for (i = 0; i < 4; i++) {
            const int n = t - i;
            lane[i] = n >= 0 && n < length ? (double)input[n] : 0.0;
            in[i] = n < length ? -1 : 0;
        }
        x[t + SKEW] = _mm256_loadu_pd(lane);
        valid[t + SKEW] =
            _mm256_castsi256_pd(_mm256_set_epi64x(in[3], in[2], in[1], in[0]));
    }
    for (i = 0; i < length; i++)
        c0 += (double)input[i] * (double)input[i];
    for (g = 0; g < GROUPS; g++) {
        b_prev[g] = zero;
        v_prev[g] = zero;
        acc[g] = zero;
    }

    /* Step s: group g computes its lanes' cells for t = s - 4g, from the
       last group down, so that each reads its predecessor's lanes of the
       step before. A group before its first sample computes the zero
       state, and after its last one cells that feed nothing. */
    for (int s = 0; s < steps; s++) {
        /* group 0's predecessor, the samples: sample s in its last lane */
        const __m256d samples = _mm256_permute4x64_pd(x[s + SKEW], 0x00);
#pragma GCC unroll 6
        for (g = GROUPS - 1; g >= 0; g--) {
            const int k = s - 4 * g + SKEW;
            const __m256d pred = g > 0 ? v_prev[g - 1] : samples;
            /* v = A + warping * (v of the step before - B) */
            const __m256d b = shift_in(v_prev[g], pred);
            const __m256d v = _mm256_add_pd(
                b_prev[g], _mm256_mul_pd(w, _mm256_sub_pd(v_prev[g], b)));
            acc[g] = _mm256_add_pd(
                acc[g], _mm256_and_pd(_mm256_mul_pd(x[k], v), valid[k]));
            b_prev[g] = b;
            v_prev[g] = v;
        }
    }

    for (g = 0; g < GROUPS; g++)
        _mm256_storeu_pd(out + 4 * g, acc[g]);
    corr[0] = (float)c0;
    for (i = 1; i <= order; i++)
        corr[i] = (float)out[i - 1];
}
