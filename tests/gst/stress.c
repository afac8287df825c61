/*
 * Element stress for ctjpegenc and ctlameenc (GstHarness, and real
 * appsrc ! element ! appsink pipelines): state changes with frames in the
 * batches and rings (from the streaming thread, from another thread while
 * it pushes, and on pipelines while appsrc pushes), caps changes every few
 * buffers, random buffer sizes and strides, EOS and flushes at odd points,
 * 8 pipelines at once. Every
 * output is checked against the library's bytes; every input buffer must
 * be freed by the end (no leak); a watchdog fails a test that hangs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/app.h>
#include <gst/audio/audio.h>
#include <gst/video/video.h>

#include "ctcore/jpeg.h"
#include "test_picture.h"
#include "ctcore/mp3.h"

/* Below CK_DEFAULT_TIMEOUT, so that a hang is reported as ours. */
#define WATCHDOG_SECONDS 45

/* The watchdog: fails the test (abort, a signal check reports) when it
 * runs past WATCHDOG_SECONDS, rather than hanging the suite. */
static GMutex watchdog_lock;
static GCond watchdog_cond;
static gboolean watchdog_done;
static GThread *watchdog_thread;

static gpointer
watchdog_run (G_GNUC_UNUSED gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + WATCHDOG_SECONDS * G_TIME_SPAN_SECOND;

  g_mutex_lock (&watchdog_lock);
  while (!watchdog_done) {
    if (!g_cond_wait_until (&watchdog_cond, &watchdog_lock, deadline)) {
      g_printerr ("watchdog: the test ran past %d s (a deadlock?)\n",
          WATCHDOG_SECONDS);
      abort ();
    }
  }
  g_mutex_unlock (&watchdog_lock);
  return NULL;
}

/* The input buffers alive: each one the tests make is counted until it is
 * freed, so that one an element keeps after teardown shows. */
static gint live_inputs;

static void
input_freed (G_GNUC_UNUSED gpointer data, G_GNUC_UNUSED GstMiniObject * obj)
{
  g_atomic_int_add (&live_inputs, -1);
}

static GstBuffer *
tracked (GstBuffer * buffer)
{
  g_atomic_int_inc (&live_inputs);
  gst_mini_object_weak_ref (GST_MINI_OBJECT (buffer), input_freed, NULL);
  return buffer;
}

static void
watchdog_start (void)
{
  watchdog_done = FALSE;
  g_atomic_int_set (&live_inputs, 0);
  watchdog_thread = g_thread_new ("watchdog", watchdog_run, NULL);
}

static void
watchdog_stop (void)
{
  g_mutex_lock (&watchdog_lock);
  watchdog_done = TRUE;
  g_cond_signal (&watchdog_cond);
  g_mutex_unlock (&watchdog_lock);
  g_thread_join (watchdog_thread);
}

static void
assert_no_input_left (void)
{
  fail_unless_equals_int (g_atomic_int_get (&live_inputs), 0);
}

/* Takes every event the harness holds; TRUE if one was EOS. */
static gboolean
pull_events_saw_eos (GstHarness * h)
{
  GstEvent *event;
  gboolean eos = FALSE;

  while ((event = gst_harness_try_pull_event (h)) != NULL) {
    eos |= GST_EVENT_TYPE (event) == GST_EVENT_EOS;
    gst_event_unref (event);
  }
  return eos;
}

/* Flush-start, flush-stop and a new segment, as a seek would send. */
static void
push_flush (GstHarness * h)
{
  GstSegment segment;

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
}

/* A new stream on the harness after the element went back up from READY
 * or NULL: the sink pad forgot its sticky events. */
static void
restart_stream (GstHarness * h, guint cycle, GstCaps * caps)
{
  gchar *id = g_strdup_printf ("stress-%u", cycle);

  fail_unless (gst_harness_push_event (h, gst_event_new_stream_start (id)));
  g_free (id);
  gst_harness_set_src_caps (h, caps);
}

/* PLAYING -> PAUSED -> READY -> NULL and back up, each step succeeding. */
static void
cycle_states (GstElement * element)
{
  static const GstState down[] = { GST_STATE_PAUSED, GST_STATE_READY,
    GST_STATE_NULL
  };
  static const GstState up[] = { GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_PLAYING
  };

  for (guint i = 0; i < G_N_ELEMENTS (down); i++)
    fail_unless (gst_element_set_state (element, down[i]) ==
        GST_STATE_CHANGE_SUCCESS);
  for (guint i = 0; i < G_N_ELEMENTS (up); i++)
    fail_unless (gst_element_set_state (element, up[i]) ==
        GST_STATE_CHANGE_SUCCESS);
}

/* Takes the element down to NULL and back to PLAYING over and over while
 * the test thread pushes. Going down overlaps a push (the element is
 * mid-frame); going up, and the new stream's sticky events, wait for the
 * push in progress (`lock`), since data before stream-start is a
 * GStreamer warning, and the harness's own state stress thread races
 * there. */
typedef struct
{
  GstHarness *h;
  GstCaps *caps;
  GMutex lock;
  gint running;
  guint cycles;
} state_changer;

