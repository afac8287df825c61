/*
 * ctjpegenc: encodes each video frame to a JPEG image with ctcore's port of
 * jpegli, writing exactly the bytes cjpegli writes for the same pixels and
 * settings. Each property is one cjpegli flag.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-ctjpegenc
 * @title: ctjpegenc
 *
 * Encodes raw RGB or gray frames to JPEG, byte-identical to jpegli's
 * cjpegli for the same settings. Formats with a different byte order or an
 * alpha (or padding) byte are reordered to RGB first; alpha is dropped.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=RGB ! \
 *     ctjpegenc quality=85 ! filesink location=frame.jpg
 * ]|
 */
#include "config.h"

#include "ctjpegenc.h"

#include <stdlib.h>

#include "ctcore/jpeg.h"

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

/* SOF marker types as in the caps of jpegenc/jpegparse. */
#define SOF_MARKER_BASELINE 0
#define SOF_MARKER_PROGRESSIVE 2

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
};

struct _GstCtJpegEnc
{
  GstVideoEncoder parent;

  /* The properties, under the object lock; each frame encodes with a copy
   * taken when it starts. */
  ct_jpeg_settings settings;

  /* Streaming thread only. */
  GstVideoCodecState *input_state;
  gint sof_marker;              /* of the negotiated source caps */
  guint8 *rgb;                  /* a frame reordered to packed RGB */
  gsize rgb_size;
};

#define SIZE_RANGE "[ 1, 65535 ]"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, "
        "format = (string) { RGB, GRAY8, BGR, RGBx, BGRx, xRGB, xBGR, "
        "RGBA, BGRA, ARGB, ABGR }, "
        "width = (int) " SIZE_RANGE ", height = (int) " SIZE_RANGE ", "
        "framerate = (fraction) [ 0/1, MAX ]"));

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
        "cjpegli's choice: 4:4:4, or jpegli's layout for XYB", "default"},
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
          "the CT_SIMD environment variable overrides", "auto"},
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
GST_ELEMENT_REGISTER_DEFINE (ctjpegenc, "ctjpegenc", GST_RANK_NONE,
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
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

static gint
sof_marker_for (const ct_jpeg_settings * settings)
{
  return settings->progressive_level == 0 ? SOF_MARKER_BASELINE :
      SOF_MARKER_PROGRESSIVE;
}

static gboolean
gst_ct_jpeg_enc_set_format (GstVideoEncoder * encoder,
    GstVideoCodecState * state)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);
  gint sof_marker;

  if (self->input_state)
    gst_video_codec_state_unref (self->input_state);
  self->input_state = gst_video_codec_state_ref (state);

  GST_OBJECT_LOCK (self);
  sof_marker = sof_marker_for (&self->settings);
  GST_OBJECT_UNLOCK (self);

  return gst_ct_jpeg_enc_set_output (self, sof_marker);
}

static gboolean
gst_ct_jpeg_enc_propose_allocation (GstVideoEncoder * encoder,
    GstQuery * query)
{
  /* Frames with any stride are fine: gst_video_frame_map reads the meta. */
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return GST_VIDEO_ENCODER_CLASS (parent_class)->propose_allocation (encoder,
      query);
}

/*
 * Describes a mapped frame as a ct_jpeg_image. RGB and GRAY8 are read in
 * place; the other formats are copied to packed RGB, dropping alpha or
 * padding bytes. Returns FALSE when the scratch memory cannot be had.
 */
static gboolean
gst_ct_jpeg_enc_describe_frame (GstCtJpegEnc * self,
    const GstVideoFrame * vframe, ct_jpeg_image * image)
{
  GstVideoFormat format = GST_VIDEO_FRAME_FORMAT (vframe);
  guint width = GST_VIDEO_FRAME_WIDTH (vframe);
  guint height = GST_VIDEO_FRAME_HEIGHT (vframe);

  image->width = width;
  image->height = height;
  if (format == GST_VIDEO_FORMAT_RGB || format == GST_VIDEO_FORMAT_GRAY8) {
    image->format = format == GST_VIDEO_FORMAT_RGB ? CT_PIXEL_RGB8 :
        CT_PIXEL_GRAY8;
    image->stride = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, 0);
    image->pixels = GST_VIDEO_FRAME_PLANE_DATA (vframe, 0);
    return TRUE;
  }

  gsize size = (gsize) width * height * 3;
  if (size > self->rgb_size) {
    g_free (self->rgb);
    self->rgb = g_try_malloc (size);
    self->rgb_size = self->rgb ? size : 0;
    if (!self->rgb)
      return FALSE;
  }

  const guint8 *r = GST_VIDEO_FRAME_COMP_DATA (vframe, GST_VIDEO_COMP_R);
  const guint8 *g = GST_VIDEO_FRAME_COMP_DATA (vframe, GST_VIDEO_COMP_G);
  const guint8 *b = GST_VIDEO_FRAME_COMP_DATA (vframe, GST_VIDEO_COMP_B);
  gint stride = GST_VIDEO_FRAME_COMP_STRIDE (vframe, GST_VIDEO_COMP_R);
  gint pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE (vframe, GST_VIDEO_COMP_R);
  guint8 *dst = self->rgb;

  for (guint y = 0; y < height; y++) {
    gsize row = (gsize) y * stride;
    for (guint x = 0; x < width; x++) {
      gsize at = row + (gsize) x * pixel_stride;
      *dst++ = r[at];
      *dst++ = g[at];
      *dst++ = b[at];
    }
  }
  image->format = CT_PIXEL_RGB8;
  image->stride = (size_t) width * 3;
  image->pixels = self->rgb;
  return TRUE;
}

