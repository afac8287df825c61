/*
 * The pixel phase for a band of iMCU rows: image rows -> float planes
 * (color transform, padding), downsampling, adaptive quantization and the
 * blocks' coefficients.
 *
 * jpegli streams rows through a ring of three iMCU rows and delays each iMCU
 * row until the next has arrived. A band instead produces the rows it needs
 * itself, context included, as functions of the image alone:
 *
 *  - plane row y (y in [0, ysize_blocks * 8)) is image row min(y, height-1)
 *    converted, with x in [width, xsize_blocks * 8] set to the last pixel and
 *    x = -1 to the first (PadInputBuffer);
 *  - adaptive quantization reads luma rows -1 and ysize_blocks * 8 as copies
 *    of the first and last rows, and pre-erosion rows -1 and
 *    2 * ysize_blocks as copies of the first and last (the CopyRow calls of
 *    ComputeAdaptiveQuantField); clamping the row index gives the same
 *    values.
 *
 * Block row yb's quant field reads pre-erosion rows 2yb-1 .. 2yb+2, which
 * read luma rows 8yb-5 .. 8yb+12: the band starts 5 rows above its first
 * iMCU row and ends 5 rows below its last.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/encode.cc (ReadInputRow, PadInputBuffer,
 * ProcessiMCURow), lib/jpegli/downsample.cc (DownsampleInputBuffer),
 * lib/jpegli/adaptive_quantization.cc (ComputeAdaptiveQuantField) and
 * lib/jpegli/encode_streaming.cc (ProcessiMCURow) (BSD-3-Clause, Copyright
 * the JPEG XL Project Authors).
 */
#include <stdlib.h>
#include <string.h>

#include "pixel_dsp.h"
#include "pixels.h"
#include "xyb.h"

/* Floats left of x = 0 in every row buffer (x = -1 must exist; 16 keeps
 * x = 0 on a 64-byte boundary), and spare floats right of the last one. */
#define ROW_MARGIN 16
#define ROW_ALIGN 16

/* Luma rows above and below an iMCU row that adaptive quantization reads. */
#define AQ_CONTEXT_ROWS 5

struct ct_jpeg_pixel_scratch {
    ct_jpeg_pixel_dsp dsp;
    /* Plane rows: row y of plane c at plane_row(s, c, y). Three iMCU rows,
     * so that the rows of an iMCU row are contiguous and the context rows
     * above and below fit. */
    int ring_rows;
    size_t ring_stride;
    float *ring[CT_JPEG_MAX_COMPONENTS];
    /* The current iMCU row of each downsampled component. */
    size_t down_stride;
    float *down[CT_JPEG_MAX_COMPONENTS];
    /* Adaptive quantization: pre-erosion rows 2yb0-1 .. 2(yb0+max_v) of
     * the current iMCU row (row p at slot p + 1), and its quant field. */
    int pre_rows;
    size_t pre_stride;
    float *pre;
    size_t qf_stride;
    float *qf;
    void *memory;
};

