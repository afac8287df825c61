/*
 * The pixel phase for a tile of iMCU rows x iMCU columns: image pixels ->
 * float planes (color transform, padding), downsampling, adaptive
 * quantization and the blocks' coefficients.
 *
 * jpegli streams whole rows through a ring of three iMCU rows and delays
 * each iMCU row until the next has arrived. A tile instead produces the
 * pixels it needs itself, context included, as functions of the image
 * alone:
 *
 *  - plane row y (y in [0, ysize_blocks * 8)) is image row min(y, height-1)
 *    converted; at x >= width it holds the last pixel and at x = -1 the
 *    first (PadInputBuffer fills x from width to the iMCU grid's width,
 *    and -1), which is the converted pixel min(max(x, 0), width - 1): the
 *    color transforms work pixel by pixel;
 *  - adaptive quantization reads luma rows -1 and ysize_blocks * 8 as copies
 *    of the first and last rows, and pre-erosion rows -1 and
 *    2 * ysize_blocks as copies of the first and last (the CopyRow calls of
 *    ComputeAdaptiveQuantField); clamping the row index gives the same
 *    values;
 *  - pre-erosion column -1 is a copy of column 0, and column
 *    2 * width_in_blocks (luma) a copy of the column before it: PadRow's
 *    border of one value on each side. (PadRow fills on to the row's vector
 *    padding too, but FuzzyErosion works lane by lane, so only column
 *    2 * width_in_blocks reaches a block the image has.) Clamping the
 *    pre-erosion column gives these values; it is not the same as clamping
 *    the luma column, so the tile computes pre-erosion only at real columns
 *    and copies the border as PadRow does.
 *
 * Vertically: block row yb's quant field reads pre-erosion rows 2yb-1 ..
 * 2yb+2, which read luma rows 8yb-5 .. 8yb+12: a tile starts 5 rows above
 * its first iMCU row and ends 5 rows below its last. Horizontally the same
 * holds for columns, but the pre-erosion kernels produce pairs of columns
 * (2 per block), so a tile computes pre-erosion columns 2bx0-2 .. 2bx1+1
 * for luma blocks [bx0, bx1) (within the image), which read luma columns
 * 8bx0-9 .. 8bx1+8.
 *
 * YCbCr layouts (jpegli_write_raw_data) skip the color transform and the
 * downsampling: each component is read at its own resolution, the luma and
 * full-resolution components into the plane rows as above, the subsampled
 * chroma straight into the iMCU row buffer that downsampling fills for RGB
 * input. The reference's caller pads each plane by repeating its last
 * column to the component's width in blocks and its last row to the end
 * of the last iMCU row, and jpegli's PadRow adds the border of one; the
 * clamped reads here give the same samples.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/encode.cc (ReadInputRow, PadInputBuffer,
 * jpegli_write_raw_data, ProcessiMCURow), lib/jpegli/downsample.cc
 * (DownsampleInputBuffer), lib/jpegli/adaptive_quantization.cc
 * (ComputeAdaptiveQuantField) and lib/jpegli/encode_streaming.cc
 * (ProcessiMCURow) (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <stdlib.h>
#include <string.h>

#include "common/intmath.h"
#include "pixel_dsp.h"
#include "pixels.h"
#include "xyb.h"
#include "yuv_layout.h"

/* Spare floats left and right of every row buffer: the context columns of
 * a tile and the kernels' reads one past a row live there (16 keeps x = 0
 * on a 64-byte boundary). */
#define ROW_MARGIN 16
#define ROW_ALIGN 16

/* Luma rows above and below an iMCU row that adaptive quantization reads. */
#define AQ_CONTEXT_ROWS 5
/* Luma columns left and right of a tile that adaptive quantization reads:
 * 5 for the values it uses, 9 for the extra pre-erosion column of each end
 * pair (see above), which no block uses but which is then computed from
 * converted pixels like every other. */
#define AQ_CONTEXT_COLS 9
/* Pre-erosion columns left and right of a tile's blocks: one pair. */
#define AQ_CONTEXT_PRE_COLS 2

