/*
 * The YCbCr golden set's inputs: tightly packed planes (Y, then Cb, then
 * Cr, each at its own size) of I420, Y42B or Y444, and the same planes laid
 * out in the library's other YCbCr layouts, with any row padding.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_YUV_PLANES_H
#define CT_TESTS_YUV_PLANES_H

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

/* The planar layout of a manifest's format name (I420, Y42B, Y444), or 0. */
ct_pixel_format ct_yuv_format_from_name(const char *name);

/* Reads path, which must hold exactly the planes of a width x height image
 * in `format`. 0, or -1 with a message in errbuf. */
int ct_yuv_planes_read(const char *path, ct_pixel_format format, uint32_t width,
                       uint32_t height, ct_yuv_planes *planes, char *errbuf,
                       size_t errbuf_size);
void ct_yuv_planes_free(ct_yuv_planes *planes);

/* The layouts the library takes for the planes' sampling (the planar one
 * first): up to 5, returned in layouts. */
int ct_yuv_layouts(ct_pixel_format planar, ct_pixel_format layouts[5]);

/*
 * The planes as an image in `layout` (one of ct_yuv_layouts), every row
 * padded by pad bytes; *memory holds its bytes (free()). 0, or -1 when out
 * of memory.
 */
int ct_yuv_image(const ct_yuv_planes *planes, ct_pixel_format layout,
                 size_t pad, ct_jpeg_image *image, uint8_t **memory);

#endif
