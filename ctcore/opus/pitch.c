/*
 * CELT's pitch analysis, float build (pitch.h). libopus' fixed/float
 * macros are expanded to their float meaning: MULT16_16, MAC16_16 and the
 * Q15 products are plain float products, shifts and ROUND16 vanish,
 * HALF32(x) is .5f*(x), MAX32 and MIN32 keep their ternaries' argument
 * order (it decides NaN and signed zero).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/pitch.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Jean-Marc Valin)
 */
#include "opus/pitch.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opus/lpc.h"

/* the float MAX32/MIN32 of celt/arch.h */
#define MAX32(a, b) ((a) > (b) ? (a) : (b))

static void find_best_pitch(float *xcorr, float *y, int len, int max_pitch, int *best_pitch)
{
    int i, j;
    float Syy = 1;
    float best_num[2];
    float best_den[2];

    best_num[0] = -1;
    best_num[1] = -1;
    best_den[0] = 0;
    best_den[1] = 0;
    best_pitch[0] = 0;
    best_pitch[1] = 1;
    for (j = 0; j < len; j++)
        Syy = Syy + y[j] * y[j];
    for (i = 0; i < max_pitch; i++) {
        if (xcorr[i] > 0) {
            float num;
            float xcorr16;
            xcorr16 = xcorr[i];
            /* Considering the range of xcorr16, this should avoid both
               underflows and overflows (inf) when squaring xcorr16 */
            xcorr16 *= 1e-12f;
            num = xcorr16 * xcorr16;
            if (num * best_den[1] > best_num[1] * Syy) {
                if (num * best_den[0] > best_num[0] * Syy) {
                    best_num[1] = best_num[0];
                    best_den[1] = best_den[0];
                    best_pitch[1] = best_pitch[0];
                    best_num[0] = num;
                    best_den[0] = Syy;
                    best_pitch[0] = i;
                } else {
                    best_num[1] = num;
                    best_den[1] = Syy;
                    best_pitch[1] = i;
                }
            }
        }
        Syy += y[i + len] * y[i + len] - y[i] * y[i];
        Syy = MAX32(1, Syy);
    }
}

/* ct: the taps read a copy of the input rather than the memories that
 * rotate through it, so that each output's sum (in the reference's order)
 * reads only the input and the loop vectorises */
static void celt_fir5(float *x, const float *num, int N)
{
    int i;
    const float num0 = num[0], num1 = num[1], num2 = num[2], num3 = num[3],
                num4 = num[4];
    /* five zeros (the memories' start), then the input */
    float in[5 + (CT_CELT_PITCH_MAX_LEN + CT_CELT_PITCH_MAX_PERIOD) / 2];
    const float *restrict p = in + 5;

    assert(N <= (CT_CELT_PITCH_MAX_LEN + CT_CELT_PITCH_MAX_PERIOD) / 2);
    in[0] = in[1] = in[2] = in[3] = in[4] = 0;
    memcpy(in + 5, x, (size_t)N * sizeof(*x));
    for (i = 0; i < N; i++) {
        float sum = p[i];
        sum = sum + num0 * p[i - 1];
        sum = sum + num1 * p[i - 2];
        sum = sum + num2 * p[i - 3];
        sum = sum + num3 * p[i - 4];
        sum = sum + num4 * p[i - 5];
        x[i] = sum;
    }
}

void ct_celt_pitch_downsample(float *x[], float *x_lp, int len, int C, const ct_opus_dsp *dsp)
{
    int i;
    float ac[5];
    float tmp = 1.0f;
    float lpc[4];
    float lpc2[5];
    float c1 = .8f;
    for (i = 1; i < len >> 1; i++)
        x_lp[i] = .5f * (.5f * (x[0][(2 * i - 1)] + x[0][(2 * i + 1)]) + x[0][2 * i]);
    x_lp[0] = .5f * (.5f * (x[0][1]) + x[0][0]);
    if (C == 2) {
        for (i = 1; i < len >> 1; i++)
            x_lp[i] += .5f * (.5f * (x[1][(2 * i - 1)] + x[1][(2 * i + 1)]) + x[1][2 * i]);
        x_lp[0] += .5f * (.5f * (x[1][1]) + x[1][0]);
    }

    ct_celt_autocorr(x_lp, ac, NULL, 0, 4, len >> 1, dsp);

    /* Noise floor -40 dB */
    ac[0] *= 1.0001f;
    /* Lag windowing */
    for (i = 1; i <= 4; i++) {
        /*ac[i] *= exp(-.5*(2*M_PI*.002*i)*(2*M_PI*.002*i));*/
        ac[i] -= ac[i] * (.008f * i) * (.008f * i);
    }

    ct_celt_lpc(lpc, ac, 4);
    for (i = 0; i < 4; i++) {
        tmp = .9f * tmp;
        lpc[i] = lpc[i] * tmp;
    }
    /* Add a zero */
    lpc2[0] = lpc[0] + .8f;
    lpc2[1] = lpc[1] + c1 * lpc[0];
    lpc2[2] = lpc[2] + c1 * lpc[1];
    lpc2[3] = lpc[3] + c1 * lpc[2];
    lpc2[4] = c1 * lpc[3];
    celt_fir5(x_lp, lpc2, len >> 1);
}

