/*
 * Where the time of the JPEG graph goes: runs the graph on one image and
 * prints each node's wall time (the median over the reps) and its share.
 *
 * usage: jpeg_stages [--threads N] [--reps N] IMAGE.ppm|pgm [cjpegli flags]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cjpegli_flags.h"
#include "cli.h"
#include "ctcore/runtime.h"
#include "jpeg/frame.h"
#include "jpeg/graph.h"
#include "jpeg/xyb.h"
#include "pnm.h"

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int threads = 0, reps = 9, i = 1;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--reps") == 0)
            reps = atoi(argv[i + 1]);
        else
            break;
    }
    if (i >= argc || reps < 1) {
        fprintf(stderr, "usage: %s [--threads N] [--reps N] IMAGE "
                        "[cjpegli flags]\n", argv[0]);
        return 2;
    }
    char err[512];
    ct_pnm_image pnm;
    if (ct_pnm_read(argv[i], &pnm, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    ct_cjpegli_flags flags;
    ct_cjpegli_flags_init(&flags);
    if (ct_cli_parse_encoder_flags(ct_cli_cjpegli_flag, &flags, i + 1, argc,
                                   argv) < 0)
        return 2;
    if (ct_cjpegli_flags_finish(&flags, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    const ct_jpeg_image image = ct_pnm_jpeg_image(&pnm);
    ct_jpeg_frame frame;
    uint8_t *icc = NULL;
    size_t icc_size = 0;
    if (ct_jpeg_setup(&frame, &flags.settings, image.width, image.height,
                      image.format, err, sizeof(err)) != CT_OK) {
        fprintf(stderr, "setup: %s\n", err);
        return 1;
    }
    ct_pool *pool = ct_pool_new(threads);
    double *runs = calloc((size_t)reps * CT_JPEG_NUM_NODES, sizeof(double));
    double *totals = calloc((size_t)reps, sizeof(double));
    double *node = calloc((size_t)reps, sizeof(double));
    if ((frame.xyb && ct_jpeg_xyb_icc(&icc, &icc_size) != CT_OK) ||
        pool == NULL || runs == NULL || totals == NULL || node == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int r = 0; r < reps; ++r) {
        double *node_seconds = runs + (size_t)r * CT_JPEG_NUM_NODES;
        ct_jpeg_graph_split split = {.node_seconds = node_seconds};
        ct_jpeg_output out = {0};
        if (ct_jpeg_graph_run(pool, &frame, &image, &split, icc, icc_size,
                              &out) != CT_OK) {
            fprintf(stderr, "encoding failed\n");
            return 1;
        }
        ct_jpeg_output_free(&out);
        for (int n = 0; n < CT_JPEG_NUM_NODES; ++n)
            totals[r] += node_seconds[n];
    }
    qsort(totals, (size_t)reps, sizeof(double), compare_doubles);
    const double total = totals[reps / 2];
    printf("%ux%u, %d workers, %s, median of %d runs: %.1f ms\n",
           image.width, image.height, ct_pool_threads(pool),
           ct_simd_name(frame.simd), reps, 1e3 * total);
    for (int n = 0; n < CT_JPEG_NUM_NODES; ++n) {
        for (int r = 0; r < reps; ++r)
            node[r] = runs[(size_t)r * CT_JPEG_NUM_NODES + (size_t)n];
        qsort(node, (size_t)reps, sizeof(double), compare_doubles);
        printf("  %-13s %8.2f ms  %5.1f %%\n",
               ct_jpeg_graph_node_name((ct_jpeg_graph_node)n),
               1e3 * node[reps / 2], 100.0 * node[reps / 2] / total);
    }
    free(node);
    free(totals);
    free(runs);
    free(icc);
    ct_pool_unref(pool);
    ct_pnm_free(&pnm);
    return 0;
}
