/*
 * The scalar references of the MP3 kernels (dsp.h) and the choice of a
 * kernel set.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/vbrquantize.c and takehiro.c
 * (LGPL-2.0-or-later, the LAME project).
 */
#include "dsp.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef union {
    float f;
    int i;
} fi_union;

/* TAKEHIRO_IEEE754_HACK: x + 2^23 as a float holds round(x) in its low
 * mantissa bits; adding adj43asm[round(x)] moves the rounding point so
 * that the integer's 4/3 power is closest to x^4/3. The arithmetic is in
 * double (DOUBLEX). */
#define MAGIC_INT 0x4b000000
static const double MAGIC_FLOAT = 65536 * (128);

static int k_34(const float *adj43asm, double x)
{
    fi_union fi;

    x += MAGIC_FLOAT;
    fi.f = x;
    fi.f = x + adj43asm[fi.i - MAGIC_INT];
    return fi.i - MAGIC_INT;
}

/* The last bw % 4 lines (LAME's "remaining"), added to xfsf. */
static float sfb_noise_x34_rest(const float *pow43, const float *adj43asm, const float *xr,
                                const float *xr34, unsigned int remaining, float sfpow,
                                float sfpow34, float xfsf)
{
    double x[4];
    int l3[4];

    if (remaining) {
        x[0] = x[1] = x[2] = x[3] = 0;
        switch (remaining) {
        case 3:
            x[2] = sfpow34 * xr34[2];
            /* fall through */
        case 2:
            x[1] = sfpow34 * xr34[1];
            /* fall through */
        case 1:
            x[0] = sfpow34 * xr34[0];
        }

        l3[0] = k_34(adj43asm, x[0]);
        l3[1] = k_34(adj43asm, x[1]);
        l3[2] = k_34(adj43asm, x[2]);
        l3[3] = k_34(adj43asm, x[3]);
        x[0] = x[1] = x[2] = x[3] = 0;

        switch (remaining) {
        case 3:
            x[2] = fabsf(xr[2]) - sfpow * pow43[l3[2]];
            /* fall through */
        case 2:
            x[1] = fabsf(xr[1]) - sfpow * pow43[l3[1]];
            /* fall through */
        case 1:
            x[0] = fabsf(xr[0]) - sfpow * pow43[l3[0]];
        }
        xfsf += (x[0] * x[0] + x[1] * x[1]) + (x[2] * x[2] + x[3] * x[3]);
    }
    return xfsf;
}

float ct_mp3_sfb_noise_x34_c(const float *pow43, const float *adj43asm, const float *xr,
                             const float *xr34, unsigned int bw, float sfpow,
                             float sfpow34)
{
    double x[4];
    int l3[4];
    float xfsf = 0;
    unsigned int i = bw >> 2u;
    unsigned int const remaining = (bw & 0x03u);

    while (i-- > 0) {
        x[0] = sfpow34 * xr34[0];
        x[1] = sfpow34 * xr34[1];
        x[2] = sfpow34 * xr34[2];
        x[3] = sfpow34 * xr34[3];

        l3[0] = k_34(adj43asm, x[0]);
        l3[1] = k_34(adj43asm, x[1]);
        l3[2] = k_34(adj43asm, x[2]);
        l3[3] = k_34(adj43asm, x[3]);

        x[0] = fabsf(xr[0]) - sfpow * pow43[l3[0]];
        x[1] = fabsf(xr[1]) - sfpow * pow43[l3[1]];
        x[2] = fabsf(xr[2]) - sfpow * pow43[l3[2]];
        x[3] = fabsf(xr[3]) - sfpow * pow43[l3[3]];
        xfsf += (x[0] * x[0] + x[1] * x[1]) + (x[2] * x[2] + x[3] * x[3]);

        xr += 4;
        xr34 += 4;
    }
    return sfb_noise_x34_rest(pow43, adj43asm, xr, xr34, remaining, sfpow, sfpow34, xfsf);
}

void ct_mp3_quantize_x34_c(const float *adj43asm, float istep, const float *xr34, int *ix,
                           unsigned int n)
{
    unsigned int i;
    for (i = 0; i < n; i++) {
        double const x = istep * xr34[i];
        ix[i] = k_34(adj43asm, x);
    }
}

