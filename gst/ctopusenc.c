/*
 * ctopusenc: encodes raw audio to Opus with ctcore's port of libopus 1.3.1
 * and libopusenc 0.2.1, writing exactly the bytes opus-tools' opusenc 0.2
 * writes for the same samples and settings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-ctopusenc
 * @title: ctopusenc
 *
 * Encodes 8-, 16-, 24- and 32-bit and float PCM, 1 to 255 channels, at
 * any rate from 8 to 192 kHz (resampled to 48 kHz as opusenc resamples it)
 * to Opus, byte-identical to Debian's `opusenc --serial N` on the same WAV
 * with the same settings.
 *
 * Channels: mono and stereo as they come. 3 to 8 channels are coded as
 * opusenc codes them (mapping family 1, surround: 5.1 as FL FR FC LFE RL
 * RR in, 7.1 as FL FR FC LFE RL RR SL SR...): the channels, in GStreamer's
 * order (the order of WAVE_FORMAT_EXTENSIBLE's channel mask, as wavparse
 * gives them), are put into Vorbis' order by their count as opusenc's WAV
 * reader does, whatever the positions (opusenc reads the mask only to
 * warn about it). Above 8 channels (family 255) every channel is a stream
 * of its own, in the order it comes. Below 16 kb/s per channel opusenc,
 * and so the element, mixes surround down to stereo (mono above 8).
 *
 * Downstream picks what comes out:
 *
 * - `application/ogg` (filesink, and any element that takes it): the whole
 *   Ogg Opus stream, page by page: opusenc's file.
 * - `audio/x-opus` (oggmux, matroskamux, webmmux, mp4mux): the same Opus
 *   packets, with OpusHead and OpusTags as the caps' streamheader, the
 *   pre-skip in OpusHead and, on the first and last packets, the samples
 *   to trim as #GstAudioClippingMeta (at 48 kHz).
 *
 * Tags from upstream and from the #GstTagSetter interface become the
 * comments opusenc writes for `--title`, `--artist`, `--album`, `--date`,
 * `--genre`, `--tracknumber` (in that order) and `--comment comment=...`;
 * ENCODER_OPTIONS holds what opusenc saves for the properties that differ
 * from their defaults, in the order of the properties (see
 * ct_opus_encoder_options()). So `ctopusenc bitrate=32000 complexity=5
 * serial=7` writes what `opusenc --bitrate 32 --comp 5 --serial 7` writes.
 *
 * The tonality analysis looks up to 2 s ahead, as in opusenc: packets come
 * out up to 2 s after their samples went in, which the element reports as
 * its latency.
 *
 * Every frame is coded in the mode libopus codes it in: CELT, SILK
 * (speech, low bitrates) or Hybrid, mode switches included.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=in.wav ! wavparse ! ctopusenc serial=1 ! \
 *     filesink location=out.opus
 * ]| The same bytes as `opusenc --serial 1 in.wav out.opus`.
 * |[
 * gst-launch-1.0 filesrc location=in.wav ! wavparse ! \
 *     ctopusenc bitrate=128000 ! matroskamux ! filesink location=out.mka
 * ]| The packets of `opusenc --bitrate 128` in Matroska.
 */
#include "config.h"

#include "ctopusenc.h"
#include "ctelement.h"

#include <stdint.h>
#include <string.h>

#include <gst/pbutils/pbutils.h>
#include <gst/tag/tag.h>

#include "ctcore/opus.h"
#include "ctcore/runtime.h"

GST_DEBUG_CATEGORY_STATIC (gst_ct_opus_enc_debug);
#define GST_CAT_DEFAULT gst_ct_opus_enc_debug

typedef enum
{
  GST_CT_OPUS_ENC_FRAME_SIZE_2_5 = 2,
  GST_CT_OPUS_ENC_FRAME_SIZE_5 = 5,
  GST_CT_OPUS_ENC_FRAME_SIZE_10 = 10,
  GST_CT_OPUS_ENC_FRAME_SIZE_20 = 20,
  GST_CT_OPUS_ENC_FRAME_SIZE_40 = 40,
  GST_CT_OPUS_ENC_FRAME_SIZE_60 = 60,
} GstCtOpusEncFrameSize;

/* opusenc's defaults. */
#define DEFAULT_BITRATE 0
/* opusenc's most for 255 channels: 256 kb/s each (more is clamped to that
 * per channel; more than 1024 kb/s per channel is refused) */
#define MAX_BITRATE (256000 * 255)
#define DEFAULT_BITRATE_TYPE CT_OPUS_VBR
#define DEFAULT_COMPLEXITY 10
#define DEFAULT_FRAME_SIZE GST_CT_OPUS_ENC_FRAME_SIZE_20
#define DEFAULT_SIGNAL CT_OPUS_SIGNAL_AUTO
#define DEFAULT_PACKET_LOSS 0
#define DEFAULT_MAX_DELAY 1000
#define DEFAULT_SERIAL -1

