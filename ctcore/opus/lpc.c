/*
 * CELT's LPC helpers, float build (lpc.h): the fixed/float macros expanded
 * to their float meaning (MULT32_32_Q31 a plain product, the shifts and
 * ROUND16 vanish, frac_div32 a float division).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/celt_lpc.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Jean-Marc Valin)
 */
#include "opus/lpc.h"

#include <assert.h>
#include <string.h>

#include "opus/pitch.h"

void ct_celt_lpc(float *_lpc, const float *ac, int p)
{
    int i, j;
    float r;
    float error = ac[0];
    float *lpc = _lpc;

    memset(lpc, 0, (size_t)p * sizeof(*lpc));
    if (ac[0] != 0) {
        for (i = 0; i < p; i++) {
            /* Sum up this iteration's reflection coefficient */
            float rr = 0;
            for (j = 0; j < i; j++)
                rr += lpc[j] * ac[i - j];
            rr += ac[i + 1];
            r = -((float)(rr) / (error));
            /*  Update LPC coefficients and total error */
            lpc[i] = r;
            for (j = 0; j < (i + 1) >> 1; j++) {
                float tmp1, tmp2;
                tmp1 = lpc[j];
                tmp2 = lpc[i - 1 - j];
                lpc[j] = tmp1 + r * tmp2;
                lpc[i - 1 - j] = tmp2 + r * tmp1;
            }

            error = error - r * r * error;
            /* Bail out once we get 30 dB gain */
            if (error < .001f * ac[0])
                break;
        }
    }
}

int ct_celt_autocorr(const float *x, float *ac, const float *window, int overlap, int lag,
                     int n, const ct_opus_dsp *dsp)
{
    float d;
    int i, k;
    int fastN = n - lag;
    int shift;
    const float *xptr;
    float xx[CT_CELT_AUTOCORR_MAX_N];
    assert(n > 0);
    assert(overlap >= 0);
    if (overlap == 0) {
        xptr = x;
    } else {
        assert(n <= CT_CELT_AUTOCORR_MAX_N);
        for (i = 0; i < n; i++)
            xx[i] = x[i];
        for (i = 0; i < overlap; i++) {
            xx[i] = x[i] * window[i];
            xx[n - i - 1] = x[n - i - 1] * window[i];
        }
        xptr = xx;
    }
    shift = 0;
    ct_celt_pitch_xcorr(xptr, xptr, ac, fastN, lag + 1, dsp);
    for (k = 0; k <= lag; k++) {
        for (i = k + fastN, d = 0; i < n; i++)
            d = d + xptr[i] * xptr[i - k];
        ac[k] += d;
    }
    return shift;
}
