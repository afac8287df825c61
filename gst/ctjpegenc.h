/*
 * ctjpegenc: JPEG encoder element, byte-identical to cjpegli.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_CT_JPEG_ENC_H
#define GST_CT_JPEG_ENC_H

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_CT_JPEG_ENC (gst_ct_jpeg_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstCtJpegEnc, gst_ct_jpeg_enc, GST, CT_JPEG_ENC,
    GstVideoEncoder)

GST_ELEMENT_REGISTER_DECLARE (ctjpegenc);

G_END_DECLS

#endif
