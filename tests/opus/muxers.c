/*
 * ctopusenc behind GStreamer's muxers: for a corpus clip and a generated
 * 48 kHz stereo WAV,
 *   filesrc ! wavparse ! ctopusenc serial=1 ! MUXER ! filesink
 * with MUXER oggmux, matroskamux, webmmux and mp4mux (audio/x-opus). Each
 * pipeline must end without error; the Opus packets in the file (Ogg
 * pages parsed here, Matroska and MP4 through their demuxers) must be
 * those of `opusenc --serial 1`'s file (Ogg: its headers and granule
 * positions too); and the file must decode (demuxer ! opusparse ! opusdec
 * ! audioconvert ! S16LE 48 kHz ! appsink) to the samples GStreamer
 * decodes from opusenc's file, as many (pre-skip and end trimmed). A muxer
 * that loses the trimming must lose it for GStreamer's own opusenc in the
 * same pipeline in the same way (the bar of the system's muxers: 1.22's
 * mp4mux writes an edit list from 0, and qtdemux ignores dOps' pre-skip,
 * so 312 samples too many at the start); each row prints what it got.
 * GStreamer's decode of opusenc's file is checked against `opusdec --rate
 * 48000 --no-dither`'s, sample for sample.
 *
 * usage: opus_muxers [CORPUS_DIR]
 * Exits 77 ("SKIP:" and the reason) without opusenc, opusdec or one of the
 * elements.
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

#define PIPELINE_TIMEOUT_S 120
#define SERIAL 1

/* The corpus clip: music that libopus codes with CELT at opusenc's
 * default bitrate (the oracle notes). */
#define CORPUS_CLIP "orchestral_wesnoth_44k1_stereo.wav"

#define require(cond, ...) G_STMT_START { \
  if (!(cond)) { \
    g_printerr (__VA_ARGS__); \
    g_printerr ("\n"); \
    exit (1); \
  } \
} G_STMT_END

/* An Ogg Opus stream: its packets, and for each the granule position of
 * the page it ends on (-1 where a later packet ends the same page). */
typedef struct ogg_opus
{
  GPtrArray *packets;           /* GBytes: OpusHead, OpusTags, audio */
  GArray *granules;             /* gint64 per packet */
} ogg_opus;

/* An input and what opusenc makes of it. */
typedef struct input
{
  const gchar *name;
  gchar *wav;
  gint rate, channels;
  guint64 frames48;             /* its length at 48 kHz, rounded up */
  gchar *reference;             /* opusenc --serial 1's file */
  ogg_opus ref;
  GByteArray *opusdec_pcm;      /* opusdec --rate 48000 --no-dither's */
} input;

static gchar *opusenc, *opusdec, *tmp_dir;
static input inputs[2];
static guint num_inputs;

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

