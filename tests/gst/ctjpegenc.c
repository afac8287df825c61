/*
 * ctjpegenc element tests (GstHarness): caps per input format, byte
 * equality with the library on the reordered RGB and on the planes of each
 * YUV format, the sink caps a chroma-subsampling allows and the YUV
 * errors, state changes, odd
 * sizes, streams, property changes between frames and bad buffers; worker
 * pools of several sizes and batches of frames (order, timestamps, EOS,
 * flush, caps and property changes, drain queries, latency).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "ctcore/jpeg.h"
#include "test_picture.h"

/* The picture as a buffer of the given format, laid out as the caps imply;
 * padding and alpha bytes are 0x5a so that reading them shows. */
static GstBuffer *
make_buffer (const test_picture * p, GstVideoFormat format)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buffer;

  fail_unless (gst_video_info_set_format (&info, format, p->width,
          p->height));
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (buffer, 0, 0x5a, GST_VIDEO_INFO_SIZE (&info));
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE));
  for (guint y = 0; y < p->height; y++) {
    for (guint x = 0; x < p->width; x++) {
      guint i = y * p->width + x;
      if (format == GST_VIDEO_FORMAT_GRAY8) {
        guint8 *row = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
        row[y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x] = p->gray[i];
        continue;
      }
      for (guint c = 0; c < 3; c++) {
        guint8 *data = GST_VIDEO_FRAME_COMP_DATA (&frame, c);
        data[y * GST_VIDEO_FRAME_COMP_STRIDE (&frame, c) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c)] = p->rgb[3 * i + c];
      }
    }
  }
  gst_video_frame_unmap (&frame);
  return buffer;
}

/* The same with `pad` more bytes per row than the caps imply, described
 * by a video meta. */
static GstBuffer *
make_padded_buffer (const test_picture * p, GstVideoFormat format, guint pad)
{
  GstVideoInfo info;
  GstBuffer *tight = make_buffer (p, format);
  GstBuffer *buffer;
  GstMapInfo in, out;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  gsize tight_stride;

  fail_unless (gst_video_info_set_format (&info, format, p->width,
          p->height));
  tight_stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  stride[0] = tight_stride + pad;
  buffer = gst_buffer_new_allocate (NULL, stride[0] * p->height, NULL);
  gst_buffer_memset (buffer, 0, 0xa5, stride[0] * p->height);
  fail_unless (gst_buffer_map (tight, &in, GST_MAP_READ));
  fail_unless (gst_buffer_map (buffer, &out, GST_MAP_WRITE));
  for (guint y = 0; y < p->height; y++)
    memcpy (out.data + y * stride[0], in.data + y * tight_stride,
        tight_stride);
  gst_buffer_unmap (buffer, &out);
  gst_buffer_unmap (tight, &in);
  gst_buffer_unref (tight);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE, format,
      p->width, p->height, 1, offset, stride);
  return buffer;
}

static GstCaps *
raw_caps_at_rate (GstVideoFormat format, guint width, guint height,
    gint fps_n)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, fps_n, 1, NULL);
}

static GstCaps *
raw_caps (GstVideoFormat format, guint width, guint height)
{
  return raw_caps_at_rate (format, width, height, 30);
}

/* What the library writes for the picture (gray for GRAY8, else RGB). */
static GBytes *
library_jpeg (const test_picture * p, gboolean gray,
    const ct_jpeg_settings * settings)
{
  ct_jpeg_image image = {
    .width = p->width,
    .height = p->height,
    .format = gray ? CT_PIXEL_GRAY8 : CT_PIXEL_RGB8,
    .stride = (size_t) p->width * (gray ? 1 : 3),
    .pixels = gray ? p->gray : p->rgb,
  };
  ct_jpeg_output out = { NULL, 0 };
  char err[256] = "";
  int ret = ct_jpeg_encode (NULL, settings, &image, &out, err, sizeof (err));
  GBytes *bytes;

  fail_unless (ret == CT_OK, "ct_jpeg_encode: %s", err);
  bytes = g_bytes_new (out.data, out.size);
  ct_jpeg_output_free (&out);
  return bytes;
}

static void
assert_jpeg_equals (GstBuffer * buffer, GBytes * expected)
{
  GstMapInfo map;
  gsize expected_size;
  const guint8 *expected_data = g_bytes_get_data (expected, &expected_size);

  fail_unless (buffer != NULL);
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  fail_unless (map.size >= 4);
  fail_unless (map.data[0] == 0xff && map.data[1] == 0xd8, "no SOI");
  fail_unless (map.data[map.size - 2] == 0xff && map.data[map.size - 1] == 0xd9,
      "no EOI");
  fail_unless_equals_uint64 (map.size, expected_size);
  fail_unless (memcmp (map.data, expected_data, map.size) == 0,
      "bytes differ from the library's");
  gst_buffer_unmap (buffer, &map);
}

static void
assert_output_caps (GstHarness * h, guint width, guint height, gint sof)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstStructure *s;
  gint value;

  fail_unless (caps != NULL);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "image/jpeg"));
  fail_unless (gst_structure_get_int (s, "width", &value));
  fail_unless_equals_int (value, width);
  fail_unless (gst_structure_get_int (s, "height", &value));
  fail_unless_equals_int (value, height);
  fail_unless (gst_structure_get_int (s, "sof-marker", &value));
  fail_unless_equals_int (value, sof);
  gst_caps_unref (caps);
}