static void
free_jpeg_data (gpointer data)
{
  ct_jpeg_output out = { data, 0 };

  ct_jpeg_output_free (&out);
}

static GstFlowReturn
gst_ct_jpeg_enc_handle_frame (GstVideoEncoder * encoder,
    GstVideoCodecFrame * frame)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);
  GstVideoInfo *info = &self->input_state->info;
  GstBuffer *input = frame->input_buffer;
  ct_jpeg_settings settings;
  GstVideoFrame vframe;
  ct_jpeg_image image;
  ct_jpeg_output out = { NULL, 0 };
  char err[256] = "";
  int ret;

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  GST_OBJECT_UNLOCK (self);

  /* progressive-level may have changed since the caps were negotiated. */
  if (sof_marker_for (&settings) != self->sof_marker &&
      !gst_ct_jpeg_enc_set_output (self, sof_marker_for (&settings))) {
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

  if (!gst_video_frame_map (&vframe, info, input, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Could not map the input frame (%dx%d %s)",
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
            GST_VIDEO_INFO_NAME (info)), (NULL));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }

  if (!gst_ct_jpeg_enc_describe_frame (self, &vframe, &image)) {
    gst_video_frame_unmap (&vframe);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Out of memory for a %dx%d RGB frame", GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info)), (NULL));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }

  ret = ct_jpeg_encode (NULL, &settings, &image, &out, err, sizeof (err));
  gst_video_frame_unmap (&vframe);
  if (ret < 0) {
    GST_ELEMENT_ERROR (self, STREAM, ENCODE,
        ("JPEG encoding failed: %s", err[0] ? err : ct_strerror (ret)),
        ("ct_jpeg_encode returned %d (%s)", ret, ct_strerror (ret)));
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_ERROR;
  }

  GST_LOG_OBJECT (self, "encoded %ux%u to %" G_GSIZE_FORMAT " bytes (%s)",
      image.width, image.height, out.size,
      ct_simd_name (ct_simd_resolve (settings.simd)));
  frame->output_buffer = gst_buffer_new_wrapped_full (0, out.data, out.size,
      0, out.size, out.data, free_jpeg_data);
  GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT (frame);
  return gst_video_encoder_finish_frame (encoder, frame);
}

static gboolean
gst_ct_jpeg_enc_stop (GstVideoEncoder * encoder)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (encoder);

  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  g_clear_pointer (&self->rgb, g_free);
  self->rgb_size = 0;
  return TRUE;
}

static void
gst_ct_jpeg_enc_finalize (GObject * object)
{
  GstCtJpegEnc *self = GST_CT_JPEG_ENC (object);

  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  g_free (self->rgb);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_ct_jpeg_enc_class_init (GstCtJpegEncClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoEncoderClass *venc_class = GST_VIDEO_ENCODER_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_ct_jpeg_enc_set_property;
  gobject_class->get_property = gst_ct_jpeg_enc_get_property;
  gobject_class->finalize = gst_ct_jpeg_enc_finalize;

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
          "scans at 2 (cjpegli -p)", 0, 2, DEFAULT_PROGRESSIVE_LEVEL, flags));
  g_object_class_install_property (gobject_class, PROP_CHROMA_SUBSAMPLING,
      g_param_spec_enum ("chroma-subsampling", "Chroma subsampling",
          "Chroma subsampling of YCbCr images; no effect on gray "
          "(cjpegli --chroma_subsampling)",
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

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "JPEG encoder (jpegli, byte-exact)", "Codec/Encoder/Image",
      "Encodes images to JPEG, byte-identical to jpegli's cjpegli",
      "ct project");

  venc_class->stop = gst_ct_jpeg_enc_stop;
  venc_class->set_format = gst_ct_jpeg_enc_set_format;
  venc_class->propose_allocation = gst_ct_jpeg_enc_propose_allocation;
  venc_class->handle_frame = gst_ct_jpeg_enc_handle_frame;

  GST_DEBUG_CATEGORY_INIT (gst_ct_jpeg_enc_debug, "ctjpegenc", 0,
      "ct JPEG encoder (jpegli port)");
  gst_type_mark_as_plugin_api (GST_TYPE_CT_JPEG_ENC_CHROMA_SUBSAMPLING, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CT_JPEG_ENC_SIMD, 0);
}

static void
gst_ct_jpeg_enc_init (GstCtJpegEnc * self)
{
  ct_jpeg_settings_default (&self->settings);
  self->sof_marker = -1;
}