static gchar *
tmp_path (const gchar * name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

static void
put_le (guint8 * p, guint32 v, gint bytes)
{
  for (gint i = 0; i < bytes; i++)
    p[i] = (guint8) (v >> (8 * i));
}

/* 3 s of 48 kHz stereo: tones, a sweep and a little noise. */
static void
write_wav (const gchar * path)
{
  const gsize frames = 3 * 48000 + 1234, data_size = frames * 4;
  guint8 *file = g_malloc (44 + data_size);
  guint32 s = 12345;

  memcpy (file, "RIFF", 4);
  put_le (file + 4, 36 + data_size, 4);
  memcpy (file + 8, "WAVEfmt ", 8);
  put_le (file + 16, 16, 4);
  put_le (file + 20, 1, 2);
  put_le (file + 22, 2, 2);
  put_le (file + 24, 48000, 4);
  put_le (file + 28, 48000 * 4, 4);
  put_le (file + 32, 4, 2);
  put_le (file + 34, 16, 2);
  memcpy (file + 36, "data", 4);
  put_le (file + 40, data_size, 4);
  for (gsize i = 0; i < frames; i++) {
    for (gint c = 0; c < 2; c++) {
      double t = (double) i / 48000;
      double v = 7000.0 * sin (2 * G_PI * (330.0 + 220.0 * c) * t) +
          3000.0 * sin (2 * G_PI * (500.0 + 3000.0 * t) * t);

      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      put_le (file + 44 + (i * 2 + c) * 2,
          (guint16) (gint16) (v + (gint) (s % 1024) - 512), 2);
    }
  }
  require (g_file_set_contents (path, (gchar *) file, 44 + data_size, NULL),
      "cannot write %s", path);
  g_free (file);
}

/* The rate and channels of a PCM WAV; its data (from the "data" chunk)
 * when data is not NULL. */
static gboolean
read_wav (const gchar * path, gint * rate, gint * channels, GByteArray ** data)
{
  gchar *bytes;
  gsize size, at = 12;
  gboolean ok = FALSE;

  if (!g_file_get_contents (path, &bytes, &size, NULL))
    return FALSE;
  if (size < 12 || memcmp (bytes, "RIFF", 4) || memcmp (bytes + 8, "WAVE", 4))
    goto done;
  while (at + 8 <= size) {
    guint32 len = read_le (bytes + at + 4, 4);

    if (!memcmp (bytes + at, "fmt ", 4) && at + 24 <= size) {
      *channels = read_le (bytes + at + 10, 2);
      *rate = (gint) read_le (bytes + at + 12, 4);
    } else if (!memcmp (bytes + at, "data", 4)) {
      if (data) {
        gsize n = MIN ((gsize) len, size - at - 8);

        *data = g_byte_array_new ();
        g_byte_array_append (*data, (guint8 *) bytes + at + 8, n);
      }
      ok = TRUE;
      break;
    }
    at += 8 + len + (len & 1);
  }
done:
  g_free (bytes);
  return ok;
}

static void
run_command (const gchar * cmd)
{
  gint status;
  gchar *err = NULL;

  require (g_spawn_command_line_sync (cmd, NULL, &err, &status, NULL)
      && g_spawn_check_wait_status (status, NULL), "%s failed: %s", cmd,
      err ? err : "");
  g_free (err);
}

static void
ogg_opus_clear (ogg_opus * o)
{
  g_ptr_array_unref (o->packets);
  g_array_unref (o->granules);
}

/* The packets of the first logical stream of an Ogg file. */
static gboolean
parse_ogg (const gchar * path, ogg_opus * out)
{
  gchar *bytes;
  gsize size, pos = 0;
  GByteArray *packet = g_byte_array_new ();
  guint32 serial = 0;
  gboolean first = TRUE;

  out->packets = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  out->granules = g_array_new (FALSE, FALSE, sizeof (gint64));
  if (!g_file_get_contents (path, &bytes, &size, NULL))
    return FALSE;
  while (pos + 27 <= size && !memcmp (bytes + pos, "OggS", 4)) {
    const guint8 *page = (const guint8 *) bytes + pos;
    gint segments = page[26];
    gint64 granule = (gint64) read_le (page + 6, 8);
    gsize body = pos + 27 + segments;
    gint last_end = -1;

    if (first)
      serial = read_le (page + 14, 4);
    first = FALSE;
    if (body > size)
      break;
    /* The last packet that ends on this page carries its granule. */
    for (gint i = 0; i < segments; i++)
      if (page[27 + i] < 255)
        last_end = i;
    for (gint i = 0; i < segments && read_le (page + 14, 4) == serial;
        i++) {
      gint len = page[27 + i];

      if (body + len > size)
        break;
      g_byte_array_append (packet, (const guint8 *) bytes + body, len);
      body += len;
      if (len < 255) {
        gint64 g = i == last_end ? granule : -1;

        g_ptr_array_add (out->packets, g_bytes_new (packet->data,
                packet->len));
        g_array_append_val (out->granules, g);
        g_byte_array_set_size (packet, 0);
      }
    }
    pos = pos + 27 + segments;
    for (gint i = 0; i < segments; i++)
      pos += page[27 + i];
  }
  g_byte_array_unref (packet);
  g_free (bytes);
  return out->packets->len >= 2;
}

/* The 48 kHz samples of an Opus packet, from its TOC. */
static gint
packet_duration (GBytes * packet)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (packet, &size);
  static const gint silk_frames[4] = { 480, 960, 1920, 2880 };
  gint config, frame, count;

  if (size < 1)
    return 0;
  config = p[0] >> 3;
  if (config < 12)
    frame = silk_frames[config & 3];
  else if (config < 16)
    frame = config & 1 ? 960 : 480;
  else
    frame = 120 << (config & 3);
  count = (p[0] & 3) == 0 ? 1 : (p[0] & 3) < 3 ? 2 : size > 1 ? p[1] & 0x3f :
      0;
  return frame * count;
}

