/*
 * libopusenc's Ogg page writer: packets in, pages out, pages flushed when
 * the lacing would pass 255 values or when the muxing delay has passed,
 * or on request. Ports libopusenc 0.2.1 src/ogg_packer.{c,h}.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopusenc 0.2.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_OGG_H
#define CTCORE_OPUS_OGG_H

#include <stddef.h>
#include <stdint.h>

/* oggp_page */
typedef struct ct_ogg_page {
    uint64_t granulepos;
    size_t buf_pos;
    size_t buf_size;
    size_t lacing_pos;
    size_t lacing_size;
    int flags;
    size_t pageno;
} ct_ogg_page;

/* struct oggpacker; its buffers grow as libopusenc's do */
typedef struct ct_ogg_packer {
    int32_t serialno;
    unsigned char *buf;
    unsigned char *alloc_buf;
    unsigned char *user_buf;
    size_t buf_size;
    size_t buf_fill;
    size_t buf_begin;
    unsigned char *lacing;
    size_t lacing_size;
    size_t lacing_fill;
    size_t lacing_begin;
    ct_ogg_page *pages;
    size_t pages_size;
    size_t pages_fill;
    uint64_t muxing_delay;
    int is_eos;
    uint64_t curr_granule;
    uint64_t last_granule;
    size_t pageno;
} ct_ogg_packer;

/* oggp_create; NULL when out of memory */
ct_ogg_packer *ct_ogg_packer_new(int32_t serialno);

/* oggp_destroy; NULL is allowed */
void ct_ogg_packer_free(ct_ogg_packer *oggp);

/* oggp_set_muxing_delay: in granules, 0 for none */
void ct_ogg_packer_set_muxing_delay(ct_ogg_packer *oggp, uint64_t delay);

/* oggp_get_packet_buffer: room for the next packet of at most `bytes`
 * bytes, valid until the next get_packet_buffer or commit_packet; NULL
 * when out of memory */
unsigned char *ct_ogg_packer_get_packet_buffer(ct_ogg_packer *oggp,
                                               int32_t bytes);

/* oggp_commit_packet: the packet written to the buffer; 0, or nonzero
 * when out of memory */
int ct_ogg_packer_commit_packet(ct_ogg_packer *oggp, int32_t bytes,
                                uint64_t granulepos, int eos);

/* oggp_flush_page: closes a page of the packets not yet in one; 0, or 1
 * when there were none (or nonzero when out of memory) */
int ct_ogg_packer_flush_page(ct_ogg_packer *oggp);

/* oggp_get_next_page: 1 and the next page (valid until the next
 * get_next_page or commit_packet), or 0 when there is none */
int ct_ogg_packer_get_next_page(ct_ogg_packer *oggp, unsigned char **page,
                                int32_t *bytes);

#endif
