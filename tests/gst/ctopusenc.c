/*
 * ctopusenc element tests (GstHarness): every rate, sample format and
 * channel count against the library (ct_opus_* with the settings the
 * element builds), Ogg pages or Opus packets as downstream asks, each
 * property against the library's setting, the properties as gst-inspect
 * shows them, state changes, flush, EOS with no data, renegotiation (the
 * next serial number), tiny streams, timestamps and clipping meta, the
 * latency, tags as opusenc's comments, SILK and Hybrid streams, 3 to 10
 * channels (families 1 and 255, WAV's order in, Vorbis' to the library)
 * and misaligned input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/audio/audio.h>

#include "ctcore/opus.h"
#include "ctcore/runtime.h"

#define SERIAL 1234

/* A little-endian integer of `bytes` bytes at any address (GStreamer's
 * GST_READ_UINT*_LE load them as words, which UBSan reports unaligned). */
static guint64
read_le (const void *data, gint bytes)
{
  const guint8 *p = data;
  guint64 v = 0;

  for (gint i = bytes - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* ------------------------------------------------------------------ */
/* Signals and sample formats                                          */

/* Music-like (tones, a sweep and a little noise, what libopus codes with
 * CELT), different per seed and per channel, within +-0.6 of full scale. */
static gdouble *
make_music (gsize frames, gint channels, gint rate, guint32 seed)
{
  gdouble *v = g_new (gdouble, frames * channels + 1);
  guint32 s = seed * 2654435761u + 1;

  for (gsize i = 0; i < frames; i++) {
    gdouble t = (gdouble) i / rate;

    for (gint c = 0; c < channels; c++) {
      gdouble f1 = 220.0 * (1.0 + 0.5 * c) + seed, f2 = 0.061 * rate + 30 * c;
      gdouble sweep = 0.02 * rate + 0.05 * rate * t;

      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      v[i * channels + c] = 0.25 * sin (2 * G_PI * f1 * t) +
          0.12 * sin (2 * G_PI * f2 * t) + 0.08 * sin (2 * G_PI * sweep * t) +
          0.04 * ((gdouble) (s % 20001) / 10000.0 - 1.0);
    }
  }
  return v;
}

/* Speech-like: a 120 Hz glottal pulse train through two resonances, in
 * syllables of 200 ms. */
static gdouble *
make_speech (gsize frames, gint rate)
{
  gdouble *v = g_new0 (gdouble, frames + 1);
  gdouble y1 = 0, y2 = 0, z1 = 0, z2 = 0;
  gdouble r = exp (-G_PI * 100.0 / rate);
  gdouble a1 = 2 * r * cos (2 * G_PI * 700.0 / rate);
  gdouble b1 = 2 * r * cos (2 * G_PI * 1200.0 / rate);

  for (gsize i = 0; i < frames; i++) {
    gdouble x = (i % (gsize) (rate / 120)) == 0 ? 1.0 : 0.0;
    gdouble env = 0.5 - 0.5 * cos (2 * G_PI * 5.0 * i / rate);
    gdouble y = x + a1 * y1 - r * r * y2;
    gdouble z = y + b1 * z1 - r * r * z2;

    y2 = y1;
    y1 = y;
    z2 = z1;
    z1 = z;
    v[i] = CLAMP (0.02 * z * env, -0.9, 0.9);
  }
  return v;
}

static const GstAudioFormat formats[] = {
  GST_AUDIO_FORMAT_S16LE, GST_AUDIO_FORMAT_F32LE, GST_AUDIO_FORMAT_S24LE,
  GST_AUDIO_FORMAT_S32LE, GST_AUDIO_FORMAT_U8
};

static ct_opus_format
opus_format (GstAudioFormat format)
{
  switch (format) {
    case GST_AUDIO_FORMAT_F32LE:
      return CT_OPUS_F32;
    case GST_AUDIO_FORMAT_S24LE:
      return CT_OPUS_S24;
    case GST_AUDIO_FORMAT_S32LE:
      return CT_OPUS_S32;
    case GST_AUDIO_FORMAT_U8:
      return CT_OPUS_U8;
    default:
      return CT_OPUS_S16;
  }
}

static gint
sample_bytes (GstAudioFormat format)
{
  return GST_AUDIO_FORMAT_INFO_WIDTH (gst_audio_format_get_info (format)) / 8;
}

/* The samples in a format, as bytes (one spare byte at the end). */
static guint8 *
pcm_in_format (const gdouble * v, gsize samples, GstAudioFormat format)
{
  gint size = sample_bytes (format);
  guint8 *out = g_malloc0 (samples * size + 1);

  for (gsize i = 0; i < samples; i++) {
    guint8 *p = out + i * size;

    switch (format) {
      case GST_AUDIO_FORMAT_S16LE:{
        gint16 x = (gint16) lrint (v[i] * 32767.0);
        memcpy (p, &x, 2);
        break;
      }
      case GST_AUDIO_FORMAT_F32LE:{
        gfloat x = (gfloat) v[i];
        memcpy (p, &x, 4);
        break;
      }
      case GST_AUDIO_FORMAT_S24LE:{
        gint32 x = (gint32) lrint (v[i] * 8388607.0);
        p[0] = (guint8) x;
        p[1] = (guint8) (x >> 8);
        p[2] = (guint8) (x >> 16);
        break;
      }
      case GST_AUDIO_FORMAT_S32LE:{
        gint32 x = (gint32) lrint (v[i] * 2147483000.0);
        memcpy (p, &x, 4);
        break;
      }
      default:
        p[0] = (guint8) (128 + lrint (v[i] * 127.0));
        break;
    }
  }
  return out;
}

static GstCaps *
raw_caps (GstAudioFormat format, gint rate, gint channels)
{
  GstAudioInfo info;

  gst_audio_info_set_format (&info, format, rate, channels, NULL);
  return gst_audio_info_to_caps (&info);
}

/* ------------------------------------------------------------------ */
/* The library                                                         */

/* The settings the element builds from its default properties with
 * serial=N: opusenc's defaults, the ENCODER_OPTIONS of the settings with
 * the serial, no comments; finish_settings() sets the options once every
 * field is in. */
typedef struct element_settings
{
  ct_opus_settings s;
  char options[512];
} element_settings;

static void
settings_init (element_settings * es, gint rate, gint channels,
    guint32 serial)
{
  ct_opus_settings_default (&es->s);
  es->s.sample_rate = rate;
  es->s.channels = channels;
  es->s.serial = serial;
}

static const ct_opus_settings *
finish_settings (element_settings * es, gboolean with_serial)
{
  ct_opus_encoder_options (&es->s, with_serial, es->options,
      sizeof (es->options));
  es->s.encoder_options = es->options;
  return &es->s;
}

/* What the library gives: every page or packet (headers included), in
 * order, each as GBytes, and the first error it returned. */
typedef struct library_output
{
  GPtrArray *units;
  GArray *granules;             /* gint64 per unit */
  gint preskip, delay;
  int error;
  gchar *message;
} library_output;

static gboolean
receive_all (ct_opus_encoder * encoder, library_output * out)
{
  ct_opus_packet packet;
  int r;

  while ((r = ct_opus_receive (encoder, &packet)) == CT_OK) {
    g_ptr_array_add (out->units, g_bytes_new (packet.data, packet.size));
    g_array_append_val (out->granules, packet.granule);
  }
  if (r == CT_EAGAIN || r == CT_EOF)
    return TRUE;
  out->error = r;
  out->message = g_strdup (ct_opus_encoder_error (encoder));
  return FALSE;
}

static library_output
library_encode (const ct_opus_settings * settings, const guint8 * pcm,
    ct_opus_format format, gsize frames, gsize chunk)
{
  static const gint sizes[] = { 2, 4, 3, 4, 1 };
  library_output out = { g_ptr_array_new_with_free_func (
        (GDestroyNotify) g_bytes_unref), g_array_new (FALSE, FALSE,
        sizeof (gint64)), 0, 0, CT_OK, NULL
  };
  gsize bpf = (gsize) sizes[format] * settings->channels;
  ct_opus_encoder *encoder = NULL;
  char err[256] = "";
  int r;

  r = ct_opus_encoder_new (NULL, settings, &encoder, err, sizeof (err));
  fail_unless (r == CT_OK, "ct_opus_encoder_new: %s", err);
  out.preskip = ct_opus_encoder_preskip (encoder);
  out.delay = ct_opus_encoder_delay (encoder);
  for (gsize done = 0; done < frames;) {
    gsize n = MIN (frames - done, chunk);

    r = ct_opus_send_samples (encoder, pcm + done * bpf, format, n);
    if (r != CT_OK) {
      out.error = r;
      out.message = g_strdup (ct_opus_encoder_error (encoder));
      break;
    }
    if (!receive_all (encoder, &out))
      break;
    done += n;
  }
  if (out.error == CT_OK) {
    r = ct_opus_drain (encoder);
    if (r != CT_OK) {
      out.error = r;
      out.message = g_strdup (ct_opus_encoder_error (encoder));
    } else {
      receive_all (encoder, &out);
    }
  }
  ct_opus_encoder_free (encoder);
  return out;
}

static void
library_output_clear (library_output * out)
{
  g_ptr_array_unref (out->units);
  g_array_unref (out->granules);
  g_free (out->message);
}

static void
assert_library_ok (const library_output * out)
{
  fail_unless (out->error == CT_OK, "the library failed: %s (%s)",
      ct_strerror (out->error), out->message ? out->message : "");
}

/* ------------------------------------------------------------------ */
/* The element                                                         */

/* Pushes the samples in buffers of `chunk` frames, timestamped from
 * `start`. */
static void
push_pcm_at (GstHarness * h, const guint8 * pcm, gsize bpf, gsize frames,
    gint rate, gsize chunk, GstClockTime start)
{
  for (gsize done = 0; done < frames;) {
    gsize n = MIN (frames - done, chunk);
    GstBuffer *in = gst_buffer_new_memdup (pcm + done * bpf, n * bpf);

    GST_BUFFER_PTS (in) = start + gst_util_uint64_scale (done, GST_SECOND,
        rate);
    GST_BUFFER_DURATION (in) = start + gst_util_uint64_scale (done + n,
        GST_SECOND, rate) - GST_BUFFER_PTS (in);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    done += n;
  }
}

/* The same from 0. */
static void
push_pcm (GstHarness * h, const guint8 * pcm, gsize bpf, gsize frames,
    gint rate, gsize chunk)
{
  push_pcm_at (h, pcm, bpf, frames, rate, chunk, 0);
}

static GPtrArray *
pull_all (GstHarness * h)
{
  GPtrArray *buffers =
      g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  GstBuffer *buffer;

  while ((buffer = gst_harness_try_pull (h)))
    g_ptr_array_add (buffers, buffer);
  return buffers;
}

static gboolean
buffer_equals (GstBuffer * buffer, GBytes * bytes)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  GstMapInfo map;
  gboolean same;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  same = map.size == size && memcmp (map.data, data, size) == 0;
  gst_buffer_unmap (buffer, &map);
  return same;
}

/* The buffers are the library's units after the first `skip`, one for
 * one: its pages (skip 0), or its packets after OpusHead and OpusTags
 * (skip 2), which go in the caps only. (fail_unless_equals_int declares
 * "first" and "second".) */
static void
assert_units_equal (GPtrArray * buffers, GPtrArray * units, guint skip)
{
  fail_unless_equals_int (buffers->len, units->len - skip);
  for (guint i = skip; i < units->len; i++)
    fail_unless (buffer_equals (g_ptr_array_index (buffers, i - skip),
            g_ptr_array_index (units, i)), "unit %u of %u differs from the "
        "library's", i, units->len);
}

/* The headers of the caps' streamheader: the library's OpusHead and
 * OpusTags. */
static void
assert_streamheader (GstCaps * caps, GPtrArray * units)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  const GValue *headers = gst_structure_get_value (s, "streamheader");

  fail_unless (headers && GST_VALUE_HOLDS_ARRAY (headers));
  fail_unless_equals_int (gst_value_array_get_size (headers), 2);
  for (guint i = 0; i < 2; i++)
    fail_unless (buffer_equals (gst_value_get_buffer
            (gst_value_array_get_value (headers, i)),
            g_ptr_array_index (units, i)), "streamheader %u is not the "
        "library's", i);
}

