/*
 * The YCbCr golden set's inputs (tools/yuv.h reads their planes: I420,
 * Y42B or Y444) laid out in the library's other YCbCr layouts, with any
 * row padding.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_YUV_PLANES_H
#define CT_TESTS_YUV_PLANES_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/jpeg.h"
#include "yuv.h"

/* The planar layout of a manifest's format name (I420, Y42B, Y444), or 0. */
ct_pixel_format ct_yuv_format_from_name(const char *name);

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
