/*
 * Scan data: tokens and correction bits -> the entropy-coded segment of one
 * scan, byte aligned, so scans can be coded apart and concatenated; or the
 * bits of a part of a scan's tokens, which scan_chunks.c writes in pieces.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/bitstream.cc (WriteScanData and its
 * helpers) and encode_streaming.cc (WriteiMCURow writes the same bits as
 * tokens of a sequential scan) (BSD-3-Clause, Copyright the JPEG XL Project
 * Authors).
 */
#include "entropy_internal.h"

/* Correction bits, up to 32 per write. */
static void write_refbits(ct_jpeg_bitwriter *bw, const uint8_t *refbits,
                          size_t n)
{
    while (n > 0) {
        const int chunk = n < 32 ? (int)n : 32;
        uint64_t bits = 0;
        for (int i = 0; i < chunk; ++i)
            bits = (bits << 1) | refbits[i];
        ct_jpeg_write_bits(bw, chunk, bits);
        refbits += chunk;
        n -= (size_t)chunk;
    }
}

/* WriteTokens */
static void write_tokens(const ct_jpeg_huffman_codes *codes,
                         const ct_jpeg_scan_tokens *st, ct_jpeg_bitwriter *bw)
{
    for (size_t i = 0; i < st->num_tokens; ++i) {
        const ct_jpeg_token t = st->tokens[i];
        const ct_jpeg_code_table *code =
            &codes->coding[codes->context_map[t.context]];
        ct_jpeg_write_bits(bw, code->depth[t.symbol],
                           code->code[t.symbol] | t.bits);
    }
}

/* WriteACRefinementTokens */
static void write_ac_refinement(const ct_jpeg_code_table *code,
                                const ct_jpeg_scan_tokens *st,
                                ct_jpeg_bitwriter *bw)
{
    size_t refbit_idx = 0;
    size_t eobrun_idx = 0;
    for (size_t i = 0; i < st->num_ref_tokens; ++i) {
        const ct_jpeg_ref_token t = st->ref_tokens[i];
        const int symbol = t.symbol & 253;
        uint32_t bits = 0;
        if ((symbol & 1) == 0) {
            const int r = symbol >> 4;
            if (r > 0 && r < 15)
                bits = st->eobruns[eobrun_idx++];
        } else {
            bits = (t.symbol >> 1) & 1;
        }
        ct_jpeg_write_bits(bw, code->depth[symbol], code->code[symbol] | bits);
        write_refbits(bw, st->refbits + refbit_idx, t.refbits);
        refbit_idx += t.refbits;
    }
}

size_t ct_jpeg_scan_data_bound(const ct_jpeg_frame *frame, int scan_index,
                               int ac_context,
                               const ct_jpeg_huffman_codes *codes,
                               const ct_jpeg_scan_histogram *hist,
                               const ct_jpeg_scan_tokens *st)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    uint64_t bits = st->num_refbits;
    for (int row = 0; row < CT_JPEG_SCAN_HISTOGRAM_ROWS; ++row) {
        const int context = ct_jpeg_histogram_row_context(row, ac_context);
        if (row >= CT_JPEG_NUM_DC_CONTEXTS &&
            (scan->Se == 0 ||
             row - CT_JPEG_NUM_DC_CONTEXTS >= scan->comps_in_scan))
            continue;
        const ct_jpeg_code_table *code =
            &codes->coding[codes->context_map[context]];
        for (int s = 0; s < CT_JPEG_HUFFMAN_ALPHABET; ++s)
            bits += (uint64_t)hist->count[row][s] * code->depth[s];
    }
    /* The last byte is padded with 1 bits; every byte may be stuffed. */
    return (size_t)(2 * ((bits + 7) / 8));
}

void ct_jpeg_write_scan_part(const ct_jpeg_frame *frame, int scan_index,
                             int ac_context,
                             const ct_jpeg_huffman_codes *codes,
                             const ct_jpeg_scan_tokens *part,
                             ct_jpeg_bitwriter *bw)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    if (scan->Ah == 0)
        write_tokens(codes, part, bw);
    else if (scan->Ss > 0)
        write_ac_refinement(&codes->coding[codes->context_map[ac_context]],
                            part, bw);
    else
        write_refbits(bw, part->refbits, part->num_refbits);
}

size_t ct_jpeg_write_scan_data(const ct_jpeg_frame *frame, int scan_index,
                               int ac_context,
                               const ct_jpeg_huffman_codes *codes,
                               const ct_jpeg_scan_tokens *st, uint8_t *dst,
                               int *unknown_symbol)
{
    ct_jpeg_bitwriter bw;
    ct_jpeg_bitwriter_init(&bw, dst);
    ct_jpeg_write_scan_part(frame, scan_index, ac_context, codes, st, &bw);
    ct_jpeg_jump_to_byte_boundary(&bw);
    *unknown_symbol = !bw.healthy;
    return bw.pos;
}