static gpointer
change_states (gpointer data)
{
  state_changer *c = data;

  while (g_atomic_int_get (&c->running)) {
    fail_unless (gst_element_set_state (c->h->element, GST_STATE_NULL) ==
        GST_STATE_CHANGE_SUCCESS);
    g_usleep (100);
    g_mutex_lock (&c->lock);
    fail_unless (gst_element_set_state (c->h->element, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_SUCCESS);
    restart_stream (c->h, c->cycles, gst_caps_ref (c->caps));
    g_mutex_unlock (&c->lock);
    c->cycles++;
    g_usleep (100);
  }
  return NULL;
}

/* Pushes buffers for `seconds` under change_states; a push may fail while
 * the element is down. Drops the output and, with a flush, what is still
 * in flight; returns the number of state
 * cycles, *pushed and *accepted the buffers pushed and those taken. */
static guint
push_under_state_changes (GstHarness * h, GstCaps * caps,
    GstBuffer * (*make) (guint index), gdouble seconds, guint * pushed,
    guint * accepted)
{
  state_changer c = {.h = h,.caps = caps,.running = 1 };
  gint64 end = g_get_monotonic_time () + seconds * G_TIME_SPAN_SECOND;
  GThread *thread;
  GstBuffer *out;

  g_mutex_init (&c.lock);
  thread = g_thread_new ("states", change_states, &c);
  *pushed = *accepted = 0;
  while (g_get_monotonic_time () < end) {
    GstBuffer *in = make (*pushed);

    g_mutex_lock (&c.lock);
    *accepted += gst_harness_push (h, in) == GST_FLOW_OK;
    g_mutex_unlock (&c.lock);
    (*pushed)++;
    while ((out = gst_harness_try_pull (h)) != NULL)
      gst_buffer_unref (out);
  }
  g_atomic_int_set (&c.running, 0);
  g_thread_join (thread);
  g_mutex_clear (&c.lock);
  gst_caps_unref (caps);
  /* The last pushes may have been taken after the last cycle. */
  push_flush (h);
  while ((out = gst_harness_try_pull (h)) != NULL)
    gst_buffer_unref (out);
  pull_events_saw_eos (h);
  return c.cycles;
}

/* ---- ctjpegenc ---------------------------------------------------------- */

static const GstVideoFormat video_formats[] = {
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_BGR,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB,
  GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
  GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
};

#define FRAME_DURATION (GST_SECOND / 30)

/* The picture in a (packed) format, rows `pad` bytes longer than the caps
 * imply, described by a video meta when pad > 0; padding and alpha bytes
 * are 0x5a so that reading them shows. */
static GstBuffer *
make_video_buffer (const test_picture * p, GstVideoFormat format, guint pad)
{
  GstVideoInfo info;
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (format);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  GstBuffer *buffer;
  GstMapInfo map;

  fail_unless (gst_video_info_set_format (&info, format, p->width,
          p->height));
  stride[0] = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0) + pad;
  buffer = gst_buffer_new_allocate (NULL, (gsize) stride[0] * p->height,
      NULL);
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  memset (map.data, 0x5a, map.size);
  for (guint y = 0; y < p->height; y++) {
    guint8 *row = map.data + (gsize) y * stride[0];
    for (guint x = 0; x < p->width; x++) {
      guint i = y * p->width + x;
      if (format == GST_VIDEO_FORMAT_GRAY8) {
        row[x] = p->gray[i];
        continue;
      }
      for (guint c = 0; c < 3; c++)
        row[x * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c) +
            GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c)] = p->rgb[3 * i + c];
    }
  }
  gst_buffer_unmap (buffer, &map);
  if (pad > 0)
    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        format, p->width, p->height, 1, offset, stride);
  return tracked (buffer);
}

static GstCaps *
video_caps (GstVideoFormat format, guint width, guint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

static GBytes *
library_jpeg (const test_picture * p, gboolean gray)
{
  ct_jpeg_settings settings;
  ct_jpeg_image image = {
    .width = p->width,
    .height = p->height,
    .format = gray ? CT_PIXEL_GRAY8 : CT_PIXEL_RGB8,
    .stride = (size_t) p->width * (gray ? 1 : 3),
    .pixels = gray ? p->gray : p->rgb,
  };
  ct_jpeg_output out = { NULL, 0 };
  char err[256] = "";
  GBytes *bytes;
  int r;

  ct_jpeg_settings_default (&settings);
  r = ct_jpeg_encode (NULL, &settings, &image, &out, err, sizeof (err));
  fail_unless (r == CT_OK, "ct_jpeg_encode: %s", err);
  bytes = g_bytes_new (out.data, out.size);
  ct_jpeg_output_free (&out);
  return bytes;
}

/* A ctjpegenc stream under test: the current caps, and the library's bytes
 * for each frame pushed and not yet seen downstream, in order. */
typedef struct
{
  GstHarness *h;
  GstVideoFormat format;
  guint width, height;
  GQueue expected;              /* GBytes */
  guint frames_in, frames_out;
} jpeg_stream;

static GstHarness *
new_jpeg_harness (gint threads, gint max_frames_in_flight)
{
  GstElement *enc = gst_element_factory_make ("ctjpegenc", NULL);
  GstHarness *h;

  fail_unless (enc != NULL);
  g_object_set (enc, "threads", threads,
      "max-frames-in-flight", max_frames_in_flight, NULL);
  h = gst_harness_new_with_element (enc, "sink", "src");
  gst_object_unref (enc);
  gst_harness_play (h);
  return h;
}

static void
jpeg_set_caps (jpeg_stream * s, GstVideoFormat format, guint width,
    guint height)
{
  s->format = format;
  s->width = width;
  s->height = height;
  gst_harness_set_src_caps (s->h, video_caps (format, width, height));
}

static void
jpeg_push (jpeg_stream * s, guint32 seed, guint pad)
{
  test_picture p = make_picture (s->width, s->height, seed);
  GstBuffer *in = make_video_buffer (&p, s->format, pad);

  GST_BUFFER_PTS (in) = s->frames_in * FRAME_DURATION;
  GST_BUFFER_DURATION (in) = FRAME_DURATION;
  g_queue_push_tail (&s->expected, library_jpeg (&p,
          s->format == GST_VIDEO_FORMAT_GRAY8));
  free_picture (&p);
  fail_unless_equals_int (gst_harness_push (s->h, in), GST_FLOW_OK);
  s->frames_in++;
}

/* Takes every buffer downstream has: each the next expected frame's
 * bytes. */
static void
jpeg_pull (jpeg_stream * s)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (s->h)) != NULL) {
    GBytes *expected = g_queue_pop_head (&s->expected);
    gsize expected_size;
    const guint8 *expected_data;
    GstMapInfo map;

    fail_unless (expected != NULL, "a frame more than pushed");
    expected_data = g_bytes_get_data (expected, &expected_size);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless (map.size == expected_size && memcmp (map.data,
            expected_data, map.size) == 0, "frame %u (pts %" GST_TIME_FORMAT
        ") differs from the library's (%" G_GSIZE_FORMAT " bytes, not %"
        G_GSIZE_FORMAT ")", s->frames_out, GST_TIME_ARGS (GST_BUFFER_PTS
            (out)), map.size, expected_size);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    g_bytes_unref (expected);
    s->frames_out++;
  }
}

