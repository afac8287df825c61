/*
 * ctjpegenc: encodes each video frame to a JPEG image with ctcore's port of
 * jpegli, writing exactly the bytes cjpegli writes for the same pixels and
 * settings. Each encoding property is one cjpegli flag; threads and
 * max-frames-in-flight say how the work is spread over the element's
 * worker pool.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-ctjpegenc
 * @title: ctjpegenc
 *
 * Encodes raw RGB, gray or YUV frames to JPEG, byte-identical to jpegli's
 * cjpegli for the same settings. Formats with a different byte order or an
 * alpha (or padding) byte give the JPEG of their RGB pixels; alpha is
 * dropped.
 *
 * YUV frames (I420, YV12, NV12, NV21, Y42B, YUY2, UYVY, YVYU, Y444) are
 * encoded as they come, as jpegli's raw-data mode encodes their planes: no
 * conversion to RGB and back, and the JPEG's chroma sampling is the
 * frame's (4:2:0, 4:2:2 or 4:4:4). A #GstCtJpegEnc:chroma-subsampling
 * other than default that contradicts it, or #GstCtJpegEnc:xyb, is an
 * error that names both; the sink caps offer only the YUV formats of the
 * property's sampling, so a converter upstream picks one of them. The
 * workers read each layout as it is (the interleaved ones row by row),
 * nothing is copied on the streaming thread. JPEG's YCbCr is full-range
 * BT.601, which the caps prefer (colorimetry=1:4:0:0, listed first, so
 * that a videoconvert upstream produces it); frames of another colorimetry
 * (limited range, BT.709, ...) are encoded as they are, as jpegenc does,
 * and decode with JPEG's colors (limited range looks washed out).
 *
 * The sink formats, in the order the element prefers them where upstream
 * offers a choice: the least work for the same picture first. 4:2:0
 * planar (I420, YV12: the planes as they are), then semi-planar (NV12,
 * NV21: the chroma pairs gathered), 4:2:2 planar (Y42B) and packed (YUY2,
 * UYVY, YVYU), 4:4:4 (Y444: three full planes), and last the RGB family
 * and GRAY8, which go through jpegli's color transform (and, with
 * chroma-subsampling, its downsampling).
 *
 * Downstream that takes only baseline JPEG (sof-marker=0 in its caps) gets
 * it while #GstCtJpegEnc:progressive-level is unset; a progressive-level
 * set by the user (to any value, the default included) is kept, and a
 * downstream that does not take it fails the stream not negotiated, with
 * an error that names the property.
 *
 * The element owns a pool of #GstCtJpegEnc:threads workers. A frame is
 * spread over all of them; or, for streams of small frames, where one
 * image has too little work for many cores, up to
 * #GstCtJpegEnc:max-frames-in-flight frames are held back and encoded
 * together, one per worker. Holding frames adds latency, which the element
 * reports; the output bytes are the same either way.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=RGB ! \
 *     ctjpegenc quality=85 ! filesink location=frame.jpg
 * ]|
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=300 ! \
 *     video/x-raw,format=RGB,width=320,height=240 ! \
 *     ctjpegenc threads=8 max-frames-in-flight=8 ! avimux ! \
 *     filesink location=mjpeg.avi
 * ]|
 */
#include "config.h"

#include "ctjpegenc.h"
#include "ctelement.h"

#include "ctcore/jpeg.h"
#include "ctcore/runtime.h"

GST_DEBUG_CATEGORY_STATIC (gst_ct_jpeg_enc_debug);
#define GST_CAT_DEFAULT gst_ct_jpeg_enc_debug

/* cjpegli's defaults (ct_jpeg_settings_default). */
#define DEFAULT_QUALITY 90
#define DEFAULT_DISTANCE -1.0f
#define DEFAULT_PROGRESSIVE_LEVEL 2
#define DEFAULT_CHROMA_SUBSAMPLING CT_JPEG_SUBSAMPLING_DEFAULT
#define DEFAULT_ADAPTIVE_QUANTIZATION TRUE
#define DEFAULT_STANDARD_TABLES FALSE
#define DEFAULT_XYB FALSE
#define DEFAULT_FIXED_CODE FALSE
#define DEFAULT_SIMD CT_SIMD_AUTO

#define DEFAULT_MAX_FRAMES_IN_FLIGHT 0  /* auto */
#define MAX_FRAMES_IN_FLIGHT 1024

/* SOF marker types as in the caps of jpegenc/jpegparse. */
#define SOF_MARKER_BASELINE 0
#define SOF_MARKER_PROGRESSIVE 2
/* No output caps negotiated: the next frame tries. */
#define SOF_MARKER_NONE -1

enum
{
  PROP_0,
  PROP_QUALITY,
  PROP_DISTANCE,
  PROP_PROGRESSIVE_LEVEL,
  PROP_CHROMA_SUBSAMPLING,
  PROP_ADAPTIVE_QUANTIZATION,
  PROP_STANDARD_TABLES,
  PROP_XYB,
  PROP_FIXED_CODE,
  PROP_SIMD,
  PROP_THREADS,
  PROP_MAX_FRAMES_IN_FLIGHT,
};

/* A frame sent to the encoder: mapped until its file comes back. */
typedef struct
{
  GstVideoCodecFrame *frame;
  GstVideoFrame vframe;
} GstCtJpegEncPending;

struct _GstCtJpegEnc
{
  GstVideoEncoder parent;

  /* The properties, under the object lock. Each frame encodes with a copy
   * of the settings taken when it arrives; threads is read at start,
   * max_frames_in_flight at each caps. */
  ct_jpeg_settings settings;
  gboolean progressive_level_set;       /* by the user, to any value */
  gint threads;
  gint max_frames_in_flight;

  /* Streaming thread (and start/stop) only. */
  ct_pool *pool;                /* from start to stop */
  GstVideoCodecState *input_state;
  gint sof_marker;              /* of the negotiated source caps */
  /* What the frames encode with while progressive-level is unset: the
   * default, or 0 where downstream takes baseline only (chosen at caps). */
  gint progressive_level;
  gint frames_in_flight;        /* what the caps ask of the encoder */

