/*
 * The entropy coder as fork-join stages (see entropy_stages.h): the plan of
 * bands, groups and chunks, and the stage functions over token_bands.c and
 * scan_chunks.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct. Huffman and Assemble follow jpegli's jpegli_finish_compress
 * as entropy.c ports it.
 */
#include <stdlib.h>
#include <string.h>

#include "entropy_internal.h"
#include "entropy_stages.h"
#include "scan_chunks.h"
#include "token_bands.h"

/* Tokenize jobs per worker: enough that a worker that draws large bands
 * is not left alone with the last one. */
#define JOBS_PER_WORKER 4
/* Write chunks below this size cost more in joining than they gain. */
#define MIN_CHUNK_BITS ((uint64_t)32768 * 8)

/* Scans whose bands one tokenize job covers together: the AC scans of a
 * component, or one DC or sequential scan. */
typedef struct token_group {
    int num_scans;
    int scans[CT_JPEG_MAX_SCANS];
    int num_bands;
} token_group;

typedef struct tokenize_job {
    int group, band;
} tokenize_job;

typedef struct write_job {
    uint64_t bits; /* of the chunk */
    int scan, chunk;
} write_job;

struct ct_jpeg_entropy {
    const ct_jpeg_frame *frame;
    ct_jpeg_entropy_split split;
    ct_jpeg_contexts ctx;
    int num_scans;
    /* Plan, Tokenize, Stitch */
    int num_groups;
    token_group groups[CT_JPEG_MAX_SCANS];
    size_t num_tokenize_jobs;
    tokenize_job *tokenize_jobs;
    ct_jpeg_scan_bands scans[CT_JPEG_MAX_SCANS];
    ct_jpeg_scan_histogram hists[CT_JPEG_MAX_SCANS];
    /* Huffman */
    ct_jpeg_huffman_codes codes;
    /* Count, PlaceCursors, Write, Splice */
    uint64_t scan_bits[CT_JPEG_MAX_SCANS];
    ct_jpeg_scan_chunk *chunks[CT_JPEG_MAX_SCANS];
    int num_chunks[CT_JPEG_MAX_SCANS];
    size_t num_write_jobs;
    write_job *write_jobs;
    size_t data_size[CT_JPEG_MAX_SCANS];
};

void ct_jpeg_entropy_split_default(ct_jpeg_entropy_split *split, int workers)
{
    memset(split, 0, sizeof(*split));
    split->workers = workers > 1 ? workers : 1;
}

/* ------------------------------------------------------------------ */
/* Plan                                                                */

static int is_progressive_dc(const ct_jpeg_frame *frame, int scan_index)
{
    return frame->progressive && frame->scans[scan_index].Ss == 0;
}

/* Blocks a scan codes: its work in tokenize, roughly. */
static uint64_t scan_blocks(const ct_jpeg_frame *frame, int scan_index)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    uint64_t blocks = 0;
    for (int i = 0; i < scan->comps_in_scan; ++i) {
        const ct_jpeg_component *comp = &frame->comp[scan->component_index[i]];
        blocks += (uint64_t)comp->width_in_blocks * comp->height_in_blocks;
    }
    return blocks;
}

static void add_to_groups(ct_jpeg_entropy *e, int scan_index)
{
    const ct_jpeg_scan *scan = &e->frame->scans[scan_index];
    if (scan->Ss > 0) {
        for (int g = 0; g < e->num_groups; ++g) {
            const ct_jpeg_scan *first =
                &e->frame->scans[e->groups[g].scans[0]];
            if (first->Ss > 0 &&
                first->component_index[0] == scan->component_index[0]) {
                e->groups[g].scans[e->groups[g].num_scans++] = scan_index;
                return;
            }
        }
    }
    token_group *group = &e->groups[e->num_groups++];
    group->num_scans = 1;
    group->scans[0] = scan_index;
}

