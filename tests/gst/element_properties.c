/*
 * ctjpegenc's properties for cjpegli's settings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "element_properties.h"

#include <gst/gst.h>

static const char *const subsampling_nicks[] = {
    [CT_JPEG_SUBSAMPLING_DEFAULT] = "default",
    [CT_JPEG_SUBSAMPLING_444] = "444",
    [CT_JPEG_SUBSAMPLING_440] = "440",
    [CT_JPEG_SUBSAMPLING_422] = "422",
    [CT_JPEG_SUBSAMPLING_420] = "420",
};

void ct_element_properties(const ct_jpeg_settings *s, GString *out)
{
    ct_jpeg_settings d;
    ct_jpeg_settings_default(&d);

    if (s->quality != d.quality)
        g_string_append_printf(out, " quality=%d", s->quality);
    if (s->distance != d.distance)
        g_string_append_printf(out, " distance=%.9g", s->distance);
    if (s->progressive_level != d.progressive_level)
        g_string_append_printf(out, " progressive-level=%d",
                               s->progressive_level);
    if (s->chroma_subsampling != d.chroma_subsampling)
        g_string_append_printf(out, " chroma-subsampling=%s",
                               subsampling_nicks[s->chroma_subsampling]);
    if (s->adaptive_quantization != d.adaptive_quantization)
        g_string_append_printf(out, " adaptive-quantization=%s",
                               s->adaptive_quantization ? "true" : "false");
    if (s->std_quant != d.std_quant)
        g_string_append(out, " standard-tables=true");
    if (s->xyb != d.xyb)
        g_string_append(out, " xyb=true");
    if (s->fixed_code != d.fixed_code)
        g_string_append(out, " fixed-code=true");
    g_string_append_printf(out, " simd=%s", ct_simd_name(s->simd));
}

void ct_element_set_properties(GObject *element, const ct_jpeg_settings *s)
{
    g_object_set(element, "quality", s->quality, "distance", s->distance,
                 "progressive-level", s->progressive_level,
                 "adaptive-quantization", s->adaptive_quantization != 0,
                 "standard-tables", s->std_quant != 0, "xyb", s->xyb != 0,
                 "fixed-code", s->fixed_code != 0, NULL);
    /* The enums by their nicks: the tests do not know their types. */
    gst_util_set_object_arg(element, "chroma-subsampling",
                            subsampling_nicks[s->chroma_subsampling]);
    gst_util_set_object_arg(element, "simd", ct_simd_name(s->simd));
}
