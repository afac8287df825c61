/*
 * ct_jpeg_encode: the sequential chain of the JPEG encoder. Setup decides
 * the frame, the pixel phase fills the coefficients for all iMCU rows, the
 * DC chain is resolved, and the entropy coder writes the file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coeffs.h"
#include "entropy.h"
#include "errbuf.h"
#include "frame.h"
#include "pixels.h"
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

/* The checks setup cannot do: the pixel buffer itself. */
static int validate_image(const ct_jpeg_image *image, char *errbuf,
                          size_t errbuf_size)
{
    if (image->format != CT_PIXEL_GRAY8 && image->format != CT_PIXEL_RGB8)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "unknown pixel format %d", (int)image->format);
    if (image->pixels == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "image has no pixels (NULL)");
    const size_t channels = (size_t)image->format;
    if (image->width > 0 && image->stride / channels < image->width)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "stride %zu is less than width %u x %zu "
                             "channels",
                             image->stride, (unsigned)image->width, channels);
    return CT_OK;
}

/* The pixel phase over the whole image as one band, then the DC chain. */
static int compute_coefficients(const ct_jpeg_frame *frame,
                                const ct_jpeg_image *image,
                                ct_jpeg_coeffs *coeffs)
{
    ct_jpeg_pixel_scratch *scratch = ct_jpeg_pixel_scratch_new(frame);
    if (scratch == NULL)
        return CT_ENOMEM;
    ct_jpeg_pixel_band(frame, image, 0, frame->total_imcu_rows, coeffs,
                       scratch);
    ct_jpeg_pixel_scratch_free(scratch);
    ct_jpeg_resolve_dc(frame, coeffs);
    return CT_OK;
}

int ct_jpeg_encode(ct_pool *pool, const ct_jpeg_settings *settings,
                   const ct_jpeg_image *image, ct_jpeg_output *out,
                   char *errbuf, size_t errbuf_size)
{
    /* The sequential path: every phase runs on the calling thread. */
    (void)pool;
    if (out == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no output (NULL)");
    out->data = NULL;
    out->size = 0;
    if (settings == NULL || image == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no settings or no image (NULL)");
    int rc = validate_image(image, errbuf, errbuf_size);
    if (rc != CT_OK)
        return rc;

    ct_jpeg_frame frame;
    rc = ct_jpeg_setup(&frame, settings, image->width, image->height,
                       (int)image->format, errbuf, errbuf_size);
    if (rc != CT_OK)
        return rc;

    ct_jpeg_coeffs coeffs;
    memset(&coeffs, 0, sizeof(coeffs));
    rc = ct_jpeg_coeffs_alloc(&coeffs, &frame);
    if (rc == CT_OK)
        rc = compute_coefficients(&frame, image, &coeffs);
    if (rc == CT_OK) {
        uint8_t *icc = NULL;
        size_t icc_size = 0;
        if (frame.xyb)
            rc = ct_jpeg_xyb_icc(&icc, &icc_size);
        if (rc == CT_OK)
            rc = ct_jpeg_write_file(&frame, &coeffs, icc, icc_size, out);
        free(icc);
    }
    ct_jpeg_coeffs_free(&coeffs);
    if (rc != CT_OK) {
        ct_jpeg_output_free(out);
        return ct_errbuf_set(errbuf, errbuf_size, rc, "encoding failed: %s",
                             ct_strerror(rc));
    }
    return CT_OK;
}
