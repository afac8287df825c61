/*
 * ctcore JPEG encoder: a port of jpegli (github.com/google/jpegli) that
 * writes exactly the bytes cjpegli writes for the same image and settings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_H
#define CTCORE_JPEG_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/ctcore.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CT_JPEG_MAX_DIMENSION 65535

typedef enum ct_jpeg_subsampling {
    CT_JPEG_SUBSAMPLING_DEFAULT = 0, /* cjpegli without --chroma_subsampling:
                                        4:4:4, or jpegli's XYB layout */
    CT_JPEG_SUBSAMPLING_444,
    CT_JPEG_SUBSAMPLING_440,
    CT_JPEG_SUBSAMPLING_422,
    CT_JPEG_SUBSAMPLING_420,
} ct_jpeg_subsampling;

/* The cjpegli settings. ct_jpeg_settings_default() gives cjpegli's defaults. */
typedef struct ct_jpeg_settings {
    int quality;              /* 1..100 (-q); used when distance < 0 */
    float distance;           /* 0..25 (-d); < 0: derived from quality */
    int progressive_level;    /* 0..2 (-p) */
    ct_jpeg_subsampling chroma_subsampling; /* --chroma_subsampling */
    int adaptive_quantization;/* 0: --noadaptive_quantization */
    int std_quant;            /* --std_quant */
    int xyb;                  /* --xyb */
    int fixed_code;           /* --fixed_code (needs progressive_level 0) */
    ct_simd simd;             /* arithmetic target */
} ct_jpeg_settings;

CT_API void ct_jpeg_settings_default(ct_jpeg_settings *settings);

typedef enum ct_pixel_format {
    CT_PIXEL_GRAY8 = 1, /* one byte per pixel */
    CT_PIXEL_RGB8 = 3,  /* R, G, B bytes per pixel */
} ct_pixel_format;

typedef struct ct_jpeg_image {
    uint32_t width, height;   /* 1..65535 */
    ct_pixel_format format;
    size_t stride;            /* bytes from one row to the next */
    const uint8_t *pixels;
} ct_jpeg_image;

typedef struct ct_jpeg_output {
    uint8_t *data;            /* malloc()ed; free with ct_jpeg_output_free */
    size_t size;
} ct_jpeg_output;

/*
 * Encodes one image. Returns CT_OK and fills *out, or a negative CT_E* code
 * (out is then empty). When errbuf is not NULL it receives a message that
 * says what is wrong.
 */
CT_API int ct_jpeg_encode(ct_pool *pool, const ct_jpeg_settings *settings,
                   const ct_jpeg_image *image, ct_jpeg_output *out,
                   char *errbuf, size_t errbuf_size);

/*
 * Encodes n images with the same settings, several at a time: each image
 * runs the sequential chain on one worker of the pool. For streams of small
 * frames (MJPEG), where one image has too little work to spread over many
 * cores. Returns CT_OK when every image was encoded; otherwise the first
 * error, with every out[i] empty.
 */
CT_API int ct_jpeg_encode_batch(ct_pool *pool, const ct_jpeg_settings *settings,
                         const ct_jpeg_image *images, size_t n,
                         ct_jpeg_output *out, char *errbuf,
                         size_t errbuf_size);

CT_API void ct_jpeg_output_free(ct_jpeg_output *out);

#ifdef __cplusplus
}
#endif

#endif
