/*
 * Setup: cjpegli's settings and the image geometry -> the frame. Follows the
 * order of cjpegli's EncodeJpeg (jpegli_set_defaults, the sampling factors,
 * jpegli_set_distance, ...) and then jpegli_start_compress up to the
 * quantizer, so every table comes out of the same sequence of float
 * operations as in jpegli.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/encode.cc, lib/jpegli/quant.cc and
 * lib/extras/enc/jpegli.cc (BSD-3-Clause, Copyright the JPEG XL Project
 * Authors).
 */
#include <math.h>
#include <string.h>

#include "common/cpu.h"
#include "common/errbuf.h"
#include "common/intmath.h"
#include "frame.h"
#include "quant_tables.h"
#include "yuv_layout.h"

/* cjpegli always asks for baseline tables (jpegli_set_quality and
 * jpegli_set_distance with force_baseline TRUE): 8-bit quantizers. */
#define QUANT_MAX 255

/* jpegli's MAX_COMPS_IN_SCAN: components of an interleaved scan. */
#define MAX_COMPS_IN_SCAN 4

/* std::max / std::min as jpegli calls them (the first argument wins ties). */
static float max_f(float a, float b)
{
    return a < b ? b : a;
}

static float min_f(float a, float b)
{
    return b < a ? b : a;
}

/* jpegli_quality_to_distance */
static float quality_to_distance(int quality)
{
    return quality >= 100  ? 0.01f
           : quality >= 30 ? 0.1f + (100 - quality) * 0.09f
                           : 53.0f / 3000.0f * quality * quality -
                                 23.0f / 20.0f * quality + 25.0f;
}

static int validate_settings(const ct_jpeg_settings *s, uint32_t width,
                             uint32_t height, ct_pixel_format format,
                             char *errbuf, size_t errbuf_size)
{
    if (width < 1 || height < 1)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "empty image (%ux%u)", (unsigned)width,
                             (unsigned)height);
    if (width > CT_JPEG_MAX_DIMENSION || height > CT_JPEG_MAX_DIMENSION)
        return ct_errbuf_set(errbuf, errbuf_size, CT_ETOOBIG,
                             "image %ux%u is too big: JPEG allows at most "
                             "%u pixels in each direction",
                             (unsigned)width, (unsigned)height,
                             (unsigned)CT_JPEG_MAX_DIMENSION);
    if (ct_jpeg_pixel_bytes(format) == 0)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "unknown pixel format %d", (int)format);
    if (s->distance < 0.0f && (s->quality < 1 || s->quality > 100))
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "Invalid --quality argument %d (1..100)",
                             s->quality);
    if (!(s->distance <= 25.0f))
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "Invalid --distance argument %g (0..25)",
                             (double)s->distance);
    if (s->chroma_subsampling < CT_JPEG_SUBSAMPLING_DEFAULT ||
        s->chroma_subsampling > CT_JPEG_SUBSAMPLING_420)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "Invalid --chroma_subsampling argument");
    if (s->progressive_level < 0 || s->progressive_level > 2)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "Invalid --progressive_level argument %d (0..2)",
                             s->progressive_level);
    if (s->progressive_level > 0 && s->fixed_code)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "--fixed_code must be used together with -p 0");
    if (ct_jpeg_yuv_is_yuv(format)) {
        const ct_jpeg_subsampling own = ct_jpeg_yuv_subsampling(format);
        if (s->chroma_subsampling != CT_JPEG_SUBSAMPLING_DEFAULT &&
            s->chroma_subsampling != own)
            return ct_errbuf_set(
                errbuf, errbuf_size, CT_EINVAL,
                "chroma subsampling %s contradicts the %s input's %s: "
                "YCbCr input is encoded with its own sampling",
                ct_jpeg_subsampling_name(s->chroma_subsampling),
                ct_jpeg_yuv_name(format), ct_jpeg_subsampling_name(own));
        if (s->xyb)
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "--xyb needs RGB or gray input, not %s",
                                 ct_jpeg_yuv_name(format));
    }
    if (s->simd != CT_SIMD_AUTO && s->simd != CT_SIMD_SSE2 &&
        s->simd != CT_SIMD_AVX2)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "invalid simd target %d (jpegli's targets are "
                             "sse2 and avx2)", (int)s->simd);
    return CT_OK;
}

