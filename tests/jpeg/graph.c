/*
 * Decomposition test of the JPEG task graph: for golden images, every pool
 * size from 1 to 7 workers and the extreme splits (tiles of one iMCU row,
 * strips of 64 columns, whole scans only, 9 bands per AC scan, one chunk
 * per band), the graph writes exactly the bytes of the sequential chain,
 * and those are the golden file's. With --yuv, the same for the YCbCr
 * golden set's rows, the graph reading each in a layout that it gathers
 * (NV12 for I420, YUYV for Y42B; Y444 planar), with padded rows.
 *
 * usage: jpeg_graph [--quick] [--yuv] GOLDEN_DIR
 *        (exit 77 without the golden set)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cjpegli_flags.h"
#include "ctcore/runtime.h"
#include "golden_manifest.h"
#include "jpeg/frame.h"
#include "jpeg/graph.h"
#include "jpeg/xyb.h"
#include "pnm.h"
#include "yuv_planes.h"

/* Row padding of the layouts the graph reads YCbCr rows in. */
#define YUV_ROW_PAD 5

typedef struct named_split {
    const char *name;
    ct_jpeg_graph_split split;
} named_split;

static const named_split splits[] = {
    {"auto", {0}},
    {"one-row tiles, one-row bands, chunk per band",
     {.band_imcu_rows = 1, .entropy = {.band_rows = 1, .chunk_bits = 1}}},
    {"64-column strips", {.strip_width = 64}},
    {"whole scans",
     {.entropy = {.band_rows = INT_MAX, .chunk_bits = UINT64_MAX}}},
    {"9 bands per AC scan", {.entropy = {.ac_bands = 9}}},
};
#define NUM_SPLITS (sizeof(splits) / sizeof(splits[0]))

/* Settings covering sequential and both progressive levels, with and
 * without chroma subsampling (the golden rows' flags). */
static const char *const settings_names[] = {
    "", "-p 0", "-p 1", "--chroma_subsampling=420",
    "--chroma_subsampling=420 -p 0", "--chroma_subsampling=422",
    "--xyb", "-p 0 --fixed_code",
};

static int wanted_input(const char *input, int quick)
{
    if (strstr(input, "syn-") != NULL)
        return !quick || strstr(input, "61x47") != NULL ||
               strstr(input, "1x4000") != NULL;
    if (strstr(input, "256x256") != NULL)
        return !quick || strstr(input, "elephants") != NULL;
    return !quick && strcmp(input, "inputs/photo-storm-1920x1280.ppm") == 0;
}

/* The YCbCr set's rows: its synthetic and small inputs (all but the 256x256
 * crops, of which one) and the 1920x1200 photo. */
static int wanted_yuv_input(const char *input, int quick)
{
    if (strstr(input, "syn-") != NULL)
        return !quick || strstr(input, "61x47") != NULL;
    if (strstr(input, "256x256") != NULL)
        return strstr(input, "elephants") != NULL;
    if (strstr(input, "crop-") != NULL)
        return !quick;
    return !quick && strstr(input, "1920x1200") != NULL;
}

static int wanted_flags(const char *flags)
{
    for (size_t i = 0; i < sizeof(settings_names) / sizeof(*settings_names);
         ++i)
        if (strcmp(flags, settings_names[i]) == 0)
            return 1;
    return 0;
}

static int encode(ct_pool *pool, const ct_jpeg_frame *frame,
                  const ct_jpeg_image *image, const ct_jpeg_graph_split *split,
                  const uint8_t *icc, size_t icc_size, ct_jpeg_output *out)
{
    if (split == NULL)
        return ct_jpeg_graph_run_sequential(frame, image, icc, icc_size, out);
    return ct_jpeg_graph_run(pool, frame, image, split, icc, icc_size, out);
}

static int same(const ct_jpeg_output *a, const uint8_t *b, size_t b_size)
{
    return a->size == b_size && memcmp(a->data, b, b_size) == 0;
}

/* A row's input as the graph reads it, and what holds its bytes. */
typedef struct row_input {
    ct_jpeg_image image;
    ct_pnm_image pnm;
    ct_yuv_planes planes;
    uint8_t *layout_memory;
} row_input;