/* Runs `frames` frames of `bpf` bytes through "ctopusenc PROPERTIES" with
 * the src caps (taken) to EOS, with no error on the bus (sink caps: NULL
 * = any); returns what came out. */
static GPtrArray *
element_encode_caps (const gchar * properties, const gchar * sink_caps,
    GstCaps * src_caps, gint rate, gsize bpf, const guint8 * pcm,
    gsize frames, gsize chunk, GstHarness ** harness)
{
  gchar *launch = g_strdup_printf ("ctopusenc %s", properties);
  GstHarness *h = gst_harness_new_parse (launch);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GPtrArray *buffers;

  gst_element_set_bus (h->element, bus);
  if (sink_caps)
    gst_harness_set_sink_caps_str (h, sink_caps);
  gst_harness_set_src_caps (h, src_caps);
  push_pcm (h, pcm, bpf, frames, rate, chunk);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  buffers = pull_all (h);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    GError *error;
    gchar *debug;

    gst_message_parse_error (msg, &error, &debug);
    fail_unless (FALSE, "%s: error %s (%s)", launch, error->message, debug);
  }
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  g_free (launch);
  if (harness)
    *harness = h;
  else
    gst_harness_teardown (h);
  return buffers;
}

/* The same for the raw caps of the format, rate and channels. */
static GPtrArray *
element_encode (const gchar * properties, const gchar * sink_caps,
    GstAudioFormat format, gint rate, gint channels, const guint8 * pcm,
    gsize frames, gsize chunk, GstHarness ** harness)
{
  return element_encode_caps (properties, sink_caps, raw_caps (format, rate,
          channels), rate, (gsize) sample_bytes (format) * channels, pcm,
      frames, chunk, harness);
}

/* The element's Ogg output with `properties` equals the library's for
 * `settings`. */
static void
check_ogg (const gchar * properties, const ct_opus_settings * settings,
    GstAudioFormat format, const guint8 * pcm, gsize frames, gsize chunk)
{
  library_output expected = library_encode (settings, pcm,
      opus_format (format), frames, 4096);
  GPtrArray *got;

  assert_library_ok (&expected);
  got = element_encode (properties, NULL, format, settings->sample_rate,
      settings->channels, pcm, frames, chunk, NULL);
  assert_units_equal (got, expected.units, 0);
  g_ptr_array_unref (got);
  library_output_clear (&expected);
}

static gint
page_serial (GstBuffer * buffer)
{
  guint8 b[4];

  fail_unless_equals_int (gst_buffer_extract (buffer, 14, b, 4), 4);
  return (gint) read_le (b, 4);
}

static void
assert_is_page (GstBuffer * buffer)
{
  guint8 b[27];
  gsize size = gst_buffer_get_size (buffer), body = 0;

  fail_unless (size >= 27);
  gst_buffer_extract (buffer, 0, b, 27);
  fail_unless (memcmp (b, "OggS", 4) == 0);
  fail_unless (size >= 27u + b[26]);
  for (gint i = 0; i < b[26]; i++) {
    guint8 lace;

    gst_buffer_extract (buffer, 27 + i, &lace, 1);
    body += lace;
  }
  fail_unless_equals_uint64 (size, 27u + b[26] + body);
}

/* ------------------------------------------------------------------ */
/* Caps                                                                */

static const gint rates[] = {
  8000, 11025, 16000, 22050, 32000, 44100, 48000, 96000, 192000
};

/* The bitrate that keeps the music in CELT: opusenc's default at 44.1 kHz
 * and more, 64 kb/s per channel below (opusenc's default there, 25 to
 * 73 kb/s, makes libopus pick SILK or Hybrid for some). */
static gint
celt_bitrate (gint rate, gint channels)
{
  return rate < 44100 ? 64000 * channels : 0;
}

/* Downstream that takes application/ogg gets Ogg pages, even where it
 * would take packets too; audio/x-opus alone gives packets. */
GST_START_TEST (test_ogg_preferred)
{
  static const struct
  {
    const gchar *sink_caps;
    const gchar *out;
  } cases[] = {
    {"audio/x-opus; application/ogg", "application/ogg"},
    {"application/ogg", "application/ogg"},
    {"audio/x-opus, channel-mapping-family=(int)0", "audio/x-opus"},
  };
  const gsize frames = 5000;
  gdouble *v = make_music (frames, 2, 48000, 1);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h;
    GPtrArray *got = element_encode ("serial=1", cases[i].sink_caps,
        GST_AUDIO_FORMAT_S16LE, 48000, 2, pcm, frames, 1000, &h);
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

    fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 0),
            cases[i].out), "%s: %" GST_PTR_FORMAT, cases[i].sink_caps, caps);
    fail_unless (got->len >= 3);
    gst_caps_unref (caps);
    g_ptr_array_unref (got);
    gst_harness_teardown (h);
  }
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

/* Every rate x format x channel count: the element's Ogg pages are the
 * library's, one buffer per page; the caps are application/ogg. */
GST_START_TEST (test_caps_formats_rates)
{
  gint rate = rates[__i__ / 10];
  GstAudioFormat format = formats[__i__ / 2 % 5];
  gint channels = 1 + __i__ % 2;
  gsize frames = rate / 4 + 123;
  gdouble *v = make_music (frames, channels, rate, __i__);
  guint8 *pcm = pcm_in_format (v, frames * channels, format);
  gint bitrate = celt_bitrate (rate, channels);
  gchar *properties = g_strdup_printf ("serial=%d bitrate=%d", SERIAL,
      bitrate);
  element_settings es;
  library_output expected;
  GstHarness *h;
  GPtrArray *got;
  GstCaps *caps;

  GST_INFO ("%d Hz, %s, %d channel(s)", rate, gst_audio_format_to_string
      (format), channels);
  settings_init (&es, rate, channels, SERIAL);
  es.s.bitrate = bitrate;
  expected = library_encode (finish_settings (&es, TRUE), pcm,
      opus_format (format), frames, 4096);
  assert_library_ok (&expected);
  got = element_encode (properties, NULL, format, rate, channels, pcm,
      frames, 1000 + __i__, &h);
  assert_units_equal (got, expected.units, 0);
  for (guint i = 0; i < got->len; i++) {
    GstBuffer *b = g_ptr_array_index (got, i);

    assert_is_page (b);
    fail_unless_equals_int (page_serial (b), SERIAL);
    /* The first two pages are OpusHead and OpusTags. */
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (b,
            GST_BUFFER_FLAG_HEADER), i < 2);
  }
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "application/ogg"));
  gst_caps_unref (caps);

  gst_harness_teardown (h);
  g_ptr_array_unref (got);
  library_output_clear (&expected);
  g_free (properties);
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

/* Downstream that asks for audio/x-opus gets the library's packets: the
 * caps with OpusHead and OpusTags as streamheader (family 0, the input's
 * rate and channels), then one buffer per audio packet; no header in the
 * stream (as GStreamer's opusenc: mp4mux refuses buffers without PTS). */