/* After a flush or a stop: what came out was a prefix; the rest is gone. */
static void
jpeg_forget (jpeg_stream * s)
{
  jpeg_pull (s);
  g_queue_clear_full (&s->expected, (GDestroyNotify) g_bytes_unref);
}

/* EOS: every frame pushed comes out, then EOS. */
static void
jpeg_eos (jpeg_stream * s)
{
  fail_unless (gst_harness_push_event (s->h, gst_event_new_eos ()));
  jpeg_pull (s);
  fail_unless_equals_int (g_queue_get_length (&s->expected), 0);
  fail_unless (pull_events_saw_eos (s->h), "no EOS downstream");
}

static void
jpeg_teardown (jpeg_stream * s)
{
  jpeg_forget (s);
  gst_harness_teardown (s->h);
  assert_no_input_left ();
}

static const gint thread_counts[] = { 1, 2 };

/* State cycles with frames waiting in a batch of 4 (fewer pushed than the
 * batch, so none has come out yet), then a new stream whose bytes are the
 * library's. */
GST_START_TEST (test_jpeg_state_changes)
{
  const gint threads = thread_counts[__i__];
  jpeg_stream s = {.h = new_jpeg_harness (threads, 4) };
  const guint cycles = 300;

  jpeg_set_caps (&s, GST_VIDEO_FORMAT_RGB, 24, 16);
  for (guint c = 0; c < cycles; c++) {
    for (guint i = 0; i < c % 4; i++)
      jpeg_push (&s, c * 8 + i, 0);
    cycle_states (s.h->element);
    jpeg_forget (&s);
    pull_events_saw_eos (s.h);
    restart_stream (s.h, c, video_caps (GST_VIDEO_FORMAT_RGB, 24, 16));
    if (c % 10 == 9) {
      for (guint i = 0; i < 5; i++)
        jpeg_push (&s, 1000 + c * 8 + i, 0);
      jpeg_eos (&s);
      fail_unless_equals_int (gst_element_set_state (s.h->element,
              GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
      gst_element_set_state (s.h->element, GST_STATE_PLAYING);
      restart_stream (s.h, 1000 + c, video_caps (GST_VIDEO_FORMAT_RGB, 24,
              16));
    }
  }
  g_print ("ctjpegenc state changes, %d thread(s): %u cycles, %u frames "
      "in, %u checked\n", threads, cycles, s.frames_in, s.frames_out);
  jpeg_teardown (&s);
}

GST_END_TEST;

static GstBuffer *
make_jpeg_input (guint index)
{
  test_picture p = make_picture (24, 16, index);
  GstBuffer *in = make_video_buffer (&p, GST_VIDEO_FORMAT_RGB, 0);

  free_picture (&p);
  GST_BUFFER_PTS (in) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (in) = FRAME_DURATION;
  return in;
}

/* State changes from another thread while frames come in, then a stream
 * whose bytes are the library's. */
GST_START_TEST (test_jpeg_states_while_pushing)
{
  const gint threads = thread_counts[__i__];
  jpeg_stream s = {.h = new_jpeg_harness (threads, 4) };
  guint cycles, pushed, accepted;

  jpeg_set_caps (&s, GST_VIDEO_FORMAT_RGB, 24, 16);
  cycles = push_under_state_changes (s.h, video_caps (GST_VIDEO_FORMAT_RGB,
          24, 16), make_jpeg_input, 0.5, &pushed, &accepted);
  for (guint i = 0; i < 6; i++)
    jpeg_push (&s, 100 + i, 0);
  jpeg_eos (&s);
  g_print ("ctjpegenc state changes while pushing, %d thread(s): %u "
      "cycles under %u frames (%u taken), then %u frames checked\n",
      threads, cycles, pushed, accepted, s.frames_out);
  jpeg_teardown (&s);
}

GST_END_TEST;

/* New caps (format and size) every 1 to 5 frames, rows padded on some:
 * each segment's frames are the library's, the queued ones drained first. */
GST_START_TEST (test_jpeg_caps_changes)
{
  const gint threads = thread_counts[__i__];
  jpeg_stream s = {.h = new_jpeg_harness (threads, 3) };
  GRand *rand = g_rand_new_with_seed (11 + __i__);
  const guint segments = 120;

  for (guint seg = 0; seg < segments; seg++) {
    GstVideoFormat format = video_formats[g_rand_int_range (rand, 0,
            G_N_ELEMENTS (video_formats))];
    guint n = g_rand_int_range (rand, 1, 6);

    jpeg_set_caps (&s, format, g_rand_int_range (rand, 1, 48),
        g_rand_int_range (rand, 1, 40));
    for (guint i = 0; i < n; i++)
      jpeg_push (&s, seg * 8 + i, g_rand_boolean (rand) ?
          g_rand_int_range (rand, 1, 70) : 0);
    jpeg_pull (&s);
  }
  jpeg_eos (&s);
  g_print ("ctjpegenc caps changes, %d thread(s): %u segments, %u frames "
      "checked\n", threads, segments, s.frames_out);
  g_rand_free (rand);
  jpeg_teardown (&s);
}

GST_END_TEST;

/* Random row padding on every frame (0 to 3 rows' worth), every format. */
GST_START_TEST (test_jpeg_random_strides)
{
  jpeg_stream s = {.h = new_jpeg_harness (2, 4) };
  GRand *rand = g_rand_new_with_seed (23);
  const guint frames_per_format = 6;

  for (guint f = 0; f < G_N_ELEMENTS (video_formats); f++) {
    guint width = g_rand_int_range (rand, 1, 64);

    jpeg_set_caps (&s, video_formats[f], width, g_rand_int_range (rand, 1,
            33));
    for (guint i = 0; i < frames_per_format; i++)
      jpeg_push (&s, f * 16 + i, g_rand_int_range (rand, 0, 3 * 4 * width +
              1));
    jpeg_pull (&s);
  }
  jpeg_eos (&s);
  g_print ("ctjpegenc random strides: %u frames checked\n", s.frames_out);
  g_rand_free (rand);
  jpeg_teardown (&s);
}

GST_END_TEST;

/* Flushes mid-batch, EOS right after caps, EOS with no data, a flush after
 * EOS: the stream after each is the library's. */
GST_START_TEST (test_jpeg_flush_and_eos)
{
  const gint threads = thread_counts[__i__];
  GRand *rand = g_rand_new_with_seed (37 + __i__);
  const guint rounds = 40;
  jpeg_stream s = {.h = new_jpeg_harness (threads, 4) };
  GstHarness *empty;

  /* EOS with no data and no caps. */
  empty = new_jpeg_harness (threads, 4);
  fail_unless (gst_harness_push_event (empty, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (empty), 0);
  fail_unless (pull_events_saw_eos (empty));
  gst_harness_teardown (empty);

  jpeg_set_caps (&s, GST_VIDEO_FORMAT_BGRx, 21, 13);
  for (guint r = 0; r < rounds; r++) {
    switch (r % 4) {
      case 0:                  /* a flush mid-batch */
        for (guint i = 0; i < (guint) g_rand_int_range (rand, 1, 8); i++)
          jpeg_push (&s, r * 16 + i, 0);
        push_flush (s.h);
        jpeg_forget (&s);
        break;
      case 1:                  /* EOS right after (new) caps */
        jpeg_set_caps (&s, g_rand_boolean (rand) ? GST_VIDEO_FORMAT_GRAY8 :
            GST_VIDEO_FORMAT_BGRx, 21, 13);
        jpeg_eos (&s);
        push_flush (s.h);
        break;
      case 2:                  /* frames, EOS, then a flush after EOS */
        for (guint i = 0; i < (guint) g_rand_int_range (rand, 1, 8); i++)
          jpeg_push (&s, r * 16 + i, 0);
        jpeg_eos (&s);
        push_flush (s.h);
        break;
      default:                 /* a flush, then one with nothing queued */
        push_flush (s.h);
        jpeg_forget (&s);
        push_flush (s.h);
        break;
    }
    pull_events_saw_eos (s.h);
    for (guint i = 0; i < 3; i++)
      jpeg_push (&s, 5000 + r * 4 + i, 0);
    jpeg_pull (&s);
  }
  jpeg_eos (&s);
  g_print ("ctjpegenc flushes and EOS, %d thread(s): %u rounds, %u frames "
      "in, %u checked\n", threads, rounds, s.frames_in, s.frames_out);
  g_rand_free (rand);
  jpeg_teardown (&s);
}

GST_END_TEST;

/* ---- ctlameenc ---------------------------------------------------------- */

static const gint audio_rates[] = {
  8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000
};

static const GstAudioFormat audio_formats[] = {
  GST_AUDIO_FORMAT_S16LE, GST_AUDIO_FORMAT_S32LE, GST_AUDIO_FORMAT_F32LE
};

static gsize
sample_size (GstAudioFormat format)
{
  return format == GST_AUDIO_FORMAT_S16LE ? 2 : 4;
}

/* `frames` of two tones and noise in a format, different per seed. */
static guint8 *
make_samples (gsize frames, gint channels, gint rate, GstAudioFormat format,
    guint32 seed)
{
  gsize n = frames * channels;
  guint8 *out = g_malloc (n * sample_size (format) + 4);
  guint32 s = seed * 2654435761u + 1;

  for (gsize i = 0; i < n; i++) {
    double t = (double) (i / channels) / rate;
    double v = 6000.0 * sin (2 * G_PI * (220.0 + 110.0 * (i % channels) +
            seed) * t) + 3000.0 * sin (2 * G_PI * 1500.0 * t);
    gint16 x;

    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    x = (gint16) (v + (gint) (s % 512) - 256);
    if (format == GST_AUDIO_FORMAT_S32LE)
      ((gint32 *) out)[i] = (gint32) ((guint32) (guint16) x << 16 | (s >> 16));
    else if (format == GST_AUDIO_FORMAT_F32LE)
      ((gfloat *) out)[i] = x / 32768.0f + (gfloat) (s % 1000u) * 1e-8f;
    else
      ((gint16 *) out)[i] = x;
  }
  return out;
}

/* A ctlameenc stream under test: the current caps, the samples pushed
 * since the stream began and the bytes that came out of it. */
typedef struct
{
  GstHarness *h;
  GstAudioFormat format;
  gint rate, channels;
  GByteArray *pushed;
  gsize frames_pushed;
  GByteArray *got;
  GstClockTime next_pts;
  guint buffers_in, streams_checked;
} mp3_stream;

static GstHarness *
new_mp3_harness (gint threads)
{
  GstElement *enc = gst_element_factory_make ("ctlameenc", NULL);
  GstHarness *h;

  fail_unless (enc != NULL);
  g_object_set (enc, "threads", threads, NULL);
  h = gst_harness_new_with_element (enc, "sink", "src");
  gst_object_unref (enc);
  gst_harness_play (h);
  return h;
}

static mp3_stream
new_mp3_stream (gint threads)
{
  mp3_stream s = {.h = new_mp3_harness (threads) };

  s.pushed = g_byte_array_new ();
  s.got = g_byte_array_new ();
  return s;
}

static GstCaps *
audio_caps (GstAudioFormat format, gint rate, gint channels)
{
  GstAudioInfo info;

  gst_audio_info_set_format (&info, format, rate, channels, NULL);
  return gst_audio_info_to_caps (&info);
}

/* What the library writes for the samples pushed since the stream began
 * (the element's defaults into a harness: no tag frame). */
static GByteArray *
library_mp3 (const mp3_stream * s)
{
  ct_mp3_settings settings;
  ct_mp3_encoder *encoder = NULL;
  GByteArray *out = g_byte_array_new ();
  gsize size = sample_size (s->format) * s->channels;
  ct_mp3_packet packet;
  char err[256] = "";

  ct_mp3_settings_default (&settings);
  settings.rate_control = CT_MP3_VBR;
  settings.vbr_quality = 4.0f;
  settings.quality = -1;
  settings.mode = CT_MP3_MODE_DEFAULT;
  settings.replaygain = 1;
  settings.lametag = 0;
  settings.sample_rate = s->rate;
  settings.channels = s->channels;
  fail_unless (ct_mp3_encoder_new (NULL, &settings, &encoder, err,
          sizeof (err)) == CT_OK, "ct_mp3_encoder_new: %s", err);
  for (gsize done = 0; done < s->frames_pushed;) {
    gsize n = MIN (s->frames_pushed - done, 4000);
    const guint8 *p = s->pushed->data + done * size;
    int r;

    if (s->format == GST_AUDIO_FORMAT_S32LE)
      r = ct_mp3_send_samples_s32 (encoder, (const gint32 *) p, n);
    else if (s->format == GST_AUDIO_FORMAT_F32LE)
      r = ct_mp3_send_samples_f32 (encoder, (const gfloat *) p, n);
    else
      r = ct_mp3_send_samples (encoder, (const gint16 *) p, n);
    fail_unless_equals_int (r, CT_OK);
    while (ct_mp3_receive_packet (encoder, &packet) == CT_OK)
      g_byte_array_append (out, packet.data, packet.size);
    done += n;
  }
  fail_unless_equals_int (ct_mp3_drain (encoder), CT_OK);
  while (ct_mp3_receive_packet (encoder, &packet) == CT_OK)
    g_byte_array_append (out, packet.data, packet.size);
  ct_mp3_encoder_free (encoder);
  return out;
}

static void
mp3_pull (mp3_stream * s)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (s->h)) != NULL) {
    GstMapInfo map;

    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    g_byte_array_append (s->got, map.data, map.size);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
  }
}

