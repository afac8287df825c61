/*
 * ctlameenc: encodes raw audio to MP3 with ctcore's port of LAME 3.100,
 * writing exactly the bytes the lame CLI writes for the same samples and
 * settings. The encoding properties are lamemp3enc's, plus the two CLI
 * defaults that lamemp3enc leaves out (ReplayGain analysis and the LAME
 * tag); threads and simd change how fast the bytes come, never the bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-ctlameenc
 * @title: ctlameenc
 *
 * Encodes 16-bit, 32-bit and float PCM at any of the nine MPEG audio rates
 * (8 to 48 kHz), mono or stereo, to MPEG-1, MPEG-2 or MPEG-2.5 Layer III
 * (LAME resamples to a lower rate at low bitrates), byte-identical to
 * Debian's lame 3.100 with the same settings on the same WAV: S16LE and
 * S32LE as lame reads 16- and 32-bit WAVs, F32LE as lame reads a float WAV
 * from stdin (`lame - out.mp3 < in.wav`; given the file's name, lame first
 * scales a float file to its peak, which a stream cannot know). Each
 * output buffer is one MP3 frame.
 *
 * The LAME tag is complete only after the last frame, so before the first
 * one the element asks downstream whether it can seek in bytes and looks
 * at what is on the way:
 *
 * - filesink on a file, directly or through queue, capsfilter and the
 *   like, or behind a tag muxer (id3v2mux, apev2mux, which move the
 *   rewrite past their tag): with the lametag property on (as with lame),
 *   the first frame is the Xing/Info + LAME tag frame, a placeholder until
 *   EOS; then the element sends a BYTES segment starting at 0 and the
 *   final tag frame, so that the file gets lame's bytes.
 * - a sink that cannot seek (a pipe through fdsink, fakesink, appsink), a
 *   parser (mpegaudioparse, which encodebin inserts) or a muxer (mp4mux,
 *   matroskamux, avimux...): no tag frame, as lame writes into a pipe; the
 *   frames are lame -t's bytes.
 * - xingmux is a muxer too: it writes the stream's one Xing frame, the
 *   element none.
 *
 * Without the tag frame, the frames carry the encoder and decoder delay
 * and LAME's padding as #GstAudioClippingMeta, as mpegaudioparse adds from
 * a LAME tag, for decoders that honour it (mpg123audiodec); muxers do not
 * keep it in their files.
 *
 * lametag=false means no tag frame anywhere. Every buffer is timestamped
 * (the tag frame at the first samples' time, lasting nothing); TIME
 * segments go downstream without their stop, since the last frames start
 * past the last input sample and a sink would drop them.
 *
 * The element encodes the stream's frames on all the workers of its pool at
 * once: a ring of frames in flight (4 per worker, 16 to 128), which adds
 * that many frame durations to the latency; on a live source, a ring of
 * #GstCtLameEnc:live-frames-in-flight frames (4 by default: about 144 ms
 * of latency at 44.1 kHz). #GstCtLameEnc:threads=0, the default, shares one
 * pool of one worker per CPU with every ct element of the process. The
 * bytes are the same on any number of threads; threads=1 encodes one frame
 * after the other on the streaming thread.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=in.wav ! wavparse ! ctlameenc quality=2 ! \
 *     filesink location=out.mp3
 * ]| The same bytes as `lame -V 2 in.wav out.mp3`.
 * |[
 * gst-launch-1.0 filesrc location=in.wav ! wavparse ! \
 *     ctlameenc target=bitrate cbr=true bitrate=192 ! filesink location=out.mp3
 * ]| The same bytes as `lame -b 192 in.wav out.mp3`.
 */
#include "config.h"

#include "ctlameenc.h"
#include "ctelement.h"

#include <stdint.h>
#include <string.h>

#include "ctcore/mp3.h"
#include "ctcore/runtime.h"

GST_DEBUG_CATEGORY_STATIC (gst_ct_lame_enc_debug);
#define GST_CAT_DEFAULT gst_ct_lame_enc_debug

typedef enum
{
  GST_CT_LAME_ENC_TARGET_QUALITY = 0,
  GST_CT_LAME_ENC_TARGET_BITRATE = 1,
} GstCtLameEncTarget;

typedef enum
{
  GST_CT_LAME_ENC_ENGINE_QUALITY_FAST = 0,
  GST_CT_LAME_ENC_ENGINE_QUALITY_STANDARD = 1,
  GST_CT_LAME_ENC_ENGINE_QUALITY_HIGH = 2,
} GstCtLameEncEngineQuality;

/* lamemp3enc's defaults, and the lame CLI's for the two it lacks. */
#define DEFAULT_TARGET GST_CT_LAME_ENC_TARGET_QUALITY
#define DEFAULT_QUALITY 4.0f
#define DEFAULT_BITRATE 128
#define DEFAULT_CBR FALSE
#define DEFAULT_ENGINE_QUALITY GST_CT_LAME_ENC_ENGINE_QUALITY_STANDARD
#define DEFAULT_MONO FALSE
#define DEFAULT_REPLAYGAIN TRUE
#define DEFAULT_LAMETAG TRUE
#define DEFAULT_SIMD CT_SIMD_AUTO
/* On a live source, a ring of 4 frames: about 100 ms at 44.1 kHz on top of
 * lamemp3enc's latency. */
