/*
 * The YCbCr layouts of ct_pixel_format (planar, semi-planar and packed):
 * their sampling, the checks of an image in them, and the samples of one
 * component's row, for the pixel phase's tiles.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_YUV_LAYOUT_H
#define CTCORE_JPEG_YUV_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/jpeg.h"

/* 1 for the YCbCr layouts (CT_PIXEL_I420 .. CT_PIXEL_YVYU). */
int ct_jpeg_yuv_is_yuv(ct_pixel_format format);

/* The luma sampling factors the layout implies (chroma is 1x1): 2x2 for
 * 4:2:0, 2x1 for 4:2:2, 1x1 for 4:4:4; the matching subsampling setting. */
void ct_jpeg_yuv_luma_sampling(ct_pixel_format format, int *h_samp,
                               int *v_samp);
ct_jpeg_subsampling ct_jpeg_yuv_subsampling(ct_pixel_format format);
/* "4:2:0" and so on. */
const char *ct_jpeg_subsampling_name(ct_jpeg_subsampling subsampling);
/* The layout's name, "I420" and so on. */
const char *ct_jpeg_yuv_name(ct_pixel_format format);

/* 1 when the layout's component rows must be gathered from interleaved
 * bytes (semi-planar chroma, packed layouts): the caller passes a scratch
 * row to ct_jpeg_yuv_row. */
int ct_jpeg_yuv_needs_gather(ct_pixel_format format);

/*
 * The checks of a YCbCr image: the planes its layout needs and strides
 * that hold a row. Returns CT_OK or CT_EINVAL with a message in errbuf.
 */
int ct_jpeg_yuv_check(const ct_jpeg_image *image, char *errbuf,
                      size_t errbuf_size);

/*
 * Samples [x0, x0 + n) of row y of component c (0 Y, 1 Cb, 2 Cr, at the
 * component's resolution; within the component's plane): a pointer into
 * the image where they are contiguous, else gathered into scratch (n
 * bytes).
 */
const uint8_t *ct_jpeg_yuv_row(const ct_jpeg_image *image, int c, int y, int x0,
                               size_t n, uint8_t *scratch);

#endif
