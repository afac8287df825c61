/*
 * The scalar references of the quantization's kernels (quantize_dsp.h)
 * and the choice of a table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/vbrquantize.c, takehiro.c and
 * quantize.c (LGPL-2.0-or-later, the LAME project).
 */
#include "quantize_dsp.h"

#include <math.h>

#include "common/cpu.h"

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
                             float sfpow34, float limit)
{
    double x[4];
    int l3[4];
    float xfsf = 0;
    unsigned int const groups = bw >> 2u;
    unsigned int const remaining = (bw & 0x03u);
    unsigned int g;

    for (g = 0; g < groups; g++) {
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
        if ((g & 1u) && xfsf > limit)
            return xfsf;
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

uint32_t ct_mp3_pair_sum32_c(const uint32_t *table, unsigned int xlen, const int *ix, int n)
{
    uint32_t sum = 0;
    int i;

    for (i = 0; i < n; i += 2)
        sum += table[(unsigned int) ix[i] * xlen + (unsigned int) ix[i + 1]];
    return sum;
}

uint64_t ct_mp3_pair_sum64_c(const uint64_t *table, unsigned int xlen, const int *ix, int n)
{
    uint64_t sum = 0;
    int i;

    for (i = 0; i < n; i += 2)
        sum += table[(unsigned int) ix[i] * xlen + (unsigned int) ix[i + 1]];
    return sum;
}

uint32_t ct_mp3_pair_sum_esc_c(const uint32_t *largetbl, const int *ix, int n,
                               unsigned int *nesc)
{
    uint32_t sum = 0;
    unsigned int esc = 0;
    int i;

    for (i = 0; i < n; i += 2) {
        unsigned int x = (unsigned int) ix[i];
        unsigned int y = (unsigned int) ix[i + 1];
        if (x >= 15u) {
            x = 15u;
            esc++;
        }
        if (y >= 15u) {
            y = 15u;
            esc++;
        }
        sum += largetbl[x * 16u + y];
    }
    *nesc = esc;
    return sum;
}

int ct_mp3_zero_pairs_end_c(const int *ix, int i)
{
    for (; i > 1; i -= 2)
        if (ix[i - 1] | ix[i - 2])
            break;
    return i;
}

int ct_mp3_count1_quads_c(const int *ix, int i, const uint8_t *t32l, const uint8_t *t33l,
                          int *a1, int *a2)
{
    for (; i > 3; i -= 4) {
        int x4 = ix[i - 4];
        int x3 = ix[i - 3];
        int x2 = ix[i - 2];
        int x1 = ix[i - 1];
        int p;
        /* hack to check if all values <= 1 */
        if ((unsigned int) (x4 | x3 | x2 | x1) > 1)
            break;

        p = ((x4 * 2 + x3) * 2 + x2) * 2 + x1;
        *a1 += t32l[p];
        *a2 += t33l[p];
    }
    return i;
}

/* ---- the choice ---------------------------------------------------------- */

void ct_mp3_quantize_dsp_init(ct_mp3_quantize_dsp *dsp, unsigned cpu_flags)
{
    dsp->sfb_noise_x34 = ct_mp3_sfb_noise_x34_c;
    dsp->quantize_x34 = ct_mp3_quantize_x34_c;
    dsp->init_xrpow = ct_mp3_init_xrpow_c;
    dsp->amp_xrpow = ct_mp3_amp_xrpow_c;
    dsp->ix_max = ct_mp3_ix_max_c;
    dsp->pair_sum32 = ct_mp3_pair_sum32_c;
    dsp->pair_sum64 = ct_mp3_pair_sum64_c;
    dsp->pair_sum_esc = ct_mp3_pair_sum_esc_c;
    dsp->zero_pairs_end = ct_mp3_zero_pairs_end_c;
    dsp->count1_quads = ct_mp3_count1_quads_c;
#if defined(__x86_64__)
    if (cpu_flags & CT_CPU_FLAG_SSE2) {
        dsp->sfb_noise_x34 = ct_mp3_sfb_noise_x34_sse2;
        dsp->quantize_x34 = ct_mp3_quantize_x34_sse2;
        dsp->init_xrpow = ct_mp3_init_xrpow_sse2;
        dsp->amp_xrpow = ct_mp3_amp_xrpow_sse2;
        dsp->ix_max = ct_mp3_ix_max_sse2;
    }
    if (cpu_flags & CT_CPU_FLAG_AVX2) {
        dsp->sfb_noise_x34 = ct_mp3_sfb_noise_x34_avx2;
        dsp->quantize_x34 = ct_mp3_quantize_x34_avx2;
        dsp->init_xrpow = ct_mp3_init_xrpow_avx2;
        dsp->amp_xrpow = ct_mp3_amp_xrpow_avx2;
        dsp->ix_max = ct_mp3_ix_max_avx2;
        dsp->pair_sum32 = ct_mp3_pair_sum32_avx2;
        dsp->pair_sum64 = ct_mp3_pair_sum64_avx2;
        dsp->pair_sum_esc = ct_mp3_pair_sum_esc_avx2;
        dsp->zero_pairs_end = ct_mp3_zero_pairs_end_avx2;
        dsp->count1_quads = ct_mp3_count1_quads_avx2;
    }
#else
    (void)cpu_flags;
#endif
}