  /* The encoder for the input caps, made at the caps or at the first frame;
   * NULL until then, or while the settings are invalid. */
  ct_jpeg_encoder *encoder;
  ct_jpeg_settings encoder_settings;    /* what it encodes with */
  GQueue pending;               /* GstCtJpegEncPending, oldest first */
};

#define SIZE_RANGE "[ 1, 65535 ]"

/* The YUV formats by sampling, each in the order of preference (see the
 * element's documentation). */
#define YUV420_FORMATS "I420, YV12, NV12, NV21"
#define YUV422_FORMATS "Y42B, YUY2, UYVY, YVYU"
#define YUV444_FORMATS "Y444"
#define RGB_FORMATS \
  "RGB, GRAY8, BGR, RGBx, BGRx, xRGB, xBGR, RGBA, BGRA, ARGB, ABGR"
#define RAW_CAPS(formats) "video/x-raw, format = (string) { " formats " }, " \
  "width = (int) " SIZE_RANGE ", height = (int) " SIZE_RANGE ", " \
  "framerate = (fraction) [ 0/1, MAX ]"
/* JPEG's own YCbCr: full-range BT.601. */
#define JPEG_COLORIMETRY "1:4:0:0"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (RAW_CAPS (YUV420_FORMATS ", " YUV422_FORMATS ", "
            YUV444_FORMATS) ", colorimetry = (string) " JPEG_COLORIMETRY "; "
        RAW_CAPS (YUV420_FORMATS ", " YUV422_FORMATS ", " YUV444_FORMATS) "; "
        RAW_CAPS (RGB_FORMATS)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("image/jpeg, "
        "width = (int) " SIZE_RANGE ", height = (int) " SIZE_RANGE ", "
        "framerate = (fraction) [ 0/1, MAX ], sof-marker = (int) { 0, 2 }"));

#define GST_TYPE_CT_JPEG_ENC_CHROMA_SUBSAMPLING \
  (gst_ct_jpeg_enc_chroma_subsampling_get_type ())