struct ct_jpeg_pixel_scratch {
    ct_jpeg_pixel_dsp dsp;
    /* Plane rows: row y of plane c at plane_row(s, c, y), x = 0 at the
     * tile's first column. Three iMCU rows, so that the rows of an iMCU row
     * are contiguous and the context rows above and below fit. */
    int ring_rows;
    size_t ring_stride;
    float *ring[CT_JPEG_MAX_COMPONENTS];
    /* The current iMCU row of each downsampled component, x = 0 at the
     * tile's first column. */
    size_t down_stride;
    float *down[CT_JPEG_MAX_COMPONENTS];
    /* Adaptive quantization: pre-erosion rows 2yb0-1 .. 2(yb0+max_v) of
     * the current iMCU row (row p at slot p + 1), x = 0 at the tile's first
     * pre-erosion column, and its quant field, x = 0 at the tile's first
     * luma block. */
    int pre_rows;
    size_t pre_stride;
    float *pre;
    size_t qf_stride;
    float *qf;
    /* The tile's columns of one image row as packed RGB, for the layouts
     * that are not (NULL for RGB and gray images). */
    uint8_t *rgb_row;
    /* One component's samples of a row, for the YCbCr layouts that
     * interleave them (NULL for the others). */
    uint8_t *yuv_row;
    void *memory;
};

/* The columns of a tile. */
typedef struct tile_columns {
    int imcu_col0, imcu_col1;
    /* Plane columns [x0, x1) hold the tile's blocks; [produce0, produce1)
     * are the columns it converts, context included. */
    int x0, x1;
    int produce0, produce1;
    /* Luma blocks [luma_bx0, luma_bx1) of the tile, for adaptive
     * quantization; the luma plane can end before the last iMCU does. */
    int luma_bx0, luma_bx1;
} tile_columns;

static size_t round_up(size_t n, size_t multiple)
{
    return (n + multiple - 1) / multiple * multiple;
}

