/*
 * Bit writer of the entropy-coded segments: a 64-bit accumulator, flushed
 * eight bytes at a time, with a 0x00 stuffed after every 0xFF byte.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/bit_writer.h and bit_writer.cc
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors); starting inside a
 * byte and stopping without padding (for scan chunks) are new in ct.
 */
#ifndef CTCORE_JPEG_BITWRITER_H
#define CTCORE_JPEG_BITWRITER_H

#include <stddef.h>
#include <stdint.h>

/* Writes into the caller's buffer, which has room for every byte stuffed. */
typedef struct ct_jpeg_bitwriter {
    uint8_t *data;
    size_t pos;
    uint64_t put_buffer; /* the low 64 - free_bits bits are pending */
    int free_bits;
    int healthy;         /* 0 once a symbol without a code was written */
} ct_jpeg_bitwriter;

static inline void ct_jpeg_bitwriter_init(ct_jpeg_bitwriter *bw, uint8_t *dst)
{
    bw->data = dst;
    bw->pos = 0;
    bw->put_buffer = 0;
    bw->free_bits = 64;
    bw->healthy = 1;
}

/*
 * A writer whose first bit lands at bit `offset` (0..7, from the most
 * significant) of its first byte: a chunk of a scan that starts inside a
 * byte (scan_chunks.c). The offset bits before it are written as zeros;
 * the chunks before fill them in. A byte with a leading zero is never 0xFF,
 * so that first byte is never stuffed here.
 */
static inline void ct_jpeg_bitwriter_init_at(ct_jpeg_bitwriter *bw,
                                             uint8_t *dst, int offset)
{
    ct_jpeg_bitwriter_init(bw, dst);
    bw->free_bits = 64 - offset;
}

/* Non-zero iff one of the eight bytes of x is zero. */
static inline uint64_t ct_jpeg_has_zero_byte(uint64_t x)
{
    return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
}

static inline void ct_jpeg_emit_byte(ct_jpeg_bitwriter *bw, int byte)
{
    bw->data[bw->pos++] = (uint8_t)byte;
    if (byte == 0xFF)
        bw->data[bw->pos++] = 0;
}

static inline void ct_jpeg_discharge_bits(ct_jpeg_bitwriter *bw)
{
    const uint64_t b = bw->put_buffer;
    if (ct_jpeg_has_zero_byte(~b)) {
        /* Some byte is 0xFF: emit byte by byte, stuffing a 0 after each. */
        for (int shift = 56; shift >= 0; shift -= 8)
            ct_jpeg_emit_byte(bw, (int)((b >> shift) & 0xFF));
    } else {
        uint8_t *p = bw->data + bw->pos;
        p[0] = (uint8_t)(b >> 56);
        p[1] = (uint8_t)(b >> 48);
        p[2] = (uint8_t)(b >> 40);
        p[3] = (uint8_t)(b >> 32);
        p[4] = (uint8_t)(b >> 24);
        p[5] = (uint8_t)(b >> 16);
        p[6] = (uint8_t)(b >> 8);
        p[7] = (uint8_t)b;
        bw->pos += 8;
    }
}

/* Appends the nbits (1..32) low bits of bits. A symbol without a code has
 * depth 0: nothing is written and the writer is marked unhealthy, as in
 * jpegli. */
static inline void ct_jpeg_write_bits(ct_jpeg_bitwriter *bw, int nbits,
                                      uint64_t bits)
{
    if (nbits == 0) {
        bw->healthy = 0;
        return;
    }
    bw->free_bits -= nbits;
    if (bw->free_bits < 0) {
        /* Fill the accumulator with the high bits, flush it, and keep the
         * rest (the bits above them are shifted out before the next
         * flush). */
        bw->put_buffer <<= (bw->free_bits + nbits);
        bw->put_buffer |= bits >> -bw->free_bits;
        ct_jpeg_discharge_bits(bw);
        bw->free_bits += 64;
        bw->put_buffer = (uint64_t)nbits;
    }
    bw->put_buffer <<= nbits;
    bw->put_buffer |= bits;
}

/*
 * Emits every whole pending byte, without padding, and returns the number
 * of bits left over (0..7): they stay, right-aligned, in put_buffer.
 */
static inline int ct_jpeg_flush_whole_bytes(ct_jpeg_bitwriter *bw)
{
    const int pending = 64 - bw->free_bits;
    const int left = pending & 7;
    for (int shift = pending - 8; shift >= 0; shift -= 8)
        ct_jpeg_emit_byte(bw, (int)((bw->put_buffer >> shift) & 0xFF));
    bw->put_buffer &= ((uint64_t)1 << left) - 1;
    bw->free_bits = 64 - left;
    return left;
}

/* Pads with 1 bits to a byte boundary and flushes the accumulator. */
static inline void ct_jpeg_jump_to_byte_boundary(ct_jpeg_bitwriter *bw)
{
    const int n_bits = bw->free_bits & 7;
    if (n_bits > 0)
        ct_jpeg_write_bits(bw, n_bits, (1u << n_bits) - 1);
    if (bw->free_bits < 64) {
        bw->put_buffer <<= bw->free_bits;
        while (bw->free_bits <= 56) {
            ct_jpeg_emit_byte(bw, (int)((bw->put_buffer >> 56) & 0xFF));
            bw->put_buffer <<= 8;
            bw->free_bits += 8;
        }
    }
    bw->put_buffer = 0;
    bw->free_bits = 64;
}

#endif