/* ------------------------------------------------------------------ */
/* Pipelines                                                           */

static void
check_bus (GstElement * pipeline, const gchar * launch)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  msg = gst_bus_timed_pop_filtered (bus, PIPELINE_TIMEOUT_S * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS within %d s", launch,
      PIPELINE_TIMEOUT_S);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *error;
    gchar *debug;

    gst_message_parse_error (msg, &error, &debug);
    fail ("%s: error from %s: %s (%s)", launch,
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), error->message, debug);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

static void
run_launch (const gchar * launch)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);

  fail_unless (pipeline != NULL, "%s: %s", launch, error ? error->message :
      "?");
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s: cannot start", launch);
  check_bus (pipeline, launch);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
}

/* Everything "LAUNCH ! appsink name=sink" gives, one GBytes per buffer;
 * the caps of the first sample in *caps if not NULL. */
static GPtrArray *
pull_all (const gchar * launch, GstCaps ** caps)
{
  gchar *full = g_strdup_printf ("%s ! appsink name=sink sync=false", launch);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (full, &error);
  GstElement *sink;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  GstSample *sample;
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipeline != NULL, "%s: %s", full, error ? error->message :
      "?");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  if (caps)
    *caps = NULL;
  for (gint idle = 0; !gst_app_sink_is_eos (GST_APP_SINK (sink));) {
    GstBuffer *buffer;
    GstMapInfo map;

    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), GST_SECOND);
    if (!sample) {
      /* An error stops the pipeline before EOS: say it at once. */
      msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      if (msg) {
        GError *e;
        gchar *debug;

        gst_message_parse_error (msg, &e, &debug);
        fail ("%s: error from %s: %s (%s)", full,
            GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message, debug);
      }
      fail_unless (++idle < PIPELINE_TIMEOUT_S, "%s: no EOS within %d s",
          full, PIPELINE_TIMEOUT_S);
      continue;
    }
    buffer = gst_sample_get_buffer (sample);
    if (caps && !*caps)
      *caps = gst_caps_ref (gst_sample_get_caps (sample));
    fail_unless (gst_buffer_map (buffer, &map, GST_MAP_READ));
    g_ptr_array_add (out, g_bytes_new (map.data, map.size));
    gst_buffer_unmap (buffer, &map);
    gst_sample_unref (sample);
  }
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "%s: an error", full);
  gst_object_unref (bus);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)), "%s did not end",
      full);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (full);
  return out;
}

/* The samples GStreamer decodes from the file, S16LE at 48 kHz, as
 * opusdec --no-dither decodes them: with phase inversion (opusdec's
 * default is off), after opusparse (opusdec does not link to oggdemux's
 * caps for a stream whose OpusHead says 44.1 kHz). */