/* Reads a row's input. 0, or -1 with a message in err. */
static int read_input(const char *path, const ct_golden_row *row, row_input *in,
                      char *err, size_t err_size)
{
    memset(in, 0, sizeof(*in));
    if (row->format == NULL) {
        if (ct_pnm_read(path, &in->pnm, err, err_size) < 0)
            return -1;
        in->image = ct_pnm_jpeg_image(&in->pnm);
        return 0;
    }
    const ct_pixel_format format = ct_yuv_format_from_name(row->format);
    if (ct_yuv_planes_read(path, format,
                           (uint32_t)strtoul(row->width, NULL, 10),
                           (uint32_t)strtoul(row->height, NULL, 10),
                           &in->planes, err, err_size) < 0)
        return -1;
    ct_pixel_format layouts[5];
    const int n = ct_yuv_layouts(format, layouts);
    if (ct_yuv_image(&in->planes, layouts[n > 1 ? 1 : 0], YUV_ROW_PAD,
                     &in->image, &in->layout_memory) < 0) {
        snprintf(err, err_size, "out of memory");
        ct_yuv_planes_free(&in->planes);
        return -1;
    }
    return 0;
}

static void free_input(const ct_golden_row *row, row_input *in)
{
    if (row->format == NULL) {
        ct_pnm_free(&in->pnm);
    } else {
        free(in->layout_memory);
        ct_yuv_planes_free(&in->planes);
    }
}

int main(int argc, char **argv)
{
    int quick = 0, yuv = 0;
    int arg = 1;
    for (; arg < argc && argv[arg][0] == '-'; ++arg) {
        if (strcmp(argv[arg], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[arg], "--yuv") == 0)
            yuv = 1;
        else
            break;
    }
    if (arg + 1 != argc) {
        fprintf(stderr, "usage: %s [--quick] [--yuv] GOLDEN_DIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[arg];
    char err[512];
    ct_golden_manifest manifest;
    const int status = ct_golden_open(dir, &manifest);
    if (status != 0)
        return status;
    ct_pool *pools[8] = {NULL};
    for (int n = 1; n <= 7; ++n)
        pools[n] = ct_pool_new(n);

    size_t runs = 0, identical = 0, rows = 0;
    for (size_t r = 0; r < manifest.count; ++r) {
        const ct_golden_row *row = &manifest.rows[r];
        if (strcmp(row->target, "sse2") != 0 || !wanted_flags(row->flags) ||
            (row->format != NULL) != yuv ||
            !(yuv ? wanted_yuv_input(row->input, quick)
                  : wanted_input(row->input, quick)))
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, row->input);
        row_input in;
        ct_jpeg_settings settings;
        if (read_input(path, row, &in, err, sizeof(err)) < 0 ||
            ct_cjpegli_flags_from_string(row->flags, &settings, err,
                                         sizeof(err)) < 0) {
            printf("FAIL %s: %s\n", row->input, err);
            return 1;
        }
        settings.simd = CT_SIMD_SSE2;
        const ct_jpeg_image image = in.image;
        ct_jpeg_frame frame;
        uint8_t *icc = NULL;
        size_t icc_size = 0;
        if (ct_jpeg_setup(&frame, &settings, image.width, image.height,
                          image.format, err, sizeof(err)) != CT_OK ||
            (frame.xyb && ct_jpeg_xyb_icc(&icc, &icc_size) != CT_OK)) {
            printf("FAIL %s %s: setup\n", row->input, row->flags);
            return 1;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, row->output);
        size_t golden_size;
        uint8_t *golden = ct_read_file(path, &golden_size);
        ct_jpeg_output sequential = {0};
        if (golden == NULL ||
            encode(NULL, &frame, &image, NULL, icc, icc_size, &sequential) !=
                CT_OK ||
            !same(&sequential, golden, golden_size)) {
            printf("FAIL %s '%s': sequential chain differs from golden\n",
                   row->input, row->flags);
            return 1;
        }
        ++rows;
        for (int n = 1; n <= 7; ++n) {
            for (size_t s = 0; s < NUM_SPLITS; ++s) {
                ct_jpeg_output out = {0};
                const int rc = encode(pools[n], &frame, &image,
                                      &splits[s].split, icc, icc_size, &out);
                ++runs;
                if (rc == CT_OK &&
                    same(&out, sequential.data, sequential.size))
                    ++identical;
                else
                    printf("DIFF %s '%s' workers %d split '%s' (rc %d)\n",
                           row->input, row->flags, n, splits[s].name, rc);
                ct_jpeg_output_free(&out);
            }
        }
        ct_jpeg_output_free(&sequential);
        free(golden);
        free(icc);
        free_input(row, &in);
    }
    for (int n = 1; n <= 7; ++n)
        ct_pool_unref(pools[n]);
    ct_golden_manifest_free(&manifest);
    printf("graph: %zu of %zu identical to the sequential chain (%zu golden "
           "rows x 1..7 workers x %zu splits)\n",
           identical, runs, rows, NUM_SPLITS);
    return identical == runs && runs > 0 ? 0 : 1;
}
