/*
 * checkasm for the MP3 encoder's kernels (mp3/dsp.h: the tables of
 * quantize_dsp.h, psy_dsp.h, fft_dsp.h, mdct_dsp.h and replaygain_dsp.h).
 * Inputs are random and edge values in the ranges the encoder feeds each
 * kernel, with sizes that are not multiples of the vector width.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "common/cpu.h"
#include "mp3/dsp.h"
#include "mp3/tables.h"
#include "mp3/util.h"

#define ITERATIONS   400
#define IXMAX_VAL    8206
#define PRECALC_SIZE (IXMAX_VAL + 2)
#define Q_MAX        (256 + 1)
#define Q_MAX2       116

/* The tables and buffers of a level's run. */
typedef struct mp3_buffers {
    /* the quantization tables, as ct_mp3_iteration_init fills them */
    float pow43[PRECALC_SIZE];
    float adj43asm[PRECALC_SIZE];
    float ipow20[Q_MAX];
    float pow20[Q_MAX + Q_MAX2 + 1];
    /* inputs (with margin: kernels must not read past their lengths) */
    float xr[576 + 16];
    float xr34[576 + 16];
    int ix_ref[576 + 16];
    int ix_opt[576 + 16];
} mp3_buffers;

/* uniform in [0, 1) */
static float rand_unit(void)
{
    return checkasm_rand_float(0.0f, 1.0f);
}

static void init_tables(mp3_buffers *t)
{
    t->pow43[0] = 0.0;
    for (int i = 1; i < PRECALC_SIZE; i++)
        t->pow43[i] = pow((float)i, 4.0 / 3.0);
    t->adj43asm[0] = 0.0;
    for (int i = 1; i < PRECALC_SIZE; i++)
        t->adj43asm[i] =
            i - 0.5 - pow(0.5 * (t->pow43[i - 1] + t->pow43[i]), 0.75);
    for (int i = 0; i < Q_MAX; i++)
        t->ipow20[i] = pow(2.0, (double)(i - 210) * -0.1875);
    for (int i = 0; i <= Q_MAX + Q_MAX2; i++)
        t->pow20[i] = pow(2.0, (double)(i - 210 - Q_MAX2) * 0.25);
}

/* MDCT-like lines: random signs, magnitudes spread over many octaves, with
 * runs of zeros, repeated values and powers of two; xr34 = |xr|^3/4 as
 * init_xrpow computes it. */
static void fill_lines(mp3_buffers *t, int n)
{
    const int mode = checkasm_rand_int(0, 3);
    const float scale = ldexpf(1.0f, checkasm_rand_int(-20, 14));
    const float plateau = scale * rand_unit();
    for (int i = 0; i < n + 16; i++) {
        float v;
        switch (mode) {
        case 0:
            v = scale * rand_unit();
            break;
        case 1:
            v = scale * ldexpf(rand_unit(), -checkasm_rand_int(0, 24));
            break;
        case 2:
            v = (checkasm_rand() & 3) ? plateau : 0.0f;
            break;
        default:
            v = (checkasm_rand() & 1)
                    ? 0.0f
                    : ldexpf(1.0f, checkasm_rand_int(-30, 12));
            break;
        }
        if (checkasm_rand() & 1)
            v = -v;
        t->xr[i] = v;
        const float tmp = fabsf(v);
        t->xr34[i] = sqrt(tmp * sqrt(tmp));
    }
}

/* The smallest scalefactor with ipow20[sf] * xr34 <= IXMAX_VAL for the
 * largest of xr34[0 .. n). */
static int lowest_sf(const mp3_buffers *t, int n)
{
    float m = 0;
    for (int i = 0; i < n; i++)
        if (m < t->xr34[i])
            m = t->xr34[i];
    for (int sf = 0; sf < 256; sf++)
        if (t->ipow20[sf] * m <= IXMAX_VAL)
            return sf;
    return 256;
}

/* A scalefactor for lines [0 .. n): the lowest one, or up to 40 above it;
 * -1 when even the highest quantizes past IXMAX_VAL. */
static int pick_sf(const mp3_buffers *t, int n)
{
    const int lo = lowest_sf(t, n);
    if (lo > 255)
        return -1;
    return (checkasm_rand() & 3)
               ? checkasm_rand_int(lo, lo + 40 > 255 ? 255 : lo + 40)
               : lo;
}

/* The bench's granule: 576 lines and a scalefactor that quantizes them. */
static int fill_granule(mp3_buffers *t)
{
    int sf;
    do {
        fill_lines(t, 576);
        sf = pick_sf(t, 576);
    } while (sf < 0);
    return sf;
}

/* The limit of a call: none (+inf, the whole sum), 0, the whole sum itself
 * (never exceeded), or a random fraction of it up to 1.25. */