enum
{
  PROP_0,
  PROP_BITRATE,
  PROP_BITRATE_TYPE,
  PROP_COMPLEXITY,
  PROP_FRAME_SIZE,
  PROP_SIGNAL,
  PROP_PACKET_LOSS_PERCENTAGE,
  PROP_MAX_DELAY,
  PROP_SERIAL,
  PROP_THREADS,
};

struct _GstCtOpusEnc
{
  GstAudioEncoder parent;

  /* The properties, under the object lock; each stream's encoder is set up
   * with a copy taken when its first samples (or its end) arrive. */
  gint bitrate;
  ct_opus_bitrate_type bitrate_type;
  gint complexity;
  GstCtOpusEncFrameSize frame_size;
  ct_opus_signal signal;
  gint packet_loss;
  gint max_delay;
  gint serial;
  gint threads;                 /* read at start */

  /* Streaming thread only. */
  ct_pool *pool;                /* from start to stop */
  ct_opus_encoder *encoder;     /* of the current stream, once it has data */
  gboolean have_format;         /* caps arrived: a stream can start */
  gint rate;
  gint channels;
  ct_opus_format format;
  gint sample_size;             /* bytes per sample */
  ct_opus_output output;        /* what downstream takes */
  guint32 next_serial;          /* of the next stream, serial given */
  gboolean serial_chosen;       /* next_serial is set */
  GstTagList *upstream_tags;    /* from tag events of this stream */
  guint64 samples_sent;         /* to the encoder, per channel */
  guint64 samples_finished;     /* told to the base class */
  gint preskip;                 /* of the current stream (48 kHz) */
  guint64 duration_out;         /* the audio packets' total duration at
                                 * 48 kHz, in the current stream */
  gboolean drained;             /* the encoder needs a reset for new input */
  guint8 *aligned;              /* a copy of misaligned or reordered input */
  gsize aligned_size;
  /* 3 to 8 channels: input channel of each channel the encoder takes
   * (opus-tools' wav_permute_matrix); NULL: as they come */
  const guint8 *reorder;
};

/* opus-tools 0.2 opus_header.c wav_permute_matrix: the encoder's channel j
 * (Vorbis order) is the input's channel [channels - 1][j] (WAV order) */
static const guint8 wav_permute_matrix[8][8] = {
  {0},                          /* 1.0 mono   */
  {0, 1},                       /* 2.0 stereo */
  {0, 2, 1},                    /* 3.0 channel ('wide') stereo */
  {0, 1, 2, 3},                 /* 4.0 discrete quadraphonic */
  {0, 2, 1, 3, 4},              /* 5.0 surround */
  {0, 2, 1, 4, 5, 3},           /* 5.1 surround */
  {0, 2, 1, 5, 6, 4, 3},        /* 6.1 surround */
  {0, 2, 1, 6, 7, 4, 5, 3},     /* 7.1 surround (classic theater 8-track) */
};

/* The formats opusenc reads from WAV, as they come (opusenc converts them
 * to float itself, and so does ctcore); 16-bit first, GStreamer opusenc's
 * and what audioconvert picks for 16-bit sources. Any rate that opusenc
 * resamples from 8 to 192 kHz. */
#define SINK_FORMATS "format = (string) { " GST_AUDIO_NE (S16) ", " \
    GST_AUDIO_NE (F32) ", S24LE, " GST_AUDIO_NE (S32) ", U8 }"
static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("audio/x-raw, " SINK_FORMATS ", "
        "layout = (string) interleaved, rate = (int) [ 8000, 192000 ], "
        "channels = (int) [ 1, 255 ]"));

/* The Ogg stream first: what a filesink gets, opusenc's file. */
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/ogg; "
        "audio/x-opus, channel-mapping-family = (int) 0, "
        "rate = (int) [ 8000, 192000 ], channels = (int) [ 1, 2 ]; "
        "audio/x-opus, channel-mapping-family = (int) 1, "
        "rate = (int) [ 8000, 192000 ], channels = (int) [ 3, 8 ]; "
        "audio/x-opus, channel-mapping-family = (int) 255, "
        "rate = (int) [ 8000, 192000 ], channels = (int) [ 9, 255 ]"));

#define GST_TYPE_CT_OPUS_ENC_BITRATE_TYPE \
  (gst_ct_opus_enc_bitrate_type_get_type ())
