/*
 * The YCbCr golden set through the element, with GstHarness: for each row,
 * its planes pushed into ctjpegenc, with the properties of the row's
 * cjpegli flags and simd set to the row's target, as one frame of the
 * row's format, laid out as its caps imply; I420 rows also as NV12 and
 * YV12, Y42B rows also as YUY2 and UYVY where the width is even. Each
 * frame's one output buffer must equal the row's JPEG. One harness per
 * target takes every frame (new caps and properties between them, as a
 * stream would): a harness per frame cost 60 ms each under AddressSanitizer.
 *
 * usage: golden_yuv_element [--target sse2|avx2] [--filter TEXT] GOLDEN_DIR
 * Exits 0, 1 on any difference, 77 when GOLDEN_DIR is absent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "cjpegli_flags.h"
#include "ctcore/jpeg.h"
#include "element_properties.h"
#include "golden_manifest.h"
#include "yuv_planes.h"

/* The GStreamer formats a row is fed as: its own first. */
static int row_formats(const ct_yuv_planes *planes, GstVideoFormat formats[3])
{
    int n = 0;
    switch (planes->format) {
    case CT_PIXEL_I420:
        formats[n++] = GST_VIDEO_FORMAT_I420;
        formats[n++] = GST_VIDEO_FORMAT_NV12;
        formats[n++] = GST_VIDEO_FORMAT_YV12;
        break;
    case CT_PIXEL_I422:
        formats[n++] = GST_VIDEO_FORMAT_Y42B;
        if (planes->width % 2 == 0) {
            formats[n++] = GST_VIDEO_FORMAT_YUY2;
            formats[n++] = GST_VIDEO_FORMAT_UYVY;
        }
        break;
    default:
        formats[n++] = GST_VIDEO_FORMAT_Y444;
        break;
    }
    return n;
}

/* The planes as a buffer of `format`, laid out as the caps imply (rows
 * padded to GStreamer's default strides, padding 0x5a). */
static GstBuffer *make_buffer(const ct_yuv_planes *planes,
                              const GstVideoInfo *info)
{
    GstBuffer *buffer =
        gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(info), NULL);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    memset(map.data, 0x5a, map.size);
    for (guint c = 0; c < 3; c++) {
        const guint plane = GST_VIDEO_INFO_COMP_PLANE(info, c);
        guint8 *data = map.data + GST_VIDEO_INFO_PLANE_OFFSET(info, plane) +
                       GST_VIDEO_INFO_COMP_POFFSET(info, c);
        const gint stride = GST_VIDEO_INFO_PLANE_STRIDE(info, plane);
        const gint pstride = GST_VIDEO_INFO_COMP_PSTRIDE(info, c);
        const guint w = c == 0 ? planes->width : planes->chroma_width;
        const guint h = c == 0 ? planes->height : planes->chroma_height;
        for (guint y = 0; y < h; y++)
            for (guint x = 0; x < w; x++)
                data[y * stride + x * pstride] = planes->plane[c][y * w + x];
    }
    gst_buffer_unmap(buffer, &map);
    return buffer;
}

/* One frame of the planes in `format` through the element: its JPEG, or
 * NULL. */
static GstBuffer *encode_frame(GstHarness *h, const ct_yuv_planes *planes,
                               GstVideoFormat format)
{
    GstVideoInfo info;
    gst_video_info_set_format(&info, format, planes->width, planes->height);
    GST_VIDEO_INFO_FPS_N(&info) = 0;
    GST_VIDEO_INFO_FPS_D(&info) = 1;
    /* The golden planes are full-range BT.601. */
    gst_video_colorimetry_from_string(&info.colorimetry, "1:4:0:0");
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&info));
    GstBuffer *out = NULL;
    if (gst_harness_push(h, make_buffer(planes, &info)) == GST_FLOW_OK)
        out = gst_harness_try_pull(h);
    return out;
}

/* Checks every format of one row: 1 when each gives the expected bytes,
 * else 0 with the reason in why. Counts the frames in *identical_frames. */