/* Pushes one picture in the format and checks the JPEG that comes out. */
static void
check_one_frame (GstVideoFormat format, guint width, guint height)
{
  GstHarness *h = gst_harness_new ("ctjpegenc");
  test_picture p = make_picture (width, height, width ^ height);
  gboolean gray = format == GST_VIDEO_FORMAT_GRAY8;
  ct_jpeg_settings settings;
  GBytes *expected;
  GstBuffer *out;

  ct_jpeg_settings_default (&settings);
  expected = library_jpeg (&p, gray, &settings);
  gst_harness_set_src_caps (h, raw_caps (format, width, height));
  fail_unless_equals_int (gst_harness_push (h, make_buffer (&p, format)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  assert_jpeg_equals (out, expected);
  assert_output_caps (h, width, height, 2);
  gst_buffer_unref (out);
  g_bytes_unref (expected);
  free_picture (&p);
  gst_harness_teardown (h);
}

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_BGR,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB,
  GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
  GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
};

GST_START_TEST (test_format)
{
  /* 17x15: rows of RGB and GRAY8 have stride padding. */
  check_one_frame (formats[__i__], 17, 15);
}

GST_END_TEST;

GST_START_TEST (test_sizes)
{
  static const guint sizes[][2] = { {1, 1}, {7, 9}, {17, 15}, {8, 8},
  {1, 40}, {40, 1}
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    check_one_frame (GST_VIDEO_FORMAT_RGB, sizes[i][0], sizes[i][1]);
    check_one_frame (GST_VIDEO_FORMAT_GRAY8, sizes[i][0], sizes[i][1]);
  }
}

GST_END_TEST;

GST_START_TEST (test_defaults_are_cjpeglis)
{
  GstElement *enc = gst_element_factory_make ("ctjpegenc", NULL);
  ct_jpeg_settings d;
  gint quality, progressive_level, subsampling, simd;
  gfloat distance;
  gboolean aq, std_quant, xyb, fixed_code;

  ct_jpeg_settings_default (&d);
  g_object_get (enc, "quality", &quality, "distance", &distance,
      "progressive-level", &progressive_level,
      "chroma-subsampling", &subsampling, "adaptive-quantization", &aq,
      "standard-tables", &std_quant, "xyb", &xyb, "fixed-code", &fixed_code,
      "simd", &simd, NULL);
  fail_unless_equals_int (quality, d.quality);
  fail_unless (distance == d.distance);
  fail_unless_equals_int (progressive_level, d.progressive_level);
  fail_unless_equals_int (subsampling, d.chroma_subsampling);
  fail_unless_equals_int (aq, d.adaptive_quantization);
  fail_unless_equals_int (std_quant, d.std_quant);
  fail_unless_equals_int (xyb, d.xyb);
  fail_unless_equals_int (fixed_code, d.fixed_code);
  fail_unless_equals_int (simd, d.simd);
  gst_object_unref (enc);
}

GST_END_TEST;

GST_START_TEST (test_state_changes)
{
  GstElement *enc = gst_element_factory_make ("ctjpegenc", NULL);

  for (int i = 0; i < 10; i++) {
    fail_unless_equals_int (gst_element_set_state (enc, GST_STATE_PLAYING),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (enc, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (enc);

  /* The same with a frame through each time: the harness goes to PLAYING
   * and back to NULL on teardown. */
  for (int i = 0; i < 10; i++)
    check_one_frame (GST_VIDEO_FORMAT_RGB, 16 + i, 8);
}

GST_END_TEST;

#define FRAME_DURATION (GST_SECOND / 30)

/* Pushes frame `index` of a 30 fps stream; *expected receives what the
 * library's sequential chain writes for it. */
static void
push_stream_frame (GstHarness * h, GstVideoFormat format, guint width,
    guint height, guint index, const ct_jpeg_settings * settings,
    GBytes ** expected)
{
  test_picture p = make_picture (width, height, index);
  GstBuffer *in = make_buffer (&p, format);

  GST_BUFFER_PTS (in) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (in) = FRAME_DURATION;
  *expected = library_jpeg (&p, format == GST_VIDEO_FORMAT_GRAY8, settings);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  free_picture (&p);
}

/* Pulls the output of frame `index` and checks bytes and timestamps. */
static void
pull_stream_frame (GstHarness * h, guint index, GBytes * expected)
{
  GstBuffer *out = gst_harness_pull (h);

  assert_jpeg_equals (out, expected);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), index * FRAME_DURATION);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), FRAME_DURATION);
  gst_buffer_unref (out);
  g_bytes_unref (expected);
}

GST_START_TEST (test_stream)
{
  GstHarness *h = gst_harness_new ("ctjpegenc");
  ct_jpeg_settings settings;
  GBytes *expected[30];

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_BGRx, 33, 21));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_BGRx, 33, 21, i, &settings,
        &expected[i]);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    pull_stream_frame (h, i, expected[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_property_change_between_frames)
{
  GstHarness *h = gst_harness_new ("ctjpegenc");
  test_picture p = make_picture (24, 16, 7);
  ct_jpeg_settings settings;
  GBytes *expected;
  GstBuffer *out;

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 24, 16));

  expected = library_jpeg (&p, FALSE, &settings);
  fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
              GST_VIDEO_FORMAT_RGB)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  assert_jpeg_equals (out, expected);
  assert_output_caps (h, 24, 16, 2);
  gst_buffer_unref (out);
  g_bytes_unref (expected);

  /* Sequential from the next frame on, and the caps say so. */
  g_object_set (h->element, "progressive-level", 0, "quality", 75,
      "chroma-subsampling", CT_JPEG_SUBSAMPLING_420, NULL);
  settings.progressive_level = 0;
  settings.quality = 75;
  settings.chroma_subsampling = CT_JPEG_SUBSAMPLING_420;
  expected = library_jpeg (&p, FALSE, &settings);
  fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
              GST_VIDEO_FORMAT_RGB)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  assert_jpeg_equals (out, expected);
  assert_output_caps (h, 24, 16, 0);
  gst_buffer_unref (out);
  g_bytes_unref (expected);

  free_picture (&p);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pops the error the element posted and checks its domain and code. */
