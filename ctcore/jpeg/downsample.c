/*
 * Chroma downsampling by box averages, for the factors cjpegli's sampling
 * choices produce (2x1, 1x2, 2x2). Lane-wise in jpegli, so the same on
 * every target.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/downsample.cc (BSD-3-Clause, Copyright the
 * JPEG XL Project Authors).
 */
#include "pixel_dsp.h"

/* Downsample2x1 (DownsampleRow2x1). */
void ct_jpeg_downsample_2x1_c(const float *in, size_t n_out, float *out)
{
    for (size_t x = 0; x < n_out; ++x)
        out[x] = 0.5f * (in[2 * x] + in[2 * x + 1]);
}

/* Downsample1x2. */
void ct_jpeg_downsample_1x2_c(const float *in0, const float *in1,
                              size_t n_out, float *out)
{
    for (size_t x = 0; x < n_out; ++x)
        out[x] = 0.5f * (in0[x] + in1[x]);
}

/* Downsample2x2: the pairs of each row first, then the rows. */
void ct_jpeg_downsample_2x2_c(const float *in0, const float *in1,
                              size_t n_out, float *out)
{
    for (size_t x = 0; x < n_out; ++x) {
        out[x] = 0.25f * ((in0[2 * x] + in0[2 * x + 1]) +
                          (in1[2 * x] + in1[2 * x + 1]));
    }
}