static int check_formats(GstHarness *h, const ct_yuv_planes *planes,
                         const char *properties, const uint8_t *expected,
                         size_t expected_size, int *identical_frames, char *why,
                         size_t why_size)
{
    GstVideoFormat formats[3];
    const int n = row_formats(planes, formats);
    for (int i = 0; i < n; i++) {
        const char *name = gst_video_format_to_string(formats[i]);
        GstBuffer *out = encode_frame(h, planes, formats[i]);
        if (!out) {
            snprintf(why, why_size, "%s ctjpegenc%s: no output", name,
                     properties);
            return 0;
        }
        GstMapInfo map;
        gst_buffer_map(out, &map, GST_MAP_READ);
        const int identical = map.size == expected_size &&
                              memcmp(map.data, expected, expected_size) == 0;
        if (!identical)
            snprintf(why, why_size,
                     "%s ctjpegenc%s: %" G_GSIZE_FORMAT " bytes, expected %zu",
                     name, properties, map.size, expected_size);
        gst_buffer_unmap(out, &map);
        gst_buffer_unref(out);
        if (!identical)
            return 0;
        ++*identical_frames;
    }
    return 1;
}

/* What check_row needs besides the row. */
typedef struct target_run {
    const char *dir;
    ct_simd simd;
    GstHarness *harness;
    int identical_frames;
} target_run;

static int check_row(void *ctx, const ct_golden_row *row, char *why,
                     size_t why_size)
{
    target_run *run = ctx;
    char err[512];
    ct_jpeg_settings settings;
    if (ct_cjpegli_flags_from_string(row->flags, &settings, err, sizeof(err)) <
        0) {
        snprintf(why, why_size, "flags: %s", err);
        return 0;
    }
    settings.simd = run->simd;
    const ct_pixel_format format =
        row->format ? ct_yuv_format_from_name(row->format) : 0;
    if (!format || !row->width || !row->height) {
        snprintf(why, why_size, "not a YCbCr row");
        return 0;
    }
    char *input = g_build_filename(run->dir, row->input, NULL);
    ct_yuv_planes planes;
    const int read = ct_yuv_planes_read(
        input, format, (uint32_t)strtoul(row->width, NULL, 10),
        (uint32_t)strtoul(row->height, NULL, 10), &planes, err, sizeof(err));
    g_free(input);
    if (read < 0) {
        snprintf(why, why_size, "input: %s", err);
        return 0;
    }
    char *output = g_build_filename(run->dir, row->output, NULL);
    size_t expected_size;
    uint8_t *expected = ct_read_file(output, &expected_size);
    g_free(output);
    int identical = 0;
    if (!expected) {
        snprintf(why, why_size, "cannot read %s", row->output);
    } else {
        /* The properties as a launch line would set them, for messages. */
        GString *properties = g_string_new(NULL);
        ct_element_properties(&settings, properties);
        ct_element_set_properties(G_OBJECT(run->harness->element), &settings);
        identical =
            check_formats(run->harness, &planes, properties->str, expected,
                          expected_size, &run->identical_frames, why, why_size);
        g_string_free(properties, TRUE);
    }
    free(expected);
    ct_yuv_planes_free(&planes);
    return identical;
}

int main(int argc, char **argv)
{
    ct_golden_args args;

    gst_init(&argc, &argv);
    if (ct_golden_parse_args(argc, argv,
                             "usage: golden_yuv_element [--target sse2|avx2] "
                             "[--filter TEXT] GOLDEN_DIR",
                             0, &args) != 0)
        return 2;
    ct_golden_manifest manifest;
    const int status = ct_golden_open(args.dir, &manifest);
    if (status != 0)
        return status;
    GstElementFactory *factory = gst_element_factory_find("ctjpegenc");
    if (!factory) {
        printf("element ctjpegenc not found (GST_PLUGIN_PATH?)\n");
        ct_golden_manifest_free(&manifest);
        return 1;
    }
    gst_object_unref(factory);
    int failures = 0;
    for (int t = 0; t < args.num_targets; t++) {
        const char *target = ct_simd_name(args.targets[t]);
        target_run run = {.dir = args.dir,
                          .simd = args.targets[t],
                          .harness = gst_harness_new("ctjpegenc")};
        char *label = g_strdup_printf("element %s", target);
        int target_failures;
        const int total =
            ct_golden_check_rows(&manifest, target, args.filter, label,
                                 check_row, &run, &target_failures);
        g_free(label);
        gst_harness_teardown(run.harness);
        printf("element %s: %d frames identical (the rows in every format "
               "they are fed as)\n",
               target, run.identical_frames);
        failures += total == 0 ? 1 : target_failures;
        if (total == 0)
            printf("element %s: no rows selected\n", target);
    }
    ct_golden_manifest_free(&manifest);
    return failures ? 1 : 0;
}