#define DEFAULT_LIVE_FRAMES_IN_FLIGHT 4
#define MAX_LIVE_FRAMES_IN_FLIGHT 128

/* lame -q for the engine qualities, as lamemp3enc maps them; -1 leaves
 * LAME's default. */
#define ENGINE_QUALITY_FAST_Q 7
#define ENGINE_QUALITY_HIGH_Q 2

enum
{
  PROP_0,
  PROP_TARGET,
  PROP_QUALITY,
  PROP_BITRATE,
  PROP_CBR,
  PROP_ENCODING_ENGINE_QUALITY,
  PROP_MONO,
  PROP_REPLAYGAIN,
  PROP_LAMETAG,
  PROP_SIMD,
  PROP_THREADS,
  PROP_LIVE_FRAMES_IN_FLIGHT,
};

struct _GstCtLameEnc
{
  GstAudioEncoder parent;

  /* The properties, under the object lock; each stream's encoder is set up
   * with a copy taken when the input caps arrive. */
  GstCtLameEncTarget target;
  gfloat quality;
  gint bitrate;
  gboolean cbr;
  GstCtLameEncEngineQuality engine_quality;
  gboolean mono;
  gboolean replaygain;
  gboolean lametag;
  ct_simd simd;
  gint threads;                 /* read at start */
  gint live_frames_in_flight;

  /* Streaming thread only. */
  ct_pool *pool;                /* from start to stop */
  ct_mp3_encoder *encoder;
  gint in_rate;
  gint out_rate;                /* differs when LAME resamples */
  gint channels;
  GstAudioFormat format;        /* S16, S32 or F32, native endian */
  gint sample_size;             /* its bytes */
  gboolean lametag_on;          /* of the current encoder: the property,
                                 * and downstream can take the final tag
                                 * at byte 0 */
  GstClockTime placeholder_pts;
  guint64 packets;              /* received since the stream started */
  gsize placeholder_size;       /* of the tag frame, its first packet;
                                 * 0 without a tag */
  guint64 out_samples;          /* of the frames finished, at out_rate */
  guint64 samples_sent;         /* to the encoder, at in_rate */
  guint64 in_samples;           /* the same, at in_rate, as told to the
                                 * base class */
  gboolean drained;             /* the encoder needs a reset for new input */
  gboolean at_eos;              /* the drain under way is the EOS one */
  guint8 *aligned;              /* a copy of misaligned input */
  gsize aligned_size;
};

/* The samples are handed to ctcore as they are: native 16-bit, 32-bit and
 * float, which are S16LE, S32LE and F32LE on the little-endian hosts ct is
 * built for. S16 first: lamemp3enc's, and what audioconvert picks for
 * 16-bit sources. Every MPEG audio rate, as lamemp3enc. */
#define SINK_FORMATS "format = (string) { " GST_AUDIO_NE (S16) ", " \
    GST_AUDIO_NE (S32) ", " GST_AUDIO_NE (F32) " }"
#define SINK_RATES "rate = (int) { 8000, 11025, 12000, 16000, 22050, " \
    "24000, 32000, 44100, 48000 }"
static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("audio/x-raw, " SINK_FORMATS ", "
        "layout = (string) interleaved, " SINK_RATES ", channels = (int) 1; "
        "audio/x-raw, " SINK_FORMATS ", "
        "layout = (string) interleaved, " SINK_RATES ", channels = (int) 2, "
        "channel-mask = (bitmask) 0x3"));

/* Every MPEG audio rate: LAME resamples at low bitrates and qualities. */
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("audio/mpeg, mpegversion = (int) 1, layer = (int) 3, "
        "rate = (int) { 8000, 11025, 12000, 16000, 22050, 24000, 32000, "
        "44100, 48000 }, channels = (int) [ 1, 2 ]"));