GST_START_TEST (test_packets_for_audio_x_opus)
{
  static const struct
  {
    gint rate, channels;
    const gchar *sink_caps;
  } cases[] = {
    {48000, 2, "audio/x-opus"},
    {44100, 1, "audio/x-opus"},
    {16000, 2, "audio/x-opus, channel-mapping-family=(int)0"},
    {96000, 1, "audio/x-opus, channels=(int)1"},
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    gint rate = cases[k].rate, channels = cases[k].channels;
    gsize frames = rate / 2;
    gdouble *v = make_music (frames, channels, rate, k);
    guint8 *pcm = pcm_in_format (v, frames * channels,
        GST_AUDIO_FORMAT_S16LE);
    gchar *properties = g_strdup_printf ("serial=%d bitrate=%d", SERIAL,
        celt_bitrate (rate, channels));
    element_settings es;
    library_output expected;
    GstHarness *h;
    GPtrArray *got;
    GstCaps *caps;
    GstStructure *s;
    const GValue *headers;
    gint value;

    settings_init (&es, rate, channels, SERIAL);
    es.s.bitrate = celt_bitrate (rate, channels);
    es.s.output = CT_OPUS_OUTPUT_PACKETS;
    expected = library_encode (finish_settings (&es, TRUE), pcm, CT_OPUS_S16,
        frames, 4096);
    assert_library_ok (&expected);
    got = element_encode (properties, cases[k].sink_caps,
        GST_AUDIO_FORMAT_S16LE, rate, channels, pcm, frames, 2048, &h);
    assert_units_equal (got, expected.units, 2);
    for (guint i = 0; i < got->len; i++)
      fail_if (GST_BUFFER_FLAG_IS_SET (g_ptr_array_index (got, i),
              GST_BUFFER_FLAG_HEADER));

    caps = gst_pad_get_current_caps (h->sinkpad);
    s = gst_caps_get_structure (caps, 0);
    fail_unless (gst_structure_has_name (s, "audio/x-opus"));
    fail_unless (gst_structure_get_int (s, "channel-mapping-family", &value));
    fail_unless_equals_int (value, 0);
    fail_unless (gst_structure_get_int (s, "channels", &value));
    fail_unless_equals_int (value, channels);
    fail_unless (gst_structure_get_int (s, "rate", &value));
    fail_unless_equals_int (value, rate);
    assert_streamheader (caps, expected.units);
    headers = gst_structure_get_value (s, "streamheader");
    {
      guint8 magic[8];

      gst_buffer_extract (gst_value_get_buffer (gst_value_array_get_value
              (headers, 0)), 0, magic, 8);
      fail_unless (memcmp (magic, "OpusHead", 8) == 0);
      gst_buffer_extract (gst_value_get_buffer (gst_value_array_get_value
              (headers, 1)), 0, magic, 8);
      fail_unless (memcmp (magic, "OpusTags", 8) == 0);
    }
    gst_caps_unref (caps);

    gst_harness_teardown (h);
    g_ptr_array_unref (got);
    library_output_clear (&expected);
    g_free (properties);
    g_free (pcm);
    g_free (v);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Properties                                                          */

typedef struct property_case
{
  const gchar *properties;
  gint bitrate;
  ct_opus_bitrate_type bitrate_type;
  gint complexity;
  gint frame_size;              /* 48 kHz samples */
  ct_opus_signal signal;
  gint loss;
  gint max_delay;
  gboolean audio_changes;       /* the packets differ from the default's */
} property_case;

static void
apply_case (element_settings * es, const property_case * c)
{
  es->s.bitrate = c->bitrate;
  es->s.bitrate_type = c->bitrate_type;
  es->s.complexity = c->complexity;
  es->s.frame_size = c->frame_size;
  es->s.signal = c->signal;
  es->s.packet_loss_percentage = c->loss;
  es->s.max_delay_ms = c->max_delay;
}

/* The audio packets (no headers) of the library for the settings. */
static library_output
library_packets (element_settings * es, const guint8 * pcm, gsize frames)
{
  es->s.output = CT_OPUS_OUTPUT_PACKETS;
  return library_encode (finish_settings (es, TRUE), pcm, CT_OPUS_S16,
      frames, 4096);
}

static gboolean
same_packets (const library_output * a, const library_output * b)
{
  if (a->units->len != b->units->len)
    return FALSE;
  /* From 2: OpusTags holds ENCODER_OPTIONS, which differ anyway. */
  for (guint i = 2; i < a->units->len; i++)
    if (!g_bytes_equal (g_ptr_array_index (a->units, i),
            g_ptr_array_index (b->units, i)))
      return FALSE;
  return TRUE;
}

/* Each property gives the library's bytes for the opusenc setting it
 * stands for (ENCODER_OPTIONS included), and changes the packets where the
 * setting changes them (max-delay: the pages only; threads: nothing). */
GST_START_TEST (test_properties)
{
  static const property_case cases[] = {
    {"", 0, CT_OPUS_VBR, 10, 960, CT_OPUS_SIGNAL_AUTO, 0, 1000, FALSE},
    {"bitrate=128000", 128000, CT_OPUS_VBR, 10, 960, 0, 0, 1000, TRUE},
    {"bitrate=64000", 64000, CT_OPUS_VBR, 10, 960, 0, 0, 1000, TRUE},
    {"bitrate=512000", 512000, CT_OPUS_VBR, 10, 960, 0, 0, 1000, TRUE},
    {"bitrate-type=constrained-vbr", 0, CT_OPUS_CVBR, 10, 960, 0, 0, 1000,
        TRUE},
    {"bitrate-type=cbr", 0, CT_OPUS_CBR, 10, 960, 0, 0, 1000, TRUE},
    {"complexity=5", 0, CT_OPUS_VBR, 5, 960, 0, 0, 1000, TRUE},
    {"complexity=0", 0, CT_OPUS_VBR, 0, 960, 0, 0, 1000, TRUE},
    {"frame-size=2.5", 0, CT_OPUS_VBR, 10, 120, 0, 0, 1000, TRUE},
    {"frame-size=5", 0, CT_OPUS_VBR, 10, 240, 0, 0, 1000, TRUE},
    {"frame-size=10", 0, CT_OPUS_VBR, 10, 480, 0, 0, 1000, TRUE},
    {"frame-size=40", 0, CT_OPUS_VBR, 10, 1920, 0, 0, 1000, TRUE},
    {"frame-size=60", 0, CT_OPUS_VBR, 10, 2880, 0, 0, 1000, TRUE},
    /* The analysis takes this signal for music already. */
    {"signal=music", 0, CT_OPUS_VBR, 10, 960, CT_OPUS_SIGNAL_MUSIC, 0, 1000,
        FALSE},
    {"packet-loss-percentage=20", 0, CT_OPUS_VBR, 10, 960, 0, 20, 1000, TRUE},
    {"max-delay=100", 0, CT_OPUS_VBR, 10, 960, 0, 0, 100, FALSE},
    {"max-delay=0", 0, CT_OPUS_VBR, 10, 960, 0, 0, 0, FALSE},
    /* The pool: the same bytes, on one thread or three. */
    {"threads=1", 0, CT_OPUS_VBR, 10, 960, 0, 0, 1000, FALSE},
    {"threads=3", 0, CT_OPUS_VBR, 10, 960, 0, 0, 1000, FALSE},
    {"bitrate=160000 bitrate-type=cbr complexity=3 frame-size=40 "
          "signal=music packet-loss-percentage=5 max-delay=500", 160000,
        CT_OPUS_CBR, 3, 1920, CT_OPUS_SIGNAL_MUSIC, 5, 500, TRUE},
  };
  const gsize frames = 48000 * 3 / 2;
  gdouble *v = make_music (frames, 2, 48000, 77);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
  element_settings es;
  library_output defaults;

  settings_init (&es, 48000, 2, SERIAL);
  defaults = library_packets (&es, pcm, frames);
  assert_library_ok (&defaults);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *properties = g_strdup_printf ("serial=%d %s", SERIAL,
        cases[i].properties);
    library_output packets;

    GST_INFO ("%s", properties);
    settings_init (&es, 48000, 2, SERIAL);
    apply_case (&es, &cases[i]);
    check_ogg (properties, finish_settings (&es, TRUE),
        GST_AUDIO_FORMAT_S16LE, pcm, frames, 960 + i);
    packets = library_packets (&es, pcm, frames);
    assert_library_ok (&packets);
    fail_unless ((!same_packets (&packets, &defaults)) ==
        cases[i].audio_changes, "%s: the packets %s the default's",
        cases[i].properties, cases[i].audio_changes ? "are" : "are not");
    library_output_clear (&packets);
    g_free (properties);
  }

  /* signal=voice on mono music at 64 kb/s: still CELT, other packets. */
  {
    gdouble *m = make_music (frames, 1, 48000, 78);
    guint8 *mono = pcm_in_format (m, frames, GST_AUDIO_FORMAT_S16LE);

    settings_init (&es, 48000, 1, SERIAL);
    es.s.bitrate = 96000;
    es.s.signal = CT_OPUS_SIGNAL_VOICE;
    check_ogg ("serial=1234 bitrate=96000 signal=voice",
        finish_settings (&es, TRUE), GST_AUDIO_FORMAT_S16LE, mono, frames,
        4096);
    g_free (mono);
    g_free (m);
  }

  library_output_clear (&defaults);
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

/* Properties set while a stream runs apply from the next stream (new
 * caps): the running one keeps its settings and serial; the next takes
 * the new bitrate and the new serial (not the old one + 1). */
GST_START_TEST (test_properties_mid_stream)
{
  const gsize frames = 30000;
  gdouble *v = make_music (frames, 2, 48000, 60);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
  gdouble *v2 = make_music (frames, 2, 44100, 61);
  guint8 *pcm2 = pcm_in_format (v2, frames * 2, GST_AUDIO_FORMAT_S16LE);
  GstHarness *h = gst_harness_new_parse ("ctopusenc serial=20");
  GstElement *enc = gst_harness_find_element (h, "ctopusenc");
  GPtrArray *expected =
      g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  element_settings es;
  library_output part;
  GPtrArray *got;

  settings_init (&es, 48000, 2, 20);
  part = library_encode (finish_settings (&es, TRUE), pcm, CT_OPUS_S16,
      frames, 4096);
  assert_library_ok (&part);
  for (guint k = 0; k < part.units->len; k++)
    g_ptr_array_add (expected, g_bytes_ref (g_ptr_array_index (part.units,
                k)));
  library_output_clear (&part);
  settings_init (&es, 44100, 2, 50);
  es.s.bitrate = 128000;
  part = library_encode (finish_settings (&es, TRUE), pcm2, CT_OPUS_S16,
      frames, 4096);
  assert_library_ok (&part);
  for (guint k = 0; k < part.units->len; k++)
    g_ptr_array_add (expected, g_bytes_ref (g_ptr_array_index (part.units,
                k)));
  library_output_clear (&part);

  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 2));
  push_pcm (h, pcm, 4, 10000, 48000, 2000);
  g_object_set (enc, "bitrate", 128000, "serial", 50, NULL);
  push_pcm (h, pcm + 40000, 4, frames - 10000, 48000, 2000);
  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 44100, 2));
  push_pcm (h, pcm2, 4, frames, 44100, 2000);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, expected, 0);

  g_ptr_array_unref (got);
  g_ptr_array_unref (expected);
  gst_object_unref (enc);
  gst_harness_teardown (h);
  g_free (pcm);
  g_free (pcm2);
  g_free (v);
  g_free (v2);
}

GST_END_TEST;

/* serial=-1: a random serial, and no --serial in ENCODER_OPTIONS, as
 * opusenc without --serial; two streams in a row take different serials.
 * With the serial read back from the pages, the library's bytes. */
