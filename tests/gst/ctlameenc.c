/*
 * ctlameenc element tests (GstHarness): caps per rate and channel count,
 * byte equality with the library for each property, state changes, flush,
 * EOS with no data, renegotiation, short streams, timestamps, the LAME tag
 * (none into a harness, which cannot seek, but clipping meta for the
 * delay and padding; the tag frame and its rewrite when downstream can),
 * segments without a stop downstream and the ring on a live source.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/audio/audio.h>

#include "ctcore/mp3.h"

/* A test signal: two tones, a slow sweep and a little noise, different per
 * seed and per channel. */
static gint16 *
make_pcm (gsize frames, gint channels, guint32 seed)
{
  gint16 *pcm = g_new (gint16, frames * channels + 1);
  guint32 s = seed * 2654435761u + 1;

  for (gsize i = 0; i < frames; i++) {
    for (gint c = 0; c < channels; c++) {
      double t = (double) i / 44100.0;
      double v = 6000.0 * sin (2 * G_PI * (220.0 + 110.0 * c + seed) * t) +
          3000.0 * sin (2 * G_PI * (1000.0 + 2000.0 * t) * t);
      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      pcm[i * channels + c] = (gint16) (v + (gint) (s % 512) - 256);
    }
  }
  return pcm;
}

static GstCaps *
raw_caps (gint rate, gint channels)
{
  GstAudioInfo info;

  gst_audio_info_set_format (&info, GST_AUDIO_FORMAT_S16LE, rate, channels,
      NULL);
  return gst_audio_info_to_caps (&info);
}

/* The settings the element's defaults stand for, into a harness: it cannot
 * seek, so no tag frame (lame -t). */
static ct_mp3_settings
default_settings (gint rate, gint channels)
{
  ct_mp3_settings s;

  ct_mp3_settings_default (&s);
  s.rate_control = CT_MP3_VBR;
  s.vbr_quality = 4.0f;
  s.quality = -1;
  s.mode = CT_MP3_MODE_DEFAULT;
  s.replaygain = 1;
  s.lametag = 0;
  s.sample_rate = rate;
  s.channels = channels;
  return s;
}

/* What the library gives for the samples: its packets, one after the other
 * (the tag placeholder first when the tag is on), and the final tag. */
typedef struct library_output
{
  GByteArray *stream;
  GArray *packet_sizes;         /* gsize */
  GBytes *lametag;              /* NULL without the tag */
  gint output_rate;
} library_output;

static void
receive_all (ct_mp3_encoder * encoder, library_output * out)
{
  ct_mp3_packet packet;
  int r;

  while ((r = ct_mp3_receive_packet (encoder, &packet)) == CT_OK) {
    g_byte_array_append (out->stream, packet.data, packet.size);
    g_array_append_val (out->packet_sizes, packet.size);
  }
  fail_unless (r == CT_EAGAIN || r == CT_EOF, "ct_mp3_receive_packet: %s",
      ct_strerror (r));
}

static library_output
library_encode (const ct_mp3_settings * settings, const gint16 * pcm,
    gsize frames)
{
  library_output out = { g_byte_array_new (),
    g_array_new (FALSE, FALSE, sizeof (gsize)), NULL, 0
  };
  ct_mp3_encoder *encoder = NULL;
  char err[256] = "";
  int r;

  r = ct_mp3_encoder_new (NULL, settings, &encoder, err, sizeof (err));
  fail_unless (r == CT_OK, "ct_mp3_encoder_new: %s", err);
  out.output_rate = ct_mp3_output_rate (encoder);
  /* In pieces, as a pipeline would send them. */
  for (gsize done = 0; done < frames;) {
    gsize n = MIN (frames - done, 4000);
    fail_unless_equals_int (ct_mp3_send_samples (encoder,
            pcm + done * settings->channels, n), CT_OK);
    receive_all (encoder, &out);
    done += n;
  }
  fail_unless_equals_int (ct_mp3_drain (encoder), CT_OK);
  receive_all (encoder, &out);
  if (settings->lametag) {
    ct_mp3_packet tag;

    /* LAME leaves the tag out when its frame is too small to hold it. */
    r = ct_mp3_lametag (encoder, &tag);
    fail_unless (r == CT_OK || r == CT_EUNSUPPORTED, "ct_mp3_lametag: %s",
        ct_strerror (r));
    if (r == CT_OK)
      out.lametag = g_bytes_new (tag.data, tag.size);
  }
  ct_mp3_encoder_free (encoder);
  return out;
}

static void
library_output_clear (library_output * out)
{
  g_byte_array_unref (out->stream);
  g_array_unref (out->packet_sizes);
  if (out->lametag)
    g_bytes_unref (out->lametag);
}

/* The length of the MP3 frame whose header starts at data, or 0 if it is
 * not a Layer III header. */
