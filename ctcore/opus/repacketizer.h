/*
 * The Opus repacketizer: frames of packets with the same TOC joined into
 * one packet (codes 0 to 3, self-delimited or not, padded or not), and
 * the packet parsing and size coding it needs. Ports src/repacketizer.c
 * and the packet functions of src/opus.c (encoder side).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_REPACKETIZER_H
#define CTCORE_OPUS_REPACKETIZER_H

#include <stdint.h>

/* libopus' return codes (include/opus_defines.h), as in codec.h */
#define CT_OPUS_OK               0
#define CT_OPUS_BAD_ARG          (-1)
#define CT_OPUS_BUFFER_TOO_SMALL (-2)
#define CT_OPUS_INVALID_PACKET   (-4)

/* struct OpusRepacketizer */
typedef struct ct_opus_repacketizer {
    unsigned char toc;
    int nb_frames;
    const unsigned char *frames[48];
    int16_t len[48];
    int framesize;
} ct_opus_repacketizer;

ct_opus_repacketizer *ct_opus_repacketizer_init(ct_opus_repacketizer *rp);

/* Adds the frames of the packet data[0..len) (which must outlive rp's
 * use); CT_OPUS_INVALID_PACKET if its TOC differs from the first packet's
 * or the total passes 120 ms */
int ct_opus_repacketizer_cat(ct_opus_repacketizer *rp,
                             const unsigned char *data, int32_t len);

int ct_opus_repacketizer_get_nb_frames(ct_opus_repacketizer *rp);

/* Frames [begin, end) as one packet in data[0..maxlen); pad: code 3 with
 * padding up to exactly maxlen bytes. Returns its size or an error. */
int32_t ct_opus_repacketizer_out_range_impl(ct_opus_repacketizer *rp,
                                            int begin, int end,
                                            unsigned char *data,
                                            int32_t maxlen, int self_delimited,
                                            int pad);

/* Pads the packet data[0..len) in place to new_len bytes */
int ct_opus_packet_pad(unsigned char *data, int32_t len, int32_t new_len);

/* src/opus.c encode_size: a frame size in 1 or 2 bytes; returns the count */
int ct_opus_encode_size(int size, unsigned char *data);

int ct_opus_packet_get_samples_per_frame(const unsigned char *data,
                                         int32_t Fs);

int ct_opus_packet_get_nb_frames(const unsigned char packet[], int32_t len);

/* src/opus.c opus_packet_parse_impl: the frames of a packet; returns their
 * count or an error */
int ct_opus_packet_parse_impl(const unsigned char *data, int32_t len,
                              int self_delimited, unsigned char *out_toc,
                              const unsigned char *frames[48],
                              int16_t size[48], int *payload_offset,
                              int32_t *packet_offset);

#endif