static float pick_limit(float whole)
{
    switch (checkasm_rand_int(0, 4)) {
    case 0:
        return INFINITY;
    case 1:
        return 0.0f;
    case 2:
        return whole;
    default:
        return whole * checkasm_rand_float(0.0f, 1.25f);
    }
}

static void check_sfb_noise_x34(const ct_mp3_quantize_dsp *ref,
                                const ct_mp3_quantize_dsp *opt, mp3_buffers *t)
{
    if (!checkasm_check_func(opt->sfb_noise_x34, ref->sfb_noise_x34,
                             "mp3_sfb_noise_x34"))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const int bw = (it < 64) ? it : checkasm_rand_int(0, 576);
        fill_lines(t, bw);
        const int sf = pick_sf(t, bw);
        if (sf < 0)
            continue;
        const float sfpow = t->pow20[sf + Q_MAX2], sfpow34 = t->ipow20[sf];
        const float whole =
            ref->sfb_noise_x34(t->pow43, t->adj43asm, t->xr, t->xr34,
                               (unsigned int)bw, sfpow, sfpow34, INFINITY);
        const float limit = pick_limit(whole);
        const float a =
            ref->sfb_noise_x34(t->pow43, t->adj43asm, t->xr, t->xr34,
                               (unsigned int)bw, sfpow, sfpow34, limit);
        const float b =
            opt->sfb_noise_x34(t->pow43, t->adj43asm, t->xr, t->xr34,
                               (unsigned int)bw, sfpow, sfpow34, limit);
        if (checkasm_check_bits("noise", &a, &b, sizeof(a), it))
            break;
        /* the search's question has the same answer: a sum that stopped
         * exceeds the limit, one that did not is the whole sum */
        if ((a > limit) != (whole > limit) || (!(a > limit) && a != whole)) {
            checkasm_fail("noise: iteration %d stopped wrongly", it);
            break;
        }
    }
    const int sf = fill_granule(t);
    CHECKASM_BENCH(
        ref->sfb_noise_x34(t->pow43, t->adj43asm, t->xr, t->xr34, 576,
                           t->pow20[sf + Q_MAX2], t->ipow20[sf], INFINITY),
        opt->sfb_noise_x34(t->pow43, t->adj43asm, t->xr, t->xr34, 576,
                           t->pow20[sf + Q_MAX2], t->ipow20[sf], INFINITY));
}

static void check_quantize_x34(const ct_mp3_quantize_dsp *ref,
                               const ct_mp3_quantize_dsp *opt, mp3_buffers *t)
{
    if (!checkasm_check_func(opt->quantize_x34, ref->quantize_x34,
                             "mp3_quantize_x34"))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = (it < 64) ? it : checkasm_rand_int(0, 576);
        fill_lines(t, n);
        const int sf = pick_sf(t, n);
        if (sf < 0)
            continue;
        if (it % 7 == 0) {
            /* values at the rounding points: x + adj43asm[round(x)] =
             * k + 0.5 */
            for (int i = 0; i < n; i++) {
                const int k = checkasm_rand_int(0, 100);
                t->xr34[i] = ((float)k + 0.5f - t->adj43asm[k]) / t->ipow20[sf];
                if (checkasm_rand() & 1)
                    t->xr34[i] = nextafterf(
                        t->xr34[i], (checkasm_rand() & 1) ? 0.0f : 1e9f);
            }
        }
        memset(t->ix_ref, 0x55, sizeof(t->ix_ref));
        memset(t->ix_opt, 0x55, sizeof(t->ix_opt));
        ref->quantize_x34(t->adj43asm, t->ipow20[sf], t->xr34, t->ix_ref,
                          (unsigned int)n);
        opt->quantize_x34(t->adj43asm, t->ipow20[sf], t->xr34, t->ix_opt,
                          (unsigned int)n);
        if (checkasm_check_bits("ix", t->ix_ref, t->ix_opt, sizeof(t->ix_ref),
                                it))
            break;
    }
    /* Every float x = xr34 (istep 1) from 0 to IXMAX_VAL: all of them
     * from 0.5 to 16 (the tables' entries in registers), every 61st
     * elsewhere, every one with --exhaustive (about 1.2 billion). */
    float x = 0.0f;
    for (long n = 0; x <= IXMAX_VAL; n++) {
        int k = 0;
        for (; k < 576 && x <= IXMAX_VAL; k++) {
            t->xr34[k] = x;
            x = nextafterf(x, INFINITY);
            if ((x < 0.5f || x >= 16.0f) && !checkasm_exhaustive()) {
                uint32_t u;
                memcpy(&u, &x, sizeof(u));
                u += 60;
                memcpy(&x, &u, sizeof(x));
            }
        }
        ref->quantize_x34(t->adj43asm, 1.0f, t->xr34, t->ix_ref,
                          (unsigned int)k);
        opt->quantize_x34(t->adj43asm, 1.0f, t->xr34, t->ix_opt,
                          (unsigned int)k);
        if (checkasm_check_bits("ix of every float", t->ix_ref, t->ix_opt,
                                sizeof(int) * (size_t)k, (int)n))
            break;
    }
    const int sf = fill_granule(t);
    CHECKASM_BENCH(
        ref->quantize_x34(t->adj43asm, t->ipow20[sf], t->xr34, t->ix_ref, 576),
        opt->quantize_x34(t->adj43asm, t->ipow20[sf], t->xr34, t->ix_opt, 576));
}

