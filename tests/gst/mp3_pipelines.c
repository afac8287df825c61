/*
 * ctlameenc behind every muxer, parser and sink, with the system's
 * plugins: each row runs a pipeline, checks its bus for errors and its
 * output with GStreamer's own decoder (the samples of lame's file), and
 * its bytes where lame can write the same (filesink: lame's; a parser, a
 * muxer or a sink that cannot seek: lame -t's). Also the transcoding of a
 * compressed file, encodebin with an MP3 profile, and the pool that
 * threads=0 shares across pipelines.
 *
 * Exits 77 (skipped, with the reason) when lame or an element is missing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>

#include "ctcore/runtime.h"

#define RATE 44100
#define CHANNELS 2
#define SECONDS 2
#define PIPELINE_TIMEOUT_S 30

static gchar *lame;
static gchar *tmp_dir;
static gchar *wav;              /* the input, 2 s of 44.1 kHz stereo */
static GBytes *lame_file;       /* lame -V 4 on it */
static GBytes *lame_t_file;     /* lame -V 4 -t on it */

/* For what main prepares before any test runs (check's asserts work in
 * tests only); in a test, the exit fails it. */
#define require(cond, ...) G_STMT_START { \
  if (!(cond)) { \
    g_printerr (__VA_ARGS__); \
    g_printerr ("\n"); \
    exit (1); \
  } \
} G_STMT_END

static gchar *
tmp_path (const gchar * name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static void
put_le (guint8 * p, guint32 v, gint bytes)
{
  for (gint i = 0; i < bytes; i++)
    p[i] = (guint8) (v >> (8 * i));
}

/* Tones, a sweep and a little noise, the two channels apart. */
static void
write_wav (const gchar * path)
{
  const gsize frames = SECONDS * RATE;
  const gsize data_size = frames * CHANNELS * 2;
  guint8 *file = g_malloc (44 + data_size);
  guint32 s = 12345;

  memcpy (file, "RIFF", 4);
  put_le (file + 4, 36 + data_size, 4);
  memcpy (file + 8, "WAVEfmt ", 8);
  put_le (file + 16, 16, 4);
  put_le (file + 20, 1, 2);
  put_le (file + 22, CHANNELS, 2);
  put_le (file + 24, RATE, 4);
  put_le (file + 28, RATE * CHANNELS * 2, 4);
  put_le (file + 32, CHANNELS * 2, 2);
  put_le (file + 34, 16, 2);
  memcpy (file + 36, "data", 4);
  put_le (file + 40, data_size, 4);
  for (gsize i = 0; i < frames; i++) {
    for (gint c = 0; c < CHANNELS; c++) {
      double t = (double) i / RATE;
      double v = 7000.0 * sin (2 * G_PI * (330.0 + 220.0 * c) * t) +
          3000.0 * sin (2 * G_PI * (500.0 + 3000.0 * t) * t);

      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      put_le (file + 44 + (i * CHANNELS + c) * 2,
          (guint16) (gint16) (v + (gint) (s % 1024) - 512), 2);
    }
  }
  require (g_file_set_contents (path, (gchar *) file, 44 + data_size, NULL),
      "cannot write %s", path);
  g_free (file);
}

static GBytes *
read_file (const gchar * path)
{
  gchar *data;
  gsize size;

  require (g_file_get_contents (path, &data, &size, NULL), "no %s", path);
  return g_bytes_new_take (data, size);
}

static GBytes *
run_lame (const gchar * flags, const gchar * in, const gchar * name)
{
  gchar *out = tmp_path (name);
  gchar *cmd = g_strdup_printf ("%s --quiet %s '%s' '%s'", lame, flags, in,
      out);
  gint status;
  GBytes *bytes;

  require (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL)
      && g_spawn_check_wait_status (status, NULL), "%s failed", cmd);
  bytes = read_file (out);
  g_free (cmd);
  g_free (out);
  return bytes;
}

/* lame reading the WAV from stdin: its own reader, whose conversion of
 * float samples ctlameenc's F32LE input follows (given a float file's
 * name, lame scales the file to its peak). */
static GBytes *
run_lame_stdin (const gchar * flags, const gchar * in, const gchar * name)
{
  gchar *out = tmp_path (name);
  gchar *script = g_strdup_printf ("%s --quiet %s - '%s' < '%s'", lame, flags,
      out, in);
  gchar *argv[] = { (gchar *) "sh", (gchar *) "-c", script, NULL };
  gint status;
  GBytes *bytes;

  require (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
          NULL, NULL, &status, NULL)
      && g_spawn_check_wait_status (status, NULL), "%s failed", script);
  bytes = read_file (out);
  g_free (script);
  g_free (out);
  return bytes;
}

