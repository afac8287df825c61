/*
 * The pixel phase: image rows -> quantized coefficients, for a band of iMCU
 * rows. A band computes its own context rows (the rows above and below that
 * adaptive quantization looks at), so bands are independent of each other.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_PIXELS_H
#define CTCORE_JPEG_PIXELS_H

#include "coeffs.h"
#include "frame.h"

/* Per-worker scratch memory of the pixel phase (row buffers for the band,
 * its context rows, adaptive quantization and DCT). */
typedef struct ct_jpeg_pixel_scratch ct_jpeg_pixel_scratch;

ct_jpeg_pixel_scratch *ct_jpeg_pixel_scratch_new(const ct_jpeg_frame *frame);
void ct_jpeg_pixel_scratch_free(ct_jpeg_pixel_scratch *scratch);

/*
 * Computes the blocks of iMCU rows [imcu_row0, imcu_row1) of every
 * component: AC coefficients into coeffs->blocks, DC into the DC plane.
 * Reads image rows as needed, including context rows outside the band, so
 * any split of the image into bands gives the same coefficients; bands may
 * run concurrently, each with its own scratch. Downsampling factors are 1
 * or 2 in each direction (all that cjpegli's settings produce).
 */
void ct_jpeg_pixel_band(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        int imcu_row0, int imcu_row1, ct_jpeg_coeffs *coeffs,
                        ct_jpeg_pixel_scratch *scratch);

#endif