/* jpegli_set_colorspace, for the colorspaces cjpegli produces. */
static void set_colorspace(ct_jpeg_frame *f, ct_jpeg_colorspace cs)
{
    f->colorspace = cs;
    f->num_components = cs == CT_JPEG_CS_GRAYSCALE ? 1 : 3;
    memset(f->comp, 0, sizeof(f->comp));
    for (int c = 0; c < f->num_components; ++c) {
        f->comp[c].id = c + 1;
        f->comp[c].h_samp = 1;
        f->comp[c].v_samp = 1;
        f->comp[c].quant_tbl = 0;
    }
    if (cs == CT_JPEG_CS_RGB) {
        f->comp[0].id = 'R';
        f->comp[1].id = 'G';
        f->comp[2].id = 'B';
        if (f->xyb) {
            /* Subsampled blue, a quantization table per component. */
            f->comp[0].h_samp = f->comp[0].v_samp = 2;
            f->comp[1].h_samp = f->comp[1].v_samp = 2;
            f->comp[2].h_samp = f->comp[2].v_samp = 1;
            f->comp[1].quant_tbl = 1;
            f->comp[2].quant_tbl = 2;
        }
    } else if (cs == CT_JPEG_CS_YCBCR) {
        /* Chroma shares one table; luma is subsampled by default (cjpegli
         * resets that afterwards). */
        f->comp[1].quant_tbl = 1;
        f->comp[2].quant_tbl = 1;
        f->comp[0].h_samp = f->comp[0].v_samp = 2;
    }
}

/* jpegli_default_colorspace: in_color_space is RGB unless the input has one
 * channel. */
static void default_colorspace(ct_jpeg_frame *f)
{
    if (f->input_components == 1)
        set_colorspace(f, CT_JPEG_CS_GRAYSCALE);
    else if (f->xyb)
        set_colorspace(f, CT_JPEG_CS_RGB);
    else
        set_colorspace(f, CT_JPEG_CS_YCBCR);
}

/* DistanceToLinearQuality (quant.cc). */
static float distance_to_linear_quality(float distance)
{
    if (distance <= 0.1f)
        return 1.0f;
    if (distance <= 4.6f)
        return (200.0f / 9.0f) * (distance - 0.1f);
    if (distance <= 6.4f)
        return 5000.0f / (100.0f - (distance - 0.1f) / 0.09f);
    if (distance < 25.0f)
        return 530000.0f /
               (3450.0f -
                300.0f * sqrtf((848.0f * distance - 5330.0f) / 120.0f));
    return 5000.0f;
}

/* DistanceToScale: jpegli mixes double pow (for the constant factor) and
 * float pow (std::pow on floats); keep both. */
static float distance_to_scale(float distance, int k)
{
    const float dist0 = ct_jpeg_quant_dist0;
    if (distance < dist0)
        return distance;
    const float exp = ct_jpeg_quant_exponent[k];
    const float mul = (float)pow(dist0, 1.0 - exp);
    return max_f(0.5f * distance, mul * powf(distance, exp));
}

/* ScaleToDistance, the inverse of distance_to_scale. */
static float scale_to_distance(float scale, int k)
{
    const float dist0 = ct_jpeg_quant_dist0;
    if (scale < dist0)
        return scale;
    const float exp = (float)(1.0 / ct_jpeg_quant_exponent[k]);
    const float mul = (float)pow(dist0, 1.0 - exp);
    return min_f(2.0f * scale, mul * powf(scale, exp));
}