/* Bands of a group of `rows` MCU rows that does `work` of all groups'
 * `total_work` (progressive DC scans not counted). */
static int count_bands(const ct_jpeg_entropy *e, const token_group *group,
                       int rows, uint64_t work, uint64_t total_work)
{
    const ct_jpeg_entropy_split *split = &e->split;
    const int is_ac = e->frame->scans[group->scans[0]].Ss > 0;
    int64_t bands;
    if (split->band_rows > 0)
        bands = rows / split->band_rows + (rows % split->band_rows != 0);
    else if (is_ac && split->ac_bands > 0)
        bands = split->ac_bands;
    else if (split->workers <= 1)
        bands = 1;
    else if (is_progressive_dc(e->frame, group->scans[0]))
        bands = split->workers;
    else
        bands = (int64_t)((work * JOBS_PER_WORKER * (uint64_t)split->workers +
                           total_work - 1) /
                          total_work);
    if (bands > rows)
        bands = rows;
    return bands < 1 ? 1 : (int)bands;
}

static int plan_bands(ct_jpeg_entropy *e)
{
    const ct_jpeg_frame *frame = e->frame;
    const ct_jpeg_padding padding = ct_jpeg_frame_padding(frame);
    uint64_t work[CT_JPEG_MAX_SCANS] = {0};
    uint64_t total_work = 0;
    for (int g = 0; g < e->num_groups; ++g) {
        const token_group *group = &e->groups[g];
        if (is_progressive_dc(frame, group->scans[0]))
            continue;
        for (int i = 0; i < group->num_scans; ++i)
            work[g] += scan_blocks(frame, group->scans[i]);
        total_work += work[g];
    }
    for (int g = 0; g < e->num_groups; ++g) {
        token_group *group = &e->groups[g];
        const int rows =
            ct_jpeg_scan_geometry_of(frame, &frame->scans[group->scans[0]])
                .mcu_rows;
        group->num_bands = count_bands(e, group, rows, work[g], total_work);
        int *cuts = malloc(((size_t)group->num_bands + 1) * sizeof(*cuts));
        if (cuts == NULL)
            return CT_ENOMEM;
        for (int b = 0; b <= group->num_bands; ++b)
            cuts[b] = (int)((int64_t)rows * b / group->num_bands);
        int rc = CT_OK;
        for (int i = 0; i < group->num_scans && rc == CT_OK; ++i) {
            const int s = group->scans[i];
            rc = ct_jpeg_scan_bands_init(&e->scans[s], frame, s,
                                         e->ctx.ac_offset[s], padding,
                                         group->num_bands, cuts);
        }
        free(cuts);
        if (rc != CT_OK)
            return rc;
        e->num_tokenize_jobs += (size_t)group->num_bands;
    }
    return CT_OK;
}

/* The AC and sequential groups first, the cheap DC bands last, so that
 * they fill the gaps at the end of the stage. */
static int plan_tokenize_jobs(ct_jpeg_entropy *e)
{
    e->tokenize_jobs =
        malloc(e->num_tokenize_jobs * sizeof(*e->tokenize_jobs));
    if (e->tokenize_jobs == NULL)
        return CT_ENOMEM;
    size_t n = 0;
    for (int dc_last = 0; dc_last < 2; ++dc_last) {
        for (int g = 0; g < e->num_groups; ++g) {
            if (is_progressive_dc(e->frame, e->groups[g].scans[0]) != dc_last)
                continue;
            for (int b = 0; b < e->groups[g].num_bands; ++b) {
                e->tokenize_jobs[n].group = g;
                e->tokenize_jobs[n].band = b;
                ++n;
            }
        }
    }
    return CT_OK;
}

