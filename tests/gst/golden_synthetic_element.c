/*
 * The golden set's synthetic rows through the element, without the golden
 * set: for each row of HASH_DIR/MANIFEST.tsv (the golden manifest's syn-*
 * rows of both targets), the input made by its formula goes through
 *   appsrc ! ctjpegenc <properties> ! appsink
 * with the properties of the row's cjpegli flags (only those that differ
 * from the defaults, so the element's defaults are checked against
 * cjpegli's too) and simd set to the row's target; the one buffer that
 * comes out must have the row's sha256 and size.
 *
 * usage: golden_synthetic_element [--filter TEXT] HASH_DIR
 * Exits 0 when every row is identical, 1 on any difference.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "cjpegli_flags.h"
#include "ctcore/jpeg.h"
#include "golden_manifest.h"
#include "synthetic.h"

/* Sets ctjpegenc's properties for settings, leaving the defaults alone. */
static void set_properties(GstElement *enc, const ct_jpeg_settings *s)
{
    ct_jpeg_settings d;
    ct_jpeg_settings_default(&d);

    if (s->quality != d.quality)
        g_object_set(enc, "quality", s->quality, NULL);
    if (s->distance != d.distance)
        g_object_set(enc, "distance", s->distance, NULL);
    if (s->progressive_level != d.progressive_level)
        g_object_set(enc, "progressive-level", s->progressive_level, NULL);
    if (s->chroma_subsampling != d.chroma_subsampling)
        g_object_set(enc, "chroma-subsampling", s->chroma_subsampling, NULL);
    if (s->adaptive_quantization != d.adaptive_quantization)
        g_object_set(enc, "adaptive-quantization",
                     (gboolean)s->adaptive_quantization, NULL);
    if (s->std_quant != d.std_quant)
        g_object_set(enc, "standard-tables", (gboolean)s->std_quant, NULL);
    if (s->xyb != d.xyb)
        g_object_set(enc, "xyb", (gboolean)s->xyb, NULL);
    if (s->fixed_code != d.fixed_code)
        g_object_set(enc, "fixed-code", (gboolean)s->fixed_code, NULL);
    g_object_set(enc, "simd", s->simd, NULL);
}

/* The error on the pipeline's bus, or a note that there is none. */
static char *bus_error(GstElement *pipeline)
{
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    char *text;
    if (msg) {
        GError *error = NULL;
        gchar *debug = NULL;
        gst_message_parse_error(msg, &error, &debug);
        text = g_strdup_printf("%s (%s)", error->message, debug ? debug : "");
        g_error_free(error);
        g_free(debug);
        gst_message_unref(msg);
    } else {
        text = g_strdup("no buffer and no error");
    }
    gst_object_unref(bus);
    return text;
}

/* Pushes the image through the element; returns the JPEG buffer, or NULL
 * with *error_text set. */
