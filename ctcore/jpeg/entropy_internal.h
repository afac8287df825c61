/*
 * The entropy coder's phases and the data between them:
 *
 *   coefficients --tokenize--> tokens per scan --histogram--> counts per scan
 *   counts --optimize (or standard tables)--> Huffman codes
 *   tokens + codes --write--> byte-aligned entropy-coded data per scan
 *   frame + codes + scan data --markers--> the file
 *
 * Every phase is a function of its explicit inputs; a scan's tokens, counts
 * and coded bytes depend on that scan alone (and on the codes), so scans can
 * be tokenized and written in any order, or in parallel. Within a scan,
 * token_bands.h tokenizes bands of MCU rows apart and stitches them, and
 * scan_chunks.h writes runs of bands apart and splices them;
 * entropy_stages.h puts it all together as fork-join stages.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/encode_internal.h, entropy_coding.cc and
 * bitstream.cc (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#ifndef CTCORE_JPEG_ENTROPY_INTERNAL_H
#define CTCORE_JPEG_ENTROPY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bitwriter.h"
#include "coeffs.h"
#include "frame.h"
#include "tokenize_dsp.h"

/* Contexts: 0..3 are the DC contexts (one per component index), 4.. the AC
 * contexts, one per component of every scan that has AC coefficients, in
 * scan order. */
#define CT_JPEG_NUM_DC_CONTEXTS 4
#define CT_JPEG_MAX_CONTEXTS \
    (CT_JPEG_NUM_DC_CONTEXTS + CT_JPEG_MAX_SCANS * CT_JPEG_MAX_COMPONENTS)
#define CT_JPEG_HUFFMAN_ALPHABET 256
#define CT_JPEG_HUFFMAN_MAX_BITS 16
/* A scan's counts: rows 0..3 for its DC contexts (by component index), then
 * one row per component of the scan for its AC contexts. */
#define CT_JPEG_SCAN_HISTOGRAM_ROWS \
    (CT_JPEG_NUM_DC_CONTEXTS + CT_JPEG_MAX_COMPONENTS)
/* jpegli's limits: longest EOB run of one token, most correction bits one
 * AC refinement EOB token carries. */
#define CT_JPEG_MAX_EOB_RUN 0x7fff
#define CT_JPEG_MAX_EOB_REFBITS 255

/* A Huffman symbol and its extra bits (jpegli's Token). */
typedef struct ct_jpeg_token {
    uint8_t context;
    uint8_t symbol;
    uint16_t bits;
} ct_jpeg_token;

static inline int ct_jpeg_floor_log2(uint32_t x) /* x > 0 */
{
#if defined(__GNUC__)
    return 31 - __builtin_clz(x);
#else
    int n = 0;
    while (x >>= 1)
        ++n;
    return n;
#endif
}

static inline ct_jpeg_token ct_jpeg_make_token(int context, int symbol,
                                               int bits)
{
    ct_jpeg_token t;
    t.context = (uint8_t)context;
    t.symbol = (uint8_t)symbol;
    t.bits = (uint16_t)bits;
    return t;
}

/* The DC difference as a JPEG magnitude category and its extra bits. */
static inline ct_jpeg_token ct_jpeg_dc_token(int context, int diff)
{
    if (diff == 0)
        return ct_jpeg_make_token(context, 0, 0);
    int magnitude = diff;
    int bits = diff;
    if (diff < 0) {
        magnitude = -diff;
        bits = diff - 1;
    }
    const int nbits = ct_jpeg_floor_log2((uint32_t)magnitude) + 1;
    return ct_jpeg_make_token(context, nbits, bits & ((1 << nbits) - 1));
}

/* An EOB run of eob_run (1..CT_JPEG_MAX_EOB_RUN) blocks: log2 of the run
 * in the symbol's high nibble, the rest of it in the extra bits. */
static inline ct_jpeg_token ct_jpeg_eob_run_token(int context, int eob_run)
{
    const int nbits = ct_jpeg_floor_log2((uint32_t)eob_run);
    return ct_jpeg_make_token(context, nbits << 4,
                              eob_run & ((1 << nbits) - 1));
}

/* A symbol of an AC refinement scan (jpegli's RefToken): refbits is the
 * number of correction bits written after the symbol. An odd symbol is a
 * newly nonzero coefficient, its bit 1 the sign (1: positive); an even one
 * an EOB run (symbol >> 4 = log2 of the run, its offset in eobruns) or ZRL. */