static int is_yuv420(const ct_jpeg_frame *f)
{
    return f->colorspace == CT_JPEG_CS_YCBCR && f->comp[0].h_samp == 2 &&
           f->comp[0].v_samp == 2 && f->comp[1].h_samp == 1 &&
           f->comp[1].v_samp == 1 && f->comp[2].h_samp == 1 &&
           f->comp[2].v_samp == 1;
}

/* SetQuantMatrices (quant.cc) with one distance for every table. The
 * cicp transfer function is never PQ or HLG for cjpegli's 8-bit sRGB and
 * XYB inputs, so the global scale has no transfer-function factor. */
static void set_quant_matrices(ct_jpeg_frame *f, float distance,
                               int add_two_chroma_tables, int use_std_tables)
{
    const int yuv420 = is_yuv420(f);
    const float *base[CT_JPEG_MAX_QUANT_TABLES];
    float global_scale;
    int non_linear_scaling = 1;
    int num_base_tables;

    if (f->xyb && f->colorspace == CT_JPEG_CS_RGB) {
        global_scale = ct_jpeg_global_scale_xyb;
        num_base_tables = 3;
        base[0] = ct_jpeg_base_quant_xyb;
        base[1] = ct_jpeg_base_quant_xyb + CT_DCTSIZE2;
        base[2] = ct_jpeg_base_quant_xyb + 2 * CT_DCTSIZE2;
    } else if ((f->colorspace == CT_JPEG_CS_YCBCR ||
                f->colorspace == CT_JPEG_CS_GRAYSCALE) &&
               !use_std_tables) {
        global_scale = ct_jpeg_global_scale_ycbcr;
        if (yuv420)
            global_scale *= ct_jpeg_420_global_scale;
        if (add_two_chroma_tables) {
            /* jpegli sets comp_info[2] even for one component, where it is
             * unused; our frame keeps unused components zeroed. */
            if (f->num_components > 2)
                f->comp[2].quant_tbl = 2;
            num_base_tables = 3;
            base[0] = ct_jpeg_base_quant_ycbcr;
            base[1] = ct_jpeg_base_quant_ycbcr + CT_DCTSIZE2;
            base[2] = ct_jpeg_base_quant_ycbcr + 2 * CT_DCTSIZE2;
        } else {
            num_base_tables = 2;
            base[0] = ct_jpeg_base_quant_ycbcr;
            /* The Cr table for both Cb and Cr. */
            base[1] = ct_jpeg_base_quant_ycbcr + 2 * CT_DCTSIZE2;
        }
    } else {
        global_scale = 0.01f;
        non_linear_scaling = 0;
        num_base_tables = 2;
        base[0] = ct_jpeg_base_quant_std;
        base[1] = ct_jpeg_base_quant_std + CT_DCTSIZE2;
    }

    for (int t = 0; t < num_base_tables; ++t) {
        for (int k = 0; k < CT_DCTSIZE2; ++k) {
            float scale = global_scale;
            if (non_linear_scaling) {
                scale *= distance_to_scale(distance, k);
                if (yuv420 && t > 0)
                    scale *= ct_jpeg_420_rescale[k];
            } else {
                scale *= distance_to_linear_quality(distance);
            }
            int qval = (int)roundf(scale * base[t][k]);
            if (qval > QUANT_MAX)
                qval = QUANT_MAX;
            if (qval < 1)
                qval = 1;
            f->quant[t][k] = (uint16_t)qval;
        }
    }
}