static GstBuffer *encode_through_element(const ct_synthetic_image *image,
                                         const ct_jpeg_settings *settings,
                                         char **error_text)
{
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(
        "appsrc name=src format=time ! ctjpegenc name=enc ! "
        "appsink name=sink sync=false", &error);
    if (!pipeline) {
        *error_text = g_strdup_printf("pipeline: %s", error->message);
        g_error_free(error);
        return NULL;
    }
    GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement *enc = gst_bin_get_by_name(GST_BIN(pipeline), "enc");
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    GstCaps *caps = gst_caps_new_simple(
        "video/x-raw", "format", G_TYPE_STRING,
        image->channels == 1 ? "GRAY8" : "RGB", "width", G_TYPE_INT,
        (int)image->width, "height", G_TYPE_INT, (int)image->height,
        "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
    gst_app_src_set_caps(GST_APP_SRC(src), caps);
    gst_caps_unref(caps);
    set_properties(enc, settings);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);

    /* RGB and GRAY8 rows of these widths are padded to 4 bytes in the
     * caps' layout: a video meta gives the packed stride instead. */
    const gsize row = (gsize)image->width * image->channels;
    GstBuffer *in = gst_buffer_new_memdup(image->pixels, row * image->height);
    gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
    gint stride[GST_VIDEO_MAX_PLANES] = { (gint)row };
    gst_buffer_add_video_meta_full(
        in, GST_VIDEO_FRAME_FLAG_NONE,
        image->channels == 1 ? GST_VIDEO_FORMAT_GRAY8 : GST_VIDEO_FORMAT_RGB,
        image->width, image->height, 1, offset, stride);
    GST_BUFFER_PTS(in) = 0;
    gst_app_src_push_buffer(GST_APP_SRC(src), in);
    gst_app_src_end_of_stream(GST_APP_SRC(src));

    GstBuffer *buffer = NULL;
    GstSample *sample = gst_app_sink_pull_sample(GST_APP_SINK(sink));
    if (sample) {
        buffer = gst_buffer_ref(gst_sample_get_buffer(sample));
        gst_sample_unref(sample);
    } else {
        *error_text = bus_error(pipeline);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(src);
    gst_object_unref(enc);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
    return buffer;
}

/* Runs one row through the element: 1 when its file has the row's sha256
 * and size, else 0 with the reason in why. */
static int check_row(void *ctx, const ct_golden_row *row, char *why,
                     size_t why_size)
{
    const ct_simd simd = *(const ct_simd *)ctx;
    char err[512];
    ct_jpeg_settings settings;
    if (ct_cjpegli_flags_from_string(row->flags, &settings, err,
                                     sizeof(err)) < 0) {
        snprintf(why, why_size, "flags: %s", err);
        return 0;
    }
    settings.simd = simd;
    ct_synthetic_image image;
    if (ct_synthetic_make(row->input, &image) < 0) {
        snprintf(why, why_size, "%s is no synthetic input", row->input);
        return 0;
    }
    char *error_text = NULL;
    GstBuffer *buffer = encode_through_element(&image, &settings,
                                               &error_text);
    ct_synthetic_free(&image);
    if (!buffer) {
        snprintf(why, why_size, "%s", error_text);
        g_free(error_text);
        return 0;
    }
    GstMapInfo map;
    int identical = 0;
    if (gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        identical = ct_synthetic_check_output(row, map.data, map.size, why,
                                              why_size);
        gst_buffer_unmap(buffer, &map);
    } else {
        snprintf(why, why_size, "cannot map the output");
    }
    gst_buffer_unref(buffer);
    return identical;
}

int main(int argc, char **argv)
{
    const char *hash_dir = NULL, *filter = NULL;
    gst_init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            filter = argv[++i];
        } else if (argv[i][0] != '-' && !hash_dir) {
            hash_dir = argv[i];
        } else {
            hash_dir = NULL;
            break;
        }
    }
    if (!hash_dir) {
        fprintf(stderr, "usage: golden_synthetic_element [--filter TEXT] "
                        "HASH_DIR\n");
        return 2;
    }
    GstElementFactory *factory = gst_element_factory_find("ctjpegenc");
    if (!factory) {
        printf("ctjpegenc not found: set GST_PLUGIN_PATH\n");
        return 1;
    }
    gst_object_unref(factory);

    char err[512];
    ct_golden_manifest kept;
    if (ct_golden_manifest_read(hash_dir, &kept, err, sizeof(err)) < 0) {
        printf("kept hashes broken: %s\n", err);
        return 1;
    }
    const ct_simd targets[] = { CT_SIMD_SSE2, CT_SIMD_AVX2 };
    int failures = 0;
    for (int t = 0; t < 2; t++) {
        ct_simd simd = targets[t];
        char label[64];
        snprintf(label, sizeof(label), "element %s (synthetic, no golden set)",
                 ct_simd_name(simd));
        int target_failures;
        if (ct_golden_check_rows(&kept, ct_simd_name(simd), filter, label,
                                 check_row, &simd, &target_failures) == 0) {
            printf("%s: no rows\n", ct_simd_name(simd));
            target_failures++;
        }
        failures += target_failures;
    }
    ct_golden_manifest_free(&kept);
    return failures ? 1 : 0;
}