static gchar *
pop_error (GstBus * bus, GQuark domain, gint code)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *error = NULL;
  gchar *debug = NULL, *text;

  fail_unless (msg != NULL, "no error message on the bus");
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (error->domain == domain && error->code == code,
      "unexpected error: %s", error->message);
  text = g_strdup (error->message);
  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  return text;
}

GST_START_TEST (test_small_buffer)
{
  GstHarness *h = gst_harness_new ("ctjpegenc");
  GstBus *bus = gst_bus_new ();
  GstBuffer *in = gst_buffer_new_allocate (NULL, 100, NULL);
  gchar *message;

  gst_element_set_bus (h->element, bus);
  /* A 16x16 RGB frame needs 768 bytes. */
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 16, 16));
  gst_buffer_memset (in, 0, 0, 100);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  message = pop_error (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT);
  fail_unless (strstr (message, "expected 768") != NULL, "%s", message);
  fail_unless (strstr (message, "got 100") != NULL, "%s", message);
  g_free (message);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* cjpegli refuses --fixed_code without -p 0; the element says so in the
 * terms of its properties, on the first frame. */
GST_START_TEST (test_fixed_code_needs_baseline)
{
  GstHarness *h = gst_harness_new ("ctjpegenc");
  GstBus *bus = gst_bus_new ();
  test_picture p = make_picture (16, 16, 3);
  gchar *message;

  gst_element_set_bus (h->element, bus);
  g_object_set (h->element, "fixed-code", TRUE, NULL);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 16, 16));
  fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
              GST_VIDEO_FORMAT_RGB)), GST_FLOW_ERROR);
  message = pop_error (bus, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS);
  fail_unless (g_str_has_prefix (message,
          "fixed-code=true needs progressive-level=0"), "%s", message);
  fail_unless (strstr (message, "--") == NULL, "%s", message);
  g_free (message);

  free_picture (&p);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A harness around a ctjpegenc whose downstream takes only sink_caps, with
 * its errors on *bus; progressive_level < 0 leaves the property unset. */
static GstHarness *
new_harness_to (const gchar * sink_caps, gint progressive_level,
    gint threads, GstBus ** bus)
{
  GstElement *enc = gst_element_factory_make ("ctjpegenc", NULL);
  GstHarness *h;

  g_object_set (enc, "threads", threads, "max-frames-in-flight", threads,
      NULL);
  if (progressive_level >= 0)
    g_object_set (enc, "progressive-level", progressive_level, NULL);
  h = gst_harness_new_with_element (enc, "sink", "src");
  gst_object_unref (enc);
  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_sink_caps_str (h, sink_caps);
  return h;
}

static void
teardown_with_bus (GstHarness * h, GstBus * bus)
{
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL,
      "an error more than expected");
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

/* Downstream that takes only baseline gets it while progressive-level is
 * unset: one frame through 2 workers and 2 frames in flight (which came
 * out empty, with no error, when only the push at EOS failed), then EOS;
 * fixed-code is then valid too. Downstream that takes only progressive
 * gets the default. */
GST_START_TEST (test_downstream_chooses_level)
{
  static const struct
  {
    const gchar *sink_caps;
    gboolean fixed_code;
    gint progressive_level, sof_marker;
  } cases[] = {
    {"image/jpeg, sof-marker=(int)0", FALSE, 0, 0},
    {"image/jpeg, sof-marker=(int)0", TRUE, 0, 0},
    {"image/jpeg, sof-marker=(int)2", FALSE, 2, 2},
    {"image/jpeg, sof-marker=(int){ 0, 2 }", FALSE, 2, 2},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = new_harness_to (cases[i].sink_caps, -1, 2, &bus);
    test_picture p = make_picture (40, 24, i);
    ct_jpeg_settings settings;
    GBytes *expected;
    GstBuffer *out;

    g_object_set (h->element, "fixed-code", cases[i].fixed_code, NULL);
    ct_jpeg_settings_default (&settings);
    settings.progressive_level = cases[i].progressive_level;
    settings.fixed_code = cases[i].fixed_code;
    expected = library_jpeg (&p, FALSE, &settings);
    gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 40, 24));
    fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
                GST_VIDEO_FORMAT_RGB)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    out = gst_harness_pull (h);
    assert_jpeg_equals (out, expected);
    assert_output_caps (h, 40, 24, cases[i].sof_marker);
    gst_buffer_unref (out);
    g_bytes_unref (expected);
    free_picture (&p);
    teardown_with_bus (h, bus);
  }
}

GST_END_TEST;

/* A progressive-level the user set, even to its default, is kept: when
 * downstream does not take it, the first frame fails not negotiated with
 * an error that names the property. */
GST_START_TEST (test_user_level_refused)
{
  static const struct
  {
    const gchar *sink_caps;
    gint progressive_level;
    const gchar *text;
  } cases[] = {
    {"image/jpeg, sof-marker=(int)0", 2, "progressive-level=2 writes "
          "progressive JPEG"},
    {"image/jpeg, sof-marker=(int)0", 1, "progressive-level=1 writes "
          "progressive JPEG"},
    {"image/jpeg, sof-marker=(int)2", 0, "progressive-level=0 writes "
          "baseline JPEG"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = new_harness_to (cases[i].sink_caps,
        cases[i].progressive_level, 1, &bus);
    test_picture p = make_picture (16, 16, i);
    gchar *message;

    gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 16, 16));
    fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
                GST_VIDEO_FORMAT_RGB)), GST_FLOW_NOT_NEGOTIATED);
    message = pop_error (bus, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION);
    fail_unless (strstr (message, cases[i].text) != NULL, "%s", message);
    g_free (message);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    free_picture (&p);
    teardown_with_bus (h, bus);
  }
}

GST_END_TEST;

/* Unset, the level follows downstream (baseline); set mid-stream to what
 * downstream does not take, the next frame fails and names it. */
