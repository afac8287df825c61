/*
 * The coefficient buffer, and the serial DC pass: jpegli keeps the previous
 * block's DC (of the same component, in MCU order) when the new unrounded DC
 * is closer to it than the zero-bias threshold.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/dct-inl.h (ComputeCoefficientBlock) and
 * lib/jpegli/encode_streaming.cc (ProcessiMCURow) (BSD-3-Clause, Copyright
 * the JPEG XL Project Authors).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coeffs.h"

int ct_jpeg_coeffs_alloc(ct_jpeg_coeffs *coeffs, const ct_jpeg_frame *frame)
{
    memset(coeffs, 0, sizeof(*coeffs));
    for (int c = 0; c < frame->num_components; ++c) {
        const size_t num_blocks = (size_t)frame->comp[c].width_in_blocks *
                                  (size_t)frame->comp[c].height_in_blocks;
        coeffs->blocks[c] = malloc(num_blocks * CT_DCTSIZE2 * sizeof(int16_t));
        coeffs->dc[c].value = malloc(num_blocks * sizeof(float));
        coeffs->dc[c].threshold = malloc(num_blocks * sizeof(float));
        if (coeffs->blocks[c] == NULL || coeffs->dc[c].value == NULL ||
            coeffs->dc[c].threshold == NULL) {
            ct_jpeg_coeffs_free(coeffs);
            return CT_ENOMEM;
        }
    }
    return CT_OK;
}

void ct_jpeg_coeffs_free_component(ct_jpeg_coeffs *coeffs, int c)
{
    free(coeffs->blocks[c]);
    free(coeffs->dc[c].value);
    free(coeffs->dc[c].threshold);
    coeffs->blocks[c] = NULL;
    coeffs->dc[c].value = NULL;
    coeffs->dc[c].threshold = NULL;
}

void ct_jpeg_coeffs_free(ct_jpeg_coeffs *coeffs)
{
    for (int c = 0; c < CT_JPEG_MAX_COMPONENTS; ++c)
        ct_jpeg_coeffs_free_component(coeffs, c);
}

/* std::round on a float (halves away from zero) converted to int16, for
 * |x| < 2^31: the fraction x - trunc(x) is exact. */
static int16_t round_half_away(float x)
{
    int32_t t = (int32_t)x;
    const float frac = x - (float)t;
    if (frac >= 0.5f)
        ++t;
    else if (frac <= -0.5f)
        --t;
    return (int16_t)t;
}

void ct_jpeg_resolve_dc_rows(const ct_jpeg_frame *frame,
                             ct_jpeg_coeffs *coeffs, int imcu_row0,
                             int imcu_row1,
                             int16_t last_dc[CT_JPEG_MAX_COMPONENTS])
{
    for (int c = 0; c < frame->num_components; ++c) {
        const ct_jpeg_component *comp = &frame->comp[c];
        const float *value = coeffs->dc[c].value;
        const float *threshold = coeffs->dc[c].threshold;
        int16_t last = last_dc[c];
        /* jpegli's MCU order: iMCU rows, iMCU columns, then the component's
         * blocks within the MCU; blocks past the edge are skipped. */
        for (int mcu_y = imcu_row0; mcu_y < imcu_row1; ++mcu_y) {
            for (int mcu_x = 0; mcu_x < frame->total_imcu_cols; ++mcu_x) {
                for (int iy = 0; iy < comp->v_samp; ++iy) {
                    const int by = mcu_y * comp->v_samp + iy;
                    if (by >= comp->height_in_blocks)
                        break;
                    for (int ix = 0; ix < comp->h_samp; ++ix) {
                        const int bx = mcu_x * comp->h_samp + ix;
                        if (bx >= comp->width_in_blocks)
                            break;
                        const size_t i =
                            (size_t)by * comp->width_in_blocks + bx;
                        const float dc = value[i];
                        if (!(fabsf(dc - last) < threshold[i]))
                            last = round_half_away(dc);
                        coeffs->blocks[c][i * CT_DCTSIZE2] = last;
                    }
                }
            }
        }
        last_dc[c] = last;
    }
}

void ct_jpeg_resolve_dc(const ct_jpeg_frame *frame, ct_jpeg_coeffs *coeffs)
{
    int16_t last_dc[CT_JPEG_MAX_COMPONENTS] = {0};
    ct_jpeg_resolve_dc_rows(frame, coeffs, 0, frame->total_imcu_rows, last_dc);
}