static gsize
mp3_frame_length (const guint8 * data, gsize size)
{
  static const gint bitrates[2][15] = {
    {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320},
    {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
  };
  static const gint rates[3][3] = {
    {44100, 48000, 32000}, {22050, 24000, 16000}, {11025, 12000, 8000}
  };
  gint version, lsf, bitrate_index, rate_index;

  if (size < 4 || data[0] != 0xff || (data[1] & 0xe0) != 0xe0)
    return 0;
  version = (data[1] >> 3) & 3;   /* 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5 */
  bitrate_index = data[2] >> 4;
  rate_index = (data[2] >> 2) & 3;
  if (version == 1 || ((data[1] >> 1) & 3) != 1 || bitrate_index == 0 ||
      bitrate_index == 15 || rate_index == 3)
    return 0;
  lsf = version != 3;
  return (lsf ? 72 : 144) * bitrates[lsf][bitrate_index] * 1000 /
      rates[version == 3 ? 0 : version == 2 ? 1 : 2][rate_index] +
      ((data[2] >> 1) & 1);
}

static void
assert_one_frame (GstBuffer * buffer)
{
  GstMapInfo map;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  fail_unless_equals_uint64 (mp3_frame_length (map.data, map.size),
      map.size);
  gst_buffer_unmap (buffer, &map);
}

/* Pushes the samples in buffers of `chunk` frames, timestamped from 0. */
static void
push_pcm (GstHarness * h, const gint16 * pcm, gsize frames, gint rate,
    gint channels, gsize chunk)
{
  for (gsize done = 0; done < frames;) {
    gsize n = MIN (frames - done, chunk);
    GstBuffer *in = gst_buffer_new_memdup (pcm + done * channels,
        n * channels * sizeof (gint16));

    GST_BUFFER_PTS (in) = gst_util_uint64_scale (done, GST_SECOND, rate);
    GST_BUFFER_DURATION (in) = gst_util_uint64_scale (done + n, GST_SECOND,
        rate) - GST_BUFFER_PTS (in);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    done += n;
  }
}

/* Pulls every buffer the harness holds, checks that each is one MP3 frame,
 * and returns them one after the other. */
static GByteArray *
pull_stream (GstHarness * h, guint * num_buffers)
{
  GByteArray *stream = g_byte_array_new ();
  GstBuffer *buffer;

  *num_buffers = 0;
  while ((buffer = gst_harness_try_pull (h))) {
    GstMapInfo map;

    assert_one_frame (buffer);
    fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
    g_byte_array_append (stream, map.data, map.size);
    gst_buffer_unmap (buffer, &map);
    gst_buffer_unref (buffer);
    (*num_buffers)++;
  }
  return stream;
}

static void
assert_bytes_equal (const GByteArray * got, const GByteArray * expected)
{
  fail_unless_equals_uint64 (got->len, expected->len);
  fail_unless (memcmp (got->data, expected->data, got->len) == 0,
      "bytes differ from the library's");
}

static void
assert_output_caps (GstHarness * h, gint rate, gint channels)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstStructure *s;
  gint value;

  fail_unless (caps != NULL);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "audio/mpeg"));
  fail_unless (gst_structure_get_int (s, "mpegversion", &value));
  fail_unless_equals_int (value, 1);
  fail_unless (gst_structure_get_int (s, "layer", &value));
  fail_unless_equals_int (value, 3);
  fail_unless (gst_structure_get_int (s, "rate", &value));
  fail_unless_equals_int (value, rate);
  fail_unless (gst_structure_get_int (s, "channels", &value));
  fail_unless_equals_int (value, channels);
  gst_caps_unref (caps);
}

/* Encodes the samples through a harnessed element with the given
 * properties (as "name=value ..."), checks every buffer is one MP3 frame
 * and the stream is the library's for `settings`; returns the harness for
 * more checks. */
static GstHarness *
check_stream (const gchar * properties, const ct_mp3_settings * settings,
    const gint16 * pcm, gsize frames, gsize chunk)
{
  gchar *launch = g_strdup_printf ("ctlameenc %s", properties);
  GstHarness *h = gst_harness_new_parse (launch);
  library_output expected = library_encode (settings, pcm, frames);
  GByteArray *got;
  guint num_buffers;

  g_free (launch);
  gst_harness_set_src_caps (h, raw_caps (settings->sample_rate,
          settings->channels));
  push_pcm (h, pcm, frames, settings->sample_rate, settings->channels, chunk);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_stream (h, &num_buffers);
  assert_bytes_equal (got, expected.stream);
  fail_unless_equals_int (num_buffers, expected.packet_sizes->len);
  g_byte_array_unref (got);
  library_output_clear (&expected);
  return h;
}

static const gint rates[] = { 32000, 44100, 48000 };

GST_START_TEST (test_caps)
{
  gint rate = rates[__i__ / 2], channels = 1 + __i__ % 2;
  ct_mp3_settings settings = default_settings (rate, channels);
  gint16 *pcm = make_pcm (rate, channels, __i__);
  GstHarness *h = check_stream ("", &settings, pcm, rate, 4096);

  assert_output_caps (h, rate, channels);
  gst_harness_teardown (h);
  g_free (pcm);
}

GST_END_TEST;

/* Every sample format at every rate: the samples of make_pcm with more
 * than 16 bits in them, as 32-bit integers or floats. */
static const gint all_rates[] = {
  8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000
};

static const GstAudioFormat formats[] = {
  GST_AUDIO_FORMAT_S16LE, GST_AUDIO_FORMAT_S32LE, GST_AUDIO_FORMAT_F32LE
};

