/*
 * The pixel phase gives the same coefficients for any split of the image
 * into tiles (bands of iMCU rows x strips of iMCU columns) as for the whole
 * image in one band: bands of one iMCU row, random bands, strips of one
 * iMCU column, strips of 64 pixel columns, strips of about 1024 columns,
 * and random tiles in random order, one scratch (sized for the widest
 * strip) reused across the tiles. The DC resolved band by band equals the
 * DC resolved at once. Synthetic images (noise, gradients, edges) in every
 * sampling layout, gray and RGB, odd sizes from 1x1 to 1x4000 and 4000x1,
 * and a few photos of the golden set.
 *
 * Usage: pixel_tiles [GOLDEN_DIR]; without it, or when its photos are
 * absent, only the synthetic images run.
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
#include "pnm.h"

typedef struct test_case {
    const char *name;
    ct_jpeg_subsampling subsampling;
    int adaptive_quantization;
    int xyb;
    int quality;
} test_case;

static const test_case cases[] = {
    {"default", CT_JPEG_SUBSAMPLING_DEFAULT, 1, 0, 90},
    {"444", CT_JPEG_SUBSAMPLING_444, 1, 0, 90},
    {"420", CT_JPEG_SUBSAMPLING_420, 1, 0, 90},
    {"422", CT_JPEG_SUBSAMPLING_422, 1, 0, 75},
    {"440", CT_JPEG_SUBSAMPLING_440, 1, 0, 50},
    {"noaq", CT_JPEG_SUBSAMPLING_DEFAULT, 0, 0, 100},
    {"noaq420", CT_JPEG_SUBSAMPLING_420, 0, 0, 80},
    {"xyb", CT_JPEG_SUBSAMPLING_DEFAULT, 1, 1, 90},
    {"xyb444", CT_JPEG_SUBSAMPLING_444, 1, 1, 90},
};

static const uint32_t sizes[][2] = {
    {1, 1},    {7, 9},   {17, 15}, {61, 47},  {100, 37},  {33, 130},
    {257, 70}, {8, 8},   {16, 16}, {200, 33}, {2100, 24}, {1, 4000},
    {4000, 1},
};

/* Photos of the golden set, with the cases they run. */
typedef struct photo_case {
    const char *input;
    const char *cases[2];
} photo_case;

static const photo_case photos[] = {
    {"inputs/photo-raindrops-1920x1200.ppm", {"default", "420"}},
    {"inputs/photo-raindrops-gray-1920x1200.pgm", {"default", "noaq"}},
    {"inputs/photo-storm-1920x1280.ppm", {"xyb", "422"}},
    {"inputs/crop-elephants-x1872-y1376-256x256.ppm", {"440", "noaq420"}},
};

/* How a split cuts one dimension into pieces. */
typedef enum cut_kind {
    CUT_WHOLE,
    CUT_IMCUS,  /* length iMCUs each */
    CUT_PIXELS, /* length pixels each (at least one iMCU) */
    CUT_STRIPS, /* columns: the encoder's strips of about length pixels */
    CUT_RANDOM, /* random lengths of 1 .. length iMCUs */
} cut_kind;

typedef struct cut {
    cut_kind kind;
    int length;
} cut;

typedef struct split {
    const char *name;
    cut rows, cols;
    int shuffled; /* tiles in random order, else band by band */
} split;