#define GST_TYPE_CT_LAME_ENC_TARGET (gst_ct_lame_enc_target_get_type ())
static GType
gst_ct_lame_enc_target_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CT_LAME_ENC_TARGET_QUALITY, "Quality: VBR (lame -V)", "quality"},
    {GST_CT_LAME_ENC_TARGET_BITRATE,
        "Bitrate: CBR (lame -b) or ABR (lame --abr)", "bitrate"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtLameEncTarget", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CT_LAME_ENC_ENGINE_QUALITY \
  (gst_ct_lame_enc_engine_quality_get_type ())
static GType
gst_ct_lame_enc_engine_quality_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CT_LAME_ENC_ENGINE_QUALITY_FAST, "Fast (lame -q 7)", "fast"},
    {GST_CT_LAME_ENC_ENGINE_QUALITY_STANDARD, "Standard (lame's default)",
        "standard"},
    {GST_CT_LAME_ENC_ENGINE_QUALITY_HIGH, "High (lame -q 2)", "high"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtLameEncEngineQuality", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_ct_lame_enc_parent_class parent_class
G_DEFINE_TYPE (GstCtLameEnc, gst_ct_lame_enc, GST_TYPE_AUDIO_ENCODER);
/* Above lamemp3enc (primary): the same format, lame's bytes, faster. */
GST_ELEMENT_REGISTER_DEFINE (ctlameenc, "ctlameenc", GST_RANK_PRIMARY + 1,
    GST_TYPE_CT_LAME_ENC);

static void
gst_ct_lame_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_TARGET:
      self->target = g_value_get_enum (value);
      break;
    case PROP_QUALITY:
      self->quality = g_value_get_float (value);
      break;
    case PROP_BITRATE:
      self->bitrate = g_value_get_int (value);
      break;
    case PROP_CBR:
      self->cbr = g_value_get_boolean (value);
      break;
    case PROP_ENCODING_ENGINE_QUALITY:
      self->engine_quality = g_value_get_enum (value);
      break;
    case PROP_MONO:
      self->mono = g_value_get_boolean (value);
      break;
    case PROP_REPLAYGAIN:
      self->replaygain = g_value_get_boolean (value);
      break;
    case PROP_LAMETAG:
      self->lametag = g_value_get_boolean (value);
      break;
    case PROP_SIMD:
      self->simd = g_value_get_enum (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_int (value);
      break;
    case PROP_LIVE_FRAMES_IN_FLIGHT:
      self->live_frames_in_flight = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_ct_lame_enc_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_TARGET:
      g_value_set_enum (value, self->target);
      break;
    case PROP_QUALITY:
      g_value_set_float (value, self->quality);
      break;
    case PROP_BITRATE:
      g_value_set_int (value, self->bitrate);
      break;
    case PROP_CBR:
      g_value_set_boolean (value, self->cbr);
      break;
    case PROP_ENCODING_ENGINE_QUALITY:
      g_value_set_enum (value, self->engine_quality);
      break;
    case PROP_MONO:
      g_value_set_boolean (value, self->mono);
      break;
    case PROP_REPLAYGAIN:
      g_value_set_boolean (value, self->replaygain);
      break;
    case PROP_LAMETAG:
      g_value_set_boolean (value, self->lametag);
      break;
    case PROP_SIMD:
      g_value_set_enum (value, self->simd);
      break;
    case PROP_THREADS:
      g_value_set_int (value, self->threads);
      break;
    case PROP_LIVE_FRAMES_IN_FLIGHT:
      g_value_set_int (value, self->live_frames_in_flight);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* The lame CLI settings the properties stand for. */
static void
gst_ct_lame_enc_get_settings (GstCtLameEnc * self, ct_mp3_settings * s)
{
  ct_mp3_settings_default (s);
  GST_OBJECT_LOCK (self);
  if (self->target == GST_CT_LAME_ENC_TARGET_QUALITY) {
    s->rate_control = CT_MP3_VBR;
    s->vbr_quality = self->quality;
  } else {
    s->rate_control = self->cbr ? CT_MP3_CBR : CT_MP3_ABR;
    s->bitrate = self->bitrate;
  }
  switch (self->engine_quality) {
    case GST_CT_LAME_ENC_ENGINE_QUALITY_FAST:
      s->quality = ENGINE_QUALITY_FAST_Q;
      break;
    case GST_CT_LAME_ENC_ENGINE_QUALITY_STANDARD:
      s->quality = -1;
      break;
    case GST_CT_LAME_ENC_ENGINE_QUALITY_HIGH:
      s->quality = ENGINE_QUALITY_HIGH_Q;
      break;
  }
  s->mode = self->mono ? CT_MP3_MODE_MONO : CT_MP3_MODE_DEFAULT;
  s->replaygain = self->replaygain;
  s->lametag = self->lametag;
  s->simd = self->simd;
  GST_OBJECT_UNLOCK (self);
}

/* A new stream in the same encoder: after creating it, a flush or a drain. */
static void
gst_ct_lame_enc_start_stream (GstCtLameEnc * self)
{
  self->packets = 0;
  self->placeholder_size = 0;
  self->out_samples = 0;
  self->samples_sent = 0;
  self->in_samples = 0;
  self->drained = FALSE;
}

static gboolean
gst_ct_lame_enc_start (GstAudioEncoder * encoder)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (encoder);

  return gst_ct_element_start_pool (GST_ELEMENT (self), &self->threads,
      &self->pool);
}

static gboolean
gst_ct_lame_enc_stop (GstAudioEncoder * encoder)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (encoder);

  g_clear_pointer (&self->encoder, ct_mp3_encoder_free);
  gst_ct_element_stop_pool (&self->pool);
  g_clear_pointer (&self->aligned, g_free);
  self->aligned_size = 0;
  return TRUE;
}

static gint
mpeg_audio_version (gint rate)
{
  /* MPEG-1 from 32 kHz up, MPEG-2 (LSF) from 16 kHz, MPEG-2.5 below. */
  return rate >= 32000 ? 1 : rate >= 16000 ? 2 : 3;
}

/* How far downstream gst_ct_lame_enc_rewrites_byte_0() follows the
 * stream, pads of bins included, before it gives up. */
#define MAX_DOWNSTREAM_HOPS 32

/* The pad that the data sent to @pad goes on to, for the element walk
 * below: the target of a bin's ghost pad, the ghost pad on the far side of
 * a bin's internal pad. Takes @pad's reference; NULL at a dead end. */
static GstPad *
resolve_pad (GstPad * pad)
{
  while (pad) {
    GstPad *next;

    if (GST_IS_GHOST_PAD (pad)) {
      next = gst_ghost_pad_get_target (GST_GHOST_PAD (pad));
    } else if (GST_IS_PROXY_PAD (pad)) {
      GstProxyPad *ghost = gst_proxy_pad_get_internal (GST_PROXY_PAD (pad));

      next = ghost ? gst_pad_get_peer (GST_PAD (ghost)) : NULL;
      if (ghost)
        gst_object_unref (ghost);
    } else {
      return pad;
    }
    gst_object_unref (pad);
    pad = next;
  }
  return NULL;
}