static size_t round_up(size_t n, size_t multiple)
{
    return (n + multiple - 1) / multiple * multiple;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

static int clamp_int(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Row stride for rows readable at x = -1 .. n. */
static size_t row_stride(size_t n)
{
    return ROW_MARGIN + round_up(n + 1, ROW_ALIGN) + ROW_MARGIN;
}

static int is_full_resolution(const ct_jpeg_component *comp)
{
    return comp->h_factor == 1 && comp->v_factor == 1;
}

ct_jpeg_pixel_scratch *ct_jpeg_pixel_scratch_new(const ct_jpeg_frame *frame)
{
    ct_jpeg_pixel_scratch *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return NULL;
    ct_jpeg_pixel_dsp_init(&s->dsp, frame->simd);

    const size_t padded_width = (size_t)frame->xsize_blocks * CT_DCTSIZE;
    s->ring_rows = 3 * CT_DCTSIZE * frame->max_v_samp;
    s->ring_stride = row_stride(padded_width);
    s->down_stride = row_stride(padded_width);
    const int down_rows = CT_DCTSIZE * frame->max_v_samp;
    const int y_wib = frame->comp[frame->y_channel].width_in_blocks;
    s->pre_rows = 2 * frame->max_v_samp + 2;
    s->pre_stride = row_stride(2 * (size_t)y_wib);
    s->qf_stride = round_up((size_t)y_wib, ROW_ALIGN);

    size_t total = 0;
    for (int c = 0; c < frame->num_components; ++c) {
        total += (size_t)s->ring_rows * s->ring_stride;
        if (!is_full_resolution(&frame->comp[c]))
            total += (size_t)down_rows * s->down_stride;
    }
    if (frame->use_adaptive_quantization) {
        total += (size_t)s->pre_rows * s->pre_stride;
        total += (size_t)frame->max_v_samp * s->qf_stride;
    }
    const size_t bytes = round_up(total * sizeof(float), 64);
    float *mem = aligned_alloc(64, bytes);
    if (mem == NULL) {
        free(s);
        return NULL;
    }
    /* Every float a kernel reads is written first; the margins are zeroed
     * so that no byte of the scratch is ever undefined. */
    memset(mem, 0, bytes);
    s->memory = mem;
    for (int c = 0; c < frame->num_components; ++c) {
        s->ring[c] = mem + ROW_MARGIN;
        mem += (size_t)s->ring_rows * s->ring_stride;
        if (!is_full_resolution(&frame->comp[c])) {
            s->down[c] = mem + ROW_MARGIN;
            mem += (size_t)down_rows * s->down_stride;
        }
    }
    if (frame->use_adaptive_quantization) {
        s->pre = mem + ROW_MARGIN;
        mem += (size_t)s->pre_rows * s->pre_stride;
        s->qf = mem;
    }
    return s;
}

void ct_jpeg_pixel_scratch_free(ct_jpeg_pixel_scratch *scratch)
{
    if (scratch == NULL)
        return;
    free(scratch->memory);
    free(scratch);
}

static float *plane_row(const ct_jpeg_pixel_scratch *s, int c, int y)
{
    return s->ring[c] + (size_t)(y % s->ring_rows) * s->ring_stride;
}

static float *pre_erosion_row(const ct_jpeg_pixel_scratch *s, int p)
{
    return s->pre + (size_t)((p + 1) % s->pre_rows) * s->pre_stride;
}

/* ReadInputRow, the color transform and PadInputBuffer for plane row y. */
static void produce_row(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        ct_jpeg_pixel_scratch *s, int y)
{
    const int src_y = min_int(y, (int)frame->height - 1);
    const uint8_t *in = image->pixels + (size_t)src_y * image->stride;
    const size_t width = frame->width;
    const size_t padded_width = (size_t)frame->xsize_blocks * CT_DCTSIZE;
    float *rows[CT_JPEG_MAX_COMPONENTS] = {NULL};
    for (int c = 0; c < frame->num_components; ++c)
        rows[c] = plane_row(s, c, y);

    if (frame->xyb)
        ct_jpeg_xyb_row(in, image->format, width, frame->simd, rows);
    else if (frame->num_components == 1)
        s->dsp.gray8_to_float(in, width, rows[0]);
    else
        s->dsp.rgb8_to_ycbcr(in, width, rows[0], rows[1], rows[2]);

    for (int c = 0; c < frame->num_components; ++c) {
        float *row = rows[c];
        const float last = row[width - 1];
        for (size_t x = width; x <= padded_width; ++x)
            row[x] = last;
        row[-1] = row[0];
    }
}

/* ComputePreErosion's output row p, with its border of one repeated value
 * on each side (PadRow). */
static void compute_pre_erosion_row(const ct_jpeg_frame *frame,
                                    ct_jpeg_pixel_scratch *s, int p)
{
    const int last_plane_row = frame->ysize_blocks * CT_DCTSIZE - 1;
    const int q = clamp_int(p, 0, 2 * frame->ysize_blocks - 1);
    const ct_jpeg_component *luma = &frame->comp[frame->y_channel];
    const size_t n_out = 2 * (size_t)luma->width_in_blocks;
    const float *rows[6];
    for (int i = 0; i < 6; ++i) {
        const int y = clamp_int(4 * q - 1 + i, 0, last_plane_row);
        rows[i] = plane_row(s, frame->y_channel, y);
    }
    float *out = pre_erosion_row(s, p);
    s->dsp.pre_erosion(rows, n_out, out);
    out[-1] = out[0];
    out[n_out] = out[n_out - 1];
}

/* ComputeAdaptiveQuantField for iMCU row r: the quant field rows of its
 * luma block rows. *next_pre: the first pre-erosion row not yet computed. */
static void compute_quant_field(const ct_jpeg_frame *frame,
                                ct_jpeg_pixel_scratch *s, int r, int *next_pre)
{
    const int yb0 = r * frame->max_v_samp;
    const int last_pre = 2 * (yb0 + frame->max_v_samp);
    for (; *next_pre <= last_pre; ++*next_pre)
        compute_pre_erosion_row(frame, s, *next_pre);

    const size_t nblocks = frame->comp[frame->y_channel].width_in_blocks;
    for (int iy = 0; iy < frame->max_v_samp; ++iy) {
        const int yb = yb0 + iy;
        const float *pre[4];
        for (int i = 0; i < 4; ++i)
            pre[i] = pre_erosion_row(s, 2 * yb - 1 + i);
        float *qf = s->qf + (size_t)iy * s->qf_stride;
        s->dsp.fuzzy_erosion(pre, nblocks, qf);
        const float *luma_rows =
            plane_row(s, frame->y_channel, CT_DCTSIZE * yb);
        s->dsp.block_modulations(luma_rows, (ptrdiff_t)s->ring_stride,
                                 nblocks, frame->y_quant_01, qf);
    }
}

/* DownsampleInputBuffer for iMCU row r and component c. */
static void downsample(const ct_jpeg_frame *frame, ct_jpeg_pixel_scratch *s,
                       int r, int c)
{
    const ct_jpeg_component *comp = &frame->comp[c];
    const int y0 = r * CT_DCTSIZE * frame->max_v_samp;
    const size_t n_out = (size_t)comp->width_in_blocks * CT_DCTSIZE;
    for (int j = 0; j < CT_DCTSIZE * comp->v_samp; ++j) {
        const int y_in = y0 + j * comp->v_factor;
        const float *in0 = plane_row(s, c, y_in);
        float *out = s->down[c] + (size_t)j * s->down_stride;
        if (comp->v_factor == 1) {
            s->dsp.downsample_2x1(in0, n_out, out);
        } else {
            const float *in1 = plane_row(s, c, y_in + 1);
            if (comp->h_factor == 1)
                s->dsp.downsample_1x2(in0, in1, n_out, out);
            else
                s->dsp.downsample_2x2(in0, in1, n_out, out);
        }
    }
}

/* ProcessiMCURow (coefficient mode) for component c of iMCU row r. */
static void compute_blocks(const ct_jpeg_frame *frame, ct_jpeg_pixel_scratch *s,
                           int r, int c, ct_jpeg_coeffs *coeffs)
{
    const ct_jpeg_component *comp = &frame->comp[c];
    const int full = is_full_resolution(comp);
    const size_t stride = full ? s->ring_stride : s->down_stride;
    for (int iy = 0; iy < comp->v_samp; ++iy) {
        const int by = r * comp->v_samp + iy;
        if (by >= comp->height_in_blocks)
            break;
        const float *pixels =
            full ? plane_row(s, c, by * CT_DCTSIZE)
                 : s->down[c] + (size_t)iy * CT_DCTSIZE * s->down_stride;
        /* Every component reads the luma field at its own block row within
         * the iMCU and at column bx * h_factor, as jpegli does. */
        const float *aq = frame->use_adaptive_quantization
                              ? s->qf + (size_t)iy * s->qf_stride
                              : NULL;
        const size_t first = (size_t)by * comp->width_in_blocks;
        s->dsp.dct_quant_row(pixels, (ptrdiff_t)stride,
                             (size_t)comp->width_in_blocks,
                             frame->quant_mul[c], frame->zero_bias_offset[c],
                             frame->zero_bias_mul[c], aq,
                             (size_t)comp->h_factor,
                             ct_jpeg_block(coeffs, frame, c, by, 0),
                             coeffs->dc[c].value + first,
                             coeffs->dc[c].threshold + first);
    }
}

void ct_jpeg_pixel_band(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        int imcu_row0, int imcu_row1, ct_jpeg_coeffs *coeffs,
                        ct_jpeg_pixel_scratch *scratch)
{
    const int imcu_height = CT_DCTSIZE * frame->max_v_samp;
    const int plane_rows = frame->ysize_blocks * CT_DCTSIZE;
    const int context =
        frame->use_adaptive_quantization ? AQ_CONTEXT_ROWS : 0;
    int next_row = max_int(0, imcu_row0 * imcu_height - context);
    int next_pre = 2 * imcu_row0 * frame->max_v_samp - 1;
    for (int r = imcu_row0; r < imcu_row1; ++r) {
        const int row_end =
            min_int((r + 1) * imcu_height + context, plane_rows);
        for (; next_row < row_end; ++next_row)
            produce_row(frame, image, scratch, next_row);
        if (frame->use_adaptive_quantization)
            compute_quant_field(frame, scratch, r, &next_pre);
        for (int c = 0; c < frame->num_components; ++c) {
            if (!is_full_resolution(&frame->comp[c]))
                downsample(frame, scratch, r, c);
            compute_blocks(frame, scratch, r, c, coeffs);
        }
    }
}