/* The stream ends: what came out is the library's bytes for it, all of
 * them when it was drained (EOS, new caps), a prefix when it was cut
 * (flush, stop). */
static void
mp3_end_stream (mp3_stream * s, gboolean drained)
{
  GByteArray *expected;

  mp3_pull (s);
  if (s->frames_pushed > 0 || drained) {
    expected = library_mp3 (s);
    if (s->frames_pushed == 0) {
      /* Caps and no samples: the base class has nothing to drain. */
      fail_unless_equals_int (s->got->len, 0);
    } else if (drained) {
      fail_unless_equals_int (s->got->len, expected->len);
    } else {
      fail_unless (s->got->len <= expected->len);
    }
    fail_unless (s->got->len == 0
        || memcmp (s->got->data, expected->data, s->got->len) == 0,
        "stream %u differs from the library's", s->streams_checked);
    g_byte_array_unref (expected);
    s->streams_checked++;
  }
  g_byte_array_set_size (s->pushed, 0);
  g_byte_array_set_size (s->got, 0);
  s->frames_pushed = 0;
}

/* New caps and a segment (as the harness sends them): the base class
 * drains the stream before each, equal caps or not. */
static void
mp3_set_caps (mp3_stream * s, GstAudioFormat format, gint rate,
    gint channels)
{
  gst_harness_set_src_caps (s->h, audio_caps (format, rate, channels));
  if (s->rate != 0)
    mp3_end_stream (s, TRUE);
  s->format = format;
  s->rate = rate;
  s->channels = channels;
}