typedef struct ct_jpeg_ref_token {
    uint8_t symbol;
    uint8_t refbits;
} ct_jpeg_ref_token;

/* Where each context of the frame lives (jpegli's ac_ctx_offset and
 * num_contexts). */
typedef struct ct_jpeg_contexts {
    int ac_offset[CT_JPEG_MAX_SCANS]; /* context of a scan's first AC comp */
    int num_contexts;
} ct_jpeg_contexts;

void ct_jpeg_contexts_init(ct_jpeg_contexts *ctx, const ct_jpeg_frame *frame);

/* MCU grid of a scan: interleaved scans cover the iMCU grid, single-
 * component scans the component's blocks. */
typedef struct ct_jpeg_scan_geometry {
    int mcus_per_row;
    int mcu_rows;
    int interleaved;
} ct_jpeg_scan_geometry;

ct_jpeg_scan_geometry ct_jpeg_scan_geometry_of(const ct_jpeg_frame *frame,
                                               const ct_jpeg_scan *scan);

/*
 * Everything tokenization produces for one scan (jpegli's ScanTokenInfo with
 * its share of the token arrays). Which arrays a scan uses:
 *   Ah == 0 (sequential, DC first, AC first): tokens;
 *   Ss == 0, Ah > 0 (DC refinement): refbits, one per block;
 *   Ss > 0, Ah > 0 (AC refinement): ref_tokens, refbits, eobruns.
 * The arrays grow as needed (by rows, never per symbol); *_cap is their
 * allocated length.
 */
typedef struct ct_jpeg_scan_tokens {
    ct_jpeg_token *tokens;
    size_t num_tokens, tokens_cap;
    ct_jpeg_ref_token *ref_tokens;
    size_t num_ref_tokens, ref_tokens_cap;
    uint8_t *refbits;               /* correction bits, one per byte */
    size_t num_refbits, refbits_cap;
    uint16_t *eobruns;              /* run length - 2^(symbol >> 4) */
    size_t num_eobruns, eobruns_cap;
} ct_jpeg_scan_tokens;

void ct_jpeg_scan_tokens_free(ct_jpeg_scan_tokens *st);

/*
 * What tokenization carries from one MCU row to the next within a scan:
 * the DC predictors and the open EOB run, and the kernels it runs.
 * Initialized (ct_jpeg_tokenizer_state_init) at the start of a scan or
 * band.
 */
typedef struct ct_jpeg_tokenizer_state {
    ct_jpeg_tokenize_dsp dsp;
    int last_dc[CT_JPEG_MAX_COMPONENTS]; /* by position in the scan */
    int eob_run;
    /* AC refinement: correction bits of the open EOB run, and the index of
     * the ref token that holds it. */
    int eob_refbits;
    size_t eob_token;
    /* AC refinement bands (token_bands.c): while recording_lead is set,
     * every block that joins the open EOB run appends its number of
     * correction bits to lead_refbits; the first newly nonzero coefficient
     * clears it. How a run of such blocks groups into EOB tokens depends on
     * the run carried in, so the stitch replays them block by block. The
     * array belongs to the caller (free it also after an error). */
    int recording_lead;
    uint8_t *lead_refbits;
    size_t num_lead_blocks, lead_refbits_cap;
} ct_jpeg_tokenizer_state;

/* A zeroed state with the kernels for frame->cpu_flags. */
void ct_jpeg_tokenizer_state_init(ct_jpeg_tokenizer_state *state,
                                  const ct_jpeg_frame *frame);

/* How a sequential scan codes the blocks that pad the MCU grid beyond a
 * component's blocks. */
typedef enum ct_jpeg_padding {
    /* jpegli's streaming path (every single-scan file): DC difference 0,
     * the predictor kept, then EOB. */
    CT_JPEG_PADDING_REPEAT_DC,
    /* TokenizeScan: an all-zero block (the predictor becomes 0). */
    CT_JPEG_PADDING_ZERO_BLOCK,
} ct_jpeg_padding;

/* jpegli streams a file of one scan (IsStreamingSupported); every other
 * file goes through TokenizeScan. */
static inline ct_jpeg_padding ct_jpeg_frame_padding(const ct_jpeg_frame *frame)
{
    return frame->num_scans == 1 ? CT_JPEG_PADDING_REPEAT_DC
                                 : CT_JPEG_PADDING_ZERO_BLOCK;
}