/* ---- quantize.c: xr^3/4 ------------------------------------------------- */

float ct_mp3_init_xrpow_c(const float *xr, float *xrpow, int n, float *sum, float max)
{
    float s = *sum;
    int i;
    for (i = 0; i < n; ++i) {
        float tmp = fabs(xr[i]);
        s += tmp;
        xrpow[i] = sqrt(tmp * sqrt(tmp));

        if (xrpow[i] > max)
            max = xrpow[i];
    }
    *sum = s;
    return max;
}

float ct_mp3_amp_xrpow_c(float *x, int n, float f, float max)
{
    int i;
    for (i = 0; i < n; i++) {
        x[i] *= f;
        if (x[i] > max)
            max = x[i];
    }
    return max;
}

/* ---- takehiro.c --------------------------------------------------------- */

int ct_mp3_ix_max_c(const int *ix, int n)
{
    const int *const end = ix + n;
    int max1 = 0, max2 = 0;

    do {
        int const x1 = *ix++;
        int const x2 = *ix++;
        if (max1 < x1)
            max1 = x1;
        if (max2 < x2)
            max2 = x2;
    } while (ix < end);
    if (max1 < max2)
        max1 = max2;
    return max1;
}

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

/* ---- gain_analysis.c: the equal loudness filter ------------------------ */

/* filterYule: input[-10..0] and output[-10..-1] must be valid. */
static void filter_yule(const float *input, float *output, size_t nSamples,
                        const float *const kernel)
{
    while (nSamples--) {
        float y0 = input[-10] * kernel[0];
        float y2 = input[-9] * kernel[1];
        float y4 = input[-8] * kernel[2];
        float y6 = input[-7] * kernel[3];
        float s00 = y0 + y2 + y4 + y6;
        float y8 = input[-6] * kernel[4];
        float yA = input[-5] * kernel[5];
        float yC = input[-4] * kernel[6];
        float yE = input[-3] * kernel[7];
        float s01 = y8 + yA + yC + yE;
        float yG = input[-2] * kernel[8] + input[-1] * kernel[9];
        float yK = input[0] * kernel[10];

        float s1 = s00 + s01 + yG + yK;

        float x1 = output[-10] * kernel[11] + output[-9] * kernel[12];
        float x5 = output[-8] * kernel[13] + output[-7] * kernel[14];
        float x9 = output[-6] * kernel[15] + output[-5] * kernel[16];
        float xD = output[-4] * kernel[17] + output[-3] * kernel[18];
        float xH = output[-2] * kernel[19] + output[-1] * kernel[20];

        float s2 = x1 + x5 + x9 + xD + xH;

        output[0] = (float)(s1 - s2);

        ++output;
        ++input;
    }
}

static void filter_butter(const float *input, float *output, size_t nSamples,
                          const float *const kernel)
{
    while (nSamples--) {
        float s1 = input[-2] * kernel[0] + input[-1] * kernel[2] + input[0] * kernel[4];
        float s2 = output[-2] * kernel[1] + output[-1] * kernel[3];
        output[0] = (float)(s1 - s2);
        ++output;
        ++input;
    }
}

void ct_mp3_rg_filter_c(const float *in_l, const float *in_r, float *step_l, float *step_r,
                        float *out_l, float *out_r, size_t n, const float *yule,
                        const float *butter)
{
    filter_yule(in_l, step_l, n, yule);
    filter_yule(in_r, step_r, n, yule);
    filter_butter(step_l, out_l, n, butter);
    filter_butter(step_r, out_r, n, butter);
}

/* ---- fft.c: the fast Hartley transform ----------------------------------- */

const float ct_mp3_fht_costab[CT_MP3_FHT_TRI_SIZE * 2] = {
    9.238795325112867e-01, 3.826834323650898e-01,
    9.951847266721969e-01, 9.801714032956060e-02,
    9.996988186962042e-01, 2.454122852291229e-02,
    9.999811752826011e-01, 6.135884649154475e-03
};

