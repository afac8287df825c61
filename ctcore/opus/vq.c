/*
 * CELT's pyramid vector quantiser, encoder side (see vq.h), with the float
 * build's macros written out as mathops.h lists them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/vq.c (BSD-3-Clause, Xiph.Org Foundation
 * and contributors).
 */
#include "vq.h"

#include <math.h>

#include "bands.h"
#include "cwrs.h"
#include "mathops.h"

/* The widest band: 22 bins of band 20 at LM 3 */
#define VQ_MAX_N 176

static void exp_rotation1(float *X, int len, int stride, float c, float s)
{
    int i;
    float ms;
    float *Xptr;
    Xptr = X;
    ms = -s;
    for (i = 0; i < len - stride; i++) {
        float x1, x2;
        x1 = Xptr[0];
        x2 = Xptr[stride];
        Xptr[stride] = c * x2 + s * x1;
        *Xptr++ = c * x1 + ms * x2;
    }
    Xptr = &X[len - 2 * stride - 1];
    for (i = len - 2 * stride - 1; i >= 0; i--) {
        float x1, x2;
        x1 = Xptr[0];
        x2 = Xptr[stride];
        Xptr[stride] = c * x2 + s * x1;
        *Xptr-- = c * x1 + ms * x2;
    }
}

void ct_celt_exp_rotation(float *X, int len, int dir, int stride, int K,
                          int spread)
{
    static const int SPREAD_FACTOR[3] = {15, 10, 5};
    int i;
    float c, s;
    float gain, theta;
    int stride2 = 0;
    int factor;

    if (2 * K >= len || spread == SPREAD_NONE)
        return;
    factor = SPREAD_FACTOR[spread - 1];

    gain = (1.f * (float)len) / (float)(len + factor * K);
    theta = .5f * (gain * gain);

    c = ct_celt_cos_norm(theta);
    s = ct_celt_cos_norm(CT_Q15ONE - theta); /* sin(theta) */

    if (len >= 8 * stride) {
        stride2 = 1;
        /* A simple (equivalent) way of computing sqrt(len/stride) with
           rounding: increments as long as (stride2+0.5)^2 < len/stride. */
        while ((stride2 * stride2 + stride2) * stride + (stride >> 2) < len)
            stride2++;
    }
    len = (int)((unsigned)len / (unsigned)stride);
    for (i = 0; i < stride; i++) {
        if (dir < 0) {
            if (stride2)
                exp_rotation1(X + i * len, len, stride2, s, c);
            exp_rotation1(X + i * len, len, 1, c, s);
        } else {
            exp_rotation1(X + i * len, len, 1, c, -s);
            if (stride2)
                exp_rotation1(X + i * len, len, stride2, s, -c);
        }
    }
}

/* Takes the pitch vector and the decoded residual vector, computes the gain
   that will give ||p+g*y||=1 and mixes the residual with the pitch. */
static void normalise_residual(const int *restrict iy, float *restrict X,
                               int N, float Ryy, float gain)
{
    int i;
    float t;
    float g;

    t = Ryy;
    g = ct_celt_rsqrt_norm(t) * gain;

    i = 0;
    do
        X[i] = g * (float)iy[i];
    while (++i < N);
}

static unsigned extract_collapse_mask(const int *iy, int N, int B)
{
    unsigned collapse_mask;
    int N0;
    int i;
    if (B <= 1)
        return 1;
    N0 = (int)((unsigned)N / (unsigned)B);
    collapse_mask = 0;
    i = 0;
    do {
        int j;
        unsigned tmp = 0;
        j = 0;
        do {
            tmp |= iy[i * N0 + j];
        } while (++j < N0);
        collapse_mask |= (unsigned)(tmp != 0) << i;
    } while (++i < B);
    return collapse_mask;
}

