/*
 * checkasm for the JPEG encoder: the pixel phase's kernels
 * (jpeg/pixel_dsp.h) for both arithmetic targets, and the tokenizer's
 * kernels (jpeg/tokenize_dsp.h). Inputs are random and edge values
 * in the ranges the encoder feeds each kernel, with sizes that are not
 * multiples of the vector width.
 *
 * A pixel kernel is named jpeg_<kernel>_target_<target>: its scalar twin is
 * the reference of that target's arithmetic.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "common/cpu.h"
#include "jpeg/pixel_dsp.h"
#include "jpeg/tokenize_dsp.h"

#define ITERATIONS 200
/* Floats of margin around every test row: kernels read x = -1 and a few
 * values past the end. */
#define MARGIN  32
#define MAX_ROW 640

/* The buffers of a level's run. */
typedef struct jpeg_buffers {
    float in[6][MAX_ROW + 2 * MARGIN];
    float out_ref[MAX_ROW + 2 * MARGIN];
    float out_opt[MAX_ROW + 2 * MARGIN];
    uint8_t bytes[3 * MAX_ROW];
    float block_rows[8 * MAX_ROW];
    float planes_ref[3][MAX_ROW];
    float planes_opt[3][MAX_ROW];
} jpeg_buffers;

/* Pixel-like values: uniform, integers, plateaus, or the extremes. */
static void fill_pixels(float *v, int n, float lo, float hi)
{
    const int mode = checkasm_rand_int(0, 3);
    const float plateau = checkasm_rand_float(lo, hi);
    for (int i = 0; i < n; ++i) {
        switch (mode) {
        case 0:
            v[i] = checkasm_rand_float(lo, hi);
            break;
        case 1:
            v[i] = (float)checkasm_rand_int((int)lo, (int)hi);
            break;
        case 2:
            v[i] =
                (checkasm_rand() & 3) ? plateau : checkasm_rand_float(lo, hi);
            break;
        default:
            v[i] = (checkasm_rand() & 1) ? lo : hi;
            break;
        }
    }
}

static void check_color(const ct_jpeg_pixel_dsp *ref,
                        const ct_jpeg_pixel_dsp *opt, const char *target,
                        jpeg_buffers *t)
{
    if (checkasm_check_func(opt->rgb8_to_ycbcr, ref->rgb8_to_ycbcr,
                            "jpeg_rgb8_to_ycbcr_target_%s", target)) {
        static const char *planes[3] = {"y", "cb", "cr"};
        int differs = 0;
        for (int it = 0; it < ITERATIONS && !differs; ++it) {
            const int n = checkasm_rand_int(0, 100);
            const int extremes = checkasm_rand_int(0, 3) == 0;
            for (int i = 0; i < 3 * n; ++i)
                t->bytes[i] = extremes ? (checkasm_rand() & 1) * 255
                                       : (uint8_t)checkasm_rand();
            ref->rgb8_to_ycbcr(t->bytes, n, t->planes_ref[0], t->planes_ref[1],
                               t->planes_ref[2]);
            opt->rgb8_to_ycbcr(t->bytes, n, t->planes_opt[0], t->planes_opt[1],
                               t->planes_opt[2]);
            for (int c = 0; c < 3 && !differs; ++c)
                differs = checkasm_check_bits(planes[c], t->planes_ref[c],
                                              t->planes_opt[c],
                                              n * sizeof(float), it);
        }
        CHECKASM_BENCH(ref->rgb8_to_ycbcr(t->bytes, MAX_ROW, t->planes_ref[0],
                                          t->planes_ref[1], t->planes_ref[2]),
                       opt->rgb8_to_ycbcr(t->bytes, MAX_ROW, t->planes_opt[0],
                                          t->planes_opt[1], t->planes_opt[2]));
    }
    if (checkasm_check_func(opt->gray8_to_float, ref->gray8_to_float,
                            "jpeg_gray8_to_float_target_%s", target)) {
        for (int it = 0; it < ITERATIONS; ++it) {
            const int n = checkasm_rand_int(0, 100);
            for (int i = 0; i < n; ++i)
                t->bytes[i] = (uint8_t)checkasm_rand();
            ref->gray8_to_float(t->bytes, n, t->out_ref);
            opt->gray8_to_float(t->bytes, n, t->out_opt);
            if (checkasm_check_bits("out", t->out_ref, t->out_opt,
                                    n * sizeof(float), it))
                break;
        }
        CHECKASM_BENCH(ref->gray8_to_float(t->bytes, MAX_ROW, t->out_ref),
                       opt->gray8_to_float(t->bytes, MAX_ROW, t->out_opt));
    }
}