/* The vector mask_add finds table2's index (int) fast_log10_x(ratio, 16)
 * by comparing ratio with ct_mp3_mask_add_steps: the same index for every
 * float ratio in [1, ma_max_i1), the range where it is used. */
static void check_mask_add_steps(void)
{
    float r = 1.0f;
    while (r < ct_mp3_ma_max_i1) {
        const int i = (int)(ct_mp3_fast_log10_x(r, 16.0f));
        int n = 0;
        for (int j = 0; j < 8; j++)
            n += r >= ct_mp3_mask_add_steps[j];
        if (i != n) {
            checkasm_fail("mask_add_steps: at %a (index %d, steps %d)",
                          (double)r, i, n);
            return;
        }
        r = nextafterf(r, 4.0f);
    }
}

/* amp_scalefac_bands (noise_shaping_amp 1) computes LAME's
 * (float) pow(trigger, .5) as sqrtf(trigger), trigger a float above 1: the
 * same float from this libm's pow for every 61st float of them, for every
 * one with --exhaustive (about 1.07 billion). */
static void check_amp_trigger(void)
{
    const uint32_t step = checkasm_exhaustive() ? 1 : 61;
    uint32_t u;
    const float one = 1.0f;
    memcpy(&u, &one, sizeof(u));
    for (u += 1; u < 0x7f800000u; u += step) {
        float x, by_pow, by_sqrt;
        memcpy(&x, &u, sizeof(x));
        by_pow = (float)pow(x, .5);
        by_sqrt = sqrtf(x);
        if (memcmp(&by_pow, &by_sqrt, sizeof(x)) != 0) {
            checkasm_fail("amp_trigger: pow(%a, .5) = %a, sqrtf %a", (double)x,
                          (double)by_pow, (double)by_sqrt);
            return;
        }
    }
}

/* Partitions with masker ranges around them, and the terms: a wide dynamic
 * range with zeros, equal neighbours and ratios near the thresholds of
 * mask_add (ma_max_i1, ma_max_i2, the steps of table2). */
static void fill_mask_chain(int npart, int (*s3ind)[2], int *delta, float *xs)
{
    static const int deltas[9] = {2, 2, 2, 1, 1, 1, 0, 0, -1};
    const int mode = checkasm_rand_int(0, 3);
    int n = 0;
    for (int p = 0; p < npart; p++) {
        const int lo = p - checkasm_rand_int(0, 12);
        const int hi = p + checkasm_rand_int(0, 20);
        s3ind[p][0] = lo < 0 ? 0 : lo;
        s3ind[p][1] = hi >= npart ? npart - 1 : hi;
        delta[p] = deltas[checkasm_rand_int(0, 8)];
        n += s3ind[p][1] - s3ind[p][0] + 1;
    }
    for (int k = 0; k < n; k++) {
        float v;
        switch (mode) {
        case 0:
            v = ldexpf(rand_unit(), checkasm_rand_int(-40, 40));
            break;
        case 1: /* ratios near the thresholds */
            v = (k > 0 && (checkasm_rand() & 1))
                    ? xs[k - 1] *
                          ((checkasm_rand() & 1) ? ct_mp3_ma_max_i1
                                                 : ct_mp3_ma_max_i2) *
                          (1.0f + (rand_unit() - 0.5f) * 1e-6f)
                    : ldexpf(rand_unit(), checkasm_rand_int(-4, 4));
            break;
        case 2:
            v = (checkasm_rand() & 3)
                    ? 0.0f
                    : ldexpf(rand_unit(), checkasm_rand_int(-10, 10));
            break;
        default:
            v = (checkasm_rand() & 1)
                    ? 1.0f
                    : powf(10.0f, (float)checkasm_rand_int(0, 30) / 16.0f);
            if (checkasm_rand() & 7)
                v = nextafterf(v, (checkasm_rand() & 1) ? 0.0f : 100.0f);
            break;
        }
        if ((checkasm_rand() & 63) == 0)
            v = -v;
        xs[k] = v;
    }
}

/* The spreading function convolutions, and the steps their vector versions
 * compare with. */
