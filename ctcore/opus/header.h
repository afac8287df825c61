/*
 * The Ogg Opus header packets: OpusHead and the OpusTags comment packet
 * (vendor string, comments, padding). Ports libopusenc 0.2.1
 * src/opus_header.{c,h}, without the projection (ambisonics) mapping.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopusenc 0.2.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_HEADER_H
#define CTCORE_OPUS_HEADER_H

#include <stdint.h>

/* What ope_comments_create makes of opus_get_version_string(), PACKAGE_NAME
 * and PACKAGE_VERSION in Debian's build: the vendor of OpusTags */
#define CT_OPUS_VENDOR_STRING "libopus 1.3.1, libopusenc 0.2.1"

/* OpusHeader */
typedef struct ct_opus_header {
    int version;
    int channels; /* 1..255 */
    int preskip;
    uint32_t input_sample_rate;
    int32_t gain; /* dB in S7.8 */
    int channel_mapping;
    /* only for channel_mapping != 0 */
    int nb_streams;
    int nb_coupled;
    unsigned char stream_map[255];
} ct_opus_header;

/* opeint_opus_header_get_size: the size of the OpusHead packet */
int ct_opus_header_get_size(const ct_opus_header *h);

/* opeint_opus_header_to_packet: writes OpusHead to packet[0..len);
 * returns its size, 0 if it does not fit or the mapping is 3 (projection,
 * not ported) */
int ct_opus_header_to_packet(const ct_opus_header *h, unsigned char *packet,
                             int len);

/* opeint_comment_init: a new OpusTags packet (malloc'ed, *length bytes)
 * with the vendor string and no comment; *comments NULL and *length 0 when
 * out of memory */
void ct_opus_comment_init(char **comments, int *length,
                          const char *vendor_string);

/* opeint_comment_add: appends "tag=val" (or val when tag is NULL); 0, or
 * 1 when out of memory */
int ct_opus_comment_add(char **comments, int *length, const char *tag,
                        const char *val);

/* opeint_comment_pad: at least `amount` zero bytes of padding, rounded up
 * to fill the last Ogg lacing value (total 255*k - 1 bytes) */
void ct_opus_comment_pad(char **comments, int *length, int amount);

#endif
