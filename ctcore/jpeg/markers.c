/*
 * Markers: SOI, the APP2 ICC chunks, DQT, SOF, DHT, SOS and EOI, with the
 * tables jpegli writes, in jpegli's order.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/bitstream.cc and encode.cc
 * (jpegli_write_icc_profile) (BSD-3-Clause, Copyright the JPEG XL Project
 * Authors).
 */
#include <string.h>

#include "entropy_internal.h"

/* Longest marker payload (jpegli's kMaxBytesInMarker); an ICC chunk also
 * carries the signature and its sequence number and count. */
#define MAX_BYTES_IN_MARKER 65533
static const uint8_t icc_signature[12] = {'I', 'C', 'C', '_', 'P', 'R',
                                          'O', 'F', 'I', 'L', 'E', 0};
#define MAX_ICC_BYTES_IN_MARKER \
    (MAX_BYTES_IN_MARKER - sizeof(icc_signature) - 2)

static uint8_t *put_marker(uint8_t *p, int marker, size_t length)
{
    *p++ = 0xFF;
    *p++ = (uint8_t)marker;
    *p++ = (uint8_t)(length >> 8);
    *p++ = (uint8_t)(length & 0xFF);
    return p;
}

size_t ct_jpeg_write_soi(uint8_t *dst)
{
    dst[0] = 0xFF;
    dst[1] = 0xD8;
    return 2;
}

size_t ct_jpeg_write_eoi(uint8_t *dst)
{
    dst[0] = 0xFF;
    dst[1] = 0xD9;
    return 2;
}

static size_t num_icc_markers(size_t icc_size)
{
    return (icc_size + MAX_ICC_BYTES_IN_MARKER - 1) / MAX_ICC_BYTES_IN_MARKER;
}

/* DQT with every table in 16-bit precision, SOF with every component. */
#define FRAME_HEADER_MAX \
    (4 + CT_JPEG_MAX_QUANT_TABLES * (1 + 2 * CT_DCTSIZE2) + \
     10 + 3 * CT_JPEG_MAX_COMPONENTS)

size_t ct_jpeg_file_markers_bound(size_t icc_size)
{
    const size_t icc_markers =
        num_icc_markers(icc_size) * (4 + sizeof(icc_signature) + 2) +
        icc_size;
    return 2 + icc_markers + FRAME_HEADER_MAX + 2;
}

/* jpegli_write_icc_profile: APP2 chunks numbered from 1. */
size_t ct_jpeg_write_icc_markers(const uint8_t *icc, size_t icc_size,
                                 uint8_t *dst)
{
    const size_t num_markers = num_icc_markers(icc_size);
    uint8_t *p = dst;
    size_t begin = 0;
    for (size_t m = 0; m < num_markers; ++m) {
        const size_t length = icc_size - begin < MAX_ICC_BYTES_IN_MARKER
                                  ? icc_size - begin
                                  : MAX_ICC_BYTES_IN_MARKER;
        p = put_marker(p, 0xE2, length + sizeof(icc_signature) + 2 + 2);
        memcpy(p, icc_signature, sizeof(icc_signature));
        p += sizeof(icc_signature);
        *p++ = (uint8_t)(m + 1);
        *p++ = (uint8_t)num_markers;
        memcpy(p, icc + begin, length);
        p += length;
        begin += length;
    }
    return (size_t)(p - dst);
}

/* EncodeDQT(write_all_tables = false): one marker with the tables the
 * components use, in table order; 16-bit entries for a table with a value
 * above 255. Clears *is_baseline for such a table. */
static size_t write_dqt(const ct_jpeg_frame *frame, int *is_baseline,
                        uint8_t *dst)
{
    int send_table[CT_JPEG_MAX_QUANT_TABLES] = {0};
    for (int c = 0; c < frame->num_components; ++c)
        send_table[frame->comp[c].quant_tbl] = 1;
    uint8_t *p = dst + 4;
    for (int i = 0; i < CT_JPEG_MAX_QUANT_TABLES; ++i) {
        if (!send_table[i])
            continue;
        const uint16_t *quantval = frame->quant[i];
        int precision = 0;
        for (int k = 0; k < CT_DCTSIZE2; ++k) {
            if (quantval[k] > 255) {
                precision = 1;
                *is_baseline = 0;
            }
        }
        *p++ = (uint8_t)((precision << 4) + i);
        for (int j = 0; j < CT_DCTSIZE2; ++j) {
            const int val = quantval[ct_jpeg_natural_order[j]];
            if (precision)
                *p++ = (uint8_t)(val >> 8);
            *p++ = (uint8_t)(val & 0xFF);
        }
    }
    const size_t size = (size_t)(p - dst);
    if (size == 4)
        return 0;
    put_marker(dst, 0xDB, size - 2);
    return size;
}

/* EncodeSOF */
static size_t write_sof(const ct_jpeg_frame *frame, int is_baseline,
                        uint8_t *dst)
{
    const int marker = frame->progressive ? 0xC2 : is_baseline ? 0xC0 : 0xC1;
    const int n = frame->num_components;
    uint8_t *p = put_marker(dst, marker, 8 + 3 * (size_t)n);
    *p++ = 8; /* sample precision */
    *p++ = (uint8_t)(frame->height >> 8);
    *p++ = (uint8_t)(frame->height & 0xFF);
    *p++ = (uint8_t)(frame->width >> 8);
    *p++ = (uint8_t)(frame->width & 0xFF);
    *p++ = (uint8_t)n;
    for (int c = 0; c < n; ++c) {
        const ct_jpeg_component *comp = &frame->comp[c];
        *p++ = (uint8_t)comp->id;
        *p++ = (uint8_t)((comp->h_samp << 4) | comp->v_samp);
        *p++ = (uint8_t)comp->quant_tbl;
    }
    return (size_t)(p - dst);
}