static void check_mask_chain(const ct_mp3_psy_dsp *ref,
                             const ct_mp3_psy_dsp *opt)
{
    if (!checkasm_check_func(opt->mask_chain, ref->mask_chain,
                             "mp3_mask_chain"))
        return;
    check_mask_add_steps();
    int s3ind[64][2];
    int delta[64];
    static float xs[64 * 64];
    float a[64 + 8], b[64 + 8];
    for (int it = 0; it < ITERATIONS; it++) {
        const int npart = checkasm_rand_int(1, 64);
        fill_mask_chain(npart, s3ind, delta, xs);
        memset(a, 0x55, sizeof(a));
        memset(b, 0x55, sizeof(b));
        ref->mask_chain(npart, (const int(*)[2])s3ind, xs, delta, a);
        opt->mask_chain(npart, (const int(*)[2])s3ind, xs, delta, b);
        if (checkasm_check_bits("ecb", a, b, sizeof(a), it))
            break;
    }
    fill_mask_chain(64, s3ind, delta, xs);
    CHECKASM_BENCH(ref->mask_chain(64, (const int(*)[2])s3ind, xs, delta, a),
                   opt->mask_chain(64, (const int(*)[2])s3ind, xs, delta, b));
}

/* The ReplayGain filters: PCM-like input (16-bit range, silence, full
 * scale steps), random history, lengths up to a 50 ms block at 48 kHz. */
static void check_rg_filter(const ct_mp3_replaygain_dsp *ref,
                            const ct_mp3_replaygain_dsp *opt)
{
    if (!checkasm_check_func(opt->rg_filter, ref->rg_filter, "mp3_rg_filter"))
        return;
    enum { N = 2401, H = 10 };
    static float in[2][H + N];
    static float step[2][2][H + N], out[2][2][H + N];
    float yule[21], butter[5];
    for (int it = 0; it < ITERATIONS / 4; it++) {
        const int n = (it < 20) ? it : checkasm_rand_int(0, N);
        const int mode = checkasm_rand_int(0, 2);
        /* stable filters (the recursive taps' magnitudes sum below 1):
         * the encoder's tables are fixed, any taps test the same
         * arithmetic */
        for (int i = 0; i < 21; i++)
            yule[i] = (rand_unit() - 0.5f) * ((i < 11) ? 0.5f : 0.1f);
        for (int i = 0; i < 5; i++)
            butter[i] =
                (rand_unit() - 0.5f) * ((i == 1 || i == 3) ? 0.8f : 2.0f);
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < H + N; i++) {
                float x;
                switch (mode) {
                case 0:
                    x = (float)checkasm_rand_int(-32768, 32767);
                    break;
                case 1:
                    x = (checkasm_rand() & 1) ? 32767.0f : -32768.0f;
                    break;
                default:
                    x = (checkasm_rand() & 7)
                            ? 0.0f
                            : (float)checkasm_rand_int(-100, 100);
                    break;
                }
                in[c][i] = x;
            }
            for (int i = 0; i < H; i++) {
                const float sh = (float)checkasm_rand_int(-32768, 32767);
                const float oh = (float)checkasm_rand_int(-32768, 32767);
                for (int v = 0; v < 2; v++) {
                    step[v][c][i] = sh;
                    out[v][c][i] = oh;
                }
            }
        }
        ref->rg_filter(in[0] + H, in[1] + H, step[0][0] + H, step[0][1] + H,
                       out[0][0] + H, out[0][1] + H, (size_t)n, yule, butter);
        opt->rg_filter(in[0] + H, in[1] + H, step[1][0] + H, step[1][1] + H,
                       out[1][0] + H, out[1][1] + H, (size_t)n, yule, butter);
        int differs = 0;
        for (int c = 0; c < 2 && !differs; c++) {
            differs = checkasm_check_bits("step", step[0][c], step[1][c],
                                          sizeof(float) * (H + n), it) ||
                      checkasm_check_bits("out", out[0][c], out[1][c],
                                          sizeof(float) * (H + n), it);
        }
        if (differs)
            break;
    }
    CHECKASM_BENCH(
        ref->rg_filter(in[0] + H, in[1] + H, step[0][0] + H, step[0][1] + H,
                       out[0][0] + H, out[0][1] + H, N, yule, butter),
        opt->rg_filter(in[0] + H, in[1] + H, step[1][0] + H, step[1][1] + H,
                       out[1][0] + H, out[1][1] + H, N, yule, butter));
}

/* The FHT of the long (n = 512: 1024 points) and short (n = 128: 256
 * points) blocks: windowed PCM-like values, silence, impulses. */
