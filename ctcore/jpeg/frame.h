/*
 * The frame: everything setup decides before the first pixel is touched.
 * It is read-only for every later phase, so their jobs can run in any
 * order the data allows, in parallel.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_FRAME_H
#define CTCORE_JPEG_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/jpeg.h"

#define CT_DCTSIZE 8
#define CT_DCTSIZE2 64
#define CT_JPEG_MAX_COMPONENTS 3
#define CT_JPEG_MAX_QUANT_TABLES 4
#define CT_JPEG_MAX_SCANS 16

/* jpegli's kJPEGNaturalOrder: the natural (row-major) index of zigzag
 * position k (dct.c). */
extern const uint8_t ct_jpeg_natural_order[CT_DCTSIZE2];

/* jpeg_color_space of libjpeg, restricted to what we write. */
typedef enum ct_jpeg_colorspace {
    CT_JPEG_CS_GRAYSCALE, /* 1 component */
    CT_JPEG_CS_YCBCR,     /* 3 components, from RGB */
    CT_JPEG_CS_RGB,       /* 3 components; only in XYB mode (X, Y, B-Y) */
} ct_jpeg_colorspace;

typedef struct ct_jpeg_component {
    int id;                    /* component_id in SOF/SOS */
    int h_samp, v_samp;        /* sampling factors */
    int h_factor, v_factor;    /* max_samp / samp: downsampling factors */
    int quant_tbl;             /* index into frame.quant */
    int width_in_blocks;       /* ceil(ceil(width / h_factor) / 8) */
    int height_in_blocks;
} ct_jpeg_component;

typedef struct ct_jpeg_scan {
    int comps_in_scan;
    int component_index[CT_JPEG_MAX_COMPONENTS];
    int Ss, Se, Ah, Al;
} ct_jpeg_scan;

/* Bytes per pixel of a layout (ct_pixel_format), of its Y plane in the
 * YCbCr layouts (2 in the packed ones), 0 for an unknown one. */
static inline int ct_jpeg_pixel_bytes(ct_pixel_format format)
{
    switch (format) {
    case CT_PIXEL_GRAY8:
    case CT_PIXEL_I420:
    case CT_PIXEL_I422:
    case CT_PIXEL_I444:
    case CT_PIXEL_NV12:
    case CT_PIXEL_NV21:
        return 1;
    case CT_PIXEL_YUYV:
    case CT_PIXEL_UYVY:
    case CT_PIXEL_YVYU:
        return 2;
    case CT_PIXEL_RGB8:
    case CT_PIXEL_BGR8:
        return 3;
    case CT_PIXEL_RGBX8:
    case CT_PIXEL_BGRX8:
    case CT_PIXEL_XRGB8:
    case CT_PIXEL_XBGR8:
        return 4;
    }
    return 0;
}

typedef struct ct_jpeg_frame {
    uint32_t width, height;
    ct_pixel_format format;    /* the layout of the image's pixels */
    int input_components;      /* 1 (gray) or 3 (RGB, or XYB floats) */
    ct_jpeg_colorspace colorspace;
    int num_components;
    ct_jpeg_component comp[CT_JPEG_MAX_COMPONENTS];
    int max_h_samp, max_v_samp;
    int total_imcu_rows;       /* ceil(height / (8 * max_v_samp)) */
    int total_imcu_cols;       /* ceil(width / (8 * max_h_samp)) */
    int ysize_blocks;          /* total_imcu_rows * max_v_samp */

    /* Quantization tables as jpegli's quantval: NATURAL (row-major) order,
     * like libjpeg's JQUANT_TBL; EncodeDQT writes quant[t][natural[j]] for
     * j = 0..63 (zigzag), and only the tables that some component's
     * quant_tbl uses. */
    uint16_t quant[CT_JPEG_MAX_QUANT_TABLES][CT_DCTSIZE2];

    /* Per component, in the layout the quantizer reads them (jpegli's
     * quant_mul, zero_bias_offset, zero_bias_mul). */
    float quant_mul[CT_JPEG_MAX_COMPONENTS][CT_DCTSIZE2];
    float zero_bias_offset[CT_JPEG_MAX_COMPONENTS][CT_DCTSIZE2];
    float zero_bias_mul[CT_JPEG_MAX_COMPONENTS][CT_DCTSIZE2];

    int use_adaptive_quantization; /* after jpegli's "luma subsampled" rule */
    int y_channel;                 /* 1 in XYB (RGB) mode, else 0 */
    int y_quant_01;                /* quantval[1] of the luma table */

    int progressive;           /* SOF2 rather than SOF0 */
    int optimize_coding;       /* optimized Huffman codes (else Annex K) */
    int num_scans;
    ct_jpeg_scan scans[CT_JPEG_MAX_SCANS];

    int xyb;
    /* A YCbCr layout, encoded as jpegli_write_raw_data encodes its planes:
     * no color transform, each component read at its own resolution. */
    int yuv;
    ct_simd simd;              /* resolved: CT_SIMD_SSE2 or CT_SIMD_AVX2 */
    unsigned cpu_flags;        /* the kernels this CPU may run (common/cpu.h) */
} ct_jpeg_frame;

/*
 * Setup: settings, image geometry and pixel layout -> frame. Ports jpegli_set_defaults,
 * jpegli_set_colorspace, jpegli_set_distance, the sampling choices of
 * cjpegli (lib/extras/enc/jpegli.cc), ProcessCompressionParams,
 * SetDefaultScanScript and InitQuantizer.
 * Returns CT_OK or a CT_E* code with a message in errbuf.
 */
int ct_jpeg_setup(ct_jpeg_frame *frame, const ct_jpeg_settings *settings,
                  uint32_t width, uint32_t height, ct_pixel_format format,
                  char *errbuf, size_t errbuf_size);

/*
 * The checks of an image that its settings cannot make: a known layout,
 * pixels (and the planes a YCbCr layout needs), and rows no shorter than
 * width pixels. Returns CT_OK or CT_EINVAL
 * with a message in errbuf.
 */
int ct_jpeg_check_pixels(const ct_jpeg_image *image, char *errbuf,
                         size_t errbuf_size);

#endif
