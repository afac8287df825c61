/*
 * The YCbCr golden set's planes and their layouts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "yuv_planes.h"

#include <stdlib.h>
#include <string.h>

ct_pixel_format ct_yuv_format_from_name(const char *name)
{
    if (strcmp(name, "I420") == 0)
        return CT_PIXEL_I420;
    if (strcmp(name, "Y42B") == 0)
        return CT_PIXEL_I422;
    if (strcmp(name, "Y444") == 0)
        return CT_PIXEL_I444;
    return (ct_pixel_format)0;
}

int ct_yuv_layouts(ct_pixel_format planar, ct_pixel_format layouts[5])
{
    int n = 0;
    layouts[n++] = planar;
    if (planar == CT_PIXEL_I420) {
        layouts[n++] = CT_PIXEL_NV12;
        layouts[n++] = CT_PIXEL_NV21;
    } else if (planar == CT_PIXEL_I422) {
        layouts[n++] = CT_PIXEL_YUYV;
        layouts[n++] = CT_PIXEL_UYVY;
        layouts[n++] = CT_PIXEL_YVYU;
    }
    return n;
}

/* Where Y, Cb and Cr sit in a packed group of two pixels (Y: the first
 * pixel's; the second is one of 2 bytes further). */
static void packed_offsets(ct_pixel_format layout, int *y, int *cb, int *cr)
{
    *y = layout == CT_PIXEL_UYVY ? 1 : 0;
    *cb = layout == CT_PIXEL_YUYV ? 1 : layout == CT_PIXEL_UYVY ? 0 : 3;
    *cr = layout == CT_PIXEL_YUYV ? 3 : layout == CT_PIXEL_UYVY ? 2 : 1;
}

int ct_yuv_image(const ct_yuv_planes *planes, ct_pixel_format layout,
                 size_t pad, ct_jpeg_image *image, uint8_t **memory)
{
    const size_t w = planes->width, h = planes->height;
    const size_t cw = planes->chroma_width, ch = planes->chroma_height;
    memset(image, 0, sizeof(*image));
    image->width = planes->width;
    image->height = planes->height;
    image->format = layout;
    if (layout == CT_PIXEL_YUYV || layout == CT_PIXEL_UYVY ||
        layout == CT_PIXEL_YVYU) {
        image->stride = 4 * cw + pad;
        uint8_t *m = *memory = calloc(1, image->stride * h);
        if (!m)
            return -1;
        int oy, ocb, ocr;
        packed_offsets(layout, &oy, &ocb, &ocr);
        for (size_t y = 0; y < h; y++) {
            uint8_t *row = m + y * image->stride;
            for (size_t x = 0; x < w; x++)
                row[2 * x + oy] = planes->plane[0][y * w + x];
            for (size_t x = 0; x < cw; x++) {
                row[4 * x + ocb] = planes->plane[1][y * cw + x];
                row[4 * x + ocr] = planes->plane[2][y * cw + x];
            }
        }
        image->pixels = m;
        return 0;
    }
    const int pairs = layout == CT_PIXEL_NV12 || layout == CT_PIXEL_NV21;
    image->stride = w + pad;
    image->chroma_stride[0] = (pairs ? 2 * cw : cw) + pad;
    image->chroma_stride[1] = pairs ? 0 : cw + pad;
    const size_t luma = image->stride * h;
    const size_t chroma = image->chroma_stride[0] * ch;
    uint8_t *m = *memory = calloc(1, luma + 2 * chroma);
    if (!m)
        return -1;
    for (size_t y = 0; y < h; y++)
        memcpy(m + y * image->stride, planes->plane[0] + y * w, w);
    uint8_t *c0 = m + luma, *c1 = m + luma + chroma;
    for (size_t y = 0; y < ch; y++) {
        const uint8_t *cb = planes->plane[1] + y * cw;
        const uint8_t *cr = planes->plane[2] + y * cw;
        uint8_t *row0 = c0 + y * image->chroma_stride[0];
        if (pairs) {
            const int swap = layout == CT_PIXEL_NV21;
            for (size_t x = 0; x < cw; x++) {
                row0[2 * x + swap] = cb[x];
                row0[2 * x + !swap] = cr[x];
            }
        } else {
            memcpy(row0, cb, cw);
            memcpy(c1 + y * image->chroma_stride[1], cr, cw);
        }
    }
    image->pixels = m;
    image->chroma[0] = c0;
    image->chroma[1] = pairs ? NULL : c1;
    return 0;
}
