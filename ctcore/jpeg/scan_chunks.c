/*
 * Scan chunks: counting, placing, writing and splicing the pieces of a
 * scan's entropy-coded data (see scan_chunks.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include <stdlib.h>
#include <string.h>

#include "scan_chunks.h"

uint64_t ct_jpeg_count_scan_bits(const ct_jpeg_huffman_codes *codes,
                                 ct_jpeg_scan_bands *sb)
{
    const uint8_t *depth[CT_JPEG_SCAN_HISTOGRAM_ROWS];
    for (int r = 0; r < sb->num_hist_rows; ++r) {
        const int context =
            ct_jpeg_histogram_row_context(sb->hist_row[r], sb->ac_context);
        depth[r] = codes->coding[codes->context_map[context]].depth;
    }
    uint64_t total = 0;
    for (int b = 0; b < sb->num_bands; ++b) {
        ct_jpeg_token_band *band = &sb->bands[b];
        /* A code's depth includes the symbol's extra bits; a symbol
         * without a code has depth 0 and is not written. */
        uint64_t bits = 0;
        for (int r = 0; r < sb->num_hist_rows; ++r)
            for (int s = 0; s < CT_JPEG_HUFFMAN_ALPHABET; ++s)
                bits += (uint64_t)band->counts[r][s] * depth[r][s];
        const ct_jpeg_scan_tokens *parts[3];
        const int num_parts = ct_jpeg_band_parts(sb, b, parts);
        for (int p = 0; p < num_parts; ++p)
            bits += parts[p]->num_refbits;
        band->bits = bits;
        total += bits;
    }
    return total;
}

int ct_jpeg_place_scan_chunks(const ct_jpeg_scan_bands *sb,
                              uint64_t chunk_bits, ct_jpeg_scan_chunk *chunks)
{
    int num_chunks = 0;
    int band0 = 0;
    uint64_t start_bit = 0, bits = 0;
    for (int b = 0; b < sb->num_bands; ++b) {
        bits += sb->bands[b].bits;
        if (bits < chunk_bits && b < sb->num_bands - 1)
            continue;
        ct_jpeg_scan_chunk *chunk = &chunks[num_chunks++];
        memset(chunk, 0, sizeof(*chunk));
        chunk->band0 = band0;
        chunk->band1 = b + 1;
        chunk->start_bit = start_bit;
        chunk->bits = bits;
        band0 = b + 1;
        start_bit += bits;
        bits = 0;
    }
    return num_chunks;
}

int ct_jpeg_write_scan_chunk(const ct_jpeg_frame *frame,
                             const ct_jpeg_huffman_codes *codes,
                             const ct_jpeg_scan_bands *sb,
                             ct_jpeg_scan_chunk *chunk, int last)
{
    /* Up to 7 bits before the chunk in its first byte and up to 7 bits of
     * padding after it; every byte may be stuffed. */
    const size_t capacity = 2 * (size_t)((chunk->bits + 7 + 7 + 7) / 8);
    chunk->data = malloc(capacity);
    if (chunk->data == NULL)
        return CT_ENOMEM;
    ct_jpeg_bitwriter bw;
    ct_jpeg_bitwriter_init_at(&bw, chunk->data, (int)(chunk->start_bit & 7));
    for (int b = chunk->band0; b < chunk->band1; ++b) {
        const ct_jpeg_scan_tokens *parts[3];
        const int num_parts = ct_jpeg_band_parts(sb, b, parts);
        for (int p = 0; p < num_parts; ++p)
            ct_jpeg_write_scan_part(frame, sb->scan_index, sb->ac_context,
                                    codes, parts[p], &bw);
    }
    if (last) {
        ct_jpeg_jump_to_byte_boundary(&bw);
        chunk->tail_bits = 0;
        chunk->tail = 0;
    } else {
        chunk->tail_bits = ct_jpeg_flush_whole_bytes(&bw);
        chunk->tail = (uint8_t)bw.put_buffer;
    }
    chunk->size = bw.pos;
    chunk->unknown_symbol = !bw.healthy;
    return CT_OK;
}

size_t ct_jpeg_splice_scan_chunks(ct_jpeg_scan_chunk *chunks, int num_chunks)
{
    /* The bits of the byte the next chunk starts in, right-aligned: as many
     * as that chunk's start_bit & 7. */
    unsigned pending = 0;
    size_t size = 0;
    for (int k = 0; k < num_chunks; ++k) {
        ct_jpeg_scan_chunk *chunk = &chunks[k];
        const int offset = (int)(chunk->start_bit & 7);
        chunk->has_head = offset > 0 && chunk->size > 0;
        if (chunk->has_head) {
            chunk->head =
                (uint8_t)(chunk->data[0] | (pending << (8 - offset)));
            size += chunk->head == 0xFF; /* stuffed now */
        }
        if (chunk->size > 0) {
            pending = chunk->tail;
        } else {
            /* The chunk ends in the byte it starts in: its tail (zeros
             * where the bits before it go) continues that byte. */
            pending = (pending << (chunk->tail_bits - offset)) | chunk->tail;
        }
        size += chunk->size;
    }
    return size;
}

size_t ct_jpeg_copy_scan_chunks(const ct_jpeg_scan_chunk *chunks,
                                int num_chunks, uint8_t *dst)
{
    uint8_t *p = dst;
    for (int k = 0; k < num_chunks; ++k) {
        const ct_jpeg_scan_chunk *chunk = &chunks[k];
        size_t skip = 0;
        if (chunk->has_head) {
            *p++ = chunk->head;
            if (chunk->head == 0xFF)
                *p++ = 0;
            skip = 1;
        }
        memcpy(p, chunk->data + skip, chunk->size - skip);
        p += chunk->size - skip;
    }
    return (size_t)(p - dst);
}

void ct_jpeg_scan_chunks_free(ct_jpeg_scan_chunk *chunks, int num_chunks)
{
    for (int k = 0; k < num_chunks; ++k) {
        free(chunks[k].data);
        chunks[k].data = NULL;
    }
}