static GType
gst_ct_jpeg_enc_chroma_subsampling_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CT_JPEG_SUBSAMPLING_DEFAULT,
          "cjpegli's choice: 4:4:4, or jpegli's layout for XYB; YUV input's "
          "own", "default"},
    {CT_JPEG_SUBSAMPLING_444, "4:4:4 (no subsampling)", "444"},
    {CT_JPEG_SUBSAMPLING_440, "4:4:0 (half vertical chroma)", "440"},
    {CT_JPEG_SUBSAMPLING_422, "4:2:2 (half horizontal chroma)", "422"},
    {CT_JPEG_SUBSAMPLING_420, "4:2:0 (half chroma both ways)", "420"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtJpegEncChromaSubsampling", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CT_JPEG_ENC_SIMD (gst_ct_jpeg_enc_simd_get_type ())
static GType
gst_ct_jpeg_enc_simd_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CT_SIMD_AUTO, "avx2 where the CPU has AVX2 and FMA, else sse2; "
          "CT_SIMD=sse2 (or c) in the environment caps it at sse2", "auto"},
    {CT_SIMD_SSE2, "bytes of jpegli's SSE2 build (4 lanes, no FMA)", "sse2"},
    {CT_SIMD_AVX2, "bytes of jpegli's AVX2 build (8 lanes, FMA)", "avx2"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtJpegEncSimd", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_ct_jpeg_enc_parent_class parent_class
G_DEFINE_TYPE (GstCtJpegEnc, gst_ct_jpeg_enc, GST_TYPE_VIDEO_ENCODER);
GST_ELEMENT_REGISTER_DEFINE (ctjpegenc, "ctjpegenc", GST_RANK_SECONDARY,
    GST_TYPE_CT_JPEG_ENC);

static void
gst_ct_jpeg_enc_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (object);
  ct_jpeg_settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_QUALITY:
      s->quality = g_value_get_int (value);
      break;
    case PROP_DISTANCE:
      s->distance = g_value_get_float (value);
      break;
    case PROP_PROGRESSIVE_LEVEL:
      s->progressive_level = g_value_get_int (value);
      self->progressive_level_set = TRUE;
      break;
    case PROP_CHROMA_SUBSAMPLING:
      s->chroma_subsampling = g_value_get_enum (value);
      break;
    case PROP_ADAPTIVE_QUANTIZATION:
      s->adaptive_quantization = g_value_get_boolean (value);
      break;
    case PROP_STANDARD_TABLES:
      s->std_quant = g_value_get_boolean (value);
      break;
    case PROP_XYB:
      s->xyb = g_value_get_boolean (value);
      break;
    case PROP_FIXED_CODE:
      s->fixed_code = g_value_get_boolean (value);
      break;
    case PROP_SIMD:
      s->simd = g_value_get_enum (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_int (value);
      break;
    case PROP_MAX_FRAMES_IN_FLIGHT:
      self->max_frames_in_flight = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_ct_jpeg_enc_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (object);
  const ct_jpeg_settings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_QUALITY:
      g_value_set_int (value, s->quality);
      break;
    case PROP_DISTANCE:
      g_value_set_float (value, s->distance);
      break;
    case PROP_PROGRESSIVE_LEVEL:
      g_value_set_int (value, s->progressive_level);
      break;
    case PROP_CHROMA_SUBSAMPLING:
      g_value_set_enum (value, s->chroma_subsampling);
      break;
    case PROP_ADAPTIVE_QUANTIZATION:
      g_value_set_boolean (value, s->adaptive_quantization);
      break;
    case PROP_STANDARD_TABLES:
      g_value_set_boolean (value, s->std_quant);
      break;
    case PROP_XYB:
      g_value_set_boolean (value, s->xyb);
      break;
    case PROP_FIXED_CODE:
      g_value_set_boolean (value, s->fixed_code);
      break;
    case PROP_SIMD:
      g_value_set_enum (value, s->simd);
      break;
    case PROP_THREADS:
      g_value_set_int (value, self->threads);
      break;
    case PROP_MAX_FRAMES_IN_FLIGHT:
      g_value_set_int (value, self->max_frames_in_flight);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gint
sof_marker_for (const ct_jpeg_settings * settings)
{
  return settings->progressive_level == 0 ? SOF_MARKER_BASELINE :
      SOF_MARKER_PROGRESSIVE;
}

/* The encoding settings and whether the user set progressive-level. */
static void
gst_ct_jpeg_enc_read_settings (GstCtJpegEnc * self,
    ct_jpeg_settings * settings, gboolean * progressive_level_set)
{
  GST_OBJECT_LOCK (self);
  *settings = self->settings;
  *progressive_level_set = self->progressive_level_set;
  GST_OBJECT_UNLOCK (self);
}

/* The chroma-subsampling a YUV format implies; DEFAULT for the others. */
static ct_jpeg_subsampling
yuv_subsampling (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
      return CT_JPEG_SUBSAMPLING_420;
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_YVYU:
      return CT_JPEG_SUBSAMPLING_422;
    case GST_VIDEO_FORMAT_Y444:
      return CT_JPEG_SUBSAMPLING_444;
    default:
      return CT_JPEG_SUBSAMPLING_DEFAULT;
  }
}

/* The chroma-subsampling property's nick ("420", ...). */
static const gchar *
subsampling_nick (ct_jpeg_subsampling subsampling)
{
  GEnumClass *klass =
      g_type_class_ref (GST_TYPE_CT_JPEG_ENC_CHROMA_SUBSAMPLING);
  GEnumValue *value = g_enum_get_value (klass, subsampling);
  const gchar *nick = value ? value->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

/*
 * Settings the properties' ranges let through but jpegli refuses for
 * frames of `format`, in the element's terms (ctcore's messages name
 * cjpegli's flags). Returns the message (g_free), or NULL when the
 * settings are valid.
 */
static gchar *
settings_error (const ct_jpeg_settings * settings, GstVideoFormat format)
{
  const ct_jpeg_subsampling own = yuv_subsampling (format);

  if (settings->fixed_code && settings->progressive_level > 0)
    return g_strdup_printf ("fixed-code=true needs progressive-level=0, "
        "not %d", settings->progressive_level);
  if (own != CT_JPEG_SUBSAMPLING_DEFAULT &&
      settings->chroma_subsampling != CT_JPEG_SUBSAMPLING_DEFAULT &&
      settings->chroma_subsampling != own)
    return g_strdup_printf ("chroma-subsampling=%s contradicts the %s "
        "input's chroma subsampling %s: YUV frames are encoded with their "
        "own; set chroma-subsampling=default or %s, or convert upstream",
        subsampling_nick (settings->chroma_subsampling),
        gst_video_format_to_string (format), subsampling_nick (own),
        subsampling_nick (own));
  if (own != CT_JPEG_SUBSAMPLING_DEFAULT && settings->xyb)
    return g_strdup_printf ("xyb=true needs RGB or GRAY8 input, not %s",
        gst_video_format_to_string (format));
  return NULL;
}

/* Whether downstream's allowed caps (NULL: not linked, anything) take
 * JPEG of this SOF type. */
static gboolean
downstream_takes (GstCaps * allowed, gint sof_marker)
{
  GstCaps *caps;
  gboolean takes;

  if (!allowed)
    return TRUE;
  caps = gst_caps_new_simple ("image/jpeg", "sof-marker", G_TYPE_INT,
      sof_marker, NULL);
  takes = gst_caps_can_intersect (allowed, caps);
  gst_caps_unref (caps);
  return takes;
}

/*
 * Sets settings->progressive_level from what downstream takes: the
 * property as the user set it, which downstream must take; else the
 * default (progressive), or 0 where downstream takes only baseline.
 * Returns NULL, or why downstream takes none of these in terms of the
 * property (g_free).
 */
static gchar *
gst_ct_jpeg_enc_choose_progressive_level (GstCtJpegEnc * self,
    ct_jpeg_settings * settings, gboolean progressive_level_set)
{
  GstCaps *allowed =
      gst_pad_get_allowed_caps (GST_VIDEO_ENCODER_SRC_PAD (self));
  gboolean baseline = downstream_takes (allowed, SOF_MARKER_BASELINE);
  gboolean progressive = downstream_takes (allowed, SOF_MARKER_PROGRESSIVE);
  gchar *refusal = NULL;

  GST_DEBUG_OBJECT (self, "downstream takes %" GST_PTR_FORMAT, allowed);
  if (allowed)
    gst_caps_unref (allowed);
  if (!progressive_level_set && !progressive && baseline)
    settings->progressive_level = 0;
  if (!baseline && !progressive)
    refusal = g_strdup ("Downstream takes neither baseline nor progressive "
        "JPEG (sof-marker 0 or 2)");
  else if (settings->progressive_level == 0 && !baseline)
    refusal = g_strdup ("progressive-level=0 writes baseline JPEG "
        "(sof-marker=0), but downstream takes only progressive JPEG "
        "(sof-marker=2): set progressive-level to 1 or 2, or leave it unset");
  else if (settings->progressive_level > 0 && !progressive)
    refusal = g_strdup_printf ("progressive-level=%d writes progressive JPEG "
        "(sof-marker=2), but downstream takes only baseline JPEG "
        "(sof-marker=0): set progressive-level=0, or leave it unset",
        settings->progressive_level);
  return refusal;
}

/* Sets and negotiates the source caps for the input caps and SOF type. */
static gboolean
gst_ct_jpeg_enc_set_output (GstCtJpegEnc * self, gint sof_marker)
{
  GstCaps *caps = gst_caps_new_simple ("image/jpeg",
      "sof-marker", G_TYPE_INT, sof_marker, NULL);
  GstVideoCodecState *output_state =
      gst_video_encoder_set_output_state (GST_VIDEO_ENCODER (self), caps,
      self->input_state);

  gst_video_codec_state_unref (output_state);
  self->sof_marker = sof_marker;
  return gst_video_encoder_negotiate (GST_VIDEO_ENCODER (self));
}

static gboolean
settings_equal (const ct_jpeg_settings * a, const ct_jpeg_settings * b)
{
  return a->quality == b->quality && a->distance == b->distance &&
      a->progressive_level == b->progressive_level &&
      a->chroma_subsampling == b->chroma_subsampling &&
      a->adaptive_quantization == b->adaptive_quantization &&
      a->std_quant == b->std_quant && a->xyb == b->xyb &&
      a->fixed_code == b->fixed_code && a->simd == b->simd;
}

static ct_pixel_format
pixel_format_for (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
      return CT_PIXEL_GRAY8;
    case GST_VIDEO_FORMAT_BGR:
      return CT_PIXEL_BGR8;
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_RGBA:
      return CT_PIXEL_RGBX8;
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_BGRA:
      return CT_PIXEL_BGRX8;
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_ARGB:
      return CT_PIXEL_XRGB8;
    case GST_VIDEO_FORMAT_xBGR:
    case GST_VIDEO_FORMAT_ABGR:
      return CT_PIXEL_XBGR8;
      /* YV12 is I420 with the chroma planes swapped: the frame's U and V
       * components are passed as Cb and Cr. */
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
      return CT_PIXEL_I420;
    case GST_VIDEO_FORMAT_NV12:
      return CT_PIXEL_NV12;
    case GST_VIDEO_FORMAT_NV21:
      return CT_PIXEL_NV21;
    case GST_VIDEO_FORMAT_Y42B:
      return CT_PIXEL_I422;
    case GST_VIDEO_FORMAT_YUY2:
      return CT_PIXEL_YUYV;
    case GST_VIDEO_FORMAT_UYVY:
      return CT_PIXEL_UYVY;
    case GST_VIDEO_FORMAT_YVYU:
      return CT_PIXEL_YVYU;
    case GST_VIDEO_FORMAT_Y444:
      return CT_PIXEL_I444;
    default:
      return CT_PIXEL_RGB8;
  }
}

static void
free_jpeg_data (gpointer data)
{
  ct_jpeg_output out = { data, 0 };

  ct_jpeg_output_free (&out);
}

static void
gst_ct_jpeg_enc_pending_free (GstCtJpegEncPending * pending)
{
  gst_video_frame_unmap (&pending->vframe);
  g_clear_pointer (&pending->frame, gst_video_codec_frame_unref);
  g_free (pending);
}

/* Drops the frames sent and not received, unencoded. The base class still
 * holds each one until a flush or stop resets it. */
static void
gst_ct_jpeg_enc_drop_pending (GstCtJpegEnc * self)
{
  if (self->encoder)
    ct_jpeg_encoder_reset (self->encoder);
  g_queue_clear_full (&self->pending,
      (GDestroyNotify) gst_ct_jpeg_enc_pending_free);
}

/*
 * Finishes, in order, every frame whose file the encoder has ready.
 * Returns the first flow that is not OK; the frames of a failed encoding
 * are dropped, with one error on the bus.
 */
static GstFlowReturn
gst_ct_jpeg_enc_push_ready (GstCtJpegEnc * self)
{
  GstVideoEncoder *encoder = GST_VIDEO_ENCODER (self);
  GstFlowReturn flow = GST_FLOW_OK;
  gboolean reported = FALSE;

  if (!self->encoder)
    return GST_FLOW_OK;
  for (;;) {
    ct_jpeg_output out;
    void *user;
    int ret = ct_jpeg_receive_frame (self->encoder, &out, &user);
    GstCtJpegEncPending *pending;
    GstVideoCodecFrame *frame;
    GstFlowReturn frame_flow;

    if (ret == CT_EAGAIN || ret == CT_EOF)
      break;
    pending = g_queue_pop_head (&self->pending);
    g_assert (pending == user);
    if (ret < 0) {
      if (!reported)
        GST_CT_ELEMENT_ERROR (self, ret,
            ct_jpeg_encoder_error (self->encoder), "ct_jpeg_receive_frame",
            "JPEG encoding failed");
      reported = TRUE;
      gst_ct_jpeg_enc_pending_free (pending);
      flow = GST_FLOW_ERROR;
      continue;
    }
    frame = g_steal_pointer (&pending->frame);
    gst_ct_jpeg_enc_pending_free (pending);
    frame->output_buffer = gst_buffer_new_wrapped_full (0, out.data,
        out.size, 0, out.size, out.data, free_jpeg_data);
    GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT (frame);
    /* The later frames are finished even when an earlier one's push
     * failed: each is the base class's to release. Downstream posts its
     * own errors; a refusal of the caps nobody would post at EOS. */
    frame_flow = gst_video_encoder_finish_frame (encoder, frame);
    if (frame_flow == GST_FLOW_NOT_NEGOTIATED && flow == GST_FLOW_OK)
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
          ("Downstream refuses the JPEG frames (not negotiated)"), (NULL));
    if (flow == GST_FLOW_OK)
      flow = frame_flow;
  }
  return flow;
}

