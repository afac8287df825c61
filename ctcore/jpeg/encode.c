/*
 * ct_jpeg_encode: checks the request, lets setup decide the frame, and runs
 * the graph (graph.c) on the pool, or its sequential chain without one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"
#include "frame.h"
#include "graph.h"
#include "xyb.h"

void ct_jpeg_settings_default(ct_jpeg_settings *settings)
{
    if (settings == NULL)
        return;
    memset(settings, 0, sizeof(*settings));
    settings->quality = 90;
    settings->distance = -1.0f;
    settings->progressive_level = 2;
    settings->chroma_subsampling = CT_JPEG_SUBSAMPLING_DEFAULT;
    settings->adaptive_quantization = 1;
    settings->std_quant = 0;
    settings->xyb = 0;
    settings->fixed_code = 0;
    settings->simd = CT_SIMD_AUTO;
}

void ct_jpeg_output_free(ct_jpeg_output *out)
{
    if (out == NULL)
        return;
    free(out->data);
    out->data = NULL;
    out->size = 0;
}

int ct_jpeg_encode(ct_pool *pool, const ct_jpeg_settings *settings,
                   const ct_jpeg_image *image, ct_jpeg_output *out,
                   char *errbuf, size_t errbuf_size)
{
    if (out == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no output (NULL)");
    out->data = NULL;
    out->size = 0;
    if (settings == NULL || image == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no settings or no image (NULL)");
    int rc = ct_jpeg_check_pixels(image, errbuf, errbuf_size);
    if (rc != CT_OK)
        return rc;

    ct_jpeg_frame frame;
    rc = ct_jpeg_setup(&frame, settings, image->width, image->height,
                       image->format, errbuf, errbuf_size);
    if (rc != CT_OK)
        return rc;

    uint8_t *icc = NULL;
    size_t icc_size = 0;
    if (frame.xyb)
        rc = ct_jpeg_xyb_icc(&icc, &icc_size);
    if (rc == CT_OK)
        rc = ct_jpeg_graph_run(pool, &frame, image, NULL, icc, icc_size, out);
    free(icc);
    if (rc != CT_OK) {
        ct_jpeg_output_free(out);
        return ct_errbuf_set(errbuf, errbuf_size, rc, "encoding failed: %s",
                             ct_strerror(rc));
    }
    return CT_OK;
}