GST_START_TEST (test_random_serial)
{
  const gsize frames = 20000;
  gdouble *v = make_music (frames, 2, 48000, 3);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
  gint serials[2];

  for (gint run = 0; run < 2; run++) {
    GPtrArray *got = element_encode ("", NULL, GST_AUDIO_FORMAT_S16LE, 48000,
        2, pcm, frames, 4096, NULL);
    element_settings es;
    library_output expected;

    fail_unless (got->len > 2);
    serials[run] = page_serial (g_ptr_array_index (got, 0));
    settings_init (&es, 48000, 2, (guint32) serials[run]);
    expected = library_encode (finish_settings (&es, FALSE), pcm, CT_OPUS_S16,
        frames, 4096);
    assert_library_ok (&expected);
    assert_units_equal (got, expected.units, 0);
    library_output_clear (&expected);
    g_ptr_array_unref (got);
  }
  fail_if (serials[0] == serials[1]);
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

/* A bitrate opusenc refuses (below 500 bit/s): an error message, no
 * crash, no output. */
GST_START_TEST (test_bitrate_too_low)
{
  const gsize frames = 4800;
  gdouble *v = make_music (frames, 2, 48000, 4);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
  GstHarness *h = gst_harness_new_parse ("ctopusenc bitrate=100 serial=1");
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GstBuffer *in = gst_buffer_new_memdup (pcm, frames * 4);

  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 2));
  fail_if (gst_harness_push (h, in) == GST_FLOW_OK);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  {
    GError *error;
    gchar *debug;

    gst_message_parse_error (msg, &error, &debug);
    GST_INFO ("error: %s (%s)", error->message, debug);
    g_error_free (error);
    g_free (debug);
  }
  gst_message_unref (msg);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

static GParamSpec *
find_property (GstElement * enc, const gchar * name)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (enc), name);

  fail_unless (pspec != NULL, "no property %s", name);
  return pspec;
}

static void
assert_int_property (GstElement * enc, const gchar * name, gint min,
    gint max, gint def)
{
  GParamSpecInt *p = G_PARAM_SPEC_INT (find_property (enc, name));
  gint value;

  fail_unless_equals_int (p->minimum, min);
  fail_unless_equals_int (p->maximum, max);
  fail_unless_equals_int (p->default_value, def);
  g_object_get (enc, name, &value, NULL);
  fail_unless_equals_int (value, def);
}

/* nicks in order, the default's nick. */
static void
assert_enum_property (GstElement * enc, const gchar * name,
    const gchar * const *nicks, const gchar * def)
{
  GParamSpecEnum *p = G_PARAM_SPEC_ENUM (find_property (enc, name));
  GEnumValue *dv = g_enum_get_value (p->enum_class, p->default_value);
  guint n = 0;
  gint value;

  for (; nicks[n]; n++) {
    GEnumValue *ev = g_enum_get_value_by_nick (p->enum_class, nicks[n]);

    fail_unless (ev != NULL, "%s: no value %s", name, nicks[n]);
    fail_unless (ev->value_name && ev->value_name[0]);
  }
  fail_unless_equals_int (p->enum_class->n_values, n);
  fail_unless (dv != NULL);
  fail_unless_equals_string (dv->value_nick, def);
  g_object_get (enc, name, &value, NULL);
  fail_unless_equals_int (value, p->default_value);
}

/* What gst-inspect shows: every property has a nick and a blurb, is
 * readable and writable, and has the range and default its blurb and the
 * documentation give (opusenc's). */
GST_START_TEST (test_property_specs)
{
  static const gchar *const bitrate_types[] =
      { "vbr", "constrained-vbr", "cbr", NULL };
  static const gchar *const frame_sizes[] =
      { "2.5", "5", "10", "20", "40", "60", NULL };
  static const gchar *const signals[] = { "auto", "music", "voice", NULL };
  static const gchar *const expected[] = {
    "bitrate", "bitrate-type", "complexity", "frame-size", "signal",
    "packet-loss-percentage", "max-delay", "serial", "threads",
  };
  GstElement *enc = gst_element_factory_make ("ctopusenc", NULL);
  GstElementFactory *factory = gst_element_get_factory (enc);
  guint n;
  GParamSpec **specs =
      g_object_class_list_properties (G_OBJECT_GET_CLASS (enc), &n);
  guint own = 0;

  for (guint i = 0; i < n; i++) {
    const gchar *blurb = g_param_spec_get_blurb (specs[i]);

    fail_unless (blurb && strlen (blurb) > 8, "%s has no blurb",
        specs[i]->name);
    fail_unless (g_param_spec_get_nick (specs[i])[0]);
    if (specs[i]->owner_type != G_TYPE_FROM_INSTANCE (enc))
      continue;
    own++;
    fail_unless ((specs[i]->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE,
        "%s", specs[i]->name);
  }
  g_free (specs);
  fail_unless_equals_int (own, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    find_property (enc, expected[i]);

  /* opusenc clamps to 256 kb/s per channel, for up to 255 channels. */
  assert_int_property (enc, "bitrate", 0, 256000 * 255, 0);
  fail_unless_equals_string (g_param_spec_get_blurb (find_property (enc,
              "bitrate")), "Bitrate in bit/s (opusenc --bitrate, in kbit/s "
      "there): 0 = opusenc's default for the channels and rate (96000 for "
      "stereo, 64000 for mono at 44.1 and 48 kHz, 64000 per stream and "
      "32000 more per coupled stream for surround); from 500, clamped to "
      "256000 per channel as opusenc does");
  assert_int_property (enc, "complexity", 0, 10, 10);
  assert_int_property (enc, "packet-loss-percentage", 0, 100, 0);
  assert_int_property (enc, "max-delay", 0, 1000, 1000);
  assert_int_property (enc, "serial", -1, G_MAXINT32, -1);
  {
    gint threads;

    g_object_get (enc, "threads", &threads, NULL);
    fail_unless_equals_int (threads, 0);
  }
  assert_enum_property (enc, "bitrate-type", bitrate_types, "vbr");
  assert_enum_property (enc, "frame-size", frame_sizes, "20");
  assert_enum_property (enc, "signal", signals, "auto");

  fail_unless_equals_string (gst_element_factory_get_metadata (factory,
          GST_ELEMENT_METADATA_KLASS), "Codec/Encoder/Audio");
  fail_unless (GST_IS_TAG_SETTER (enc));
  gst_object_unref (enc);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* States, flush, EOS, caps                                            */

/* NULL, then PLAYING again with a new stream-start (the element's pads
 * forgot their sticky events). */
static void
restart (GstHarness * h)
{
  fail_unless_equals_int (gst_element_set_state (h->element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_harness_play (h);
  fail_unless (gst_harness_push_event (h,
          gst_event_new_stream_start ("restart")));
}

GST_START_TEST (test_state_changes)
{
  GstElement *enc = gst_element_factory_make ("ctopusenc", NULL);
  const gsize frames = 30000;
  gdouble *v = make_music (frames, 2, 48000, 5);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);

  for (gint i = 0; i < 10; i++) {
    fail_unless_equals_int (gst_element_set_state (enc, GST_STATE_PLAYING),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (enc, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (enc);

  /* With samples through each time, half of them torn down mid-stream;
   * threads=1 and the shared pool in turn. */
  for (gint i = 0; i < 10; i++) {
    GstHarness *h = gst_harness_new_parse (i % 4 < 2 ? "ctopusenc serial=1" :
        "ctopusenc serial=1 threads=1");

    gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000,
            2));
    push_pcm (h, pcm, 4, frames, 48000, 1000 + i);
    if (i % 2 == 0)
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    gst_harness_teardown (h);
  }

  /* One element, PLAYING -> NULL -> PLAYING with a stream each time: the
   * same bytes every time (the serial starts again from the property). */
  {
    GstHarness *h = gst_harness_new_parse ("ctopusenc serial=9");
    element_settings es;
    library_output expected;

    settings_init (&es, 48000, 2, 9);
    expected = library_encode (finish_settings (&es, TRUE), pcm, CT_OPUS_S16,
        frames, 4096);
    assert_library_ok (&expected);
    for (gint i = 0; i < 3; i++) {
      GPtrArray *got;

      if (i > 0)
        restart (h);
      gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000,
              2));
      push_pcm (h, pcm, 4, frames, 48000, 4096);
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
      got = pull_all (h);
      assert_units_equal (got, expected.units, 0);
      g_ptr_array_unref (got);
    }
    library_output_clear (&expected);
    gst_harness_teardown (h);
  }
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

static void
flush (GstHarness * h)
{
  GstSegment segment;

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
}

/* A flush mid-stream drops the stream; what comes after is a new stream
 * (serial N+1), the library's for the samples after the flush. Before the
 * flush, what came out is the start of the library's first stream. */
GST_START_TEST (test_flush_then_continue)
{
  const gsize n1 = 48000 * 4, n2 = 30000;
  gdouble *v1 = make_music (n1, 2, 48000, 6), *v2 = make_music (n2, 2, 48000,
      7);
  guint8 *first = pcm_in_format (v1, n1 * 2, GST_AUDIO_FORMAT_S16LE);
  guint8 *second = pcm_in_format (v2, n2 * 2, GST_AUDIO_FORMAT_S16LE);
  element_settings es;
  library_output expected_first, expected_second;
  GstHarness *h = gst_harness_new_parse ("ctopusenc serial=40");
  GPtrArray *got;

  settings_init (&es, 48000, 2, 40);
  expected_first = library_encode (finish_settings (&es, TRUE), first,
      CT_OPUS_S16, n1, 4096);
  /* The next stream takes the next serial, and says it in
   * ENCODER_OPTIONS, as `opusenc --serial 41` would. */
  settings_init (&es, 48000, 2, 41);
  expected_second = library_encode (finish_settings (&es, TRUE), second,
      CT_OPUS_S16, n2, 4096);
  assert_library_ok (&expected_first);
  assert_library_ok (&expected_second);

  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 2));
  push_pcm (h, first, 4, n1, 48000, 2048);
  got = pull_all (h);
  /* The headers and some audio pages (4 s in, 2 s of decision delay). */
  fail_unless (got->len > 2);
  fail_unless (got->len < expected_first.units->len);
  for (guint i = 0; i < got->len; i++)
    fail_unless (buffer_equals (g_ptr_array_index (got, i),
            g_ptr_array_index (expected_first.units, i)));
  g_ptr_array_unref (got);

  flush (h);
  push_pcm (h, second, 4, n2, 48000, 2048);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, expected_second.units, 0);
  g_ptr_array_unref (got);

  gst_harness_teardown (h);
  library_output_clear (&expected_first);
  library_output_clear (&expected_second);
  g_free (first);
  g_free (second);
  g_free (v1);
  g_free (v2);
}

GST_END_TEST;

/* The same with audio/x-opus downstream: after the flush, the new
 * stream's packets, its headers in the caps. */
GST_START_TEST (test_flush_packets)
{
  const gsize n1 = 48000 * 4, n2 = 30000;
  gdouble *v1 = make_music (n1, 1, 48000, 8), *v2 = make_music (n2, 1, 48000,
      9);
  guint8 *first = pcm_in_format (v1, n1, GST_AUDIO_FORMAT_S16LE);
  guint8 *second = pcm_in_format (v2, n2, GST_AUDIO_FORMAT_S16LE);
  element_settings es;
  library_output expected_second;
  GstHarness *h = gst_harness_new_parse ("ctopusenc serial=40");
  GPtrArray *got;
  GstCaps *caps;

  settings_init (&es, 48000, 1, 41);
  es.s.output = CT_OPUS_OUTPUT_PACKETS;
  expected_second = library_encode (finish_settings (&es, TRUE), second,
      CT_OPUS_S16, n2, 4096);
  assert_library_ok (&expected_second);

  gst_harness_set_sink_caps_str (h, "audio/x-opus");
  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 1));
  push_pcm (h, first, 2, n1, 48000, 2048);
  g_ptr_array_unref (pull_all (h));
  flush (h);
  push_pcm (h, second, 2, n2, 48000, 2048);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, expected_second.units, 2);
  g_ptr_array_unref (got);
  /* The caps now hold the new stream's headers (its OpusTags say
   * --serial 41). */
  caps = gst_pad_get_current_caps (h->sinkpad);
  assert_streamheader (caps, expected_second.units);
  gst_caps_unref (caps);

  gst_harness_teardown (h);
  library_output_clear (&expected_second);
  g_free (first);
  g_free (second);
  g_free (v1);
  g_free (v2);
}

