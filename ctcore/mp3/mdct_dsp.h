/*
 * The filterbank's kernel (mdct.c: the scalar reference;
 * x86/mdct_{sse2,avx2}.c: the same bits in vectors), a table per encoder
 * (gfc->dsp.mdct, dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_MDCT_DSP_H
#define CTCORE_MP3_MDCT_DSP_H

typedef struct ct_mp3_mdct_dsp {
    /* newmdct.c window_subband, its loop over i = -15 .. -1: the windowed
     * sums of the 512 samples around x1 into a[0 .. 29] (x1[-286 .. 224]
     * are read; the vector versions also write a[30], a[31], which
     * window_subband sets after). The vector versions run the i in lanes. */
    void (*window_subband)(const float *x1, float a[32]);
} ct_mp3_mdct_dsp;

/* The scalar reference, upgraded where cpu_flags (common/cpu.h) allow. */
void ct_mp3_mdct_dsp_init(ct_mp3_mdct_dsp *dsp, unsigned cpu_flags);

void ct_mp3_window_subband_c(const float *x1, float a[32]);

#if defined(__x86_64__)
void ct_mp3_window_subband_sse2(const float *x1, float a[32]);
void ct_mp3_window_subband_avx2(const float *x1, float a[32]);
#endif

#endif
