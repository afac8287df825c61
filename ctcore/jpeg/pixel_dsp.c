/*
 * Chooses the pixel-phase kernels for an arithmetic target: the scalar
 * references, replaced by SIMD kernels of the same bits where the CPU flags
 * (common/cpu.h) allow them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "pixel_dsp.h"

#include "common/cpu.h"

void ct_jpeg_pixel_dsp_init_c(ct_jpeg_pixel_dsp *dsp, ct_simd simd)
{
    const int avx2 = simd == CT_SIMD_AVX2;
    dsp->rgb8_to_ycbcr =
        avx2 ? ct_jpeg_rgb8_to_ycbcr_c_avx2 : ct_jpeg_rgb8_to_ycbcr_c_sse2;
    dsp->gray8_to_float = ct_jpeg_gray8_to_float_c;
    dsp->downsample_2x1 = ct_jpeg_downsample_2x1_c;
    dsp->downsample_1x2 = ct_jpeg_downsample_1x2_c;
    dsp->downsample_2x2 = ct_jpeg_downsample_2x2_c;
    dsp->pre_erosion =
        avx2 ? ct_jpeg_pre_erosion_c_avx2 : ct_jpeg_pre_erosion_c_sse2;
    dsp->fuzzy_erosion = ct_jpeg_fuzzy_erosion_c;
    dsp->block_modulations = avx2 ? ct_jpeg_block_modulations_c_avx2
                                  : ct_jpeg_block_modulations_c_sse2;
    dsp->dct_quant_row =
        avx2 ? ct_jpeg_dct_quant_row_c_avx2 : ct_jpeg_dct_quant_row_c_sse2;
}

#if defined(__x86_64__)
#define CT_JPEG_INIT_SIMD(dsp, isa)                                   \
    do {                                                              \
        (dsp)->rgb8_to_ycbcr = ct_jpeg_rgb8_to_ycbcr_##isa;           \
        (dsp)->gray8_to_float = ct_jpeg_gray8_to_float_##isa;         \
        (dsp)->downsample_2x1 = ct_jpeg_downsample_2x1_##isa;         \
        (dsp)->downsample_1x2 = ct_jpeg_downsample_1x2_##isa;         \
        (dsp)->downsample_2x2 = ct_jpeg_downsample_2x2_##isa;         \
        (dsp)->pre_erosion = ct_jpeg_pre_erosion_##isa;               \
        (dsp)->fuzzy_erosion = ct_jpeg_fuzzy_erosion_##isa;           \
        (dsp)->block_modulations = ct_jpeg_block_modulations_##isa;   \
        (dsp)->dct_quant_row = ct_jpeg_dct_quant_row_##isa;           \
    } while (0)
#endif

void ct_jpeg_pixel_dsp_init(ct_jpeg_pixel_dsp *dsp, ct_simd simd,
                            unsigned cpu_flags)
{
    ct_jpeg_pixel_dsp_init_c(dsp, simd);
#if defined(__x86_64__)
    if (simd == CT_SIMD_SSE2 && (cpu_flags & CT_CPU_FLAG_SSE2))
        CT_JPEG_INIT_SIMD(dsp, sse2);
    else if (simd == CT_SIMD_AVX2 && (cpu_flags & CT_CPU_FLAG_AVX2))
        CT_JPEG_INIT_SIMD(dsp, avx2);
#endif
}