/*
 * Tokenizes MCU rows [mcu_row0, mcu_row1) of scan scan_index, appending to
 * *out and continuing *state; an EOB run still open at mcu_row1 stays in
 * *state. The arrays of *out are sized for the rows [mcu_row0, mcu_row1)
 * of this call (a band or the whole scan). Returns CT_OK or CT_ENOMEM.
 */
int ct_jpeg_tokenize_rows(const ct_jpeg_frame *frame,
                          const ct_jpeg_coeffs *coeffs, int scan_index,
                          int ac_context, ct_jpeg_padding padding,
                          int mcu_row0, int mcu_row1,
                          ct_jpeg_tokenizer_state *state,
                          ct_jpeg_scan_tokens *out);

/* A whole scan: state zeroed, all MCU rows, then the open EOB run
 * flushed. */
int ct_jpeg_tokenize_scan(const ct_jpeg_frame *frame,
                          const ct_jpeg_coeffs *coeffs, int scan_index,
                          int ac_context, ct_jpeg_padding padding,
                          ct_jpeg_scan_tokens *out);

/* Symbol counts of one scan (rows: see CT_JPEG_SCAN_HISTOGRAM_ROWS). */
typedef struct ct_jpeg_scan_histogram {
    uint32_t count[CT_JPEG_SCAN_HISTOGRAM_ROWS][CT_JPEG_HUFFMAN_ALPHABET];
} ct_jpeg_scan_histogram;

/* Row of the scan histogram that counts context `context`. */
static inline int ct_jpeg_histogram_row(int context, int ac_context)
{
    return context < CT_JPEG_NUM_DC_CONTEXTS
               ? context
               : CT_JPEG_NUM_DC_CONTEXTS + context - ac_context;
}

/* The context that row `row` of the scan histogram counts. */
static inline int ct_jpeg_histogram_row_context(int row, int ac_context)
{
    return row < CT_JPEG_NUM_DC_CONTEXTS
               ? row
               : ac_context + row - CT_JPEG_NUM_DC_CONTEXTS;
}

/* BuildHistograms for one scan (refinement symbols without their sign). */
void ct_jpeg_scan_histogram_build(const ct_jpeg_frame *frame, int scan_index,
                                  int ac_context,
                                  const ct_jpeg_scan_tokens *st,
                                  ct_jpeg_scan_histogram *hist);

/* A DHT table (libjpeg's JHUFF_TBL without sent_table). */
typedef struct ct_jpeg_huffman_table {
    uint8_t bits[CT_JPEG_HUFFMAN_MAX_BITS + 1]; /* bits[0] unused */
    uint8_t huffval[CT_JPEG_HUFFMAN_ALPHABET];
} ct_jpeg_huffman_table;

/* A table as the scan writer uses it (jpegli's HuffmanCodeTable): depth
 * includes the symbol's extra bits and code is shifted left by them, so a
 * symbol and its extra bits are one write. depth 0: symbol not in the code. */
typedef struct ct_jpeg_code_table {
    uint8_t depth[CT_JPEG_HUFFMAN_ALPHABET];
    uint32_t code[CT_JPEG_HUFFMAN_ALPHABET];
} ct_jpeg_code_table;

#define CT_JPEG_MAX_HUFFMAN_TABLES CT_JPEG_MAX_CONTEXTS

/* The Huffman codes of the file and which context uses which. */
typedef struct ct_jpeg_huffman_codes {
    int num_tables;
    ct_jpeg_huffman_table tables[CT_JPEG_MAX_HUFFMAN_TABLES];
    /* DHT Tc/Th byte: 0x00..0x03 for DC, 0x10..0x13 for AC */
    uint8_t slot_id[CT_JPEG_MAX_HUFFMAN_TABLES];
    uint8_t context_map[CT_JPEG_MAX_CONTEXTS]; /* context -> table */
    ct_jpeg_code_table coding[CT_JPEG_MAX_HUFFMAN_TABLES];
} ct_jpeg_huffman_codes;

/* jpegli's CreateHuffmanTree: code lengths of at most tree_limit bits. */
void ct_jpeg_create_huffman_tree(const uint32_t *data, size_t length,
                                 int tree_limit, uint8_t *depth);

