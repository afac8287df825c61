/*
 * checkasm for the pixel phase, and for the tokenizer's magnitude mask:
 * every SIMD kernel against its scalar reference, bit for bit, for both
 * arithmetic targets. Inputs are random and edge values in the ranges the
 * encoder feeds each kernel, with sizes that are not multiples of the
 * vector width.
 *
 * Usage: checkasm [seed]. Prints "<kernel> <target>: ok" per kernel and
 * exits non-zero on the first difference. Kernels the CPU cannot run are
 * reported as skipped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/tokenize_dsp.h"
#include "common/cpu.h"
#include "jpeg/pixel_dsp.h"

#define ITERATIONS 200
/* Floats of margin around every test row: kernels read x = -1 and a few
 * values past the end. */
#define MARGIN 32
#define MAX_ROW 640

/* The state of a test run: the random generator and the buffers. */
typedef struct checkasm {
    uint32_t rng_state;
    float in[6][MAX_ROW + 2 * MARGIN];
    float out_ref[MAX_ROW + 2 * MARGIN];
    float out_opt[MAX_ROW + 2 * MARGIN];
    uint8_t bytes[3 * MAX_ROW];
    float block_rows[8 * MAX_ROW];
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
    return lo + (int)(rng(t) % (uint32_t)(hi - lo + 1));
}

static float rng_float(checkasm *t, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng(t) >> 8) * (1.0f / 16777216.0f);
}

/* Pixel-like values: uniform, integers, plateaus, or the extremes. */
static void fill_pixels(checkasm *t, float *v, int n, float lo, float hi)
{
    const int mode = rng_int(t, 0, 3);
    const float plateau = rng_float(t, lo, hi);
    for (int i = 0; i < n; ++i) {
        switch (mode) {
        case 0:
            v[i] = rng_float(t, lo, hi);
            break;
        case 1:
            v[i] = (float)rng_int(t, (int)lo, (int)hi);
            break;
        case 2:
            v[i] = (rng(t) & 3) ? plateau : rng_float(t, lo, hi);
            break;
        default:
            v[i] = (rng(t) & 1) ? lo : hi;
            break;
        }
    }
}

static int check_bits(const char *kernel, const char *target, const void *ref,
                      const void *opt, size_t bytes, int iteration)
{
    if (memcmp(ref, opt, bytes) == 0)
        return 0;
    const uint8_t *a = ref;
    const uint8_t *b = opt;
    size_t i = 0;
    while (a[i] == b[i])
        ++i;
    printf("%s %s: FAILED (iteration %d, first difference at byte %zu)\n",
           kernel, target, iteration, i);
    return 1;
}

static int test_color(const ct_jpeg_pixel_dsp *ref,
                      const ct_jpeg_pixel_dsp *opt, const char *target,
                      checkasm *t)
{
    int failed = 0;
    if (ref->rgb8_to_ycbcr != opt->rgb8_to_ycbcr) {
        for (int it = 0; it < ITERATIONS && !failed; ++it) {
            const int n = rng_int(t, 0, 100);
            const int extremes = rng_int(t, 0, 3) == 0;
            for (int i = 0; i < 3 * n; ++i)
                t->bytes[i] = extremes ? (rng(t) & 1) * 255 : (uint8_t)rng(t);
            float ref_out[3][100], opt_out[3][100];
            ref->rgb8_to_ycbcr(t->bytes, n, ref_out[0], ref_out[1],
                               ref_out[2]);
            opt->rgb8_to_ycbcr(t->bytes, n, opt_out[0], opt_out[1],
                               opt_out[2]);
            for (int c = 0; c < 3 && !failed; ++c)
                failed = check_bits("rgb8_to_ycbcr", target, ref_out[c],
                                    opt_out[c], n * sizeof(float), it);
        }
        if (!failed)
            printf("rgb8_to_ycbcr %s: ok\n", target);
    }
    if (ref->gray8_to_float != opt->gray8_to_float) {
        int gray_failed = 0;
        for (int it = 0; it < ITERATIONS && !gray_failed; ++it) {
            const int n = rng_int(t, 0, 100);
            for (int i = 0; i < n; ++i)
                t->bytes[i] = (uint8_t)rng(t);
            ref->gray8_to_float(t->bytes, n, t->out_ref);
            opt->gray8_to_float(t->bytes, n, t->out_opt);
            gray_failed = check_bits("gray8_to_float", target, t->out_ref,
                                     t->out_opt, n * sizeof(float), it);
        }
        if (!gray_failed)
            printf("gray8_to_float %s: ok\n", target);
        failed |= gray_failed;
    }
    return failed;
}