static void check_downsample(const ct_jpeg_pixel_dsp *ref,
                             const ct_jpeg_pixel_dsp *opt, const char *target,
                             jpeg_buffers *t)
{
    static const char *names[3] = {"2x1", "1x2", "2x2"};
    const void *refs[3] = {ref->downsample_2x1, ref->downsample_1x2,
                           ref->downsample_2x2};
    const void *opts[3] = {opt->downsample_2x1, opt->downsample_1x2,
                           opt->downsample_2x2};
    for (int kind = 0; kind < 3; ++kind) {
        if (!checkasm_check_func(opts[kind], refs[kind],
                                 "jpeg_downsample_%s_target_%s", names[kind],
                                 target))
            continue;
        for (int it = 0; it < ITERATIONS; ++it) {
            const int n_out = checkasm_rand_int(0, MAX_ROW / 2);
            /* YCbCr planes, and XYB's scaled planes (which can be
             * negative). */
            fill_pixels(t->in[0], 2 * n_out, -64.0f, 320.0f);
            fill_pixels(t->in[1], 2 * n_out, -64.0f, 320.0f);
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
            if (checkasm_check_bits("out", t->out_ref, t->out_opt,
                                    n_out * sizeof(float), it))
                break;
        }
        const size_t n_bench = MAX_ROW / 2;
        if (kind == 0)
            CHECKASM_BENCH(ref->downsample_2x1(t->in[0], n_bench, t->out_ref),
                           opt->downsample_2x1(t->in[0], n_bench, t->out_opt));
        else if (kind == 1)
            CHECKASM_BENCH(
                ref->downsample_1x2(t->in[0], t->in[1], n_bench, t->out_ref),
                opt->downsample_1x2(t->in[0], t->in[1], n_bench, t->out_opt));
        else
            CHECKASM_BENCH(
                ref->downsample_2x2(t->in[0], t->in[1], n_bench, t->out_ref),
                opt->downsample_2x2(t->in[0], t->in[1], n_bench, t->out_opt));
    }
}

static void check_pre_erosion(const ct_jpeg_pixel_dsp *ref,
                              const ct_jpeg_pixel_dsp *opt, const char *target,
                              jpeg_buffers *t)
{
    if (!checkasm_check_func(opt->pre_erosion, ref->pre_erosion,
                             "jpeg_pre_erosion_target_%s", target))
        return;
    const float *rows[6];
    for (int i = 0; i < 6; ++i)
        rows[i] = t->in[i] + 1;
    for (int it = 0; it < ITERATIONS; ++it) {
        const int n_out = 2 * checkasm_rand_int(1, MAX_ROW / 8);
        /* Luma in [0, 255]; x = -1 and x = 4 n_out are readable. */
        for (int i = 0; i < 6; ++i)
            fill_pixels(t->in[i], 4 * n_out + 2, 0.0f, 255.0f);
        ref->pre_erosion(rows, n_out, t->out_ref);
        opt->pre_erosion(rows, n_out, t->out_opt);
        if (checkasm_check_bits("out", t->out_ref, t->out_opt,
                                n_out * sizeof(float), it))
            break;
    }
    CHECKASM_BENCH(ref->pre_erosion(rows, MAX_ROW / 4, t->out_ref),
                   opt->pre_erosion(rows, MAX_ROW / 4, t->out_opt));
}

static void check_fuzzy_erosion(const ct_jpeg_pixel_dsp *ref,
                                const ct_jpeg_pixel_dsp *opt,
                                const char *target, jpeg_buffers *t)
{
    if (!checkasm_check_func(opt->fuzzy_erosion, ref->fuzzy_erosion,
                             "jpeg_fuzzy_erosion_target_%s", target))
        return;
    const float *pre[4];
    for (int i = 0; i < 4; ++i)
        pre[i] = t->in[i] + 1;
    for (int it = 0; it < ITERATIONS; ++it) {
        const int nblocks = checkasm_rand_int(1, MAX_ROW / 2 - 1);
        /* Pre-erosion values lie in about [5, 170]; equal values test the
         * order of the min/max network. */
        for (int i = 0; i < 4; ++i)
            fill_pixels(t->in[i], 2 * nblocks + 2, 5.0f, 170.0f);
        ref->fuzzy_erosion(pre, nblocks, t->out_ref);
        opt->fuzzy_erosion(pre, nblocks, t->out_opt);
        if (checkasm_check_bits("aq", t->out_ref, t->out_opt,
                                nblocks * sizeof(float), it))
            break;
    }
    CHECKASM_BENCH(ref->fuzzy_erosion(pre, MAX_ROW / 2 - 1, t->out_ref),
                   opt->fuzzy_erosion(pre, MAX_ROW / 2 - 1, t->out_opt));
}