/* Runs the pipeline to EOS; fails on an error message or a timeout. */
static void
run_pipeline (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, PIPELINE_TIMEOUT_S * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS within %d s", PIPELINE_TIMEOUT_S);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error;
    gchar *debug;

    gst_message_parse_error (msg, &error, &debug);
    fail ("error from %s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        error->message, debug);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
}

static void
run_launch (const gchar * launch)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);

  fail_unless (pipeline != NULL, "%s: %s", launch, error ? error->message :
      "?");
  GST_INFO ("%s", launch);
  run_pipeline (pipeline);
  gst_object_unref (pipeline);
}

/* The samples per channel that come out of "SOURCE ! audioconvert !
 * appsink". */
static guint64
samples_out_of (const gchar * source)
{
  gchar *launch = g_strdup_printf ("%s ! audioconvert ! "
      "audio/x-raw,format=S16LE,channels=2 ! appsink name=sink sync=false",
      source);
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstSample *sample;
  guint64 bytes = 0;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              PIPELINE_TIMEOUT_S * GST_SECOND))) {
    bytes += gst_buffer_get_size (gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)),
      "%s did not end", launch);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (launch);
  return bytes / 4;
}

/* The samples per channel that GStreamer's decoder gives for the file. */
static guint64
decoded_samples (const gchar * path)
{
  gchar *source = g_strdup_printf ("filesrc location=\"%s\" ! decodebin",
      path);
  guint64 samples = samples_out_of (source);

  g_free (source);
  return samples;
}

static guint64
decoded_reference_samples (GBytes * reference, const gchar * name)
{
  gchar *path = tmp_path (name);
  guint64 samples;

  fail_unless (g_file_set_contents (path, g_bytes_get_data (reference, NULL),
          g_bytes_get_size (reference), NULL));
  samples = decoded_samples (path);
  g_free (path);
  return samples;
}

static void
assert_bytes (const guint8 * got, gsize got_size, GBytes * expected,
    const gchar * what)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (expected, &size);

  fail_unless (got_size == size && memcmp (got, data, size) == 0,
      "%s: %" G_GSIZE_FORMAT " bytes, not the reference's %" G_GSIZE_FORMAT,
      what, got_size, size);
}

/* Encodes the WAV through "ctlameenc ! TAIL location=OUT"; returns the
 * output file's path. */
static gchar *
encode_to_file (const gchar * tail, const gchar * name)
{
  gchar *out = tmp_path (name);
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "ctlameenc ! %s location=\"%s\"", wav, tail, out);

  run_launch (launch);
  g_free (launch);
  return out;
}

/* The output file's bytes must be the reference's, and decode to as many
 * samples as the reference does. */
static void
check_file (const gchar * tail, const gchar * name, GBytes * reference)
{
  gchar *out = encode_to_file (tail, name);
  GBytes *got = read_file (out);

  assert_bytes (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
      reference, tail);
  fail_unless_equals_uint64 (decoded_samples (out),
      decoded_reference_samples (reference, "reference.mp3"));
  g_bytes_unref (got);
  g_free (out);
}

GST_START_TEST (test_filesink_is_lame)
{
  check_file ("filesink", "filesink.mp3", lame_file);
}

GST_END_TEST;

GST_START_TEST (test_parser_is_lame_t)
{
  check_file ("mpegaudioparse ! filesink", "parsed.mp3", lame_t_file);
}

GST_END_TEST;

/* appsink and fakesink cannot seek: lame -t's bytes, every buffer with
 * timestamps, the delay and padding in clipping meta. */
GST_START_TEST (test_appsink_is_lame_t)
{
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "ctlameenc ! appsink name=sink sync=false", wav);
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GByteArray *got = g_byte_array_new ();
  GstSample *sample;

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              PIPELINE_TIMEOUT_S * GST_SECOND))) {
    GstBuffer *buffer = gst_sample_get_buffer (sample);
    GstMapInfo map;

    fail_unless (GST_BUFFER_PTS_IS_VALID (buffer));
    fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
    g_byte_array_append (got, map.data, map.size);
    gst_buffer_unmap (buffer, &map);
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  assert_bytes (got->data, got->len, lame_t_file, "appsink");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_byte_array_unref (got);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (launch);

  launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "ctlameenc ! fakesink sync=false", wav);
  run_launch (launch);
  g_free (launch);

  /* Decoded in the pipeline, the clipping meta drops the delay and the
   * padding, as the LAME tag makes the decoder drop them from lame's
   * file: the samples of the input. */
  launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "ctlameenc ! mpegaudioparse ! mpg123audiodec", wav);
  fail_unless_equals_uint64 (samples_out_of (launch), SECONDS * RATE);
  fail_unless_equals_uint64 (decoded_reference_samples (lame_file,
          "reference.mp3"), SECONDS * RATE);
  g_free (launch);
}