static int clamp_int(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Row stride for rows of n floats with ROW_MARGIN spare floats on each
 * side. */
static size_t row_stride(size_t n)
{
    return ROW_MARGIN + round_up(n, ROW_ALIGN) + ROW_MARGIN;
}

static int is_full_resolution(const ct_jpeg_component *comp)
{
    return comp->h_factor == 1 && comp->v_factor == 1;
}

/* The components whose rows go through the plane rows: all of them, but
 * the subsampled chroma of a YCbCr layout, which is read at its own
 * resolution. */
static int uses_plane_rows(const ct_jpeg_frame *frame, int c)
{
    return !frame->yuv || is_full_resolution(&frame->comp[c]);
}

static int imcu_width(const ct_jpeg_frame *frame)
{
    return CT_DCTSIZE * frame->max_h_samp;
}

ct_jpeg_pixel_scratch *ct_jpeg_pixel_scratch_new(const ct_jpeg_frame *frame,
                                                 int max_tile_imcu_cols)
{
    ct_jpeg_pixel_scratch *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return NULL;
    ct_jpeg_pixel_dsp_init(&s->dsp, frame->simd, frame->cpu_flags);

    const int tile_cols =
        clamp_int(max_tile_imcu_cols, 1, frame->total_imcu_cols);
    const size_t tile_width = (size_t)tile_cols * imcu_width(frame);
    const int context =
        frame->use_adaptive_quantization ? AQ_CONTEXT_COLS : 0;
    s->ring_rows = 3 * CT_DCTSIZE * frame->max_v_samp;
    s->ring_stride = row_stride(tile_width + context);
    s->down_stride = row_stride(tile_width);
    const int down_rows = CT_DCTSIZE * frame->max_v_samp;
    const size_t luma_blocks = (size_t)tile_cols * frame->max_h_samp;
    s->pre_rows = 2 * frame->max_v_samp + 2;
    s->pre_stride = row_stride(2 * luma_blocks + AQ_CONTEXT_PRE_COLS);
    s->qf_stride = round_up(luma_blocks, ROW_ALIGN);

    size_t total = 0;
    for (int c = 0; c < frame->num_components; ++c) {
        if (uses_plane_rows(frame, c))
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
        if (uses_plane_rows(frame, c)) {
            s->ring[c] = mem + ROW_MARGIN;
            mem += (size_t)s->ring_rows * s->ring_stride;
        }
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
    if (frame->yuv) {
        if (ct_jpeg_yuv_needs_gather(frame->format)) {
            s->yuv_row = malloc(tile_width + 2 * (size_t)context);
            if (s->yuv_row == NULL) {
                ct_jpeg_pixel_scratch_free(s);
                return NULL;
            }
        }
    } else if (frame->format != CT_PIXEL_RGB8 &&
               frame->format != CT_PIXEL_GRAY8) {
        s->rgb_row = malloc(3 * (tile_width + 2 * (size_t)context));
        if (s->rgb_row == NULL) {
            ct_jpeg_pixel_scratch_free(s);
            return NULL;
        }
    }
    return s;
}

void ct_jpeg_pixel_scratch_free(ct_jpeg_pixel_scratch *scratch)
{
    if (scratch == NULL)
        return;
    free(scratch->rgb_row);
    free(scratch->yuv_row);
    free(scratch->memory);
    free(scratch);
}

int ct_jpeg_pixel_strip_imcu_cols(const ct_jpeg_frame *frame,
                                  int strip_width)
{
    const int total = frame->total_imcu_cols;
    const long width = (long)total * imcu_width(frame);
    const long strips =
        strip_width > 0 ? (width + strip_width / 2) / strip_width : 1;
    if (strips <= 1)
        return total;
    /* Strips of a multiple of 64 pixels (8 luma blocks, what the widest
     * adaptive quantization kernels take at once), so that only the last
     * strip ends in the kernels' scalar tails. */
    const int cols_per_64 = 64 / imcu_width(frame);
    const int cols = (int)((total + strips - 1) / strips);
    return ct_min_int((cols + cols_per_64 - 1) / cols_per_64 * cols_per_64,
                   total);
}

static float *plane_row(const ct_jpeg_pixel_scratch *s, int c, int y)
{
    return s->ring[c] + (size_t)(y % s->ring_rows) * s->ring_stride;
}

static float *pre_erosion_row(const ct_jpeg_pixel_scratch *s, int p)
{
    return s->pre + (size_t)((p + 1) % s->pre_rows) * s->pre_stride;
}

static tile_columns make_tile_columns(const ct_jpeg_frame *frame,
                                      int imcu_col0, int imcu_col1)
{
    tile_columns t;
    t.imcu_col0 = imcu_col0;
    t.imcu_col1 = imcu_col1;
    t.x0 = imcu_col0 * imcu_width(frame);
    t.x1 = imcu_col1 * imcu_width(frame);
    const int context =
        frame->use_adaptive_quantization ? AQ_CONTEXT_COLS : 0;
    t.produce0 = t.x0 - context;
    t.produce1 = t.x1 + context;
    /* Adaptive quantization implies full-resolution luma (setup's "luma
     * subsampled" rule), whose blocks are max_h_samp per iMCU column. */
    t.luma_bx0 = imcu_col0 * frame->max_h_samp;
    t.luma_bx1 = ct_min_int(imcu_col1 * frame->max_h_samp,
                         frame->comp[frame->y_channel].width_in_blocks);
    return t;
}

/* n pixels of a layout with red, green and blue at byte r, g, b of each
 * `bytes` -> packed RGB. */
static inline void reorder_row(const uint8_t *in, size_t n, int bytes, int r,
                               int g, int b, uint8_t *rgb)
{
    for (size_t x = 0; x < n; ++x, in += bytes, rgb += 3) {
        rgb[0] = in[r];
        rgb[1] = in[g];
        rgb[2] = in[b];
    }
}

/* The layouts other than RGB: the pixels as packed RGB, which is what the
 * color transforms read (the file is that of the RGB picture). */
static void reorder_to_rgb8(const uint8_t *in, ct_pixel_format format,
                            size_t n, uint8_t *rgb)
{
    switch (format) {
    case CT_PIXEL_BGR8:
        reorder_row(in, n, 3, 2, 1, 0, rgb);
        break;
    case CT_PIXEL_RGBX8:
        reorder_row(in, n, 4, 0, 1, 2, rgb);
        break;
    case CT_PIXEL_BGRX8:
        reorder_row(in, n, 4, 2, 1, 0, rgb);
        break;
    case CT_PIXEL_XRGB8:
        reorder_row(in, n, 4, 1, 2, 3, rgb);
        break;
    case CT_PIXEL_XBGR8:
        reorder_row(in, n, 4, 3, 2, 1, rgb);
        break;
    default: /* RGB8 and GRAY8 are read as they are, and the YCbCr
                layouts by produce_yuv_row */
        break;
    }
}

/* Repeats the first converted sample of a row over [from, conv0) and the
 * last over [conv1, to): row[0] is column conv0. */
static void pad_row(float *row, int from, int conv0, int conv1, int to)
{
    const float first = row[0];
    const float last = row[conv1 - conv0 - 1];
    for (int x = from; x < conv0; ++x)
        row[x - conv0] = first;
    for (int x = conv1; x < to; ++x)
        row[x - conv0] = last;
}

/* jpegli_write_raw_data's input method (ReadUint8RowSingle: 8-bit samples
 * to float) for the tile's columns of plane row y of the components that
 * use the plane rows, and the padding. */
static void produce_yuv_row(const ct_jpeg_frame *frame,
                            const ct_jpeg_image *image,
                            ct_jpeg_pixel_scratch *s, const tile_columns *t,
                            int y, int conv0, int conv1)
{
    const int src_y = ct_min_int(y, (int)frame->height - 1);
    const size_t n = (size_t)(conv1 - conv0);
    for (int c = 0; c < frame->num_components; ++c) {
        if (!uses_plane_rows(frame, c))
            continue;
        float *row = plane_row(s, c, y) + (conv0 - t->x0);
        s->dsp.gray8_to_float(
            ct_jpeg_yuv_row(image, c, src_y, conv0, n, s->yuv_row), n, row);
        pad_row(row, t->produce0, conv0, conv1, t->produce1);
    }
}

/* ReadInputRow, the color transform and PadInputBuffer for the tile's
 * columns of plane row y. */
static void produce_row(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        ct_jpeg_pixel_scratch *s, const tile_columns *t, int y)
{
    const int src_y = ct_min_int(y, (int)frame->height - 1);
    const int width = (int)frame->width;
    /* The columns that are image pixels; the rest repeat an edge pixel. */
    const int conv0 = ct_max_int(t->produce0, 0);
    const int conv1 = ct_min_int(t->produce1, width);
    if (frame->yuv) {
        produce_yuv_row(frame, image, s, t, y, conv0, conv1);
        return;
    }
    const uint8_t *in = image->pixels + (size_t)src_y * image->stride +
                        (size_t)conv0 * ct_jpeg_pixel_bytes(frame->format);
    const size_t n = (size_t)(conv1 - conv0);
    ct_pixel_format format = frame->format;
    if (s->rgb_row != NULL) {
        reorder_to_rgb8(in, format, n, s->rgb_row);
        in = s->rgb_row;
        format = CT_PIXEL_RGB8;
    }
    float *rows[CT_JPEG_MAX_COMPONENTS] = {NULL};
    for (int c = 0; c < frame->num_components; ++c)
        rows[c] = plane_row(s, c, y) + (conv0 - t->x0);

    if (frame->xyb)
        ct_jpeg_xyb_row(in, format, n, frame->simd, rows);
    else if (frame->num_components == 1)
        s->dsp.gray8_to_float(in, n, rows[0]);
    else
        s->dsp.rgb8_to_ycbcr(in, n, rows[0], rows[1], rows[2]);

    for (int c = 0; c < frame->num_components; ++c)
        pad_row(rows[c], t->produce0, conv0, conv1, t->produce1);
}

/* ComputePreErosion's output row p over the tile's pre-erosion columns,
 * with PadRow's border where the tile meets the image's edge. */
static void compute_pre_erosion_row(const ct_jpeg_frame *frame,
                                    ct_jpeg_pixel_scratch *s,
                                    const tile_columns *t, int p)
{
    const int last_plane_row = frame->ysize_blocks * CT_DCTSIZE - 1;
    const int q = clamp_int(p, 0, 2 * frame->ysize_blocks - 1);
    const int pre_width =
        2 * frame->comp[frame->y_channel].width_in_blocks;
    /* Pre-erosion column xo reads luma columns 4xo-1 .. 4xo+4; x = 0 of the
     * row is column pre0. Both ends are even, as the kernels want. */
    const int pre0 = 2 * t->luma_bx0;
    const int pre1 = 2 * t->luma_bx1;
    const int xo0 = ct_max_int(pre0 - AQ_CONTEXT_PRE_COLS, 0);
    const int xo1 = ct_min_int(pre1 + AQ_CONTEXT_PRE_COLS, pre_width);
    const float *rows[6];
    for (int i = 0; i < 6; ++i) {
        const int y = clamp_int(4 * q - 1 + i, 0, last_plane_row);
        rows[i] = plane_row(s, frame->y_channel, y) + (4 * xo0 - t->x0);
    }
    float *out = pre_erosion_row(s, p);
    s->dsp.pre_erosion(rows, (size_t)(xo1 - xo0), out + (xo0 - pre0));
    if (pre0 == 0)
        out[-1] = out[0];
    if (pre1 == pre_width)
        out[pre1 - pre0] = out[pre1 - pre0 - 1];
}

/* ComputeAdaptiveQuantField for the tile's luma blocks of iMCU row r: the
 * quant field rows of its block rows. *next_pre: the first pre-erosion row
 * not yet computed. */
static void compute_quant_field(const ct_jpeg_frame *frame,
                                ct_jpeg_pixel_scratch *s,
                                const tile_columns *t, int r, int *next_pre)
{
    const int yb0 = r * frame->max_v_samp;
    const int last_pre = 2 * (yb0 + frame->max_v_samp);
    for (; *next_pre <= last_pre; ++*next_pre)
        compute_pre_erosion_row(frame, s, t, *next_pre);

    const size_t nblocks = (size_t)(t->luma_bx1 - t->luma_bx0);
    for (int iy = 0; iy < frame->max_v_samp; ++iy) {
        const int yb = yb0 + iy;
        const float *pre[4];
        for (int i = 0; i < 4; ++i)
            pre[i] = pre_erosion_row(s, 2 * yb - 1 + i);
        float *qf = s->qf + (size_t)iy * s->qf_stride;
        s->dsp.fuzzy_erosion(pre, nblocks, qf);
        /* x = 0 of the plane is the first column of luma block
         * luma_bx0. */
        const float *luma_rows =
            plane_row(s, frame->y_channel, CT_DCTSIZE * yb);
        s->dsp.block_modulations(luma_rows, (ptrdiff_t)s->ring_stride,
                                 nblocks, frame->y_quant_01, qf);
    }
}

/* The blocks [*bx0, *bx1) of component c within the tile. */
static void component_blocks(const ct_jpeg_component *comp,
                             const tile_columns *t, int *bx0, int *bx1)
{
    *bx0 = t->imcu_col0 * comp->h_samp;
    *bx1 = ct_min_int(t->imcu_col1 * comp->h_samp, comp->width_in_blocks);
}

/* DownsampleInputBuffer for the tile's columns of iMCU row r and
 * component c. */
static void downsample(const ct_jpeg_frame *frame, ct_jpeg_pixel_scratch *s,
                       const tile_columns *t, int r, int c)
{
    const ct_jpeg_component *comp = &frame->comp[c];
    int bx0, bx1;
    component_blocks(comp, t, &bx0, &bx1);
    const int y0 = r * CT_DCTSIZE * frame->max_v_samp;
    const size_t n_out = (size_t)(bx1 - bx0) * CT_DCTSIZE;
    /* The tile's first plane column is the first input column of its first
     * block: x0 = 8 * bx0 * h_factor. */
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

/* jpegli_write_raw_data for a subsampled chroma component of a YCbCr
 * layout: the tile's blocks of iMCU row r of component c into the iMCU row
 * buffer, each plane row and column clamped to the plane (the caller's
 * padding of the reference). */
static void read_subsampled_rows(const ct_jpeg_frame *frame,
                                 const ct_jpeg_image *image,
                                 ct_jpeg_pixel_scratch *s,
                                 const tile_columns *t, int r, int c)
{
    const ct_jpeg_component *comp = &frame->comp[c];
    int bx0, bx1;
    component_blocks(comp, t, &bx0, &bx1);
    const int plane_width = ct_div_ceil((int)frame->width, comp->h_factor);
    const int plane_height = ct_div_ceil((int)frame->height, comp->v_factor);
    const int x0 = bx0 * CT_DCTSIZE;
    const int x1 = bx1 * CT_DCTSIZE;
    const int conv1 = ct_min_int(x1, plane_width);
    const size_t n = (size_t)(conv1 - x0);
    const int y0 = r * CT_DCTSIZE * comp->v_samp;
    for (int j = 0; j < CT_DCTSIZE * comp->v_samp; ++j) {
        const int y = ct_min_int(y0 + j, plane_height - 1);
        float *out = s->down[c] + (size_t)j * s->down_stride;
        s->dsp.gray8_to_float(ct_jpeg_yuv_row(image, c, y, x0, n, s->yuv_row),
                              n, out);
        pad_row(out, x0, x0, conv1, x1);
    }
}

/* ProcessiMCURow (coefficient mode) for the tile's blocks of component c
 * in iMCU row r. */
static void compute_blocks(const ct_jpeg_frame *frame, ct_jpeg_pixel_scratch *s,
                           const tile_columns *t, int r, int c,
                           ct_jpeg_coeffs *coeffs)
{
    const ct_jpeg_component *comp = &frame->comp[c];
    const int full = is_full_resolution(comp);
    const size_t stride = full ? s->ring_stride : s->down_stride;
    int bx0, bx1;
    component_blocks(comp, t, &bx0, &bx1);
    for (int iy = 0; iy < comp->v_samp; ++iy) {
        const int by = r * comp->v_samp + iy;
        if (by >= comp->height_in_blocks)
            break;
        /* x = 0 of both buffers is the first column of block bx0. */
        const float *pixels =
            full ? plane_row(s, c, by * CT_DCTSIZE)
                 : s->down[c] + (size_t)iy * CT_DCTSIZE * s->down_stride;
        /* Every component reads the luma field at its own block row within
         * the iMCU and at column bx * h_factor, as jpegli does; the field's
         * x = 0 is luma block bx0 * h_factor. */
        const float *aq = frame->use_adaptive_quantization
                              ? s->qf + (size_t)iy * s->qf_stride
                              : NULL;
        const size_t first = (size_t)by * comp->width_in_blocks + bx0;
        s->dsp.dct_quant_row(pixels, (ptrdiff_t)stride, (size_t)(bx1 - bx0),
                             frame->quant_mul[c], frame->zero_bias_offset[c],
                             frame->zero_bias_mul[c], aq,
                             (size_t)comp->h_factor,
                             ct_jpeg_block(coeffs, frame, c, by, bx0),
                             coeffs->dc[c].value + first,
                             coeffs->dc[c].threshold + first);
    }
}

void ct_jpeg_pixel_tile(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        int imcu_row0, int imcu_row1, int imcu_col0,
                        int imcu_col1, ct_jpeg_coeffs *coeffs,
                        ct_jpeg_pixel_scratch *scratch)
{
    const tile_columns t = make_tile_columns(frame, imcu_col0, imcu_col1);
    const int imcu_height = CT_DCTSIZE * frame->max_v_samp;
    const int plane_rows = frame->ysize_blocks * CT_DCTSIZE;
    const int context =
        frame->use_adaptive_quantization ? AQ_CONTEXT_ROWS : 0;
    int next_row = ct_max_int(0, imcu_row0 * imcu_height - context);
    int next_pre = 2 * imcu_row0 * frame->max_v_samp - 1;
    for (int r = imcu_row0; r < imcu_row1; ++r) {
        const int row_end =
            ct_min_int((r + 1) * imcu_height + context, plane_rows);
        for (; next_row < row_end; ++next_row)
            produce_row(frame, image, scratch, &t, next_row);
        if (frame->use_adaptive_quantization)
            compute_quant_field(frame, scratch, &t, r, &next_pre);
        for (int c = 0; c < frame->num_components; ++c) {
            if (!uses_plane_rows(frame, c))
                read_subsampled_rows(frame, image, scratch, &t, r, c);
            else if (!is_full_resolution(&frame->comp[c]))
                downsample(frame, scratch, &t, r, c);
            compute_blocks(frame, scratch, &t, r, c, coeffs);
        }
    }
}

void ct_jpeg_pixel_band(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        int imcu_row0, int imcu_row1, ct_jpeg_coeffs *coeffs,
                        ct_jpeg_pixel_scratch *scratch)
{
    ct_jpeg_pixel_tile(frame, image, imcu_row0, imcu_row1, 0,
                       frame->total_imcu_cols, coeffs, scratch);
}

int ct_jpeg_pixel_image(const ct_jpeg_frame *frame, const ct_jpeg_image *image,
                        ct_jpeg_coeffs *coeffs)
{
    ct_jpeg_pixel_scratch *scratch =
        ct_jpeg_pixel_scratch_new(frame, frame->total_imcu_cols);
    if (scratch == NULL)
        return CT_ENOMEM;
    ct_jpeg_pixel_band(frame, image, 0, frame->total_imcu_rows, coeffs,
                       scratch);
    ct_jpeg_pixel_scratch_free(scratch);
    return CT_OK;
}