/* The samples in a format, of `frames * channels` samples of pcm. */
static gpointer
pcm_in_format (const gint16 * pcm, gsize samples, GstAudioFormat format)
{
  if (format == GST_AUDIO_FORMAT_S32LE) {
    gint32 *out = g_new (gint32, samples + 1);
    for (gsize i = 0; i < samples; i++)
      out[i] = (gint32) ((guint32) (guint16) pcm[i] << 16 | (i * 7919u) % 65536u);
    return out;
  }
  if (format == GST_AUDIO_FORMAT_F32LE) {
    gfloat *out = g_new (gfloat, samples + 1);
    for (gsize i = 0; i < samples; i++)
      out[i] = pcm[i] / 32768.0f + (gfloat) ((i * 7919u) % 1000u) * 1e-8f;
    return out;
  }
  return g_memdup2 (pcm, samples * sizeof (gint16) + 2);
}

GST_START_TEST (test_formats_and_rates)
{
  gint rate = all_rates[__i__ / 6], channels = 1 + __i__ % 2;
  GstAudioFormat format = formats[__i__ / 2 % 3];
  const GstAudioFormatInfo *finfo = gst_audio_format_get_info (format);
  gsize frames = rate / 2, size = GST_AUDIO_FORMAT_INFO_WIDTH (finfo) / 8;
  ct_mp3_settings settings = default_settings (rate, channels);
  gint16 *pcm16 = make_pcm (frames, channels, __i__);
  guint8 *pcm = pcm_in_format (pcm16, frames * channels, format);
  GByteArray *expected = g_byte_array_new (), *got;
  ct_mp3_encoder *encoder = NULL;
  GstHarness *h = gst_harness_new ("ctlameenc");
  GstAudioInfo info;
  char err[256] = "";
  guint num_buffers;
  int r;

  /* the library, in pieces as the harness gets them */
  fail_unless_equals_int (ct_mp3_encoder_new (NULL, &settings, &encoder, err,
          sizeof (err)), CT_OK);
  for (gsize done = 0; done < frames; done += 1000) {
    gsize n = MIN (frames - done, 1000);
    const guint8 *p = pcm + done * channels * size;
    ct_mp3_packet packet;

    if (format == GST_AUDIO_FORMAT_S32LE)
      r = ct_mp3_send_samples_s32 (encoder, (const gint32 *) p, n);
    else if (format == GST_AUDIO_FORMAT_F32LE)
      r = ct_mp3_send_samples_f32 (encoder, (const gfloat *) p, n);
    else
      r = ct_mp3_send_samples (encoder, (const gint16 *) p, n);
    fail_unless_equals_int (r, CT_OK);
    while (ct_mp3_receive_packet (encoder, &packet) == CT_OK)
      g_byte_array_append (expected, packet.data, packet.size);
  }
  fail_unless_equals_int (ct_mp3_drain (encoder), CT_OK);
  {
    ct_mp3_packet packet;
    while (ct_mp3_receive_packet (encoder, &packet) == CT_OK)
      g_byte_array_append (expected, packet.data, packet.size);
  }

  gst_audio_info_set_format (&info, format, rate, channels, NULL);
  gst_harness_set_src_caps (h, gst_audio_info_to_caps (&info));
  for (gsize done = 0; done < frames; done += 1000) {
    gsize n = MIN (frames - done, 1000);
    GstBuffer *in = gst_buffer_new_memdup (pcm + done * channels * size,
        n * channels * size);

    GST_BUFFER_PTS (in) = gst_util_uint64_scale (done, GST_SECOND, rate);
    GST_BUFFER_DURATION (in) = gst_util_uint64_scale (done + n, GST_SECOND,
        rate) - GST_BUFFER_PTS (in);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_stream (h, &num_buffers);
  assert_bytes_equal (got, expected);
  assert_output_caps (h, ct_mp3_output_rate (encoder), channels);

  ct_mp3_encoder_free (encoder);
  g_byte_array_unref (got);
  g_byte_array_unref (expected);
  gst_harness_teardown (h);
  g_free (pcm);
  g_free (pcm16);
}

GST_END_TEST;

GST_START_TEST (test_mono_mixes_down)
{
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *pcm = make_pcm (44100, 2, 5);
  GstHarness *h;

  settings.mode = CT_MP3_MODE_MONO;
  h = check_stream ("mono=true", &settings, pcm, 44100, 1000);
  assert_output_caps (h, 44100, 1);
  gst_harness_teardown (h);
  g_free (pcm);
}

GST_END_TEST;

/* Each property against the lame setting it stands for. */
GST_START_TEST (test_properties_map_to_lame_flags)
{
  static const struct
  {
    const gchar *properties;
    ct_mp3_rate_control rate_control;
    gfloat vbr_quality;
    gint bitrate;
    gint quality;
    gboolean replaygain;
  } cases[] = {
    {"quality=2", CT_MP3_VBR, 2.0f, 0, -1, TRUE},
    {"quality=7.5", CT_MP3_VBR, 7.5f, 0, -1, TRUE},
    {"target=bitrate cbr=true bitrate=128", CT_MP3_CBR, 0, 128, -1, TRUE},
    {"target=bitrate bitrate=160", CT_MP3_ABR, 0, 160, -1, TRUE},
    {"target=bitrate cbr=true bitrate=8", CT_MP3_CBR, 0, 8, -1, TRUE},
    {"encoding-engine-quality=high", CT_MP3_VBR, 4.0f, 0, 2, TRUE},
    {"encoding-engine-quality=fast", CT_MP3_VBR, 4.0f, 0, 7, TRUE},
    {"replaygain=false", CT_MP3_VBR, 4.0f, 0, -1, FALSE},
    {"lametag=false", CT_MP3_VBR, 4.0f, 0, -1, TRUE},
  };
  gint16 *pcm = make_pcm (30000, 2, 9);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    ct_mp3_settings settings = default_settings (44100, 2);
    GstHarness *h;

    settings.rate_control = cases[i].rate_control;
    if (cases[i].rate_control == CT_MP3_VBR)
      settings.vbr_quality = cases[i].vbr_quality;
    else
      settings.bitrate = cases[i].bitrate;
    settings.quality = cases[i].quality;
    settings.replaygain = cases[i].replaygain;
    GST_INFO ("%s", cases[i].properties);
    h = check_stream (cases[i].properties, &settings, pcm, 30000, 1152);
    gst_harness_teardown (h);
  }
  g_free (pcm);
}