GST_END_TEST;

/* Caps then EOS: the base class has nothing to drain, nothing comes out.
 * An empty buffer then EOS: a stream of no samples, the library's (what
 * opusenc writes for an empty WAV: the headers and one packet). No caps:
 * nothing. */
GST_START_TEST (test_eos_without_data)
{
  element_settings es;
  library_output expected;
  GstHarness *h;
  GPtrArray *got;
  GstEvent *event;
  gboolean got_eos = FALSE;

  h = gst_harness_new_parse ("ctopusenc serial=1");
  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 2));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  while ((event = gst_harness_try_pull_event (h))) {
    got_eos |= GST_EVENT_TYPE (event) == GST_EVENT_EOS;
    gst_event_unref (event);
  }
  fail_unless (got_eos);
  gst_harness_teardown (h);

  settings_init (&es, 48000, 2, 1);
  expected = library_encode (finish_settings (&es, TRUE), NULL, CT_OPUS_S16,
      0, 4096);
  assert_library_ok (&expected);
  fail_unless_equals_int (expected.units->len, 3);
  h = gst_harness_new_parse ("ctopusenc serial=1");
  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 2));
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new ()),
      GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, expected.units, 0);
  g_ptr_array_unref (got);
  gst_harness_teardown (h);
  library_output_clear (&expected);

  h = gst_harness_new ("ctopusenc");
  gst_harness_play (h);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* New caps mid-stream: the first stream is drained, a second starts with
 * the next serial (in ENCODER_OPTIONS too); the streams come out one
 * after the other, each the library's, each under its own caps (packets:
 * caps with the stream's headers as streamheader). */
GST_START_TEST (test_renegotiation)
{
  static const struct
  {
    GstAudioFormat format;
    gint rate, channels;
  } streams[] = {
    {GST_AUDIO_FORMAT_S16LE, 48000, 2},
    {GST_AUDIO_FORMAT_F32LE, 44100, 1},
    {GST_AUDIO_FORMAT_S24LE, 32000, 2},
    {GST_AUDIO_FORMAT_S16LE, 48000, 2},
  };

  for (gint packets = 0; packets < 2; packets++) {
    GstHarness *h = gst_harness_new_parse ("ctopusenc serial=70 "
        "bitrate=128000");
    GPtrArray *expected =
        g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    GPtrArray *got;
    GstEvent *event;
    guint num_caps = 0;
    GArray *rates_out = g_array_new (FALSE, FALSE, sizeof (gint));
    GPtrArray *headers =
        g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

    if (packets)
      gst_harness_set_sink_caps_str (h, "audio/x-opus");
    for (guint i = 0; i < G_N_ELEMENTS (streams); i++) {
      gint rate = streams[i].rate, channels = streams[i].channels;
      gsize frames = 20000 + 3000 * i;
      gdouble *v = make_music (frames, channels, rate, 10 + i);
      guint8 *pcm = pcm_in_format (v, frames * channels, streams[i].format);
      element_settings es;
      library_output part;

      settings_init (&es, rate, channels, 70 + i);
      es.s.bitrate = 128000;
      es.s.output = packets ? CT_OPUS_OUTPUT_PACKETS : CT_OPUS_OUTPUT_OGG;
      part = library_encode (finish_settings (&es, TRUE), pcm,
          opus_format (streams[i].format), frames, 4096);
      assert_library_ok (&part);
      for (guint k = packets ? 2 : 0; k < part.units->len; k++)
        g_ptr_array_add (expected, g_bytes_ref (g_ptr_array_index (part.units,
                    k)));
      if (packets)
        g_ptr_array_add (headers, g_ptr_array_ref (part.units));

      gst_harness_set_src_caps (h, raw_caps (streams[i].format, rate,
              channels));
      push_pcm (h, pcm, (gsize) sample_bytes (streams[i].format) * channels,
          frames, rate, 3000);
      library_output_clear (&part);
      g_free (pcm);
      g_free (v);
    }
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    got = pull_all (h);
    assert_units_equal (got, expected, 0);
    if (!packets) {
      guint stream = 0;

      for (guint i = 0; i < got->len; i++) {
        GstBuffer *b = g_ptr_array_index (got, i);

        if (page_serial (b) != 70 + (gint) stream)
          stream++;
        fail_unless_equals_int (page_serial (b), 70 + stream);
      }
      fail_unless_equals_int (stream + 1, G_N_ELEMENTS (streams));
    }
    while ((event = gst_harness_try_pull_event (h))) {
      if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
        GstCaps *caps;
        gint rate = 0;

        gst_event_parse_caps (event, &caps);
        gst_structure_get_int (gst_caps_get_structure (caps, 0), "rate",
            &rate);
        g_array_append_val (rates_out, rate);
        if (packets && num_caps < headers->len)
          assert_streamheader (caps, g_ptr_array_index (headers, num_caps));
        num_caps++;
      }
      gst_event_unref (event);
    }
    GST_INFO ("%s: %u caps events", packets ? "packets" : "Ogg", num_caps);
    if (packets) {
      fail_unless_equals_int (num_caps, G_N_ELEMENTS (streams));
      for (guint i = 0; i < num_caps; i++)
        fail_unless_equals_int (g_array_index (rates_out, gint, i),
            streams[i].rate);
    } else {
      fail_unless (num_caps >= 1);
    }
    g_array_unref (rates_out);
    g_ptr_array_unref (headers);
    g_ptr_array_unref (got);
    g_ptr_array_unref (expected);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* 1, 959, 960 and 961 samples, and a little more than the decision delay:
 * the library's bytes, mono and stereo, 48 and 44.1 kHz. */
GST_START_TEST (test_tiny_streams)
{
  static const gsize lengths[] = { 1, 959, 960, 961, 1921, 96000 + 961 };

  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++) {
    for (gint k = 0; k < 4; k++) {
      gint channels = 1 + k % 2, rate = k < 2 ? 48000 : 44100;
      gdouble *v = make_music (lengths[i], channels, rate, i);
      guint8 *pcm = pcm_in_format (v, lengths[i] * channels,
          GST_AUDIO_FORMAT_S16LE);
      element_settings es;

      GST_INFO ("%" G_GSIZE_FORMAT " samples, %d Hz, %d channel(s)",
          lengths[i], rate, channels);
      settings_init (&es, rate, channels, 3);
      check_ogg ("serial=3", finish_settings (&es, TRUE),
          GST_AUDIO_FORMAT_S16LE, pcm, lengths[i], 500);
      g_free (pcm);
      g_free (v);
    }
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Timestamps, clipping, latency                                       */

/* The audio buffers' timestamps increase, follow each other without gaps
 * from the first input timestamp (0 or later) and, together, last as long
 * as the input (input time); Ogg pages and packets. */
GST_START_TEST (test_timestamps)
{
  static const struct
  {
    gint rate;
    GstClockTime start;
  } cases[] = {
    {48000, 0}, {44100, 0}, {8000, 0}, {48000, 5 * GST_SECOND},
    {44100, 1234567},
  };

  for (guint k = 0; k < 2 * G_N_ELEMENTS (cases); k++) {
    gint rate = cases[k / 2].rate;
    gboolean packets = k % 2;
    gsize frames = rate * 3 + 77;
    gdouble *v = make_music (frames, 2, rate, k);
    guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
    GstHarness *h = gst_harness_new_parse ("ctopusenc serial=1");
    GPtrArray *got;
    GstClockTime end = cases[k / 2].start, last_pts = 0,
        total = cases[k / 2].start + gst_util_uint64_scale (frames,
        GST_SECOND, rate);
    guint audio = 0;

    if (packets)
      gst_harness_set_sink_caps_str (h, "audio/x-opus");
    gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, rate, 2));
    push_pcm_at (h, pcm, 4, frames, rate, 1000, cases[k / 2].start);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    got = pull_all (h);
    gst_harness_teardown (h);

    for (guint i = 0; i < got->len; i++) {
      GstBuffer *b = g_ptr_array_index (got, i);

      if (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_HEADER))
        continue;
      fail_unless (GST_BUFFER_PTS_IS_VALID (b));
      fail_unless (GST_BUFFER_DURATION_IS_VALID (b));
      /* Within an input sample of where the last one ended. */
      fail_unless (ABS (GST_CLOCK_DIFF (end, GST_BUFFER_PTS (b))) <=
          GST_SECOND / rate, "buffer %u at %" GST_TIME_FORMAT ", the last "
          "ended at %" GST_TIME_FORMAT, i,
          GST_TIME_ARGS (GST_BUFFER_PTS (b)), GST_TIME_ARGS (end));
      fail_unless (audio == 0 || GST_BUFFER_PTS (b) > last_pts);
      last_pts = GST_BUFFER_PTS (b);
      end = GST_BUFFER_PTS (b) + GST_BUFFER_DURATION (b);
      audio++;
    }
    fail_unless (audio > 0);
    fail_unless (ABS (GST_CLOCK_DIFF (end, total)) <= GST_SECOND / rate,
        "the buffers end at %" GST_TIME_FORMAT ", the input at %"
        GST_TIME_FORMAT, GST_TIME_ARGS (end), GST_TIME_ARGS (total));
    g_ptr_array_unref (got);
    g_free (pcm);
    g_free (v);
  }
}

