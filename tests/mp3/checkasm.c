/*
 * checkasm for the MP3 encoder's kernels (ctcore/mp3/dsp.h): every SIMD
 * kernel against its scalar reference, bit for bit, for each instruction
 * set this CPU runs. Inputs are random and edge values in the ranges the
 * encoder feeds each kernel, with sizes that are not multiples of the
 * vector width.
 *
 * Usage: checkasm [seed]. Prints "<kernel> <isa>: ok" per kernel and exits
 * non-zero on the first difference. Instruction sets the CPU lacks are
 * reported as skipped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp3/dsp.h"
#include "mp3/util.h"

#define ITERATIONS 400
#define IXMAX_VAL 8206
#define PRECALC_SIZE (IXMAX_VAL + 2)
#define Q_MAX (256 + 1)
#define Q_MAX2 116

typedef struct checkasm {
    uint32_t rng_state;
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
} checkasm;

static uint32_t rng(checkasm *t)
{
    t->rng_state ^= t->rng_state << 13;
    t->rng_state ^= t->rng_state >> 17;
    t->rng_state ^= t->rng_state << 5;
    return t->rng_state;
}

static int rng_int(checkasm *t, int lo, int hi)
{
    return lo + (int) (rng(t) % (uint32_t) (hi - lo + 1));
}

/* uniform in [0, 1) */
static float rng_unit(checkasm *t)
{
    return (float) (rng(t) >> 8) * (1.0f / 16777216.0f);
}

static int check_bits(const char *kernel, const char *isa, const void *ref, const void *opt,
                      size_t bytes, int iteration)
{
    const uint8_t *a = ref;
    const uint8_t *b = opt;
    size_t i = 0;
    if (memcmp(ref, opt, bytes) == 0)
        return 0;
    while (a[i] == b[i])
        ++i;
    printf("%s %s: FAILED (iteration %d, first difference at byte %zu)\n", kernel, isa,
           iteration, i);
    return 1;
}

static void init_tables(checkasm *t)
{
    int i;
    t->pow43[0] = 0.0;
    for (i = 1; i < PRECALC_SIZE; i++)
        t->pow43[i] = pow((float) i, 4.0 / 3.0);
    t->adj43asm[0] = 0.0;
    for (i = 1; i < PRECALC_SIZE; i++)
        t->adj43asm[i] = i - 0.5 - pow(0.5 * (t->pow43[i - 1] + t->pow43[i]), 0.75);
    for (i = 0; i < Q_MAX; i++)
        t->ipow20[i] = pow(2.0, (double) (i - 210) * -0.1875);
    for (i = 0; i <= Q_MAX + Q_MAX2; i++)
        t->pow20[i] = pow(2.0, (double) (i - 210 - Q_MAX2) * 0.25);
}

/* MDCT-like lines: random signs, magnitudes spread over many octaves, with
 * runs of zeros, repeated values and powers of two; xr34 = |xr|^3/4 as
 * init_xrpow computes it. */
static void fill_lines(checkasm *t, int n)
{
    const int mode = rng_int(t, 0, 3);
    const float scale = ldexpf(1.0f, rng_int(t, -20, 14));
    const float plateau = scale * rng_unit(t);
    int i;
    for (i = 0; i < n + 16; i++) {
        float v;
        switch (mode) {
        case 0:
            v = scale * rng_unit(t);
            break;
        case 1:
            v = scale * ldexpf(rng_unit(t), -rng_int(t, 0, 24));
            break;
        case 2:
            v = (rng(t) & 3) ? plateau : 0.0f;
            break;
        default:
            v = (rng(t) & 1) ? 0.0f : ldexpf(1.0f, rng_int(t, -30, 12));
            break;
        }
        if (rng(t) & 1)
            v = -v;
        t->xr[i] = v;
        {
            float const tmp = fabsf(v);
            t->xr34[i] = sqrt(tmp * sqrt(tmp));
        }
    }
}

/* The smallest scalefactor with ipow20[sf] * xr34 <= IXMAX_VAL for the
 * largest of xr34[0 .. n). */
static int lowest_sf(const checkasm *t, int n)
{
    float m = 0;
    int i, sf;
    for (i = 0; i < n; i++)
        if (m < t->xr34[i])
            m = t->xr34[i];
    for (sf = 0; sf < 256; sf++)
        if (t->ipow20[sf] * m <= IXMAX_VAL)
            return sf;
    return 256;
}

