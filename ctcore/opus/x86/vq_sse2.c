/*
 * The PVQ search with SSE2, as Debian's libopus runs it (SSE2 presumed):
 * the pre-projection scales by (K+.8) * rcpps(sum) and truncates, the
 * search ranks the candidates by (xy + x) * rsqrtps(yy + y) and breaks ties
 * by the largest index among the equal lane maxima. rcpps and rsqrtps are
 * approximations: the results are those of this CPU's instructions, as
 * the reference's are.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/x86/vq_sse2.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors).
 */
#include <emmintrin.h>
#include <xmmintrin.h>

#include "opus/dsp.h"

/* The widest band (176) and the 3 lanes past it */
#define VQ_MAX_N3 (176 + 3)

float ct_opus_pvq_search_sse2(float *_X, int *iy, int K, int N)
{
    int i, j;
    int pulsesLeft;
    float xy, yy;
    float y[VQ_MAX_N3];
    float X[VQ_MAX_N3];
    float signy[VQ_MAX_N3];
    __m128 signmask;
    __m128 sums;
    __m128i fours;

    /* All bits set to zero, except for the sign bit. */
    signmask = _mm_set_ps1(-0.f);
    fours = _mm_set_epi32(4, 4, 4, 4);

    for (j = 0; j < N; j++)
        X[j] = _X[j];
    X[N] = X[N + 1] = X[N + 2] = 0;
    sums = _mm_setzero_ps();
    for (j = 0; j < N; j += 4) {
        __m128 x4, s4;
        x4 = _mm_loadu_ps(&X[j]);
        s4 = _mm_cmplt_ps(x4, _mm_setzero_ps());
        /* Get rid of the sign */
        x4 = _mm_andnot_ps(signmask, x4);
        sums = _mm_add_ps(sums, x4);
        /* Clear y and iy in case we don't do the projection. */
        _mm_storeu_ps(&y[j], _mm_setzero_ps());
        _mm_storeu_si128((__m128i *)&iy[j], _mm_setzero_si128());
        _mm_storeu_ps(&X[j], x4);
        _mm_storeu_ps(&signy[j], s4);
    }
    sums = _mm_add_ps(sums, _mm_shuffle_ps(sums, sums, _MM_SHUFFLE(1, 0, 3, 2)));
    sums = _mm_add_ps(sums, _mm_shuffle_ps(sums, sums, _MM_SHUFFLE(2, 3, 0, 1)));

    xy = yy = 0;

    pulsesLeft = K;

    /* Do a pre-search by projecting on the pyramid */
    if (K > (N >> 1)) {
        __m128i pulses_sum;
        __m128 yy4, xy4;
        __m128 rcp4;
        float sum = _mm_cvtss_f32(sums);
        /* If X is too small, just replace it with a pulse at 0. This
           prevents infinities and NaNs from causing too many pulses to be
           allocated: 64 is an approximation of infinity here. */
        if (!(sum > 1e-15f && sum < 64)) {
            X[0] = 1.f;
            j = 1;
            do
                X[j] = 0;
            while (++j < N);
            sums = _mm_set_ps1(1.f);
        }
        /* Using K+e with e < 1 guarantees we cannot get more than K
           pulses. */
        rcp4 = _mm_mul_ps(_mm_set_ps1((float)(K + .8)), _mm_rcp_ps(sums));
        xy4 = yy4 = _mm_setzero_ps();
        pulses_sum = _mm_setzero_si128();
        for (j = 0; j < N; j += 4) {
            __m128 rx4, x4, y4;
            __m128i iy4;
            x4 = _mm_loadu_ps(&X[j]);
            rx4 = _mm_mul_ps(x4, rcp4);
            iy4 = _mm_cvttps_epi32(rx4);
            pulses_sum = _mm_add_epi32(pulses_sum, iy4);
            _mm_storeu_si128((__m128i *)&iy[j], iy4);
            y4 = _mm_cvtepi32_ps(iy4);
            xy4 = _mm_add_ps(xy4, _mm_mul_ps(x4, y4));
            yy4 = _mm_add_ps(yy4, _mm_mul_ps(y4, y4));
            /* Double the y[] vector so we don't have to do it in the search
               loop. */
            _mm_storeu_ps(&y[j], _mm_add_ps(y4, y4));
        }
        pulses_sum = _mm_add_epi32(
            pulses_sum, _mm_shuffle_epi32(pulses_sum, _MM_SHUFFLE(1, 0, 3, 2)));
        pulses_sum = _mm_add_epi32(
            pulses_sum, _mm_shuffle_epi32(pulses_sum, _MM_SHUFFLE(2, 3, 0, 1)));
        pulsesLeft -= _mm_cvtsi128_si32(pulses_sum);
        xy4 = _mm_add_ps(xy4, _mm_shuffle_ps(xy4, xy4, _MM_SHUFFLE(1, 0, 3, 2)));
        xy4 = _mm_add_ps(xy4, _mm_shuffle_ps(xy4, xy4, _MM_SHUFFLE(2, 3, 0, 1)));
        xy = _mm_cvtss_f32(xy4);
        yy4 = _mm_add_ps(yy4, _mm_shuffle_ps(yy4, yy4, _MM_SHUFFLE(1, 0, 3, 2)));
        yy4 = _mm_add_ps(yy4, _mm_shuffle_ps(yy4, yy4, _MM_SHUFFLE(2, 3, 0, 1)));
        yy = _mm_cvtss_f32(yy4);
    }
    /* The lanes past N can never win */
    X[N] = X[N + 1] = X[N + 2] = -100;
    y[N] = y[N + 1] = y[N + 2] = 100;

    /* This should never happen, but just in case it does (e.g. on silence)
       we fill the first bin with pulses. */
    if (pulsesLeft > N + 3) {
        float tmp = (float)pulsesLeft;
        yy = yy + tmp * tmp;
        yy = yy + tmp * y[0];
        iy[0] += pulsesLeft;
        pulsesLeft = 0;
    }

    for (i = 0; i < pulsesLeft; i++) {
        int best_id;
        __m128 xy4, yy4;
        __m128 max, max2;
        __m128i count;
        __m128i pos;
        /* The squared magnitude term gets added anyway, so we might as well
           add it outside the loop */
        yy = yy + 1;
        xy4 = _mm_load1_ps(&xy);
        yy4 = _mm_load1_ps(&yy);
        max = _mm_setzero_ps();
        pos = _mm_setzero_si128();
        count = _mm_set_epi32(3, 2, 1, 0);
        for (j = 0; j < N; j += 4) {
            __m128 x4, y4, r4;
            x4 = _mm_loadu_ps(&X[j]);
            y4 = _mm_loadu_ps(&y[j]);
            x4 = _mm_add_ps(x4, xy4);
            y4 = _mm_add_ps(y4, yy4);
            y4 = _mm_rsqrt_ps(y4);
            r4 = _mm_mul_ps(x4, y4);
            /* Update the index of the max. */
            pos = _mm_max_epi16(
                pos, _mm_and_si128(count, _mm_castps_si128(_mm_cmpgt_ps(r4, max))));
            /* Update the max. */
            max = _mm_max_ps(max, r4);
            /* Update the indices (+4) */
            count = _mm_add_epi32(count, fours);
        }
        /* Horizontal max */
        max2 = _mm_max_ps(max, _mm_shuffle_ps(max, max, _MM_SHUFFLE(1, 0, 3, 2)));
        max2 = _mm_max_ps(max2, _mm_shuffle_ps(max2, max2, _MM_SHUFFLE(2, 3, 0, 1)));
        /* Now that max2 contains the max at all positions, look at which
           value(s) of the partial max is equal to the global max. */
        pos = _mm_and_si128(pos, _mm_castps_si128(_mm_cmpeq_ps(max, max2)));
        pos = _mm_max_epi16(pos, _mm_unpackhi_epi64(pos, pos));
        pos = _mm_max_epi16(pos, _mm_shufflelo_epi16(pos, _MM_SHUFFLE(1, 0, 3, 2)));
        best_id = _mm_cvtsi128_si32(pos);

        /* Updating the sums of the new pulse(s) */
        xy = xy + X[best_id];
        /* y[j] is doubled so we don't have to do it here */
        yy = yy + y[best_id];

        /* Only now that we've made the final choice, update y/iy */
        y[best_id] += 2;
        iy[best_id]++;
    }

    /* Put the original sign back */
    for (j = 0; j < N; j += 4) {
        __m128i y4;
        __m128i s4;
        y4 = _mm_loadu_si128((__m128i *)&iy[j]);
        s4 = _mm_castps_si128(_mm_loadu_ps(&signy[j]));
        y4 = _mm_xor_si128(_mm_add_epi32(y4, s4), s4);
        _mm_storeu_si128((__m128i *)&iy[j], y4);
    }
    return yy;
}