/* Encodes the frames the encoder holds and finishes them. */
static GstFlowReturn
gst_ct_jpeg_enc_drain (GstCtJpegEnc * self)
{
  if (!self->encoder)
    return GST_FLOW_OK;
  ct_jpeg_encoder_drain (self->encoder);
  return gst_ct_jpeg_enc_push_ready (self);
}

/*
 * How many frames the encoder encodes together. With max-frames-in-flight
 * auto, the encoder's choice (the pool's threads for small frames, 1 for
 * large ones) only where holding frames back costs nothing that matters: a
 * known framerate (a still image could wait forever for the next one) and
 * a source that is not live (live pipelines want their latency low).
 */
static gint
gst_ct_jpeg_enc_choose_frames_in_flight (GstCtJpegEnc * self,
    gint max_frames_in_flight, const GstVideoInfo * info)
{
  if (max_frames_in_flight > 0)
    return max_frames_in_flight;
  if (GST_VIDEO_INFO_FPS_N (info) <= 0 ||
      gst_ct_element_upstream_is_live (GST_VIDEO_ENCODER_SINK_PAD (self)))
    return 1;
  return 0;
}

/* A frame waits for at most ct_jpeg_encoder_delay later ones. */
static void
gst_ct_jpeg_enc_update_latency (GstCtJpegEnc * self)
{
  const GstVideoInfo *info = &self->input_state->info;
  gint delay = ct_jpeg_encoder_delay (self->encoder);
  GstClockTime latency = 0;

  if (delay > 0 && GST_VIDEO_INFO_FPS_N (info) > 0)
    latency = gst_util_uint64_scale (delay,
        GST_SECOND * GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));
  GST_DEBUG_OBJECT (self, "encoding %d frame(s) at a time on %d thread(s), "
      "latency %" GST_TIME_FORMAT,
      ct_jpeg_encoder_frames_in_flight (self->encoder),
      ct_pool_threads (self->pool), GST_TIME_ARGS (latency));
  gst_video_encoder_set_latency (GST_VIDEO_ENCODER (self), latency, latency);
}

