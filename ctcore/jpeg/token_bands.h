/*
 * Token bands: a scan cut into bands of MCU rows that are tokenized apart,
 * each from a fresh tokenizer state, and stitched into exactly the tokens
 * of the sequential tokenizer.
 *
 * What a band's tokens take from the blocks before it (the state jpegli
 * carries through every block of a scan):
 *   - the DC predictors (sequential and DC first scans): they change only
 *     the first DC token of each component in the band. The stitch recodes
 *     that token against the last DC of the band before, in place.
 *   - the open EOB run (AC scans): the band's lead, the blocks before its
 *     first coded coefficient (first scans) or its first newly nonzero
 *     coefficient (refinement scans), joins the run carried in. The stitch
 *     replays the lead on the carried run, with jpegli's limits (a run ends
 *     at 32767 blocks; a refinement run's token takes a block only while its
 *     correction bits stay at most 255), and writes the EOB tokens that
 *     close at the border into the band's joint. The run still open after
 *     the last band goes into the scan's final joint.
 * Everything after the lead (the band's body) is what the sequential
 * tokenizer writes there, except the body's own open run at the band's end
 * (its tail), which the stitch carries on. So a scan's tokens are, in
 * order: joint 0, body 0, joint 1, body 1, ..., the final joint; each part
 * holds the correction bits its tokens write, so parts can be written one
 * after the other, or in separate chunks (scan_chunks.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_JPEG_TOKEN_BANDS_H
#define CTCORE_JPEG_TOKEN_BANDS_H

#include <stddef.h>
#include <stdint.h>

#include "coeffs.h"
#include "entropy_internal.h"
#include "frame.h"

/* Symbol counts of one band: one row of CT_JPEG_HUFFMAN_ALPHABET per
 * histogram row the scan uses (ct_jpeg_scan_bands.hist_row). They give
 * both the scan's histogram and, once the codes are known, the band's
 * coded bits. */
typedef uint32_t ct_jpeg_band_counts[CT_JPEG_HUFFMAN_ALPHABET];

typedef struct ct_jpeg_token_band {
    int row0, row1;               /* MCU rows [row0, row1) of the scan */
    /* Tokenize: what the band wrote from a fresh state (owned), and the
     * view of it that is final (its body, refbits included). */
    ct_jpeg_scan_tokens tokens;
    ct_jpeg_scan_tokens body;
    ct_jpeg_band_counts *counts;  /* of the body; Stitch adds its joint
                                     (and the final joint in the last
                                     band); owned */
    /* How the band begins and ends. Sequential and DC first scans: */
    size_t first_dc_token[CT_JPEG_MAX_COMPONENTS]; /* by scan position */
    int first_dc[CT_JPEG_MAX_COMPONENTS];          /* its DC value */
    int last_dc[CT_JPEG_MAX_COMPONENTS];           /* predictor after */
    /* AC scans: */
    int has_body;                 /* the lead ends inside the band */
    size_t lead_blocks;           /* all blocks of the band if !has_body */
    uint8_t *lead_refbits;        /* refinement: bits of each lead block */
    int tail_run, tail_refbits;   /* open run after the body */
    /* Stitch: the EOB tokens before the body (owned). */
    ct_jpeg_scan_tokens joint;
    /* Count: coded bits of joint and body, and of the final joint in the
     * last band. */
    uint64_t bits;
} ct_jpeg_token_band;

/* One scan's bands and what the stitch adds to them. */
typedef struct ct_jpeg_scan_bands {
    int scan_index;
    int ac_context;
    ct_jpeg_padding padding;
    int num_bands;
    ct_jpeg_token_band *bands;
    ct_jpeg_scan_tokens final_joint;
    /* Band counts row -> scan histogram row, and a token's context -> band
     * counts row (-1: not in this scan). */
    int num_hist_rows;
    int hist_row[CT_JPEG_SCAN_HISTOGRAM_ROWS];
    int8_t row_of_context[CT_JPEG_MAX_CONTEXTS];
} ct_jpeg_scan_bands;

/*
 * Plan: num_bands bands of scan scan_index, band b over MCU rows
 * [cuts[b], cuts[b + 1]) (cuts[0] = 0, cuts[num_bands] = the scan's MCU
 * rows, increasing). Returns CT_OK or CT_ENOMEM (*sb is then empty).
 */
int ct_jpeg_scan_bands_init(ct_jpeg_scan_bands *sb,
                            const ct_jpeg_frame *frame, int scan_index,
                            int ac_context, ct_jpeg_padding padding,
                            int num_bands, const int *cuts);

/*
 * Tokenize: band `band` of the scan from a fresh state. Reads coeffs;
 * writes only that band (tokens, body, counts, edges), so the bands of a
 * scan can be tokenized in any order or at the same time. Returns CT_OK or
 * CT_ENOMEM.
 */
int ct_jpeg_tokenize_band(const ct_jpeg_frame *frame,
                          const ct_jpeg_coeffs *coeffs,
                          ct_jpeg_scan_bands *sb, int band);

/*
 * Stitch: after every band of the scan is tokenized, replays the band
 * borders in order with the real carried state (DC tokens recoded in
 * place, joints written) and sums the scan's histogram into *hist.
 * Returns CT_OK or CT_ENOMEM.
 */
int ct_jpeg_stitch_scan(const ct_jpeg_frame *frame, ct_jpeg_scan_bands *sb,
                        ct_jpeg_scan_histogram *hist);

/* The stitched parts of band `band` in scan order (its joint, its body,
 * and after the last band the final joint); returns how many. */
int ct_jpeg_band_parts(const ct_jpeg_scan_bands *sb, int band,
                       const ct_jpeg_scan_tokens *parts[3]);

void ct_jpeg_scan_bands_free(ct_jpeg_scan_bands *sb);

#endif