/* fht: Hartley transform of 2 * n points of fz, in place. */
void ct_mp3_fht_c(float *fz, int n)
{
    const float *tri = ct_mp3_fht_costab;
    int k4;
    float *fi, *gi;
    float const *fn;

    n <<= 1; /* to get BLKSIZE: LAME's 3DNow! routine took n / 2 */
    fn = fz + n;
    k4 = 4;
    do {
        float s1, c1;
        int i, k1, k2, k3, kx;
        kx = k4 >> 1;
        k1 = k4;
        k2 = k4 << 1;
        k3 = k2 + k1;
        k4 = k2 << 1;
        fi = fz;
        gi = fi + kx;
        do {
            float f0, f1, f2, f3;
            f1 = fi[0] - fi[k1];
            f0 = fi[0] + fi[k1];
            f3 = fi[k2] - fi[k3];
            f2 = fi[k2] + fi[k3];
            fi[k2] = f0 - f2;
            fi[0] = f0 + f2;
            fi[k3] = f1 - f3;
            fi[k1] = f1 + f3;
            f1 = gi[0] - gi[k1];
            f0 = gi[0] + gi[k1];
            f3 = SQRT2 * gi[k3];
            f2 = SQRT2 * gi[k2];
            gi[k2] = f0 - f2;
            gi[0] = f0 + f2;
            gi[k3] = f1 - f3;
            gi[k1] = f1 + f3;
            gi += k4;
            fi += k4;
        } while (fi < fn);
        c1 = tri[0];
        s1 = tri[1];
        for (i = 1; i < kx; i++) {
            float c2, s2;
            c2 = 1 - (2 * s1) * s1;
            s2 = (2 * s1) * c1;
            fi = fz + i;
            gi = fz + k1 - i;
            do {
                float a, b, g0, f0, f1, g1, f2, g2, f3, g3;
                b = s2 * fi[k1] - c2 * gi[k1];
                a = c2 * fi[k1] + s2 * gi[k1];
                f1 = fi[0] - a;
                f0 = fi[0] + a;
                g1 = gi[0] - b;
                g0 = gi[0] + b;
                b = s2 * fi[k3] - c2 * gi[k3];
                a = c2 * fi[k3] + s2 * gi[k3];
                f3 = fi[k2] - a;
                f2 = fi[k2] + a;
                g3 = gi[k2] - b;
                g2 = gi[k2] + b;
                b = s1 * f2 - c1 * g3;
                a = c1 * f2 + s1 * g3;
                fi[k2] = f0 - a;
                fi[0] = f0 + a;
                gi[k3] = g1 - b;
                gi[k1] = g1 + b;
                b = c1 * g2 - s1 * f3;
                a = s1 * g2 + c1 * f3;
                gi[k2] = g0 - a;
                gi[0] = g0 + a;
                fi[k3] = f1 - b;
                fi[k1] = f1 + b;
                gi += k4;
                fi += k4;
            } while (fi < fn);
            c2 = c1;
            c1 = c2 * tri[0] - s1 * tri[1];
            s1 = c2 * tri[1] + s1 * tri[0];
        }
        tri += 2;
    } while (k4 < n);
}

/* ---- newmdct.c: the polyphase window --------------------------------------- */