/* The peer of @element's only source pad; NULL with none or several. */
static GstPad *
only_downstream_peer (GstElement * element)
{
  GstPad *peer = NULL;

  GST_OBJECT_LOCK (element);
  if (element->numsrcpads == 1)
    peer = gst_pad_get_peer (GST_PAD (element->srcpads->data));
  GST_OBJECT_UNLOCK (element);
  return peer;
}

/*
 * Whether the final tag, sent again at byte 0 at EOS, lands over the
 * placeholder in the output: downstream says it can seek in bytes
 * (filesink on a file; not a pipe, fakesink or appsink), and every element
 * on the way keeps the bytes as they are. Muxers and parsers answer
 * with their own downstream's seekability but take a BYTES segment as more
 * of the stream (mp4mux, matroskamux, avimux, mpegaudioparse), and
 * xingmux writes a Xing frame of its own: no tag frame behind them, so
 * that the file never has two. A tag muxer (id3v2mux, apev2mux: a
 * formatter, not a muxer) moves the rewrite past its tag; queue,
 * capsfilter and the like pass it on.
 */
static gboolean
gst_ct_lame_enc_rewrites_byte_0 (GstCtLameEnc * self)
{
  GstPad *srcpad = GST_AUDIO_ENCODER_SRC_PAD (self);
  GstQuery *query;
  GstPad *pad;
  gboolean seekable = FALSE, rewrites = FALSE;
  gint hops;

  query = gst_query_new_seeking (GST_FORMAT_BYTES);
  if (gst_pad_peer_query (srcpad, query))
    gst_query_parse_seeking (query, NULL, &seekable, NULL, NULL);
  gst_query_unref (query);
  if (!seekable)
    return FALSE;

  pad = resolve_pad (gst_pad_get_peer (srcpad));
  for (hops = 0; pad && hops < MAX_DOWNSTREAM_HOPS; hops++) {
    GstElement *element = gst_pad_get_parent_element (pad);
    const gchar *klass;

    gst_object_unref (pad);
    pad = NULL;
    if (!element) {
      /* A pad of no element (an application's, a test harness'): its
       * answer is all there is to know. */
      rewrites = TRUE;
      break;
    }
    klass = gst_element_get_metadata (element, GST_ELEMENT_METADATA_KLASS);
    if (klass && (strstr (klass, "Muxer") || strstr (klass, "Parser"))) {
      GST_INFO_OBJECT (self, "%s (%s) downstream takes no rewrite at byte 0",
          GST_OBJECT_NAME (element), klass);
    } else if (GST_OBJECT_FLAG_IS_SET (element, GST_ELEMENT_FLAG_SINK)) {
      rewrites = TRUE;
    } else {
      pad = resolve_pad (only_downstream_peer (element));
    }
    gst_object_unref (element);
  }
  if (pad)
    gst_object_unref (pad);
  return rewrites;
}

/* The stream's encoder: on a live source, a ring of live-frames-in-flight
 * frames; else the pool's default ring. */
static int
gst_ct_lame_enc_new_encoder (GstCtLameEnc * self,
    const ct_mp3_settings * settings, ct_mp3_encoder ** encoder, char *err,
    size_t err_size)
{
  ct_mp3_settings s = *settings;

  if (gst_ct_element_upstream_is_live (GST_AUDIO_ENCODER_SINK_PAD (self))) {
    GST_OBJECT_LOCK (self);
    s.frames_in_flight = self->live_frames_in_flight;
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "live upstream: a ring of %d frame(s)",
        s.frames_in_flight);
  }
  return ct_mp3_encoder_new (self->pool, &s, encoder, err, err_size);
}