static const split splits[] = {
    {"bands of one iMCU row", {CUT_IMCUS, 1}, {CUT_WHOLE, 0}, 0},
    {"random bands", {CUT_RANDOM, 3}, {CUT_WHOLE, 0}, 0},
    {"strips of one iMCU column", {CUT_WHOLE, 0}, {CUT_IMCUS, 1}, 0},
    {"strips of 64 columns x random bands",
     {CUT_RANDOM, 4},
     {CUT_PIXELS, 64},
     0},
    {"strips of about 1024 columns x bands of 2",
     {CUT_IMCUS, 2},
     {CUT_STRIPS, 1024},
     0},
    {"random tiles in random order", {CUT_RANDOM, 3}, {CUT_RANDOM, 5}, 1},
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

/* Cuts the iMCU rows (columns when cols) of the frame into pieces:
 * bounds[0] = 0 < bounds[1] < ... < bounds[n] = the total. Returns n. */
static int make_cut(const ct_jpeg_frame *frame, const cut *how, int cols,
                    uint32_t *state, int *bounds)
{
    const int total = cols ? frame->total_imcu_cols : frame->total_imcu_rows;
    const int imcu_size =
        CT_DCTSIZE * (cols ? frame->max_h_samp : frame->max_v_samp);
    int fixed = total;
    if (how->kind == CUT_IMCUS)
        fixed = how->length;
    else if (how->kind == CUT_PIXELS)
        fixed = (how->length + imcu_size - 1) / imcu_size;
    else if (how->kind == CUT_STRIPS)
        fixed = ct_jpeg_pixel_strip_imcu_cols(frame, how->length);
    int n = 0;
    bounds[0] = 0;
    for (int at = 0; at < total; ++n) {
        int len = how->kind == CUT_RANDOM
                      ? 1 + (int)(next_random(state) % (uint32_t)how->length)
                      : fixed;
        if (len > total - at)
            len = total - at;
        at += len;
        bounds[n + 1] = at;
    }
    return n;
}

/* The whole image as one band, the DC resolved at once. */
static int compute_reference(const ct_jpeg_frame *frame,
                             const ct_jpeg_image *image,
                             ct_jpeg_coeffs *coeffs)
{
    if (ct_jpeg_coeffs_alloc(coeffs, frame) != CT_OK ||
        ct_jpeg_pixel_image(frame, image, coeffs) != CT_OK)
        return -1;
    ct_jpeg_resolve_dc(frame, coeffs);
    return 0;
}

/* The image in the tiles of a split, with one scratch for the widest
 * strip. Bands of whole rows resolve their DC band by band, in order. */
static int compute_split(const ct_jpeg_frame *frame,
                         const ct_jpeg_image *image, const split *sp,
                         uint32_t *state, ct_jpeg_coeffs *coeffs)
{
    const int rows = frame->total_imcu_rows;
    const int cols = frame->total_imcu_cols;
    int *row_bounds = malloc(((size_t)rows + 1) * sizeof(int));
    int *col_bounds = malloc(((size_t)cols + 1) * sizeof(int));
    int *order = malloc((size_t)rows * (size_t)cols * sizeof(int));
    ct_jpeg_pixel_scratch *scratch = NULL;
    int rc = -1;
    memset(coeffs, 0, sizeof(*coeffs));
    if (row_bounds == NULL || col_bounds == NULL || order == NULL ||
        ct_jpeg_coeffs_alloc(coeffs, frame) != CT_OK)
        goto done;

    const int n_bands = make_cut(frame, &sp->rows, 0, state, row_bounds);
    const int n_strips = make_cut(frame, &sp->cols, 1, state, col_bounds);
    int widest = 0;
    for (int i = 0; i < n_strips; ++i) {
        const int w = col_bounds[i + 1] - col_bounds[i];
        widest = w > widest ? w : widest;
    }
    scratch = ct_jpeg_pixel_scratch_new(frame, widest);
    if (scratch == NULL)
        goto done;

    const int n_tiles = n_bands * n_strips;
    for (int i = 0; i < n_tiles; ++i)
        order[i] = i;
    if (sp->shuffled) {
        for (int i = n_tiles - 1; i > 0; --i) {
            const int j = (int)(next_random(state) % (uint32_t)(i + 1));
            const int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    const int whole_rows = n_strips == 1;
    int16_t last_dc[CT_JPEG_MAX_COMPONENTS] = {0};
    for (int i = 0; i < n_tiles; ++i) {
        const int band = order[i] / n_strips;
        const int strip = order[i] % n_strips;
        const int r0 = row_bounds[band], r1 = row_bounds[band + 1];
        if (whole_rows) {
            ct_jpeg_pixel_band(frame, image, r0, r1, coeffs, scratch);
            ct_jpeg_resolve_dc_rows(frame, coeffs, r0, r1, last_dc);
        } else {
            ct_jpeg_pixel_tile(frame, image, r0, r1, col_bounds[strip],
                               col_bounds[strip + 1], coeffs, scratch);
        }
    }
    if (!whole_rows)
        ct_jpeg_resolve_dc(frame, coeffs);
    rc = 0;
done:
    ct_jpeg_pixel_scratch_free(scratch);
    free(order);
    free(col_bounds);
    free(row_bounds);
    return rc;
}

/* Prints the first block whose coefficients or DC plane differ; returns 0
 * when there is none. */
static int report_difference(const ct_jpeg_frame *frame,
                             const ct_jpeg_coeffs *a, const ct_jpeg_coeffs *b)
{
    for (int c = 0; c < frame->num_components; ++c) {
        const int wib = frame->comp[c].width_in_blocks;
        const size_t n = (size_t)wib * (size_t)frame->comp[c].height_in_blocks;
        for (size_t i = 0; i < n; ++i) {
            if (memcmp(a->blocks[c] + i * CT_DCTSIZE2,
                       b->blocks[c] + i * CT_DCTSIZE2,
                       CT_DCTSIZE2 * sizeof(int16_t)) ||
                memcmp(&a->dc[c].value[i], &b->dc[c].value[i],
                       sizeof(float)) ||
                memcmp(&a->dc[c].threshold[i], &b->dc[c].threshold[i],
                       sizeof(float))) {
                printf("  first difference: component %d, block row %zu, "
                       "block column %zu\n",
                       c, i / (size_t)wib, i % (size_t)wib);
                return 1;
            }
        }
    }
    return 0;
}

static const test_case *find_case(const char *name)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
        if (strcmp(cases[i].name, name) == 0)
            return &cases[i];
    return NULL;
}

/* Every split of one image against the reference; returns 1 on a
 * difference or an error. */
static int run_case(const test_case *tc, ct_simd simd,
                    const ct_jpeg_image *image, const char *label,
                    uint32_t *state, int *runs)
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
    if (ct_jpeg_setup(&frame, &settings, image->width, image->height,
                      image->format, err, sizeof(err)) != CT_OK) {
        printf("%s %s %s: setup failed: %s\n", ct_simd_name(simd), tc->name,
               label, err);
        return 1;
    }
    ct_jpeg_coeffs whole, tiled;
    if (compute_reference(&frame, image, &whole) != 0) {
        printf("%s %s %s: out of memory\n", ct_simd_name(simd), tc->name,
               label);
        ct_jpeg_coeffs_free(&whole);
        return 1;
    }
    int failed = 0;
    for (size_t i = 0; i < sizeof(splits) / sizeof(splits[0]); ++i) {
        ++*runs;
        if (compute_split(&frame, image, &splits[i], state, &tiled) != 0) {
            printf("%s %s %s: out of memory\n", ct_simd_name(simd),
                   tc->name, label);
            failed = 1;
        } else if (report_difference(&frame, &whole, &tiled)) {
            printf("%s %s %s: %s differ from one band\n", ct_simd_name(simd),
                   tc->name, label, splits[i].name);
            failed = 1;
        }
        ct_jpeg_coeffs_free(&tiled);
    }
    ct_jpeg_coeffs_free(&whole);
    return failed;
}

static int run_synthetic(ct_simd simd, uint32_t *state, int *runs)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
            for (int channels = 1; channels <= 3; channels += 2) {
                const uint32_t width = sizes[s][0], height = sizes[s][1];
                uint8_t *pixels = malloc((size_t)width * height * channels);
                if (pixels == NULL)
                    return 1;
                fill_image(pixels, width, height, channels,
                           width * 131 + height);
                const ct_jpeg_image image = {
                    .width = width,
                    .height = height,
                    .format = channels == 1 ? CT_PIXEL_GRAY8 : CT_PIXEL_RGB8,
                    .stride = (size_t)width * channels,
                    .pixels = pixels};
                char label[64];
                snprintf(label, sizeof(label), "%ux%u %s", (unsigned)width,
                         (unsigned)height, channels == 1 ? "gray" : "rgb");
                failed |= run_case(&cases[i], simd, &image, label, state,
                                   runs);
                free(pixels);
            }
        }
    }
    return failed;
}

