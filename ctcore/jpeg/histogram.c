/*
 * Symbol statistics and optimized Huffman codes: counts per scan, summed
 * per context, contexts clustered greedily into at most four table slots
 * each for DC and AC, one code per cluster.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/entropy_coding.cc (BSD-3-Clause, Copyright
 * the JPEG XL Project Authors).
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "entropy_internal.h"

/* Slots of a kind (DC or AC) a decoder has: Th in DHT is 0..3. */
#define NUM_SLOTS 4

typedef struct histogram {
    uint32_t count[CT_JPEG_HUFFMAN_ALPHABET];
} histogram;

void ct_jpeg_scan_histogram_build(const ct_jpeg_frame *frame, int scan_index,
                                  int ac_context,
                                  const ct_jpeg_scan_tokens *st,
                                  ct_jpeg_scan_histogram *hist)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    memset(hist, 0, sizeof(*hist));
    if (scan->Ah == 0) {
        for (size_t i = 0; i < st->num_tokens; ++i) {
            const ct_jpeg_token t = st->tokens[i];
            ++hist->count[ct_jpeg_histogram_row(t.context, ac_context)]
                         [t.symbol];
        }
    } else if (scan->Ss > 0) {
        /* The sign bit (bit 1) of a newly nonzero coefficient is an extra
         * bit, not part of the symbol. */
        uint32_t *ac = hist->count[CT_JPEG_NUM_DC_CONTEXTS];
        for (size_t i = 0; i < st->num_ref_tokens; ++i)
            ++ac[st->ref_tokens[i].symbol & 253];
    }
}

/* HistogramCost: bits of the DHT table plus bits of the coded symbols. */
static float histogram_cost(const histogram *h)
{
    uint32_t counts[CT_JPEG_HUFFMAN_ALPHABET + 1];
    uint8_t depths[CT_JPEG_HUFFMAN_ALPHABET + 1];
    memcpy(counts, h->count, sizeof(h->count));
    counts[CT_JPEG_HUFFMAN_ALPHABET] = 1;
    ct_jpeg_create_huffman_tree(counts, CT_JPEG_HUFFMAN_ALPHABET + 1,
                                CT_JPEG_HUFFMAN_MAX_BITS, depths);
    size_t header_bits = (1 + CT_JPEG_HUFFMAN_MAX_BITS) * 8;
    size_t data_bits = 0;
    for (int i = 0; i < CT_JPEG_HUFFMAN_ALPHABET; ++i) {
        if (depths[i] > 0) {
            header_bits += 8;
            data_bits += (size_t)counts[i] * depths[i];
        }
    }
    return (float)(header_bits + data_bits);
}

static void add_histograms(const histogram *a, const histogram *b,
                           histogram *c)
{
    for (int i = 0; i < CT_JPEG_HUFFMAN_ALPHABET; ++i)
        c->count[i] = a->count[i] + b->count[i];
}

static int is_empty_histogram(const histogram *h)
{
    for (int i = 0; i < CT_JPEG_HUFFMAN_ALPHABET; ++i)
        if (h->count[i])
            return 0;
    return 1;
}

/* The result of clustering num histograms (jpegli's
 * JpegClusteredHistograms); the arrays have room for num entries. */
typedef struct clusters {
    int num_histograms;
    histogram *histograms;       /* merged histograms, in creation order */
    uint32_t *histogram_indexes; /* input histogram -> merged histogram */
    uint32_t *slot_ids;          /* merged histogram -> slot 0..3 */
} clusters;

/*
 * ClusterJpegHistograms: each nonempty histogram joins the slot whose merged
 * code costs least extra, or starts a new histogram when that is cheaper; a
 * new histogram beyond four slots replaces the slot after the last one
 * used. force_baseline allows two slots only (SOF0 decoders have two).
 */