static void
mp3_push (mp3_stream * s, gsize frames, guint32 seed)
{
  gsize bytes = frames * s->channels * sample_size (s->format);
  guint8 *samples = make_samples (frames, s->channels, s->rate, s->format,
      seed);
  GstBuffer *in = tracked (gst_buffer_new_memdup (samples, bytes));
  GstClockTime duration = gst_util_uint64_scale (frames, GST_SECOND,
      s->rate);

  g_byte_array_append (s->pushed, samples, bytes);
  g_free (samples);
  GST_BUFFER_PTS (in) = s->next_pts;
  GST_BUFFER_DURATION (in) = duration;
  s->next_pts += duration;
  s->frames_pushed += frames;
  fail_unless_equals_int (gst_harness_push (s->h, in), GST_FLOW_OK);
  s->buffers_in++;
}

static void
mp3_eos (mp3_stream * s)
{
  fail_unless (gst_harness_push_event (s->h, gst_event_new_eos ()));
  mp3_end_stream (s, TRUE);
  fail_unless (pull_events_saw_eos (s->h), "no EOS downstream");
}

static void
mp3_flush (mp3_stream * s)
{
  push_flush (s->h);
  mp3_end_stream (s, FALSE);
  s->next_pts = 0;
}

static void
mp3_teardown (mp3_stream * s)
{
  mp3_end_stream (s, FALSE);
  gst_harness_teardown (s->h);
  g_byte_array_unref (s->pushed);
  g_byte_array_unref (s->got);
  assert_no_input_left ();
}

/* State cycles with samples in the ring (a few frames' worth and an odd
 * tail), then a new stream whose bytes are the library's. */
GST_START_TEST (test_mp3_state_changes)
{
  const gint threads = thread_counts[__i__];
  mp3_stream s = new_mp3_stream (threads);
  const guint cycles = 200;

  mp3_set_caps (&s, GST_AUDIO_FORMAT_S16LE, 44100, 2);
  for (guint c = 0; c < cycles; c++) {
    if (c % 3 != 2)
      mp3_push (&s, 577 + 1152 * (c % 5), c);
    cycle_states (s.h->element);
    mp3_end_stream (&s, FALSE);
    pull_events_saw_eos (s.h);
    s.next_pts = 0;
    restart_stream (s.h, c, audio_caps (s.format, s.rate, s.channels));
    if (c % 10 == 9) {
      mp3_push (&s, 9000, 1000 + c);
      mp3_eos (&s);
      s.next_pts = 0;
      restart_stream (s.h, 1000 + c, audio_caps (s.format, s.rate,
              s.channels));
    }
  }
  g_print ("ctlameenc state changes, %d thread(s): %u cycles, %u buffers "
      "in, %u streams checked\n", threads, cycles, s.buffers_in,
      s.streams_checked);
  mp3_teardown (&s);
}