static GByteArray *
decode (const gchar * path, const gchar * demuxer, gint channels)
{
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! %s ! "
      "opusparse ! opusdec phase-inversion=true ! audioconvert ! "
      "audio/x-raw,format=S16LE,rate=48000,channels=%d", path, demuxer,
      channels);
  GPtrArray *buffers = pull_all (launch, NULL);
  GByteArray *pcm = g_byte_array_new ();

  for (guint i = 0; i < buffers->len; i++) {
    gsize size;
    const guint8 *data = g_bytes_get_data (g_ptr_array_index (buffers, i),
        &size);

    g_byte_array_append (pcm, data, size);
  }
  g_ptr_array_unref (buffers);
  g_free (launch);
  return pcm;
}

/* Where `got` holds `ref`: got = `lead` samples more (negative: fewer) at
 * the start, then ref's, then `tail` more (fewer) at the end. FALSE when
 * they do not line up (other samples). */
static gboolean
line_up (const GByteArray * ref, const GByteArray * got, gint channels,
    gint64 * lead, gint64 * tail)
{
  const gsize fb = 2 * channels;
  const gint64 r = ref->len / fb, g = got->len / fb;
  const gint64 probe_at = MIN (r / 2, 20000), probe = MIN (r - probe_at, 2000);

  for (gint64 l = -10000; l <= 10000; l++) {
    gint64 at = probe_at + l, n;

    if (at < 0 || at + probe > g)
      continue;
    if (memcmp (got->data + at * fb, ref->data + probe_at * fb, probe * fb))
      continue;
    /* All of the overlap, not only the probe. */
    n = MIN (r, g - l) - MAX (0, -l);
    if (n <= 0 || memcmp (got->data + MAX (0, l) * fb,
            ref->data + MAX (0, -l) * fb, n * fb))
      return FALSE;
    *lead = l;
    *tail = g - l - r;
    return TRUE;
  }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/* GStreamer's decode of opusenc's file: the reference of the decode
 * checks. */
static GByteArray *
reference_pcm (const input * in)
{
  return decode (in->reference, "oggdemux", in->channels);
}

/* GStreamer's decode of opusenc's file is opusdec's, sample for sample. */
GST_START_TEST (test_reference_decode)
{
  input *in = &inputs[__i__];
  gsize fb = 2 * in->channels;
  GByteArray *ref_pcm = reference_pcm (in);
  guint64 differ = 0;
  gint max_diff = 0;

  fail_unless_equals_uint64 (ref_pcm->len / fb, in->opusdec_pcm->len / fb);
  for (gsize i = 0; i + 1 < ref_pcm->len; i += 2) {
    gint a = (gint16) read_le (ref_pcm->data + i, 2);
    gint b = (gint16) read_le (in->opusdec_pcm->data + i, 2);

    if (a != b) {
      differ++;
      max_diff = MAX (max_diff, ABS (a - b));
    }
  }
  g_print ("%s: opusenc's file decodes to %" G_GSIZE_FORMAT " samples with "
      "GStreamer and with opusdec; %" G_GUINT64_FORMAT " of them differ "
      "(at most by %d)\n", in->name, ref_pcm->len / fb, differ, max_diff);
  fail_unless_equals_uint64 (differ, 0);
  g_byte_array_unref (ref_pcm);
}

GST_END_TEST;

/* filesink: opusenc's file itself. */
GST_START_TEST (test_filesink)
{
  input *in = &inputs[__i__];
  gchar *out = tmp_path ("filesink.opus");
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "ctopusenc serial=%d ! filesink location=\"%s\"", in->wav, SERIAL, out);
  gchar *a, *b;
  gsize na, nb;

  run_launch (launch);
  fail_unless (g_file_get_contents (out, &a, &na, NULL));
  fail_unless (g_file_get_contents (in->reference, &b, &nb, NULL));
  fail_unless (na == nb && memcmp (a, b, na) == 0, "%s: %" G_GSIZE_FORMAT
      " bytes, not opusenc's %" G_GSIZE_FORMAT, in->name, na, nb);
  g_free (a);
  g_free (b);
  g_free (launch);
  g_free (out);
}

