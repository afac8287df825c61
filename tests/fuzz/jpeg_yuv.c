/*
 * Fuzz target: ct_jpeg_encode of YCbCr layouts (planar, semi-planar,
 * packed) with every setting and size from the input, each plane with its
 * own stride (sometimes one byte short) and sometimes missing, and
 * allocated exactly as far as its last row ends, so that AddressSanitizer
 * sees a read past any plane. On the calling thread and on a pool of two
 * workers: the same result code, and the same bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jpeg_input.h"

static const ct_pixel_format yuv_formats[] = {
    CT_PIXEL_I420, CT_PIXEL_I422, CT_PIXEL_I444, CT_PIXEL_NV12,
    CT_PIXEL_NV21, CT_PIXEL_YUYV, CT_PIXEL_UYVY, CT_PIXEL_YVYU,
};
#define NUM_YUV_FORMATS (sizeof(yuv_formats) / sizeof(yuv_formats[0]))

/* The bytes of a row and the rows of plane p (0: Y, or the packed
 * pixels; 1, 2: the chroma planes, or the plane of pairs) in `format`; 0
 * rows for a plane the layout does not have. */
static void plane_geometry(ct_pixel_format format, uint32_t width,
                           uint32_t height, int p, size_t *row, uint32_t *rows)
{
    const int packed = format == CT_PIXEL_YUYV || format == CT_PIXEL_UYVY ||
                       format == CT_PIXEL_YVYU;
    const int pairs = format == CT_PIXEL_NV12 || format == CT_PIXEL_NV21;
    const size_t cw = format == CT_PIXEL_I444 ? width : (width + 1) / 2;
    const int half_height = format == CT_PIXEL_I420 || pairs;
    *rows = p == 0                        ? height
            : packed || (pairs && p == 2) ? 0
            : half_height                 ? (height + 1) / 2
                                          : height;
    *row = p == 0 ? (packed ? 4 * cw : width) : pairs ? 2 * cw : cw;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    ct_jpeg_settings settings;
    fuzz_jpeg_settings(&in, &settings);
    ct_jpeg_image image = {0};
    fuzz_jpeg_size(&in, &image.width, &image.height);
    image.format = yuv_formats[fuzz_u8(&in) % NUM_YUV_FORMATS];
    uint8_t *planes[3] = {NULL};
    size_t strides[3] = {0};
    int ok = 1;
    for (int p = 0; p < 3; p++) {
        size_t row;
        uint32_t rows;
        plane_geometry(image.format, image.width, image.height, p, &row, &rows);
        strides[p] = fuzz_jpeg_stride(&in, (uint32_t)row, rows, 1);
        const int missing = fuzz_u8(&in) == 255;
        if (rows == 0 || missing)
            continue;
        planes[p] = fuzz_jpeg_pixels(&in, (uint32_t)row, rows, strides[p], 1);
        ok &= planes[p] != NULL;
    }
    if (ok) {
        image.pixels = planes[0];
        image.stride = strides[0];
        image.chroma[0] = planes[1];
        image.chroma[1] = planes[2];
        image.chroma_stride[0] = strides[1];
        image.chroma_stride[1] = strides[2];

        fuzz_jpeg_encode_twice(&settings, &image);
    }
    for (int p = 0; p < 3; p++)
        free(planes[p]);
    return 0;
}