GST_END_TEST;

/* The length of the MP3 frame at data, 0 if none starts there. */
static gsize
mp3_frame_length (const guint8 * data, gsize size)
{
  static const gint bitrates[15] =
      { 0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 };
  static const gint rates[3] = { 44100, 48000, 32000 };
  gint bitrate_index, rate_index;

  /* MPEG-1 Layer III only: the rate of these tests. */
  if (size < 4 || data[0] != 0xff || (data[1] & 0xfe) != 0xfa)
    return 0;
  bitrate_index = data[2] >> 4;
  rate_index = (data[2] >> 2) & 3;
  if (bitrate_index == 0 || bitrate_index == 15 || rate_index == 3)
    return 0;
  return 144 * bitrates[bitrate_index] * 1000 / rates[rate_index] +
      ((data[2] >> 1) & 1);
}

/* Whether the frame holds a Xing or Info tag (after its side info). */
static gboolean
is_tag_frame (const guint8 * frame, gsize size)
{
  gsize side_info = (frame[3] >> 6) == 3 ? 17 : 32;

  return size >= 4 + side_info + 4 &&
      (memcmp (frame + 4 + side_info, "Xing", 4) == 0 ||
      memcmp (frame + 4 + side_info, "Info", 4) == 0);
}

/* xingmux writes its own Xing frame: the element writes none, so that the
 * file has exactly one, followed by lame -t's frames. */
GST_START_TEST (test_xingmux_one_tag)
{
  gchar *out = encode_to_file ("xingmux ! filesink", "xing.mp3");
  GBytes *got = read_file (out);
  gsize size, t_size, first;
  const guint8 *data = g_bytes_get_data (got, &size);
  const guint8 *t_data = g_bytes_get_data (lame_t_file, &t_size);
  guint tags = 0;

  for (gsize at = 0, n; at < size; at += n) {
    n = mp3_frame_length (data + at, size - at);
    fail_unless (n > 0 && at + n <= size, "no MP3 frame at byte %"
        G_GSIZE_FORMAT, at);
    tags += is_tag_frame (data + at, n);
  }
  fail_unless_equals_int (tags, 1);
  first = mp3_frame_length (data, size);
  fail_unless (is_tag_frame (data, first));
  fail_unless (size - first == t_size
      && memcmp (data + first, t_data, t_size) == 0,
      "the frames after xingmux's are not lame -t's");
  /* xingmux's frame has no LAME extension: no encoder delay or padding to
   * trim, so the samples of lame -t's stream. */
  fail_unless_equals_uint64 (decoded_samples (out),
      decoded_reference_samples (lame_t_file, "reference.mp3"));
  g_bytes_unref (got);
  g_free (out);
}

GST_END_TEST;

/* A tag muxer moves the rewrite at byte 0 past its tag: lame's bytes after
 * the ID3v2 tag. */
GST_START_TEST (test_id3v2mux_is_lame_after_tag)
{
  gchar *out = encode_to_file ("id3v2mux ! filesink", "id3.mp3");
  GBytes *got = read_file (out);
  gsize size, tag_size;
  const guint8 *data = g_bytes_get_data (got, &size);

  fail_unless (size > 10 && memcmp (data, "ID3", 3) == 0);
  tag_size = 10 + (((gsize) (data[6] & 0x7f) << 21) |
      ((data[7] & 0x7f) << 14) | ((data[8] & 0x7f) << 7) | (data[9] & 0x7f));
  fail_unless (tag_size < size);
  assert_bytes (data + tag_size, size - tag_size, lame_file, "id3v2mux");
  fail_unless_equals_uint64 (decoded_samples (out),
      decoded_reference_samples (lame_file, "reference.mp3"));
  g_bytes_unref (got);
  g_free (out);
}

GST_END_TEST;