/* cjpegli's --chroma_subsampling, or its 4:4:4 default outside XYB mode. */
static void apply_chroma_subsampling(ct_jpeg_frame *f, ct_jpeg_subsampling s)
{
    static const int luma_samp[][2] = {
        [CT_JPEG_SUBSAMPLING_444] = {1, 1},
        [CT_JPEG_SUBSAMPLING_440] = {1, 2},
        [CT_JPEG_SUBSAMPLING_422] = {2, 1},
        [CT_JPEG_SUBSAMPLING_420] = {2, 2},
    };
    if (s == CT_JPEG_SUBSAMPLING_DEFAULT) {
        if (!f->xyb) {
            f->comp[0].h_samp = 1;
            f->comp[0].v_samp = 1;
        }
        return;
    }
    f->comp[0].h_samp = luma_samp[s][0];
    f->comp[0].v_samp = luma_samp[s][1];
    for (int c = 1; c < f->num_components; ++c) {
        f->comp[c].h_samp = 1;
        f->comp[c].v_samp = 1;
    }
}

/* The YCbCr layouts: component 0 takes the layout's sampling, 1 and 2 stay
 * at 1x1, as the golden set's raw-data API sequence sets them after
 * jpegli_set_defaults. */
static void apply_layout_sampling(ct_jpeg_frame *f)
{
    ct_jpeg_yuv_luma_sampling(f->format, &f->comp[0].h_samp,
                              &f->comp[0].v_samp);
    for (int c = 1; c < f->num_components; ++c) {
        f->comp[c].h_samp = 1;
        f->comp[c].v_samp = 1;
    }
}

/* The geometry part of ProcessCompressionParams (encode.cc). */
static void process_compression_params(ct_jpeg_frame *f)
{
    f->max_h_samp = f->max_v_samp = 1;
    for (int c = 0; c < f->num_components; ++c) {
        ct_jpeg_component *comp = &f->comp[c];
        if (f->num_components == 1)
            comp->h_samp = comp->v_samp = 1;
        if (comp->h_samp > f->max_h_samp)
            f->max_h_samp = comp->h_samp;
        if (comp->v_samp > f->max_v_samp)
            f->max_v_samp = comp->v_samp;
    }
    f->total_imcu_cols = ct_div_ceil((int)f->width, CT_DCTSIZE * f->max_h_samp);
    f->total_imcu_rows = ct_div_ceil((int)f->height, CT_DCTSIZE * f->max_v_samp);
    f->ysize_blocks = f->total_imcu_rows * f->max_v_samp;
    for (int c = 0; c < f->num_components; ++c) {
        ct_jpeg_component *comp = &f->comp[c];
        comp->h_factor = f->max_h_samp / comp->h_samp;
        comp->v_factor = f->max_v_samp / comp->v_samp;
        comp->width_in_blocks =
            ct_div_ceil(ct_div_ceil((int)f->width, comp->h_factor), CT_DCTSIZE);
        comp->height_in_blocks =
            ct_div_ceil(ct_div_ceil((int)f->height, comp->v_factor), CT_DCTSIZE);
    }
    /* Adaptive quantization needs a full-resolution luma channel. */
    f->y_channel = f->colorspace == CT_JPEG_CS_RGB ? 1 : 0;
    const ct_jpeg_component *y = &f->comp[f->y_channel];
    if (y->h_samp != f->max_h_samp || y->v_samp != f->max_v_samp)
        f->use_adaptive_quantization = 0;
}