GST_END_TEST;

static GstBuffer *
make_mp3_input (guint index)
{
  guint8 *samples = make_samples (1000 + index % 3 * 700, 2, 44100,
      GST_AUDIO_FORMAT_S16LE, index);
  GstBuffer *in = tracked (gst_buffer_new_memdup (samples,
          (1000 + index % 3 * 700) * 4));

  g_free (samples);
  return in;
}

GST_START_TEST (test_mp3_states_while_pushing)
{
  const gint threads = thread_counts[__i__];
  mp3_stream s = new_mp3_stream (threads);
  guint cycles, pushed, accepted;

  mp3_set_caps (&s, GST_AUDIO_FORMAT_S16LE, 44100, 2);
  cycles = push_under_state_changes (s.h, audio_caps (s.format, s.rate,
          s.channels), make_mp3_input, 0.5, &pushed, &accepted);
  mp3_push (&s, 20000, 5);
  mp3_eos (&s);
  g_print ("ctlameenc state changes while pushing, %d thread(s): %u "
      "cycles under %u buffers (%u taken), then %u streams checked\n",
      threads, cycles, pushed, accepted, s.streams_checked);
  mp3_teardown (&s);
}

GST_END_TEST;

/* New caps (rate, channels, format) every 1 to 4 buffers of random sizes:
 * each stream the library's. */
GST_START_TEST (test_mp3_caps_changes)
{
  const gint threads = thread_counts[__i__];
  mp3_stream s = new_mp3_stream (threads);
  GRand *rand = g_rand_new_with_seed (41 + __i__);
  const guint segments = 60;

  for (guint seg = 0; seg < segments; seg++) {
    guint n = g_rand_int_range (rand, 1, 5);

    mp3_set_caps (&s, audio_formats[g_rand_int_range (rand, 0,
                G_N_ELEMENTS (audio_formats))],
        audio_rates[g_rand_int_range (rand, 0, G_N_ELEMENTS (audio_rates))],
        g_rand_int_range (rand, 1, 3));
    for (guint i = 0; i < n; i++)
      mp3_push (&s, g_rand_int_range (rand, 1, 4000), seg * 8 + i);
  }
  mp3_eos (&s);
  g_print ("ctlameenc caps changes, %d thread(s): %u segments, %u buffers, "
      "%u streams checked\n", threads, segments, s.buffers_in,
      s.streams_checked);
  g_rand_free (rand);
  mp3_teardown (&s);
}

GST_END_TEST;

/* Buffers of 1 sample to several frames, each format and channel count. */
GST_START_TEST (test_mp3_random_sizes)
{
  mp3_stream s = new_mp3_stream (2);
  GRand *rand = g_rand_new_with_seed (53);
  guint buffers = 0;

  for (guint f = 0; f < G_N_ELEMENTS (audio_formats); f++) {
    for (gint channels = 1; channels <= 2; channels++) {
      mp3_set_caps (&s, audio_formats[f], 44100, channels);
      for (guint i = 0; i < 60; i++) {
        /* Mostly tiny, some of several frames. */
        gsize frames = g_rand_int_range (rand, 0, 4) == 0 ?
            (gsize) g_rand_int_range (rand, 1153, 6000) :
            (gsize) g_rand_int_range (rand, 1, 300);
        mp3_push (&s, frames, f * 1000 + channels * 100 + i);
        buffers++;
      }
    }
  }
  mp3_eos (&s);
  g_print ("ctlameenc random sizes: %u buffers, %u streams checked\n",
      buffers, s.streams_checked);
  g_rand_free (rand);
  mp3_teardown (&s);
}

GST_END_TEST;

/* Flushes with samples in the ring, EOS right after caps, EOS with no
 * data, a flush after EOS: the stream after each is the library's. */
GST_START_TEST (test_mp3_flush_and_eos)
{
  const gint threads = thread_counts[__i__];
  GRand *rand = g_rand_new_with_seed (61 + __i__);
  mp3_stream s = new_mp3_stream (threads);
  const guint rounds = 40;
  GstHarness *empty;

  empty = new_mp3_harness (threads);
  fail_unless (gst_harness_push_event (empty, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (empty), 0);
  fail_unless (pull_events_saw_eos (empty));
  gst_harness_teardown (empty);

  mp3_set_caps (&s, GST_AUDIO_FORMAT_S16LE, 48000, 2);
  for (guint r = 0; r < rounds; r++) {
    switch (r % 4) {
      case 0:                  /* a flush with frames in the ring */
        mp3_push (&s, g_rand_int_range (rand, 1, 12000), r);
        mp3_flush (&s);
        break;
      case 1:                  /* EOS right after (new) caps */
        mp3_set_caps (&s, GST_AUDIO_FORMAT_S16LE, g_rand_boolean (rand) ?
            48000 : 32000, 2);
        mp3_eos (&s);
        mp3_flush (&s);
        break;
      case 2:                  /* samples, EOS, then a flush after EOS */
        mp3_push (&s, g_rand_int_range (rand, 1, 12000), r);
        mp3_eos (&s);
        mp3_flush (&s);
        break;
      default:                 /* a flush, then one with nothing queued */
        mp3_flush (&s);
        mp3_flush (&s);
        break;
    }
    pull_events_saw_eos (s.h);
    mp3_push (&s, 5000, 100 + r);
    if (r % 2) {
      mp3_eos (&s);
      s.next_pts = 0;
      restart_stream (s.h, r, audio_caps (s.format, s.rate, s.channels));
    }
  }
  mp3_eos (&s);
  g_print ("ctlameenc flushes and EOS, %d thread(s): %u rounds, %u buffers "
      "in, %u streams checked\n", threads, rounds, s.buffers_in,
      s.streams_checked);
  g_rand_free (rand);
  mp3_teardown (&s);
}

GST_END_TEST;

/* ---- 8 pipelines at once ------------------------------------------------ */

#define NUM_PIPELINES 8
#define PULL_TIMEOUT (20 * GST_SECOND)

/* appsrc ! element ! appsink, fed and drained from one thread; the output
 * bytes, or an error. */
typedef struct
{
  gboolean jpeg;
  gint threads;
  GByteArray *out;
  guint buffers_out;
  gchar *error;
} pipeline_job;

#define JPEG_W 40
#define JPEG_H 24
#define JPEG_FRAMES 16
#define MP3_FRAMES 66150        /* 1.5 s at 44.1 kHz */

static GstElement *
new_pipeline (gboolean jpeg, gint threads, GstElement ** src,
    GstElement ** sink, gchar ** error)
{
  gchar *launch = g_strdup_printf ("appsrc name=src format=time ! %s "
      "threads=%d ! appsink name=sink sync=false", jpeg ? "ctjpegenc" :
      "ctlameenc lametag=false", threads);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &err);

  g_free (launch);
  if (pipeline == NULL) {
    *error = g_strdup (err->message);
    g_error_free (err);
    return NULL;
  }
  *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_app_src_set_caps (GST_APP_SRC (*src), jpeg ?
      video_caps (GST_VIDEO_FORMAT_RGB, JPEG_W, JPEG_H) :
      audio_caps (GST_AUDIO_FORMAT_S16LE, 44100, 2));
  return pipeline;
}

