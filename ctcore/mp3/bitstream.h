/*
 * The Layer III bitstream: frame headers and side information, the main
 * data (scalefactors and Huffman codes), ancillary stuffing, and the output
 * buffer the encoder hands out.
 *
 * LAME writes main data serially into one bit buffer and slips each frame's
 * header and side info in where its frame begins (main_data_begin bytes
 * before the frame's own main data may start). Here that is split in two:
 *
 *   ct_mp3_encode_main_data   frame N's main data as a bit string, from the
 *                             frame's side info and quantized spectrum only
 *                             (no carried state: may run on any thread);
 *   ct_mp3_format_bitstream   serial: appends frame N (stuffing, header and
 *                             side info, main data) to the stream.
 *
 * Carried from frame to frame (serial, in gfc): the bit buffer gfc->bs and
 * its bit counter totbit; the ring of headers waiting for their position
 * (sv_enc.header[], h_ptr, w_ptr); sv_enc.ancillary_flag; main_data_begin
 * and the reservoir size (with reservoir.c). The stream is byte aligned
 * between frames.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/bitstream.c (LGPL-2.0-or-later, the LAME
 * project).
 */
#ifndef CTCORE_MP3_BITSTREAM_H
#define CTCORE_MP3_BITSTREAM_H

#include "state.h"

/* lame.h: the buffer constraints of lame_set_strict_ISO. */
enum {
    CT_MP3_MDB_DEFAULT = 0,
    CT_MP3_MDB_STRICT_ISO = 1,
    CT_MP3_MDB_MAXIMUM = 2,
};

/* One frame's main data: at most 4 x 4095 bits (2 granules x 2 channels of
 * part2_3_length, a 12-bit field). */
#define CT_MP3_MAIN_DATA_MAX_BYTES (4 * 4095 / 8 + 1)

typedef struct ct_mp3_main_data {
    /* + 8: the writer stores 8 bytes at a time */
    unsigned char buf[CT_MP3_MAIN_DATA_MAX_BYTES + 8];
    int nbits;
} ct_mp3_main_data;

/* getframebits: bits in the current frame (ov_enc.bitrate_index, padding). */
int ct_mp3_getframebits(const ct_mp3_state *gfc);

/* get_max_frame_buffer_size_by_constraint: cfg.buffer_constraint. */
int ct_mp3_get_max_frame_buffer_size_by_constraint(const ct_mp3_config *cfg,
                                                   int constraint);

/* init_bit_stream_w: an empty stream and header ring. */
void ct_mp3_init_bit_stream_w(ct_mp3_state *gfc);

/* writeMainData into md: scalefactors, big values and count1 of each
 * granule and channel of l3_side (table 14 is written as 16). part3: NULL,
 * or per granule and channel NULL or the granule's Huffman coded lines
 * as ct_mp3_encode_part3 coded them, appended in place of coding them. */
void ct_mp3_encode_main_data(const ct_mp3_config *cfg,
                             const ct_mp3_scalefac *scalefac_band,
                             const ct_mp3_side_info *l3_side,
                             const ct_mp3_main_data *const part3[2][2],
                             ct_mp3_main_data *md);

/* The Huffman coded lines of one granule (the big values and count1 of
 * writeMainData, part2_3_length less part2_length bits) into md. */
void ct_mp3_encode_part3(const ct_mp3_scalefac *scalefac_band, const ct_mp3_gr_info *gi,
                         ct_mp3_main_data *md);

/* format_bitstream: appends the current frame (gfc->l3_side, gfc->ov_enc)
 * to the stream, with its main data md. */
void ct_mp3_format_bitstream(ct_mp3_state *gfc, const ct_mp3_main_data *md);

/* compute_flushbits: the stuffing bits that complete the stream's last
 * frame; *total_bytes_output: the bytes a flush would hand out. */
int ct_mp3_compute_flushbits(const ct_mp3_state *gfc, int *total_bytes_output);

/* flush_bitstream: completes the last frame with ancillary data and empties
 * the reservoir. */
void ct_mp3_flush_bitstream(ct_mp3_state *gfc);

/* add_dummy_byte: n bytes val outside any frame (the LAME tag's
 * placeholder), moving the pending headers back. */
void ct_mp3_add_dummy_byte(ct_mp3_state *gfc, unsigned char val, unsigned int n);

/* copy_buffer: moves the finished bytes to buffer; returns their count, 0
 * when none, -1 when size is too small. mp3data: 1 for audio frames (they
 * go into the music CRC and the byte count of the LAME tag), 0 for the
 * tag's placeholder. */
int ct_mp3_copy_buffer(ct_mp3_state *gfc, unsigned char *buffer, int size,
                       int mp3data);

#endif