static int test_downsample(const ct_jpeg_pixel_dsp *ref,
                           const ct_jpeg_pixel_dsp *opt, const char *target,
                           checkasm *t)
{
    static const char *names[3] = {"downsample_2x1", "downsample_1x2",
                                   "downsample_2x2"};
    int failed = 0;
    for (int kind = 0; kind < 3 && !failed; ++kind) {
        const int differs =
            kind == 0 ? ref->downsample_2x1 != opt->downsample_2x1
            : kind == 1 ? ref->downsample_1x2 != opt->downsample_1x2
                        : ref->downsample_2x2 != opt->downsample_2x2;
        if (!differs)
            continue;
        for (int it = 0; it < ITERATIONS && !failed; ++it) {
            const int n_out = rng_int(t, 0, MAX_ROW / 2);
            /* YCbCr planes, and XYB's scaled planes (which can be
             * negative). */
            fill_pixels(t, t->in[0], 2 * n_out, -64.0f, 320.0f);
            fill_pixels(t, t->in[1], 2 * n_out, -64.0f, 320.0f);
            if (kind == 0) {
                ref->downsample_2x1(t->in[0], n_out, t->out_ref);
                opt->downsample_2x1(t->in[0], n_out, t->out_opt);
            } else if (kind == 1) {
                ref->downsample_1x2(t->in[0], t->in[1], n_out, t->out_ref);
                opt->downsample_1x2(t->in[0], t->in[1], n_out, t->out_opt);
            } else {
                ref->downsample_2x2(t->in[0], t->in[1], n_out, t->out_ref);
                opt->downsample_2x2(t->in[0], t->in[1], n_out, t->out_opt);
            }
            failed = check_bits(names[kind], target, t->out_ref, t->out_opt,
                                n_out * sizeof(float), it);
        }
        if (!failed)
            printf("%s %s: ok\n", names[kind], target);
    }
    return failed;
}

static int test_pre_erosion(const ct_jpeg_pixel_dsp *ref,
                            const ct_jpeg_pixel_dsp *opt, const char *target,
                            checkasm *t)
{
    if (ref->pre_erosion == opt->pre_erosion)
        return 0;
    for (int it = 0; it < ITERATIONS; ++it) {
        const int n_out = 2 * rng_int(t, 1, MAX_ROW / 8);
        const float *rows[6];
        for (int i = 0; i < 6; ++i) {
            /* Luma in [0, 255]; x = -1 and x = 4 n_out are readable. */
            fill_pixels(t, t->in[i], 4 * n_out + 2, 0.0f, 255.0f);
            rows[i] = t->in[i] + 1;
        }
        ref->pre_erosion(rows, n_out, t->out_ref);
        opt->pre_erosion(rows, n_out, t->out_opt);
        if (check_bits("pre_erosion", target, t->out_ref, t->out_opt,
                       n_out * sizeof(float), it))
            return 1;
    }
    printf("pre_erosion %s: ok\n", target);
    return 0;
}

static int test_fuzzy_erosion(const ct_jpeg_pixel_dsp *ref,
                              const ct_jpeg_pixel_dsp *opt, const char *target,
                              checkasm *t)
{
    if (ref->fuzzy_erosion == opt->fuzzy_erosion)
        return 0;
    for (int it = 0; it < ITERATIONS; ++it) {
        const int nblocks = rng_int(t, 1, MAX_ROW / 2 - 1);
        const float *pre[4];
        for (int i = 0; i < 4; ++i) {
            /* Pre-erosion values lie in about [5, 170]; equal values test
             * the order of the min/max network. */
            fill_pixels(t, t->in[i], 2 * nblocks + 2, 5.0f, 170.0f);
            pre[i] = t->in[i] + 1;
        }
        ref->fuzzy_erosion(pre, nblocks, t->out_ref);
        opt->fuzzy_erosion(pre, nblocks, t->out_opt);
        if (check_bits("fuzzy_erosion", target, t->out_ref, t->out_opt,
                       nblocks * sizeof(float), it))
            return 1;
    }
    printf("fuzzy_erosion %s: ok\n", target);
    return 0;
}