static GType
gst_ct_opus_enc_bitrate_type_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CT_OPUS_VBR, "Unconstrained VBR (opusenc's default)", "vbr"},
    {CT_OPUS_CVBR, "Constrained VBR (opusenc --cvbr)", "constrained-vbr"},
    {CT_OPUS_CBR, "Hard CBR (opusenc --hard-cbr)", "cbr"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtOpusEncBitrateType", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CT_OPUS_ENC_FRAME_SIZE (gst_ct_opus_enc_frame_size_get_type ())
static GType
gst_ct_opus_enc_frame_size_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CT_OPUS_ENC_FRAME_SIZE_2_5, "2.5 ms (opusenc --framesize 2.5)",
        "2.5"},
    {GST_CT_OPUS_ENC_FRAME_SIZE_5, "5 ms (opusenc --framesize 5)", "5"},
    {GST_CT_OPUS_ENC_FRAME_SIZE_10, "10 ms (opusenc --framesize 10)", "10"},
    {GST_CT_OPUS_ENC_FRAME_SIZE_20, "20 ms (opusenc's default)", "20"},
    {GST_CT_OPUS_ENC_FRAME_SIZE_40, "40 ms (opusenc --framesize 40)", "40"},
    {GST_CT_OPUS_ENC_FRAME_SIZE_60, "60 ms (opusenc --framesize 60)", "60"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtOpusEncFrameSize", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CT_OPUS_ENC_SIGNAL (gst_ct_opus_enc_signal_get_type ())
static GType
gst_ct_opus_enc_signal_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CT_OPUS_SIGNAL_AUTO, "Detected by the encoder (opusenc's default)",
        "auto"},
    {CT_OPUS_SIGNAL_MUSIC, "Music (opusenc --music)", "music"},
    {CT_OPUS_SIGNAL_VOICE, "Voice (opusenc --speech)", "voice"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtOpusEncSignal", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_ct_opus_enc_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCtOpusEnc, gst_ct_opus_enc,
    GST_TYPE_AUDIO_ENCODER, G_IMPLEMENT_INTERFACE (GST_TYPE_TAG_SETTER, NULL));
/* Below opusenc (primary): opusenc's bytes come with opusenc's 2 s of
 * lookahead, which autoplugging must not bring into live and real-time
 * pipelines (encodebin, webrtcbin) that expect GStreamer opusenc's 20 ms;
 * ask for ctopusenc by name. */
GST_ELEMENT_REGISTER_DEFINE (ctopusenc, "ctopusenc", GST_RANK_SECONDARY,
    GST_TYPE_CT_OPUS_ENC);

