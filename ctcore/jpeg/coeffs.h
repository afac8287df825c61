/*
 * The coefficient buffer: the edge between the pixel phase and the entropy
 * coder. Quantized coefficients per component, one block of 64 int16 per
 * 8x8 block, blocks in raster order within the component, coefficients in
 * zigzag order (as jpegli's coefficient buffer after its zigzag shuffle).
 *
 * The DC coefficient depends on the previous block's DC (jpegli keeps the
 * last DC when the new one is within the zero-bias threshold), a serial
 * chain through the image. So the pixel phase leaves it open: it stores the
 * unrounded DC and its threshold in the DC plane, and ct_jpeg_resolve_dc()
 * walks the blocks in MCU order and writes coefficient 0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_COEFFS_H
#define CTCORE_JPEG_COEFFS_H

#include <stdint.h>

#include "frame.h"

typedef struct ct_jpeg_dc_plane {
    float *value;      /* (dct[0] - 128) * quant_mul[0], per block */
    float *threshold;  /* zero_bias_offset[0] + aq * zero_bias_mul[0] */
} ct_jpeg_dc_plane;

typedef struct ct_jpeg_coeffs {
    int16_t *blocks[CT_JPEG_MAX_COMPONENTS]; /* width*height_in_blocks*64 */
    ct_jpeg_dc_plane dc[CT_JPEG_MAX_COMPONENTS];
} ct_jpeg_coeffs;

int ct_jpeg_coeffs_alloc(ct_jpeg_coeffs *coeffs, const ct_jpeg_frame *frame);
void ct_jpeg_coeffs_free(ct_jpeg_coeffs *coeffs);
/* Frees component c only (the graph frees components as side jobs). */
void ct_jpeg_coeffs_free_component(ct_jpeg_coeffs *coeffs, int c);

static inline int16_t *ct_jpeg_block(const ct_jpeg_coeffs *coeffs,
                                     const ct_jpeg_frame *frame, int c,
                                     int by, int bx)
{
    return coeffs->blocks[c] +
           ((size_t)by * frame->comp[c].width_in_blocks + bx) * CT_DCTSIZE2;
}

/* Serial pass over all blocks in MCU order: coefficient 0 of every block. */
void ct_jpeg_resolve_dc(const ct_jpeg_frame *frame, ct_jpeg_coeffs *coeffs);

/*
 * The same pass over iMCU rows [imcu_row0, imcu_row1) only, continuing
 * from last_dc (per component; all 0 before iMCU row 0) and leaving it
 * updated. Calls for consecutive ranges, in order, equal one
 * ct_jpeg_resolve_dc; so a band's DC can be resolved as soon as the bands
 * above it are, while its blocks are still in cache.
 */
void ct_jpeg_resolve_dc_rows(const ct_jpeg_frame *frame,
                             ct_jpeg_coeffs *coeffs, int imcu_row0,
                             int imcu_row1,
                             int16_t last_dc[CT_JPEG_MAX_COMPONENTS]);

#endif