static int test_sfb_noise_x34(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                              checkasm *t)
{
    int it;
    for (it = 0; it < ITERATIONS; it++) {
        int const bw = (it < 64) ? it : rng_int(t, 0, 576);
        int lo, sf;
        float a, b;
        fill_lines(t, bw);
        lo = lowest_sf(t, bw);
        if (lo > 255)
            continue;
        sf = (rng(t) & 3) ? rng_int(t, lo, lo + 40 > 255 ? 255 : lo + 40) : lo;
        a = ref->sfb_noise_x34(t->pow43, t->adj43asm, t->xr, t->xr34, (unsigned int) bw,
                               t->pow20[sf + Q_MAX2], t->ipow20[sf]);
        b = opt->sfb_noise_x34(t->pow43, t->adj43asm, t->xr, t->xr34, (unsigned int) bw,
                               t->pow20[sf + Q_MAX2], t->ipow20[sf]);
        if (check_bits("sfb_noise_x34", isa, &a, &b, sizeof(a), it))
            return 1;
    }
    printf("sfb_noise_x34 %s: ok\n", isa);
    return 0;
}

static int test_quantize_x34(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                             checkasm *t)
{
    int it;
    for (it = 0; it < ITERATIONS; it++) {
        int const n = (it < 64) ? it : rng_int(t, 0, 576);
        int lo, sf;
        fill_lines(t, n);
        lo = lowest_sf(t, n);
        if (lo > 255)
            continue;
        sf = (rng(t) & 3) ? rng_int(t, lo, lo + 40 > 255 ? 255 : lo + 40) : lo;
        if (it % 7 == 0) {
            /* values at the rounding points: x + adj43asm[round(x)] = k + 0.5 */
            int i;
            for (i = 0; i < n; i++) {
                int const k = rng_int(t, 0, 100);
                t->xr34[i] = ((float) k + 0.5f - t->adj43asm[k]) / t->ipow20[sf];
                if (rng(t) & 1)
                    t->xr34[i] = nextafterf(t->xr34[i], (rng(t) & 1) ? 0.0f : 1e9f);
            }
        }
        memset(t->ix_ref, 0x55, sizeof(t->ix_ref));
        memset(t->ix_opt, 0x55, sizeof(t->ix_opt));
        ref->quantize_x34(t->adj43asm, t->ipow20[sf], t->xr34, t->ix_ref, (unsigned int) n);
        opt->quantize_x34(t->adj43asm, t->ipow20[sf], t->xr34, t->ix_opt, (unsigned int) n);
        if (check_bits("quantize_x34", isa, t->ix_ref, t->ix_opt, sizeof(t->ix_ref), it))
            return 1;
    }
    printf("quantize_x34 %s: ok\n", isa);
    return 0;
}

/* The vector mask_add finds table2's index (int) fast_log10_x(ratio, 16)
 * by comparing ratio with ct_mp3_mask_add_steps: the same index for every
 * float ratio in [1, ma_max_i1), the range where it is used. */
static int test_mask_add_steps(void)
{
    float r = 1.0f;
    while (r < ct_mp3_ma_max_i1) {
        int const i = (int) (ct_mp3_fast_log10_x(r, 16.0f));
        int n = 0, j;
        for (j = 0; j < 8; j++)
            n += r >= ct_mp3_mask_add_steps[j];
        if (i != n) {
            printf("mask_add_steps: FAILED at %a (index %d, steps %d)\n", (double) r, i, n);
            return 1;
        }
        r = nextafterf(r, 4.0f);
    }
    printf("mask_add_steps: ok\n");
    return 0;
}

/* Spreading function convolutions: partitions with masker ranges around
 * them, terms over a wide dynamic range with zeros, equal neighbours and
 * ratios near the thresholds of mask_add (ma_max_i1, ma_max_i2, the
 * steps of table2). */