void ct_mp3_window_subband_c(const float *x1, float a[32])
{
    int i;
    float const *wp = ct_mp3_enwindow + 10;

    const float *x2 = &x1[238 - 14 - 286];

    for (i = -15; i < 0; i++) {
        float w, s, t;

        w = wp[-10];
        s = x2[-224] * w;
        t = x1[224] * w;
        w = wp[-9];
        s += x2[-160] * w;
        t += x1[160] * w;
        w = wp[-8];
        s += x2[-96] * w;
        t += x1[96] * w;
        w = wp[-7];
        s += x2[-32] * w;
        t += x1[32] * w;
        w = wp[-6];
        s += x2[32] * w;
        t += x1[-32] * w;
        w = wp[-5];
        s += x2[96] * w;
        t += x1[-96] * w;
        w = wp[-4];
        s += x2[160] * w;
        t += x1[-160] * w;
        w = wp[-3];
        s += x2[224] * w;
        t += x1[-224] * w;

        w = wp[-2];
        s += x1[-256] * w;
        t -= x2[256] * w;
        w = wp[-1];
        s += x1[-192] * w;
        t -= x2[192] * w;
        w = wp[0];
        s += x1[-128] * w;
        t -= x2[128] * w;
        w = wp[1];
        s += x1[-64] * w;
        t -= x2[64] * w;
        w = wp[2];
        s += x1[0] * w;
        t -= x2[0] * w;
        w = wp[3];
        s += x1[64] * w;
        t -= x2[-64] * w;
        w = wp[4];
        s += x1[128] * w;
        t -= x2[-128] * w;
        w = wp[5];
        s += x1[192] * w;
        t -= x2[-192] * w;

        /* this multiplier could be removed, but it needs 256 more floats
         * of table: not worth the data cache (tt 2000/Oct/25) */
        s *= wp[6];
        w = t - s;
        a[30 + i * 2] = t + s;
        a[31 + i * 2] = wp[7] * w;
        wp += 18;
        x1--;
        x2++;
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

static const ct_mp3_dsp dsp_c = {
    ct_mp3_sfb_noise_x34_c,
    ct_mp3_quantize_x34_c,
    ct_mp3_mask_chain_c,
    ct_mp3_rg_filter_c,
    ct_mp3_fht_c,
    ct_mp3_window_subband_c,
    ct_mp3_init_xrpow_c,
    ct_mp3_amp_xrpow_c,
    ct_mp3_ix_max_c,
    ct_mp3_attack_hpf_c,
    ct_mp3_abs_peaks_c,
};

#if defined(__x86_64__)
static const ct_mp3_dsp dsp_sse2 = {
    ct_mp3_sfb_noise_x34_sse2,
    ct_mp3_quantize_x34_sse2,
    ct_mp3_mask_chain_sse2,
    ct_mp3_rg_filter_sse2,
    ct_mp3_fht_sse2,
    ct_mp3_window_subband_sse2,
    ct_mp3_init_xrpow_sse2,
    ct_mp3_amp_xrpow_sse2,
    ct_mp3_ix_max_sse2,
    ct_mp3_attack_hpf_sse2,
    ct_mp3_abs_peaks_sse2,
};

static const ct_mp3_dsp dsp_avx2 = {
    ct_mp3_sfb_noise_x34_avx2,
    ct_mp3_quantize_x34_avx2,
    ct_mp3_mask_chain_avx2,
    ct_mp3_rg_filter_sse2,
    ct_mp3_fht_avx2,
    ct_mp3_window_subband_avx2,
    ct_mp3_init_xrpow_avx2,
    ct_mp3_amp_xrpow_avx2,
    ct_mp3_ix_max_avx2,
    ct_mp3_attack_hpf_avx2,
    ct_mp3_abs_peaks_avx2,
};
#endif

const ct_mp3_dsp *ct_mp3_dsp_get_isa(ct_mp3_dsp_isa isa)
{
    switch (isa) {
    case CT_MP3_DSP_C:
        return &dsp_c;
#if defined(__x86_64__)
    case CT_MP3_DSP_SSE2:
        return &dsp_sse2;
    case CT_MP3_DSP_AVX2:
        return ct_mp3_cpu_has_avx2() ? &dsp_avx2 : NULL;
#endif
    default:
        return NULL;
    }
}

static const ct_mp3_dsp *dsp_best;

static void dsp_choose(void)
{
    const char *env = getenv("CT_MP3_DSP");
    const ct_mp3_dsp *d = NULL;

    if (env != NULL) {
        if (strcmp(env, "c") == 0)
            d = ct_mp3_dsp_get_isa(CT_MP3_DSP_C);
        else if (strcmp(env, "sse2") == 0)
            d = ct_mp3_dsp_get_isa(CT_MP3_DSP_SSE2);
        else if (strcmp(env, "avx2") == 0)
            d = ct_mp3_dsp_get_isa(CT_MP3_DSP_AVX2);
    }
    if (d == NULL)
        d = ct_mp3_dsp_get_isa(CT_MP3_DSP_AVX2);
    if (d == NULL)
        d = ct_mp3_dsp_get_isa(CT_MP3_DSP_SSE2);
    if (d == NULL)
        d = &dsp_c;
    dsp_best = d;
}

const ct_mp3_dsp *ct_mp3_dsp_get(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, dsp_choose);
    return dsp_best;
}
