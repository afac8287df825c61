/*
 * The JPEG task graph: one image spread over the pool's workers as a row of
 * fork-join stages. Each stage starts when the one before has finished; the
 * jobs of a parallel stage (×N) touch disjoint data. The edges are buffers.
 *
 *   image
 *     │
 *   Pixel ×N ─────────── tiles: bands of iMCU rows × strips of ~1024 columns
 *     │
 *   coefficients + DC plane
 *     │
 *   ResolveDC ────────── the DC chain, in MCU order (serial)
 *     │
 *   Tokenize ×N ──────── bands of every scan; AC bands through all AC scans
 *     │                  of a component, DC bands
 *   token bands
 *     │
 *   Stitch ×N ────────── per scan: EOB runs and DC predictors across band
 *     │                  borders; side jobs free the coefficients
 *   histograms
 *     │
 *   Huffman ──────────── codes for all scans (serial)
 *     │
 *   Count ×N ─────────── coded bits per band
 *     │
 *   PlaceCursors ─────── chunks and where each starts (serial)
 *     │
 *   Write ×N ─────────── chunks, largest first
 *     │
 *   Splice ×N ────────── chunks joined byte-exactly per scan
 *     │
 *   Assemble ─────────── headers and scans into the file (serial)
 *     │
 *   JPEG      Release ×N: tokens and scan buffers, per scan
 *
 * Kernels don't know about tasks: every node below only cuts its stage into
 * jobs and calls the pixel phase (pixels.h) or the entropy stages
 * (entropy_stages.h). With one worker the graph is the plain chain of
 * ct_jpeg_graph_run_sequential, which writes the same bytes.
 *
 * A batch of small frames (the streaming encoder's) is a graph of its own:
 * one stage whose jobs are whole frames, each through the sequential chain
 * on one worker.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include <stdlib.h>

#include "coeffs.h"
#include "entropy.h"
#include "graph.h"
#include "pixels.h"
#include "runtime/stage.h"
#include "common/intmath.h"
#include "common/clock.h"

/* Pixel tiles per worker: enough for the workers to even out. */
#define TILES_PER_WORKER 4
#define DEFAULT_STRIP_WIDTH 1024

typedef struct jpeg_graph {
    const ct_jpeg_frame *frame;
    ct_pool *pool;
    int workers;

    /* Edge: the image (the caller's). */
    const ct_jpeg_image *image;

    /* Node Pixel: tiles, and the scratch of each worker. */
    int band_imcu_rows, strip_imcu_cols;
    int num_bands, num_strips;
    ct_jpeg_pixel_scratch **pixel_scratch;

    /* Edge: coefficients and DC plane (Pixel -> ResolveDC -> Tokenize). */
    ct_jpeg_coeffs coeffs;

    /* Edges: token bands, histograms, codes, cursors, chunks (Tokenize ->
     * ... -> Assemble); all inside the entropy coder's state. */
    ct_jpeg_entropy *entropy;

    /* Edge: the file (Assemble). */
    const uint8_t *icc;
    size_t icc_size;
    ct_jpeg_output *out;

    double *node_seconds;    /* trace, or NULL */
} jpeg_graph;

/* ---- Pixel ×N ---------------------------------------------------------- */

static void plan_tiles(jpeg_graph *g, const ct_jpeg_graph_split *split)
{
    const ct_jpeg_frame *f = g->frame;
    const int strip_width =
        split->strip_width > 0 ? split->strip_width : DEFAULT_STRIP_WIDTH;
    g->strip_imcu_cols = ct_jpeg_pixel_strip_imcu_cols(f, strip_width);
    g->num_strips = ct_div_ceil(f->total_imcu_cols, g->strip_imcu_cols);
    if (split->band_imcu_rows > 0) {
        g->band_imcu_rows = split->band_imcu_rows;
    } else {
        const int bands_wanted =
            ct_div_ceil(TILES_PER_WORKER * g->workers, g->num_strips);
        g->band_imcu_rows = ct_div_ceil(f->total_imcu_rows, bands_wanted);
    }
    if (g->band_imcu_rows > f->total_imcu_rows)
        g->band_imcu_rows = f->total_imcu_rows;
    g->num_bands = ct_div_ceil(f->total_imcu_rows, g->band_imcu_rows);
}

static int pixel_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    const ct_jpeg_frame *f = g->frame;
    if (g->pixel_scratch[worker] == NULL) {
        g->pixel_scratch[worker] =
            ct_jpeg_pixel_scratch_new(f, g->strip_imcu_cols);
        if (g->pixel_scratch[worker] == NULL)
            return CT_ENOMEM;
    }
    const int band = (int)(job / (size_t)g->num_strips);
    const int strip = (int)(job % (size_t)g->num_strips);
    const int row0 = band * g->band_imcu_rows;
    const int col0 = strip * g->strip_imcu_cols;
    int row1 = row0 + g->band_imcu_rows;
    int col1 = col0 + g->strip_imcu_cols;
    if (row1 > f->total_imcu_rows)
        row1 = f->total_imcu_rows;
    if (col1 > f->total_imcu_cols)
        col1 = f->total_imcu_cols;
    ct_jpeg_pixel_tile(f, g->image, row0, row1, col0, col1, &g->coeffs,
                       g->pixel_scratch[worker]);
    return CT_OK;
}

