/*
 * MPEG Layer III constant tables: the Huffman code tables (ISO 11172-3
 * Table B.7) and LAME's packed length tables for bit counting, the bitrate
 * and sample rate tables, the scalefactor bands (Tables B.8 and B.2), the
 * scalefactor partitions of MPEG-2 LSF, pretab and the slen tables.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/tables.c, tables.h, quantize_pvt.c and
 * takehiro.c (LGPL-2.0-or-later, the LAME project).
 */
#ifndef CTCORE_MP3_TABLES_H
#define CTCORE_MP3_TABLES_H

#include <stdint.h>

/* Number of Huffman tables: 0..31 for big values, 32 and 33 for count1. */
#define CT_MP3_HTN 34

typedef struct ct_mp3_huffcodetab {
    unsigned int xlen;          /* max. x-index + 1 */
    unsigned int linmax;        /* max number to be stored in linbits */
    const uint16_t *table;      /* codes, [xlen][xlen] */
    const uint8_t *hlen;        /* code lengths, [xlen][xlen] */
} ct_mp3_huffcodetab;

extern const ct_mp3_huffcodetab ct_mp3_ht[CT_MP3_HTN];

/* Code lengths of the count1 tables A and B (32, 33), sign bits included. */
extern const uint8_t ct_mp3_t32l[16];
extern const uint8_t ct_mp3_t33l[16];

/* Two code lengths in one word, for counting two tables at once:
 * largetbl = hlen(16) << 16 | hlen(24), table23 = hlen(2) << 16 | hlen(3),
 * table56 = hlen(5) << 16 | hlen(6). */
extern const uint32_t ct_mp3_largetbl[16 * 16];
extern const uint32_t ct_mp3_table23[3 * 3];
extern const uint32_t ct_mp3_table56[4 * 4];

/* The scfsi band groups (ISO 11172-3 2.4.2.7). */
extern const int ct_mp3_scfsi_band[5];

/* [version][index]: version 0 MPEG-2 LSF, 1 MPEG-1, 2 MPEG-2.5. A bitrate
 * index or sample rate index with no value reads -1. */
extern const int ct_mp3_bitrate_table[3][16];
extern const int ct_mp3_samplerate_table[3][4];

/* Scalefactor band boundaries: long blocks (SBMAX_l + 1 = 23) and short
 * blocks (SBMAX_s + 1 = 14), indexed by samplerate index + 3 * version for
 * MPEG-1/2 and 6 + samplerate index for MPEG-2.5. */
typedef struct ct_mp3_sfb_index {
    int l[1 + 22];
    int s[1 + 13];
} ct_mp3_sfb_index;

extern const ct_mp3_sfb_index ct_mp3_sfb_band_index[9];

/* MPEG-2 LSF scalefactor partitioning (ISO 13818-3 2.4.3.2):
 * [table_number][row_in_table][partition]. */
extern const int ct_mp3_nr_of_sfb_block[6][3][4];

/* Table B.6: pre-emphasis per long scalefactor band. */
extern const int ct_mp3_pretab[22];

/* MPEG-1 scalefac_compress -> slen1, slen2. */
extern const int ct_mp3_slen1_tab[16];
extern const int ct_mp3_slen2_tab[16];

#endif
