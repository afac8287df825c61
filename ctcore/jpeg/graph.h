/*
 * The JPEG encoder's task graph (graph.c) and its sequential twin.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_GRAPH_H
#define CTCORE_JPEG_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/runtime.h"
#include "entropy_stages.h"
#include "frame.h"

/* The nodes of the graph, in data-flow order. */
typedef enum ct_jpeg_graph_node {
    CT_JPEG_NODE_PIXEL,
    CT_JPEG_NODE_RESOLVE_DC,
    CT_JPEG_NODE_TOKENIZE,
    CT_JPEG_NODE_STITCH,
    CT_JPEG_NODE_HUFFMAN,
    CT_JPEG_NODE_COUNT,
    CT_JPEG_NODE_PLACE_CURSORS,
    CT_JPEG_NODE_WRITE,
    CT_JPEG_NODE_SPLICE,
    CT_JPEG_NODE_ASSEMBLE,
    CT_JPEG_NODE_RELEASE,
    CT_JPEG_NUM_NODES
} ct_jpeg_graph_node;

/* "Pixel", "ResolveDC", ... */
const char *ct_jpeg_graph_node_name(ct_jpeg_graph_node node);

/* How the graph cuts the image: 0 everywhere picks sizes for the pool;
 * tests force extreme splits. */
typedef struct ct_jpeg_graph_split {
    int band_imcu_rows;   /* Pixel: iMCU rows per tile (0: auto) */
    int strip_width;      /* Pixel: pixel columns per tile (0: 1024) */
    ct_jpeg_entropy_split entropy; /* workers 0: auto */
    /* When not NULL: the wall time each node took, added per run (a trace
     * for bench/jpeg_stages). */
    double *node_seconds;
} ct_jpeg_graph_split;

/*
 * Encodes the image of a frame that setup has decided. With a pool of more
 * than one worker the stages of graph.c run on it; with one worker (or a
 * NULL pool) the plain function chain runs on the calling thread. icc: the
 * APP2 profile or NULL. Returns CT_OK or a CT_E* code (out empty).
 */
int ct_jpeg_graph_run(ct_pool *pool, const ct_jpeg_frame *frame,
                      const ct_jpeg_image *image,
                      const ct_jpeg_graph_split *split, const uint8_t *icc,
                      size_t icc_size, ct_jpeg_output *out);

/* The sequential chain: setup's frame -> bytes, on the calling thread. */
int ct_jpeg_graph_run_sequential(const ct_jpeg_frame *frame,
                                 const ct_jpeg_image *image,
                                 const uint8_t *icc, size_t icc_size,
                                 ct_jpeg_output *out);

/*
 * Encodes n images of one frame, several at a time: each runs the
 * sequential chain on one worker of the pool. Returns CT_OK with every
 * out[i] filled, or a CT_E* code with every out[i] empty.
 */
int ct_jpeg_graph_run_batch(ct_pool *pool, const ct_jpeg_frame *frame,
                            const ct_jpeg_image *images, size_t n,
                            const uint8_t *icc, size_t icc_size,
                            ct_jpeg_output *out);

#endif