GST_END_TEST;

/* Packets carry GstAudioClippingMeta: the pre-skip on the packets it
 * spans (three of 2.5 ms), the samples past the end on the last; what is
 * left is the input's length at 48 kHz (ceil(N * 48000 / rate)). */
GST_START_TEST (test_clipping_meta)
{
  static const struct
  {
    gint rate;
    gsize frames;
    const gchar *properties;
  } cases[] = {
    {48000, 48000, ""}, {44100, 44100, ""}, {48000, 1, ""},
    {48000, 960, ""}, {48000, 961, ""}, {44100, 959, ""},
    {48000, 50000, "frame-size=60"}, {48000, 50000, "frame-size=2.5"},
    {16000, 20001, "bitrate=64000"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gint rate = cases[i].rate;
    gdouble *v = make_music (cases[i].frames, 2, rate, i);
    guint8 *pcm = pcm_in_format (v, cases[i].frames * 2,
        GST_AUDIO_FORMAT_S16LE);
    gchar *properties = g_strdup_printf ("serial=1 %s", cases[i].properties);
    GstHarness *h;
    GPtrArray *got = element_encode (properties, "audio/x-opus",
        GST_AUDIO_FORMAT_S16LE, rate, 2, pcm, cases[i].frames, 1000, &h);
    guint64 total = 0, kept = 0, start_clip = 0;
    guint audio = 0, with_meta = 0;
    gint preskip;

    /* The pre-skip of OpusHead, in the caps. */
    {
      GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
      const GValue *headers = gst_structure_get_value
          (gst_caps_get_structure (caps, 0), "streamheader");
      guint8 head[12];

      fail_unless (headers != NULL);
      gst_buffer_extract (gst_value_get_buffer (gst_value_array_get_value
              (headers, 0)), 0, head, 12);
      preskip = read_le (head + 10, 2);
      gst_caps_unref (caps);
      gst_harness_teardown (h);
    }

    for (guint j = 0; j < got->len; j++) {
      GstBuffer *b = g_ptr_array_index (got, j);
      GstAudioClippingMeta *meta;
      guint64 duration;

      fail_if (GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_HEADER));
      /* 48 kHz samples of the packet, from its TOC (CELT: 2.5 to 20 ms
       * per frame; 40 and 60 ms are 2 or 3 frames, code 3). */
      {
        static const gint celt_sizes[4] = { 120, 240, 480, 960 };
        guint8 toc[2] = { 0, 0 };
        gint count;

        gst_buffer_extract (b, 0, toc, 2);
        fail_unless ((toc[0] >> 7) == 1, "not a CELT packet");
        count = (toc[0] & 3) == 0 ? 1 : (toc[0] & 3) < 3 ? 2 : toc[1] & 0x3f;
        duration = (guint64) celt_sizes[(toc[0] >> 3) & 3] * count;
      }
      meta = gst_buffer_get_audio_clipping_meta (b);
      total += duration;
      kept += duration;
      if (meta) {
        with_meta++;
        fail_unless_equals_int (meta->format, GST_FORMAT_DEFAULT);
        fail_unless (meta->start + meta->end <= duration);
        /* From the first packet on, until the pre-skip is clipped. */
        if (meta->start)
          fail_unless_equals_uint64 (total - duration, start_clip);
        start_clip += meta->start;
        kept -= meta->start + meta->end;
      }
      audio++;
    }
    fail_unless (preskip > 0);
    GST_INFO ("%s at %d Hz, %" G_GSIZE_FORMAT " samples: %u packets, %u "
        "clipped, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " kept, %"
        G_GUINT64_FORMAT " clipped at the start", properties, rate,
        cases[i].frames, audio, with_meta, kept, total, start_clip);
    /* The whole pre-skip, over as many packets as it spans. */
    fail_unless_equals_uint64 (start_clip, MIN ((guint64) preskip, total));
    fail_unless_equals_uint64 (kept, (cases[i].frames * 48000 + rate - 1) /
        rate);
    g_ptr_array_unref (got);
    g_free (properties);
    g_free (pcm);
    g_free (v);
  }
}

GST_END_TEST;

/* The latency query answers the encoder's delay (decision delay and
 * resampler: ct_opus_encoder_delay), min and max, at the input rate. */
GST_START_TEST (test_latency)
{
  static const struct
  {
    gint rate, channels;
    const gchar *properties;
  } cases[] = {
    {48000, 2, ""}, {44100, 2, ""}, {16000, 1, "bitrate=64000"},
    {48000, 2, "max-delay=100"}, {48000, 2, "frame-size=60"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gint rate = cases[i].rate, channels = cases[i].channels;
    gsize frames = rate / 2;
    gdouble *v = make_music (frames, channels, rate, i);
    guint8 *pcm = pcm_in_format (v, frames * channels,
        GST_AUDIO_FORMAT_S16LE);
    gchar *launch = g_strdup_printf ("ctopusenc serial=1 %s",
        cases[i].properties);
    GstHarness *h = gst_harness_new_parse (launch);
    element_settings es;
    ct_opus_encoder *encoder = NULL;
    ct_pool *pool;
    char err[256] = "";
    GstClockTime expected, latency;
    GstQuery *query;
    gboolean live;
    GstClockTime min, max;

    settings_init (&es, rate, channels, 1);
    if (strstr (cases[i].properties, "bitrate"))
      es.s.bitrate = 64000;
    if (strstr (cases[i].properties, "max-delay"))
      es.s.max_delay_ms = 100;
    if (strstr (cases[i].properties, "frame-size"))
      es.s.frame_size = 2880;
    /* on a pool as the element's (threads 0: one worker per CPU), whose
       frames in flight the delay counts */
    pool = ct_pool_new (0);
    fail_unless (pool != NULL);
    fail_unless_equals_int (ct_opus_encoder_new (pool, finish_settings (&es,
                TRUE), &encoder, err, sizeof (err)), CT_OK);
    expected = gst_util_uint64_scale_int (ct_opus_encoder_delay (encoder),
        GST_SECOND, rate);
    ct_opus_encoder_free (encoder);
    ct_pool_unref (pool);

    gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, rate,
            channels));
    push_pcm (h, pcm, 2 * channels, frames, rate, 4096);
    latency = gst_harness_query_latency (h);
    GST_INFO ("%d Hz %s: latency %" GST_TIME_FORMAT, rate,
        cases[i].properties, GST_TIME_ARGS (latency));
    fail_unless_equals_uint64 (latency, expected);
    /* About opusenc's 2 s of decision delay, and the ring's frames (16 of
       60 ms at most on few cores). */
    fail_unless (latency >= GST_SECOND && latency <= 4 * GST_SECOND);
    query = gst_query_new_latency ();
    fail_unless (gst_pad_peer_query (h->sinkpad, query));
    gst_query_parse_latency (query, &live, &min, &max);
    fail_unless_equals_uint64 (min, expected);
    fail_unless (max == GST_CLOCK_TIME_NONE || max >= expected);
    gst_query_unref (query);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    gst_harness_teardown (h);
    g_free (launch);
    g_free (pcm);
    g_free (v);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Tags                                                                */

/* The comments of an OpusTags packet, "TAG=value" each. */
static gchar **
opus_tags_comments (GstBuffer * buffer)
{
  GstMapInfo map;
  GPtrArray *list = g_ptr_array_new ();
  gsize at;
  guint32 n;

  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
  fail_unless (map.size >= 16 && memcmp (map.data, "OpusTags", 8) == 0);
  at = 12 + read_le (map.data + 8, 4);
  fail_unless (at + 4 <= map.size);
  n = read_le (map.data + at, 4);
  at += 4;
  for (guint32 i = 0; i < n; i++) {
    guint32 len;

    fail_unless (at + 4 <= map.size);
    len = read_le (map.data + at, 4);
    at += 4;
    fail_unless (at + len <= map.size);
    g_ptr_array_add (list, g_strndup ((const gchar *) map.data + at, len));
    at += len;
  }
  gst_buffer_unmap (buffer, &map);
  g_ptr_array_add (list, NULL);
  return (gchar **) g_ptr_array_free (list, FALSE);
}

typedef struct tags_case
{
  GstTagList *upstream;         /* as a tag event, NULL for none */
  GstTagList *setter;           /* through GstTagSetter, NULL for none */
  const gchar *const *comments; /* expected, after ENCODER= */
  GstTagMergeMode mode;         /* the setter's (UNDEFINED: its default) */
} tags_case;

/* The comments come out in opusenc's order (title, artist, album, date,
 * genre, tracknumber, comment), between ENCODER= and ENCODER_OPTIONS=,
 * and the stream is the library's with those comments. */
static void
check_tags (const tags_case * c, gboolean packets)
{
  const gsize frames = 10000;
  gdouble *v = make_music (frames, 2, 48000, 21);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
  GstHarness *h = gst_harness_new_parse ("ctopusenc serial=5");
  element_settings es;
  library_output expected;
  GPtrArray *got;
  gchar **comments;
  guint n = 0;

  while (c->comments[n])
    n++;
  settings_init (&es, 48000, 2, 5);
  es.s.comments = c->comments;
  es.s.num_comments = (int) n;
  es.s.output = packets ? CT_OPUS_OUTPUT_PACKETS : CT_OPUS_OUTPUT_OGG;
  expected = library_encode (finish_settings (&es, TRUE), pcm, CT_OPUS_S16,
      frames, 4096);
  assert_library_ok (&expected);

  if (c->setter) {
    GstElement *enc = gst_harness_find_element (h, "ctopusenc");

    gst_tag_setter_merge_tags (GST_TAG_SETTER (enc), c->setter,
        GST_TAG_MERGE_REPLACE);
    if (c->mode != GST_TAG_MERGE_UNDEFINED)
      gst_tag_setter_set_tag_merge_mode (GST_TAG_SETTER (enc), c->mode);
    gst_object_unref (enc);
  }
  if (packets)
    gst_harness_set_sink_caps_str (h, "audio/x-opus");
  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 2));
  if (c->upstream)
    fail_unless (gst_harness_push_event (h,
            gst_event_new_tag (gst_tag_list_copy (c->upstream))));
  push_pcm (h, pcm, 4, frames, 48000, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, expected.units, packets ? 2 : 0);
  if (packets) {
    GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
    const GValue *headers = gst_structure_get_value (gst_caps_get_structure
        (caps, 0), "streamheader");

    comments = opus_tags_comments (gst_value_get_buffer
        (gst_value_array_get_value (headers, 1)));
    gst_caps_unref (caps);
    fail_unless_equals_string (comments[0], "ENCODER=opusenc from opus-tools "
        "0.2");
    for (guint i = 0; i < n; i++)
      fail_unless_equals_string (comments[1 + i], c->comments[i]);
    fail_unless_equals_string (comments[1 + n],
        "ENCODER_OPTIONS=--serial 5");
    fail_unless (comments[2 + n] == NULL);
    g_strfreev (comments);
  }
  g_ptr_array_unref (got);
  gst_harness_teardown (h);
  library_output_clear (&expected);
  g_free (pcm);
  g_free (v);
}