GST_END_TEST;

GST_START_TEST (test_defaults)
{
  GstElement *enc = gst_element_factory_make ("ctlameenc", NULL);
  gint target, bitrate, engine_quality, simd, threads;
  gfloat quality;
  gboolean cbr, mono, replaygain, lametag;

  g_object_get (enc, "target", &target, "quality", &quality, "bitrate",
      &bitrate, "cbr", &cbr, "encoding-engine-quality", &engine_quality,
      "mono", &mono, "replaygain", &replaygain, "lametag", &lametag,
      "simd", &simd, "threads", &threads, NULL);
  /* lamemp3enc's defaults; the lame CLI's for ReplayGain and the tag. */
  fail_unless_equals_int (target, 0);
  fail_unless (quality == 4.0f);
  fail_unless_equals_int (bitrate, 128);
  fail_unless (!cbr);
  fail_unless_equals_int (engine_quality, 1);
  fail_unless (!mono);
  fail_unless (replaygain);
  fail_unless (lametag);
  fail_unless_equals_int (simd, CT_SIMD_AUTO);
  fail_unless_equals_int (threads, 0);
  gst_object_unref (enc);
}

GST_END_TEST;

/* Every SIMD level, on one thread and on a pool, writes the bytes of the
 * library's default settings: the level changes the speed only. */
GST_START_TEST (test_simd_levels)
{
  static const struct
  {
    const gchar *nick;
    ct_simd simd;
  } levels[] = {
    {"auto", CT_SIMD_AUTO},
    {"c", CT_SIMD_C},
    {"sse2", CT_SIMD_SSE2},
    {"avx2", CT_SIMD_AVX2},
  };
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *pcm = make_pcm (30000, 2, 12);

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++) {
    for (gint threads = 1; threads <= 3; threads += 2) {
      gchar *properties = g_strdup_printf ("simd=%s threads=%d",
          levels[i].nick, threads);
      GstHarness *h;
      GstElement *enc;
      gint simd;

      GST_INFO ("%s", properties);
      h = check_stream (properties, &settings, pcm, 30000, 1152);
      enc = gst_harness_find_element (h, "ctlameenc");
      g_object_get (enc, "simd", &simd, NULL);
      fail_unless_equals_int (simd, levels[i].simd);
      gst_object_unref (enc);
      gst_harness_teardown (h);
      g_free (properties);
    }
  }
  g_free (pcm);
}

GST_END_TEST;

