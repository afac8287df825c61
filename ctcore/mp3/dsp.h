/*
 * The MP3 encoder's SIMD kernels: element-wise loops of the quantization,
 * the psychoacoustic model, the filterbank and ReplayGain, one table of
 * function pointers per module (quantize_dsp.h, psy_dsp.h, fft_dsp.h,
 * mdct_dsp.h, replaygain_dsp.h). Each kernel has a scalar reference (_c,
 * LAME's arithmetic as the rest of the port writes it, beside the code it
 * was taken from) and x86-64 versions (x86/<module>_<isa>.c) that give the
 * same bits: every lane does the scalar operations of one element (or one
 * channel) in the scalar order, in the same types (float, or double where
 * LAME converts), and sums are added in LAME's order, never reassociated.
 * No kernel uses fused multiply-adds. tests/checkasm/mp3.c compares them
 * bit for bit.
 *
 * Each module's init fills its table with the scalar references and
 * upgrades the entries that cpu_flags (common/cpu.h) allow: SSE2 kernels
 * with CT_CPU_FLAG_SSE2, AVX2 ones with CT_CPU_FLAG_AVX2 (the AVX2 level
 * keeps the SSE2 rg_filter, whose two lanes are the two channels). The
 * encoder fills its tables once, from its settings' simd level
 * (ct_mp3_config_init: gfc->dsp, copied into the frame ring's scratch
 * states), and passes them down; the output is the same at every level.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_DSP_H
#define CTCORE_MP3_DSP_H

#include "fft_dsp.h"
#include "mdct_dsp.h"
#include "psy_dsp.h"
#include "quantize_dsp.h"
#include "replaygain_dsp.h"

typedef struct ct_mp3_dsp {
    ct_mp3_quantize_dsp quantize;
    ct_mp3_psy_dsp psy;
    ct_mp3_fft_dsp fft;
    ct_mp3_mdct_dsp mdct;
    ct_mp3_replaygain_dsp replaygain;
} ct_mp3_dsp;

/* Every module's table, for cpu_flags. */
static inline void ct_mp3_dsp_init(ct_mp3_dsp *dsp, unsigned cpu_flags)
{
    ct_mp3_quantize_dsp_init(&dsp->quantize, cpu_flags);
    ct_mp3_psy_dsp_init(&dsp->psy, cpu_flags);
    ct_mp3_fft_dsp_init(&dsp->fft, cpu_flags);
    ct_mp3_mdct_dsp_init(&dsp->mdct, cpu_flags);
    ct_mp3_replaygain_dsp_init(&dsp->replaygain, cpu_flags);
}

#endif
