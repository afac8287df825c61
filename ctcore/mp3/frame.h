/*
 * One MP3 frame from the frame buffer mfbuf: psychoacoustics, ATH
 * adjustment, filterbank (polyphase + MDCT), M/S decision, quantization and
 * bitstream formatting, in LAME's order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/encoder.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#ifndef CTCORE_MP3_FRAME_H
#define CTCORE_MP3_FRAME_H

#include "state.h"

/* lame_encode_mp3_frame: encodes the frame at inbuf_l/inbuf_r (mfbuf, with
 * its look-ahead) and moves the finished bytes of the stream to mp3buf.
 * Returns their count, or a negative value when mp3buf_size is too small. */
int ct_mp3_encode_frame(ct_mp3_state *gfc, const float *inbuf_l,
                        const float *inbuf_r, unsigned char *mp3buf,
                        int mp3buf_size);

#endif