static void
free_pipeline (GstElement * pipeline, GstElement * src, GstElement * sink)
{
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}

/* Queues the stream on the appsrc, the first `buffers` buffers of it
 * (G_MAXUINT: all and EOS); returns how many it queued. */
static guint
feed_pipeline (GstElement * src, gboolean jpeg, guint buffers)
{
  guint queued = 0;

  if (jpeg) {
    for (guint i = 0; i < JPEG_FRAMES && queued < buffers; i++, queued++) {
      test_picture p = make_picture (JPEG_W, JPEG_H, i);
      GstBuffer *in = make_video_buffer (&p, GST_VIDEO_FORMAT_RGB, 0);

      free_picture (&p);
      GST_BUFFER_PTS (in) = i * FRAME_DURATION;
      GST_BUFFER_DURATION (in) = FRAME_DURATION;
      gst_app_src_push_buffer (GST_APP_SRC (src), in);
    }
  } else {
    guint8 *pcm = make_samples (MP3_FRAMES, 2, 44100, GST_AUDIO_FORMAT_S16LE,
        7);
    guint32 seed = 99;

    for (gsize done = 0; done < MP3_FRAMES && queued < buffers; queued++) {
      gsize n;
      GstBuffer *in;

      seed = seed * 1103515245u + 12345u;
      n = MIN (MP3_FRAMES - done, 1 + (seed >> 16) % 5000);
      in = tracked (gst_buffer_new_memdup (pcm + done * 4, n * 4));
      GST_BUFFER_PTS (in) = gst_util_uint64_scale (done, GST_SECOND, 44100);
      GST_BUFFER_DURATION (in) = gst_util_uint64_scale (done + n, GST_SECOND,
          44100) - GST_BUFFER_PTS (in);
      gst_app_src_push_buffer (GST_APP_SRC (src), in);
      done += n;
    }
    g_free (pcm);
  }
  if (buffers == G_MAXUINT)
    gst_app_src_end_of_stream (GST_APP_SRC (src));
  return queued;
}

/* Takes the samples up to EOS (each within PULL_TIMEOUT) and the first
 * error on the bus, if any. */
static void
collect_pipeline (GstElement * pipeline, GstElement * sink,
    pipeline_job * job)
{
  GstBus *bus;
  GstMessage *msg;

  job->out = g_byte_array_new ();
  for (;;) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        PULL_TIMEOUT);
    GstMapInfo map;

    if (sample == NULL) {
      if (!gst_app_sink_is_eos (GST_APP_SINK (sink)))
        job->error = g_strdup ("no sample and no EOS in 20 s");
      break;
    }
    gst_buffer_map (gst_sample_get_buffer (sample), &map, GST_MAP_READ);
    g_byte_array_append (job->out, map.data, map.size);
    gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
    gst_sample_unref (sample);
    job->buffers_out++;
  }
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg != NULL && job->error == NULL) {
    GError *e = NULL;

    gst_message_parse_error (msg, &e, NULL);
    job->error = g_strdup (e->message);
    g_error_free (e);
  }
  if (msg != NULL)
    gst_message_unref (msg);
  gst_object_unref (bus);
}

static gpointer
run_pipeline (gpointer data)
{
  pipeline_job *job = data;
  GstElement *src, *sink;
  GstElement *pipeline = new_pipeline (job->jpeg, job->threads, &src, &sink,
      &job->error);

  if (pipeline == NULL)
    return NULL;
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  feed_pipeline (src, job->jpeg, G_MAXUINT);
  collect_pipeline (pipeline, sink, job);
  free_pipeline (pipeline, src, sink);
  return NULL;
}

/* The library's bytes for what run_pipeline feeds. */
static GByteArray *
pipeline_expected (gboolean jpeg)
{
  GByteArray *out;

  if (jpeg) {
    out = g_byte_array_new ();
    for (guint i = 0; i < JPEG_FRAMES; i++) {
      test_picture p = make_picture (JPEG_W, JPEG_H, i);
      GBytes *bytes = library_jpeg (&p, FALSE);
      gsize size;
      const guint8 *data = g_bytes_get_data (bytes, &size);

      g_byte_array_append (out, data, size);
      g_bytes_unref (bytes);
      free_picture (&p);
    }
  } else {
    mp3_stream s = {.format = GST_AUDIO_FORMAT_S16LE,.rate = 44100,
      .channels = 2
    };
    guint8 *pcm = make_samples (MP3_FRAMES, 2, 44100, GST_AUDIO_FORMAT_S16LE,
        7);

    s.pushed = g_byte_array_new_take (pcm, MP3_FRAMES * 4);
    s.frames_pushed = MP3_FRAMES;
    out = library_mp3 (&s);
    g_byte_array_unref (s.pushed);
  }
  return out;
}