GST_START_TEST (test_state_changes)
{
  GstElement *enc = gst_element_factory_make ("ctlameenc", NULL);
  gint16 *pcm = make_pcm (5000, 2, 1);

  for (int i = 0; i < 10; i++) {
    fail_unless_equals_int (gst_element_set_state (enc, GST_STATE_PLAYING),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (enc, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (enc);

  /* With samples through each time, half of them torn down mid-stream:
   * the harness goes to PLAYING and back to NULL. */
  for (int i = 0; i < 10; i++) {
    GstHarness *h = gst_harness_new ("ctlameenc");

    gst_harness_set_src_caps (h, raw_caps (44100, 2));
    push_pcm (h, pcm, 5000, 44100, 2, 1000 + i);
    if (i % 2 == 0)
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    gst_harness_teardown (h);
  }
  g_free (pcm);
}

GST_END_TEST;

GST_START_TEST (test_flush_then_continue)
{
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *first = make_pcm (22050, 2, 2), *second = make_pcm (30000, 2, 3);
  library_output expected_first = library_encode (&settings, first, 22050);
  library_output expected_second = library_encode (&settings, second, 30000);
  GstHarness *h = gst_harness_new ("ctlameenc");
  GstSegment segment;
  GByteArray *got;
  guint num_buffers;

  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  push_pcm (h, first, 22050, 44100, 2, 2048);
  /* Before the flush: frames of the first stream, not all of them. */
  got = pull_stream (h, &num_buffers);
  fail_unless (num_buffers > 1);
  fail_unless (got->len < expected_first.stream->len);
  fail_unless (memcmp (got->data, expected_first.stream->data, got->len) == 0);
  g_byte_array_unref (got);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  /* After it: a new stream. */
  push_pcm (h, second, 30000, 44100, 2, 2048);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_stream (h, &num_buffers);
  assert_bytes_equal (got, expected_second.stream);
  g_byte_array_unref (got);

  gst_harness_teardown (h);
  library_output_clear (&expected_first);
  library_output_clear (&expected_second);
  g_free (first);
  g_free (second);
}

GST_END_TEST;

GST_START_TEST (test_eos_without_data)
{
  ct_mp3_settings settings = default_settings (48000, 2);
  library_output expected = library_encode (&settings, NULL, 0);
  GstHarness *h = gst_harness_new ("ctlameenc");
  GByteArray *got;
  GstEvent *event;
  gboolean got_eos = FALSE;
  guint num_buffers;

  /* Caps, then EOS: the base class has nothing to drain, nothing comes. */
  gst_harness_set_src_caps (h, raw_caps (48000, 2));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  while ((event = gst_harness_try_pull_event (h))) {
    got_eos |= GST_EVENT_TYPE (event) == GST_EVENT_EOS;
    gst_event_unref (event);
  }
  fail_unless (got_eos);
  gst_harness_teardown (h);

  /* An empty buffer starts a stream of no samples: what lame -t writes for
   * an empty WAV file (one frame). */
  h = gst_harness_new ("ctlameenc");
  gst_harness_set_src_caps (h, raw_caps (48000, 2));
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new ()),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_stream (h, &num_buffers);
  assert_bytes_equal (got, expected.stream);
  g_byte_array_unref (got);
  gst_harness_teardown (h);

  /* No caps either. */
  h = gst_harness_new ("ctlameenc");
  gst_harness_play (h);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_harness_teardown (h);
  library_output_clear (&expected);
}

GST_END_TEST;

/* New caps between streams: each stream is drained and encoded on its own,
 * with the output caps following. */
GST_START_TEST (test_renegotiation)
{
  static const gint formats[][2] = { {44100, 2}, {32000, 1}, {48000, 2},
  {48000, 1}
  };
  GstHarness *h = gst_harness_new ("ctlameenc");
  GByteArray *expected = g_byte_array_new (), *got;
  GstEvent *event;
  guint num_buffers, num_caps = 0;

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    gint rate = formats[i][0], channels = formats[i][1];
    ct_mp3_settings settings = default_settings (rate, channels);
    gsize frames = 20000 + 3000 * i;
    gint16 *pcm = make_pcm (frames, channels, 10 + i);
    library_output part = library_encode (&settings, pcm, frames);

    g_byte_array_append (expected, part.stream->data, part.stream->len);
    gst_harness_set_src_caps (h, raw_caps (rate, channels));
    push_pcm (h, pcm, frames, rate, channels, 3000);
    library_output_clear (&part);
    g_free (pcm);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_stream (h, &num_buffers);
  assert_bytes_equal (got, expected);
  assert_output_caps (h, 48000, 1);
  while ((event = gst_harness_try_pull_event (h))) {
    num_caps += GST_EVENT_TYPE (event) == GST_EVENT_CAPS;
    gst_event_unref (event);
  }
  fail_unless_equals_int (num_caps, G_N_ELEMENTS (formats));

  g_byte_array_unref (got);
  g_byte_array_unref (expected);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_short_streams)
{
  static const gsize lengths[] = { 1, 575, 1151, 1152, 1153, 2304 };

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++) {
    for (gint channels = 1; channels <= 2; channels++) {
      ct_mp3_settings settings = default_settings (44100, channels);
      gint16 *pcm = make_pcm (lengths[i], channels, i);
      GstHarness *h;

      GST_INFO ("%" G_GSIZE_FORMAT " samples, %d channel(s)", lengths[i],
          channels);
      h = check_stream ("", &settings, pcm, lengths[i], 1000);
      gst_harness_teardown (h);
      g_free (pcm);
    }
  }
}

GST_END_TEST;

/* The frames are timestamped where a decoder puts them, one frame of
 * samples each, from the first on (no tag frame into a harness). */
GST_START_TEST (test_timestamps)
{
  gint16 *pcm = make_pcm (88200, 2, 4);
  GstHarness *h = gst_harness_new ("ctlameenc");
  GstBuffer *buffer;
  guint64 frame = 0;

  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  push_pcm (h, pcm, 88200, 44100, 2, 1000);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  while ((buffer = gst_harness_try_pull (h))) {
    GstClockTime pts = gst_util_uint64_scale (frame * 1152, GST_SECOND,
        44100);
    GstClockTime end = gst_util_uint64_scale ((frame + 1) * 1152, GST_SECOND,
        44100);

    fail_if (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_HEADER));
    fail_unless_equals_uint64 (GST_BUFFER_PTS (buffer), pts);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (buffer), end - pts);
    gst_buffer_unref (buffer);
    frame++;
  }
  /* Every sample, the encoder delay and the padding. */
  fail_unless (frame * 1152 >= 88200 + 576);

  gst_harness_teardown (h);
  g_free (pcm);
}

GST_END_TEST;

/* Low VBR qualities make LAME resample: the caps say the output rate, and
 * the timestamps stay in input time without drifting. */