static int test_block_modulations(const ct_jpeg_pixel_dsp *ref,
                                  const ct_jpeg_pixel_dsp *opt,
                                  const char *target, checkasm *t)
{
    if (ref->block_modulations == opt->block_modulations)
        return 0;
    static const int y_quant_01[] = {1, 2, 8, 9, 10, 37, 64, 65, 66, 255};
    enum { MAX_BLOCKS = 24, STRIDE = 8 * MAX_BLOCKS + 8 };
    float *rows = t->block_rows;
    float qf_ref[MAX_BLOCKS], qf_opt[MAX_BLOCKS];
    for (int it = 0; it < ITERATIONS; ++it) {
        const int nblocks = rng_int(t, 1, MAX_BLOCKS);
        for (int y = 0; y < 8; ++y)
            fill_pixels(t, rows + y * STRIDE, 8 * nblocks + 1, 0.0f, 255.0f);
        /* Fuzzy erosion sums. */
        fill_pixels(t, qf_ref, nblocks, 0.5f, 400.0f);
        memcpy(qf_opt, qf_ref, sizeof(qf_ref));
        const int yq = y_quant_01[rng_int(t, 0, 9)];
        ref->block_modulations(rows, STRIDE, nblocks, yq, qf_ref);
        opt->block_modulations(rows, STRIDE, nblocks, yq, qf_opt);
        if (check_bits("block_modulations", target, qf_ref, qf_opt,
                       nblocks * sizeof(float), it))
            return 1;
    }
    printf("block_modulations %s: ok\n", target);
    return 0;
}

static int test_dct_quant_row(const ct_jpeg_pixel_dsp *ref,
                              const ct_jpeg_pixel_dsp *opt, const char *target,
                              checkasm *t)
{
    if (ref->dct_quant_row == opt->dct_quant_row)
        return 0;
    enum { MAX_BLOCKS = 6, STRIDE = 8 * MAX_BLOCKS + 5 };
    float *pixels = t->block_rows;
    float qmc[64], zbo[64], zbm[64], aq[2 * MAX_BLOCKS];
    int16_t blocks_ref[64 * MAX_BLOCKS], blocks_opt[64 * MAX_BLOCKS];
    float dc_ref[2][MAX_BLOCKS], dc_opt[2][MAX_BLOCKS];
    for (int it = 0; it < 4 * ITERATIONS; ++it) {
        const int nblocks = rng_int(t, 1, MAX_BLOCKS);
        const int stride = rng_int(t, 8 * nblocks, STRIDE);
        /* 8-bit YCbCr, or XYB's scaled planes. */
        const int xyb = rng_int(t, 0, 3) == 0;
        for (int y = 0; y < 8; ++y) {
            fill_pixels(t, pixels + y * stride, 8 * nblocks,
                        xyb ? -40.0f : 0.0f, xyb ? 300.0f : 255.0f);
        }
        /* Half the time, multipliers 2^10 .. 2^20 and no zero bias, so the
         * low 16 bits of each quantized value show the low bits of the DCT
         * output: the DCT's rounding is compared, not only its result after
         * quantization. */
        const int expose_bits = rng(t) & 1;
        const int qmax = rng_int(t, 1, 255);
        for (int k = 0; k < 64; ++k) {
            if (expose_bits) {
                qmc[k] = (float)(1 << rng_int(t, 10, 20));
                zbo[k] = 0.0f;
                zbm[k] = 0.0f;
            } else {
                qmc[k] = 8.0f / (float)rng_int(t, 1, qmax);
                zbo[k] = rng_int(t, 0, 3) ? rng_float(t, 0.0f, 0.7f) : 0.0f;
                zbm[k] = rng_int(t, 0, 3) ? rng_float(t, 0.0f, 0.7f) : 0.0f;
            }
        }
        fill_pixels(t, aq, 2 * MAX_BLOCKS, 0.0f, 2.0f);
        const float *aq_row = rng_int(t, 0, 3) == 0 ? NULL : aq;
        const size_t aq_step = (size_t)rng_int(t, 1, 2);
        ref->dct_quant_row(pixels, stride, nblocks, qmc, zbo, zbm, aq_row,
                           aq_step, blocks_ref, dc_ref[0], dc_ref[1]);
        opt->dct_quant_row(pixels, stride, nblocks, qmc, zbo, zbm, aq_row,
                           aq_step, blocks_opt, dc_opt[0], dc_opt[1]);
        if (check_bits("dct_quant_row", target, blocks_ref, blocks_opt,
                       64 * nblocks * sizeof(int16_t), it) ||
            check_bits("dct_quant_row (dc)", target, dc_ref[0], dc_opt[0],
                       nblocks * sizeof(float), it) ||
            check_bits("dct_quant_row (dc threshold)", target, dc_ref[1],
                       dc_opt[1], nblocks * sizeof(float), it))
            return 1;
    }
    printf("dct_quant_row %s: ok\n", target);
    return 0;
}

