/*
 * ctopusenc: Opus encoder element, byte-identical to opus-tools' opusenc.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_CT_OPUS_ENC_H
#define GST_CT_OPUS_ENC_H

#include <gst/gst.h>
#include <gst/audio/audio.h>

G_BEGIN_DECLS

#define GST_TYPE_CT_OPUS_ENC (gst_ct_opus_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstCtOpusEnc, gst_ct_opus_enc, GST, CT_OPUS_ENC,
    GstAudioEncoder)

GST_ELEMENT_REGISTER_DECLARE (ctopusenc);

G_END_DECLS

#endif