static int run_photos(const char *golden_dir, ct_simd simd, uint32_t *state,
                      int *runs, int *photos_run)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof(photos) / sizeof(photos[0]); ++i) {
        char path[4096], err[256];
        snprintf(path, sizeof(path), "%s/%s", golden_dir, photos[i].input);
        ct_pnm_image pnm;
        if (ct_pnm_read(path, &pnm, err, sizeof(err)) < 0) {
            printf("skipping %s: %s\n", photos[i].input, err);
            continue;
        }
        ++*photos_run;
        const ct_jpeg_image image = ct_pnm_jpeg_image(&pnm);
        for (int k = 0; k < 2; ++k) {
            const test_case *tc = find_case(photos[i].cases[k]);
            failed |= tc == NULL ||
                      run_case(tc, simd, &image, photos[i].input, state,
                               runs);
        }
        ct_pnm_free(&pnm);
    }
    return failed;
}

int main(int argc, char **argv)
{
    static const ct_simd targets[2] = {CT_SIMD_SSE2, CT_SIMD_AVX2};
    uint32_t state = 0x2468ace1u;
    int failed = 0;
    int runs = 0;
    int photos_run = 0;
    for (int t = 0; t < 2; ++t) {
        failed |= run_synthetic(targets[t], &state, &runs);
        if (argc > 1)
            failed |= run_photos(argv[1], targets[t], &state, &runs,
                                 &photos_run);
    }
    printf("pixel tiles: %d splits (%d photo runs), %s\n", runs, photos_run,
           failed ? "FAILED" : "all identical to one band");
    return failed ? 1 : 0;
}