static gboolean
gst_ct_lame_enc_set_format (GstAudioEncoder * encoder, GstAudioInfo * info)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (encoder);
  ct_mp3_settings settings;
  ct_mp3_encoder *mp3_encoder = NULL;
  char err[256] = "";
  gint frame_samples, out_channels, delay;
  GstClockTime latency;
  GstCaps *caps;
  gboolean ret;
  int r;

  /* The base class has drained the previous stream, if any. */
  g_clear_pointer (&self->encoder, ct_mp3_encoder_free);

  gst_ct_lame_enc_get_settings (self, &settings);
  settings.sample_rate = GST_AUDIO_INFO_RATE (info);
  settings.channels = GST_AUDIO_INFO_CHANNELS (info);
  /* Where the final tag cannot go to byte 0, no tag frame at all, as lame
   * writes into a pipe: the bytes of lame -t. */
  if (settings.lametag && !gst_ct_lame_enc_rewrites_byte_0 (self)) {
    GST_INFO_OBJECT (self, "downstream cannot take the final LAME tag at "
        "byte 0: no tag frame (as lame -t)");
    settings.lametag = 0;
  }
  r = gst_ct_lame_enc_new_encoder (self, &settings, &mp3_encoder, err,
      sizeof (err));
  if (r < 0) {
    GST_CT_ELEMENT_ERROR (self, r, err, "ct_mp3_encoder_new",
        "Cannot set up the MP3 encoder for %d Hz, %d channel(s)",
        settings.sample_rate, settings.channels);
    return FALSE;
  }

  self->encoder = mp3_encoder;
  self->in_rate = settings.sample_rate;
  self->channels = settings.channels;
  self->format = GST_AUDIO_INFO_FORMAT (info);
  self->sample_size = GST_AUDIO_INFO_WIDTH (info) / 8;
  self->out_rate = ct_mp3_output_rate (self->encoder);
  self->lametag_on = settings.lametag;
  gst_ct_lame_enc_start_stream (self);
  if (self->out_rate != self->in_rate)
    GST_INFO_OBJECT (self, "LAME resamples %d Hz to %d Hz for these settings",
        self->in_rate, self->out_rate);

  out_channels = settings.mode == CT_MP3_MODE_MONO ? 1 : settings.channels;
  caps = gst_caps_new_simple ("audio/mpeg",
      "mpegversion", G_TYPE_INT, 1,
      "mpegaudioversion", G_TYPE_INT, mpeg_audio_version (self->out_rate),
      "layer", G_TYPE_INT, 3,
      "rate", G_TYPE_INT, self->out_rate,
      "channels", G_TYPE_INT, out_channels, NULL);
  ret = gst_audio_encoder_set_output_format (encoder, caps);
  gst_caps_unref (caps);
  if (!ret)
    return FALSE;

  /* A frame comes out once its samples and the encoder delay are in, and,
   * on the pool, once the frames ahead of it in the ring are done. */
  frame_samples = mpeg_audio_version (self->out_rate) == 1 ? 1152 : 576;
  delay = ct_mp3_encoder_delay (self->encoder);
  latency = gst_util_uint64_scale_int (frame_samples + delay +
      ct_mp3_encoder_frames_in_flight (self->encoder) * frame_samples, GST_SECOND,
      self->out_rate);
  GST_DEBUG_OBJECT (self, "%d thread(s), a ring of %d frame(s), latency %"
      GST_TIME_FORMAT, ct_pool_threads (self->pool),
      ct_mp3_encoder_frames_in_flight (self->encoder), GST_TIME_ARGS (latency));
  gst_audio_encoder_set_latency (encoder, latency, latency);
  /* No lookahead: as lamemp3enc's, the frames are timestamped where a
   * decoder puts their samples, the encoder delay included (the LAME tag
   * tells players how much to skip); a lookahead would move the first
   * frames before the start of the segment. */
  return TRUE;
}

/* Every MP3 decoder delays its output by this many samples, on top of the
 * encoder delay (LAME's tech FAQ; mpg123 and mpegaudioparse use 529). */
#define DECODER_DELAY 529

/*
 * Without the LAME tag, gapless information as GStreamer carries it: a
 * GstAudioClippingMeta on the frames whose decoded samples hold the encoder
 * and decoder delay at the start or LAME's padding at the end, as
 * mpegaudioparse adds from a LAME tag, for the decoders that honour it
 * (mpg123audiodec). A frame of delay or padding only (the first one in
 * MPEG-2, where the delay is longer than a frame) is clipped whole, as
 * mpegaudioparse does. The padding is known once the input is complete
 * (the drain): no frame with padding comes out before.
 */
static void
gst_ct_lame_enc_add_clipping (GstCtLameEnc * self, GstBuffer * buffer,
    gint frame_samples)
{
  guint64 start = self->out_samples, end = start + frame_samples;
  guint64 first = ct_mp3_encoder_delay (self->encoder) + DECODER_DELAY;
  guint64 start_clip = 0, end_clip = 0;

  if (start < first)
    start_clip = MIN (first - start, (guint64) frame_samples);
  if (self->drained) {
    guint64 last = first + gst_util_uint64_scale_int_round (self->samples_sent,
        self->out_rate, self->in_rate);

    if (end > last)
      end_clip = MIN (end - last, (guint64) frame_samples - start_clip);
  }
  if (start_clip || end_clip)
    gst_buffer_add_audio_clipping_meta (buffer, GST_FORMAT_DEFAULT,
        start_clip, end_clip);
}