float ct_opus_pvq_search_c(float *X, int *iy, int K, int N)
{
    float y[VQ_MAX_N];
    int signx[VQ_MAX_N];
    int i, j;
    int pulsesLeft;
    float sum;
    float xy;
    float yy;

    /* Get rid of the sign */
    sum = 0;
    j = 0;
    do {
        signx[j] = X[j] < 0;
        X[j] = (float)fabs(X[j]);
        iy[j] = 0;
        y[j] = 0;
    } while (++j < N);

    xy = yy = 0;

    pulsesLeft = K;

    /* Do a pre-search by projecting on the pyramid */
    if (K > (N >> 1)) {
        float rcp;
        j = 0;
        do {
            sum += X[j];
        } while (++j < N);

        /* If X is too small, just replace it with a pulse at 0. This
           prevents infinities and NaNs from causing too many pulses to be
           allocated: 64 is an approximation of infinity here. */
        if (!(sum > CT_EPSILON && sum < 64)) {
            X[0] = 1.f;
            j = 1;
            do
                X[j] = 0;
            while (++j < N);
            sum = 1.f;
        }
        /* Using K+e with e < 1 guarantees we cannot get more than K
           pulses. */
        rcp = (K + 0.8f) * (1.f / sum);
        j = 0;
        do {
            iy[j] = (int)floor(rcp * X[j]);
            y[j] = (float)iy[j];
            yy = yy + y[j] * y[j];
            xy = xy + X[j] * y[j];
            y[j] *= 2;
            pulsesLeft -= iy[j];
        } while (++j < N);
    }

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
        float Rxy, Ryy;
        int best_id;
        float best_num;
        float best_den;
        best_id = 0;
        /* The squared magnitude term gets added anyway, so we might as well
           add it outside the loop */
        yy = yy + 1;

        /* Position 0 is out of the loop, in part to reduce mispredicted
           branches (the if condition is usually false) in the loop. */
        Rxy = xy + X[0];
        /* y[j] is doubled so we don't have to do it here */
        Ryy = yy + y[0];

        /* Approximate score: we maximise Rxy/sqrt(Ryy) (Rxy is positive
           because the sign is pre-computed) */
        Rxy = Rxy * Rxy;
        best_den = Ryy;
        best_num = Rxy;
        j = 1;
        do {
            Rxy = xy + X[j];
            Ryy = yy + y[j];
            Rxy = Rxy * Rxy;
            /* num/den >= best_num/best_den without a division */
            if (best_den * Rxy > Ryy * best_num) {
                best_den = Ryy;
                best_num = Rxy;
                best_id = j;
            }
        } while (++j < N);

        /* Updating the sums of the new pulse(s) */
        xy = xy + X[best_id];
        yy = yy + y[best_id];

        /* Only now that we've made the final choice, update y/iy */
        y[best_id] += 2;
        iy[best_id]++;
    }

    /* Put the original sign back */
    j = 0;
    do {
        iy[j] = (iy[j] ^ -signx[j]) + signx[j];
    } while (++j < N);
    return yy;
}

unsigned ct_celt_alg_quant(float *X, int N, int K, int spread, int B,
                           ct_ec_enc *enc, float gain, int resynth,
                           const ct_opus_dsp *dsp)
{
    /* The SSE2 search stores 4 lanes at a time */
    int iy[VQ_MAX_N + 3];
    float yy;
    unsigned collapse_mask;

    ct_celt_exp_rotation(X, N, 1, B, K, spread);

    yy = dsp->pvq_search(X, iy, K, N);

    ct_celt_encode_pulses(iy, N, K, enc);

    if (resynth) {
        normalise_residual(iy, X, N, yy, gain);
        ct_celt_exp_rotation(X, N, -1, B, K, spread);
    }

    collapse_mask = extract_collapse_mask(iy, N, B);
    return collapse_mask;
}

void ct_celt_renormalise_vector(float *X, int N, float gain,
                                const ct_opus_dsp *dsp)
{
    int i;
    float E;
    float g;
    float t;
    float *xptr;
    E = CT_EPSILON + dsp->inner_prod(X, X, N);
    t = E;
    g = ct_celt_rsqrt_norm(t) * gain;

    xptr = X;
    for (i = 0; i < N; i++) {
        *xptr = g * *xptr;
        xptr++;
    }
}

int ct_celt_stereo_itheta(const float *X, const float *Y, int stereo, int N,
                          const ct_opus_dsp *dsp)
{
    int i;
    int itheta;
    float mid, side;
    float Emid, Eside;

    Emid = Eside = CT_EPSILON;
    if (stereo) {
        for (i = 0; i < N; i++) {
            float m, s;
            m = X[i] + Y[i];
            s = X[i] - Y[i];
            Emid = Emid + m * m;
            Eside = Eside + s * s;
        }
    } else {
        Emid += dsp->inner_prod(X, X, N);
        Eside += dsp->inner_prod(Y, Y, N);
    }
    mid = ct_celt_sqrt(Emid);
    side = ct_celt_sqrt(Eside);
    itheta = (int)floor(.5f + 16384 * 0.63662f * ct_celt_fast_atan2f(side, mid));

    return itheta;
}
