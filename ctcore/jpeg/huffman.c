/*
 * Huffman codes: code lengths from counts (length-limited), DHT tables from
 * code lengths, the Annex K tables of the fixed code, which of the two a
 * file gets, and the canonical codes the scan writer uses.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/huffman.cc and entropy_coding.cc
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <stdlib.h>
#include <string.h>

#include "entropy_internal.h"

/* The alphabet and the sentinel symbol jpegli adds to every code. */
#define MAX_TREE_LEAVES (CT_JPEG_HUFFMAN_ALPHABET + 1)

/* A node of a Huffman tree: a leaf when index_left < 0, then
 * index_right_or_value is its symbol. */
typedef struct huffman_node {
    uint32_t total_count;
    int16_t index_left;
    int16_t index_right_or_value;
} huffman_node;

static void set_depth(const huffman_node *p, const huffman_node *pool,
                      uint8_t *depth, uint8_t level)
{
    if (p->index_left >= 0) {
        ++level;
        set_depth(&pool[p->index_left], pool, depth, level);
        set_depth(&pool[p->index_right_or_value], pool, depth, level);
    } else {
        depth[p->index_right_or_value] = level;
    }
}

/* Least popular first, ties by decreasing symbol: a strict total order on
 * the leaves, so any sort gives jpegli's (std::sort) order. */
static int compare_nodes(const void *a, const void *b)
{
    const huffman_node *v0 = a;
    const huffman_node *v1 = b;
    if (v0->total_count != v1->total_count)
        return v0->total_count < v1->total_count ? -1 : 1;
    if (v0->index_right_or_value != v1->index_right_or_value)
        return v0->index_right_or_value > v1->index_right_or_value ? -1 : 1;
    return 0;
}

/*
 * Code lengths of at most tree_limit bits for the symbols with nonzero
 * counts (at least one; length <= 257). When the plain Huffman tree is too
 * deep, counts below a rising floor are raised to it and the tree is built
 * again.
 */
void ct_jpeg_create_huffman_tree(const uint32_t *data, size_t length,
                                 int tree_limit, uint8_t *depth)
{
    huffman_node tree[2 * MAX_TREE_LEAVES + 1];
    const huffman_node sentinel = {UINT32_MAX, -1, -1};
    memset(depth, 0, length);
    for (uint32_t count_limit = 1;; count_limit *= 2) {
        size_t n = 0;
        for (size_t i = length; i != 0;) {
            --i;
            if (data[i]) {
                const uint32_t count =
                    data[i] > count_limit - 1 ? data[i] : count_limit - 1;
                tree[n].total_count = count;
                tree[n].index_left = -1;
                tree[n].index_right_or_value = (int16_t)i;
                ++n;
            }
        }
        if (n == 1) {
            /* One symbol still needs a one-bit code. */
            depth[tree[0].index_right_or_value] = 1;
            break;
        }
        qsort(tree, n, sizeof(tree[0]), compare_nodes);

        /* [0, n): the sorted leaves; [n]: a sentinel; [n + 1, 2n): the
         * parents, created in increasing order of count, each over the
         * sentinel at the end; [2n]: the last sentinel. */
        tree[n] = sentinel;
        tree[n + 1] = sentinel;
        size_t size = n + 2;
        size_t i = 0;     /* next leaf */
        size_t j = n + 1; /* next parent */
        for (size_t k = n - 1; k != 0; --k) {
            size_t left, right;
            if (tree[i].total_count <= tree[j].total_count)
                left = i++;
            else
                left = j++;
            if (tree[i].total_count <= tree[j].total_count)
                right = i++;
            else
                right = j++;
            huffman_node *parent = &tree[size - 1];
            parent->total_count =
                tree[left].total_count + tree[right].total_count;
            parent->index_left = (int16_t)left;
            parent->index_right_or_value = (int16_t)right;
            tree[size++] = sentinel;
        }
        set_depth(&tree[2 * n - 1], tree, depth, 0);

        int max_depth = 0;
        for (size_t s = 0; s < length; ++s)
            if (depth[s] > max_depth)
                max_depth = depth[s];
        if (max_depth <= tree_limit)
            break;
    }
}

/* BuildJpegHuffmanTable (entropy_coding.cc): the DHT table of a histogram,
 * symbols sorted by code length, then by value. */
void ct_jpeg_build_huffman_table(const uint32_t *count,
                                 ct_jpeg_huffman_table *table)
{
    uint32_t counts[MAX_TREE_LEAVES];
    uint8_t depths[MAX_TREE_LEAVES];
    memcpy(counts, count, CT_JPEG_HUFFMAN_ALPHABET * sizeof(counts[0]));
    /* The sentinel keeps the all-ones code out of use. */
    counts[CT_JPEG_HUFFMAN_ALPHABET] = 1;
    ct_jpeg_create_huffman_tree(counts, MAX_TREE_LEAVES,
                                CT_JPEG_HUFFMAN_MAX_BITS, depths);
    memset(table, 0, sizeof(*table));
    for (int i = 0; i < CT_JPEG_HUFFMAN_ALPHABET; ++i)
        if (depths[i] > 0)
            ++table->bits[depths[i]];
    int offset[CT_JPEG_HUFFMAN_MAX_BITS + 1] = {0};
    for (int i = 1; i <= CT_JPEG_HUFFMAN_MAX_BITS; ++i)
        offset[i] = offset[i - 1] + table->bits[i - 1];
    for (int i = 0; i < CT_JPEG_HUFFMAN_ALPHABET; ++i)
        if (depths[i] > 0)
            table->huffval[offset[depths[i]]++] = (uint8_t)i;
}