/* Muxers: every frame in, no error, the samples of lame -t's stream (they
 * keep no encoder delay or padding for MP3). */
static const gchar *const muxers[] = { "mp4mux", "matroskamux", "avimux" };

GST_START_TEST (test_muxer)
{
  gchar *tail = g_strdup_printf ("%s ! filesink", muxers[__i__]);
  gchar *out = encode_to_file (tail, "muxed");

  fail_unless_equals_uint64 (decoded_samples (out),
      decoded_reference_samples (lame_t_file, "reference.mp3"));
  g_free (out);
  g_free (tail);
}

GST_END_TEST;

static void
find_ctlameenc (const GValue * value, gpointer found)
{
  GstElement *element = g_value_get_object (value);
  GstElementFactory *factory = gst_element_get_factory (element);

  if (factory && strcmp (GST_OBJECT_NAME (factory), "ctlameenc") == 0)
    *(gboolean *) found = TRUE;
}

/* encodebin picks ctlameenc by its rank for an MP3 profile; it puts a
 * parser behind it, so the file is lame -t's. */
GST_START_TEST (test_encodebin_picks_ctlameenc)
{
  gchar *out = tmp_path ("encodebin.mp3");
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "encodebin name=enc profile=\"audio/mpeg,mpegversion=1,layer=3\" ! "
      "filesink location=\"%s\"", wav, out);
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *enc = gst_bin_get_by_name (GST_BIN (pipeline), "enc");
  GstIterator *it;
  gboolean found = FALSE;
  GBytes *got;

  fail_unless (pipeline != NULL);
  run_pipeline (pipeline);
  it = gst_bin_iterate_recurse (GST_BIN (enc));
  gst_iterator_foreach (it, find_ctlameenc, &found);
  gst_iterator_free (it);
  fail_unless (found, "encodebin did not use ctlameenc");
  got = read_file (out);
  assert_bytes (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
      lame_t_file, "encodebin");
  fail_unless_equals_uint64 (decoded_samples (out),
      decoded_reference_samples (lame_t_file, "reference.mp3"));
  g_bytes_unref (got);
  gst_object_unref (enc);
  gst_object_unref (pipeline);
  g_free (launch);
  g_free (out);
}

GST_END_TEST;

/* From a compressed file: the segment's stop drops no frame, and the file
 * is lame's on the decoded WAV. */
GST_START_TEST (test_transcode_vorbis)
{
  gchar *ogg = tmp_path ("in.ogg"), *decoded = tmp_path ("decoded.wav");
  gchar *out = tmp_path ("transcoded.mp3");
  gchar *uri = gst_filename_to_uri (ogg, NULL);
  gchar *launch;
  GBytes *expected, *got;

  launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "audioconvert ! vorbisenc ! oggmux ! filesink location=\"%s\"", wav,
      ogg);
  run_launch (launch);
  g_free (launch);
  /* The decoder's float samples go to ctlameenc as they are (F32LE). */
  launch = g_strdup_printf ("uridecodebin uri=%s ! audioconvert ! "
      "audioresample ! audio/x-raw,format=F32LE,rate=44100,channels=2 ! "
      "wavenc ! filesink location=\"%s\"", uri, decoded);
  run_launch (launch);
  g_free (launch);
  expected = run_lame_stdin ("-V 4", decoded, "transcoded-lame.mp3");

  launch = g_strdup_printf ("uridecodebin uri=%s ! audioconvert ! "
      "audioresample ! ctlameenc ! filesink location=\"%s\"", uri, out);
  run_launch (launch);
  g_free (launch);
  got = read_file (out);
  assert_bytes (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
      expected, "transcoded");

  g_bytes_unref (got);
  g_bytes_unref (expected);
  g_free (uri);
  g_free (out);
  g_free (decoded);
  g_free (ogg);
}

GST_END_TEST;