static void check_fht(const ct_mp3_fft_dsp *ref, const ct_mp3_fft_dsp *opt)
{
    if (!checkasm_check_func(opt->fht, ref->fht, "mp3_fht"))
        return;
    static float a[1024 + 16], b[1024 + 16];
    for (int it = 0; it < ITERATIONS / 4; it++) {
        const int n = (it & 1) ? 128 : 512;
        const int mode = checkasm_rand_int(0, 2);
        for (int i = 0; i < 1024 + 16; i++) {
            float x;
            switch (mode) {
            case 0:
                x = (float)checkasm_rand_int(-32768, 32767) * rand_unit();
                break;
            case 1:
                x = (checkasm_rand() & 31) ? 0.0f : 32767.0f;
                break;
            default:
                x = ldexpf(rand_unit() - 0.5f, checkasm_rand_int(-30, 16));
                break;
            }
            a[i] = b[i] = x;
        }
        ref->fht(a, n);
        opt->fht(b, n);
        if (checkasm_check_bits("fz", a, b, sizeof(a), it))
            break;
    }
    /* The transform is in place and grows its input: zeros stay zeros
     * (and the arithmetic takes the time of any other finite input). */
    memset(a, 0, sizeof(a));
    memset(b, 0, sizeof(b));
    CHECKASM_BENCH(ref->fht(a, 512), opt->fht(b, 512));
}

/* The polyphase window: 512 samples around x1 (x1[-286 .. 224]), PCM
 * range, silence, impulses. */
static void check_window_subband(const ct_mp3_mdct_dsp *ref,
                                 const ct_mp3_mdct_dsp *opt)
{
    if (!checkasm_check_func(opt->window_subband, ref->window_subband,
                             "mp3_window_subband"))
        return;
    static float x[300 + 240];
    float a[32], b[32];
    for (int it = 0; it < ITERATIONS; it++) {
        const int mode = checkasm_rand_int(0, 2);
        for (int i = 0; i < 300 + 240; i++) {
            switch (mode) {
            case 0:
                x[i] = (float)checkasm_rand_int(-32768, 32767);
                break;
            case 1:
                x[i] = (checkasm_rand() & 63) ? 0.0f : 32767.0f;
                break;
            default:
                x[i] = ldexpf(rand_unit() - 0.5f, checkasm_rand_int(-20, 16));
                break;
            }
        }
        ref->window_subband(x + 300, a);
        opt->window_subband(x + 300, b);
        if (checkasm_check_bits("a", a, b, sizeof(float) * 30, it))
            break;
    }
    CHECKASM_BENCH(ref->window_subband(x + 300, a),
                   opt->window_subband(x + 300, b));
}

/* |xr|^3/4 with its sum and largest value. */
static void check_init_xrpow(const ct_mp3_quantize_dsp *ref,
                             const ct_mp3_quantize_dsp *opt, mp3_buffers *t)
{
    if (!checkasm_check_func(opt->init_xrpow, ref->init_xrpow,
                             "mp3_init_xrpow"))
        return;
    static float pa[576 + 16], pb[576 + 16];
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = (it < 40) ? it : checkasm_rand_int(0, 576);
        const float max0 =
            (checkasm_rand() & 1)
                ? 0.0f
                : ldexpf(rand_unit(), checkasm_rand_int(-10, 10));
        float sa = (float)checkasm_rand_int(0, 3), sb = sa;
        fill_lines(t, n);
        memset(pa, 0, sizeof(pa));
        memset(pb, 0, sizeof(pb));
        const float ma = ref->init_xrpow(t->xr, pa, n, &sa, max0);
        const float mb = opt->init_xrpow(t->xr, pb, n, &sb, max0);
        if (checkasm_check_bits("xrpow", pa, pb, sizeof(pa), it) ||
            checkasm_check_bits("sum", &sa, &sb, sizeof(sa), it) ||
            checkasm_check_bits("max", &ma, &mb, sizeof(ma), it))
            break;
    }
    fill_lines(t, 576);
    float sa = 0.0f, sb = 0.0f;
    CHECKASM_BENCH(ref->init_xrpow(t->xr, pa, 576, &sa, 0.0f),
                   opt->init_xrpow(t->xr, pb, 576, &sb, 0.0f));
}