static int test_mask_chain(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                           checkasm *t)
{
    static const int deltas[9] = {2, 2, 2, 1, 1, 1, 0, 0, -1};
    int s3ind[64][2];
    int delta[64];
    static float xs[64 * 64];
    float a[64 + 8], b[64 + 8];
    int it;

    for (it = 0; it < ITERATIONS; it++) {
        int const npart = rng_int(t, 1, 64);
        int const mode = rng_int(t, 0, 3);
        int p, k = 0, n;
        for (p = 0; p < npart; p++) {
            int lo = p - rng_int(t, 0, 12), hi = p + rng_int(t, 0, 20);
            s3ind[p][0] = lo < 0 ? 0 : lo;
            s3ind[p][1] = hi >= npart ? npart - 1 : hi;
            delta[p] = deltas[rng_int(t, 0, 8)];
            k += s3ind[p][1] - s3ind[p][0] + 1;
        }
        n = k;
        for (k = 0; k < n; k++) {
            float v;
            switch (mode) {
            case 0:
                v = ldexpf(rng_unit(t), rng_int(t, -40, 40));
                break;
            case 1: /* ratios near the thresholds */
                v = (k > 0 && (rng(t) & 1))
                        ? xs[k - 1] * ((rng(t) & 1) ? ct_mp3_ma_max_i1 : ct_mp3_ma_max_i2)
                              * (1.0f + (rng_unit(t) - 0.5f) * 1e-6f)
                        : ldexpf(rng_unit(t), rng_int(t, -4, 4));
                break;
            case 2:
                v = (rng(t) & 3) ? 0.0f : ldexpf(rng_unit(t), rng_int(t, -10, 10));
                break;
            default:
                v = (rng(t) & 1) ? 1.0f : powf(10.0f, (float) rng_int(t, 0, 30) / 16.0f);
                if (rng(t) & 7)
                    v = nextafterf(v, (rng(t) & 1) ? 0.0f : 100.0f);
                break;
            }
            if ((rng(t) & 63) == 0)
                v = -v;
            xs[k] = v;
        }
        memset(a, 0x55, sizeof(a));
        memset(b, 0x55, sizeof(b));
        ref->mask_chain(npart, (const int (*)[2]) s3ind, xs, delta, a);
        opt->mask_chain(npart, (const int (*)[2]) s3ind, xs, delta, b);
        if (check_bits("mask_chain", isa, a, b, sizeof(a), it))
            return 1;
    }
    printf("mask_chain %s: ok\n", isa);
    return 0;
}

/* The ReplayGain filters: PCM-like input (16-bit range, silence, full
 * scale steps), random history, lengths up to a 50 ms block at 48 kHz. */
static int test_rg_filter(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                          checkasm *t)
{
    enum { N = 2401, H = 10 };
    static float in[2][H + N];
    static float step[2][2][H + N], out[2][2][H + N];
    float yule[21], butter[5];
    int it, c, v, i;

    for (it = 0; it < ITERATIONS / 4; it++) {
        int const n = (it < 20) ? it : rng_int(t, 0, N);
        int const mode = rng_int(t, 0, 2);
        /* stable filters (the recursive taps' magnitudes sum below 1):
         * the encoder's tables are fixed, any taps test the same
         * arithmetic */
        for (i = 0; i < 21; i++)
            yule[i] = (rng_unit(t) - 0.5f) * ((i < 11) ? 0.5f : 0.1f);
        for (i = 0; i < 5; i++)
            butter[i] = (rng_unit(t) - 0.5f) * ((i == 1 || i == 3) ? 0.8f : 2.0f);
        for (c = 0; c < 2; c++) {
            for (i = 0; i < H + N; i++) {
                float x;
                switch (mode) {
                case 0:
                    x = (float) rng_int(t, -32768, 32767);
                    break;
                case 1:
                    x = (rng(t) & 1) ? 32767.0f : -32768.0f;
                    break;
                default:
                    x = (rng(t) & 7) ? 0.0f : (float) rng_int(t, -100, 100);
                    break;
                }
                in[c][i] = x;
            }
            for (i = 0; i < H; i++) {
                float const sh = (float) rng_int(t, -32768, 32767);
                float const oh = (float) rng_int(t, -32768, 32767);
                for (v = 0; v < 2; v++) {
                    step[v][c][i] = sh;
                    out[v][c][i] = oh;
                }
            }
        }
        ref->rg_filter(in[0] + H, in[1] + H, step[0][0] + H, step[0][1] + H, out[0][0] + H,
                       out[0][1] + H, (size_t) n, yule, butter);
        opt->rg_filter(in[0] + H, in[1] + H, step[1][0] + H, step[1][1] + H, out[1][0] + H,
                       out[1][1] + H, (size_t) n, yule, butter);
        for (c = 0; c < 2; c++) {
            if (check_bits("rg_filter", isa, step[0][c], step[1][c], sizeof(float) * (H + n),
                           it)
                || check_bits("rg_filter", isa, out[0][c], out[1][c], sizeof(float) * (H + n),
                              it))
                return 1;
        }
    }
    printf("rg_filter %s: ok\n", isa);
    return 0;
}

