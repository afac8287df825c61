/*
 * The bit reservoir: bits a frame leaves unused that later frames may spend
 * (main_data_begin points up to 511 bytes back in MPEG-1, 255 in MPEG-2).
 *
 * Carried from frame to frame (serial, in gfc): sv_enc.ResvSize (bits in
 * the reservoir), sv_enc.ResvMax (its limit for the current frame), and
 * l3_side.main_data_begin, which the bitstream advances. This is the one
 * dependency between frames in the quantization: frame N+1's bit budget
 * needs frame N's ResvFrameEnd.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/reservoir.c (LGPL-2.0-or-later, the LAME
 * project).
 */
#ifndef CTCORE_MP3_RESERVOIR_H
#define CTCORE_MP3_RESERVOIR_H

#include "state.h"

/* ResvFrameBegin: sets ResvMax for the frame and *mean_bits (the target
 * bits per granule); returns the most bits the frame may use. */
int ct_mp3_resv_frame_begin(ct_mp3_state *gfc, int *mean_bits);

/* ResvMaxBits: the target bits of one granule and the extra bits it may
 * take from the reservoir. */
void ct_mp3_resv_max_bits(ct_mp3_state *gfc, int mean_bits, int *targ_bits,
                          int *extra_bits, int cbr);

/* ResvAdjust: a granule used gi's bits. */
void ct_mp3_resv_adjust(ct_mp3_state *gfc, const ct_mp3_gr_info *gi);

/* ResvFrameEnd: adds the frame's mean bits and stuffs what exceeds ResvMax
 * or byte alignment (l3_side.resvDrain_pre into the previous frame's
 * ancillary data, resvDrain_post into this frame's). */
void ct_mp3_resv_frame_end(ct_mp3_state *gfc, int mean_bits);

#endif