/* The tables of the JPEG standard (Annex K.3), which jpegli_set_defaults
 * installs as DC and AC tables 0 (luma) and 1 (chroma). */
static const ct_jpeg_huffman_table standard_dc_tables[2] = {
    {{0, 0, 1, 5, 1, 1, 1, 1, 1, 1},
     {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
    {{0, 0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},
     {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
};

static const ct_jpeg_huffman_table standard_ac_tables[2] = {
    {{0, 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125},
     {0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06,
      0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08,
      0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72,
      0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
      0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45,
      0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
      0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75,
      0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
      0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
      0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
      0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9,
      0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
      0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4,
      0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa}},
    {{0, 0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 119},
     {0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41,
      0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91,
      0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1,
      0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
      0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44,
      0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
      0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74,
      0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
      0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a,
      0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4,
      0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
      0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
      0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4,
      0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa}},
};

/* dc_tbl_no and ac_tbl_no of jpegli_set_colorspace: separate luma and
 * chroma tables for YCbCr, table 0 for everything else. */
static int huffman_table_number(const ct_jpeg_frame *frame, int c)
{
    return frame->colorspace == CT_JPEG_CS_YCBCR && c > 0 ? 1 : 0;
}

/* CopyHuffmanTable: appends a standard table once; slot_of[slot] is its
 * index in codes->tables. */
static void copy_standard_table(ct_jpeg_huffman_codes *codes, int number,
                                int is_dc, int *slot_of)
{
    const int slot = number + (is_dc ? 0 : 4);
    if (slot_of[slot] != -1)
        return;
    slot_of[slot] = codes->num_tables;
    codes->tables[codes->num_tables] =
        is_dc ? standard_dc_tables[number] : standard_ac_tables[number];
    codes->slot_id[codes->num_tables] =
        (uint8_t)(number + (is_dc ? 0 : 0x10));
    ++codes->num_tables;
}

void ct_jpeg_standard_codes(const ct_jpeg_frame *frame,
                            ct_jpeg_huffman_codes *codes)
{
    memset(codes, 0, sizeof(*codes));
    int slot_of[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    for (int c = 0; c < frame->num_components; ++c) {
        const int number = huffman_table_number(frame, c);
        copy_standard_table(codes, number, 1, slot_of);
        copy_standard_table(codes, number, 0, slot_of);
    }
    for (int c = 0; c < frame->num_components; ++c)
        codes->context_map[c] =
            (uint8_t)slot_of[huffman_table_number(frame, c)];
    int ac_ctx = CT_JPEG_NUM_DC_CONTEXTS;
    for (int i = 0; i < frame->num_scans; ++i) {
        const ct_jpeg_scan *scan = &frame->scans[i];
        if (scan->Se == 0)
            continue;
        for (int j = 0; j < scan->comps_in_scan; ++j) {
            const int c = scan->component_index[j];
            codes->context_map[ac_ctx++] =
                (uint8_t)slot_of[huffman_table_number(frame, c) + 4];
        }
    }
}

/* Extra bits after each symbol: the magnitude category in the low nibble;
 * for AC symbols with a zero low nibble, the EOB run's log2 (0 for EOB and
 * ZRL). */
static int num_extra_bits(int symbol)
{
    const int low = symbol & 15;
    if (low != 0)
        return low;
    const int run = symbol >> 4;
    return run == 15 ? 0 : run;
}

/* BuildHuffmanCodeTable: canonical codes in DHT order, shifted left by
 * the symbol's extra bits. */
static void build_code_table(const ct_jpeg_huffman_table *table,
                             ct_jpeg_code_table *code)
{
    uint32_t huff_code[CT_JPEG_HUFFMAN_ALPHABET];
    uint8_t huff_size[CT_JPEG_HUFFMAN_ALPHABET + 1];
    int p = 0;
    for (int l = 1; l <= CT_JPEG_HUFFMAN_MAX_BITS; ++l)
        for (int i = table->bits[l]; i > 0; --i)
            huff_size[p++] = (uint8_t)l;
    const int last_p = p;
    huff_size[last_p] = 0;

    uint32_t next_code = 0;
    int si = huff_size[0];
    p = 0;
    while (huff_size[p]) {
        while (huff_size[p] == si)
            huff_code[p++] = next_code++;
        next_code <<= 1;
        si++;
    }
    memset(code, 0, sizeof(*code));
    for (p = 0; p < last_p; p++) {
        const int symbol = table->huffval[p];
        const int nbits = num_extra_bits(symbol);
        code->depth[symbol] = (uint8_t)(huff_size[p] + nbits);
        code->code[symbol] = huff_code[p] << nbits;
    }
}

void ct_jpeg_build_code_tables(ct_jpeg_huffman_codes *codes)
{
    for (int i = 0; i < codes->num_tables; ++i)
        build_code_table(&codes->tables[i], &codes->coding[i]);
}

int ct_jpeg_file_codes(const ct_jpeg_frame *frame, const ct_jpeg_contexts *ctx,
                       const ct_jpeg_scan_histogram *hists,
                       ct_jpeg_huffman_codes *codes)
{
    if (frame->optimize_coding || frame->progressive) {
        const int rc = ct_jpeg_optimize_codes(frame, ctx, hists, codes);
        if (rc != CT_OK)
            return rc;
    } else {
        ct_jpeg_standard_codes(frame, codes);
    }
    ct_jpeg_build_code_tables(codes);
    return CT_OK;
}