/* The amplification of a band of |xr|^3/4 (as init_xrpow leaves it). */
static void check_amp_xrpow(const ct_mp3_quantize_dsp *ref,
                            const ct_mp3_quantize_dsp *opt, mp3_buffers *t)
{
    if (!checkasm_check_func(opt->amp_xrpow, ref->amp_xrpow, "mp3_amp_xrpow"))
        return;
    static float pa[576 + 16], pb[576 + 16];
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = (it < 40) ? it : checkasm_rand_int(0, 576);
        const float max0 =
            (checkasm_rand() & 1)
                ? 0.0f
                : ldexpf(rand_unit(), checkasm_rand_int(-10, 10));
        float sum = (float)checkasm_rand_int(0, 3);
        fill_lines(t, n);
        memset(pa, 0, sizeof(pa));
        float ma = ref->init_xrpow(t->xr, pa, n, &sum, max0);
        float mb = ma;
        memcpy(pb, pa, sizeof(pa));
        const int off = checkasm_rand_int(0, n);
        const int n2 = checkasm_rand_int(0, n - off);
        const float f =
            (checkasm_rand() & 1)
                ? 1.29683955465100964055f
                : ldexpf(rand_unit() + 0.5f, checkasm_rand_int(-3, 3));
        ma = ref->amp_xrpow(pa + off, n2, f, ma);
        mb = opt->amp_xrpow(pb + off, n2, f, mb);
        if (checkasm_check_bits("x", pa, pb, sizeof(pa), it) ||
            checkasm_check_bits("max", &ma, &mb, sizeof(ma), it))
            break;
    }
    /* In place: f = 1 keeps the band as it is over the bench's calls. */
    CHECKASM_BENCH(ref->amp_xrpow(pa, 576, 1.0f, 0.0f),
                   opt->amp_xrpow(pb, 576, 1.0f, 0.0f));
}

/* The largest quantized value of a run of line pairs. */
static void check_ix_max(const ct_mp3_quantize_dsp *ref,
                         const ct_mp3_quantize_dsp *opt, mp3_buffers *t)
{
    if (!checkasm_check_func(opt->ix_max, ref->ix_max, "mp3_ix_max"))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = 2 * checkasm_rand_int(1, 288);
        const int off = 2 * checkasm_rand_int(0, (576 - n) / 2);
        const int top =
            (checkasm_rand() & 1) ? 1 : checkasm_rand_int(1, IXMAX_VAL + 100);
        for (int i = 0; i < 576; i++)
            t->ix_ref[i] =
                (checkasm_rand() & 3) ? 0 : checkasm_rand_int(0, top);
        const int a = ref->ix_max(t->ix_ref + off, n);
        const int b = opt->ix_max(t->ix_ref + off, n);
        if (checkasm_check_bits("max", &a, &b, sizeof(a), it))
            break;
    }
    volatile int sink;
    CHECKASM_BENCH(sink = ref->ix_max(t->ix_ref, 576),
                   sink = opt->ix_max(t->ix_ref, 576));
    (void)sink;
}

/* Line pairs below xlen (n even), mostly small as the big values region's
 * are, at a random even offset of ix_ref. */
static const int *fill_pairs(mp3_buffers *t, int xlen, int *n)
{
    *n = 2 * checkasm_rand_int(1, 288);
    const int off = 2 * checkasm_rand_int(0, (576 - *n) / 2);
    const int top = checkasm_rand_int(0, xlen - 1);
    for (int i = 0; i < 576; i++)
        t->ix_ref[i] = (checkasm_rand() & 3) ? checkasm_rand_int(0, top) : 0;
    return t->ix_ref + off;
}

/* The sums of a pair table (random entries: the fields' carries too). */
static void check_pair_sums(const ct_mp3_quantize_dsp *ref,
                            const ct_mp3_quantize_dsp *opt, mp3_buffers *t)
{
    static const int xlens[] = {2, 3, 4, 6, 8, 16};
    uint32_t table32[256];
    uint64_t table64[256];
    for (int i = 0; i < 256; i++) {
        table32[i] = checkasm_rand();
        table64[i] = (uint64_t)checkasm_rand() << 32 | checkasm_rand();
    }
    if (checkasm_check_func(opt->pair_sum32, ref->pair_sum32,
                            "mp3_pair_sum32")) {
        for (int it = 0; it < ITERATIONS; it++) {
            const unsigned int xlen = (unsigned int)xlens[it % 6];
            int n;
            const int *ix = fill_pairs(t, (int)xlen, &n);
            const uint32_t a = ref->pair_sum32(table32, xlen, ix, n);
            const uint32_t b = opt->pair_sum32(table32, xlen, ix, n);
            if (checkasm_check_bits("sum", &a, &b, sizeof(a), it))
                break;
        }
        for (int i = 0; i < 576; i++)
            t->ix_ref[i] = checkasm_rand_int(0, 3);
        volatile uint32_t sink;
        CHECKASM_BENCH(sink = ref->pair_sum32(table32, 4, t->ix_ref, 576),
                       sink = opt->pair_sum32(table32, 4, t->ix_ref, 576));
        (void)sink;
    }
    if (checkasm_check_func(opt->pair_sum64, ref->pair_sum64,
                            "mp3_pair_sum64")) {
        for (int it = 0; it < ITERATIONS; it++) {
            const unsigned int xlen = (unsigned int)xlens[it % 6];
            int n;
            const int *ix = fill_pairs(t, (int)xlen, &n);
            const uint64_t a = ref->pair_sum64(table64, xlen, ix, n);
            const uint64_t b = opt->pair_sum64(table64, xlen, ix, n);
            if (checkasm_check_bits("sum", &a, &b, sizeof(a), it))
                break;
        }
        for (int i = 0; i < 576; i++)
            t->ix_ref[i] = checkasm_rand_int(0, 15);
        volatile uint64_t sink;
        CHECKASM_BENCH(sink = ref->pair_sum64(table64, 16, t->ix_ref, 576),
                       sink = opt->pair_sum64(table64, 16, t->ix_ref, 576));
        (void)sink;
    }
    if (checkasm_check_func(opt->pair_sum_esc, ref->pair_sum_esc,
                            "mp3_pair_sum_esc")) {
        for (int it = 0; it < ITERATIONS; it++) {
            int n;
            const int *ix = fill_pairs(t, (it & 1) ? IXMAX_VAL + 1 : 24, &n);
            unsigned int ea, eb;
            const uint32_t a = ref->pair_sum_esc(table32, ix, n, &ea);
            const uint32_t b = opt->pair_sum_esc(table32, ix, n, &eb);
            if (checkasm_check_bits("sum", &a, &b, sizeof(a), it) ||
                checkasm_check_bits("escaped", &ea, &eb, sizeof(ea), it))
                break;
        }
        volatile uint32_t sink;
        unsigned int esc;
        CHECKASM_BENCH(sink = ref->pair_sum_esc(table32, t->ix_ref, 576, &esc),
                       sink = opt->pair_sum_esc(table32, t->ix_ref, 576, &esc));
        (void)sink;
    }
}