int ct_jpeg_entropy_new(ct_jpeg_entropy **out, const ct_jpeg_frame *frame,
                        const ct_jpeg_entropy_split *split)
{
    ct_jpeg_entropy *e = calloc(1, sizeof(*e));
    *out = e;
    if (e == NULL)
        return CT_ENOMEM;
    e->frame = frame;
    e->split = *split;
    e->num_scans = frame->num_scans;
    ct_jpeg_contexts_init(&e->ctx, frame);
    for (int s = 0; s < e->num_scans; ++s)
        add_to_groups(e, s);
    int rc = plan_bands(e);
    if (rc == CT_OK)
        rc = plan_tokenize_jobs(e);
    return rc;
}

size_t ct_jpeg_entropy_num_scans(const ct_jpeg_entropy *e)
{
    return (size_t)e->num_scans;
}

size_t ct_jpeg_entropy_tokenize_jobs(const ct_jpeg_entropy *e)
{
    return e->num_tokenize_jobs;
}

/* ------------------------------------------------------------------ */
/* Tokenize, Stitch, Huffman                                           */

int ct_jpeg_entropy_tokenize(ct_jpeg_entropy *e, const ct_jpeg_coeffs *coeffs,
                             size_t job)
{
    const tokenize_job *j = &e->tokenize_jobs[job];
    const token_group *group = &e->groups[j->group];
    for (int i = 0; i < group->num_scans; ++i) {
        const int rc = ct_jpeg_tokenize_band(e->frame, coeffs,
                                             &e->scans[group->scans[i]],
                                             j->band);
        if (rc != CT_OK)
            return rc;
    }
    return CT_OK;
}

int ct_jpeg_entropy_stitch(ct_jpeg_entropy *e, size_t scan)
{
    return ct_jpeg_stitch_scan(e->frame, &e->scans[scan], &e->hists[scan]);
}

int ct_jpeg_entropy_huffman(ct_jpeg_entropy *e)
{
    return ct_jpeg_file_codes(e->frame, &e->ctx, e->hists, &e->codes);
}

/* ------------------------------------------------------------------ */
/* Count, PlaceCursors, Write, Splice                                  */

void ct_jpeg_entropy_count(ct_jpeg_entropy *e, size_t scan)
{
    e->scan_bits[scan] = ct_jpeg_count_scan_bits(&e->codes, &e->scans[scan]);
}

static uint64_t chunk_bits(const ct_jpeg_entropy *e)
{
    if (e->split.chunk_bits > 0)
        return e->split.chunk_bits;
    if (e->split.workers <= 1)
        return UINT64_MAX;
    uint64_t total = 0;
    for (int s = 0; s < e->num_scans; ++s)
        total += e->scan_bits[s];
    const uint64_t share =
        total / ((uint64_t)JOBS_PER_WORKER * (uint64_t)e->split.workers);
    return share > MIN_CHUNK_BITS ? share : MIN_CHUNK_BITS;
}

/* Largest first, then in scan order: a total order, so the job list does
 * not depend on qsort. */
static int compare_write_jobs(const void *a, const void *b)
{
    const write_job *ja = a, *jb = b;
    if (ja->bits != jb->bits)
        return ja->bits > jb->bits ? -1 : 1;
    if (ja->scan != jb->scan)
        return ja->scan < jb->scan ? -1 : 1;
    return ja->chunk < jb->chunk ? -1 : ja->chunk > jb->chunk;
}

int ct_jpeg_entropy_place_cursors(ct_jpeg_entropy *e)
{
    const uint64_t bits = chunk_bits(e);
    e->num_write_jobs = 0;
    for (int s = 0; s < e->num_scans; ++s) {
        e->chunks[s] =
            malloc((size_t)e->scans[s].num_bands * sizeof(*e->chunks[s]));
        if (e->chunks[s] == NULL)
            return CT_ENOMEM;
        e->num_chunks[s] =
            ct_jpeg_place_scan_chunks(&e->scans[s], bits, e->chunks[s]);
        e->num_write_jobs += (size_t)e->num_chunks[s];
    }
    e->write_jobs = malloc(e->num_write_jobs * sizeof(*e->write_jobs));
    if (e->write_jobs == NULL)
        return CT_ENOMEM;
    size_t n = 0;
    for (int s = 0; s < e->num_scans; ++s) {
        for (int k = 0; k < e->num_chunks[s]; ++k) {
            e->write_jobs[n].bits = e->chunks[s][k].bits;
            e->write_jobs[n].scan = s;
            e->write_jobs[n].chunk = k;
            ++n;
        }
    }
    qsort(e->write_jobs, n, sizeof(*e->write_jobs), compare_write_jobs);
    return CT_OK;
}

