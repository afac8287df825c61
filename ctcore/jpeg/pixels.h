/*
 * The pixel phase: image pixels -> quantized coefficients, for a tile of
 * iMCU rows x iMCU columns. A tile computes its own context (the pixels
 * above, below, left and right of it that adaptive quantization looks at),
 * so tiles are independent of each other.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_PIXELS_H
#define CTCORE_JPEG_PIXELS_H

#include "coeffs.h"
#include "frame.h"

/* Per-worker scratch memory of the pixel phase (row buffers for a tile, its
 * context, adaptive quantization and DCT). Its size grows with the tile
 * width, not the image width: narrow tiles keep a worker's working set in
 * its cache. */
typedef struct ct_jpeg_pixel_scratch ct_jpeg_pixel_scratch;

/*
 * Scratch for tiles of at most max_tile_imcu_cols iMCU columns (>= 1;
 * values above frame->total_imcu_cols mean whole rows). Returns NULL when
 * out of memory.
 */
ct_jpeg_pixel_scratch *ct_jpeg_pixel_scratch_new(const ct_jpeg_frame *frame,
                                                 int max_tile_imcu_cols);
void ct_jpeg_pixel_scratch_free(ct_jpeg_pixel_scratch *scratch);

/*
 * The number of iMCU columns of a strip about strip_width pixels wide
 * (at least 1, at most frame->total_imcu_cols): the image width divided
 * into the nearest number of strips, rounded up to a multiple of 64
 * pixels. Whole rows for images narrower than about 1.5 strips.
 */
int ct_jpeg_pixel_strip_imcu_cols(const ct_jpeg_frame *frame,
                                  int strip_width);

/*
 * Computes the blocks of iMCU rows [imcu_row0, imcu_row1) x iMCU columns
 * [imcu_col0, imcu_col1) of every component: AC coefficients into
 * coeffs->blocks, DC into the DC plane. Reads the image pixels it needs,
 * including context outside the tile, so any split of the image into tiles
 * gives the same coefficients; tiles may run concurrently, each with its
 * own scratch. imcu_col1 - imcu_col0 must not exceed the scratch's
 * max_tile_imcu_cols. Downsampling factors are 1 or 2 in each direction
 * (all that cjpegli's settings produce).
 */
void ct_jpeg_pixel_tile(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        int imcu_row0, int imcu_row1, int imcu_col0,
                        int imcu_col1, ct_jpeg_coeffs *coeffs,
                        ct_jpeg_pixel_scratch *scratch);

/* The tile of whole rows: iMCU rows [imcu_row0, imcu_row1), all columns;
 * the scratch must serve whole rows. */
void ct_jpeg_pixel_band(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        int imcu_row0, int imcu_row1, ct_jpeg_coeffs *coeffs,
                        ct_jpeg_pixel_scratch *scratch);

/* The whole image as one band, with a scratch of its own (the sequential
 * chain). Returns CT_OK or CT_ENOMEM. */
int ct_jpeg_pixel_image(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        ct_jpeg_coeffs *coeffs);

#endif
