/*
 * Scan chunks: a scan's stitched bands written in pieces, side by side,
 * and joined into exactly the bytes of one writer.
 *
 * A chunk is a run of consecutive bands of a scan. Count gives the coded
 * bits of every band (from its symbol counts, without coding anything);
 * PlaceCursors sums them into the bit at which each chunk starts. Then a
 * chunk is written on its own: its first bit lands where it will lie in the
 * scan's bytes (the bits before, in its first byte, are left zero), every
 * byte it completes is byte stuffed as usual, and the bits of its last,
 * unfinished byte are kept aside. Its first byte is the only one whose
 * value, and so whose stuffing, depends on other chunks: a byte with a
 * zero bit is never 0xFF, so the writer never stuffs it. Splice fills in
 * those first bytes from the chunks before (stuffing a 0xFF then), and the
 * copy puts the scan together. Every scan ends byte aligned in jpegli, so
 * scans are joined by concatenation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_JPEG_SCAN_CHUNKS_H
#define CTCORE_JPEG_SCAN_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "entropy_internal.h"
#include "frame.h"
#include "token_bands.h"

typedef struct ct_jpeg_scan_chunk {
    int band0, band1;         /* bands [band0, band1) of the scan */
    /* PlaceCursors */
    uint64_t start_bit;       /* of the chunk's first bit in the scan */
    uint64_t bits;
    /* Write */
    uint8_t *data;            /* owned; byte stuffed */
    size_t size;
    uint8_t tail;             /* the bits after the last whole byte, */
    int tail_bits;            /* right-aligned; 0 in the scan's last chunk */
    int unknown_symbol;       /* a token had no code (jpegli fails then) */
    /* Splice */
    int has_head;             /* data[0] is shared with the chunks before: */
    uint8_t head;             /* its final value */
} ct_jpeg_scan_chunk;

/* Count: the bits of every band of the stitched scan under codes
 * (sb->bands[b].bits); returns their sum. */
uint64_t ct_jpeg_count_scan_bits(const ct_jpeg_huffman_codes *codes,
                                 ct_jpeg_scan_bands *sb);

/*
 * PlaceCursors for one scan: cuts its bands into chunks of at least
 * chunk_bits bits each (the last one may have fewer; UINT64_MAX: the whole
 * scan is one chunk) and sets where each starts. chunks has room for
 * sb->num_bands; returns the number of chunks.
 */
int ct_jpeg_place_scan_chunks(const ct_jpeg_scan_bands *sb,
                              uint64_t chunk_bits, ct_jpeg_scan_chunk *chunks);

/*
 * Write: one chunk (the scan's last when `last`, which is padded to a byte
 * boundary with 1 bits). Reads the chunk's bands; writes only the chunk,
 * so the chunks of all scans can be written at the same time. Returns
 * CT_OK or CT_ENOMEM.
 */
int ct_jpeg_write_scan_chunk(const ct_jpeg_frame *frame,
                             const ct_jpeg_huffman_codes *codes,
                             const ct_jpeg_scan_bands *sb,
                             ct_jpeg_scan_chunk *chunk, int last);

/* Splice: the shared first bytes of a scan's written chunks; returns the
 * size of the scan's data. */
size_t ct_jpeg_splice_scan_chunks(ct_jpeg_scan_chunk *chunks, int num_chunks);

/* The spliced scan data at dst; returns its size. */
size_t ct_jpeg_copy_scan_chunks(const ct_jpeg_scan_chunk *chunks,
                                int num_chunks, uint8_t *dst);

void ct_jpeg_scan_chunks_free(ct_jpeg_scan_chunk *chunks, int num_chunks);

#endif