size_t ct_jpeg_entropy_write_jobs(const ct_jpeg_entropy *e)
{
    return e->num_write_jobs;
}

int ct_jpeg_entropy_write(ct_jpeg_entropy *e, size_t job)
{
    const write_job *j = &e->write_jobs[job];
    return ct_jpeg_write_scan_chunk(e->frame, &e->codes, &e->scans[j->scan],
                                    &e->chunks[j->scan][j->chunk],
                                    j->chunk == e->num_chunks[j->scan] - 1);
}

void ct_jpeg_entropy_splice(ct_jpeg_entropy *e, size_t scan)
{
    e->data_size[scan] =
        ct_jpeg_splice_scan_chunks(e->chunks[scan], e->num_chunks[scan]);
}

/* ------------------------------------------------------------------ */
/* Assemble, Release                                                   */

int ct_jpeg_entropy_assemble(ct_jpeg_entropy *e, const uint8_t *icc,
                             size_t icc_size, ct_jpeg_output *out)
{
    out->data = NULL;
    out->size = 0;
    size_t capacity = ct_jpeg_file_markers_bound(icc_size);
    const size_t header_bound = ct_jpeg_scan_header_bound(&e->codes);
    for (int s = 0; s < e->num_scans; ++s) {
        capacity += header_bound + e->data_size[s];
        for (int k = 0; k < e->num_chunks[s]; ++k)
            if (e->chunks[s][k].unknown_symbol)
                return CT_EINVAL;
    }
    uint8_t *data = malloc(capacity);
    if (data == NULL)
        return CT_ENOMEM;
    size_t pos = ct_jpeg_write_soi(data);
    if (icc != NULL)
        pos += ct_jpeg_write_icc_markers(icc, icc_size, data + pos);
    pos += ct_jpeg_write_frame_header(e->frame, &e->codes, data + pos);
    int next_dht_index = 0;
    for (int s = 0; s < e->num_scans; ++s) {
        pos += ct_jpeg_write_scan_header(e->frame, &e->ctx, &e->codes, s,
                                         &next_dht_index, data + pos);
        pos += ct_jpeg_copy_scan_chunks(e->chunks[s], e->num_chunks[s],
                                        data + pos);
    }
    pos += ct_jpeg_write_eoi(data + pos);
    uint8_t *shrunk = realloc(data, pos);
    out->data = shrunk != NULL ? shrunk : data;
    out->size = pos;
    return CT_OK;
}

void ct_jpeg_entropy_release(ct_jpeg_entropy *e, size_t scan)
{
    ct_jpeg_scan_bands_free(&e->scans[scan]);
    if (e->chunks[scan] != NULL)
        ct_jpeg_scan_chunks_free(e->chunks[scan], e->num_chunks[scan]);
    free(e->chunks[scan]);
    e->chunks[scan] = NULL;
    e->num_chunks[scan] = 0;
}

void ct_jpeg_entropy_free(ct_jpeg_entropy *e)
{
    if (e == NULL)
        return;
    for (int s = 0; s < e->num_scans; ++s)
        ct_jpeg_entropy_release(e, (size_t)s);
    free(e->tokenize_jobs);
    free(e->write_jobs);
    free(e);
}

const struct ct_jpeg_scan_bands *
ct_jpeg_entropy_scan_bands(const ct_jpeg_entropy *e, size_t scan)
{
    return &e->scans[scan];
}