/* SetDefaultScanScript (encode.cc). */
static void set_default_scan_script(ct_jpeg_frame *f, int level)
{
    typedef struct { int Ss, Se, Ah, Al, interleaved; } progressive_scan;
    const int interleave_dc = f->max_h_samp == 1 && f->max_v_samp == 1;
    const progressive_scan level0[] = {{0, 63, 0, 0, 1}};
    const progressive_scan level1[] = {
        {0, 0, 0, 0, interleave_dc}, {1, 63, 0, 1, 0}, {1, 63, 1, 0, 0}};
    const progressive_scan level2[] = {
        {0, 0, 0, 0, interleave_dc}, {1, 2, 0, 0, 0}, {3, 63, 0, 2, 0},
        {3, 63, 2, 1, 0},            {3, 63, 1, 0, 0}};
    const progressive_scan *mode = level == 0 ? level0
                                   : level == 1 ? level1 : level2;
    const int num_modes = level == 0 ? 1 : level == 1 ? 3 : 5;

    f->num_scans = 0;
    for (int i = 0; i < num_modes; ++i) {
        const int comps = mode[i].interleaved ? MAX_COMPS_IN_SCAN : 1;
        for (int c = 0; c < f->num_components; c += comps) {
            ct_jpeg_scan *scan = &f->scans[f->num_scans++];
            scan->Ss = mode[i].Ss;
            scan->Se = mode[i].Se;
            scan->Ah = mode[i].Ah;
            scan->Al = mode[i].Al;
            scan->comps_in_scan = f->num_components - c < comps
                                      ? f->num_components - c : comps;
            for (int j = 0; j < scan->comps_in_scan; ++j)
                scan->component_index[j] = c + j;
        }
    }
    f->progressive = f->scans[0].Ss != 0 || f->scans[0].Se != CT_DCTSIZE2 - 1;
}

/* QuantValsToDistance (quant.cc): the distance the YCbCr tables stand for,
 * as seen through jpegli's YCbCr base matrices. */
static float quant_vals_to_distance(const ct_jpeg_frame *f)
{
    const float global_scale = ct_jpeg_global_scale_ycbcr;
    const float dist_max_limit = 10000.0f;
    float dist_min = 0.0f;
    float dist_max = dist_max_limit;
    for (int c = 0; c < f->num_components; ++c) {
        const int t = f->comp[c].quant_tbl;
        const uint16_t *quantval = f->quant[t];
        const float *base_qm = &ct_jpeg_base_quant_ycbcr[t * CT_DCTSIZE2];
        for (int k = 0; k < CT_DCTSIZE2; ++k) {
            float dmin = 0.0f;
            float dmax = dist_max_limit;
            const float invq = 1.0f / base_qm[k] / global_scale;
            const int qval = quantval[k];
            if (qval > 1) {
                const float scale_min = (qval - 0.5f) * invq;
                dmin = scale_to_distance(scale_min, k);
            }
            if (qval < QUANT_MAX) {
                const float scale_max = (qval + 0.5f) * invq;
                dmax = scale_to_distance(scale_max, k);
            }
            if (dmin <= dist_max)
                dist_min = max_f(dmin, dist_min);
            if (dmax >= dist_min)
                dist_max = min_f(dist_max, dmax);
        }
    }
    if (dist_min == 0)
        return dist_max;
    if (dist_max == dist_max_limit)
        return dist_min;
    return 0.5f * (dist_min + dist_max);
}

/* The zero-bias tables of InitQuantizer. jpegli zeroes them when it
 * allocates them, so whatever is not set here stays 0 (as in the frame). */
static void init_zero_bias(ct_jpeg_frame *f)
{
    const int ycbcr = f->colorspace == CT_JPEG_CS_YCBCR;
    if (f->use_adaptive_quantization) {
        for (int c = 0; c < f->num_components; ++c) {
            for (int k = 0; k < CT_DCTSIZE2; ++k) {
                f->zero_bias_mul[c][k] = k == 0 ? 0.0f : 0.5f;
                f->zero_bias_offset[c][k] = k == 0 ? 0.0f : 0.5f;
            }
        }
        if (!ycbcr)
            return;
        const float distance = quant_vals_to_distance(f);
        const float dist_hq = 1.0f;
        const float dist_lq = 3.0f;
        float mix0 = (distance - dist_hq) / (dist_lq - dist_hq);
        mix0 = max_f(0.0f, min_f(1.0f, mix0));
        const float mix1 = 1.0f - mix0;
        for (int c = 0; c < f->num_components; ++c) {
            for (int k = 0; k < CT_DCTSIZE2; ++k) {
                const float mul0 = ct_jpeg_zero_bias_mul_ycbcr_lq[c * 64 + k];
                const float mul1 = ct_jpeg_zero_bias_mul_ycbcr_hq[c * 64 + k];
                f->zero_bias_mul[c][k] = mix0 * mul0 + mix1 * mul1;
            }
        }
    }
    if (!ycbcr)
        return;
    for (int c = 0; c < f->num_components; ++c) {
        for (int k = 0; k < CT_DCTSIZE2; ++k) {
            f->zero_bias_offset[c][k] =
                k == 0 ? ct_jpeg_zero_bias_offset_ycbcr_dc[c]
                       : ct_jpeg_zero_bias_offset_ycbcr_ac[c];
        }
    }
}

