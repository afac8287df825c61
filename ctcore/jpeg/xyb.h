/*
 * XYB mode (cjpegli --xyb): cjpegli converts the 8-bit sRGB input to linear
 * sRGB, then to scaled XYB, and hands jpegli float rows; the file carries an
 * ICC profile that maps XYB back to RGB.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_XYB_H
#define CTCORE_JPEG_XYB_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/jpeg.h"

/*
 * One image row -> the three planes jpegli's input buffer holds after
 * reading cjpegli's float rows (jpegli's ReadFloatRow scaling included).
 * in: the image row (image->format channels per pixel); out[c][x] for
 * x < xsize. simd: CT_SIMD_SSE2 or CT_SIMD_AVX2 (resolved), whose
 * multiply-add rounding the floats reproduce. Pure function of its input:
 * rows may be converted in any order.
 */
void ct_jpeg_xyb_row(const uint8_t *in, ct_pixel_format format, size_t xsize,
                     ct_simd simd, float *out[3]);

/*
 * The ICC profile cjpegli writes in XYB mode (APP2 markers), computed like
 * jpegli computes it (it carries an MD5 of itself). Returns CT_OK with
 * *icc malloc()ed (the caller frees it) and *size set, or CT_ENOMEM.
 */
int ct_jpeg_xyb_icc(uint8_t **icc, size_t *size);

#endif