/* Pushes the packets the encoder has ready. */
static GstFlowReturn
gst_ct_lame_enc_push_packets (GstCtLameEnc * self)
{
  GstAudioEncoder *encoder = GST_AUDIO_ENCODER (self);
  ct_mp3_packet packet;
  int r;

  while ((r = ct_mp3_receive_packet (self->encoder, &packet)) == CT_OK) {
    GstBuffer *buffer = gst_buffer_new_memdup (packet.data, packet.size);
    GstFlowReturn flow;
    gint samples;

    if (self->lametag_on && self->packets == 0 && packet.num_samples == 0) {
      /* The tag placeholder: a frame that decodes to no audio. There is
       * none when LAME leaves the tag out, its frame being too small. */
      GST_BUFFER_FLAG_SET (buffer, GST_BUFFER_FLAG_HEADER);
      self->placeholder_size = packet.size;
      samples = 0;
    } else {
      guint64 in_samples;

      /* Past the tag frame, if any: the first packet. */
      if (self->placeholder_size == 0)
        gst_ct_lame_enc_add_clipping (self, buffer, packet.num_samples);
      /* The base class counts input samples; with resampling, convert the
       * running total so that rounding never accumulates. */
      self->out_samples += packet.num_samples;
      in_samples = gst_util_uint64_scale_int (self->out_samples,
          self->in_rate, self->out_rate);
      samples = (gint) (in_samples - self->in_samples);
      self->in_samples = in_samples;
    }
    self->packets++;
    flow = gst_audio_encoder_finish_frame (encoder, buffer, samples);
    if (flow != GST_FLOW_OK)
      return flow;
  }
  if (r != CT_EAGAIN && r != CT_EOF) {
    GST_CT_ELEMENT_ERROR (self, r, NULL, "ct_mp3_receive_packet",
        "MP3 encoding failed");
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* Sends the final tag frame over the placeholder, downstream having said
 * at the start that it can take it (gst_ct_lame_enc_rewrites_byte_0()): a
 * BYTES segment from 0, then the frame, as xingmux does. */
static GstFlowReturn
gst_ct_lame_enc_rewrite_lametag (GstCtLameEnc * self)
{
  GstPad *srcpad = GST_AUDIO_ENCODER_SRC_PAD (self);
  ct_mp3_packet tag;
  GstSegment segment;
  GstBuffer *buffer;
  int r;

  r = ct_mp3_lametag (self->encoder, &tag);
  if (r < 0) {
    GST_CT_ELEMENT_ERROR (self, r, NULL, "ct_mp3_lametag",
        "No final LAME tag");
    return GST_FLOW_ERROR;
  }
  if (tag.size != self->placeholder_size) {
    GST_ELEMENT_ERROR (self, STREAM, ENCODE,
        ("The final LAME tag (%" G_GSIZE_FORMAT " bytes) does not fit the "
            "placeholder frame (%" G_GSIZE_FORMAT " bytes)", tag.size,
            self->placeholder_size), (NULL));
    return GST_FLOW_ERROR;
  }

  GST_DEBUG_OBJECT (self, "writing the final LAME tag at byte 0");
  gst_segment_init (&segment, GST_FORMAT_BYTES);
  if (!gst_pad_push_event (srcpad, gst_event_new_segment (&segment))) {
    GST_ELEMENT_WARNING (self, STREAM, ENCODE, ("Downstream refused the "
            "rewrite at byte 0: the LAME tag stays the placeholder"), (NULL));
    return GST_FLOW_OK;
  }
  buffer = gst_buffer_new_memdup (tag.data, tag.size);
  GST_BUFFER_PTS (buffer) = GST_BUFFER_DTS (buffer) = self->placeholder_pts;
  GST_BUFFER_DURATION (buffer) = 0;
  GST_BUFFER_OFFSET (buffer) = 0;
  GST_BUFFER_FLAG_SET (buffer, GST_BUFFER_FLAG_HEADER);
  return gst_pad_push (srcpad, buffer);
}

/* End of a stream: at EOS, or before new caps. Only the EOS one rewrites
 * the tag, since at new caps the file goes on with the next stream. */
static GstFlowReturn
gst_ct_lame_enc_drain (GstCtLameEnc * self)
{
  GstFlowReturn flow;
  int r;

  /* The base class asks again until nothing more comes out. */
  if (self->drained)
    return GST_FLOW_OK;
  self->drained = TRUE;

  r = ct_mp3_drain (self->encoder);
  if (r < 0) {
    GST_CT_ELEMENT_ERROR (self, r, NULL, "ct_mp3_drain",
        "MP3 encoding failed at the end of the stream");
    return GST_FLOW_ERROR;
  }
  flow = gst_ct_lame_enc_push_packets (self);
  if (flow != GST_FLOW_OK || self->placeholder_size == 0)
    return flow;
  if (!self->at_eos) {
    GST_INFO_OBJECT (self, "stream ended by new caps: its LAME tag stays "
        "the placeholder");
    return GST_FLOW_OK;
  }
  return gst_ct_lame_enc_rewrite_lametag (self);
}

/* Input in the alignment its samples need: in place, or copied. */
static const void *
gst_ct_lame_enc_aligned_samples (GstCtLameEnc * self, const GstMapInfo * map)
{
  if ((guintptr) map->data % self->sample_size == 0)
    return map->data;
  if (map->size > self->aligned_size) {
    g_free (self->aligned);
    self->aligned = g_malloc (map->size);
    self->aligned_size = map->size;
  }
  memcpy (self->aligned, map->data, map->size);
  return self->aligned;
}

static GstFlowReturn
gst_ct_lame_enc_handle_frame (GstAudioEncoder * encoder, GstBuffer * input)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (encoder);
  GstMapInfo map;
  gsize samples;
  const void *pcm;
  const char *function;
  int r;

  if (!input)
    return gst_ct_lame_enc_drain (self);

  /* Data after the end of a stream (EOS then a flush) starts a new one. */
  if (self->drained) {
    ct_mp3_reset (self->encoder);
    gst_ct_lame_enc_start_stream (self);
  }

  if (!gst_buffer_map (input, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, ENCODE, ("Could not map the input "
            "buffer"), (NULL));
    return GST_FLOW_ERROR;
  }
  samples = map.size / (self->sample_size * self->channels);
  pcm = gst_ct_lame_enc_aligned_samples (self, &map);
  if (self->format == GST_AUDIO_FORMAT_S32) {
    function = "ct_mp3_send_samples_s32";
    r = ct_mp3_send_samples_s32 (self->encoder, pcm, samples);
  } else if (self->format == GST_AUDIO_FORMAT_F32) {
    function = "ct_mp3_send_samples_f32";
    r = ct_mp3_send_samples_f32 (self->encoder, pcm, samples);
  } else {
    function = "ct_mp3_send_samples";
    r = ct_mp3_send_samples (self->encoder, pcm, samples);
  }
  self->samples_sent += samples;
  gst_buffer_unmap (input, &map);
  if (r < 0) {
    GST_CT_ELEMENT_ERROR (self, r, NULL, function, "MP3 encoding failed");
    return GST_FLOW_ERROR;
  }
  return gst_ct_lame_enc_push_packets (self);
}

/* The tag placeholder decodes to no audio: it lasts nothing, at the time
 * of the first samples, which the final tag gets again. */
static GstFlowReturn
gst_ct_lame_enc_pre_push (GstAudioEncoder * encoder, GstBuffer ** buffer)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (encoder);

  if (GST_BUFFER_FLAG_IS_SET (*buffer, GST_BUFFER_FLAG_HEADER)) {
    GST_BUFFER_DURATION (*buffer) = 0;
    self->placeholder_pts = GST_BUFFER_PTS (*buffer);
  }
  return GST_FLOW_OK;
}

