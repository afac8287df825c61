/*
 * The YCbCr layouts: sampling, checks and row access. jpegli's raw-data
 * mode takes one plane per component (jpegli_write_raw_data); the
 * semi-planar and packed layouts are gathered here, row by row, on the
 * workers that read them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "yuv_layout.h"

#include "common/errbuf.h"

int ct_jpeg_yuv_is_yuv(ct_pixel_format format)
{
    switch (format) {
    case CT_PIXEL_I420:
    case CT_PIXEL_I422:
    case CT_PIXEL_I444:
    case CT_PIXEL_NV12:
    case CT_PIXEL_NV21:
    case CT_PIXEL_YUYV:
    case CT_PIXEL_UYVY:
    case CT_PIXEL_YVYU:
        return 1;
    default:
        return 0;
    }
}

ct_jpeg_subsampling ct_jpeg_yuv_subsampling(ct_pixel_format format)
{
    switch (format) {
    case CT_PIXEL_I420:
    case CT_PIXEL_NV12:
    case CT_PIXEL_NV21:
        return CT_JPEG_SUBSAMPLING_420;
    case CT_PIXEL_I422:
    case CT_PIXEL_YUYV:
    case CT_PIXEL_UYVY:
    case CT_PIXEL_YVYU:
        return CT_JPEG_SUBSAMPLING_422;
    default:
        return CT_JPEG_SUBSAMPLING_444;
    }
}

void ct_jpeg_yuv_luma_sampling(ct_pixel_format format, int *h_samp, int *v_samp)
{
    const ct_jpeg_subsampling s = ct_jpeg_yuv_subsampling(format);
    *h_samp = s == CT_JPEG_SUBSAMPLING_444 ? 1 : 2;
    *v_samp = s == CT_JPEG_SUBSAMPLING_420 ? 2 : 1;
}

const char *ct_jpeg_subsampling_name(ct_jpeg_subsampling subsampling)
{
    switch (subsampling) {
    case CT_JPEG_SUBSAMPLING_444:
        return "4:4:4";
    case CT_JPEG_SUBSAMPLING_440:
        return "4:4:0";
    case CT_JPEG_SUBSAMPLING_422:
        return "4:2:2";
    case CT_JPEG_SUBSAMPLING_420:
        return "4:2:0";
    default:
        return "default";
    }
}

const char *ct_jpeg_yuv_name(ct_pixel_format format)
{
    switch (format) {
    case CT_PIXEL_I420:
        return "I420";
    case CT_PIXEL_I422:
        return "I422";
    case CT_PIXEL_I444:
        return "I444";
    case CT_PIXEL_NV12:
        return "NV12";
    case CT_PIXEL_NV21:
        return "NV21";
    case CT_PIXEL_YUYV:
        return "YUYV";
    case CT_PIXEL_UYVY:
        return "UYVY";
    case CT_PIXEL_YVYU:
        return "YVYU";
    default:
        return "not YCbCr";
    }
}

static int is_packed(ct_pixel_format format)
{
    return format == CT_PIXEL_YUYV || format == CT_PIXEL_UYVY ||
           format == CT_PIXEL_YVYU;
}

static int is_semi_planar(ct_pixel_format format)
{
    return format == CT_PIXEL_NV12 || format == CT_PIXEL_NV21;
}

int ct_jpeg_yuv_needs_gather(ct_pixel_format format)
{
    return is_packed(format) || is_semi_planar(format);
}

/* The chroma planes' width in samples. */
static size_t chroma_width(const ct_jpeg_image *image)
{
    return ct_jpeg_yuv_subsampling(image->format) == CT_JPEG_SUBSAMPLING_444
               ? image->width
               : ((size_t)image->width + 1) / 2;
}

int ct_jpeg_yuv_check(const ct_jpeg_image *image, char *errbuf,
                      size_t errbuf_size)
{
    const char *name = ct_jpeg_yuv_name(image->format);
    if (image->pixels == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "%s image has no pixels (NULL)", name);
    const size_t cw = chroma_width(image);
    if (is_packed(image->format)) {
        if (image->stride / 4 < cw)
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "%s stride %zu is less than %zu groups of "
                                 "4 bytes (width %u)",
                                 name, image->stride, cw,
                                 (unsigned)image->width);
        return CT_OK;
    }
    if (image->stride < image->width)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "%s Y stride %zu is less than width %u", name,
                             image->stride, (unsigned)image->width);
    const int planes = is_semi_planar(image->format) ? 1 : 2;
    const size_t row_bytes = planes == 1 ? 2 * cw : cw;
    for (int p = 0; p < planes; ++p) {
        if (image->chroma[p] == NULL)
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "%s image has no chroma plane %d (NULL)", name,
                                 p);
        if (image->chroma_stride[p] < row_bytes)
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "%s chroma plane %d stride %zu is less "
                                 "than %zu bytes",
                                 name, p, image->chroma_stride[p], row_bytes);
    }
    return CT_OK;
}

/* n bytes, `step` apart, from `in` into out. */
static const uint8_t *gather(const uint8_t *in, size_t step, size_t n,
                             uint8_t *out)
{
    for (size_t x = 0; x < n; ++x)
        out[x] = in[x * step];
    return out;
}

/* The byte of component c (1 Cb, 2 Cr) within a packed group or a
 * semi-planar pair. */
static int chroma_offset(ct_pixel_format format, int c)
{
    switch (format) {
    case CT_PIXEL_NV12:
        return c - 1;
    case CT_PIXEL_NV21:
        return 2 - c;
    case CT_PIXEL_YUYV:
        return c == 1 ? 1 : 3;
    case CT_PIXEL_UYVY:
        return c == 1 ? 0 : 2;
    default: /* CT_PIXEL_YVYU */
        return c == 1 ? 3 : 1;
    }
}

const uint8_t *ct_jpeg_yuv_row(const ct_jpeg_image *image, int c, int y, int x0,
                               size_t n, uint8_t *scratch)
{
    const ct_pixel_format format = image->format;
    if (is_packed(format)) {
        const uint8_t *row = image->pixels + (size_t)y * image->stride;
        if (c == 0)
            return gather(row + 2 * (size_t)x0 +
                              (format == CT_PIXEL_UYVY ? 1 : 0),
                          2, n, scratch);
        return gather(row + 4 * (size_t)x0 + chroma_offset(format, c), 4, n,
                      scratch);
    }
    if (c == 0)
        return image->pixels + (size_t)y * image->stride + x0;
    if (is_semi_planar(format))
        return gather(image->chroma[0] + (size_t)y * image->chroma_stride[0] +
                          2 * (size_t)x0 + chroma_offset(format, c),
                      2, n, scratch);
    return image->chroma[c - 1] + (size_t)y * image->chroma_stride[c - 1] + x0;
}