GST_START_TEST (test_user_level_refused_mid_stream)
{
  GstBus *bus;
  GstHarness *h = new_harness_to ("image/jpeg, sof-marker=(int)0", -1, 1,
      &bus);
  test_picture p = make_picture (16, 16, 9);
  gchar *message;

  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 16, 16));
  fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
              GST_VIDEO_FORMAT_RGB)), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));
  assert_output_caps (h, 16, 16, 0);

  g_object_set (h->element, "progressive-level", 2, NULL);
  fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
              GST_VIDEO_FORMAT_RGB)), GST_FLOW_NOT_NEGOTIATED);
  message = pop_error (bus, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION);
  fail_unless (strstr (message, "progressive-level=2") != NULL, "%s",
      message);
  g_free (message);
  free_picture (&p);
  teardown_with_bus (h, bus);
}

GST_END_TEST;

/* Answers each buffer pushed as a downstream that refuses its caps. */
static GstPadProbeReturn
refuse_buffer (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info,
    G_GNUC_UNUSED gpointer user_data)
{
  gst_buffer_unref (GST_PAD_PROBE_INFO_BUFFER (info));
  GST_PAD_PROBE_INFO_FLOW_RETURN (info) = GST_FLOW_NOT_NEGOTIATED;
  return GST_PAD_PROBE_HANDLED;
}

/* Downstream refuses the frames held for EOS: nobody upstream hears the
 * push fail there, so the element posts the error itself (it once ended
 * such a stream with no file and no message). */
GST_START_TEST (test_refusal_at_eos_posts_error)
{
  GstBus *bus;
  GstHarness *h = new_harness_to ("image/jpeg", -1, 2, &bus);
  test_picture p = make_picture (16, 16, 4);
  GstPad *srcpad = gst_element_get_static_pad (h->element, "src");
  gchar *message;

  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 16, 16));
  fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
              GST_VIDEO_FORMAT_RGB)), GST_FLOW_OK);
  gst_pad_add_probe (srcpad, GST_PAD_PROBE_TYPE_BUFFER, refuse_buffer, NULL,
      NULL);
  gst_harness_push_event (h, gst_event_new_eos ());
  message = pop_error (bus, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION);
  fail_unless (strstr (message, "not negotiated") != NULL, "%s", message);
  g_free (message);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_object_unref (srcpad);
  free_picture (&p);
  teardown_with_bus (h, bus);
}

GST_END_TEST;

/* A 16x16 RGB buffer with a video meta of the given size, plane offset
 * and stride over `size` bytes. */
static GstBuffer *
make_meta_buffer (gsize size, guint width, guint height, gsize offset,
    gint stride)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, size, NULL);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { offset };
  gint strides[GST_VIDEO_MAX_PLANES] = { stride };

  gst_buffer_memset (buffer, 0, 0x33, size);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_RGB, width, height, 1, offsets, strides);
  return buffer;
}

/* Each bad buffer fails its frame with an error on the bus: a meta whose
 * plane lies past the memory (unmappable), a meta whose rows run past it,
 * and a meta larger than the caps say (the encoder refuses the size).
 * The stream goes on with good frames after each. */
GST_START_TEST (test_bad_buffers_post_errors)
{
  const struct
  {
    GstBuffer *buffer;
    GQuark domain;
    gint code;
    const gchar *text;
  } cases[] = {
    {make_meta_buffer (100, 16, 16, 1000, 48), GST_STREAM_ERROR,
        GST_STREAM_ERROR_FORMAT, "Could not map"},
    {make_meta_buffer (100, 16, 16, 0, 48), GST_STREAM_ERROR,
        GST_STREAM_ERROR_FORMAT, "too small for its video meta"},
    {make_meta_buffer (32 * 96, 32, 32, 0, 96), GST_LIBRARY_ERROR,
        GST_LIBRARY_ERROR_SETTINGS, "JPEG encoding failed: frame of 32x32"},
  };
  GstHarness *h = gst_harness_new ("ctjpegenc");
  GstBus *bus = gst_bus_new ();
  test_picture p = make_picture (16, 16, 5);
  ct_jpeg_settings settings;
  GBytes *expected;

  ct_jpeg_settings_default (&settings);
  expected = library_jpeg (&p, FALSE, &settings);
  gst_element_set_bus (h->element, bus);
  g_object_set (h->element, "threads", 1, NULL);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 16, 16));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBuffer *out;
    gchar *message;

    fail_unless_equals_int (gst_harness_push (h, cases[i].buffer),
        GST_FLOW_ERROR);
    message = pop_error (bus, cases[i].domain, cases[i].code);
    fail_unless (strstr (message, cases[i].text) != NULL, "%s", message);
    g_free (message);

    fail_unless_equals_int (gst_harness_push (h, make_buffer (&p,
                GST_VIDEO_FORMAT_RGB)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    assert_jpeg_equals (out, expected);
    gst_buffer_unref (out);
  }
  g_bytes_unref (expected);
  free_picture (&p);
  teardown_with_bus (h, bus);
}

GST_END_TEST;

/* Answers latency queries as a source that is not live; the harness's own
 * source pad says it is live. */
static GstPadProbeReturn
answer_not_live (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info,
    G_GNUC_UNUSED gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);

  if (GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return GST_PAD_PROBE_OK;
  gst_query_set_latency (query, FALSE, 0, GST_CLOCK_TIME_NONE);
  return GST_PAD_PROBE_HANDLED;
}

/* A harness around a ctjpegenc with these pool properties, which the
 * element reads when it starts and when the caps come. */