/*
 * Makes the encoder for the input caps with these settings, or hands them
 * to the encoder there is (its waiting frames encode with the old ones and
 * are finished first; *flow says how that went). Returns CT_OK, or the
 * code of the ctcore function named in *function, with its message in err,
 * when the settings are invalid or memory runs out.
 */
static int
gst_ct_jpeg_enc_configure (GstCtJpegEnc * self,
    const ct_jpeg_settings * settings, GstFlowReturn * flow,
    const gchar ** function, char *err, gsize err_size)
{
  const GstVideoInfo *info = &self->input_state->info;
  int ret;

  *flow = GST_FLOW_OK;
  if (self->encoder) {
    if (settings_equal (settings, &self->encoder_settings))
      return CT_OK;
    *function = "ct_jpeg_encoder_set_settings";
    ret = ct_jpeg_encoder_set_settings (self->encoder, settings, err,
        err_size);
    if (ret != CT_OK)
      return ret;
    self->encoder_settings = *settings;
    *flow = gst_ct_jpeg_enc_push_ready (self);
    return CT_OK;
  }
  *function = "ct_jpeg_encoder_new";
  ret = ct_jpeg_encoder_new (self->pool, settings,
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
      pixel_format_for (GST_VIDEO_INFO_FORMAT (info)), self->frames_in_flight,
      &self->encoder, err, err_size);
  if (ret != CT_OK)
    return ret;
  self->encoder_settings = *settings;
  gst_ct_jpeg_enc_update_latency (self);
  return CT_OK;
}

static gboolean
gst_ct_jpeg_enc_set_format (GstVideoEncoder * encoder,
    GstVideoCodecState * state)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);
  ct_jpeg_settings settings;
  gboolean progressive_level_set;
  gint max_frames_in_flight;
  GstFlowReturn flow;
  const gchar *function;
  gchar *refusal, *invalid;
  char err[256] = "";

  /* The frames the encoder holds belong to the old caps. */
  if (gst_ct_jpeg_enc_drain (self) == GST_FLOW_ERROR)
    return FALSE;
  g_clear_pointer (&self->encoder, ct_jpeg_encoder_free);

  if (self->input_state)
    gst_video_codec_state_unref (self->input_state);
  self->input_state = gst_video_codec_state_ref (state);

  gst_ct_jpeg_enc_read_settings (self, &settings, &progressive_level_set);
  GST_OBJECT_LOCK (self);
  max_frames_in_flight = self->max_frames_in_flight;
  GST_OBJECT_UNLOCK (self);

  self->frames_in_flight = gst_ct_jpeg_enc_choose_frames_in_flight (self,
      max_frames_in_flight, &state->info);
  /* Downstream's refusal fails the first frame, with one error on the bus
   * (a failed caps event would be sent again before each event that
   * follows it). */
  refusal = gst_ct_jpeg_enc_choose_progressive_level (self, &settings,
      progressive_level_set);
  self->progressive_level = settings.progressive_level;
  self->sof_marker = SOF_MARKER_NONE;
  if (refusal) {
    GST_DEBUG_OBJECT (self, "not negotiated: %s", refusal);
    g_free (refusal);
    return TRUE;
  }
  /* Invalid settings fail the first frame, which says why on the bus. */
  invalid = settings_error (&settings, GST_VIDEO_INFO_FORMAT (&state->info));
  if (invalid)
    GST_DEBUG_OBJECT (self, "no encoder yet: %s", invalid);
  else if (gst_ct_jpeg_enc_configure (self, &settings, &flow, &function, err,
          sizeof (err)) != CT_OK)
    GST_DEBUG_OBJECT (self, "no encoder yet: %s", err);
  g_free (invalid);
  if (!gst_ct_jpeg_enc_set_output (self, sof_marker_for (&settings)))
    self->sof_marker = SOF_MARKER_NONE;
  return TRUE;
}

static gboolean
gst_ct_jpeg_enc_propose_allocation (GstVideoEncoder * encoder,
    GstQuery * query)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);
  GstBufferPool *pool;
  guint size, min_buffers, max_buffers, frames_in_flight = 1;

  /* Frames with any stride are fine: gst_video_frame_map reads the meta. */
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (!GST_VIDEO_ENCODER_CLASS (parent_class)->propose_allocation (encoder,
          query))
    return FALSE;

  /* The encoder holds that many input buffers: upstream needs as many more
   * than it uses itself, or it waits for a buffer that never comes back. */
  GST_VIDEO_ENCODER_STREAM_LOCK (encoder);
  if (self->encoder)
    frames_in_flight = ct_jpeg_encoder_frames_in_flight (self->encoder);
  GST_VIDEO_ENCODER_STREAM_UNLOCK (encoder);
  if (frames_in_flight > 1 && gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size,
        &min_buffers, &max_buffers);
    min_buffers = MAX (min_buffers, frames_in_flight);
    if (max_buffers != 0)
      max_buffers = MAX (max_buffers, min_buffers);
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min_buffers,
        max_buffers);
    if (pool)
      gst_object_unref (pool);
  }
  return TRUE;
}

