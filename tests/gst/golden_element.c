/*
 * The golden set through the element: for each row,
 *   filesrc location=INPUT ! pnmdec ! ctjpegenc <properties> ! appsink
 * with the properties that correspond to the row's cjpegli flags (only the
 * ones that differ from the defaults, so the element's defaults are checked
 * against cjpegli's too) and simd set to the row's target; the one buffer
 * that comes out must equal the row's expected JPEG.
 *
 * usage: golden_element [--target sse2|avx2] [--filter TEXT] GOLDEN_DIR
 * Every row runs: the pipelines cost little beside the encoding itself
 * (about as long as the library's golden test). Exits 0, 1 on any
 * difference, 77 when GOLDEN_DIR is absent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/app/gstappsink.h>
#include <gst/gst.h>

#include "cjpegli_flags.h"
#include "ctcore/jpeg.h"
#include "element_properties.h"
#include "golden_manifest.h"

/* Runs the pipeline; returns the JPEG buffer or NULL with *error_text set
 * to the error posted on the bus. */
static GstBuffer *encode_through_element(const char *input_path,
                                         const char *properties,
                                         char **error_text)
{
    char *description = g_strdup_printf(
        "filesrc name=src ! pnmdec ! ctjpegenc%s ! appsink name=sink "
        "sync=false", properties);
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(description, &error);
    g_free(description);
    if (!pipeline) {
        *error_text = g_strdup_printf("pipeline: %s", error->message);
        g_error_free(error);
        return NULL;
    }

    GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    g_object_set(src, "location", input_path, NULL);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);

    GstBuffer *buffer = NULL;
    GstSample *sample = gst_app_sink_pull_sample(GST_APP_SINK(sink));
    if (sample) {
        buffer = gst_buffer_ref(gst_sample_get_buffer(sample));
        gst_sample_unref(sample);
    } else {
        GstBus *bus = gst_element_get_bus(pipeline);
        GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
        if (msg) {
            gchar *debug = NULL;
            gst_message_parse_error(msg, &error, &debug);
            *error_text = g_strdup_printf("%s (%s)", error->message,
                                          debug ? debug : "");
            g_error_free(error);
            g_free(debug);
            gst_message_unref(msg);
        } else {
            *error_text = g_strdup("no buffer and no error");
        }
        gst_object_unref(bus);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(src);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
    return buffer;
}

/* Runs one row through the element: 1 when its bytes are the expected
 * JPEG's, else 0 with the reason in *why. */
static int check_row(const char *dir, const ct_golden_row *row, ct_simd simd,
                     char **why)
{
    char err[512];
    ct_jpeg_settings settings;
    if (ct_cjpegli_flags_from_string(row->flags, &settings, err,
                                     sizeof(err)) < 0) {
        *why = g_strdup_printf("flags: %s", err);
        return 0;
    }
    settings.simd = simd;
    GString *properties = g_string_new(NULL);
    ct_element_properties(&settings, properties);

    char *input = g_build_filename(dir, row->input, NULL);
    char *error_text = NULL;
    GstBuffer *buffer = encode_through_element(input, properties->str,
                                               &error_text);
    g_free(input);
    if (!buffer) {
        *why = g_strdup_printf("ctjpegenc%s: %s", properties->str, error_text);
        g_free(error_text);
        g_string_free(properties, TRUE);
        return 0;
    }

    char *output = g_build_filename(dir, row->output, NULL);
    size_t expected_size;
    uint8_t *expected = ct_read_file(output, &expected_size);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_READ);
    int identical = 1;
    if (!expected) {
        *why = g_strdup_printf("cannot read %s", output);
        identical = 0;
    } else if (map.size != expected_size ||
               memcmp(map.data, expected, expected_size) != 0) {
        *why = g_strdup_printf("ctjpegenc%s: %" G_GSIZE_FORMAT
                               " bytes, expected %zu", properties->str,
                               map.size, expected_size);
        identical = 0;
    }
    gst_buffer_unmap(buffer, &map);
    gst_buffer_unref(buffer);
    free(expected);
    g_free(output);
    g_string_free(properties, TRUE);
    return identical;
}

/* What check_target_row needs besides the row. */
typedef struct target_run {
    const char *dir;
    ct_simd simd;
} target_run;

static int check_target_row(void *ctx, const ct_golden_row *row, char *why,
                            size_t why_size)
{
    const target_run *run = ctx;
    char *reason = NULL;
    const int identical = check_row(run->dir, row, run->simd, &reason);
    if (!identical)
        g_strlcpy(why, reason, why_size);
    g_free(reason);
    return identical;
}

static int run_target(const char *dir, const ct_golden_manifest *manifest,
                      ct_simd simd, const char *filter)
{
    const char *target = ct_simd_name(simd);
    target_run run = { .dir = dir, .simd = simd };
    char *label = g_strdup_printf("element %s", target);
    int failures;
    const int total = ct_golden_check_rows(manifest, target, filter, label,
                                           check_target_row, &run, &failures);
    g_free(label);
    if (total == 0) {
        printf("element %s: no rows selected\n", target);
        return 1;
    }
    return failures;
}

int main(int argc, char **argv)
{
    ct_golden_args args;

    gst_init(&argc, &argv);
    if (ct_golden_parse_args(argc, argv,
                             "usage: golden_element [--target sse2|avx2] "
                             "[--filter TEXT] GOLDEN_DIR",
                             0, &args) != 0)
        return 2;
    const char *dir = args.dir;

    ct_golden_manifest manifest;
    const int status = ct_golden_open(dir, &manifest);
    if (status != 0)
        return status;
    const char *required[] = { "filesrc", "pnmdec", "ctjpegenc", "appsink" };
    for (size_t i = 0; i < G_N_ELEMENTS(required); i++) {
        GstElementFactory *factory = gst_element_factory_find(required[i]);
        if (!factory) {
            printf("element %s not found (GST_PLUGIN_PATH?)\n", required[i]);
            ct_golden_manifest_free(&manifest);
            return 1;
        }
        gst_object_unref(factory);
    }
    int failures = 0;
    for (int t = 0; t < args.num_targets; t++)
        failures += run_target(dir, &manifest, args.targets[t], args.filter);
    ct_golden_manifest_free(&manifest);
    return failures ? 1 : 0;
}