static GstHarness *
new_pool_harness (gint threads, gint max_frames_in_flight, gboolean live)
{
  GstElement *enc = gst_element_factory_make ("ctjpegenc", NULL);
  GstHarness *h;

  g_object_set (enc, "threads", threads,
      "max-frames-in-flight", max_frames_in_flight, NULL);
  h = gst_harness_new_with_element (enc, "sink", "src");
  gst_object_unref (enc);
  if (!live)
    gst_pad_add_probe (h->srcpad, GST_PAD_PROBE_TYPE_QUERY_UPSTREAM,
        answer_not_live, NULL, NULL);
  return h;
}

static const gint pool_sizes[] = { 1, 2, 4 };

/* Each frame spread over pools of 1, 2 and 4 workers: the sequential
 * chain's bytes, whatever the format and settings. */
GST_START_TEST (test_threads)
{
  static const struct
  {
    GstVideoFormat format;
    guint width, height;
  } streams[] = {
    {GST_VIDEO_FORMAT_RGB, 203, 117},
    {GST_VIDEO_FORMAT_BGRx, 64, 200},
    {GST_VIDEO_FORMAT_GRAY8, 150, 99},
  };
  const gint threads = pool_sizes[__i__];
  ct_jpeg_settings settings;
  gint value;

  ct_jpeg_settings_default (&settings);
  for (guint s = 0; s < G_N_ELEMENTS (streams); s++) {
    GstHarness *h = new_pool_harness (threads, 1, FALSE);
    GBytes *expected[3];

    g_object_get (h->element, "threads", &value, NULL);
    fail_unless_equals_int (value, threads);
    if (s == 1) {
      g_object_set (h->element, "progressive-level", 0,
          "chroma-subsampling", CT_JPEG_SUBSAMPLING_420, NULL);
      settings.progressive_level = 0;
      settings.chroma_subsampling = CT_JPEG_SUBSAMPLING_420;
    }
    gst_harness_set_src_caps (h, raw_caps (streams[s].format,
            streams[s].width, streams[s].height));
    for (guint i = 0; i < G_N_ELEMENTS (expected); i++) {
      push_stream_frame (h, streams[s].format, streams[s].width,
          streams[s].height, i, &settings, &expected[i]);
      /* max-frames-in-flight=1: out before the next frame comes. */
      fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
      pull_stream_frame (h, i, expected[i]);
    }
    fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
    gst_harness_teardown (h);
    ct_jpeg_settings_default (&settings);
  }
}

GST_END_TEST;

GST_START_TEST (test_pool_property_defaults)
{
  GstElement *enc = gst_element_factory_make ("ctjpegenc", NULL);
  gint threads, max_frames_in_flight;

  g_object_get (enc, "threads", &threads,
      "max-frames-in-flight", &max_frames_in_flight, NULL);
  fail_unless_equals_int (threads, 0);
  fail_unless_equals_int (max_frames_in_flight, 0);
  gst_object_unref (enc);
}

GST_END_TEST;

/* 30 small frames, batches of 4 on 4 workers and of 7 on 2: each batch
 * comes out when its last frame is in, the rest at EOS, every frame with
 * the sequential bytes and its own timestamps, in order. */
GST_START_TEST (test_batched_stream)
{
  static const gint configs[][2] = { {4, 4}, {2, 7} };
  const gint threads = configs[__i__][0];
  const guint batch = configs[__i__][1];
  GstHarness *h = new_pool_harness (threads, batch, TRUE);
  ct_jpeg_settings settings;
  GBytes *expected[30];
  guint pulled = 0;

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_BGRx, 33, 21));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++) {
    push_stream_frame (h, GST_VIDEO_FORMAT_BGRx, 33, 21, i, &settings,
        &expected[i]);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h),
        (i + 1) / batch * batch - pulled);
    while (gst_harness_buffers_in_queue (h) > 0) {
      pull_stream_frame (h, pulled, expected[pulled]);
      pulled++;
    }
  }
  fail_unless (pulled < G_N_ELEMENTS (expected));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h),
      G_N_ELEMENTS (expected) - pulled);
  for (; pulled < G_N_ELEMENTS (expected); pulled++)
    pull_stream_frame (h, pulled, expected[pulled]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames taken in after EOS comes out before it. */
static void
assert_eos_after_buffers (GstHarness * h)
{
  GstEvent *event;
  gboolean eos = FALSE;

  while (!eos && (event = gst_harness_try_pull_event (h)) != NULL) {
    eos = GST_EVENT_TYPE (event) == GST_EVENT_EOS;
    gst_event_unref (event);
  }
  fail_unless (eos, "no EOS downstream");
}

GST_START_TEST (test_eos_drains_queue)
{
  GstHarness *h = new_pool_harness (2, 4, TRUE);
  ct_jpeg_settings settings;
  GBytes *expected[3];

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 40, 24));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_RGB, 40, 24, i, &settings,
        &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    pull_stream_frame (h, i, expected[i]);
  assert_eos_after_buffers (h);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Every sink format batched, 3 frames at a time on 2 workers, rows
 * padded through a video meta on every other frame: the bytes of the
 * library's packed RGB (or gray) picture, in order; the last two at EOS. */
GST_START_TEST (test_batched_format)
{
  const GstVideoFormat format = formats[__i__];
  const gboolean gray = format == GST_VIDEO_FORMAT_GRAY8;
  GstHarness *h = new_pool_harness (2, 3, TRUE);
  ct_jpeg_settings settings;
  GBytes *expected[8];
  guint pulled = 0;

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (format, 19, 13));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++) {
    test_picture p = make_picture (19, 13, 100 + i);
    GstBuffer *in = i % 2 ? make_padded_buffer (&p, format, 13) :
        make_buffer (&p, format);

    GST_BUFFER_PTS (in) = i * FRAME_DURATION;
    GST_BUFFER_DURATION (in) = FRAME_DURATION;
    expected[i] = library_jpeg (&p, gray, &settings);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    free_picture (&p);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h),
        (i + 1) / 3 * 3 - pulled);
    while (gst_harness_buffers_in_queue (h) > 0) {
      pull_stream_frame (h, pulled, expected[pulled]);
      pulled++;
    }
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  for (; pulled < G_N_ELEMENTS (expected); pulled++)
    pull_stream_frame (h, pulled, expected[pulled]);
  assert_eos_after_buffers (h);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A flush drops the queued frames; the stream goes on after it. */