/* BuildJpegHuffmanTable: the DHT table of 256 symbol counts. */
void ct_jpeg_build_huffman_table(const uint32_t *count,
                                 ct_jpeg_huffman_table *table);

/*
 * OptimizeHuffmanCodes: sums the scans' counts per context, clusters DC and
 * AC contexts into at most four slots each and builds one table per cluster.
 * Returns CT_OK or CT_ENOMEM.
 */
int ct_jpeg_optimize_codes(const ct_jpeg_frame *frame,
                           const ct_jpeg_contexts *ctx,
                           const ct_jpeg_scan_histogram *hists,
                           ct_jpeg_huffman_codes *codes);

/* CopyHuffmanTables with the Annex K tables jpegli_set_defaults installs:
 * the fixed code of a sequential file without optimize_coding. */
void ct_jpeg_standard_codes(const ct_jpeg_frame *frame,
                            ct_jpeg_huffman_codes *codes);

/* InitEntropyCoder: codes->coding from codes->tables. */
void ct_jpeg_build_code_tables(ct_jpeg_huffman_codes *codes);

/*
 * The file's codes, ready for the scan writer: optimized from the scans'
 * histograms (jpegli optimizes every progressive file, whatever
 * optimize_coding says), else the Annex K tables. Returns CT_OK or
 * CT_ENOMEM.
 */
int ct_jpeg_file_codes(const ct_jpeg_frame *frame, const ct_jpeg_contexts *ctx,
                       const ct_jpeg_scan_histogram *hists,
                       ct_jpeg_huffman_codes *codes);

/* Upper bound of the bytes ct_jpeg_write_scan_data writes for a scan. */
size_t ct_jpeg_scan_data_bound(const ct_jpeg_frame *frame, int scan_index,
                               int ac_context,
                               const ct_jpeg_huffman_codes *codes,
                               const ct_jpeg_scan_histogram *hist,
                               const ct_jpeg_scan_tokens *st);

/*
 * WriteScanData: the entropy-coded bytes of one scan, byte stuffed and
 * padded with 1 bits to a byte boundary, into dst (at least
 * ct_jpeg_scan_data_bound bytes). Returns the number of bytes; sets
 * *unknown_symbol when some token had no code (and was left out).
 */
size_t ct_jpeg_write_scan_data(const ct_jpeg_frame *frame, int scan_index,
                               int ac_context,
                               const ct_jpeg_huffman_codes *codes,
                               const ct_jpeg_scan_tokens *st, uint8_t *dst,
                               int *unknown_symbol);

/*
 * The coded bits of part, a scan's tokens or a part of them whose tokens
 * write exactly its correction bits (see token_bands.h), appended to bw:
 * WriteScanData without the padding at the end, so that the parts of a
 * scan can follow each other in one writer.
 */
void ct_jpeg_write_scan_part(const ct_jpeg_frame *frame, int scan_index,
                             int ac_context,
                             const ct_jpeg_huffman_codes *codes,
                             const ct_jpeg_scan_tokens *part,
                             ct_jpeg_bitwriter *bw);

/* Markers, each written at dst; every function returns the bytes written. */
size_t ct_jpeg_write_soi(uint8_t *dst);
size_t ct_jpeg_write_icc_markers(const uint8_t *icc, size_t icc_size,
                                 uint8_t *dst);
/* DQT and SOF (WriteFrameHeader). */
size_t ct_jpeg_write_frame_header(const ct_jpeg_frame *frame,
                                  const ct_jpeg_huffman_codes *codes,
                                  uint8_t *dst);
/* DHT (the tables the scan needs first) and SOS (WriteScanHeader).
 * *next_dht_index: tables written so far, 0 before the first scan. */
size_t ct_jpeg_scan_header_bound(const ct_jpeg_huffman_codes *codes);
size_t ct_jpeg_write_scan_header(const ct_jpeg_frame *frame,
                                 const ct_jpeg_contexts *ctx,
                                 const ct_jpeg_huffman_codes *codes,
                                 int scan_index, int *next_dht_index,
                                 uint8_t *dst);
size_t ct_jpeg_write_eoi(uint8_t *dst);
/* The most bytes SOI, the ICC markers of an icc_size profile (0: none),
 * DQT, SOF and EOI take: a file's bytes besides its scans. */
size_t ct_jpeg_file_markers_bound(size_t icc_size);

#endif