static void
gst_ct_lame_enc_flush (GstAudioEncoder * encoder)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (encoder);

  if (!self->encoder)
    return;
  ct_mp3_reset (self->encoder);
  gst_ct_lame_enc_start_stream (self);
}

/*
 * A TIME segment goes downstream without its stop: the last frames begin
 * past the last input sample (they hold the encoder delay and LAME's
 * padding), and a sink would drop them, out of the segment. The input is
 * still clipped to the stop.
 */
static gboolean
gst_ct_lame_enc_sink_segment (GstCtLameEnc * self, GstEvent * event)
{
  GstAudioEncoder *encoder = GST_AUDIO_ENCODER (self);
  GstSegment segment;
  GstEvent *open_ended;
  guint64 stop;
  gboolean ret;

  gst_event_copy_segment (event, &segment);
  if (segment.format != GST_FORMAT_TIME
      || !GST_CLOCK_TIME_IS_VALID (segment.stop))
    return GST_AUDIO_ENCODER_CLASS (parent_class)->sink_event (encoder, event);

  stop = segment.stop;
  segment.stop = GST_CLOCK_TIME_NONE;
  open_ended = gst_event_new_segment (&segment);
  gst_event_set_seqnum (open_ended, gst_event_get_seqnum (event));
  gst_event_unref (event);

  GST_AUDIO_ENCODER_STREAM_LOCK (encoder);
  ret = GST_AUDIO_ENCODER_CLASS (parent_class)->sink_event (encoder,
      open_ended);
  encoder->input_segment.stop = stop;
  GST_AUDIO_ENCODER_STREAM_UNLOCK (encoder);
  return ret;
}

static gboolean
gst_ct_lame_enc_sink_event (GstAudioEncoder * encoder, GstEvent * event)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (encoder);
  gboolean ret;

  if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    return gst_ct_lame_enc_sink_segment (self, event);
  if (GST_EVENT_TYPE (event) != GST_EVENT_EOS)
    return GST_AUDIO_ENCODER_CLASS (parent_class)->sink_event (encoder, event);

  /* The base class drains (handle_frame with no buffer) before it forwards
   * the EOS: the tag frame goes out in between. */
  self->at_eos = TRUE;
  ret = GST_AUDIO_ENCODER_CLASS (parent_class)->sink_event (encoder, event);
  self->at_eos = FALSE;
  return ret;
}