GST_START_TEST (test_flush_drops_queue)
{
  GstHarness *h = new_pool_harness (2, 4, TRUE);
  ct_jpeg_settings settings;
  GstSegment segment;
  GBytes *expected[7];

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 40, 24));
  for (guint i = 0; i < 3; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_RGB, 40, 24, i, &settings,
        &expected[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  for (guint i = 0; i < 3; i++)
    g_bytes_unref (expected[i]);

  for (guint i = 3; i < 7; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_RGB, 40, 24, i, &settings,
        &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 4);
  for (guint i = 3; i < 7; i++)
    pull_stream_frame (h, i, expected[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* New caps: the queued frames come out first, as the old caps say. */
GST_START_TEST (test_caps_change_drains_queue)
{
  GstHarness *h = new_pool_harness (2, 4, TRUE);
  ct_jpeg_settings settings;
  GBytes *expected[6];

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 33, 21));
  for (guint i = 0; i < 2; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_RGB, 33, 21, i, &settings,
        &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_GRAY8, 40, 30));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  for (guint i = 0; i < 2; i++)
    pull_stream_frame (h, i, expected[i]);

  for (guint i = 2; i < 6; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_GRAY8, 40, 30, i, &settings,
        &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 4);
  for (guint i = 2; i < 6; i++)
    pull_stream_frame (h, i, expected[i]);
  assert_output_caps (h, 40, 30, 2);

  /* From gray to a four-byte layout, with frames waiting again. */
  for (guint i = 0; i < 3; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_GRAY8, 40, 30, i, &settings,
        &expected[i]);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_ABGR, 17, 9));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 3);
  for (guint i = 0; i < 3; i++)
    pull_stream_frame (h, i, expected[i]);
  for (guint i = 3; i < 6; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_ABGR, 17, 9, i, &settings,
        &expected[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (guint i = 3; i < 6; i++)
    pull_stream_frame (h, i, expected[i]);
  assert_output_caps (h, 17, 9, 2);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A property change: the queued frames keep the settings they came with. */
GST_START_TEST (test_property_change_drains_queue)
{
  GstHarness *h = new_pool_harness (2, 4, TRUE);
  ct_jpeg_settings settings;
  GBytes *expected[3];

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 33, 21));
  for (guint i = 0; i < 2; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_RGB, 33, 21, i, &settings,
        &expected[i]);
  g_object_set (h->element, "progressive-level", 0, "quality", 60, NULL);
  settings.progressive_level = 0;
  settings.quality = 60;
  push_stream_frame (h, GST_VIDEO_FORMAT_RGB, 33, 21, 2, &settings,
      &expected[2]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  for (guint i = 0; i < 2; i++)
    pull_stream_frame (h, i, expected[i]);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  pull_stream_frame (h, 2, expected[2]);
  assert_output_caps (h, 33, 21, 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Upstream asks for its buffers back: the queued frames are encoded. */
GST_START_TEST (test_drain_query_drains_queue)
{
  GstHarness *h = new_pool_harness (2, 4, TRUE);
  ct_jpeg_settings settings;
  GBytes *expected[2];
  GstQuery *drain;

  ct_jpeg_settings_default (&settings);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 33, 21));
  for (guint i = 0; i < 2; i++)
    push_stream_frame (h, GST_VIDEO_FORMAT_RGB, 33, 21, i, &settings,
        &expected[i]);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  drain = gst_query_new_drain ();
  fail_unless (gst_pad_peer_query (h->srcpad, drain));
  gst_query_unref (drain);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  for (guint i = 0; i < 2; i++)
    pull_stream_frame (h, i, expected[i]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A frame waits for up to N-1 more: N-1 frame durations of latency. */
GST_START_TEST (test_batch_latency)
{
  GstHarness *h = new_pool_harness (2, 4, TRUE);

  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 33, 21));
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      gst_util_uint64_scale (3, GST_SECOND, 30));
  /* Without a framerate the wait has no known length. */
  gst_harness_set_src_caps (h, raw_caps_at_rate (GST_VIDEO_FORMAT_RGB, 33,
          21, 0));
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  gst_harness_teardown (h);

  h = new_pool_harness (2, 1, TRUE);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 33, 21));
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pushes frames until the first output appears, then EOS; returns how many
 * frames it took, after checking every output. */
static guint
frames_per_batch (GstHarness * h, GstVideoFormat format, guint width,
    guint height, guint max_frames)
{
  ct_jpeg_settings settings;
  GBytes *expected[8];
  guint n = 0;

  fail_unless (max_frames <= G_N_ELEMENTS (expected));
  ct_jpeg_settings_default (&settings);
  while (n < max_frames && gst_harness_buffers_in_queue (h) == 0) {
    push_stream_frame (h, format, width, height, n, &settings, &expected[n]);
    n++;
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), n);
  for (guint i = 0; i < n; i++)
    pull_stream_frame (h, i, expected[i]);
  return n;
}

/* max-frames-in-flight=auto batches by the pool size only small frames
 * with a framerate from a source that is not live. */
