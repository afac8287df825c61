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
/* The most frames a streaming encoder encodes together. */
#define CT_JPEG_MAX_FRAMES_IN_FLIGHT 1024

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
    /* --chroma_subsampling; with a YCbCr layout the layout's own sampling
     * (DEFAULT or the same, else CT_EINVAL) */
    ct_jpeg_subsampling chroma_subsampling;
    int adaptive_quantization;/* 0: --noadaptive_quantization */
    int std_quant;            /* --std_quant */
    int xyb;                  /* --xyb (RGB and gray layouts only) */
    int fixed_code;           /* --fixed_code (needs progressive_level 0) */
    ct_simd simd;             /* arithmetic target */
} ct_jpeg_settings;

CT_API void ct_jpeg_settings_default(ct_jpeg_settings *settings);

/* The layouts of 8-bit pixels the encoder takes. Every RGB layout gives
 * the JPEG of its pixels as packed RGB; a fourth byte (padding or alpha) is
 * ignored. The workers read each layout as it is, row by row: no copy of
 * the image is made.
 *
 * The YCbCr layouts (8-bit, full range: JPEG's own YCbCr) are encoded as
 * they are, as jpegli's raw-data mode encodes planes: no color transform,
 * no downsampling, the JPEG's sampling is the layout's (luma 2x2 for
 * 4:2:0, 2x1 for 4:2:2, 1x1 for 4:4:4, chroma 1x1), and adaptive
 * quantization reads the Y samples. Each layout of the same planes gives
 * the same file. Chroma planes are ceil(width / 2) samples wide for 4:2:0
 * and 4:2:2 and ceil(height / 2) rows high for 4:2:0. */
typedef enum ct_pixel_format {
    CT_PIXEL_GRAY8 = 1, /* one byte per pixel */
    CT_PIXEL_RGB8 = 3,  /* R, G, B bytes per pixel */
    CT_PIXEL_BGR8,      /* B, G, R */
    CT_PIXEL_RGBX8,     /* R, G, B, ignored (RGBx, RGBA) */
    CT_PIXEL_BGRX8,     /* B, G, R, ignored (BGRx, BGRA) */
    CT_PIXEL_XRGB8,     /* ignored, R, G, B (xRGB, ARGB) */
    CT_PIXEL_XBGR8,     /* ignored, B, G, R (xBGR, ABGR) */
    CT_PIXEL_I420,      /* planes Y, Cb, Cr; 4:2:0 (I420; YV12 with the
                           chroma planes swapped) */
    CT_PIXEL_I422,      /* planes Y, Cb, Cr; 4:2:2 (Y42B) */
    CT_PIXEL_I444,      /* planes Y, Cb, Cr; 4:4:4 (Y444) */
    CT_PIXEL_NV12,      /* plane Y, plane of Cb, Cr pairs; 4:2:0 */
    CT_PIXEL_NV21,      /* plane Y, plane of Cr, Cb pairs; 4:2:0 */
    CT_PIXEL_YUYV,      /* Y0, Cb, Y1, Cr per two pixels; 4:2:2 (YUY2) */
    CT_PIXEL_UYVY,      /* Cb, Y0, Cr, Y1; 4:2:2 */
    CT_PIXEL_YVYU,      /* Y0, Cr, Y1, Cb; 4:2:2 */
} ct_pixel_format;