GST_START_TEST (test_resampling)
{
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *pcm = make_pcm (44100, 2, 6);
  library_output expected;
  GstHarness *h;
  GstBuffer *buffer;
  GstClockTime end = 0;
  guint64 audio_frames = 0;
  gint frame_samples;

  settings.vbr_quality = 9.0f;
  expected = library_encode (&settings, pcm, 44100);
  frame_samples = expected.output_rate >= 32000 ? 1152 : 576;
  h = check_stream ("quality=9", &settings, pcm, 44100, 4096);
  assert_output_caps (h, expected.output_rate, 2);
  gst_harness_teardown (h);

  h = gst_harness_new_parse ("ctlameenc quality=9");
  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  push_pcm (h, pcm, 44100, 44100, 2, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((buffer = gst_harness_try_pull (h))) {
    if (!GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_HEADER)) {
      fail_unless_equals_uint64 (GST_BUFFER_PTS (buffer), end);
      end = GST_BUFFER_PTS (buffer) + GST_BUFFER_DURATION (buffer);
      audio_frames++;
    }
    gst_buffer_unref (buffer);
  }
  /* Within an input sample of the output's own length. */
  fail_unless (ABS (GST_CLOCK_DIFF (gst_util_uint64_scale (audio_frames *
                  frame_samples, GST_SECOND, expected.output_rate),
              end)) <= GST_SECOND / 44100);
  gst_harness_teardown (h);

  library_output_clear (&expected);
  g_free (pcm);
}

GST_END_TEST;

/* CBR at 8 kbit/s: LAME resamples to 8 kHz and leaves the tag out, its
 * frame being too small; every buffer is then audio, from 0 on. */
GST_START_TEST (test_no_tag_when_it_does_not_fit)
{
  gint16 *pcm = make_pcm (44100, 2, 7);
  GstHarness *h =
      gst_harness_new_parse ("ctlameenc target=bitrate cbr=true bitrate=8");
  GstBuffer *buffer;
  GstClockTime end = 0;
  guint num_buffers = 0;

  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  push_pcm (h, pcm, 44100, 44100, 2, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((buffer = gst_harness_try_pull (h))) {
    fail_if (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_HEADER));
    fail_unless_equals_uint64 (GST_BUFFER_PTS (buffer), end);
    fail_unless (GST_BUFFER_DURATION (buffer) > 0);
    end += GST_BUFFER_DURATION (buffer);
    gst_buffer_unref (buffer);
    num_buffers++;
  }
  fail_unless (num_buffers > 0);
  fail_unless (end >= GST_SECOND);

  gst_harness_teardown (h);
  g_free (pcm);
}

GST_END_TEST;

static GstPadProbeReturn
answer_seekable (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info,
    G_GNUC_UNUSED gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstFormat format;

  if (GST_QUERY_TYPE (query) != GST_QUERY_SEEKING)
    return GST_PAD_PROBE_OK;
  gst_query_parse_seeking (query, &format, NULL, NULL, NULL);
  if (format != GST_FORMAT_BYTES)
    return GST_PAD_PROBE_OK;
  gst_query_set_seeking (query, GST_FORMAT_BYTES, TRUE, 0, -1);
  return GST_PAD_PROBE_HANDLED;
}

/* Downstream that can seek gets the tag frame first (no audio: at the time
 * of the first samples, lasting nothing), then a BYTES segment from 0 and
 * the final tag after the last frame: the file then has the library's
 * (lame's) bytes. */
GST_START_TEST (test_lametag_rewritten_when_seekable)
{
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *pcm = make_pcm (50000, 2, 8);
  library_output expected;
  GstHarness *h = gst_harness_new ("ctlameenc");
  GPtrArray *buffers = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  GByteArray *file = g_byte_array_new ();
  gsize expected_tag_size;
  const guint8 *expected_tag;
  GstBuffer *buffer, *tag;
  GstEvent *event;
  gboolean got_bytes_segment = FALSE;
  GstMapInfo map;

  settings.lametag = 1;
  expected = library_encode (&settings, pcm, 50000);
  expected_tag = g_bytes_get_data (expected.lametag, &expected_tag_size);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      answer_seekable, NULL, NULL);
  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  push_pcm (h, pcm, 50000, 44100, 2, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  while ((buffer = gst_harness_try_pull (h)))
    g_ptr_array_add (buffers, buffer);
  fail_unless_equals_int (buffers->len, expected.packet_sizes->len + 1);
  while ((event = gst_harness_try_pull_event (h))) {
    if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT) {
      const GstSegment *segment;

      gst_event_parse_segment (event, &segment);
      if (segment->format == GST_FORMAT_BYTES) {
        fail_unless_equals_uint64 (segment->start, 0);
        got_bytes_segment = TRUE;
      }
    }
    gst_event_unref (event);
  }
  fail_unless (got_bytes_segment);

  /* The tag says the delay and padding: no clipping meta. */
  for (guint i = 0; i < buffers->len; i++)
    fail_if (gst_buffer_get_audio_clipping_meta (g_ptr_array_index (buffers,
                i)));
  buffer = g_ptr_array_index (buffers, 0);
  fail_unless (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_HEADER));
  fail_unless_equals_uint64 (GST_BUFFER_PTS (buffer), 0);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (buffer), 0);
  /* The last buffer is the final tag, to go over the first. */
  tag = g_ptr_array_index (buffers, buffers->len - 1);
  fail_unless (GST_BUFFER_FLAG_IS_SET (tag, GST_BUFFER_FLAG_HEADER));
  fail_unless_equals_uint64 (GST_BUFFER_PTS (tag), 0);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (tag), 0);
  fail_unless (gst_buffer_map (tag, &map, GST_MAP_READ));
  fail_unless_equals_uint64 (map.size, expected_tag_size);
  fail_unless (memcmp (map.data, expected_tag, map.size) == 0);
  g_byte_array_append (file, map.data, map.size);
  gst_buffer_unmap (tag, &map);
  for (guint i = 1; i + 1 < buffers->len; i++) {
    buffer = g_ptr_array_index (buffers, i);
    fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
    g_byte_array_append (file, map.data, map.size);
    gst_buffer_unmap (buffer, &map);
  }
  memcpy (expected.stream->data, expected_tag, expected_tag_size);
  assert_bytes_equal (file, expected.stream);

  g_byte_array_unref (file);
  g_ptr_array_unref (buffers);
  gst_harness_teardown (h);
  library_output_clear (&expected);
  g_free (pcm);
}