static void cluster_histograms(const histogram *histograms, int num,
                               int force_baseline, clusters *out)
{
    uint32_t slot_histograms[NUM_SLOTS];
    float slot_costs[NUM_SLOTS];
    int num_slots = 0;
    out->num_histograms = 0;
    memset(out->histogram_indexes, 0, (size_t)num * sizeof(uint32_t));
    for (int i = 0; i < num; ++i) {
        const histogram *cur = &histograms[i];
        if (is_empty_histogram(cur))
            continue;
        int best_slot = num_slots;
        float best_cost = force_baseline && best_slot > 1
                              ? FLT_MAX
                              : histogram_cost(cur);
        for (int j = 0; j < num_slots; ++j) {
            histogram combined;
            add_histograms(&out->histograms[slot_histograms[j]], cur,
                           &combined);
            const float cost = histogram_cost(&combined) - slot_costs[j];
            if (cost < best_cost) {
                best_cost = cost;
                best_slot = j;
            }
        }
        if (best_slot == num_slots) {
            const uint32_t index = (uint32_t)out->num_histograms++;
            out->histograms[index] = *cur;
            out->histogram_indexes[i] = index;
            if (best_slot < NUM_SLOTS)
                ++num_slots;
            else
                best_slot = (int)(out->slot_ids[index - 1] + 1) % NUM_SLOTS;
            slot_histograms[best_slot] = index;
            slot_costs[best_slot] = best_cost;
            out->slot_ids[index] = (uint32_t)best_slot;
        } else {
            const uint32_t index = slot_histograms[best_slot];
            add_histograms(&out->histograms[index], cur,
                           &out->histograms[index]);
            out->histogram_indexes[i] = index;
            slot_costs[best_slot] += best_cost;
        }
    }
}

static void add_counts(uint32_t *dst, const uint32_t *src)
{
    for (int i = 0; i < CT_JPEG_HUFFMAN_ALPHABET; ++i)
        dst[i] += src[i];
}

int ct_jpeg_optimize_codes(const ct_jpeg_frame *frame,
                           const ct_jpeg_contexts *ctx,
                           const ct_jpeg_scan_histogram *hists,
                           ct_jpeg_huffman_codes *codes)
{
    const int num_contexts = ctx->num_contexts;
    const int num_ac = num_contexts - CT_JPEG_NUM_DC_CONTEXTS;
    /* One per context, then room for the merged DC and AC histograms. */
    histogram *histograms = calloc(2 * (size_t)num_contexts, sizeof(histogram));
    uint32_t *ac_arrays = malloc(2 * (size_t)num_contexts * sizeof(uint32_t));
    if (histograms == NULL || ac_arrays == NULL) {
        free(histograms);
        free(ac_arrays);
        return CT_ENOMEM;
    }

    /* BuildHistograms */
    for (int s = 0; s < frame->num_scans; ++s) {
        const ct_jpeg_scan *scan = &frame->scans[s];
        for (int r = 0; r < CT_JPEG_NUM_DC_CONTEXTS; ++r)
            add_counts(histograms[r].count, hists[s].count[r]);
        if (scan->Se == 0)
            continue;
        for (int i = 0; i < scan->comps_in_scan; ++i)
            add_counts(histograms[ctx->ac_offset[s] + i].count,
                       hists[s].count[CT_JPEG_NUM_DC_CONTEXTS + i]);
    }

    uint32_t dc_indexes[CT_JPEG_NUM_DC_CONTEXTS];
    uint32_t dc_slot_ids[CT_JPEG_NUM_DC_CONTEXTS];
    clusters dc = {0, histograms + num_contexts, dc_indexes, dc_slot_ids};
    clusters ac = {0, histograms + num_contexts + CT_JPEG_NUM_DC_CONTEXTS,
                   ac_arrays, ac_arrays + num_ac};
    /* cjpegli always sets force_baseline (jpegli_set_distance(..., TRUE));
     * it limits the clusters of sequential files only. */
    const int force_baseline = !frame->progressive;
    cluster_histograms(histograms, frame->num_components, force_baseline,
                       &dc);
    cluster_histograms(histograms + CT_JPEG_NUM_DC_CONTEXTS, num_ac,
                       force_baseline, &ac);

    memset(codes, 0, sizeof(*codes));
    codes->num_tables = dc.num_histograms + ac.num_histograms;
    for (int i = 0; i < codes->num_tables; ++i) {
        if (i < dc.num_histograms) {
            codes->slot_id[i] = (uint8_t)i;
            ct_jpeg_build_huffman_table(dc.histograms[i].count,
                                        &codes->tables[i]);
        } else {
            const int a = i - dc.num_histograms;
            codes->slot_id[i] = (uint8_t)(16 + ac.slot_ids[a]);
            ct_jpeg_build_huffman_table(ac.histograms[a].count,
                                        &codes->tables[i]);
        }
    }
    for (int i = 0; i < num_contexts; ++i) {
        if (i < frame->num_components)
            codes->context_map[i] = (uint8_t)dc.histogram_indexes[i];
        else if (i >= CT_JPEG_NUM_DC_CONTEXTS)
            codes->context_map[i] = (uint8_t)(
                dc.num_histograms +
                (int)ac.histogram_indexes[i - CT_JPEG_NUM_DC_CONTEXTS]);
    }
    free(histograms);
    free(ac_arrays);
    return CT_OK;
}
