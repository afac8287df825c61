/*
 * The entropy coder as fork-join stages: coefficients -> JPEG file, in the
 * jobs the task graph (graph.c) runs. In data-flow order:
 *
 *   Plan          serial   ct_jpeg_entropy_new
 *   Tokenize      ×N       ct_jpeg_entropy_tokenize      (job: a band)
 *   Stitch        ×N       ct_jpeg_entropy_stitch        (job: a scan)
 *   Huffman       serial   ct_jpeg_entropy_huffman
 *   Count         ×N       ct_jpeg_entropy_count         (job: a scan)
 *   PlaceCursors  serial   ct_jpeg_entropy_place_cursors
 *   Write         ×N       ct_jpeg_entropy_write         (job: a chunk)
 *   Splice        ×N       ct_jpeg_entropy_splice        (job: a scan)
 *   Assemble      serial   ct_jpeg_entropy_assemble
 *   Release       ×N       ct_jpeg_entropy_release       (job: a scan)
 *
 * Each stage starts when the one before is done; the jobs of a ×N stage
 * touch disjoint data and may run in any order, on any worker, at the same
 * time. They need no per-worker scratch. Run in order on one thread, with
 * any split, the stages write exactly the bytes of ct_jpeg_write_file.
 *
 * Tokenize cuts every scan into bands of MCU rows (token_bands.h): the AC
 * scans of a component share their cuts and one job tokenizes a band of all
 * of them, so the band's coefficients are read from memory once; DC and
 * sequential scans have bands of their own. Write writes runs of bands
 * (chunks, scan_chunks.h): a small scan is one chunk, a large one several.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_JPEG_ENTROPY_STAGES_H
#define CTCORE_JPEG_ENTROPY_STAGES_H

#include <stddef.h>
#include <stdint.h>

#include "coeffs.h"
#include "frame.h"

/* How to cut the work. ct_jpeg_entropy_split_default fills it for a pool;
 * the other settings force splits (tests). A scan never has more bands
 * than MCU rows. */
typedef struct ct_jpeg_entropy_split {
    int workers;        /* >= 1: bands and chunks are sized for this many */
    int band_rows;      /* > 0: every scan in bands of this many MCU rows
                           (INT_MAX: whole scans) */
    int ac_bands;       /* > 0 and band_rows 0: the AC scans of each
                           component in this many bands */
    uint64_t chunk_bits;/* > 0: write chunks of at least this many bits
                           (1: each band with bits its own chunk;
                           UINT64_MAX: whole scans); 0: from workers */
} ct_jpeg_entropy_split;

/* Bands and chunks sized for `workers` workers: about four tokenize jobs
 * per worker (the AC and sequential scans' bands in proportion to their
 * blocks), progressive DC scans in one band per worker, and write chunks
 * of a quarter of a worker's share of the bits (32 KiB at least), so that
 * a large scan is written in several; with one worker, whole scans. */
void ct_jpeg_entropy_split_default(ct_jpeg_entropy_split *split,
                                   int workers);

/* The entropy coder's state from Plan to Release. */
typedef struct ct_jpeg_entropy ct_jpeg_entropy;

/*
 * Plan (serial, any time after setup): the bands of every scan and the
 * tokenize jobs. Reads frame (kept by pointer until ct_jpeg_entropy_free)
 * and split. Returns CT_OK or CT_ENOMEM.
 */
int ct_jpeg_entropy_new(ct_jpeg_entropy **out, const ct_jpeg_frame *frame,
                        const ct_jpeg_entropy_split *split);

size_t ct_jpeg_entropy_num_scans(const ct_jpeg_entropy *e);
size_t ct_jpeg_entropy_tokenize_jobs(const ct_jpeg_entropy *e);

/* Tokenize ×N, job < tokenize_jobs: one band of every scan of its group,
 * from a fresh state. Reads coeffs (DC resolved; the last stage to read
 * them); writes the band's tokens and counts. CT_OK or CT_ENOMEM. */
int ct_jpeg_entropy_tokenize(ct_jpeg_entropy *e, const ct_jpeg_coeffs *coeffs,
                             size_t job);

/* Stitch ×N, job = scan: replays the scan's band borders with the carried
 * state and sums its histogram. CT_OK or CT_ENOMEM. */
int ct_jpeg_entropy_stitch(ct_jpeg_entropy *e, size_t scan);

/* Huffman (serial): the codes from all scans' histograms (optimized, or
 * the standard tables of a sequential file without optimize_coding).
 * CT_OK or CT_ENOMEM. */
int ct_jpeg_entropy_huffman(ct_jpeg_entropy *e);

/* Count ×N, job = scan: the coded bits of each of the scan's bands. */
void ct_jpeg_entropy_count(ct_jpeg_entropy *e, size_t scan);

/* PlaceCursors (serial): cuts the scans into chunks and sets where each
 * starts; then write_jobs is known. CT_OK or CT_ENOMEM. */
int ct_jpeg_entropy_place_cursors(ct_jpeg_entropy *e);
size_t ct_jpeg_entropy_write_jobs(const ct_jpeg_entropy *e);

/* Write ×N, job < write_jobs (largest chunks first): one chunk's bytes,
 * into a buffer of its own. CT_OK or CT_ENOMEM. */
int ct_jpeg_entropy_write(ct_jpeg_entropy *e, size_t job);

/* Splice ×N, job = scan: joins the bytes the scan's chunks share. */
void ct_jpeg_entropy_splice(ct_jpeg_entropy *e, size_t scan);

/*
 * Assemble (serial): the file, SOI, APP2 ICC markers (icc may be NULL),
 * DQT, SOF, then DHT/SOS and data per scan, EOI, into out. Returns CT_OK,
 * CT_ENOMEM, or CT_EINVAL when a symbol had no code (only a coefficient
 * outside the range of 8-bit JPEG gets there; jpegli fails too).
 */
int ct_jpeg_entropy_assemble(ct_jpeg_entropy *e, const uint8_t *icc,
                             size_t icc_size, ct_jpeg_output *out);

/* Release ×N, job = scan: frees the scan's tokens and written chunks. */
void ct_jpeg_entropy_release(ct_jpeg_entropy *e, size_t scan);

/* Frees everything (also what Release left, so after an error too). */
void ct_jpeg_entropy_free(ct_jpeg_entropy *e);

/* For tests: a scan's bands as Stitch leaves them (token_bands.h), until
 * Release. */
struct ct_jpeg_scan_bands;
const struct ct_jpeg_scan_bands *
ct_jpeg_entropy_scan_bands(const ct_jpeg_entropy *e, size_t scan);

#endif