GST_START_TEST (test_auto_batching)
{
  GstHarness *h = new_pool_harness (3, 0, FALSE);

  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 64, 48));
  fail_unless_equals_uint64 (gst_harness_query_latency (h),
      gst_util_uint64_scale (2, GST_SECOND, 30));
  fail_unless_equals_int (frames_per_batch (h, GST_VIDEO_FORMAT_RGB, 64, 48,
          6), 3);
  gst_harness_teardown (h);

  h = new_pool_harness (3, 0, TRUE);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_RGB, 64, 48));
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  fail_unless_equals_int (frames_per_batch (h, GST_VIDEO_FORMAT_RGB, 64, 48,
          6), 1);
  gst_harness_teardown (h);

  h = new_pool_harness (3, 0, FALSE);
  gst_harness_set_src_caps (h, raw_caps_at_rate (GST_VIDEO_FORMAT_RGB, 64,
          48, 0));
  fail_unless_equals_int (frames_per_batch (h, GST_VIDEO_FORMAT_RGB, 64, 48,
          6), 1);
  gst_harness_teardown (h);

  /* One megapixel: each frame alone, spread over the pool. */
  h = new_pool_harness (3, 0, FALSE);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_GRAY8, 1000,
          1000));
  fail_unless_equals_uint64 (gst_harness_query_latency (h), 0);
  fail_unless_equals_int (frames_per_batch (h, GST_VIDEO_FORMAT_GRAY8, 1000,
          1000, 2), 1);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The YUV formats, with the library's planar layout of their sampling. */
static const struct
{
  GstVideoFormat format;
  ct_pixel_format planar;
} yuv_formats[] = {
  {GST_VIDEO_FORMAT_I420, CT_PIXEL_I420},
  {GST_VIDEO_FORMAT_YV12, CT_PIXEL_I420},
  {GST_VIDEO_FORMAT_NV12, CT_PIXEL_I420},
  {GST_VIDEO_FORMAT_NV21, CT_PIXEL_I420},
  {GST_VIDEO_FORMAT_Y42B, CT_PIXEL_I422},
  {GST_VIDEO_FORMAT_YUY2, CT_PIXEL_I422},
  {GST_VIDEO_FORMAT_UYVY, CT_PIXEL_I422},
  {GST_VIDEO_FORMAT_YVYU, CT_PIXEL_I422},
  {GST_VIDEO_FORMAT_Y444, CT_PIXEL_I444},
};

/* Sample x, y of component c of a made-up picture. */
static guint8
yuv_sample (guint c, guint x, guint y)
{
  return (guint8) (x * (7 + 4 * c) + y * (13 - 3 * c) + 40 * c +
      ((x * y) % 11));
}

/* The picture as a buffer of `format`, laid out as the caps imply. */
static GstBuffer *
make_yuv_buffer (GstVideoFormat format, guint width, guint height)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buffer;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (buffer, 0, 0x5a, GST_VIDEO_INFO_SIZE (&info));
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE));
  for (guint c = 0; c < 3; c++) {
    guint8 *data = GST_VIDEO_FRAME_COMP_DATA (&frame, c);

    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&frame, c); y++)
      for (gint x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&frame, c); x++)
        data[y * GST_VIDEO_FRAME_COMP_STRIDE (&frame, c) +
            x * GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c)] =
            yuv_sample (c, x, y);
  }
  gst_video_frame_unmap (&frame);
  return buffer;
}

/* What the library writes for the picture's planes in `planar`. */
static GBytes *
library_yuv_jpeg (ct_pixel_format planar, guint width, guint height)
{
  const guint cw = planar == CT_PIXEL_I444 ? width : (width + 1) / 2;
  const guint ch = planar == CT_PIXEL_I420 ? (height + 1) / 2 : height;
  guint8 *planes[3];
  ct_jpeg_settings settings;
  ct_jpeg_output out = { NULL, 0 };
  char err[256] = "";
  GBytes *bytes;

  for (guint c = 0; c < 3; c++) {
    const guint w = c == 0 ? width : cw, h = c == 0 ? height : ch;

    planes[c] = g_malloc (w * h);
    for (guint y = 0; y < h; y++)
      for (guint x = 0; x < w; x++)
        planes[c][y * w + x] = yuv_sample (c, x, y);
  }
  ct_jpeg_settings_default (&settings);
  {
    const ct_jpeg_image image = {
      .width = width,.height = height,.format = planar,.stride = width,
      .pixels = planes[0],.chroma = {planes[1], planes[2]},
      .chroma_stride = {cw, cw},
    };
    fail_unless (ct_jpeg_encode (NULL, &settings, &image, &out, err,
            sizeof (err)) == CT_OK, "ct_jpeg_encode: %s", err);
  }
  bytes = g_bytes_new (out.data, out.size);
  ct_jpeg_output_free (&out);
  for (guint c = 0; c < 3; c++)
    g_free (planes[c]);
  return bytes;
}

/* Each YUV format gives the library's JPEG of its planes: 17x15, so that
 * chroma rounds up both ways and every row has stride padding. */