/* WriteFrameHeader: DQT and SOF. Baseline (SOF0) needs 8-bit quantizers, a
 * sequential scan and Huffman tables in slots 0 and 1 only; otherwise
 * extended sequential (SOF1) or progressive (SOF2). */
size_t ct_jpeg_write_frame_header(const ct_jpeg_frame *frame,
                                  const ct_jpeg_huffman_codes *codes,
                                  uint8_t *dst)
{
    int is_baseline = 1;
    size_t size = write_dqt(frame, &is_baseline, dst);
    if (frame->progressive)
        is_baseline = 0;
    for (int i = 0; i < codes->num_tables; ++i) {
        const int slot_id = codes->slot_id[i];
        if (slot_id > 0x11 || (slot_id > 0x01 && slot_id < 0x10))
            is_baseline = 0;
    }
    return size + write_sof(frame, is_baseline, dst + size);
}

static size_t table_symbols(const ct_jpeg_huffman_table *table)
{
    size_t n = 0;
    for (int i = 1; i <= CT_JPEG_HUFFMAN_MAX_BITS; ++i)
        n += table->bits[i];
    return n;
}

/* EncodeDHT: tables [offset, offset + num) in one marker. */
static size_t write_dht(const ct_jpeg_huffman_codes *codes, int offset,
                        int num, uint8_t *dst)
{
    size_t length = 2;
    for (int t = offset; t < offset + num; ++t)
        length += 1 + CT_JPEG_HUFFMAN_MAX_BITS + table_symbols(&codes->tables[t]);
    uint8_t *p = put_marker(dst, 0xC4, length);
    for (int t = offset; t < offset + num; ++t) {
        const ct_jpeg_huffman_table *table = &codes->tables[t];
        const size_t n = table_symbols(table);
        *p++ = codes->slot_id[t];
        memcpy(p, &table->bits[1], CT_JPEG_HUFFMAN_MAX_BITS);
        p += CT_JPEG_HUFFMAN_MAX_BITS;
        memcpy(p, table->huffval, n);
        p += n;
    }
    return (size_t)(p - dst);
}

/* EncodeSOS. A scan without AC coefficients names the AC table of the
 * context that follows it, as jpegli does; decoders ignore it. */
static size_t write_sos(const ct_jpeg_frame *frame,
                        const ct_jpeg_contexts *ctx,
                        const ct_jpeg_huffman_codes *codes, int scan_index,
                        uint8_t *dst)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    uint8_t *p = put_marker(dst, 0xDA, 6 + 2 * (size_t)scan->comps_in_scan);
    *p++ = (uint8_t)scan->comps_in_scan;
    for (int i = 0; i < scan->comps_in_scan; ++i) {
        const int c = scan->component_index[i];
        *p++ = (uint8_t)frame->comp[c].id;
        const int dc_slot_id = codes->slot_id[codes->context_map[c]];
        const int ac_context = ctx->ac_offset[scan_index] + i;
        const int ac_slot_id = codes->slot_id[codes->context_map[ac_context]];
        *p++ = (uint8_t)((dc_slot_id << 4) + (ac_slot_id - 16));
    }
    *p++ = (uint8_t)scan->Ss;
    *p++ = (uint8_t)scan->Se;
    *p++ = (uint8_t)((scan->Ah << 4) | scan->Al);
    return (size_t)(p - dst);
}

size_t ct_jpeg_scan_header_bound(const ct_jpeg_huffman_codes *codes)
{
    size_t size = 4 + 6 + 2 * CT_JPEG_MAX_COMPONENTS;
    for (int t = 0; t < codes->num_tables; ++t)
        size += 4 + 1 + CT_JPEG_HUFFMAN_MAX_BITS +
                table_symbols(&codes->tables[t]);
    return size;
}

/*
 * WriteScanHeader (no restart intervals, so no DRI). The tables go out in
 * order, as late as possible: before the first scan every DC table and up
 * to four AC tables; before a later AC scan the next table if the scan's
 * first AC context is the first to use it.
 */
size_t ct_jpeg_write_scan_header(const ct_jpeg_frame *frame,
                                 const ct_jpeg_contexts *ctx,
                                 const ct_jpeg_huffman_codes *codes,
                                 int scan_index, int *next_dht_index,
                                 uint8_t *dst)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    int num_dht = 0;
    if (scan_index == 0) {
        for (int i = 0, num_ac = 0; i < codes->num_tables; ++i) {
            if (codes->slot_id[i] >= 16 && num_ac++ >= 4)
                break;
            ++num_dht;
        }
    } else if (scan->Ss > 0) {
        if (codes->context_map[ctx->ac_offset[scan_index]] == *next_dht_index)
            num_dht = 1;
    }
    size_t size = 0;
    if (num_dht > 0) {
        size = write_dht(codes, *next_dht_index, num_dht, dst);
        *next_dht_index += num_dht;
    }
    return size + write_sos(frame, ctx, codes, scan_index, dst + size);
}