/* Whether plane p of the mapped frame holds every row its stride and size
 * say: a video meta may describe more than the memory has. A row is the
 * bytes up to the last one of its last pixel (of a packed 4:2:2 group). */
static gboolean
plane_fits (const GstVideoFrame * vframe, guint p)
{
  const GstVideoFormatInfo *finfo = vframe->info.finfo;
  /* With a video meta each plane has its memory's map; without, the
   * buffer's is map[0]. */
  const GstMapInfo *map = vframe->map[p].data ? &vframe->map[p] :
      &vframe->map[0];
  const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);
  const guint8 *memory = map->data;
  gsize available = map->size;
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, p);
  gsize row = p == 0 ? (gsize) GST_VIDEO_FRAME_WIDTH (vframe) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (vframe, 0) : 0;
  gint height = 0;

  for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (vframe); c++) {
    gsize end;

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
      continue;
    end = GST_VIDEO_FRAME_COMP_POFFSET (vframe, c) +
        (gsize) (GST_VIDEO_FRAME_COMP_WIDTH (vframe, c) - 1) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (vframe, c) + 1;
    row = MAX (row, end);
    height = GST_VIDEO_FRAME_COMP_HEIGHT (vframe, c);
  }
  return data >= memory && height > 0 && stride >= 0 &&
      (gsize) stride >= row &&
      (gsize) stride * (height - 1) + row <= available - (data - memory);
}

static gboolean
frame_fits (const GstVideoFrame * vframe)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (vframe); p++)
    if (!plane_fits (vframe, p))
      return FALSE;
  return TRUE;
}

/* The chroma planes of a planar or semi-planar frame: Cb and Cr, by
 * component (so YV12's swapped planes come in order), or the plane of
 * pairs. */
static void
gst_ct_jpeg_enc_chroma_planes (const GstVideoFrame * vframe,
    ct_jpeg_image * image)
{
  image->chroma[0] = image->chroma[1] = NULL;
  image->chroma_stride[0] = image->chroma_stride[1] = 0;
  if (GST_VIDEO_FRAME_N_PLANES (vframe) == 3) {
    image->chroma[0] = GST_VIDEO_FRAME_COMP_DATA (vframe, GST_VIDEO_COMP_U);
    image->chroma_stride[0] =
        GST_VIDEO_FRAME_COMP_STRIDE (vframe, GST_VIDEO_COMP_U);
    image->chroma[1] = GST_VIDEO_FRAME_COMP_DATA (vframe, GST_VIDEO_COMP_V);
    image->chroma_stride[1] =
        GST_VIDEO_FRAME_COMP_STRIDE (vframe, GST_VIDEO_COMP_V);
  } else if (GST_VIDEO_FRAME_N_PLANES (vframe) == 2) {
    image->chroma[0] = GST_VIDEO_FRAME_PLANE_DATA (vframe, 1);
    image->chroma_stride[0] = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, 1);
  }
}

static GstFlowReturn
gst_ct_jpeg_enc_handle_frame (GstVideoEncoder * encoder,
    GstVideoCodecFrame * frame)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);
  GstVideoInfo *info = &self->input_state->info;
  GstBuffer *input = frame->input_buffer;
  GstCtJpegEncPending *pending;
  ct_jpeg_settings settings;
  gboolean progressive_level_set;
  ct_jpeg_image image;
  GstFlowReturn flow;
  const gchar *function;
  gchar *invalid;
  char err[256] = "";
  int ret;

  gst_ct_jpeg_enc_read_settings (self, &settings, &progressive_level_set);
  if (!progressive_level_set)
    settings.progressive_level = self->progressive_level;
  /* Not negotiated yet, or the user changed progressive-level. */
  if (sof_marker_for (&settings) != self->sof_marker) {
    gchar *refusal = gst_ct_jpeg_enc_choose_progressive_level (self,
        &settings, progressive_level_set);

    if (refusal) {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", refusal), (NULL));
      g_free (refusal);
      gst_video_codec_frame_unref (frame);
      return GST_FLOW_NOT_NEGOTIATED;
    }
    if (!progressive_level_set)
      self->progressive_level = settings.progressive_level;
  }
  invalid = settings_error (&settings, GST_VIDEO_INFO_FORMAT (info));
  if (invalid) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("%s", invalid), (NULL));
    g_free (invalid);
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }

  /* A property changed: the frames sent still encode as they were. */
  ret = gst_ct_jpeg_enc_configure (self, &settings, &flow, &function, err,
      sizeof (err));
  if (ret != CT_OK) {
    GST_CT_ELEMENT_ERROR (self, ret, err, function,
        "Cannot encode %dx%d %s frames with these settings",
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        GST_VIDEO_INFO_NAME (info));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
  if (flow != GST_FLOW_OK) {
    gst_video_codec_frame_unref (frame);
    return flow;
  }

  /* The frames of the old settings are out: the new caps go next. */
  if (sof_marker_for (&settings) != self->sof_marker &&
      !gst_ct_jpeg_enc_set_output (self, sof_marker_for (&settings))) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Downstream refuses JPEG of %dx%d with sof-marker=%d",
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
            sof_marker_for (&settings)), (NULL));
    self->sof_marker = SOF_MARKER_NONE;
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_NOT_NEGOTIATED;
  }

  /* Without a video meta the layout is the one the caps imply, so the
   * buffer must hold all of it. */
  if (!gst_buffer_get_video_meta (input) &&
      gst_buffer_get_size (input) < GST_VIDEO_INFO_SIZE (info)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer too small: expected %" G_GSIZE_FORMAT
            " bytes for a %dx%d %s frame, got %" G_GSIZE_FORMAT " bytes",
            GST_VIDEO_INFO_SIZE (info), GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info),
            gst_buffer_get_size (input)), (NULL));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }

  pending = g_new0 (GstCtJpegEncPending, 1);
  if (!gst_video_frame_map (&pending->vframe, info, input, GST_MAP_READ)) {
    g_free (pending);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Could not map the input frame (%dx%d %s)",
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
            GST_VIDEO_INFO_NAME (info)), (NULL));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }
  pending->frame = frame;
  if (!frame_fits (&pending->vframe)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input buffer too small for its video meta: %dx%d %s rows of "
            "stride %d", GST_VIDEO_FRAME_WIDTH (&pending->vframe),
            GST_VIDEO_FRAME_HEIGHT (&pending->vframe),
            GST_VIDEO_INFO_NAME (&pending->vframe.info),
            GST_VIDEO_FRAME_PLANE_STRIDE (&pending->vframe, 0)), (NULL));
    gst_ct_jpeg_enc_pending_free (pending);
    return GST_FLOW_ERROR;
  }

  image.width = GST_VIDEO_FRAME_WIDTH (&pending->vframe);
  image.height = GST_VIDEO_FRAME_HEIGHT (&pending->vframe);
  image.format = pixel_format_for (GST_VIDEO_FRAME_FORMAT (&pending->vframe));
  image.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&pending->vframe, 0);
  image.pixels = GST_VIDEO_FRAME_PLANE_DATA (&pending->vframe, 0);
  gst_ct_jpeg_enc_chroma_planes (&pending->vframe, &image);
  ret = ct_jpeg_send_frame (self->encoder, &image, pending);
  if (ret < 0) {
    gst_ct_jpeg_enc_pending_free (pending);
    GST_CT_ELEMENT_ERROR (self, ret, ct_jpeg_encoder_error (self->encoder),
        "ct_jpeg_send_frame", "JPEG encoding failed");
    return GST_FLOW_ERROR;
  }
  g_queue_push_tail (&self->pending, pending);
  return gst_ct_jpeg_enc_push_ready (self);
}