static int node_pixel(jpeg_graph *g)
{
    g->pixel_scratch = calloc((size_t)g->workers, sizeof(*g->pixel_scratch));
    if (g->pixel_scratch == NULL)
        return CT_ENOMEM;
    const size_t jobs = (size_t)g->num_bands * (size_t)g->num_strips;
    const int rc = ct_stage_run(g->pool, jobs, pixel_job, g);
    for (int w = 0; w < g->workers; ++w)
        ct_jpeg_pixel_scratch_free(g->pixel_scratch[w]);
    free(g->pixel_scratch);
    g->pixel_scratch = NULL;
    return rc;
}

/* ---- ResolveDC (serial) ------------------------------------------------ */

static int node_resolve_dc(jpeg_graph *g)
{
    ct_jpeg_resolve_dc(g->frame, &g->coeffs);
    return CT_OK;
}

/* ---- Tokenize ×N ------------------------------------------------------- */

static int tokenize_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    (void)worker;
    return ct_jpeg_entropy_tokenize(g->entropy, &g->coeffs, job);
}

static int node_tokenize(jpeg_graph *g)
{
    return ct_stage_run(g->pool, ct_jpeg_entropy_tokenize_jobs(g->entropy),
                        tokenize_job, g);
}

/* ---- Stitch ×N, side jobs: free the coefficients ----------------------- */

static int free_component_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    (void)worker;
    ct_jpeg_coeffs_free_component(&g->coeffs, (int)job);
    return CT_OK;
}

static int stitch_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    (void)worker;
    return ct_jpeg_entropy_stitch(g->entropy, job);
}

static int node_stitch(jpeg_graph *g)
{
    return ct_stage_run_with_side_jobs(
        g->pool, (size_t)g->frame->num_components, free_component_job, g,
        ct_jpeg_entropy_num_scans(g->entropy), stitch_job, g);
}

/* ---- Huffman (serial) -------------------------------------------------- */

static int node_huffman(jpeg_graph *g)
{
    return ct_jpeg_entropy_huffman(g->entropy);
}

/* ---- Count ×N ---------------------------------------------------------- */

static int count_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    (void)worker;
    ct_jpeg_entropy_count(g->entropy, job);
    return CT_OK;
}

static int node_count(jpeg_graph *g)
{
    return ct_stage_run(g->pool, ct_jpeg_entropy_num_scans(g->entropy),
                        count_job, g);
}

/* ---- PlaceCursors (serial) --------------------------------------------- */

static int node_place_cursors(jpeg_graph *g)
{
    return ct_jpeg_entropy_place_cursors(g->entropy);
}

/* ---- Write ×N ---------------------------------------------------------- */

static int write_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    (void)worker;
    return ct_jpeg_entropy_write(g->entropy, job);
}

static int node_write(jpeg_graph *g)
{
    return ct_stage_run(g->pool, ct_jpeg_entropy_write_jobs(g->entropy),
                        write_job, g);
}

/* ---- Splice ×N --------------------------------------------------------- */

static int splice_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    (void)worker;
    ct_jpeg_entropy_splice(g->entropy, job);
    return CT_OK;
}

static int node_splice(jpeg_graph *g)
{
    return ct_stage_run(g->pool, ct_jpeg_entropy_num_scans(g->entropy),
                        splice_job, g);
}

/* ---- Assemble (serial) ------------------------------------------------- */

static int node_assemble(jpeg_graph *g)
{
    return ct_jpeg_entropy_assemble(g->entropy, g->icc, g->icc_size, g->out);
}

/* ---- Release ×N -------------------------------------------------------- */

static int release_job(void *ctx, size_t job, int worker)
{
    jpeg_graph *g = ctx;
    (void)worker;
    ct_jpeg_entropy_release(g->entropy, job);
    return CT_OK;
}

static int node_release(jpeg_graph *g)
{
    return ct_stage_run(g->pool, ct_jpeg_entropy_num_scans(g->entropy),
                        release_job, g);
}

/* ---- The graph --------------------------------------------------------- */

/* The entropy coder's default cuts for the workers, except where a test
 * forces them. */
static void plan_entropy_split(ct_jpeg_entropy_split *split,
                               const ct_jpeg_entropy_split *forced,
                               int workers)
{
    ct_jpeg_entropy_split_default(split, workers);
    if (forced->band_rows > 0 || forced->ac_bands > 0) {
        split->band_rows = forced->band_rows;
        split->ac_bands = forced->ac_bands;
    }
    if (forced->chunk_bits > 0)
        split->chunk_bits = forced->chunk_bits;
}