static void check_block_modulations(const ct_jpeg_pixel_dsp *ref,
                                    const ct_jpeg_pixel_dsp *opt,
                                    const char *target, jpeg_buffers *t)
{
    if (!checkasm_check_func(opt->block_modulations, ref->block_modulations,
                             "jpeg_block_modulations_target_%s", target))
        return;
    static const int y_quant_01[] = {1, 2, 8, 9, 10, 37, 64, 65, 66, 255};
    enum { MAX_BLOCKS = 24, STRIDE = 8 * MAX_BLOCKS + 8 };
    float *rows = t->block_rows;
    float qf_in[MAX_BLOCKS], qf_ref[MAX_BLOCKS], qf_opt[MAX_BLOCKS];
    int yq = 0;
    for (int it = 0; it < ITERATIONS; ++it) {
        const int nblocks = checkasm_rand_int(1, MAX_BLOCKS);
        for (int y = 0; y < 8; ++y)
            fill_pixels(rows + y * STRIDE, 8 * nblocks + 1, 0.0f, 255.0f);
        /* Fuzzy erosion sums. */
        fill_pixels(qf_in, MAX_BLOCKS, 0.5f, 400.0f);
        memcpy(qf_ref, qf_in, sizeof(qf_in));
        memcpy(qf_opt, qf_in, sizeof(qf_in));
        yq = y_quant_01[checkasm_rand_int(0, 9)];
        ref->block_modulations(rows, STRIDE, nblocks, yq, qf_ref);
        opt->block_modulations(rows, STRIDE, nblocks, yq, qf_opt);
        if (checkasm_check_bits("qf", qf_ref, qf_opt, nblocks * sizeof(float),
                                it))
            break;
    }
    /* qf is updated in place: each call starts again from the same field. */
    for (int y = 0; y < 8; ++y)
        fill_pixels(rows + y * STRIDE, 8 * MAX_BLOCKS + 1, 0.0f, 255.0f);
    CHECKASM_BENCH(
        (memcpy(qf_ref, qf_in, sizeof(qf_in)),
         ref->block_modulations(rows, STRIDE, MAX_BLOCKS, yq, qf_ref)),
        (memcpy(qf_opt, qf_in, sizeof(qf_in)),
         opt->block_modulations(rows, STRIDE, MAX_BLOCKS, yq, qf_opt)));
}

static void check_dct_quant_row(const ct_jpeg_pixel_dsp *ref,
                                const ct_jpeg_pixel_dsp *opt,
                                const char *target, jpeg_buffers *t)
{
    if (!checkasm_check_func(opt->dct_quant_row, ref->dct_quant_row,
                             "jpeg_dct_quant_row_target_%s", target))
        return;
    enum { MAX_BLOCKS = 6, STRIDE = 8 * MAX_BLOCKS + 5 };
    float *pixels = t->block_rows;
    float qmc[64], zbo[64], zbm[64], aq[2 * MAX_BLOCKS];
    int16_t blocks_ref[64 * MAX_BLOCKS], blocks_opt[64 * MAX_BLOCKS];
    float dc_ref[2][MAX_BLOCKS], dc_opt[2][MAX_BLOCKS];
    for (int it = 0; it < 4 * ITERATIONS; ++it) {
        const int nblocks = checkasm_rand_int(1, MAX_BLOCKS);
        const int stride = checkasm_rand_int(8 * nblocks, STRIDE);
        /* 8-bit YCbCr, or XYB's scaled planes. */
        const int xyb = checkasm_rand_int(0, 3) == 0;
        for (int y = 0; y < 8; ++y) {
            fill_pixels(pixels + y * stride, 8 * nblocks, xyb ? -40.0f : 0.0f,
                        xyb ? 300.0f : 255.0f);
        }
        /* Half the time, multipliers 2^10 .. 2^20 and no zero bias, so the
         * low 16 bits of each quantized value show the low bits of the DCT
         * output: the DCT's rounding is compared, not only its result after
         * quantization. */
        const int expose_bits = checkasm_rand() & 1;
        const int qmax = checkasm_rand_int(1, 255);
        for (int k = 0; k < 64; ++k) {
            if (expose_bits) {
                qmc[k] = (float)(1 << checkasm_rand_int(10, 20));
                zbo[k] = 0.0f;
                zbm[k] = 0.0f;
            } else {
                qmc[k] = 8.0f / (float)checkasm_rand_int(1, qmax);
                zbo[k] = checkasm_rand_int(0, 3)
                             ? checkasm_rand_float(0.0f, 0.7f)
                             : 0.0f;
                zbm[k] = checkasm_rand_int(0, 3)
                             ? checkasm_rand_float(0.0f, 0.7f)
                             : 0.0f;
            }
        }
        fill_pixels(aq, 2 * MAX_BLOCKS, 0.0f, 2.0f);
        const float *aq_row = checkasm_rand_int(0, 3) == 0 ? NULL : aq;
        const size_t aq_step = (size_t)checkasm_rand_int(1, 2);
        ref->dct_quant_row(pixels, stride, nblocks, qmc, zbo, zbm, aq_row,
                           aq_step, blocks_ref, dc_ref[0], dc_ref[1]);
        opt->dct_quant_row(pixels, stride, nblocks, qmc, zbo, zbm, aq_row,
                           aq_step, blocks_opt, dc_opt[0], dc_opt[1]);
        if (checkasm_check_bits("blocks", blocks_ref, blocks_opt,
                                64 * nblocks * sizeof(int16_t), it) ||
            checkasm_check_bits("dc", dc_ref[0], dc_opt[0],
                                nblocks * sizeof(float), it) ||
            checkasm_check_bits("dc threshold", dc_ref[1], dc_opt[1],
                                nblocks * sizeof(float), it))
            break;
    }
    for (int y = 0; y < 8; ++y)
        fill_pixels(pixels + y * STRIDE, 8 * MAX_BLOCKS, 0.0f, 255.0f);
    CHECKASM_BENCH(ref->dct_quant_row(pixels, STRIDE, MAX_BLOCKS, qmc, zbo, zbm,
                                      aq, 1, blocks_ref, dc_ref[0], dc_ref[1]),
                   opt->dct_quant_row(pixels, STRIDE, MAX_BLOCKS, qmc, zbo, zbm,
                                      aq, 1, blocks_opt, dc_opt[0], dc_opt[1]));
}