GST_START_TEST (test_tags)
{
  static const gchar *const title_artist[] = { "title=A Title",
    "artist=Some Artist", NULL
  };
  static const gchar *const none[] = { NULL };
  static const gchar *const all[] = { "title=T\xc3\xaftel", "artist=Art",
    "album=Alb", "date=2021-03-04", "genre=Rock", "tracknumber=7",
    "comment=hello=world", NULL
  };
  static const gchar *const mixed[] = { "title=From upstream",
    "artist=From the application", NULL
  };
  GstDateTime *date = gst_date_time_new_ymd (2021, 3, 4);
  /* artist before title in the list: the order is opusenc's. */
  GstTagList *upstream = gst_tag_list_new (GST_TAG_ARTIST, "Some Artist",
      GST_TAG_TITLE, "A Title", NULL);
  GstTagList *setter = gst_tag_list_new (GST_TAG_TITLE, "A Title",
      GST_TAG_ARTIST, "Some Artist", NULL);
  GstTagList *every = gst_tag_list_new (GST_TAG_COMMENT, "hello=world",
      GST_TAG_TRACK_NUMBER, 7, GST_TAG_GENRE, "Rock", GST_TAG_DATE_TIME, date,
      GST_TAG_ALBUM, "Alb", GST_TAG_ARTIST, "Art", GST_TAG_TITLE,
      "T\xc3\xaftel", NULL);
  GstTagList *up_title = gst_tag_list_new (GST_TAG_TITLE, "From upstream",
      NULL);
  GstTagList *app_artist = gst_tag_list_new (GST_TAG_ARTIST,
      "From the application", NULL);
  /* Tags opusenc has no flag for, and a global-scope list: ignored. */
  GstTagList *other = gst_tag_list_new (GST_TAG_COMPOSER, "C",
      GST_TAG_ENCODER, "x", NULL);
  GstTagList *global = gst_tag_list_new (GST_TAG_TITLE, "Global", NULL);
  /* Both set a title: the setter's merge mode decides, the application's
   * tags being the old ones and upstream's the new (GstTagSetter's
   * documentation; vorbisenc, opusenc): KEEP (the default) keeps the
   * application's title. */
  static const gchar *const app_wins[] = { "title=A Title",
    "artist=Some Artist", NULL
  };
  static const gchar *const up_wins[] = { "title=From upstream",
    "artist=Some Artist", NULL
  };
  static const gchar *const up_only[] = { "title=From upstream", NULL };
  tags_case cases[] = {
    {upstream, NULL, title_artist, GST_TAG_MERGE_UNDEFINED},
    {NULL, setter, title_artist, GST_TAG_MERGE_UNDEFINED},
    {every, NULL, all, GST_TAG_MERGE_UNDEFINED},
    {up_title, app_artist, mixed, GST_TAG_MERGE_UNDEFINED},
    {other, NULL, none, GST_TAG_MERGE_UNDEFINED},
    {global, NULL, none, GST_TAG_MERGE_UNDEFINED},
    {up_title, setter, app_wins, GST_TAG_MERGE_UNDEFINED},
    {up_title, setter, app_wins, GST_TAG_MERGE_KEEP},
    {up_title, setter, app_wins, GST_TAG_MERGE_KEEP_ALL},
    {up_title, setter, up_wins, GST_TAG_MERGE_REPLACE},
    {up_title, setter, up_only, GST_TAG_MERGE_REPLACE_ALL},
  };

  gst_tag_list_set_scope (global, GST_TAG_SCOPE_GLOBAL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GST_INFO ("tags case %u", i);
    check_tags (&cases[i], FALSE);
    check_tags (&cases[i], TRUE);
  }
  gst_tag_list_unref (upstream);
  gst_tag_list_unref (setter);
  gst_tag_list_unref (every);
  gst_tag_list_unref (up_title);
  gst_tag_list_unref (app_artist);
  gst_tag_list_unref (other);
  gst_tag_list_unref (global);
  gst_date_time_unref (date);
}

GST_END_TEST;

/* Tags after the first samples come too late for this stream's OpusTags
 * (written when it starts, as opusenc's): the bytes without them; the
 * next stream (after a flush) has them. */
