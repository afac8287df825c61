/*
 * Raw planar 8-bit YCbCr files: the Y plane, then Cb, then Cr, each
 * tightly packed at its own size (4:2:0: chroma ceil(W/2) x ceil(H/2);
 * 4:2:2: ceil(W/2) x H; 4:4:4: W x H), as the YCbCr golden set's inputs
 * and `ctjpeg --yuv` take them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_YUV_H
#define CT_TOOLS_YUV_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/jpeg.h"

typedef struct ct_yuv_planes {
    uint32_t width, height;
    ct_pixel_format format; /* CT_PIXEL_I420, _I422 or _I444 */
    uint32_t chroma_width, chroma_height;
    uint8_t *data; /* Y, Cb, Cr, tightly packed */
    const uint8_t *plane[3];
} ct_yuv_planes;

/*
 * Reads the planes of a width x height image in `format` from path, or
 * from standard input when path is "-"; the file must hold exactly them.
 * Returns 0 and fills *planes (free them with ct_yuv_planes_free), or -1
 * with a message in errbuf.
 */
int ct_yuv_planes_read(const char *path, ct_pixel_format format, uint32_t width,
                       uint32_t height, ct_yuv_planes *planes, char *errbuf,
                       size_t errbuf_size);
void ct_yuv_planes_free(ct_yuv_planes *planes);

/* The planes as ct_jpeg_encode takes them (pointing into planes->data). */
ct_jpeg_image ct_yuv_jpeg_image(const ct_yuv_planes *planes);

#endif
