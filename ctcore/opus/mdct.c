/*
 * CELT's forward MDCT in the float build. Ports clt_mdct_forward_c of
 * celt/mdct.c (its `arch` was unused). The transform is computed through
 * an N/4-point complex FFT: window, shuffle and fold the input, pre-rotate,
 * FFT, post-rotate.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "mdct.h"

/* The largest transform is the standard mode's 1920 (N2 = 960, N4 = 480) */
#define MDCT_MAX_N 1920

void ct_clt_mdct_forward(const ct_mdct_lookup *l, float *in,
                         float *restrict out, const float *window,
                         int overlap, int shift, int stride,
                         const ct_opus_dsp *dsp)
{
    int i;
    int N, N2, N4;
    float f[MDCT_MAX_N / 2];
    ct_fft_cpx f2[MDCT_MAX_N / 4];
    const ct_fft_state *st = l->kfft[shift];
    const float *trig;
    float scale;
    scale = st->scale;

    N = l->n;
    trig = l->trig;
    for (i = 0; i < shift; i++) {
        N >>= 1;
        trig += N;
    }
    N2 = N >> 1;
    N4 = N >> 2;

    /* Consider the input to be composed of four blocks: [a, b, c, d] */
    /* Window, shuffle, fold */
    {
        const float *restrict xp1 = in + (overlap >> 1);
        const float *restrict xp2 = in + N2 - 1 + (overlap >> 1);
        float *restrict yp = f;
        const float *restrict wp1 = window + (overlap >> 1);
        const float *restrict wp2 = window + (overlap >> 1) - 1;
        for (i = 0; i < ((overlap + 3) >> 2); i++) {
            /* Real part arranged as -d-cR, Imag part arranged as -b+aR */
            *yp++ = *wp2 * xp1[N2] + *wp1 * *xp2;
            *yp++ = *wp1 * *xp1 - *wp2 * xp2[-N2];
            xp1 += 2;
            xp2 -= 2;
            wp1 += 2;
            wp2 -= 2;
        }
        wp1 = window;
        wp2 = window + overlap - 1;
        for (; i < N4 - ((overlap + 3) >> 2); i++) {
            /* Real part arranged as a-bR, Imag part arranged as -c-dR */
            *yp++ = *xp2;
            *yp++ = *xp1;
            xp1 += 2;
            xp2 -= 2;
        }
        for (; i < N4; i++) {
            /* Real part arranged as a-bR, Imag part arranged as -c-dR */
            *yp++ = -(*wp1 * xp1[-N2]) + *wp2 * *xp2;
            *yp++ = *wp2 * *xp1 + *wp1 * xp2[N2];
            xp1 += 2;
            xp2 -= 2;
            wp1 += 2;
            wp2 -= 2;
        }
    }
    /* Pre-rotation */
    {
        float *restrict yp = f;
        const float *t = &trig[0];
        for (i = 0; i < N4; i++) {
            ct_fft_cpx yc;
            float t0, t1;
            float re, im, yr, yi;
            t0 = t[i];
            t1 = t[N4 + i];
            re = *yp++;
            im = *yp++;
            yr = re * t0 - im * t1;
            yi = im * t0 + re * t1;
            yc.r = yr;
            yc.i = yi;
            yc.r = scale * yc.r;
            yc.i = scale * yc.i;
            f2[st->bitrev[i]] = yc;
        }
    }

    /* N/4 complex FFT, does not downscale anymore */
    dsp->fft_impl(st, f2);

    /* Post-rotate */
    {
        const ct_fft_cpx *restrict fp = f2;
        float *restrict yp1 = out;
        float *restrict yp2 = out + stride * (N2 - 1);
        const float *t = &trig[0];
        for (i = 0; i < N4; i++) {
            float yr, yi;
            yr = fp->i * t[N4 + i] - fp->r * t[i];
            yi = fp->r * t[N4 + i] + fp->i * t[i];
            *yp1 = yr;
            *yp2 = yi;
            fp++;
            yp1 += 2 * stride;
            yp2 -= 2 * stride;
        }
    }
}