/* EOS: the frames the encoder holds go out before it. */
static GstFlowReturn
gst_ct_jpeg_enc_finish (GstVideoEncoder * encoder)
{
  return gst_ct_jpeg_enc_drain (GST_CT_JPEG_ENC (encoder));
}

static gboolean
gst_ct_jpeg_enc_flush (GstVideoEncoder * encoder)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);

  GST_DEBUG_OBJECT (self, "dropping %u frame(s) in flight",
      g_queue_get_length (&self->pending));
  gst_ct_jpeg_enc_drop_pending (self);
  return TRUE;
}

/* The YUV formats the settings take: those of the chroma-subsampling set
 * (all while it is default), none for xyb or 4:4:0. */
static const gchar *
yuv_formats_for (const ct_jpeg_settings * settings)
{
  if (settings->xyb)
    return NULL;
  switch (settings->chroma_subsampling) {
    case CT_JPEG_SUBSAMPLING_DEFAULT:
      return YUV420_FORMATS ", " YUV422_FORMATS ", " YUV444_FORMATS;
    case CT_JPEG_SUBSAMPLING_420:
      return YUV420_FORMATS;
    case CT_JPEG_SUBSAMPLING_422:
      return YUV422_FORMATS;
    case CT_JPEG_SUBSAMPLING_444:
      return YUV444_FORMATS;
    default:
      return NULL;
  }
}

/* The template's caps with only the YUV formats the properties take, so
 * that a converter upstream produces one of them. */
static GstCaps *
gst_ct_jpeg_enc_getcaps (GstVideoEncoder * encoder, GstCaps * filter)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);
  ct_jpeg_settings settings;
  gboolean progressive_level_set;
  const gchar *yuv;
  gchar *description;
  GstCaps *caps, *result;

  gst_ct_jpeg_enc_read_settings (self, &settings, &progressive_level_set);
  yuv = yuv_formats_for (&settings);
  if (yuv)
    description = g_strdup_printf (RAW_CAPS ("%s") ", colorimetry = "
        "(string) " JPEG_COLORIMETRY "; " RAW_CAPS ("%s") "; "
        RAW_CAPS (RGB_FORMATS), yuv, yuv);
  else
    description = g_strdup (RAW_CAPS (RGB_FORMATS));
  caps = gst_caps_from_string (description);
  g_free (description);
  result = gst_video_encoder_proxy_getcaps (encoder, caps, filter);
  gst_caps_unref (caps);
  return result;
}