static void
gst_ct_opus_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BITRATE:
      self->bitrate = g_value_get_int (value);
      break;
    case PROP_BITRATE_TYPE:
      self->bitrate_type = g_value_get_enum (value);
      break;
    case PROP_COMPLEXITY:
      self->complexity = g_value_get_int (value);
      break;
    case PROP_FRAME_SIZE:
      self->frame_size = g_value_get_enum (value);
      break;
    case PROP_SIGNAL:
      self->signal = g_value_get_enum (value);
      break;
    case PROP_PACKET_LOSS_PERCENTAGE:
      self->packet_loss = g_value_get_int (value);
      break;
    case PROP_MAX_DELAY:
      self->max_delay = g_value_get_int (value);
      break;
    case PROP_SERIAL:
      self->serial = g_value_get_int (value);
      self->serial_chosen = FALSE;
      break;
    case PROP_THREADS:
      self->threads = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_ct_opus_enc_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BITRATE:
      g_value_set_int (value, self->bitrate);
      break;
    case PROP_BITRATE_TYPE:
      g_value_set_enum (value, self->bitrate_type);
      break;
    case PROP_COMPLEXITY:
      g_value_set_int (value, self->complexity);
      break;
    case PROP_FRAME_SIZE:
      g_value_set_enum (value, self->frame_size);
      break;
    case PROP_SIGNAL:
      g_value_set_enum (value, self->signal);
      break;
    case PROP_PACKET_LOSS_PERCENTAGE:
      g_value_set_int (value, self->packet_loss);
      break;
    case PROP_MAX_DELAY:
      g_value_set_int (value, self->max_delay);
      break;
    case PROP_SERIAL:
      g_value_set_int (value, self->serial);
      break;
    case PROP_THREADS:
      g_value_set_int (value, self->threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The frame sizes in samples at 48 kHz. */
static gint
frame_size_samples (GstCtOpusEncFrameSize frame_size)
{
  return frame_size == GST_CT_OPUS_ENC_FRAME_SIZE_2_5 ? 120 :
      (gint) frame_size * 48;
}

/* The serial number of the next stream: the property's, then one more for
 * each stream after it (a chained Ogg file needs a new serial per link);
 * with -1, a random one for each, as opusenc picks one per run. */
static guint32
gst_ct_opus_enc_take_serial (GstCtOpusEnc * self, gint property)
{
  guint32 serial;

  if (property < 0)
    return (guint32) g_random_int_range (0, G_MAXINT32);
  if (!self->serial_chosen) {
    self->next_serial = (guint32) property;
    self->serial_chosen = TRUE;
  }
  serial = self->next_serial++;
  return serial;
}

/* The comment opusenc writes for a tag, as "name=value" (its --title,
 * --artist... flags keep the flag's name in lower case); NULL for a tag it
 * has no flag for. */
static gchar *
comment_for_tag (const GstTagList * tags, const gchar * tag,
    const gchar * name)
{
  gchar *value = NULL, *comment;

  if (strcmp (tag, GST_TAG_TRACK_NUMBER) == 0) {
    guint number;

    if (!gst_tag_list_get_uint (tags, tag, &number))
      return NULL;
    return g_strdup_printf ("%s=%u", name, number);
  }
  if (strcmp (tag, GST_TAG_DATE_TIME) == 0) {
    GstDateTime *date;

    if (!gst_tag_list_get_date_time (tags, tag, &date))
      return NULL;
    value = gst_date_time_to_iso8601_string (date);
    gst_date_time_unref (date);
  } else if (!gst_tag_list_get_string (tags, tag, &value)) {
    return NULL;
  }
  if (!value)
    return NULL;
  comment = g_strdup_printf ("%s=%s", name, value);
  g_free (value);
  return comment;
}

/* The stream's tags: the application's (GstTagSetter) merged with
 * upstream's in the setter's merge mode. */
static GstTagList *
gst_ct_opus_enc_merged_tags (GstCtOpusEnc * self)
{
  GstTagSetter *setter = GST_TAG_SETTER (self);
  const GstTagList *set = gst_tag_setter_get_tag_list (setter);

  return gst_tag_list_merge (set, self->upstream_tags,
      gst_tag_setter_get_tag_merge_mode (setter));
}

/* The comments, in the order of opusenc's flags as listed above. */
static GPtrArray *
gst_ct_opus_enc_comments (GstCtOpusEnc * self)
{
  static const struct
  {
    const gchar *tag;
    const gchar *name;
  } map[] = {
    {GST_TAG_TITLE, "title"},
    {GST_TAG_ARTIST, "artist"},
    {GST_TAG_ALBUM, "album"},
    {GST_TAG_DATE_TIME, "date"},
    {GST_TAG_GENRE, "genre"},
    {GST_TAG_TRACK_NUMBER, "tracknumber"},
    {GST_TAG_COMMENT, "comment"},
  };
  GPtrArray *comments = g_ptr_array_new_with_free_func (g_free);
  GstTagList *tags = gst_ct_opus_enc_merged_tags (self);
  gsize i;

  if (!tags)
    return comments;
  for (i = 0; i < G_N_ELEMENTS (map); i++) {
    gchar *comment = comment_for_tag (tags, map[i].tag, map[i].name);

    if (comment)
      g_ptr_array_add (comments, comment);
  }
  gst_tag_list_unref (tags);
  return comments;
}

/* The opusenc settings the properties stand for. */
static void
gst_ct_opus_enc_get_settings (GstCtOpusEnc * self, ct_opus_settings * s,
    gint * serial)
{
  ct_opus_settings_default (s);
  GST_OBJECT_LOCK (self);
  s->bitrate = self->bitrate;
  s->bitrate_type = self->bitrate_type;
  s->complexity = self->complexity;
  s->frame_size = frame_size_samples (self->frame_size);
  s->signal = self->signal;
  s->packet_loss_percentage = self->packet_loss;
  s->max_delay_ms = self->max_delay;
  *serial = self->serial;
  GST_OBJECT_UNLOCK (self);
}

/* A new stream in the same element: after the caps, a flush or a drain. */
static void
gst_ct_opus_enc_start_stream (GstCtOpusEnc * self)
{
  g_clear_pointer (&self->encoder, ct_opus_encoder_free);
  self->samples_sent = 0;
  self->samples_finished = 0;
  self->duration_out = 0;
  self->drained = FALSE;
}

static gboolean
gst_ct_opus_enc_start (GstAudioEncoder * encoder)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (encoder);

  self->serial_chosen = FALSE;
  return gst_ct_element_start_pool (GST_ELEMENT (self), &self->threads,
      &self->pool);
}

static gboolean
gst_ct_opus_enc_stop (GstAudioEncoder * encoder)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (encoder);

  gst_ct_opus_enc_start_stream (self);
  self->have_format = FALSE;
  g_clear_pointer (&self->upstream_tags, gst_tag_list_unref);
  gst_ct_element_stop_pool (&self->pool);
  g_clear_pointer (&self->aligned, g_free);
  self->aligned_size = 0;
  return TRUE;
}

static ct_opus_format
opus_format (GstAudioFormat format)
{
  switch (format) {
    case GST_AUDIO_FORMAT_F32:
      return CT_OPUS_F32;
    case GST_AUDIO_FORMAT_S24LE:
      return CT_OPUS_S24;
    case GST_AUDIO_FORMAT_S32:
      return CT_OPUS_S32;
    case GST_AUDIO_FORMAT_U8:
      return CT_OPUS_U8;
    default:
      return CT_OPUS_S16;
  }
}

