/*
 * The FFT's kernel (fft.c: the scalar reference; x86/fft_{sse2,avx2}.c: the
 * same bits in vectors), a table per encoder (gfc->dsp.fft, dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_FFT_DSP_H
#define CTCORE_MP3_FFT_DSP_H

typedef struct ct_mp3_fft_dsp {
    /* fft.c fht: the Hartley transform of 2 * n points of fz (n = 512 or
     * 128), in place. The vector versions run the twiddled butterflies of
     * neighbouring i in lanes (each i touches its own lines), with the
     * twiddles of LAME's recurrence tabulated. */
    void (*fht)(float *fz, int n);
} ct_mp3_fft_dsp;

/* The scalar reference, upgraded where cpu_flags (common/cpu.h) allow. */
void ct_mp3_fft_dsp_init(ct_mp3_fft_dsp *dsp, unsigned cpu_flags);

void ct_mp3_fht_c(float *fz, int n);

#if defined(__x86_64__)
void ct_mp3_fht_sse2(float *fz, int n);
void ct_mp3_fht_avx2(float *fz, int n);
#endif

#endif