/* A granule's quantized lines as the count1 region sees them: big values
 * up to a random line, then 0s and 1s, then zeros to the end; with
 * negative values now and then (LAME's unsigned check stops at them). */
static void fill_count1(mp3_buffers *t)
{
    const int big = checkasm_rand_int(0, 576);
    const int ones = checkasm_rand_int(big, 576);
    for (int i = 0; i < 576; i++) {
        if (i < big)
            t->ix_ref[i] = checkasm_rand_int(0, 20);
        else if (i < ones)
            t->ix_ref[i] = checkasm_rand() & 1;
        else
            t->ix_ref[i] = 0;
        if ((checkasm_rand() & 1023) == 0)
            t->ix_ref[i] = -checkasm_rand_int(1, 3);
    }
}

static void check_count1(const ct_mp3_quantize_dsp *ref,
                         const ct_mp3_quantize_dsp *opt, mp3_buffers *t)
{
    if (checkasm_check_func(opt->zero_pairs_end, ref->zero_pairs_end,
                            "mp3_zero_pairs_end")) {
        for (int it = 0; it < ITERATIONS; it++) {
            fill_count1(t);
            const int i = 2 * checkasm_rand_int(0, 288);
            const int a = ref->zero_pairs_end(t->ix_ref, i);
            const int b = opt->zero_pairs_end(t->ix_ref, i);
            if (checkasm_check_bits("end", &a, &b, sizeof(a), it))
                break;
        }
        volatile int sink;
        memset(t->ix_ref, 0, sizeof(t->ix_ref));
        CHECKASM_BENCH(sink = ref->zero_pairs_end(t->ix_ref, 576),
                       sink = opt->zero_pairs_end(t->ix_ref, 576));
        (void)sink;
    }
    if (checkasm_check_func(opt->count1_quads, ref->count1_quads,
                            "mp3_count1_quads")) {
        int a1 = 0, a2 = 0, b1 = 0, b2 = 0;
        for (int it = 0; it < ITERATIONS; it++) {
            fill_count1(t);
            const int i =
                ref->zero_pairs_end(t->ix_ref, 2 * checkasm_rand_int(0, 288));
            a1 = b1 = checkasm_rand_int(0, 1000);
            a2 = b2 = checkasm_rand_int(0, 1000);
            const int a = ref->count1_quads(t->ix_ref, i, ct_mp3_t32l,
                                            ct_mp3_t33l, &a1, &a2);
            const int b = opt->count1_quads(t->ix_ref, i, ct_mp3_t32l,
                                            ct_mp3_t33l, &b1, &b2);
            if (checkasm_check_bits("big_values", &a, &b, sizeof(a), it) ||
                checkasm_check_bits("a1", &a1, &b1, sizeof(a1), it) ||
                checkasm_check_bits("a2", &a2, &b2, sizeof(a2), it))
                break;
        }
        for (int i = 0; i < 576; i++)
            t->ix_ref[i] = checkasm_rand() & 1;
        volatile int sink;
        CHECKASM_BENCH(sink = ref->count1_quads(t->ix_ref, 576, ct_mp3_t32l,
                                                ct_mp3_t33l, &a1, &a2),
                       sink = opt->count1_quads(t->ix_ref, 576, ct_mp3_t32l,
                                                ct_mp3_t33l, &b1, &b2));
        (void)sink;
    }
}