/* What downstream takes: the Ogg stream unless it wants only packets. */
static ct_opus_output
gst_ct_opus_enc_pick_output (GstCtOpusEnc * self)
{
  GstPad *srcpad = GST_AUDIO_ENCODER_SRC_PAD (self);
  GstCaps *templ = gst_pad_get_pad_template_caps (srcpad);
  GstCaps *allowed = gst_pad_peer_query_caps (srcpad, templ);
  ct_opus_output output = CT_OPUS_OUTPUT_OGG;

  if (allowed && !gst_caps_is_empty (allowed)) {
    GstStructure *s = gst_caps_get_structure (allowed, 0);

    if (gst_structure_has_name (s, "audio/x-opus"))
      output = CT_OPUS_OUTPUT_PACKETS;
  }
  if (allowed)
    gst_caps_unref (allowed);
  gst_caps_unref (templ);
  return output;
}

static gboolean
gst_ct_opus_enc_set_format (GstAudioEncoder * encoder, GstAudioInfo * info)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (encoder);

  /* The base class has drained the previous stream, if any: the new caps
   * start a new one, set up at its first samples, once its tags are in. */
  gst_ct_opus_enc_start_stream (self);
  self->rate = GST_AUDIO_INFO_RATE (info);
  self->channels = GST_AUDIO_INFO_CHANNELS (info);
  /* Caps carry a channel mask, so the channels come in GStreamer's order
   * of positions, WAV's for WAV's positions: opusenc's reader takes WAV's
   * order by the channel count alone. 4 channels keep theirs. */
  self->reorder = self->channels >= 3 && self->channels <= 8
      && self->channels != 4 ? wav_permute_matrix[self->channels - 1] : NULL;
  self->format = opus_format (GST_AUDIO_INFO_FORMAT (info));
  self->sample_size = GST_AUDIO_INFO_WIDTH (info) / 8;
  self->output = gst_ct_opus_enc_pick_output (self);
  self->have_format = TRUE;
  GST_INFO_OBJECT (self, "%d Hz, %d channel(s), %s out", self->rate,
      self->channels, self->output == CT_OPUS_OUTPUT_OGG ? "Ogg pages" :
      "Opus packets");
  return TRUE;
}

/* The output caps for the encoder's headers, and the headers themselves
 * for the packets' streamheader. */
static gboolean
gst_ct_opus_enc_set_output_caps (GstCtOpusEnc * self)
{
  GstAudioEncoder *encoder = GST_AUDIO_ENCODER (self);
  GstCaps *caps;
  gboolean ret;

  if (self->output == CT_OPUS_OUTPUT_OGG) {
    caps = gst_caps_new_empty_simple ("application/ogg");
  } else {
    ct_opus_packet head, tags;
    GstBuffer *head_buf, *tags_buf;

    /* In the caps only, as GStreamer's opusenc: muxers take them from the
     * streamheader, and mp4mux refuses in-band headers (they have no
     * timestamps). */
    ct_opus_encoder_headers (self->encoder, &head, &tags);
    head_buf = gst_buffer_new_memdup (head.data, head.size);
    tags_buf = gst_buffer_new_memdup (tags.data, tags.size);
    caps = gst_codec_utils_opus_create_caps_from_header (head_buf, tags_buf);
    gst_buffer_unref (head_buf);
    gst_buffer_unref (tags_buf);
  }
  if (!caps) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Could not make the caps "
            "of the Opus headers"), (NULL));
    return FALSE;
  }
  ret = gst_audio_encoder_set_output_format (encoder, caps);
  gst_caps_unref (caps);
  if (!ret)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Downstream refused %s",
            self->output == CT_OPUS_OUTPUT_OGG ? "application/ogg" :
            "audio/x-opus"), (NULL));
  return ret;
}

/* The stream's encoder, at its first samples or its end. */
static gboolean
gst_ct_opus_enc_open_stream (GstCtOpusEnc * self)
{
  ct_opus_settings settings;
  GPtrArray *comments;
  char options[512], err[256] = "";
  gint serial_property, delay;
  GstClockTime latency;
  int r;

  gst_ct_opus_enc_get_settings (self, &settings, &serial_property);
  settings.sample_rate = self->rate;
  settings.channels = self->channels;
  settings.output = self->output;
  settings.serial = gst_ct_opus_enc_take_serial (self, serial_property);
  comments = gst_ct_opus_enc_comments (self);
  settings.comments = (const char *const *) comments->pdata;
  settings.num_comments = (int) comments->len;
  ct_opus_encoder_options (&settings, serial_property >= 0, options,
      sizeof (options));
  settings.encoder_options = options;

  r = ct_opus_encoder_new (self->pool, &settings, &self->encoder, err,
      sizeof (err));
  g_ptr_array_unref (comments);
  if (r < 0) {
    GST_CT_ELEMENT_ERROR (self, r, err, "ct_opus_encoder_new",
        "Cannot set up the Opus encoder for %d Hz, %d channel(s)",
        settings.sample_rate, settings.channels);
    return FALSE;
  }
  self->preskip = ct_opus_encoder_preskip (self->encoder);
  GST_INFO_OBJECT (self, "serial %u, %d bit/s, pre-skip %d, options \"%s\"",
      settings.serial, ct_opus_encoder_bitrate (self->encoder),
      self->preskip, options);

  delay = ct_opus_encoder_delay (self->encoder);
  latency = gst_util_uint64_scale_int (delay, GST_SECOND, self->rate);
  gst_audio_encoder_set_latency (GST_AUDIO_ENCODER (self), latency, latency);
  return gst_ct_opus_enc_set_output_caps (self);
}

