/*
 * The pixel phase gives the same coefficients for any split of the image
 * into bands of iMCU rows: one band, bands of one iMCU row, and random
 * splits, one scratch reused across the bands; and the DC resolved band by
 * band equals the DC resolved at once. Synthetic images (noise, gradients,
 * edges) in every sampling layout.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/coeffs.h"
#include "jpeg/frame.h"
#include "jpeg/pixels.h"

typedef struct test_case {
    const char *name;
    ct_jpeg_subsampling subsampling;
    int adaptive_quantization;
    int xyb;
    int quality;
} test_case;

static const test_case cases[] = {
    {"default", CT_JPEG_SUBSAMPLING_DEFAULT, 1, 0, 90},
    {"420", CT_JPEG_SUBSAMPLING_420, 1, 0, 90},
    {"422", CT_JPEG_SUBSAMPLING_422, 1, 0, 75},
    {"440", CT_JPEG_SUBSAMPLING_440, 1, 0, 50},
    {"noaq", CT_JPEG_SUBSAMPLING_DEFAULT, 0, 0, 100},
    {"xyb", CT_JPEG_SUBSAMPLING_DEFAULT, 1, 1, 90},
    {"xyb444", CT_JPEG_SUBSAMPLING_444, 1, 1, 90},
};

static const uint32_t sizes[][2] = {
    {1, 1}, {7, 9}, {17, 15}, {61, 47}, {100, 37}, {33, 130}, {257, 70},
};

static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* Noise over a gradient, with a hard edge, so that adaptive quantization
 * varies from block to block. */
static void fill_image(uint8_t *pixels, uint32_t width, uint32_t height,
                       int channels, uint32_t seed)
{
    uint32_t state = seed;
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            for (int c = 0; c < channels; ++c) {
                int v = (int)((x * 255 / width + y * 128 / height) % 256);
                if ((x + 2 * y) % 23 < 5)
                    v = 255 - v;
                v += (int)(next_random(&state) % 41) - 20;
                pixels[((size_t)y * width + x) * channels + c] =
                    (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
}

/* Bands: 0 = one band, 1 = one iMCU row each, 2 = random lengths. */
static int compute(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                   int split, uint32_t *state, ct_jpeg_coeffs *coeffs)
{
    if (ct_jpeg_coeffs_alloc(coeffs, frame) != CT_OK)
        return -1;
    ct_jpeg_pixel_scratch *scratch = ct_jpeg_pixel_scratch_new(frame);
    if (scratch == NULL)
        return -1;
    const int rows = frame->total_imcu_rows;
    int16_t last_dc[CT_JPEG_MAX_COMPONENTS] = {0};
    for (int r = 0; r < rows;) {
        int len = split == 0 ? rows
                  : split == 1 ? 1
                               : 1 + (int)(next_random(state) % 3);
        if (len > rows - r)
            len = rows - r;
        ct_jpeg_pixel_band(frame, image, r, r + len, coeffs, scratch);
        /* Split runs resolve the DC band by band, the whole run at once. */
        if (split != 0)
            ct_jpeg_resolve_dc_rows(frame, coeffs, r, r + len, last_dc);
        r += len;
    }
    ct_jpeg_pixel_scratch_free(scratch);
    if (split == 0)
        ct_jpeg_resolve_dc(frame, coeffs);
    return 0;
}

static int same_coefficients(const ct_jpeg_frame *frame,
                             const ct_jpeg_coeffs *a, const ct_jpeg_coeffs *b)
{
    for (int c = 0; c < frame->num_components; ++c) {
        const size_t n = (size_t)frame->comp[c].width_in_blocks *
                         (size_t)frame->comp[c].height_in_blocks;
        if (memcmp(a->blocks[c], b->blocks[c], n * 64 * sizeof(int16_t)) ||
            memcmp(a->dc[c].value, b->dc[c].value, n * sizeof(float)) ||
            memcmp(a->dc[c].threshold, b->dc[c].threshold,
                   n * sizeof(float)))
            return 0;
    }
    return 1;
}

static int run_case(const test_case *tc, ct_simd simd, uint32_t width,
                    uint32_t height, int channels, uint32_t *state)
{
    ct_jpeg_settings settings;
    ct_jpeg_settings_default(&settings);
    settings.chroma_subsampling = tc->subsampling;
    settings.adaptive_quantization = tc->adaptive_quantization;
    settings.xyb = tc->xyb;
    settings.quality = tc->quality;
    settings.simd = simd;
    char err[256];
    ct_jpeg_frame frame;
    if (ct_jpeg_setup(&frame, &settings, width, height, channels, err,
                      sizeof(err)) != CT_OK) {
        printf("setup failed: %s\n", err);
        return 1;
    }
    uint8_t *pixels = malloc((size_t)width * height * channels);
    if (pixels == NULL)
        return 1;
    fill_image(pixels, width, height, channels, width * 131 + height);
    const ct_jpeg_image image = {
        width, height, channels == 1 ? CT_PIXEL_GRAY8 : CT_PIXEL_RGB8,
        (size_t)width * channels, pixels};

    ct_jpeg_coeffs whole, split;
    int failed = compute(&frame, &image, 0, state, &whole) != 0;
    for (int mode = 1; mode <= 2 && !failed; ++mode) {
        failed = compute(&frame, &image, mode, state, &split) != 0 ||
                 !same_coefficients(&frame, &whole, &split);
        ct_jpeg_coeffs_free(&split);
        if (failed) {
            printf("%s %s %ux%u %s: bands (%s) differ from one band\n",
                   ct_simd_name(simd), tc->name, (unsigned)width,
                   (unsigned)height, channels == 1 ? "gray" : "rgb",
                   mode == 1 ? "one iMCU row each" : "random");
        }
    }
    ct_jpeg_coeffs_free(&whole);
    free(pixels);
    return failed;
}

int main(void)
{
    static const ct_simd targets[2] = {CT_SIMD_SSE2, CT_SIMD_AVX2};
    uint32_t state = 0x2468ace1u;
    int failed = 0;
    int runs = 0;
    for (int t = 0; t < 2; ++t) {
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
            for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
                for (int channels = 1; channels <= 3; channels += 2) {
                    failed |= run_case(&cases[i], targets[t], sizes[s][0],
                                       sizes[s][1], channels, &state);
                    ++runs;
                }
            }
        }
    }
    printf("pixel bands: %d cases, %s\n", runs,
           failed ? "FAILED" : "all splits identical");
    return failed ? 1 : 0;
}
