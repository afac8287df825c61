/*
 * CELT's comb filter, float build (comb_filter.h): the cross-fade over
 * the overlap in C, the constant filter after it by
 * dsp->comb_filter_const. MULT16_16_P15, MULT16_16_Q15 and MULT16_32_Q15
 * are plain float products; the sums keep the reference's left-to-right
 * order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/celt.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Jean-Marc Valin)
 */
#include "opus/comb_filter.h"

#include <string.h>

/* the taps' gains for each tapset */
static const float gains[3][3] = {{0.3066406250f, 0.2170410156f, 0.1296386719f},
                                  {0.4638671875f, 0.2680664062f, 0.f},
                                  {0.7998046875f, 0.1000976562f, 0.f}};

void ct_celt_comb_filter(float *y, const float *x, int T0, int T1, int N, float g0, float g1,
                         int tapset0, int tapset1, const float *window, int overlap,
                         const ct_opus_dsp *dsp)
{
    int i;
    float g00, g01, g02, g10, g11, g12;
    float x0, x1, x2, x3, x4;

    if (g0 == 0 && g1 == 0) {
        if (x != y)
            memmove(y, x, (size_t)N * sizeof(*y));
        return;
    }
    /* When the gain is zero, T0 and/or T1 is set to zero. We need
       to have then be at least 2 to avoid processing garbage data. */
    T0 = T0 > CT_CELT_COMBFILTER_MINPERIOD ? T0 : CT_CELT_COMBFILTER_MINPERIOD;
    T1 = T1 > CT_CELT_COMBFILTER_MINPERIOD ? T1 : CT_CELT_COMBFILTER_MINPERIOD;
    g00 = g0 * gains[tapset0][0];
    g01 = g0 * gains[tapset0][1];
    g02 = g0 * gains[tapset0][2];
    g10 = g1 * gains[tapset1][0];
    g11 = g1 * gains[tapset1][1];
    g12 = g1 * gains[tapset1][2];
    x1 = x[-T1 + 1];
    x2 = x[-T1];
    x3 = x[-T1 - 1];
    x4 = x[-T1 - 2];
    /* If the filter didn't change, we don't need the overlap */
    if (g0 == g1 && T0 == T1 && tapset0 == tapset1)
        overlap = 0;
    for (i = 0; i < overlap; i++) {
        float f;
        x0 = x[i - T1 + 2];
        f = window[i] * window[i];
        y[i] = x[i] + ((1.0f - f) * g00) * x[i - T0] +
               ((1.0f - f) * g01) * (x[i - T0 + 1] + x[i - T0 - 1]) +
               ((1.0f - f) * g02) * (x[i - T0 + 2] + x[i - T0 - 2]) + (f * g10) * x2 +
               (f * g11) * (x1 + x3) + (f * g12) * (x0 + x4);
        x4 = x3;
        x3 = x2;
        x2 = x1;
        x1 = x0;
    }
    if (g1 == 0) {
        if (x != y)
            memmove(y + overlap, x + overlap, (size_t)(N - overlap) * sizeof(*y));
        return;
    }

    /* Compute the part with the constant filter. */
    dsp->comb_filter_const(y + i, x + i, T1, N - i, g10, g11, g12);
}