/* The input samples a packet ending at @granule accounts for: what the
 * base class needs for timestamps, at the input rate, never more than
 * were sent (the last packet holds the extension past the end). */
static gint
gst_ct_opus_enc_samples_until (GstCtOpusEnc * self, gint64 granule,
    gboolean last)
{
  guint64 total;
  gint64 audio = granule - self->preskip;

  if (last)
    total = self->samples_sent;
  else
    total = audio > 0 ? gst_util_uint64_scale_int (audio, self->rate,
        48000) : 0;
  total = MIN (total, self->samples_sent);
  total = MAX (total, self->samples_finished);
  return (gint) (total - self->samples_finished);
}

/* The pre-skip, on the packets it spans, and the last packet's samples
 * past the end of the audio (at 48 kHz), as GStreamer's opusenc marks
 * them: the last packet's granule position stops short of the packets'
 * total duration. */
static void
gst_ct_opus_enc_add_clipping (GstCtOpusEnc * self, GstBuffer * buffer,
    const ct_opus_packet * packet)
{
  guint64 start = 0, end = 0;

  if (self->duration_out < (guint64) self->preskip)
    start = MIN ((guint64) self->preskip - self->duration_out,
        (guint64) packet->duration);
  self->duration_out += packet->duration;
  if (packet->eos && (guint64) packet->granule < self->duration_out)
    end = MIN (self->duration_out - packet->granule,
        (guint64) packet->duration);
  if (start || end)
    gst_buffer_add_audio_clipping_meta (buffer, GST_FORMAT_DEFAULT, start,
        end);
}

/* Everything the encoder has ready, downstream. */
static GstFlowReturn
gst_ct_opus_enc_push (GstCtOpusEnc * self)
{
  GstAudioEncoder *encoder = GST_AUDIO_ENCODER (self);
  ct_opus_packet packet;
  GstFlowReturn flow;
  int r;

  while ((r = ct_opus_receive (self->encoder, &packet)) == CT_OK) {
    GstBuffer *buffer;
    gint samples = 0;

    /* The packets' headers are in the caps' streamheader only. */
    if (self->output == CT_OPUS_OUTPUT_PACKETS && packet.header)
      continue;
    buffer = gst_buffer_new_memdup (packet.data, packet.size);
    if (packet.header) {
      GST_BUFFER_FLAG_SET (buffer, GST_BUFFER_FLAG_HEADER);
    } else {
      if (packet.granule >= 0)
        samples = gst_ct_opus_enc_samples_until (self, packet.granule,
            packet.eos);
      if (self->output == CT_OPUS_OUTPUT_PACKETS) {
        gst_ct_opus_enc_add_clipping (self, buffer, &packet);
      }
    }
    self->samples_finished += samples;
    flow = gst_audio_encoder_finish_frame (encoder, buffer, samples);
    if (flow != GST_FLOW_OK)
      return flow;
  }
  if (r != CT_EAGAIN && r != CT_EOF) {
    GST_CT_ELEMENT_ERROR (self, r, ct_opus_encoder_error (self->encoder),
        "ct_opus_receive", "Opus encoding failed");
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* End of a stream: at EOS, or before new caps. */
static GstFlowReturn
gst_ct_opus_enc_drain (GstCtOpusEnc * self)
{
  int r;

  /* The base class asks again until nothing more comes out. */
  if (self->drained || !self->have_format)
    return GST_FLOW_OK;
  self->drained = TRUE;
  if (!self->encoder && !gst_ct_opus_enc_open_stream (self))
    return GST_FLOW_NOT_NEGOTIATED;

  r = ct_opus_drain (self->encoder);
  if (r < 0) {
    GST_CT_ELEMENT_ERROR (self, r, ct_opus_encoder_error (self->encoder),
        "ct_opus_drain", "Opus encoding failed at the end of the stream");
    return GST_FLOW_ERROR;
  }
  return gst_ct_opus_enc_push (self);
}

/* Input in the alignment its samples need: in place, or copied. */
static const void *
gst_ct_opus_enc_aligned_samples (GstCtOpusEnc * self, const GstMapInfo * map)
{
  gsize align = self->format == CT_OPUS_S24 ? 1 : self->sample_size;

  if ((guintptr) map->data % align == 0 && !self->reorder)
    return map->data;
  if (map->size > self->aligned_size) {
    g_free (self->aligned);
    self->aligned = g_malloc (map->size);
    self->aligned_size = map->size;
  }
  if (self->reorder) {
    gsize width = self->sample_size;
    gsize frame = width * self->channels;
    gsize i, n = map->size / frame;
    gint j;

    for (i = 0; i < n; i++)
      for (j = 0; j < self->channels; j++)
        memcpy (self->aligned + i * frame + j * width,
            map->data + i * frame + self->reorder[j] * width, width);
  } else {
    memcpy (self->aligned, map->data, map->size);
  }
  return self->aligned;
}

static GstFlowReturn
gst_ct_opus_enc_handle_frame (GstAudioEncoder * encoder, GstBuffer * input)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (encoder);
  GstMapInfo map;
  gsize samples;
  int r;

  if (!input)
    return gst_ct_opus_enc_drain (self);

  /* Data after the end of a stream (EOS then a flush) starts a new one. */
  if (self->drained)
    gst_ct_opus_enc_start_stream (self);
  if (!self->encoder && !gst_ct_opus_enc_open_stream (self))
    return GST_FLOW_NOT_NEGOTIATED;

  if (!gst_buffer_map (input, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, ENCODE, ("Could not map the input "
            "buffer"), (NULL));
    return GST_FLOW_ERROR;
  }
  samples = map.size / (self->sample_size * self->channels);
  r = ct_opus_send_samples (self->encoder,
      gst_ct_opus_enc_aligned_samples (self, &map), self->format, samples);
  gst_buffer_unmap (input, &map);
  if (r < 0) {
    GST_CT_ELEMENT_ERROR (self, r, ct_opus_encoder_error (self->encoder),
        "ct_opus_send_samples", "Opus encoding failed");
    return GST_FLOW_ERROR;
  }
  self->samples_sent += samples;
  return gst_ct_opus_enc_push (self);
}

static void
gst_ct_opus_enc_flush (GstAudioEncoder * encoder)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (encoder);

  gst_ct_opus_enc_start_stream (self);
}