/* Coefficient blocks of 12-bit values: mostly zero or near the threshold
 * (a scan's 1 << Al), as quantized blocks are, and the extremes. */
static int test_magnitude_mask(checkasm *t)
{
    ct_jpeg_tokenize_dsp ref, opt;
    ct_jpeg_tokenize_dsp_init(&ref, 0);
    ct_jpeg_tokenize_dsp_init(&opt, ct_cpu_flags());
    if (opt.magnitude_mask == ref.magnitude_mask) {
        printf("magnitude_mask: no SIMD kernel on this CPU, skipped\n");
        return 0;
    }
    int16_t block[64];
    for (int it = 0; it < 20 * ITERATIONS; ++it) {
        const int threshold = 1 << rng_int(t, 0, 10);
        for (int k = 0; k < 64; ++k) {
            int v = 0;
            switch (rng_int(t, 0, 3)) {
            case 1:
                v = threshold + rng_int(t, -2, 1);
                break;
            case 2:
                v = rng_int(t, 0, 2047);
                break;
            case 3:
                v = rng(t) & 1 ? 2047 : 1;
                break;
            }
            block[k] = (int16_t)(rng(t) & 1 ? -v : v);
        }
        const uint64_t ref_mask = ref.magnitude_mask(block, threshold);
        const uint64_t opt_mask = opt.magnitude_mask(block, threshold);
        if (check_bits("magnitude_mask", "sse2", &ref_mask, &opt_mask,
                       sizeof(ref_mask), it))
            return 1;
    }
    printf("magnitude_mask sse2: ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    const uint32_t seed = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0)
                                   : 0x12345678u;
    printf("checkasm: seed 0x%08x\n", (unsigned)seed);
    checkasm *t = calloc(1, sizeof(*t));
    if (t == NULL)
        return 1;
    static const ct_simd targets[2] = {CT_SIMD_SSE2, CT_SIMD_AVX2};
    t->rng_state = seed != 0 ? seed : 1;
    int failed = test_magnitude_mask(t);
    for (int i = 0; i < 2; ++i) {
        const char *target = ct_simd_name(targets[i]);
        ct_jpeg_pixel_dsp ref, opt;
        ct_jpeg_pixel_dsp_init_c(&ref, targets[i]);
        ct_jpeg_pixel_dsp_init(&opt, targets[i], ct_cpu_flags());
        if (memcmp(&ref, &opt, sizeof(ref)) == 0) {
            printf("%s: no SIMD kernels on this CPU, skipped\n", target);
            continue;
        }
        /* xorshift never leaves state 0. */
        t->rng_state = seed + (uint32_t)i;
        if (t->rng_state == 0)
            t->rng_state = 1;
        failed |= test_color(&ref, &opt, target, t);
        failed |= test_downsample(&ref, &opt, target, t);
        failed |= test_pre_erosion(&ref, &opt, target, t);
        failed |= test_fuzzy_erosion(&ref, &opt, target, t);
        failed |= test_block_modulations(&ref, &opt, target, t);
        failed |= test_dct_quant_row(&ref, &opt, target, t);
    }
    free(t);
    return failed ? 1 : 0;
}