GST_START_TEST (test_late_tags)
{
  static const gchar *const title[] = { "title=Late", NULL };
  const gsize frames = 20000;
  gdouble *v = make_music (frames, 2, 48000, 22);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
  GstHarness *h = gst_harness_new_parse ("ctopusenc serial=5");
  element_settings es;
  library_output without, with;
  GPtrArray *got;

  settings_init (&es, 48000, 2, 5);
  without = library_encode (finish_settings (&es, TRUE), pcm, CT_OPUS_S16,
      frames, 4096);
  settings_init (&es, 48000, 2, 6);
  es.s.comments = title;
  es.s.num_comments = 1;
  with = library_encode (finish_settings (&es, TRUE), pcm, CT_OPUS_S16,
      frames, 4096);
  assert_library_ok (&without);
  assert_library_ok (&with);

  gst_harness_set_src_caps (h, raw_caps (GST_AUDIO_FORMAT_S16LE, 48000, 2));
  push_pcm (h, pcm, 4, 1000, 48000, 1000);
  fail_unless (gst_harness_push_event (h, gst_event_new_tag
          (gst_tag_list_new (GST_TAG_TITLE, "Late", NULL))));
  push_pcm (h, pcm + 4000, 4, frames - 1000, 48000, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, without.units, 0);
  g_ptr_array_unref (got);

  /* A flush keeps the stream's tags (no new stream-start): the next
   * stream, serial 6, has them. */
  flush (h);
  push_pcm (h, pcm, 4, frames, 48000, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, with.units, 0);
  g_ptr_array_unref (got);

  gst_harness_teardown (h);
  library_output_clear (&without);
  library_output_clear (&with);
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* SILK and Hybrid                                                     */

/* The modes of the audio packets after the first `skip` units, from their
 * TOC bytes (RFC 6716 3.1: configurations 0-11 SILK, 12-15 Hybrid, 16-31
 * CELT): modes[0] SILK, [1] Hybrid, [2] CELT. */
static void
count_modes (GPtrArray * units, guint skip, guint modes[3])
{
  modes[0] = modes[1] = modes[2] = 0;
  for (guint i = skip; i < units->len; i++) {
    gsize size;
    const guint8 *data = g_bytes_get_data (g_ptr_array_index (units, i),
        &size);
    guint config;

    fail_unless (size >= 1);
    config = data[0] >> 3;
    modes[config < 12 ? 0 : config < 16 ? 1 : 2]++;
  }
}

/* What libopus codes with SILK (8 kHz at 6 kb/s; speech said to be voice
 * at 12 and 8 kb/s) or Hybrid (speech said to be voice at 24 kb/s), and
 * speech at opusenc's default bitrate: the library's pages, and its
 * packets for audio/x-opus, with no error on the bus; each case in the
 * modes it is meant to cover. */
GST_START_TEST (test_silk_hybrid)
{
  static const struct
  {
    gint rate;
    const gchar *properties;
    gint bitrate;
    ct_opus_signal signal;
    gboolean speech;
    gboolean silk, hybrid, celt;        /* libopus codes packets in them */
  } cases[] = {
    {8000, "bitrate=6000", 6000, CT_OPUS_SIGNAL_AUTO, FALSE,
        TRUE, FALSE, FALSE},
    /* libopus (and opusenc) take this synthetic voice for music at 12 kb/s
     * (CELT); said to be voice, it is SILK. */
    {48000, "bitrate=12000 signal=voice", 12000, CT_OPUS_SIGNAL_VOICE, TRUE,
        TRUE, FALSE, FALSE},
    {16000, "bitrate=8000 signal=voice", 8000, CT_OPUS_SIGNAL_VOICE, TRUE,
        TRUE, FALSE, FALSE},
    {48000, "bitrate=24000 signal=voice", 24000, CT_OPUS_SIGNAL_VOICE, TRUE,
        FALSE, TRUE, FALSE},
    /* 64 kb/s mono, taken for music: CELT. */
    {48000, "", 0, CT_OPUS_SIGNAL_AUTO, TRUE, FALSE, FALSE, TRUE},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gint rate = cases[i].rate;
    gsize frames = rate * 3;
    gdouble *v = cases[i].speech ? make_speech (frames, rate) :
        make_music (frames, 1, rate, i);
    guint8 *pcm = pcm_in_format (v, frames, GST_AUDIO_FORMAT_S16LE);
    gchar *properties = g_strdup_printf ("serial=1 %s", cases[i].properties);

    for (gint packets = 0; packets < 2; packets++) {
      element_settings es;
      library_output expected;
      GstHarness *h;
      GPtrArray *got;
      guint modes[3];

      settings_init (&es, rate, 1, 1);
      es.s.bitrate = cases[i].bitrate;
      es.s.signal = cases[i].signal;
      es.s.output = packets ? CT_OPUS_OUTPUT_PACKETS : CT_OPUS_OUTPUT_OGG;
      expected = library_encode (finish_settings (&es, TRUE), pcm,
          CT_OPUS_S16, frames, 4096);
      assert_library_ok (&expected);
      got = element_encode (properties, packets ? "audio/x-opus" : NULL,
          GST_AUDIO_FORMAT_S16LE, rate, 1, pcm, frames, 4000, &h);
      assert_units_equal (got, expected.units, packets ? 2 : 0);
      if (packets) {
        GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

        assert_streamheader (caps, expected.units);
        gst_caps_unref (caps);
        count_modes (expected.units, 2, modes);
        GST_INFO ("%d Hz \"%s\": %u SILK, %u Hybrid, %u CELT packets", rate,
            cases[i].properties, modes[0], modes[1], modes[2]);
        fail_unless_equals_int (modes[0] > 0, cases[i].silk);
        fail_unless_equals_int (modes[1] > 0, cases[i].hybrid);
        fail_unless_equals_int (modes[2] > 0, cases[i].celt);
      }
      gst_harness_teardown (h);
      g_ptr_array_unref (got);
      library_output_clear (&expected);
    }
    g_free (properties);
    g_free (pcm);
    g_free (v);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Channels                                                            */

/* opus-tools 0.2 opus_header.c wav_permute_matrix, as its WAV reader uses
 * it: the library's channel j (Vorbis order) is the WAV's channel
 * [channels - 1][j]. */
static const guint8 wav_permute_matrix[8][8] = {
  {0},
  {0, 1},
  {0, 2, 1},
  {0, 1, 2, 3},
  {0, 2, 1, 3, 4},
  {0, 2, 1, 4, 5, 3},
  {0, 2, 1, 5, 6, 4, 3},
  {0, 2, 1, 6, 7, 4, 5, 3},
};

/* Interleaved samples of `width` bytes in WAV order put into the order the
 * library takes, as opusenc reads them: Vorbis' for 3 to 8 channels, as
 * they come above. */
static guint8 *
vorbis_order (const guint8 * pcm, gsize frames, gint channels, gsize width)
{
  gsize bpf = width * channels;
  guint8 *out = g_malloc (frames * bpf + 1);

  for (gsize i = 0; i < frames; i++)
    for (gint j = 0; j < channels; j++)
      memcpy (out + i * bpf + j * width, pcm + i * bpf +
          (channels <= 8 ? wav_permute_matrix[channels - 1][j] : j) * width,
          width);
  return out;
}

/* 3 to 10 channels with the positions wavparse gives a WAV of that count:
 * WAVE_FORMAT_EXTENSIBLE's mask (GStreamer's bits), or none for a plain
 * WAV of 3, 7 or more than 8 channels (taken as unpositioned); the Ogg
 * pages and packets the library writes for the samples in Vorbis order
 * (family 1) or as they come (family 255), and the caps' mapping. */
GST_START_TEST (test_multichannel)
{
  static const struct
  {
    gint channels;
    guint64 mask;               /* GStreamer's channel-mask; 0: none */
    gint bitrate;
    gint streams, coupled;
    guint8 mapping[10];         /* libopus' for family 1 */
  } cases[] = {
    /* FL FR FC */
    {3, 0x7, 256000, 2, 1, {0, 2, 1}},
    {3, 0, 256000, 2, 1, {0, 2, 1}},
    /* 5.1: FL FR FC LFE RL RR */
    {6, 0x3f, 256000, 4, 2, {0, 4, 1, 2, 3, 5}},
    {6, 0x3f, 0, 4, 2, {0, 4, 1, 2, 3, 5}},
    {7, 0, 256000, 4, 3, {0, 4, 1, 2, 3, 5, 6}},
    /* 7.1: FL FR FC LFE RL RR SL SR */
    {8, 0xc3f, 256000, 5, 3, {0, 6, 1, 2, 3, 4, 5, 7}},
    /* FL FR FC LFE RL RR FLoC FRoC RC SL */
    {10, 0x5ff, 256000, 10, 0, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
    {10, 0, 256000, 10, 0, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    gint channels = cases[k].channels;
    gint family = channels <= 8 ? 1 : 255;
    gsize frames = 24000 + 321;
    gdouble *v = make_music (frames, channels, 48000, 60 + k);
    guint8 *pcm = pcm_in_format (v, frames * channels,
        GST_AUDIO_FORMAT_S16LE);
    guint8 *ordered = vorbis_order (pcm, frames, channels, 2);
    gchar *properties = g_strdup_printf ("serial=%d bitrate=%d", SERIAL,
        cases[k].bitrate);
    GString *caps_str = g_string_new (NULL);

    g_string_printf (caps_str, "audio/x-raw, format=(string)S16LE, "
        "layout=(string)interleaved, rate=(int)48000, channels=(int)%d",
        channels);
    if (cases[k].mask)
      g_string_append_printf (caps_str, ", channel-mask=(bitmask)0x%"
          G_GINT64_MODIFIER "x", cases[k].mask);
    GST_INFO ("%s, bitrate %d", caps_str->str, cases[k].bitrate);

    for (gint packets = 0; packets < 2; packets++) {
      element_settings es;
      library_output expected;
      GstHarness *h;
      GPtrArray *got;

      settings_init (&es, 48000, channels, SERIAL);
      es.s.bitrate = cases[k].bitrate;
      es.s.output = packets ? CT_OPUS_OUTPUT_PACKETS : CT_OPUS_OUTPUT_OGG;
      expected = library_encode (finish_settings (&es, TRUE), ordered,
          CT_OPUS_S16, frames, 4096);
      assert_library_ok (&expected);
      got = element_encode_caps (properties, packets ? "audio/x-opus" : NULL,
          gst_caps_from_string (caps_str->str), 48000, 2 * channels, pcm,
          frames, 3000, &h);
      assert_units_equal (got, expected.units, packets ? 2 : 0);
      if (packets) {
        GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
        GstStructure *s = gst_caps_get_structure (caps, 0);
        const GValue *mapping;
        gint value;

        fail_unless (gst_structure_has_name (s, "audio/x-opus"));
        fail_unless (gst_structure_get_int (s, "channels", &value));
        fail_unless_equals_int (value, channels);
        fail_unless (gst_structure_get_int (s, "channel-mapping-family",
                &value));
        fail_unless_equals_int (value, family);
        fail_unless (gst_structure_get_int (s, "stream-count", &value));
        fail_unless_equals_int (value, cases[k].streams);
        fail_unless (gst_structure_get_int (s, "coupled-count", &value));
        fail_unless_equals_int (value, cases[k].coupled);
        mapping = gst_structure_get_value (s, "channel-mapping");
        fail_unless (mapping && GST_VALUE_HOLDS_ARRAY (mapping));
        fail_unless_equals_int (gst_value_array_get_size (mapping), channels);
        for (gint c = 0; c < channels; c++)
          fail_unless_equals_int (g_value_get_int (gst_value_array_get_value
                  (mapping, c)), cases[k].mapping[c]);
        assert_streamheader (caps, expected.units);
        gst_caps_unref (caps);
      }
      gst_harness_teardown (h);
      g_ptr_array_unref (got);
      library_output_clear (&expected);
    }
    g_string_free (caps_str, TRUE);
    g_free (properties);
    g_free (ordered);
    g_free (pcm);
    g_free (v);
  }
}

GST_END_TEST;

/* Stereo caps without a channel-mask (the default positions, as
 * GstAudioInfo reads them; GStreamer's opusenc takes them): accepted, the
 * library's bytes. */
GST_START_TEST (test_stereo_without_channel_mask)
{
  const gsize frames = 9000;
  gdouble *v = make_music (frames, 2, 48000, 40);
  guint8 *pcm = pcm_in_format (v, frames * 2, GST_AUDIO_FORMAT_S16LE);
  GstHarness *h = gst_harness_new_parse ("ctopusenc serial=2");
  element_settings es;
  library_output expected;
  GPtrArray *got;

  settings_init (&es, 48000, 2, 2);
  expected = library_encode (finish_settings (&es, TRUE), pcm, CT_OPUS_S16,
      frames, 4096);
  assert_library_ok (&expected);
  gst_harness_set_src_caps_str (h, "audio/x-raw, format=(string)S16LE, "
      "layout=(string)interleaved, rate=(int)48000, channels=(int)2");
  push_pcm (h, pcm, 4, frames, 48000, 4096);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  got = pull_all (h);
  assert_units_equal (got, expected.units, 0);
  g_ptr_array_unref (got);
  gst_harness_teardown (h);
  library_output_clear (&expected);
  g_free (pcm);
  g_free (v);
}

GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Misaligned input                                                    */

/* Buffers whose samples start at an odd address (and buffers that end
 * mid-way in memory blocks) are read right, every format. */
GST_START_TEST (test_misaligned_input)
{
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstAudioFormat format = formats[f];
    const gsize frames = 12345;
    gsize bpf = (gsize) sample_bytes (format) * 2;
    gdouble *v = make_music (frames, 2, 48000, 30 + f);
    guint8 *pcm = pcm_in_format (v, frames * 2, format);
    element_settings es;
    library_output expected;
    GstHarness *h = gst_harness_new_parse ("ctopusenc serial=2");
    GPtrArray *got;

    settings_init (&es, 48000, 2, 2);
    expected = library_encode (finish_settings (&es, TRUE), pcm,
        opus_format (format), frames, 4096);
    assert_library_ok (&expected);
    gst_harness_set_src_caps (h, raw_caps (format, 48000, 2));
    for (gsize done = 0, k = 0; done < frames; k++) {
      gsize n = MIN (frames - done, 1000 + 7 * k);
      gsize offset = 1 + k % 3;
      guint8 *bytes = g_malloc (n * bpf + offset);
      GstBuffer *in;

      memcpy (bytes + offset, pcm + done * bpf, n * bpf);
      in = gst_buffer_new_wrapped_full (0, bytes, n * bpf + offset, offset,
          n * bpf, bytes, g_free);
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
      done += n;
    }
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    got = pull_all (h);
    assert_units_equal (got, expected.units, 0);
    g_ptr_array_unref (got);
    gst_harness_teardown (h);
    library_output_clear (&expected);
    g_free (pcm);
    g_free (v);
  }
}

GST_END_TEST;

static Suite *
ctopusenc_suite (void)
{
  Suite *s = suite_create ("ctopusenc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_caps_formats_rates, 0,
      2 * G_N_ELEMENTS (formats) * G_N_ELEMENTS (rates));
  tcase_add_test (tc, test_packets_for_audio_x_opus);
  tcase_add_test (tc, test_ogg_preferred);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_properties_mid_stream);
  tcase_add_test (tc, test_random_serial);
  tcase_add_test (tc, test_bitrate_too_low);
  tcase_add_test (tc, test_property_specs);
  tcase_add_test (tc, test_state_changes);
  tcase_add_test (tc, test_flush_then_continue);
  tcase_add_test (tc, test_flush_packets);
  tcase_add_test (tc, test_eos_without_data);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_tiny_streams);
  tcase_add_test (tc, test_timestamps);
  tcase_add_test (tc, test_clipping_meta);
  tcase_add_test (tc, test_latency);
  tcase_add_test (tc, test_tags);
  tcase_add_test (tc, test_late_tags);
  tcase_add_test (tc, test_silk_hybrid);
  tcase_add_test (tc, test_multichannel);
  tcase_add_test (tc, test_stereo_without_channel_mask);
  tcase_add_test (tc, test_misaligned_input);
  return s;
}

GST_CHECK_MAIN (ctopusenc);
