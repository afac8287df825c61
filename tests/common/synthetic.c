/*
 * The synthetic inputs' formulas, as the golden set's README.md gives them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "synthetic.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

/* Width x height; the noise seeds follow this order. */
static const uint32_t sizes[][2] = {
    { 1, 1 },   { 7, 9 },   { 8, 8 },    { 15, 17 }, { 16, 16 },
    { 17, 15 }, { 1, 4000 }, { 4000, 1 }, { 61, 47 },
};
#define NUM_SIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

void ct_synthetic_name(int index, char *name, size_t size)
{
    if (index == 2 * 2 * NUM_SIZES) {
        snprintf(name, size, "syn-flat255-rgb-17x15.ppm");
        return;
    }
    if (index == 2 * 2 * NUM_SIZES + 1) {
        snprintf(name, size, "syn-flat0-gray-16x16.pgm");
        return;
    }
    const int kind = index / (2 * NUM_SIZES);
    const int gray = index / NUM_SIZES % 2;
    const int s = index % NUM_SIZES;
    snprintf(name, size, "syn-%s-%s-%ux%u.%s", kind ? "grad" : "noise",
             gray ? "gray" : "rgb", (unsigned)sizes[s][0],
             (unsigned)sizes[s][1], gray ? "pgm" : "ppm");
}

/* 32-bit xorshift, one step; each sample is the top byte of the state. */
static void fill_noise(uint8_t *samples, size_t count, uint32_t seed)
{
    uint32_t s = seed;
    for (size_t i = 0; i < count; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        samples[i] = (uint8_t)(s >> 24);
    }
}

/* Python's round(255 * v) for v in [0, 1]: to nearest, ties to even (the
 * default rounding mode of rint). */
static uint8_t round_255(double v)
{
    return (uint8_t)rint(255.0 * v);
}

static void fill_gradient(const ct_synthetic_image *image)
{
    const uint32_t w = image->width, h = image->height;
    uint8_t *p = image->pixels;
    for (uint32_t y = 0; y < h; y++) {
        const double fy = h == 1 ? 0.5 : (double)y / (h - 1);
        for (uint32_t x = 0; x < w; x++) {
            const double fx = w == 1 ? 0.5 : (double)x / (w - 1);
            if (image->channels == 1) {
                *p++ = round_255((fx + fy) / 2);
            } else {
                *p++ = round_255(fx);
                *p++ = round_255(fy);
                *p++ = round_255(1 - (fx + fy) / 2);
            }
        }
    }
}

int ct_synthetic_make(const char *name, ct_synthetic_image *image)
{
    memset(image, 0, sizeof(*image));
    const char *slash = strrchr(name, '/');
    if (slash)
        name = slash + 1;
    char kind[16], color[8], ext[8];
    unsigned width, height;
    int end = 0;
    if (sscanf(name, "syn-%15[a-z0-9]-%7[a-z]-%ux%u.%7[a-z]%n", kind, color,
               &width, &height, ext, &end) != 5 || name[end] != '\0')
        return -1;
    const int gray = strcmp(color, "gray") == 0;
    if ((!gray && strcmp(color, "rgb") != 0) ||
        strcmp(ext, gray ? "pgm" : "ppm") != 0)
        return -1;
    int size_index = -1;
    for (int s = 0; s < NUM_SIZES; s++)
        if (sizes[s][0] == width && sizes[s][1] == height)
            size_index = s;
    const int noise = strcmp(kind, "noise") == 0;
    const int gradient = strcmp(kind, "grad") == 0;
    const int flat255 = strcmp(kind, "flat255") == 0;
    if (!noise && !gradient && !flat255 && strcmp(kind, "flat0") != 0)
        return -1;
    if ((noise || gradient) && size_index < 0)
        return -1;
    if (width < 1 || height < 1 || width > CT_JPEG_MAX_DIMENSION ||
        height > CT_JPEG_MAX_DIMENSION)
        return -1;

    image->width = width;
    image->height = height;
    image->channels = gray ? 1 : 3;
    const size_t count = (size_t)width * height * image->channels;
    image->pixels = malloc(count);
    if (!image->pixels)
        return -1;
    if (noise)
        fill_noise(image->pixels, count,
                   (uint32_t)(12346 + 2 * size_index + gray));
    else if (gradient)
        fill_gradient(image);
    else
        memset(image->pixels, flat255 ? 255 : 0, count);
    return 0;
}

void ct_synthetic_free(ct_synthetic_image *image)
{
    free(image->pixels);
    memset(image, 0, sizeof(*image));
}

ct_jpeg_image ct_synthetic_jpeg_image(const ct_synthetic_image *image)
{
    return (ct_jpeg_image){
        .width = image->width,
        .height = image->height,
        .format = image->channels == 1 ? CT_PIXEL_GRAY8 : CT_PIXEL_RGB8,
        .stride = (size_t)image->width * image->channels,
        .pixels = image->pixels,
    };
}

int ct_synthetic_check_output(const ct_golden_row *row, const uint8_t *data,
                              size_t size, char *why, size_t why_size)
{
    if (!row->sha256 || !row->bytes) {
        snprintf(why, why_size, "the row has no sha256 and bytes");
        return 0;
    }
    char hex[CT_SHA256_HEX_SIZE];
    ct_sha256_hex(data, size, hex);
    const uintmax_t expected_size = strtoumax(row->bytes, NULL, 10);
    if (size != expected_size || strcmp(hex, row->sha256) != 0) {
        snprintf(why, why_size, "%zu bytes with sha256 %s, expected %ju "
                 "with %s", size, hex, expected_size, row->sha256);
        return 0;
    }
    return 1;
}
