/*
 * ctlameenc: MP3 encoder element, byte-identical to LAME 3.100's lame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_CT_LAME_ENC_H
#define GST_CT_LAME_ENC_H

#include <gst/gst.h>
#include <gst/audio/audio.h>

G_BEGIN_DECLS

#define GST_TYPE_CT_LAME_ENC (gst_ct_lame_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstCtLameEnc, gst_ct_lame_enc, GST, CT_LAME_ENC,
    GstAudioEncoder)

GST_ELEMENT_REGISTER_DECLARE (ctlameenc);

G_END_DECLS

#endif