/* PCM-like input of the attack detection. */
static void fill_attack_input(float *in, int n)
{
    const int mode = checkasm_rand_int(0, 2);
    for (int i = 0; i < n; i++) {
        switch (mode) {
        case 0:
            in[i] = (float)checkasm_rand_int(-32768, 32767);
            break;
        case 1:
            in[i] = (checkasm_rand() & 31)
                        ? 0.0f
                        : (float)checkasm_rand_int(-32768, 32767);
            break;
        default:
            in[i] = ldexpf(rand_unit() - 0.5f, checkasm_rand_int(-20, 4));
            break;
        }
    }
}

/* The attack detection's high pass. */
static void check_attack_hpf(const ct_mp3_psy_dsp *ref,
                             const ct_mp3_psy_dsp *opt)
{
    if (!checkasm_check_func(opt->attack_hpf, ref->attack_hpf,
                             "mp3_attack_hpf"))
        return;
    static float in[600], a[576], b[576];
    for (int it = 0; it < ITERATIONS / 2; it++) {
        fill_attack_input(in, 600);
        ref->attack_hpf(in, a);
        opt->attack_hpf(in, b);
        if (checkasm_check_bits("out", a, b, sizeof(a), it))
            break;
    }
    CHECKASM_BENCH(ref->attack_hpf(in, a), opt->attack_hpf(in, b));
}

/* The peaks of the high-passed signal (as attack_hpf leaves it). */
static void check_abs_peaks(const ct_mp3_psy_dsp *ref,
                            const ct_mp3_psy_dsp *opt)
{
    if (!checkasm_check_func(opt->abs_peaks, ref->abs_peaks, "mp3_abs_peaks"))
        return;
    static float in[600], hpf[576];
    float pa[9], pb[9];
    for (int it = 0; it < ITERATIONS / 2; it++) {
        fill_attack_input(in, 600);
        ref->attack_hpf(in, hpf);
        ref->abs_peaks(hpf, pa);
        opt->abs_peaks(hpf, pb);
        if (checkasm_check_bits("en", pa, pb, sizeof(pa), it))
            break;
    }
    CHECKASM_BENCH(ref->abs_peaks(hpf, pa), opt->abs_peaks(hpf, pb));
}

/* At each level: the scalar twins (the tables inited with no flags)
 * against the tables the level's flags choose, as the encoder fills them. */
void checkasm_check_mp3(void)
{
    const unsigned flags = checkasm_cpu_flags();
    ct_mp3_quantize_dsp quantize_ref, quantize_opt;
    ct_mp3_psy_dsp psy_ref, psy_opt;
    ct_mp3_fft_dsp fft_ref, fft_opt;
    ct_mp3_mdct_dsp mdct_ref, mdct_opt;
    ct_mp3_replaygain_dsp replaygain_ref, replaygain_opt;
    ct_mp3_quantize_dsp_init(&quantize_ref, 0);
    ct_mp3_quantize_dsp_init(&quantize_opt, flags);
    ct_mp3_psy_dsp_init(&psy_ref, 0);
    ct_mp3_psy_dsp_init(&psy_opt, flags);
    ct_mp3_fft_dsp_init(&fft_ref, 0);
    ct_mp3_fft_dsp_init(&fft_opt, flags);
    ct_mp3_mdct_dsp_init(&mdct_ref, 0);
    ct_mp3_mdct_dsp_init(&mdct_opt, flags);
    ct_mp3_replaygain_dsp_init(&replaygain_ref, 0);
    ct_mp3_replaygain_dsp_init(&replaygain_opt, flags);
    mp3_buffers *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(1);
    }
    init_tables(t);
    check_sfb_noise_x34(&quantize_ref, &quantize_opt, t);
    check_quantize_x34(&quantize_ref, &quantize_opt, t);
    check_init_xrpow(&quantize_ref, &quantize_opt, t);
    check_amp_xrpow(&quantize_ref, &quantize_opt, t);
    check_ix_max(&quantize_ref, &quantize_opt, t);
    check_pair_sums(&quantize_ref, &quantize_opt, t);
    check_count1(&quantize_ref, &quantize_opt, t);
    check_amp_trigger();
    checkasm_report("mp3_quantize");
    check_fht(&fft_ref, &fft_opt);
    checkasm_report("mp3_fft");
    check_mask_chain(&psy_ref, &psy_opt);
    check_attack_hpf(&psy_ref, &psy_opt);
    check_abs_peaks(&psy_ref, &psy_opt);
    checkasm_report("mp3_psy");
    check_window_subband(&mdct_ref, &mdct_opt);
    checkasm_report("mp3_mdct");
    check_rg_filter(&replaygain_ref, &replaygain_opt);
    checkasm_report("mp3_replaygain");
    free(t);
}