static const char *const node_names[CT_JPEG_NUM_NODES] = {
    "Pixel", "ResolveDC", "Tokenize", "Stitch", "Huffman", "Count",
    "PlaceCursors", "Write", "Splice", "Assemble", "Release",
};

const char *ct_jpeg_graph_node_name(ct_jpeg_graph_node node)
{
    return node_names[node];
}

/* Runs one node; with a trace, adds its wall time. */
static int run_node(jpeg_graph *g, ct_jpeg_graph_node node,
                    int (*run)(jpeg_graph *g))
{
    if (g->node_seconds == NULL)
        return run(g);
    const double start = ct_clock_seconds();
    const int rc = run(g);
    g->node_seconds[node] += ct_clock_seconds() - start;
    return rc;
}

static int run_stages(jpeg_graph *g)
{
    static int (*const nodes[CT_JPEG_NUM_NODES])(jpeg_graph *g) = {
        node_pixel, node_resolve_dc, node_tokenize, node_stitch,
        node_huffman, node_count, node_place_cursors, node_write,
        node_splice, node_assemble, node_release,
    };
    for (int n = 0; n < CT_JPEG_NUM_NODES; ++n) {
        const int rc = run_node(g, (ct_jpeg_graph_node)n, nodes[n]);
        if (rc != CT_OK)
            return rc;
    }
    return CT_OK;
}

int ct_jpeg_graph_run(ct_pool *pool, const ct_jpeg_frame *frame,
                      const ct_jpeg_image *image,
                      const ct_jpeg_graph_split *split, const uint8_t *icc,
                      size_t icc_size, ct_jpeg_output *out)
{
    const int workers = ct_pool_threads(pool);
    if (workers <= 1 && split == NULL)
        return ct_jpeg_graph_run_sequential(frame, image, icc, icc_size, out);

    const ct_jpeg_graph_split auto_split = {0};
    if (split == NULL)
        split = &auto_split;
    jpeg_graph g = {
        .frame = frame,
        .pool = pool,
        .workers = workers,
        .image = image,
        .icc = icc,
        .icc_size = icc_size,
        .out = out,
        .node_seconds = split->node_seconds,
    };
    plan_tiles(&g, split);
    ct_jpeg_entropy_split entropy_split;
    plan_entropy_split(&entropy_split, &split->entropy, workers);
    int rc = ct_jpeg_coeffs_alloc(&g.coeffs, frame);
    if (rc == CT_OK)
        rc = ct_jpeg_entropy_new(&g.entropy, frame, &entropy_split);
    if (rc == CT_OK)
        rc = run_stages(&g);
    ct_jpeg_entropy_free(g.entropy);
    ct_jpeg_coeffs_free(&g.coeffs);
    if (rc != CT_OK)
        ct_jpeg_output_free(out);
    return rc;
}

int ct_jpeg_graph_run_sequential(const ct_jpeg_frame *frame,
                                 const ct_jpeg_image *image,
                                 const uint8_t *icc, size_t icc_size,
                                 ct_jpeg_output *out)
{
    ct_jpeg_coeffs coeffs;
    int rc = ct_jpeg_coeffs_alloc(&coeffs, frame);
    if (rc == CT_OK)
        rc = ct_jpeg_pixel_image(frame, image, &coeffs);
    if (rc == CT_OK) {
        ct_jpeg_resolve_dc(frame, &coeffs);
        rc = ct_jpeg_write_file(frame, &coeffs, icc, icc_size, out);
    }
    ct_jpeg_coeffs_free(&coeffs);
    return rc;
}

/* ---- The batch: one frame per job ------------------------------------- */

typedef struct jpeg_batch {
    const ct_jpeg_frame *frame;
    const ct_jpeg_image *images;
    const uint8_t *icc;
    size_t icc_size;
    ct_jpeg_output *out;
} jpeg_batch;

static int batch_job(void *ctx, size_t job, int worker)
{
    const jpeg_batch *b = ctx;
    (void)worker;
    /* The sequential chain: a job must not run stages on its own pool. */
    return ct_jpeg_graph_run_sequential(b->frame, &b->images[job], b->icc,
                                        b->icc_size, &b->out[job]);
}

int ct_jpeg_graph_run_batch(ct_pool *pool, const ct_jpeg_frame *frame,
                            const ct_jpeg_image *images, size_t n,
                            const uint8_t *icc, size_t icc_size,
                            ct_jpeg_output *out)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = (ct_jpeg_output){ NULL, 0 };
    const jpeg_batch batch = { frame, images, icc, icc_size, out };
    const int rc = ct_stage_run(pool, n, batch_job, (void *)&batch);
    if (rc != CT_OK)
        for (size_t i = 0; i < n; ++i)
            ct_jpeg_output_free(&out[i]);
    return rc;
}