static gboolean
gst_ct_jpeg_enc_sink_query (GstVideoEncoder * encoder, GstQuery * query)
{
  /* Upstream wants its buffers back (to reconfigure its pool, say): the
   * encoder holds some. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_DRAIN) {
    GstFlowReturn flow;

    GST_VIDEO_ENCODER_STREAM_LOCK (encoder);
    flow = gst_ct_jpeg_enc_drain (GST_CT_JPEG_ENC (encoder));
    GST_VIDEO_ENCODER_STREAM_UNLOCK (encoder);
    if (flow != GST_FLOW_OK)
      return FALSE;
  }
  return GST_VIDEO_ENCODER_CLASS (parent_class)->sink_query (encoder, query);
}

static gboolean
gst_ct_jpeg_enc_start (GstVideoEncoder * encoder)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);

  return gst_ct_element_start_pool (GST_ELEMENT (self), &self->threads,
      &self->pool);
}

static gboolean
gst_ct_jpeg_enc_stop (GstVideoEncoder * encoder)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);

  gst_ct_jpeg_enc_drop_pending (self);
  g_clear_pointer (&self->encoder, ct_jpeg_encoder_free);
  gst_ct_element_stop_pool (&self->pool);
  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  return TRUE;
}

static void
gst_ct_jpeg_enc_class_init (GstCtJpegEncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoEncoderClass *venc_class = GST_VIDEO_ENCODER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ready_flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  gobject_class->set_property = gst_ct_jpeg_enc_set_property;
  gobject_class->get_property = gst_ct_jpeg_enc_get_property;

  g_object_class_install_property (gobject_class, PROP_QUALITY,
      g_param_spec_int ("quality", "Quality",
          "Quality 1..100 (roughly libjpeg's scale), converted to a "
          "distance; used while distance is -1 (cjpegli -q)",
          1, 100, DEFAULT_QUALITY, flags));
  g_object_class_install_property (gobject_class, PROP_DISTANCE,
      g_param_spec_float ("distance", "Distance",
          "Butteraugli distance 0..25, lower is better quality, 1.0 is "
          "visually lossless; -1 derives it from quality (cjpegli -d)",
          -1.0f, 25.0f, DEFAULT_DISTANCE, flags));
  g_object_class_install_property (gobject_class, PROP_PROGRESSIVE_LEVEL,
      g_param_spec_int ("progressive-level", "Progressive level",
          "0: sequential (baseline, SOF0); 1, 2: progressive (SOF2), more "
          "scans at 2 (cjpegli -p). Unset, 2, or 0 where downstream takes "
          "only sof-marker=0; once set, downstream must take it",
          0, 2, DEFAULT_PROGRESSIVE_LEVEL, flags));
  g_object_class_install_property (gobject_class, PROP_CHROMA_SUBSAMPLING,
      g_param_spec_enum ("chroma-subsampling", "Chroma subsampling",
          "Chroma subsampling of YCbCr images; no effect on gray "
          "(cjpegli --chroma_subsampling). YUV input keeps its own: "
          "default or that one, which narrows the sink caps to its formats",
          GST_TYPE_CT_JPEG_ENC_CHROMA_SUBSAMPLING, DEFAULT_CHROMA_SUBSAMPLING,
          flags));
  g_object_class_install_property (gobject_class, PROP_ADAPTIVE_QUANTIZATION,
      g_param_spec_boolean ("adaptive-quantization", "Adaptive quantization",
          "Raise the zero thresholds in noisy areas (false: cjpegli "
          "--noadaptive_quantization)", DEFAULT_ADAPTIVE_QUANTIZATION, flags));
  g_object_class_install_property (gobject_class, PROP_STANDARD_TABLES,
      g_param_spec_boolean ("standard-tables", "Standard tables",
          "Quantization tables of the JPEG standard's Annex K instead of "
          "jpegli's (cjpegli --std_quant)", DEFAULT_STANDARD_TABLES, flags));
  g_object_class_install_property (gobject_class, PROP_XYB,
      g_param_spec_boolean ("xyb", "XYB",
          "Encode in the XYB color space, with an ICC profile that maps it "
          "back (cjpegli --xyb)", DEFAULT_XYB, flags));
  g_object_class_install_property (gobject_class, PROP_FIXED_CODE,
      g_param_spec_boolean ("fixed-code", "Fixed code",
          "Annex K Huffman codes instead of optimized ones; needs "
          "progressive-level=0 (cjpegli --fixed_code)", DEFAULT_FIXED_CODE,
          flags));
  g_object_class_install_property (gobject_class, PROP_SIMD,
      g_param_spec_enum ("simd", "SIMD target",
          "Which build of jpegli to match byte for byte (the arithmetic, "
          "not necessarily the instructions used)", GST_TYPE_CT_JPEG_ENC_SIMD,
          DEFAULT_SIMD, flags));
  gst_ct_element_install_threads_property (gobject_class, PROP_THREADS);
  /**
   * GstCtJpegEnc:max-frames-in-flight:
   *
   * How many frames are held back and encoded together, one per worker
   * thread. Each frame held adds one frame duration of latency, which the
   * element reports. The output bytes do not depend on it.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_FRAMES_IN_FLIGHT,
      g_param_spec_int ("max-frames-in-flight", "Max frames in flight",
          "Frames held back and encoded together, one per thread, adding "
          "N-1 frame durations of latency: 0 = auto (the number of threads "
          "for frames under one megapixel with a known framerate from a "
          "source that is not live, else 1), 1 = each frame as it comes; "
          "read when the caps are set", 0, MAX_FRAMES_IN_FLIGHT,
          DEFAULT_MAX_FRAMES_IN_FLIGHT, ready_flags));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "JPEG encoder (jpegli, byte-exact)", "Codec/Encoder/Image",
      "Encodes images to JPEG, byte-identical to jpegli's cjpegli",
      "ct project");

  venc_class->start = gst_ct_jpeg_enc_start;
  venc_class->stop = gst_ct_jpeg_enc_stop;
  venc_class->set_format = gst_ct_jpeg_enc_set_format;
  venc_class->propose_allocation = gst_ct_jpeg_enc_propose_allocation;
  venc_class->sink_query = gst_ct_jpeg_enc_sink_query;
  venc_class->getcaps = gst_ct_jpeg_enc_getcaps;
  venc_class->handle_frame = gst_ct_jpeg_enc_handle_frame;
  venc_class->finish = gst_ct_jpeg_enc_finish;
  venc_class->flush = gst_ct_jpeg_enc_flush;

  GST_DEBUG_CATEGORY_INIT (gst_ct_jpeg_enc_debug, "ctjpegenc", 0,
      "ct JPEG encoder (jpegli port)");
  gst_type_mark_as_plugin_api (GST_TYPE_CT_JPEG_ENC_CHROMA_SUBSAMPLING, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CT_JPEG_ENC_SIMD, 0);
}

static void
gst_ct_jpeg_enc_init (GstCtJpegEnc * self)
{
  ct_jpeg_settings_default (&self->settings);
  self->threads = GST_CT_ELEMENT_DEFAULT_THREADS;
  self->max_frames_in_flight = DEFAULT_MAX_FRAMES_IN_FLIGHT;
  self->sof_marker = SOF_MARKER_NONE;
  g_queue_init (&self->pending);
}