/* Coefficient blocks of 12-bit values: mostly zero or near the threshold
 * (a scan's 1 << Al), as quantized blocks are, and the extremes. */
#define MASK_BLOCKS 9

static void check_magnitude_masks(const ct_jpeg_tokenize_dsp *ref,
                                  const ct_jpeg_tokenize_dsp *opt)
{
    if (!checkasm_check_func(opt->magnitude_masks, ref->magnitude_masks,
                             "jpeg_magnitude_masks"))
        return;
    int16_t blocks[MASK_BLOCKS * 64];
    uint64_t masks_ref[MASK_BLOCKS], masks_opt[MASK_BLOCKS];
    int threshold = 1;
    for (int it = 0; it < 4 * ITERATIONS; ++it) {
        threshold = 1 << checkasm_rand_int(0, 10);
        const size_t n = (size_t)checkasm_rand_int(1, MASK_BLOCKS);
        for (size_t k = 0; k < n * 64; ++k) {
            int v = 0;
            switch (checkasm_rand_int(0, 3)) {
            case 1:
                v = threshold + checkasm_rand_int(-2, 1);
                break;
            case 2:
                v = checkasm_rand_int(0, 2047);
                break;
            case 3:
                v = checkasm_rand() & 1 ? 2047 : 1;
                break;
            }
            blocks[k] = (int16_t)(checkasm_rand() & 1 ? -v : v);
        }
        ref->magnitude_masks(blocks, n, threshold, masks_ref);
        opt->magnitude_masks(blocks, n, threshold, masks_opt);
        if (checkasm_check_bits("masks", masks_ref, masks_opt,
                                n * sizeof(masks_ref[0]), it))
            break;
    }
    CHECKASM_BENCH(
        ref->magnitude_masks(blocks, MASK_BLOCKS, threshold, masks_ref),
        opt->magnitude_masks(blocks, MASK_BLOCKS, threshold, masks_opt));
}

void checkasm_check_jpeg(void)
{
    static const ct_simd targets[2] = {CT_SIMD_SSE2, CT_SIMD_AVX2};
    jpeg_buffers *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(1);
    }
    ct_jpeg_tokenize_dsp tokenize_ref, tokenize_opt;
    ct_jpeg_tokenize_dsp_init(&tokenize_ref, 0);
    ct_jpeg_tokenize_dsp_init(&tokenize_opt, checkasm_cpu_flags());
    check_magnitude_masks(&tokenize_ref, &tokenize_opt);
    checkasm_report("jpeg_magnitude_masks");
    for (int i = 0; i < 2; ++i) {
        const char *target = ct_simd_name(targets[i]);
        ct_jpeg_pixel_dsp ref, opt;
        ct_jpeg_pixel_dsp_init_c(&ref, targets[i]);
        ct_jpeg_pixel_dsp_init(&opt, targets[i], checkasm_cpu_flags());
        check_color(&ref, &opt, target, t);
        check_downsample(&ref, &opt, target, t);
        check_pre_erosion(&ref, &opt, target, t);
        check_fuzzy_erosion(&ref, &opt, target, t);
        check_block_modulations(&ref, &opt, target, t);
        check_dct_quant_row(&ref, &opt, target, t);
        checkasm_report(targets[i] == CT_SIMD_SSE2 ? "jpeg_pixel_target_sse2"
                                                   : "jpeg_pixel_target_avx2");
    }
    free(t);
}