static void
assert_job (const pipeline_job * job, const GByteArray * expected,
    guint index)
{
  fail_unless (job->error == NULL, "pipeline %u: %s", index, job->error);
  fail_unless_equals_uint64 (job->out->len, expected->len);
  fail_unless (memcmp (job->out->data, expected->data, expected->len) == 0,
      "pipeline %u: bytes differ", index);
}

/* One pipeline alone, then 8 at once (the shared pool, 1 and 2 workers of
 * their own): each the single run's bytes, which are the library's. */
GST_START_TEST (test_concurrent_pipelines)
{
  const gboolean jpeg = __i__ == 0;
  GByteArray *expected = pipeline_expected (jpeg);
  pipeline_job single = {.jpeg = jpeg,.threads = 2 };
  pipeline_job jobs[NUM_PIPELINES];
  GThread *threads[NUM_PIPELINES];
  guint buffers = 0;

  run_pipeline (&single);
  assert_job (&single, expected, 0);
  for (guint i = 0; i < NUM_PIPELINES; i++) {
    jobs[i] = (pipeline_job) {
    .jpeg = jpeg,.threads = i % 3};
    threads[i] = g_thread_new ("pipeline", run_pipeline, &jobs[i]);
  }
  for (guint i = 0; i < NUM_PIPELINES; i++)
    g_thread_join (threads[i]);
  for (guint i = 0; i < NUM_PIPELINES; i++) {
    assert_job (&jobs[i], single.out, i);
    buffers += jobs[i].buffers_out;
    g_byte_array_unref (jobs[i].out);
  }
  g_print ("%s: %d pipelines at once, %u buffers out, all identical to a "
      "single run\n", jpeg ? "ctjpegenc" : "ctlameenc", NUM_PIPELINES,
      buffers);
  g_byte_array_unref (single.out);
  g_byte_array_unref (expected);
  assert_no_input_left ();
}

GST_END_TEST;

/* PLAYING -> PAUSED -> READY -> NULL while appsrc's streaming thread
 * pushes into the element (frames in its batch or ring, on 1 and 2
 * workers), many times over; then a whole stream, the library's bytes. */
GST_START_TEST (test_pipeline_state_changes)
{
  const gboolean jpeg = __i__ / 2 == 0;
  const gint threads = thread_counts[__i__ % 2];
  const guint cycles = 250;
  GByteArray *expected = pipeline_expected (jpeg);
  pipeline_job job = {.jpeg = jpeg,.threads = threads };
  GstElement *src, *sink;
  GstElement *pipeline = new_pipeline (jpeg, threads, &src, &sink,
      &job.error);
  guint queued = 0;

  fail_unless (pipeline != NULL, "%s", job.error);
  for (guint c = 0; c < cycles; c++) {
    static const GstState down[] = { GST_STATE_PAUSED, GST_STATE_READY,
      GST_STATE_NULL
    };
    GstState state;

    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    queued += feed_pipeline (src, jpeg, 1 + c % 7);
    if (c % 2)
      g_usleep (c % 5 * 200);
    /* PAUSED may wait for a preroll that never comes; READY and NULL do
     * not wait. */
    for (guint i = 0; i < G_N_ELEMENTS (down); i++)
      fail_unless (gst_element_set_state (pipeline, down[i]) !=
          GST_STATE_CHANGE_FAILURE);
    fail_unless_equals_int (gst_element_get_state (pipeline, &state, NULL,
            0), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (state, GST_STATE_NULL);
  }
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  feed_pipeline (src, jpeg, G_MAXUINT);
  collect_pipeline (pipeline, sink, &job);
  assert_job (&job, expected, 0);
  g_print ("%s pipeline state changes, %d thread(s): %u cycles, %u buffers "
      "queued mid-stream, then %u buffers out, the library's bytes\n",
      jpeg ? "ctjpegenc" : "ctlameenc", threads, cycles, queued,
      job.buffers_out);
  free_pipeline (pipeline, src, sink);
  g_byte_array_unref (job.out);
  g_byte_array_unref (expected);
  assert_no_input_left ();
}

GST_END_TEST;

static Suite *
stress_suite (void)
{
  Suite *s = suite_create ("stress");
  TCase *tc = tcase_create ("general");

  /* appsrc and appsink from libgstapp, without the system's plugins. */
  gst_element_register (NULL, "appsrc", GST_RANK_NONE, GST_TYPE_APP_SRC);
  gst_element_register (NULL, "appsink", GST_RANK_NONE, GST_TYPE_APP_SINK);

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, watchdog_start, watchdog_stop);
  tcase_add_loop_test (tc, test_jpeg_state_changes, 0, 2);
  tcase_add_loop_test (tc, test_jpeg_states_while_pushing, 0, 2);
  tcase_add_loop_test (tc, test_jpeg_caps_changes, 0, 2);
  tcase_add_test (tc, test_jpeg_random_strides);
  tcase_add_loop_test (tc, test_jpeg_flush_and_eos, 0, 2);
  tcase_add_loop_test (tc, test_mp3_state_changes, 0, 2);
  tcase_add_loop_test (tc, test_mp3_states_while_pushing, 0, 2);
  tcase_add_loop_test (tc, test_mp3_caps_changes, 0, 2);
  tcase_add_test (tc, test_mp3_random_sizes);
  tcase_add_loop_test (tc, test_mp3_flush_and_eos, 0, 2);
  tcase_add_loop_test (tc, test_pipeline_state_changes, 0, 4);
  tcase_add_loop_test (tc, test_concurrent_pipelines, 0, 2);
  return s;
}

GST_CHECK_MAIN (stress);
