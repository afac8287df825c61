/*
 * The scalar references of the psychoacoustic model's kernels (psy_dsp.h)
 * and the choice of a table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/psymodel.c (LGPL-2.0-or-later, the
 * LAME project).
 */
#include "psy_dsp.h"

#include <math.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "util.h"

/* ---- psymodel.c: the spreading function convolution ------------------- */

/* vbrpsy_mask_add: addition of simultaneous masking (Naoki Shibata
 * 2000/7); b is the distance of the partitions in partitions. */
static float mask_add(float m1, float m2, int b, int delta)
{
    float ratio;

    if (m1 < 0) {
        m1 = 0;
    }
    if (m2 < 0) {
        m2 = 0;
    }
    if (m1 <= 0) {
        return m2;
    }
    if (m2 <= 0) {
        return m1;
    }
    if (m2 > m1) {
        ratio = m2 / m1;
    }
    else {
        ratio = m1 / m2;
    }
    if (abs(b) <= delta) { /* approximately, 1 bark = 3 partitions */
        /* originally 'if(i > 8)' */
        if (ratio >= ct_mp3_ma_max_i1) {
            return m1 + m2;
        }
        else {
            int i = (int) (ct_mp3_fast_log10_x(ratio, 16.0f));
            return (m1 + m2) * ct_mp3_mask_add_table2[i];
        }
    }
    if (ratio < ct_mp3_ma_max_i2) {
        return m1 + m2;
    }
    if (m1 < m2) {
        m1 = m2;
    }
    return m1;
}

const float ct_mp3_ma_max_i1 = 3.6517412725483771; /* pow(10, (8 + 1) / 16.0) */
const float ct_mp3_ma_max_i2 = 31.622776601683793; /* pow(10, (23 + 1) / 16.0) */
const float ct_mp3_mask_add_table2[10] = {
    1.33352 * 1.33352, 1.35879 * 1.35879, 1.38454 * 1.38454, 1.39497 * 1.39497,
    1.40548 * 1.40548, 1.3537 * 1.3537, 1.30382 * 1.30382, 1.22321 * 1.22321,
    1.14758 * 1.14758,
    1
};

/* The smallest floats r with (int) fast_log10_x(r, 16.0f) = 1 .. 8: the
 * index into table2 for ratio in [1, ma_max_i1) is the number of these at
 * or below ratio (fast_log2 does not decrease over the range; checkasm
 * checks every float of it). */
const float ct_mp3_mask_add_steps[8] = {
    0x1.279fd2p+0f, 0x1.5561aep+0f, 0x1.8a38a6p+0f, 0x1.c73d58p+0f,
    0x1.06d9fp+1f, 0x1.2f893p+1f, 0x1.5e848ap+1f, 0x1.94c58ap+1f,
};

void ct_mp3_mask_chain_c(int npart, const int (*s3ind)[2], const float *xs,
                         const int *delta, float *ecb)
{
    int b, k = 0;

    for (b = 0; b < npart; b++) {
        int kk = s3ind[b][0];
        int const last = s3ind[b][1];
        float e = xs[k];
        ++k, ++kk;
        while (kk <= last) {
            e = mask_add(e, xs[k], kk - b, delta[b]);
            ++k, ++kk;
        }
        ecb[b] = e;
    }
}

/* ---- psymodel.c: the attack detection's high pass ------------------------ */

#define NSFIRLEN 21

const float ct_mp3_attack_fircoef[10] = {
    -8.65163e-18 * 2, -0.00851586 * 2, -6.74764e-18 * 2, 0.0209036 * 2,
    -3.36639e-17 * 2, -0.0438162 * 2, -1.54175e-17 * 2, 0.0931738 * 2,
    -5.52212e-17 * 2, -0.313819 * 2
};

void ct_mp3_attack_hpf_c(const float *firbuf, float out[576])
{
    const float *const fircoef = ct_mp3_attack_fircoef;
    int i, j;
    for (i = 0; i < 576; i++) {
        float sum1, sum2;
        sum1 = firbuf[i + 10];
        sum2 = 0.0;
        for (j = 0; j < ((NSFIRLEN - 1) / 2) - 1; j += 2) {
            sum1 += fircoef[j] * (firbuf[i + j] + firbuf[i + NSFIRLEN - j]);
            sum2 += fircoef[j + 1] * (firbuf[i + j + 1] + firbuf[i + NSFIRLEN - j - 1]);
        }
        out[i] = sum1 + sum2;
    }
}

void ct_mp3_abs_peaks_c(const float *x, float en[9])
{
    const float *pf = x;
    int i;
    for (i = 0; i < 9; i++) {
        float const *const pfe = pf + 576 / 9;
        float p = 1.;
        for (; pf < pfe; pf++)
            if (p < fabs(*pf))
                p = fabs(*pf);
        en[i] = p;
    }
}

/* ---- the choice ---------------------------------------------------------- */

void ct_mp3_psy_dsp_init(ct_mp3_psy_dsp *dsp, unsigned cpu_flags)
{
    dsp->mask_chain = ct_mp3_mask_chain_c;
    dsp->attack_hpf = ct_mp3_attack_hpf_c;
    dsp->abs_peaks = ct_mp3_abs_peaks_c;
#if defined(__x86_64__)
    if (cpu_flags & CT_CPU_FLAG_SSE2) {
        dsp->mask_chain = ct_mp3_mask_chain_sse2;
        dsp->attack_hpf = ct_mp3_attack_hpf_sse2;
        dsp->abs_peaks = ct_mp3_abs_peaks_sse2;
    }
    if (cpu_flags & CT_CPU_FLAG_AVX2) {
        dsp->mask_chain = ct_mp3_mask_chain_avx2;
        dsp->attack_hpf = ct_mp3_attack_hpf_avx2;
        dsp->abs_peaks = ct_mp3_abs_peaks_avx2;
    }
#else
    (void)cpu_flags;
#endif
}