GST_END_TEST;

typedef struct muxer
{
  const gchar *muxer, *demuxer, *ext;
} muxer;

static const muxer muxers[] = {
  {"oggmux", "oggdemux", "ogg"},
  {"matroskamux", "matroskademux", "mkv"},
  {"webmmux", "matroskademux", "webm"},
  {"mp4mux", "qtdemux", "mp4"},
};

/* ENCODER ! MUXER ! filesink of the input; the file's path. */
static gchar *
mux (const input * in, const gchar * encoder, const muxer * m,
    const gchar * name)
{
  gchar *out = tmp_path (name);
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "%s ! %s ! filesink location=\"%s\"", in->wav, encoder, m->muxer, out);

  GST_INFO ("%s", launch);
  run_launch (launch);
  g_free (launch);
  return out;
}

/* The audio packets in the file, through its demuxer (Ogg: parsed). */
static GPtrArray *
audio_packets (const gchar * path, const muxer * m, GstCaps ** caps)
{
  GPtrArray *packets;

  if (!strcmp (m->muxer, "oggmux")) {
    ogg_opus o;

    fail_unless (parse_ogg (path, &o), "%s: not an Ogg Opus file", path);
    packets = g_ptr_array_new_with_free_func ((GDestroyNotify)
        g_bytes_unref);
    for (guint i = 2; i < o.packets->len; i++)
      g_ptr_array_add (packets, g_bytes_ref (g_ptr_array_index (o.packets,
                  i)));
    ogg_opus_clear (&o);
    *caps = NULL;
  } else {
    gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! %s", path,
        m->demuxer);

    packets = pull_all (launch, caps);
    g_free (launch);
  }
  return packets;
}

/* The encoder GStreamer has for Opus, at the rates it takes. */
static gchar *
gst_opusenc_launch (const input * in)
{
  return g_strdup (in->rate == 48000 ? "opusenc" :
      "audioresample ! audio/x-raw,rate=48000 ! opusenc");
}