GST_END_TEST;

/* lametag=false means no tag frame, even where downstream could seek. */
GST_START_TEST (test_no_tag_when_lametag_false)
{
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *pcm = make_pcm (30000, 2, 13);
  GstHarness *h = gst_harness_new_parse ("ctlameenc lametag=false");
  library_output expected = library_encode (&settings, pcm, 30000);
  GByteArray *got;
  guint num_buffers;

  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      answer_seekable, NULL, NULL);
  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  push_pcm (h, pcm, 30000, 44100, 2, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_stream (h, &num_buffers);
  assert_bytes_equal (got, expected.stream);

  g_byte_array_unref (got);
  gst_harness_teardown (h);
  library_output_clear (&expected);
  g_free (pcm);
}

GST_END_TEST;

/* A segment that stops at the last input sample goes downstream without
 * its stop, so that nothing drops the last frames (they start past it);
 * every byte comes out. */
GST_START_TEST (test_segment_stop_keeps_last_frames)
{
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *pcm = make_pcm (40000, 2, 14);
  library_output expected = library_encode (&settings, pcm, 40000);
  GstHarness *h = gst_harness_new ("ctlameenc");
  GstSegment segment;
  GstEvent *event;
  GByteArray *got;
  GstClockTime last_pts = 0;
  guint num_buffers, num_segments = 0;

  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.stop = gst_util_uint64_scale (40000, GST_SECOND, 44100);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  push_pcm (h, pcm, 40000, 44100, 2, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  while ((event = gst_harness_try_pull_event (h))) {
    if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT) {
      const GstSegment *out;

      gst_event_parse_segment (event, &out);
      fail_unless_equals_int (out->format, GST_FORMAT_TIME);
      fail_unless_equals_uint64 (out->stop, GST_CLOCK_TIME_NONE);
      num_segments++;
    }
    gst_event_unref (event);
  }
  fail_unless (num_segments > 0);
  got = g_byte_array_new ();
  num_buffers = 0;
  for (GstBuffer * buffer; (buffer = gst_harness_try_pull (h));) {
    GstMapInfo map;

    fail_unless (GST_BUFFER_PTS_IS_VALID (buffer));
    last_pts = GST_BUFFER_PTS (buffer);
    fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
    g_byte_array_append (got, map.data, map.size);
    gst_buffer_unmap (buffer, &map);
    gst_buffer_unref (buffer);
    num_buffers++;
  }
  assert_bytes_equal (got, expected.stream);
  fail_unless_equals_int (num_buffers, expected.packet_sizes->len);
  /* The case at hand: the last frame starts past the segment's stop. */
  fail_unless (last_pts > segment.stop);

  g_byte_array_unref (got);
  gst_harness_teardown (h);
  library_output_clear (&expected);
  g_free (pcm);
}

GST_END_TEST;

/* The latency reported through the element for 44.1 kHz input, and its
 * output. */
static GstClockTime
reported_latency (const gchar * launch, gboolean live, const gint16 * pcm,
    gsize frames, GByteArray ** stream)
{
  GstHarness *h = gst_harness_new_parse (launch);
  GstClockTime latency;
  guint num_buffers;

  gst_harness_set_live (h, live);
  gst_harness_set_src_caps (h, raw_caps (44100, 2));
  push_pcm (h, pcm, frames, 44100, 2, 4096);
  latency = gst_harness_query_latency (h);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  *stream = pull_stream (h, &num_buffers);
  gst_harness_teardown (h);
  return latency;
}

/* On a live source the ring holds live-frames-in-flight frames (4 by
 * default): within 4 frames of lamemp3enc's latency (a frame and the
 * encoder delay, about 170 ms in all at 44.1 kHz); the bytes stay the
 * library's. */
GST_START_TEST (test_live_latency)
{
  ct_mp3_settings settings = default_settings (44100, 2);
  gint16 *pcm = make_pcm (60000, 2, 15);
  library_output expected = library_encode (&settings, pcm, 60000);
  GstClockTime live, live_1;
  GByteArray *got;

  live = reported_latency ("ctlameenc threads=4", TRUE, pcm, 60000, &got);
  assert_bytes_equal (got, expected.stream);
  g_byte_array_unref (got);
  fail_unless_equals_uint64 (live, gst_util_uint64_scale (1152 + 576 +
          4 * 1152, GST_SECOND, 44100));
  fail_unless (live <= 170 * GST_MSECOND);

  live_1 = reported_latency ("ctlameenc threads=4 live-frames-in-flight=1",
      TRUE, pcm, 60000, &got);
  assert_bytes_equal (got, expected.stream);
  g_byte_array_unref (got);
  fail_unless_equals_uint64 (live_1, gst_util_uint64_scale (1152 + 576 +
          1152, GST_SECOND, 44100));

  /* Not live: the pool's ring (no latency to report then). */
  reported_latency ("ctlameenc threads=4", FALSE, pcm, 60000, &got);
  assert_bytes_equal (got, expected.stream);
  g_byte_array_unref (got);

  library_output_clear (&expected);
  g_free (pcm);
}