/* InitQuantizer (quant.cc), QuantPass::NO_SEARCH. */
static void init_quantizer(ct_jpeg_frame *f)
{
    for (int c = 0; c < f->num_components; ++c) {
        const uint16_t *quantval = f->quant[f->comp[c].quant_tbl];
        for (int k = 0; k < CT_DCTSIZE2; ++k)
            f->quant_mul[c][k] = 8.0f / quantval[k];
    }
    init_zero_bias(f);
    f->y_quant_01 = f->quant[f->comp[f->y_channel].quant_tbl][1];
}

int ct_jpeg_setup(ct_jpeg_frame *frame, const ct_jpeg_settings *settings,
                  uint32_t width, uint32_t height, ct_pixel_format format,
                  char *errbuf, size_t errbuf_size)
{
    if (frame == NULL || settings == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "NULL frame or settings");
    int rc = validate_settings(settings, width, height, format, errbuf,
                               errbuf_size);
    if (rc != CT_OK)
        return rc;

    memset(frame, 0, sizeof(*frame));
    frame->width = width;
    frame->height = height;
    frame->xyb = settings->xyb != 0;
    /* cjpegli hands jpegli three float channels in XYB mode, even for a
     * gray image. */
    frame->format = format;
    frame->yuv = ct_jpeg_yuv_is_yuv(format);
    frame->input_components =
        frame->xyb || format != CT_PIXEL_GRAY8 ? 3 : 1;
    frame->simd = ct_simd_resolve(settings->simd);
    frame->cpu_flags = ct_cpu_flags();

    /* jpegli_set_defaults */
    default_colorspace(frame);
    set_quant_matrices(frame, quality_to_distance(90), 0,
                       settings->std_quant && !frame->xyb);

    if (frame->yuv)
        apply_layout_sampling(frame);
    else
        apply_chroma_subsampling(frame, settings->chroma_subsampling);
    frame->use_adaptive_quantization = settings->adaptive_quantization != 0;

    /* jpegli_set_distance, with cjpegli's quality -> distance mapping. */
    const float distance = settings->distance >= 0.0f
                               ? settings->distance
                               : quality_to_distance(settings->quality);
    set_quant_matrices(frame, distance, 1,
                       settings->std_quant && !frame->xyb);
    frame->optimize_coding = !settings->fixed_code;

    /* jpegli_start_compress up to the quantizer. */
    process_compression_params(frame);
    set_default_scan_script(frame, settings->progressive_level);
    init_quantizer(frame);
    return CT_OK;
}

int ct_jpeg_check_pixels(const ct_jpeg_image *image, char *errbuf,
                         size_t errbuf_size)
{
    const int bytes = ct_jpeg_pixel_bytes(image->format);
    if (bytes == 0)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "unknown pixel format %d", (int)image->format);
    if (ct_jpeg_yuv_is_yuv(image->format))
        return ct_jpeg_yuv_check(image, errbuf, errbuf_size);
    if (image->pixels == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "image has no pixels (NULL)");
    if (image->width > 0 && image->stride / (size_t)bytes < image->width)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "stride %zu is less than width %u x %d bytes",
                             image->stride, (unsigned)image->width, bytes);
    return CT_OK;
}