typedef struct ct_jpeg_image {
    uint32_t width, height;   /* 1..65535 */
    ct_pixel_format format;
    /* Bytes from one row to the next; of the Y plane in the planar and
     * semi-planar layouts (I420, I422, I444, NV12, NV21). A row of the
     * packed 4:2:2 layouts holds ceil(width / 2) groups of 4 bytes (with an
     * odd width, the last group's second Y is ignored). */
    size_t stride;
    /* The pixels; the Y plane in the planar and semi-planar layouts. */
    const uint8_t *pixels;
    /* Planar layouts: chroma[0] the Cb plane and chroma[1] the Cr plane;
     * NV12, NV21: chroma[0] the plane of pairs (chroma[1] unused); with
     * their strides (bytes from one row to the next, at least a row of
     * samples, or of pairs). Unused (may be zero) in the other layouts. */
    const uint8_t *chroma[2];
    size_t chroma_stride[2];
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

CT_API void ct_jpeg_output_free(ct_jpeg_output *out);

/*
 * The streaming encoder: frames of one size and format in, one JPEG file
 * per frame out, in order. Small frames are encoded several at a time, one
 * per worker of the pool; large ones one at a time, each spread over the
 * pool. The bytes of each frame are those of ct_jpeg_encode either way.
 */
typedef struct ct_jpeg_encoder ct_jpeg_encoder;

/*
 * An encoder for frames of width x height pixels in `format`, with
 * `settings`. frames_in_flight (0..CT_JPEG_MAX_FRAMES_IN_FLIGHT): how many
 * frames are encoded together; 0 (auto) takes the pool's threads for frames
 * under a megapixel (1 000 000 pixels) and 1 for larger ones. The encoder
 * holds a reference to the pool (NULL: everything on the calling thread).
 * Returns CT_OK and *encoder, or a CT_E* code with a message in errbuf
 * (*encoder is then NULL).
 */
CT_API int ct_jpeg_encoder_new(ct_pool *pool, const ct_jpeg_settings *settings,
                               uint32_t width, uint32_t height,
                               ct_pixel_format format, int frames_in_flight,
                               ct_jpeg_encoder **encoder, char *errbuf,
                               size_t errbuf_size);
CT_API void ct_jpeg_encoder_free(ct_jpeg_encoder *encoder);

/*
 * New settings for the frames sent from now on. The frames already sent
 * are encoded with the old ones first (their files become ready to
 * receive). CT_OK, or a CT_E* code with a message (the old settings stay).
 */
CT_API int ct_jpeg_encoder_set_settings(ct_jpeg_encoder *encoder,
                                        const ct_jpeg_settings *settings,
                                        char *errbuf, size_t errbuf_size);

/*
 * One frame, of the encoder's size and format (any stride). The pixels are
 * read until the frame's file has been received, or until a reset; `user`
 * comes back with the file. When frames_in_flight frames are waiting, the
 * call encodes them (the calling thread works with the pool). CT_EAGAIN
 * while a frame's file waits to be received: receive first. CT_EINVAL for
 * a frame of another size or format, or without pixels (the frame is not
 * taken; ct_jpeg_encoder_error says why).
 */
CT_API int ct_jpeg_send_frame(ct_jpeg_encoder *encoder,
                              const ct_jpeg_image *image, void *user);
/*
 * The next file, oldest first, into *out (the caller frees it with
 * ct_jpeg_output_free), with the `user` of its frame (user may be NULL).
 * CT_EAGAIN when none is ready, CT_EOF after a drain once every file was
 * received; on an encoding error its CT_E* code (the frames encoded with it
 * give no file; ct_jpeg_encoder_error says what went wrong).
 */
CT_API int ct_jpeg_receive_frame(ct_jpeg_encoder *encoder, ct_jpeg_output *out,
                                 void **user);
/* The frames waiting are encoded: every file becomes ready to receive.
 * Sending again starts a new run of frames. */
CT_API int ct_jpeg_encoder_drain(ct_jpeg_encoder *encoder);
/* Forgets every frame sent and every file not received; the pixels of the
 * frames sent are no longer read. */
CT_API void ct_jpeg_encoder_reset(ct_jpeg_encoder *encoder);

/* Frames encoded together (frames_in_flight as resolved, >= 1). */
CT_API int ct_jpeg_encoder_frames_in_flight(const ct_jpeg_encoder *encoder);
/* How many later frames a frame may wait for before its file is ready:
 * frames_in_flight - 1. */
CT_API int ct_jpeg_encoder_delay(const ct_jpeg_encoder *encoder);
/* The message of the last error ("" if none). */
CT_API const char *ct_jpeg_encoder_error(const ct_jpeg_encoder *encoder);

#ifdef __cplusplus
}
#endif

#endif