GST_START_TEST (test_yuv_format)
{
  const GstVideoFormat format = yuv_formats[__i__].format;
  GstHarness *h = gst_harness_new ("ctjpegenc");
  GBytes *expected = library_yuv_jpeg (yuv_formats[__i__].planar, 17, 15);
  GstBuffer *out;

  gst_harness_set_src_caps (h, raw_caps (format, 17, 15));
  fail_unless_equals_int (gst_harness_push (h, make_yuv_buffer (format, 17,
              15)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  assert_jpeg_equals (out, expected);
  gst_buffer_unref (out);
  g_bytes_unref (expected);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Whether the sink pad's caps take `format`. */
static gboolean
sink_takes (GstHarness * h, GstVideoFormat format)
{
  GstPad *pad = gst_element_get_static_pad (h->element, "sink");
  GstCaps *caps = gst_pad_query_caps (pad, NULL);
  GstCaps *one = raw_caps (format, 16, 16);
  gboolean takes = gst_caps_can_intersect (caps, one);

  gst_caps_unref (one);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return takes;
}

/* The sink caps offer the YUV formats of the chroma-subsampling set, full
 * range first, and none with xyb. */
GST_START_TEST (test_yuv_caps_follow_subsampling)
{
  GstHarness *h = gst_harness_new ("ctjpegenc");
  GstPad *pad = gst_element_get_static_pad (h->element, "sink");
  GstCaps *caps = gst_pad_query_caps (pad, NULL);
  const GstStructure *preferred = gst_caps_get_structure (caps, 0);

  fail_unless_equals_string (gst_structure_get_string (preferred,
          "colorimetry"), "1:4:0:0");
  gst_caps_unref (caps);
  gst_object_unref (pad);
  fail_unless (sink_takes (h, GST_VIDEO_FORMAT_I420));
  fail_unless (sink_takes (h, GST_VIDEO_FORMAT_Y444));
  g_object_set (h->element, "chroma-subsampling", CT_JPEG_SUBSAMPLING_422,
      NULL);
  fail_unless (sink_takes (h, GST_VIDEO_FORMAT_YUY2));
  fail_unless (!sink_takes (h, GST_VIDEO_FORMAT_I420));
  fail_unless (!sink_takes (h, GST_VIDEO_FORMAT_Y444));
  fail_unless (sink_takes (h, GST_VIDEO_FORMAT_RGB));
  g_object_set (h->element, "chroma-subsampling", CT_JPEG_SUBSAMPLING_DEFAULT,
      "xyb", TRUE, NULL);
  fail_unless (!sink_takes (h, GST_VIDEO_FORMAT_Y444));
  fail_unless (sink_takes (h, GST_VIDEO_FORMAT_GRAY8));
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A chroma-subsampling or xyb set against the frames' YUV format fails the
 * next frame with an error that names both; a YUV plane that runs past the
 * memory fails its frame. The stream goes on after each. */
GST_START_TEST (test_yuv_errors)
{
  GstHarness *h = gst_harness_new ("ctjpegenc");
  GstBus *bus = gst_bus_new ();
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, 256, 320 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 16, 8, 8 };
  GstBuffer *short_plane = gst_buffer_new_allocate (NULL, 340, NULL);
  GstBuffer *out;
  gchar *message;

  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_NV12, 16, 16));
  fail_unless_equals_int (gst_harness_push (h,
          make_yuv_buffer (GST_VIDEO_FORMAT_NV12, 16, 16)), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));

  g_object_set (h->element, "chroma-subsampling", CT_JPEG_SUBSAMPLING_444,
      NULL);
  fail_unless_equals_int (gst_harness_push (h,
          make_yuv_buffer (GST_VIDEO_FORMAT_NV12, 16, 16)), GST_FLOW_ERROR);
  message = pop_error (bus, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS);
  fail_unless (g_str_has_prefix (message, "chroma-subsampling=444 "
          "contradicts the NV12 input's chroma subsampling 420"), "%s",
      message);
  g_free (message);

  g_object_set (h->element, "chroma-subsampling", CT_JPEG_SUBSAMPLING_420,
      "xyb", TRUE, NULL);
  fail_unless_equals_int (gst_harness_push (h,
          make_yuv_buffer (GST_VIDEO_FORMAT_NV12, 16, 16)), GST_FLOW_ERROR);
  message = pop_error (bus, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS);
  fail_unless (g_str_has_prefix (message, "xyb=true needs RGB or GRAY8 "
          "input, not NV12"), "%s", message);
  g_free (message);

  g_object_set (h->element, "xyb", FALSE, NULL);
  gst_harness_set_src_caps (h, raw_caps (GST_VIDEO_FORMAT_I420, 16, 16));
  gst_buffer_add_video_meta_full (short_plane, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 16, 16, 3, offsets, strides);
  fail_unless_equals_int (gst_harness_push (h, short_plane), GST_FLOW_ERROR);
  message = pop_error (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT);
  fail_unless (strstr (message, "too small for its video meta") != NULL,
      "%s", message);
  g_free (message);

  fail_unless_equals_int (gst_harness_push (h,
          make_yuv_buffer (GST_VIDEO_FORMAT_I420, 16, 16)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  teardown_with_bus (h, bus);
}

GST_END_TEST;

static Suite *
ctjpegenc_suite (void)
{
  Suite *s = suite_create ("ctjpegenc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_format, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_sizes);
  tcase_add_test (tc, test_defaults_are_cjpeglis);
  tcase_add_test (tc, test_state_changes);
  tcase_add_test (tc, test_stream);
  tcase_add_test (tc, test_property_change_between_frames);
  tcase_add_test (tc, test_small_buffer);
  tcase_add_test (tc, test_fixed_code_needs_baseline);
  tcase_add_test (tc, test_downstream_chooses_level);
  tcase_add_test (tc, test_user_level_refused);
  tcase_add_test (tc, test_user_level_refused_mid_stream);
  tcase_add_test (tc, test_refusal_at_eos_posts_error);
  tcase_add_test (tc, test_bad_buffers_post_errors);
  tcase_add_test (tc, test_pool_property_defaults);
  tcase_add_loop_test (tc, test_threads, 0, G_N_ELEMENTS (pool_sizes));
  tcase_add_loop_test (tc, test_batched_stream, 0, 2);
  tcase_add_test (tc, test_eos_drains_queue);
  tcase_add_loop_test (tc, test_batched_format, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_flush_drops_queue);
  tcase_add_test (tc, test_caps_change_drains_queue);
  tcase_add_test (tc, test_property_change_drains_queue);
  tcase_add_test (tc, test_drain_query_drains_queue);
  tcase_add_test (tc, test_batch_latency);
  tcase_add_test (tc, test_auto_batching);
  tcase_add_loop_test (tc, test_yuv_format, 0, G_N_ELEMENTS (yuv_formats));
  tcase_add_test (tc, test_yuv_caps_follow_subsampling);
  tcase_add_test (tc, test_yuv_errors);
  return s;
}

GST_CHECK_MAIN (ctjpegenc);
