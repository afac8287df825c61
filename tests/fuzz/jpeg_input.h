/*
 * The JPEG targets' choices from the input: settings, image size, pixel
 * layout and stride, mostly in range and sometimes out of it (the encoder
 * must then refuse them with CT_EINVAL), and pixels that live exactly as
 * long as the image needs, so that AddressSanitizer sees any read past it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_FUZZ_JPEG_INPUT_H
#define CT_TESTS_FUZZ_JPEG_INPUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctcore/jpeg.h"
#include "ctcore/runtime.h"
#include "fuzz.h"

/* At most this many pixels per image (one row may be 65535 wide): a run
 * stays within milliseconds. */
#define FUZZ_JPEG_MAX_PIXELS (1 << 14)

static inline float fuzz_jpeg_distance(fuzz_input *in)
{
    const unsigned choice = fuzz_u8(in);
    if (choice < 100)
        return -1.0f; /* from the quality */
    if (choice < 220)
        return (float)(choice - 100) * 0.215f; /* 0 .. 25.6, just past 25 */
    const uint32_t bits = fuzz_u32(in); /* NaN, infinities, negatives */
    float distance;
    memcpy(&distance, &bits, sizeof(distance));
    return distance;
}

static inline void fuzz_jpeg_settings(fuzz_input *in,
                                      ct_jpeg_settings *settings)
{
    ct_jpeg_settings_default(settings);
    settings->quality = (int)(fuzz_u8(in) % 120) - 10;
    settings->distance = fuzz_jpeg_distance(in);
    settings->progressive_level = (int)(fuzz_u8(in) % 5) - 1;
    settings->chroma_subsampling = (ct_jpeg_subsampling)(fuzz_u8(in) % 6);
    const unsigned flags = fuzz_u8(in);
    settings->adaptive_quantization = !(flags & 1);
    settings->std_quant = (flags >> 1) & 1;
    settings->xyb = (flags >> 2) & 1;
    settings->fixed_code = (flags >> 3) & 1;
    settings->simd = (ct_simd)((flags >> 4) % 5);
}

static inline ct_pixel_format fuzz_jpeg_format(fuzz_input *in)
{
    static const int formats[] = {
        CT_PIXEL_GRAY8, CT_PIXEL_RGB8,  CT_PIXEL_BGR8,  CT_PIXEL_RGBX8,
        CT_PIXEL_BGRX8, CT_PIXEL_XRGB8, CT_PIXEL_XBGR8, 0, 2, 99,
    };
    return (ct_pixel_format)formats[fuzz_u8(in) % (sizeof(formats) /
                                                   sizeof(formats[0]))];
}

/* Bytes per pixel of a layout; 4 for an unknown one (refused anyway). */
static inline size_t fuzz_jpeg_pixel_bytes(ct_pixel_format format)
{
    switch (format) {
    case CT_PIXEL_GRAY8: return 1;
    case CT_PIXEL_RGB8:
    case CT_PIXEL_BGR8: return 3;
    default: return 4;
    }
}

/* Width and height: small ones mostly, up to 65536 (one past the limit)
 * in either, 0 sometimes; never more than FUZZ_JPEG_MAX_PIXELS. */
static inline void fuzz_jpeg_size(fuzz_input *in, uint32_t *width,
                                  uint32_t *height)
{
    const unsigned mode = fuzz_u8(in);
    uint32_t w, h;
    if (mode < 200) {
        w = 1 + fuzz_u8(in);
        h = 1 + fuzz_u8(in);
    } else {
        w = fuzz_u16(in) + (mode & 1);
        h = fuzz_u16(in) + ((mode >> 1) & 1);
    }
    if ((uint64_t)w * h > FUZZ_JPEG_MAX_PIXELS) {
        if (w > h)
            h = 1 + h % (FUZZ_JPEG_MAX_PIXELS / w > 0 ? FUZZ_JPEG_MAX_PIXELS / w : 1);
        else
            w = 1 + w % (FUZZ_JPEG_MAX_PIXELS / h > 0 ? FUZZ_JPEG_MAX_PIXELS / h : 1);
    }
    *width = w;
    *height = h;
}

/* A stride: the row's bytes plus up to 15, sometimes one byte short, and
 * for one row, any. */
static inline size_t fuzz_jpeg_stride(fuzz_input *in, uint32_t width,
                                      uint32_t height, size_t pixel_bytes)
{
    const unsigned choice = fuzz_u8(in);
    const size_t row = width * pixel_bytes;
    if (choice >= 250 && row > 0)
        return row - 1;
    if (choice >= 245 && height == 1)
        return SIZE_MAX - (choice & 3);
    return row + choice % 16;
}

/* Pixels for an image of `stride` bytes per row: exactly as many bytes as
 * the last row ends at, filled from the input (the rest of it, repeated).
 * NULL when out of memory or with no pixels to hold. */
static inline uint8_t *fuzz_jpeg_pixels(fuzz_input *in, uint32_t width,
                                        uint32_t height, size_t stride,
                                        size_t pixel_bytes)
{
    if (width == 0 || height == 0)
        return malloc(1);
    const size_t row = width * pixel_bytes;
    const size_t size = height == 1 ? row : stride * (height - 1) + row;
    uint8_t *pixels = malloc(size);
    if (!pixels)
        return NULL;
    const size_t left = in->size - in->pos;
    for (size_t i = 0; i < size; i++)
        pixels[i] = left ? in->data[in->pos + i % left]
                         : (uint8_t)(i * 97 + (i >> 8) * 13);
    return pixels;
}

/* Encodes image on the calling thread and on a pool of two workers: a
 * valid result or a refusal, the same code and the same bytes both ways. */
static inline void fuzz_jpeg_encode_twice(const ct_jpeg_settings *settings,
                                          const ct_jpeg_image *image)
{
    char errbuf[256];
    ct_jpeg_output alone = {0}, pooled = {0};
    const int code =
        ct_jpeg_encode(NULL, settings, image, &alone, errbuf, sizeof(errbuf));
    fuzz_assert(code == CT_OK || code == CT_EINVAL || code == CT_ETOOBIG);
    fuzz_assert(code == CT_OK ? alone.size > 0 : alone.data == NULL);

    ct_pool *pool = ct_pool_new(2);
    fuzz_assert(pool);
    const int pooled_code =
        ct_jpeg_encode(pool, settings, image, &pooled, errbuf, sizeof(errbuf));
    ct_pool_unref(pool);
    fuzz_assert(pooled_code == code);
    fuzz_assert(pooled.size == alone.size);
    fuzz_assert(alone.size == 0 ||
                memcmp(pooled.data, alone.data, alone.size) == 0);
    ct_jpeg_output_free(&alone);
    ct_jpeg_output_free(&pooled);
}

#endif