static gboolean
gst_ct_opus_enc_sink_event (GstAudioEncoder * encoder, GstEvent * event)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (encoder);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_TAG:{
      GstTagList *tags;

      gst_event_parse_tag (event, &tags);
      if (gst_tag_list_get_scope (tags) == GST_TAG_SCOPE_STREAM) {
        GstTagList *merged = gst_tag_list_merge (self->upstream_tags, tags,
            GST_TAG_MERGE_REPLACE);

        if (self->upstream_tags)
          gst_tag_list_unref (self->upstream_tags);
        self->upstream_tags = merged;
        if (self->encoder)
          GST_INFO_OBJECT (self, "tags after the first samples: they come "
              "too late for this stream's OpusTags");
      }
      break;
    }
    case GST_EVENT_STREAM_START:
      g_clear_pointer (&self->upstream_tags, gst_tag_list_unref);
      break;
    default:
      break;
  }
  return GST_AUDIO_ENCODER_CLASS (parent_class)->sink_event (encoder, event);
}

static void
gst_ct_opus_enc_finalize (GObject * object)
{
  GstCtOpusEnc *self = GST_CT_OPUS_ENC (object);

  ct_opus_encoder_free (self->encoder);
  if (self->upstream_tags)
    gst_tag_list_unref (self->upstream_tags);
  g_free (self->aligned);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ct_opus_enc_class_init (GstCtOpusEncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAudioEncoderClass *aenc_class = GST_AUDIO_ENCODER_CLASS (klass);
  /* Read when a stream starts: changes apply from the next one. */
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_ct_opus_enc_set_property;
  gobject_class->get_property = gst_ct_opus_enc_get_property;
  gobject_class->finalize = gst_ct_opus_enc_finalize;

  g_object_class_install_property (gobject_class, PROP_BITRATE,
      g_param_spec_int ("bitrate", "Bitrate",
          "Bitrate in bit/s (opusenc --bitrate, in kbit/s there): 0 = "
          "opusenc's default for the channels and rate (96000 for stereo, "
          "64000 for mono at 44.1 and 48 kHz, 64000 per stream and 32000 "
          "more per coupled stream for surround); from 500, clamped to "
          "256000 per channel as opusenc does", 0, MAX_BITRATE, DEFAULT_BITRATE,
          flags));
  g_object_class_install_property (gobject_class, PROP_BITRATE_TYPE,
      g_param_spec_enum ("bitrate-type", "Bitrate type",
          "Bitrate type: vbr (opusenc's default), constrained-vbr "
          "(opusenc --cvbr) or cbr (opusenc --hard-cbr)",
          GST_TYPE_CT_OPUS_ENC_BITRATE_TYPE, DEFAULT_BITRATE_TYPE, flags));
  g_object_class_install_property (gobject_class, PROP_COMPLEXITY,
      g_param_spec_int ("complexity", "Complexity",
          "Encoding complexity, 0 (fastest) to 10 (best, opusenc's default; "
          "opusenc --comp)", 0, 10, DEFAULT_COMPLEXITY, flags));
  g_object_class_install_property (gobject_class, PROP_FRAME_SIZE,
      g_param_spec_enum ("frame-size", "Frame size",
          "The duration of an audio frame in ms (opusenc --framesize)",
          GST_TYPE_CT_OPUS_ENC_FRAME_SIZE, DEFAULT_FRAME_SIZE, flags));
  g_object_class_install_property (gobject_class, PROP_SIGNAL,
      g_param_spec_enum ("signal", "Signal type",
          "What the signal is: auto (detected, opusenc's default), music "
          "(opusenc --music) or voice (opusenc --speech)",
          GST_TYPE_CT_OPUS_ENC_SIGNAL, DEFAULT_SIGNAL, flags));
  g_object_class_install_property (gobject_class,
      PROP_PACKET_LOSS_PERCENTAGE,
      g_param_spec_int ("packet-loss-percentage", "Loss percentage",
          "The packet loss to expect, in percent (opusenc --expect-loss)", 0,
          100, DEFAULT_PACKET_LOSS, flags));
  g_object_class_install_property (gobject_class, PROP_MAX_DELAY,
      g_param_spec_int ("max-delay", "Maximum delay",
          "The longest span of an Ogg page in ms (opusenc --max-delay)", 0,
          1000, DEFAULT_MAX_DELAY, flags));
  g_object_class_install_property (gobject_class, PROP_SERIAL,
      g_param_spec_int ("serial", "Serial number",
          "The Ogg stream's serial number (opusenc --serial); -1 = a random "
          "one, as opusenc without --serial; each new stream after the "
          "first (new caps, after EOS) takes the next number",
          -1, G_MAXINT32, DEFAULT_SERIAL, flags));
  /**
   * GstCtOpusEnc:threads:
   *
   * 0 (the default): the pool shared by every ct element of the process,
   * one worker per CPU; N: a pool of the element's own of N workers, the
   * streaming thread included. The output bytes do not depend on it.
   */
  gst_ct_element_install_threads_property (gobject_class, PROP_THREADS);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Opus encoder (opusenc, byte-exact)", "Codec/Encoder/Audio",
      "Encodes audio to Opus, byte-identical to opus-tools' opusenc 0.2 "
      "(libopus 1.3.1, libopusenc 0.2.1)", "ct project");

  aenc_class->start = gst_ct_opus_enc_start;
  aenc_class->stop = gst_ct_opus_enc_stop;
  aenc_class->set_format = gst_ct_opus_enc_set_format;
  aenc_class->handle_frame = gst_ct_opus_enc_handle_frame;
  aenc_class->flush = gst_ct_opus_enc_flush;
  aenc_class->sink_event = gst_ct_opus_enc_sink_event;

  GST_DEBUG_CATEGORY_INIT (gst_ct_opus_enc_debug, "ctopusenc", 0,
      "ct Opus encoder (libopus/libopusenc port)");
  gst_type_mark_as_plugin_api (GST_TYPE_CT_OPUS_ENC_BITRATE_TYPE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CT_OPUS_ENC_FRAME_SIZE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CT_OPUS_ENC_SIGNAL, 0);
}