GST_START_TEST (test_muxer)
{
  const input *in = &inputs[__i__ / G_N_ELEMENTS (muxers)];
  const muxer *m = &muxers[__i__ % G_N_ELEMENTS (muxers)];
  gchar *name = g_strdup_printf ("ct.%s", m->ext);
  gchar *encoder = g_strdup_printf ("ctopusenc serial=%d", SERIAL);
  gchar *path = mux (in, encoder, m, name);
  GPtrArray *packets;
  GstCaps *caps = NULL;
  GByteArray *pcm, *ref_pcm = reference_pcm (in);
  gint64 lead = 0, tail = 0, gst_lead = 0, gst_tail = 0;
  gsize fb = 2 * in->channels;
  gboolean lined_up;

  /* The packets: opusenc's, all of them. */
  packets = audio_packets (path, m, &caps);
  fail_unless_equals_int (packets->len, in->ref.packets->len - 2);
  for (guint i = 0; i < packets->len; i++)
    fail_unless (g_bytes_equal (g_ptr_array_index (packets, i),
            g_ptr_array_index (in->ref.packets, i + 2)),
        "%s, %s: packet %u differs from opusenc's", in->name, m->muxer, i);
  if (caps) {
    gchar *s = gst_caps_to_string (caps);

    g_print ("%s, %s: demuxed caps %s\n", in->name, m->muxer, s);
    g_free (s);
    gst_caps_unref (caps);
  }

  /* Ogg: the headers and the granule positions of opusenc's file. */
  if (!strcmp (m->muxer, "oggmux")) {
    ogg_opus o;
    gint64 cum = 0;
    guint checked = 0;

    fail_unless (parse_ogg (path, &o));
    for (guint i = 0; i < 2; i++)
      fail_unless (g_bytes_equal (g_ptr_array_index (o.packets, i),
              g_ptr_array_index (in->ref.packets, i)), "%s: header %u differs",
          in->name, i);
    for (guint i = 2; i < o.packets->len; i++) {
      gint64 g = g_array_index (o.granules, gint64, i);
      gint64 expected;

      cum += packet_duration (g_ptr_array_index (o.packets, i));
      expected = i + 1 == o.packets->len ? g_array_index (in->ref.granules,
          gint64, in->ref.granules->len - 1) : cum;
      if (g < 0)
        continue;
      fail_unless_equals_int64 (g, expected);
      checked++;
    }
    fail_unless (checked > 0);
    g_print ("%s, oggmux: %u packets and %u page granules as opusenc's "
        "(last %" G_GINT64_FORMAT ")\n", in->name, o.packets->len, checked,
        g_array_index (o.granules, gint64, o.granules->len - 1));
    ogg_opus_clear (&o);
  }

  /* The decode: opusenc's samples, as many, or what GStreamer's own
   * encoder loses in the same muxer. */
  pcm = decode (path, m->demuxer, in->channels);
  lined_up = line_up (ref_pcm, pcm, in->channels, &lead, &tail);
  fail_unless (lined_up, "%s, %s: the decoded samples are not opusenc's",
      in->name, m->muxer);
  g_print ("%s, %s: ctopusenc decodes to %" G_GSIZE_FORMAT " samples, "
      "opusenc's file to %" G_GSIZE_FORMAT " (the input: %" G_GUINT64_FORMAT
      " at 48 kHz): %" G_GINT64_FORMAT " more at the start, %"
      G_GINT64_FORMAT " more at the end\n", in->name, m->muxer,
      pcm->len / fb, ref_pcm->len / fb, in->frames48, lead, tail);
  {
    /* GStreamer's opusenc: in the muxer, against its own Ogg stream (for
     * the record where ctopusenc loses nothing). */
    gchar *gst_encoder = gst_opusenc_launch (in);
    gchar *gst_name = g_strdup_printf ("gst.%s", m->ext);
    gchar *gst_ogg = mux (in, gst_encoder, &muxers[0], "gst-ref.ogg");
    gchar *gst_path = m == &muxers[0] ? g_strdup (gst_ogg) :
        mux (in, gst_encoder, m, gst_name);
    GByteArray *gst_ref = decode (gst_ogg, "oggdemux", in->channels);
    GByteArray *gst_pcm = decode (gst_path, m->demuxer, in->channels);

    fail_unless (line_up (gst_ref, gst_pcm, in->channels, &gst_lead,
            &gst_tail));
    g_print ("%s, %s: GStreamer's opusenc decodes to %" G_GSIZE_FORMAT
        " samples, through oggmux to %" G_GSIZE_FORMAT " (the input: %"
        G_GUINT64_FORMAT " at 48 kHz): %" G_GINT64_FORMAT " more at the "
        "start, %" G_GINT64_FORMAT " more at the end\n", in->name, m->muxer,
        gst_pcm->len / fb, gst_ref->len / fb, in->frames48, gst_lead,
        gst_tail);
    fail_unless ((lead == 0 && tail == 0) || (lead == gst_lead &&
            tail == gst_tail), "%s, %s: ctopusenc "
        "loses (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") samples, "
        "GStreamer's opusenc (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
        in->name, m->muxer, lead, tail, gst_lead, gst_tail);
    g_byte_array_unref (gst_ref);
    g_byte_array_unref (gst_pcm);
    g_free (gst_path);
    g_free (gst_ogg);
    g_free (gst_name);
    g_free (gst_encoder);
  }

  g_byte_array_unref (pcm);
  g_byte_array_unref (ref_pcm);
  g_ptr_array_unref (packets);
  g_free (path);
  g_free (encoder);
  g_free (name);
}

GST_END_TEST;

