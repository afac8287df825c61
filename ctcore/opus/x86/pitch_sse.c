/*
 * The SSE kernels of the pitch analysis and the comb filter, as Debian's
 * libopus runs them (SSE presumed): the same intrinsics in the same order,
 * so the same lane sums and horizontal adds, which differ from the C
 * code's sequential sums.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/x86/pitch_sse.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Jean-Marc Valin, John Ridges, Cisco Systems)
 */
#include "opus/dsp.h"

#include <xmmintrin.h>

void ct_opus_xcorr_kernel_sse(const float *x, const float *y, float sum[4], int len)
{
    int j;
    __m128 xsum1, xsum2;
    xsum1 = _mm_loadu_ps(sum);
    xsum2 = _mm_setzero_ps();

    for (j = 0; j < len - 3; j += 4) {
        __m128 x0 = _mm_loadu_ps(x + j);
        __m128 yj = _mm_loadu_ps(y + j);
        __m128 y3 = _mm_loadu_ps(y + j + 3);

        xsum1 = _mm_add_ps(xsum1, _mm_mul_ps(_mm_shuffle_ps(x0, x0, 0x00), yj));
        xsum2 = _mm_add_ps(xsum2, _mm_mul_ps(_mm_shuffle_ps(x0, x0, 0x55),
                                             _mm_shuffle_ps(yj, y3, 0x49)));
        xsum1 = _mm_add_ps(xsum1, _mm_mul_ps(_mm_shuffle_ps(x0, x0, 0xaa),
                                             _mm_shuffle_ps(yj, y3, 0x9e)));
        xsum2 = _mm_add_ps(xsum2, _mm_mul_ps(_mm_shuffle_ps(x0, x0, 0xff), y3));
    }
    if (j < len) {
        xsum1 = _mm_add_ps(xsum1, _mm_mul_ps(_mm_load1_ps(x + j), _mm_loadu_ps(y + j)));
        if (++j < len) {
            xsum2 = _mm_add_ps(xsum2, _mm_mul_ps(_mm_load1_ps(x + j), _mm_loadu_ps(y + j)));
            if (++j < len) {
                xsum1 =
                    _mm_add_ps(xsum1, _mm_mul_ps(_mm_load1_ps(x + j), _mm_loadu_ps(y + j)));
            }
        }
    }
    _mm_storeu_ps(sum, _mm_add_ps(xsum1, xsum2));
}

/* ct: two four-lag kernels */
void ct_opus_xcorr_kernel8_sse(const float *x, const float *y, float sum[8], int len)
{
    ct_opus_xcorr_kernel_sse(x, y, sum, len);
    ct_opus_xcorr_kernel_sse(x, y + 4, sum + 4, len);
}

void ct_opus_dual_inner_prod_sse(const float *x, const float *y01, const float *y02, int n,
                                 float *xy1, float *xy2)
{
    int i;
    __m128 xsum1, xsum2;
    xsum1 = _mm_setzero_ps();
    xsum2 = _mm_setzero_ps();
    for (i = 0; i < n - 3; i += 4) {
        __m128 xi = _mm_loadu_ps(x + i);
        __m128 y1i = _mm_loadu_ps(y01 + i);
        __m128 y2i = _mm_loadu_ps(y02 + i);
        xsum1 = _mm_add_ps(xsum1, _mm_mul_ps(xi, y1i));
        xsum2 = _mm_add_ps(xsum2, _mm_mul_ps(xi, y2i));
    }
    /* lanes (0 + 2) + (1 + 3) */
    xsum1 = _mm_add_ps(xsum1, _mm_movehl_ps(xsum1, xsum1));
    xsum1 = _mm_add_ss(xsum1, _mm_shuffle_ps(xsum1, xsum1, 0x55));
    _mm_store_ss(xy1, xsum1);
    xsum2 = _mm_add_ps(xsum2, _mm_movehl_ps(xsum2, xsum2));
    xsum2 = _mm_add_ss(xsum2, _mm_shuffle_ps(xsum2, xsum2, 0x55));
    _mm_store_ss(xy2, xsum2);
    for (; i < n; i++) {
        *xy1 = *xy1 + x[i] * y01[i];
        *xy2 = *xy2 + x[i] * y02[i];
    }
}

float ct_opus_inner_prod_sse(const float *x, const float *y, int n)
{
    int i;
    float xy;
    __m128 sum;
    sum = _mm_setzero_ps();
    for (i = 0; i < n - 3; i += 4) {
        __m128 xi = _mm_loadu_ps(x + i);
        __m128 yi = _mm_loadu_ps(y + i);
        sum = _mm_add_ps(sum, _mm_mul_ps(xi, yi));
    }
    /* lanes (0 + 2) + (1 + 3) */
    sum = _mm_add_ps(sum, _mm_movehl_ps(sum, sum));
    sum = _mm_add_ss(sum, _mm_shuffle_ps(sum, sum, 0x55));
    _mm_store_ss(&xy, sum);
    for (; i < n; i++)
        xy = xy + x[i] * y[i];
    return xy;
}

void ct_opus_comb_filter_const_sse(float *y, const float *x, int t, int n, float g10, float g11,
                                   float g12)
{
    int i;
    __m128 x0v;
    __m128 g10v, g11v, g12v;
    g10v = _mm_load1_ps(&g10);
    g11v = _mm_load1_ps(&g11);
    g12v = _mm_load1_ps(&g12);
    x0v = _mm_loadu_ps(&x[-t - 2]);
    for (i = 0; i < n - 3; i += 4) {
        __m128 yi, yi2, x1v, x2v, x3v, x4v;
        const float *xp = &x[i - t - 2];
        yi = _mm_loadu_ps(x + i);
        x4v = _mm_loadu_ps(xp + 4);
        /* x[i - t - 1 .. i - t + 1 + 3] from the two loads */
        x2v = _mm_shuffle_ps(x0v, x4v, 0x4e);
        x1v = _mm_shuffle_ps(x0v, x2v, 0x99);
        x3v = _mm_shuffle_ps(x2v, x4v, 0x99);

        yi = _mm_add_ps(yi, _mm_mul_ps(g10v, x2v));
        /* the partial sums: not the C code's order */
        yi2 = _mm_add_ps(_mm_mul_ps(g11v, _mm_add_ps(x3v, x1v)),
                         _mm_mul_ps(g12v, _mm_add_ps(x4v, x0v)));
        yi = _mm_add_ps(yi, yi2);
        x0v = x4v;
        _mm_storeu_ps(y + i, yi);
    }
    /* Debian builds with CUSTOM_MODES, which compiles this tail (the
     * standard mode's lengths are multiples of 4 and never reach it). */
    for (; i < n; i++) {
        y[i] = x[i] + g10 * x[i - t] + g11 * (x[i - t + 1] + x[i - t - 1]) +
               g12 * (x[i - t + 2] + x[i - t - 2]);
    }
}