static void
gst_ct_lame_enc_finalize (GObject * object)
{
  GstCtLameEnc *self = GST_CT_LAME_ENC (object);

  ct_mp3_encoder_free (self->encoder);
  g_free (self->aligned);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ct_lame_enc_class_init (GstCtLameEncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAudioEncoderClass *aenc_class = GST_AUDIO_ENCODER_CLASS (klass);
  /* Read when the caps arrive: changes apply from the next stream. */
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  gobject_class->set_property = gst_ct_lame_enc_set_property;
  gobject_class->get_property = gst_ct_lame_enc_get_property;
  gobject_class->finalize = gst_ct_lame_enc_finalize;

  g_object_class_install_property (gobject_class, PROP_TARGET,
      g_param_spec_enum ("target", "Target",
          "Optimize for quality (VBR, lame -V) or bitrate (CBR or ABR, "
          "lame -b or --abr)", GST_TYPE_CT_LAME_ENC_TARGET, DEFAULT_TARGET,
          flags));
  g_object_class_install_property (gobject_class, PROP_QUALITY,
      g_param_spec_float ("quality", "Quality",
          "VBR quality from 0 to 9.999, 0 being the best (lame -V; only "
          "used if target is quality)", 0.0f, 9.999f, DEFAULT_QUALITY, flags));
  g_object_class_install_property (gobject_class, PROP_BITRATE,
      g_param_spec_int ("bitrate", "Bitrate (kb/s)",
          "Bitrate in kbit/s (only used if target is bitrate); for CBR one "
          "of 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, "
          "224, 256 or 320, others become the nearest as with lame -b; "
          "low bitrates make LAME resample", 8, 320, DEFAULT_BITRATE, flags));
  g_object_class_install_property (gobject_class, PROP_CBR,
      g_param_spec_boolean ("cbr", "CBR",
          "Enforce constant bitrate encoding (lame -b; false: average "
          "bitrate, lame --abr; only used if target is bitrate)", DEFAULT_CBR,
          flags));
  g_object_class_install_property (gobject_class,
      PROP_ENCODING_ENGINE_QUALITY,
      g_param_spec_enum ("encoding-engine-quality", "Encoding Engine Quality",
          "Quality/speed of the encoding engine, this does not affect the "
          "bitrate! (fast: lame -q 7, standard: lame's default, high: lame "
          "-q 2)", GST_TYPE_CT_LAME_ENC_ENGINE_QUALITY,
          DEFAULT_ENGINE_QUALITY, flags));
  g_object_class_install_property (gobject_class, PROP_MONO,
      g_param_spec_boolean ("mono", "Mono",
          "Enforce mono encoding; stereo input is mixed down (lame -m m)",
          DEFAULT_MONO, flags));
  g_object_class_install_property (gobject_class, PROP_REPLAYGAIN,
      g_param_spec_boolean ("replaygain", "ReplayGain",
          "Analyze the ReplayGain and store it in the LAME tag, as lame does "
          "by default (false: lame --noreplaygain)", DEFAULT_REPLAYGAIN,
          flags));
  g_object_class_install_property (gobject_class, PROP_LAMETAG,
      g_param_spec_boolean ("lametag", "LAME tag",
          "Write the Xing/Info + LAME tag frame first, as lame does, where "
          "downstream can take its final version at byte 0 at EOS (a "
          "seekable filesink, not a pipe, parser or muxer: there none, as "
          "lame -t); false: never", DEFAULT_LAMETAG, flags));
  /**
   * GstCtLameEnc:simd:
   *
   * The SIMD level of the encoder's kernels. Every level writes the same
   * bytes (LAME's own build has no SIMD on these paths), so this only
   * trades speed, e.g. to measure the kernels.
   */
  g_object_class_install_property (gobject_class, PROP_SIMD,
      g_param_spec_enum ("simd", "SIMD level",
          "SIMD level; changes the speed only, never the bytes",
          GST_TYPE_CT_SIMD, DEFAULT_SIMD, flags));
  /**
   * GstCtLameEnc:threads:
   *
   * 0 (the default): the pool shared by every ct element of the process,
   * one worker per CPU; N: a pool of the element's own of N workers, the
   * streaming thread included. On more than one, the frames in flight add
   * to the latency, which the element reports. The output bytes do not
   * depend on it.
   */
  gst_ct_element_install_threads_property (gobject_class, PROP_THREADS);
  /**
   * GstCtLameEnc:live-frames-in-flight:
   *
   * On a live source, the most frames the element encodes at once on its
   * pool (the size of its frame ring), from 1 to 128, default 4: each one
   * adds a frame's duration (26 ms at 44.1 kHz) to the latency, and lets
   * one more worker encode; at 4, the reported latency is about 144 ms at
   * 44.1 kHz (lamemp3enc's frame and encoder delay, and the 4 frames). A
   * source that is not live gets the pool's own ring (4
   * frames per worker, 16 to 128). The output bytes do not depend on it.
   */
  g_object_class_install_property (gobject_class, PROP_LIVE_FRAMES_IN_FLIGHT,
      g_param_spec_int ("live-frames-in-flight", "Live frames in flight",
          "On a live source, the most frames encoded at once on the pool: "
          "more uses more workers, each adds a frame's duration to the "
          "latency; the output bytes do not depend on it", 1,
          MAX_LIVE_FRAMES_IN_FLIGHT, DEFAULT_LIVE_FRAMES_IN_FLIGHT, flags));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "MP3 encoder (LAME, byte-exact)", "Codec/Encoder/Audio",
      "Encodes audio to MP3, byte-identical to LAME 3.100's lame",
      "ct project");

  aenc_class->start = gst_ct_lame_enc_start;
  aenc_class->stop = gst_ct_lame_enc_stop;
  aenc_class->set_format = gst_ct_lame_enc_set_format;
  aenc_class->handle_frame = gst_ct_lame_enc_handle_frame;
  aenc_class->flush = gst_ct_lame_enc_flush;
  aenc_class->pre_push = gst_ct_lame_enc_pre_push;
  aenc_class->sink_event = gst_ct_lame_enc_sink_event;

  GST_DEBUG_CATEGORY_INIT (gst_ct_lame_enc_debug, "ctlameenc", 0,
      "ct MP3 encoder (LAME port)");
  gst_type_mark_as_plugin_api (GST_TYPE_CT_LAME_ENC_TARGET, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CT_LAME_ENC_ENGINE_QUALITY, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CT_SIMD, 0);
}

static void
gst_ct_lame_enc_init (GstCtLameEnc * self)
{
  GST_PAD_SET_ACCEPT_TEMPLATE (GST_AUDIO_ENCODER_SINK_PAD (self));
  self->target = DEFAULT_TARGET;
  self->quality = DEFAULT_QUALITY;
  self->bitrate = DEFAULT_BITRATE;
  self->cbr = DEFAULT_CBR;
  self->engine_quality = DEFAULT_ENGINE_QUALITY;
  self->mono = DEFAULT_MONO;
  self->replaygain = DEFAULT_REPLAYGAIN;
  self->lametag = DEFAULT_LAMETAG;
  self->simd = DEFAULT_SIMD;
  self->threads = GST_CT_ELEMENT_DEFAULT_THREADS;
  self->live_frames_in_flight = DEFAULT_LIVE_FRAMES_IN_FLIGHT;
}