static Suite *
opus_muxers_suite (void)
{
  Suite *s = suite_create ("opus_muxers");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_reference_decode, 0, num_inputs);
  tcase_add_loop_test (tc, test_filesink, 0, num_inputs);
  tcase_add_loop_test (tc, test_muxer, 0, num_inputs *
      G_N_ELEMENTS (muxers));
  return s;
}

/* ------------------------------------------------------------------ */
/* Setup                                                               */

static void
prepare_input (input * in, const gchar * name, gchar * wav)
{
  gchar *decoded = tmp_path ("opusdec.wav"), *cmd;
  gint rate, channels;
  GByteArray *data;

  in->name = name;
  in->wav = wav;
  require (read_wav (wav, &in->rate, &in->channels, &data), "%s: not a WAV",
      wav);
  /* 16-bit samples, both inputs. */
  in->frames48 = ((guint64) data->len / (2 * in->channels) * 48000 +
      in->rate - 1) / in->rate;
  g_byte_array_unref (data);
  in->reference = tmp_path (in == &inputs[0] ? "ref0.opus" : "ref1.opus");
  cmd = g_strdup_printf ("%s --quiet --serial %d \"%s\" \"%s\"", opusenc,
      SERIAL, wav, in->reference);
  run_command (cmd);
  g_free (cmd);
  require (parse_ogg (in->reference, &in->ref), "%s: not Ogg Opus",
      in->reference);
  cmd = g_strdup_printf ("%s --quiet --rate 48000 --no-dither \"%s\" \"%s\"",
      opusdec, in->reference, decoded);
  run_command (cmd);
  g_free (cmd);
  require (read_wav (decoded, &rate, &channels, &in->opusdec_pcm),
      "%s: no samples", decoded);
  require (rate == 48000 && channels == in->channels, "%s: %d Hz, %d "
      "channel(s)", decoded, rate, channels);
  g_free (decoded);
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

static const gchar *const needed[] = {
  "ctopusenc", "filesrc", "filesink", "wavparse", "oggmux", "oggdemux",
  "matroskamux", "matroskademux", "webmmux", "mp4mux", "qtdemux", "opusparse", "opusdec",
  "opusenc",
  "audioconvert", "audioresample", "appsink",
};

int
main (int argc, char **argv)
{
  gchar *clip = NULL;
  gint failed;

  gst_check_init (&argc, &argv);
  opusenc = g_strdup (g_getenv ("OPUSENC"));
  if (!opusenc)
    opusenc = g_find_program_in_path ("opusenc");
  opusdec = g_find_program_in_path ("opusdec");
  if (!opusenc || !opusdec) {
    g_print ("SKIP: no %s program (Debian: opus-tools)\n",
        opusenc ? "opusdec" : "opusenc");
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

  tmp_dir = g_dir_make_tmp ("opus_muxers-XXXXXX", NULL);
  require (tmp_dir != NULL, "no temporary directory");
  if (argc > 1) {
    clip = g_build_filename (argv[1], CORPUS_CLIP, NULL);
    if (!g_file_test (clip, G_FILE_TEST_EXISTS)) {
      g_print ("no %s: the generated WAV only\n", clip);
      g_clear_pointer (&clip, g_free);
    }
  }
  if (clip)
    prepare_input (&inputs[num_inputs++], CORPUS_CLIP, clip);
  {
    gchar *wav = tmp_path ("generated.wav");

    write_wav (wav);
    prepare_input (&inputs[num_inputs++], "generated 48 kHz stereo", wav);
  }

  failed = gst_check_run_suite (opus_muxers_suite (), "opus_muxers",
      __FILE__);

  for (guint i = 0; i < num_inputs; i++) {
    ogg_opus_clear (&inputs[i].ref);
    g_byte_array_unref (inputs[i].opusdec_pcm);
    g_free (inputs[i].reference);
    g_free (inputs[i].wav);
  }
  remove_tmp_dir ();
  g_free (tmp_dir);
  g_free (opusenc);
  g_free (opusdec);
  return failed;
}