GST_END_TEST;

/* Without the tag, GstAudioClippingMeta says what a decoder drops: the
 * encoder delay (576) and the decoder delay (529) at the start, LAME's
 * padding at the end; what is left is the input, sample for sample (at
 * the output rate when LAME resamples). */
GST_START_TEST (test_gapless_clipping_meta)
{
  static const struct
  {
    const gchar *properties;
    gsize frames;
  } cases[] = {
    {"", 88200}, {"", 1}, {"", 1152}, {"", 30001}, {"quality=9", 44100},
    {"target=bitrate cbr=true bitrate=32", 20000},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gint16 *pcm = make_pcm (cases[i].frames, 2, 16 + i);
    gchar *launch = g_strdup_printf ("ctlameenc %s", cases[i].properties);
    GstHarness *h = gst_harness_new_parse (launch);
    GstCaps *caps;
    GstBuffer *buffer;
    guint64 decoded = 0, kept = 0, first_clip = 0;
    gint out_rate;

    gst_harness_set_src_caps (h, raw_caps (44100, 2));
    push_pcm (h, pcm, cases[i].frames, 44100, 2, 4096);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
            "rate", &out_rate));
    gst_caps_unref (caps);
    while ((buffer = gst_harness_try_pull (h))) {
      GstAudioClippingMeta *meta = gst_buffer_get_audio_clipping_meta (buffer);
      guint64 frame_samples = out_rate >= 32000 ? 1152 : 576;

      if (meta) {
        fail_unless_equals_int (meta->format, GST_FORMAT_DEFAULT);
        fail_unless (meta->start + meta->end <= frame_samples);
        if (decoded < 576 + 529)
          first_clip += meta->start;
        kept += frame_samples - meta->start - meta->end;
      } else {
        kept += frame_samples;
      }
      decoded += frame_samples;
      gst_buffer_unref (buffer);
    }
    GST_INFO ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " decoded "
        "samples kept", launch, kept, decoded);
    fail_unless_equals_uint64 (first_clip, 576 + 529);
    fail_unless_equals_uint64 (kept,
        gst_util_uint64_scale_int_round (cases[i].frames, out_rate, 44100));
    gst_harness_teardown (h);
    g_free (launch);
    g_free (pcm);
  }
}

GST_END_TEST;

/* A buffer whose samples start at an odd address is still read right. */
GST_START_TEST (test_misaligned_input)
{
  ct_mp3_settings settings = default_settings (32000, 1);
  gint16 *pcm = make_pcm (10000, 1, 12);
  library_output expected = library_encode (&settings, pcm, 10000);
  GstHarness *h = gst_harness_new ("ctlameenc");
  guint8 *bytes = g_malloc (10000 * 2 + 1);
  GstBuffer *in;
  GByteArray *got;
  guint num_buffers;

  memcpy (bytes + 1, pcm, 10000 * 2);
  in = gst_buffer_new_wrapped_full (0, bytes, 10000 * 2 + 1, 1, 10000 * 2,
      bytes, g_free);
  gst_harness_set_src_caps (h, raw_caps (32000, 1));
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_stream (h, &num_buffers);
  assert_bytes_equal (got, expected.stream);

  g_byte_array_unref (got);
  gst_harness_teardown (h);
  library_output_clear (&expected);
  g_free (pcm);
}

GST_END_TEST;

static Suite *
ctlameenc_suite (void)
{
  Suite *s = suite_create ("ctlameenc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_caps, 0, 2 * G_N_ELEMENTS (rates));
  tcase_add_loop_test (tc, test_formats_and_rates, 0,
      2 * G_N_ELEMENTS (formats) * G_N_ELEMENTS (all_rates));
  tcase_add_test (tc, test_mono_mixes_down);
  tcase_add_test (tc, test_properties_map_to_lame_flags);
  tcase_add_test (tc, test_defaults);
  tcase_add_test (tc, test_simd_levels);
  tcase_add_test (tc, test_state_changes);
  tcase_add_test (tc, test_flush_then_continue);
  tcase_add_test (tc, test_eos_without_data);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_short_streams);
  tcase_add_test (tc, test_timestamps);
  tcase_add_test (tc, test_resampling);
  tcase_add_test (tc, test_no_tag_when_it_does_not_fit);
  tcase_add_test (tc, test_lametag_rewritten_when_seekable);
  tcase_add_test (tc, test_no_tag_when_lametag_false);
  tcase_add_test (tc, test_segment_stop_keeps_last_frames);
  tcase_add_test (tc, test_live_latency);
  tcase_add_test (tc, test_gapless_clipping_meta);
  tcase_add_test (tc, test_misaligned_input);
  return s;
}

GST_CHECK_MAIN (ctlameenc);