/* The unrolled version (libopus' default): four lags per xcorr_kernel,
 * the max_pitch % 4 last ones by inner_prod; eight lags per xcorr_kernel8
 * while they last, the same sums (ct). */
void ct_celt_pitch_xcorr(const float *_x, const float *_y, float *xcorr, int len, int max_pitch,
                         const ct_opus_dsp *dsp)
{
    int i;
    assert(max_pitch > 0);
    for (i = 0; i < max_pitch - 7; i += 8) {
        float sum[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        dsp->xcorr_kernel8(_x, _y + i, sum, len);
        memcpy(xcorr + i, sum, sizeof(sum));
    }
    for (; i < max_pitch - 3; i += 4) {
        float sum[4] = {0, 0, 0, 0};
        dsp->xcorr_kernel(_x, _y + i, sum, len);
        xcorr[i] = sum[0];
        xcorr[i + 1] = sum[1];
        xcorr[i + 2] = sum[2];
        xcorr[i + 3] = sum[3];
    }
    /* In case max_pitch isn't a multiple of 4, do non-unrolled version. */
    for (; i < max_pitch; i++) {
        float sum;
        sum = dsp->inner_prod(_x, _y + i, len);
        xcorr[i] = sum;
    }
}

void ct_celt_pitch_search(const float *x_lp, float *y, int len, int max_pitch, int *pitch,
                          const ct_opus_dsp *dsp)
{
    int i, j;
    int lag;
    int best_pitch[2] = {0, 0};
    float x_lp4[CT_CELT_PITCH_MAX_LEN >> 2];
    float y_lp4[(CT_CELT_PITCH_MAX_LEN + CT_CELT_PITCH_MAX_PERIOD) >> 2];
    float xcorr[CT_CELT_PITCH_MAX_PERIOD >> 1];
    int offset;

    assert(len > 0 && len <= CT_CELT_PITCH_MAX_LEN);
    assert(max_pitch > 0 && max_pitch <= CT_CELT_PITCH_MAX_PERIOD);
    lag = len + max_pitch;

    /* Downsample by 2 again */
    for (j = 0; j < len >> 2; j++)
        x_lp4[j] = x_lp[2 * j];
    for (j = 0; j < lag >> 2; j++)
        y_lp4[j] = y[2 * j];

    /* Coarse search with 4x decimation */
    ct_celt_pitch_xcorr(x_lp4, y_lp4, xcorr, len >> 2, max_pitch >> 2, dsp);

    find_best_pitch(xcorr, y_lp4, len >> 2, max_pitch >> 2, best_pitch);

    /* Finer search with 2x decimation */
    for (i = 0; i < max_pitch >> 1; i++) {
        float sum;
        xcorr[i] = 0;
        if (abs(i - 2 * best_pitch[0]) > 2 && abs(i - 2 * best_pitch[1]) > 2)
            continue;
        sum = dsp->inner_prod(x_lp, y + i, len >> 1);
        xcorr[i] = MAX32(-1, sum);
    }
    find_best_pitch(xcorr, y, len >> 1, max_pitch >> 1, best_pitch);

    /* Refine by pseudo-interpolation */
    if (best_pitch[0] > 0 && best_pitch[0] < (max_pitch >> 1) - 1) {
        float a, b, c;
        a = xcorr[best_pitch[0] - 1];
        b = xcorr[best_pitch[0]];
        c = xcorr[best_pitch[0] + 1];
        if ((c - a) > .7f * (b - a))
            offset = 1;
        else if ((a - c) > .7f * (b - c))
            offset = -1;
        else
            offset = 0;
    } else {
        offset = 0;
    }
    *pitch = 2 * best_pitch[0] - offset;
}

static float compute_pitch_gain(float xy, float xx, float yy)
{
    return xy / (float)sqrt(1 + xx * yy);
}

static const int second_check[16] = {0, 0, 3, 2, 3, 2, 5, 2, 3, 2, 3, 2, 5, 2, 3, 2};

float ct_celt_remove_doubling(const float *x, int maxperiod, int minperiod, int N, int *T0_,
                              int prev_period, float prev_gain, const ct_opus_dsp *dsp)
{
    int k, i, T, T0;
    float g, g0;
    float pg;
    float xy, xx, yy, xy2;
    float xcorr[3];
    float best_xy, best_yy;
    int offset;
    int minperiod0;
    float yy_lookup[(CT_CELT_PITCH_MAX_PERIOD >> 1) + 1];

    assert(maxperiod <= CT_CELT_PITCH_MAX_PERIOD);
    minperiod0 = minperiod;
    maxperiod /= 2;
    minperiod /= 2;
    *T0_ /= 2;
    prev_period /= 2;
    N /= 2;
    x += maxperiod;
    if (*T0_ >= maxperiod)
        *T0_ = maxperiod - 1;

    T = T0 = *T0_;
    dsp->dual_inner_prod(x, x, x - T0, N, &xx, &xy);
    yy_lookup[0] = xx;
    yy = xx;
    for (i = 1; i <= maxperiod; i++) {
        yy = yy + x[-i] * x[-i] - x[N - i] * x[N - i];
        yy_lookup[i] = MAX32(0, yy);
    }
    yy = yy_lookup[T0];
    best_xy = xy;
    best_yy = yy;
    g = g0 = compute_pitch_gain(xy, xx, yy);
    /* Look for any pitch at T/k */
    for (k = 2; k <= 15; k++) {
        int T1, T1b;
        float g1;
        float cont = 0;
        float thresh;
        /* celt_udiv: an unsigned division */
        T1 = (int)((uint32_t)(2 * T0 + k) / (uint32_t)(2 * k));
        if (T1 < minperiod)
            break;
        /* Look for another strong correlation at T1b */
        if (k == 2) {
            if (T1 + T0 > maxperiod)
                T1b = T0;
            else
                T1b = T0 + T1;
        } else {
            T1b = (int)((uint32_t)(2 * second_check[k] * T0 + k) / (uint32_t)(2 * k));
        }
        dsp->dual_inner_prod(x, &x[-T1], &x[-T1b], N, &xy, &xy2);
        xy = .5f * (xy + xy2);
        yy = .5f * (yy_lookup[T1] + yy_lookup[T1b]);
        g1 = compute_pitch_gain(xy, xx, yy);
        if (abs(T1 - prev_period) <= 1)
            cont = prev_gain;
        else if (abs(T1 - prev_period) <= 2 && 5 * k * k < T0)
            cont = .5f * prev_gain;
        else
            cont = 0;
        thresh = MAX32(.3f, .7f * g0 - cont);
        /* Bias against very high pitch (very short period) to avoid
           false-positives due to short-term correlation */
        if (T1 < 3 * minperiod)
            thresh = MAX32(.4f, .85f * g0 - cont);
        else if (T1 < 2 * minperiod)
            thresh = MAX32(.5f, .9f * g0 - cont);
        if (g1 > thresh) {
            best_xy = xy;
            best_yy = yy;
            T = T1;
            g = g1;
        }
    }
    best_xy = MAX32(0, best_xy);
    if (best_yy <= best_xy)
        pg = 1.0f;
    else
        pg = (float)(best_xy) / (best_yy + 1);

    for (k = 0; k < 3; k++)
        xcorr[k] = dsp->inner_prod(x, x - (T + k - 1), N);
    if ((xcorr[2] - xcorr[0]) > .7f * (xcorr[1] - xcorr[0]))
        offset = 1;
    else if ((xcorr[0] - xcorr[2]) > .7f * (xcorr[1] - xcorr[2]))
        offset = -1;
    else
        offset = 0;
    if (pg > g)
        pg = g;
    *T0_ = 2 * T + offset;

    if (*T0_ < minperiod0)
        *T0_ = minperiod0;
    return pg;
}
