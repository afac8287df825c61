/*
 * The LAME tag: the stream's first frame, a silent frame whose main data
 * holds the Xing header ("Xing" for VBR and ABR, "Info" for CBR: frame and
 * byte counts, a 100-entry seek table) and the LAME extension (version,
 * VBR method, lowpass, ReplayGain, flags, encoder delay and padding, music
 * length and CRC, tag CRC).
 *
 * InitVbrTag writes a placeholder of the frame's size into the stream; after
 * the last frame lame_get_lametag_frame builds the real one, for the caller
 * to write over the placeholder.
 *
 * Carried from frame to frame (serial, in the order frames are written):
 * the seek table gfc->VBR_seek_table (one entry per frame: its bitrate; the
 * byte count of the stream) and the music CRC gfc->nMusicCRC over all audio
 * bytes handed out.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/VbrTag.c (LGPL-2.0-or-later, the LAME
 * project).
 */
#ifndef CTCORE_MP3_LAMETAG_H
#define CTCORE_MP3_LAMETAG_H

#include <stddef.h>
#include <stdint.h>

#include "state.h"

/* InitVbrTag: sizes the tag frame, resets the seek table and writes the
 * placeholder into the stream. Clears cfg.write_lame_tag when the tag does
 * not fit its frame. Returns 0. */
int ct_mp3_init_vbr_tag(ct_mp3_state *gfc);

/* AddVbrFrame: one more frame of the current bitrate_index. */
void ct_mp3_add_vbr_frame(ct_mp3_state *gfc);

/* The music CRC's slicing tables: slices[0] is CRC_update_lookup's table,
 * slices[k] the CRC of a byte followed by k zero bytes. */
void ct_mp3_music_crc_init(uint16_t slices[8][256]);
/* UpdateMusicCRC: CRC-16 (polynomial 0x8005, reflected) over size bytes,
 * eight bytes a step with the slicing tables (the CRC is linear in its
 * input: the same value as LAME's byte by byte). */
void ct_mp3_update_music_crc(const uint16_t slices[8][256], uint16_t *crc,
                             const unsigned char *buffer, int size);

/* lame_get_lametag_frame: the tag frame into buffer. Returns its size; 0
 * without a tag or before the first frame; the size without writing when
 * size is too small. */
size_t ct_mp3_get_lametag_frame(const ct_mp3_state *gfc, unsigned char *buffer,
                                size_t size);

#endif