/* The FHT of the long (n = 512: 1024 points) and short (n = 128: 256
 * points) blocks: windowed PCM-like values, silence, impulses. */
static int test_fht(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                    checkasm *t)
{
    static float a[1024 + 16], b[1024 + 16];
    int it, i;
    for (it = 0; it < ITERATIONS / 4; it++) {
        int const n = (it & 1) ? 128 : 512;
        int const mode = rng_int(t, 0, 2);
        for (i = 0; i < 1024 + 16; i++) {
            float x;
            switch (mode) {
            case 0:
                x = (float) rng_int(t, -32768, 32767) * rng_unit(t);
                break;
            case 1:
                x = (rng(t) & 31) ? 0.0f : 32767.0f;
                break;
            default:
                x = ldexpf(rng_unit(t) - 0.5f, rng_int(t, -30, 16));
                break;
            }
            a[i] = b[i] = x;
        }
        ref->fht(a, n);
        opt->fht(b, n);
        if (check_bits("fht", isa, a, b, sizeof(a), it))
            return 1;
    }
    printf("fht %s: ok\n", isa);
    return 0;
}

/* The polyphase window: 512 samples around x1 (x1[-286 .. 224]), PCM
 * range, silence, impulses. */
static int test_window_subband(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                               checkasm *t)
{
    static float x[300 + 240];
    float a[32], b[32];
    int it, i;
    for (it = 0; it < ITERATIONS; it++) {
        int const mode = rng_int(t, 0, 2);
        for (i = 0; i < 300 + 240; i++) {
            switch (mode) {
            case 0:
                x[i] = (float) rng_int(t, -32768, 32767);
                break;
            case 1:
                x[i] = (rng(t) & 63) ? 0.0f : 32767.0f;
                break;
            default:
                x[i] = ldexpf(rng_unit(t) - 0.5f, rng_int(t, -20, 16));
                break;
            }
        }
        ref->window_subband(x + 300, a);
        opt->window_subband(x + 300, b);
        if (check_bits("window_subband", isa, a, b, sizeof(float) * 30, it))
            return 1;
    }
    printf("window_subband %s: ok\n", isa);
    return 0;
}

/* |xr|^3/4 with its sum and largest value, and the amplification of
 * bands of it. */
static int test_xrpow(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                      checkasm *t)
{
    static float pa[576 + 16], pb[576 + 16];
    int it;
    for (it = 0; it < ITERATIONS; it++) {
        int const n = (it < 40) ? it : rng_int(t, 0, 576);
        float const max0 = (rng(t) & 1) ? 0.0f : ldexpf(rng_unit(t), rng_int(t, -10, 10));
        float sa = (float) rng_int(t, 0, 3), sb = sa, ma, mb, f;
        int n2, off;
        fill_lines(t, n);
        memset(pa, 0, sizeof(pa));
        memset(pb, 0, sizeof(pb));
        ma = ref->init_xrpow(t->xr, pa, n, &sa, max0);
        mb = opt->init_xrpow(t->xr, pb, n, &sb, max0);
        if (check_bits("init_xrpow", isa, pa, pb, sizeof(pa), it)
            || check_bits("init_xrpow", isa, &sa, &sb, sizeof(sa), it)
            || check_bits("init_xrpow", isa, &ma, &mb, sizeof(ma), it))
            return 1;
        /* amplify a band of it */
        off = rng_int(t, 0, n);
        n2 = rng_int(t, 0, n - off);
        f = (rng(t) & 1) ? 1.29683955465100964055f : ldexpf(rng_unit(t) + 0.5f, rng_int(t, -3, 3));
        ma = ref->amp_xrpow(pa + off, n2, f, ma);
        mb = opt->amp_xrpow(pb + off, n2, f, mb);
        if (check_bits("amp_xrpow", isa, pa, pb, sizeof(pa), it)
            || check_bits("amp_xrpow", isa, &ma, &mb, sizeof(ma), it))
            return 1;
    }
    printf("init_xrpow %s: ok\n", isa);
    printf("amp_xrpow %s: ok\n", isa);
    return 0;
}

