/*
 * ReplayGain's kernel (replaygain.c: the scalar reference;
 * x86/replaygain_sse2.c: the same bits in vectors), a table per encoder
 * (gfc->dsp.replaygain, dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_REPLAYGAIN_DSP_H
#define CTCORE_MP3_REPLAYGAIN_DSP_H

#include <stddef.h>

typedef struct ct_mp3_replaygain_dsp {
    /* gain_analysis.c filterYule, then filterButter, of the left and the
     * right channel: step[i] = Yule(in)[i], out[i] = Butter(step)[i] for
     * i < n; in[-10 .. n), step[-10 .. -1] and out[-2 .. -1] hold the
     * history. The vector version runs the two channels in two lanes (the
     * filters are recursive: one sample after the other), so AVX2 has
     * nothing to add to it. */
    void (*rg_filter)(const float *in_l, const float *in_r, float *step_l, float *step_r,
                      float *out_l, float *out_r, size_t n, const float *yule,
                      const float *butter);
} ct_mp3_replaygain_dsp;

/* The scalar reference, upgraded where cpu_flags (common/cpu.h) allow. */
void ct_mp3_replaygain_dsp_init(ct_mp3_replaygain_dsp *dsp, unsigned cpu_flags);

void ct_mp3_rg_filter_c(const float *in_l, const float *in_r, float *step_l, float *step_r,
                        float *out_l, float *out_r, size_t n, const float *yule,
                        const float *butter);

#if defined(__x86_64__)
void ct_mp3_rg_filter_sse2(const float *in_l, const float *in_r, float *step_l,
                           float *step_r, float *out_l, float *out_r, size_t n,
                           const float *yule, const float *butter);
#endif

#endif