/* wavparse gives a plain WAV of 3, 7 or more than 8 channels no channel
 * mask, which GstAudioInfo (so the base class) refuses: opusenc reads such
 * a file by its channel count alone, so its channels are taken as
 * unpositioned (mask 0). A probe, since the base class reads the caps the
 * pad stores, not those of the event it handles. */
static GstPadProbeReturn
gst_ct_opus_enc_caps_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps;
  GstStructure *s;
  gint channels;

  (void) pad;
  (void) user_data;
  if (GST_EVENT_TYPE (event) != GST_EVENT_CAPS)
    return GST_PAD_PROBE_OK;
  gst_event_parse_caps (event, &caps);
  s = gst_caps_get_structure (caps, 0);
  if (gst_structure_get_int (s, "channels", &channels) && channels > 2
      && !gst_structure_has_field (s, "channel-mask")) {
    caps = gst_caps_copy (caps);
    gst_caps_set_simple (caps, "channel-mask", GST_TYPE_BITMASK,
        (guint64) 0, NULL);
    GST_PAD_PROBE_INFO_DATA (info) = gst_event_new_caps (caps);
    gst_caps_unref (caps);
    gst_event_unref (event);
  }
  return GST_PAD_PROBE_OK;
}

static void
gst_ct_opus_enc_init (GstCtOpusEnc * self)
{
  GST_PAD_SET_ACCEPT_TEMPLATE (GST_AUDIO_ENCODER_SINK_PAD (self));
  gst_pad_add_probe (GST_AUDIO_ENCODER_SINK_PAD (self),
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, gst_ct_opus_enc_caps_probe, NULL,
      NULL);
  self->bitrate = DEFAULT_BITRATE;
  self->bitrate_type = DEFAULT_BITRATE_TYPE;
  self->complexity = DEFAULT_COMPLEXITY;
  self->frame_size = DEFAULT_FRAME_SIZE;
  self->signal = DEFAULT_SIGNAL;
  self->packet_loss = DEFAULT_PACKET_LOSS;
  self->max_delay = DEFAULT_MAX_DELAY;
  self->serial = DEFAULT_SERIAL;
  self->threads = GST_CT_ELEMENT_DEFAULT_THREADS;
}