static gint
count_threads (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  gint n = 0;

  fail_unless (dir != NULL);
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

#define NUM_PIPELINES 8

/* Brings NUM_PIPELINES pipelines with the given threads property to
 * PAUSED (each element started, so holding its pool), counts the threads
 * of the process, then runs them to the end: each writes lame's bytes. */
static gint
threads_of_pipelines (gint threads)
{
  GstElement *pipelines[NUM_PIPELINES];
  gchar *outs[NUM_PIPELINES];
  gint n;

  for (gint i = 0; i < NUM_PIPELINES; i++) {
    gchar *name = g_strdup_printf ("pool%d.mp3", i);
    gchar *launch;

    outs[i] = tmp_path (name);
    launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
        "ctlameenc threads=%d ! filesink location=\"%s\"", wav, threads,
        outs[i]);
    pipelines[i] = gst_parse_launch (launch, NULL);
    fail_unless (pipelines[i] != NULL);
    fail_unless (gst_element_set_state (pipelines[i], GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_get_state (pipelines[i], NULL, NULL,
            PIPELINE_TIMEOUT_S * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
    g_free (launch);
    g_free (name);
  }
  n = count_threads ();
  for (gint i = 0; i < NUM_PIPELINES; i++) {
    GBytes *got;

    run_pipeline (pipelines[i]);
    gst_object_unref (pipelines[i]);
    got = read_file (outs[i]);
    assert_bytes (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
        lame_file, outs[i]);
    g_bytes_unref (got);
    g_free (outs[i]);
  }
  return n;
}

/* threads=0: one pool for the process, one worker per CPU (the streaming
 * threads included, so one thread fewer), released when the last element
 * stops; threads=N: a pool of N per element. */
GST_START_TEST (test_shared_pool)
{
  ct_pool *probe = ct_pool_new (0);
  gint cpus = ct_pool_threads (probe);
  gint before = count_threads ();
  gint own_1 = threads_of_pipelines (1);
  gint shared = threads_of_pipelines (0);
  gint own_2 = threads_of_pipelines (2);

  ct_pool_unref (probe);

  fail_unless_equals_int (shared - own_1, cpus - 1);
  fail_unless_equals_int (own_2 - own_1, NUM_PIPELINES);
  /* Every pool released: no thread left behind. */
  for (gint i = 0; i < 100 && count_threads () > before; i++)
    g_usleep (10000);
  fail_unless (count_threads () <= before, "%d threads, %d before",
      count_threads (), before);
}

GST_END_TEST;

static const gchar *const needed[] = {
  "ctlameenc", "wavparse", "filesink", "appsink", "fakesink", "decodebin",
  "mpg123audiodec", "mpegaudioparse", "xingmux", "id3v2mux", "mp4mux",
  "matroskamux", "avimux", "encodebin", "vorbisenc", "oggmux",
  "uridecodebin", "audioresample", "wavenc",
};

static Suite *
mp3_pipelines_suite (void)
{
  Suite *s = suite_create ("mp3_pipelines");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_filesink_is_lame);
  tcase_add_test (tc, test_parser_is_lame_t);
  tcase_add_test (tc, test_appsink_is_lame_t);
  tcase_add_test (tc, test_xingmux_one_tag);
  tcase_add_test (tc, test_id3v2mux_is_lame_after_tag);
  tcase_add_loop_test (tc, test_muxer, 0, G_N_ELEMENTS (muxers));
  tcase_add_test (tc, test_encodebin_picks_ctlameenc);
  tcase_add_test (tc, test_transcode_vorbis);
  tcase_add_test (tc, test_shared_pool);
  return s;
}

static void
remove_tmp_dir (void)
{
  GDir *dir = g_dir_open (tmp_dir, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir))) {
    gchar *path = tmp_path (name);

    g_unlink (path);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (tmp_dir);
}

int
main (int argc, char **argv)
{
  gint failed;

  gst_check_init (&argc, &argv);
  lame = g_find_program_in_path (argc > 1 && argv[1][0] ? argv[1] : "lame");
  if (!lame) {
    g_print ("SKIP: no lame program\n");
    return 77;
  }
  for (guint i = 0; i < G_N_ELEMENTS (needed); i++) {
    GstElementFactory *factory = gst_element_factory_find (needed[i]);

    if (!factory) {
      g_print ("SKIP: no %s element\n", needed[i]);
      return 77;
    }
    gst_object_unref (factory);
  }

  tmp_dir = g_dir_make_tmp ("mp3_pipelines-XXXXXX", NULL);
  require (tmp_dir != NULL, "no temporary directory");
  wav = tmp_path ("in.wav");
  write_wav (wav);
  lame_file = run_lame ("-V 4", wav, "lame.mp3");
  lame_t_file = run_lame ("-V 4 -t", wav, "lame-t.mp3");

  failed = gst_check_run_suite (mp3_pipelines_suite (), "mp3_pipelines",
      __FILE__);

  g_bytes_unref (lame_file);
  g_bytes_unref (lame_t_file);
  remove_tmp_dir ();
  g_free (wav);
  g_free (tmp_dir);
  g_free (lame);
  return failed;
}