/* The largest quantized value of a run of line pairs. */
static int test_ix_max(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                       checkasm *t)
{
    int it, i;
    for (it = 0; it < ITERATIONS; it++) {
        int const n = 2 * rng_int(t, 1, 288);
        int const off = 2 * rng_int(t, 0, (576 - n) / 2);
        int const top = (rng(t) & 1) ? 1 : rng_int(t, 1, IXMAX_VAL + 100);
        int a, b;
        for (i = 0; i < 576; i++)
            t->ix_ref[i] = (rng(t) & 3) ? 0 : rng_int(t, 0, top);
        a = ref->ix_max(t->ix_ref + off, n);
        b = opt->ix_max(t->ix_ref + off, n);
        if (check_bits("ix_max", isa, &a, &b, sizeof(a), it))
            return 1;
    }
    printf("ix_max %s: ok\n", isa);
    return 0;
}

/* The attack detection's high pass and peaks: PCM-like input. */
static int test_attack(const ct_mp3_dsp *ref, const ct_mp3_dsp *opt, const char *isa,
                       checkasm *t)
{
    static float in[600], a[576], b[576];
    float pa[9], pb[9];
    int it, i;
    for (it = 0; it < ITERATIONS / 2; it++) {
        int const mode = rng_int(t, 0, 2);
        for (i = 0; i < 600; i++) {
            switch (mode) {
            case 0:
                in[i] = (float) rng_int(t, -32768, 32767);
                break;
            case 1:
                in[i] = (rng(t) & 31) ? 0.0f : (float) rng_int(t, -32768, 32767);
                break;
            default:
                in[i] = ldexpf(rng_unit(t) - 0.5f, rng_int(t, -20, 4));
                break;
            }
        }
        ref->attack_hpf(in, a);
        opt->attack_hpf(in, b);
        if (check_bits("attack_hpf", isa, a, b, sizeof(a), it))
            return 1;
        ref->abs_peaks(a, pa);
        opt->abs_peaks(a, pb);
        if (check_bits("abs_peaks", isa, pa, pb, sizeof(pa), it))
            return 1;
    }
    printf("attack_hpf %s: ok\n", isa);
    printf("abs_peaks %s: ok\n", isa);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        ct_mp3_dsp_isa isa;
        const char *name;
    } isas[] = {
        {CT_MP3_DSP_SSE2, "sse2"},
        {CT_MP3_DSP_AVX2, "avx2"},
    };
    const uint32_t seed = argc > 1 ? (uint32_t) strtoul(argv[1], NULL, 0) : 0x12345678u;
    const ct_mp3_dsp *ref = ct_mp3_dsp_get_isa(CT_MP3_DSP_C);
    checkasm *t = calloc(1, sizeof(*t));
    int failed = 0;
    size_t i;

    if (t == NULL)
        return 1;
    printf("checkasm: seed 0x%08x\n", (unsigned) seed);
    init_tables(t);
    failed |= test_mask_add_steps();
    for (i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
        const ct_mp3_dsp *opt = ct_mp3_dsp_get_isa(isas[i].isa);
        if (opt == NULL) {
            printf("%s: not on this CPU or build, skipped\n", isas[i].name);
            continue;
        }
        /* xorshift never leaves state 0 */
        t->rng_state = seed + (uint32_t) i;
        if (t->rng_state == 0)
            t->rng_state = 1;
        failed |= test_sfb_noise_x34(ref, opt, isas[i].name, t);
        failed |= test_quantize_x34(ref, opt, isas[i].name, t);
        failed |= test_mask_chain(ref, opt, isas[i].name, t);
        failed |= test_rg_filter(ref, opt, isas[i].name, t);
        failed |= test_fht(ref, opt, isas[i].name, t);
        failed |= test_window_subband(ref, opt, isas[i].name, t);
        failed |= test_xrpow(ref, opt, isas[i].name, t);
        failed |= test_ix_max(ref, opt, isas[i].name, t);
        failed |= test_attack(ref, opt, isas[i].name, t);
    }
    free(t);
    return failed ? 1 : 0;
}
