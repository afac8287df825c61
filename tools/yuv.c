/*
 * Raw planar YCbCr reader.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "yuv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ct_yuv_planes_read(const char *path, ct_pixel_format format, uint32_t width,
                       uint32_t height, ct_yuv_planes *planes, char *errbuf,
                       size_t errbuf_size)
{
    memset(planes, 0, sizeof(*planes));
    if (format != CT_PIXEL_I420 && format != CT_PIXEL_I422 &&
        format != CT_PIXEL_I444) {
        snprintf(errbuf, errbuf_size, "not a planar YCbCr layout: %d",
                 (int)format);
        return -1;
    }
    if (width < 1 || height < 1 || width > CT_JPEG_MAX_DIMENSION ||
        height > CT_JPEG_MAX_DIMENSION) {
        snprintf(errbuf, errbuf_size, "invalid size %ux%u (1..%u each way)",
                 (unsigned)width, (unsigned)height,
                 (unsigned)CT_JPEG_MAX_DIMENSION);
        return -1;
    }
    planes->width = width;
    planes->height = height;
    planes->format = format;
    planes->chroma_width = format == CT_PIXEL_I444 ? width : (width + 1) / 2;
    planes->chroma_height = format == CT_PIXEL_I420 ? (height + 1) / 2 : height;
    const size_t luma = (size_t)width * height;
    const size_t chroma = (size_t)planes->chroma_width * planes->chroma_height;
    const size_t size = luma + 2 * chroma;

    const int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(errbuf, errbuf_size, "%s: %s", name, strerror(errno));
        return -1;
    }
    /* One byte more than the planes, to tell a longer file. */
    planes->data = malloc(size + 1);
    size_t got = planes->data ? fread(planes->data, 1, size + 1, f) : 0;
    const int failed = planes->data ? ferror(f) : 1;
    if (!from_stdin)
        fclose(f);
    if (failed || got != size) {
        if (!planes->data)
            snprintf(errbuf, errbuf_size, "%s: out of memory", name);
        else if (failed)
            snprintf(errbuf, errbuf_size, "%s: read error", name);
        else
            snprintf(errbuf, errbuf_size,
                     "%s: %s%zu bytes, expected %zu for %ux%u %s planes", name,
                     got > size ? "more than " : "", got > size ? size : got,
                     size, (unsigned)width, (unsigned)height,
                     format == CT_PIXEL_I420   ? "4:2:0"
                     : format == CT_PIXEL_I422 ? "4:2:2"
                                               : "4:4:4");
        ct_yuv_planes_free(planes);
        return -1;
    }
    planes->plane[0] = planes->data;
    planes->plane[1] = planes->data + luma;
    planes->plane[2] = planes->data + luma + chroma;
    return 0;
}

void ct_yuv_planes_free(ct_yuv_planes *planes)
{
    free(planes->data);
    memset(planes, 0, sizeof(*planes));
}

ct_jpeg_image ct_yuv_jpeg_image(const ct_yuv_planes *planes)
{
    return (ct_jpeg_image){
        .width = planes->width,
        .height = planes->height,
        .format = planes->format,
        .stride = planes->width,
        .pixels = planes->plane[0],
        .chroma = {planes->plane[1], planes->plane[2]},
        .chroma_stride = {planes->chroma_width, planes->chroma_width},
    };
}
