/*
 * CELT's forward complex FFT (KISS FFT, mixed radix 2/3/4/5) in the float
 * build. Ports celt/kiss_fft.{c,h}, forward transform only; the states are
 * the standard mode's precomputed ones (mode.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_FFT_H
#define CTCORE_OPUS_FFT_H

#include <stddef.h>
#include <stdint.h>

/* kiss_fft_cpx, and kiss_twiddle_cpx (the same in the float build) */
typedef struct ct_fft_cpx {
    float r;
    float i;
} ct_fft_cpx;

#define CT_MAXFACTORS 8

/* kiss_fft_state without arch_fft (no arch-specific FFT on x86) */
typedef struct ct_fft_state {
    int nfft;
    float scale;
    int shift;
    int16_t factors[2 * CT_MAXFACTORS];
    const int16_t *bitrev;
    const ct_fft_cpx *twiddles;
} ct_fft_state;

/* opus_fft_c: fout = the FFT of fin scaled by 1/nfft (bit-reversed copy,
 * then the butterflies: impl, ct_opus_fft_impl or a kernel table's);
 * fin and fout must differ */
void ct_opus_fft(const ct_fft_state *cfg, const ct_fft_cpx *fin,
                 ct_fft_cpx *fout,
                 void (*impl)(const ct_fft_state *st, ct_fft_cpx *fout));
/* opus_fft_impl: the in-place butterflies on bit-reversed input (the
 * kernel table's fft_impl, dsp.h) */
void ct_opus_fft_impl(const ct_fft_state *st, ct_fft_cpx *fout);
/* ours, with its bits: four butterflies in the lanes (x86/fft_avx2.c) */
void ct_opus_fft_impl_avx2(const ct_fft_state *st, ct_fft_cpx *fout);

/* kiss_fft.c's butterflies, kf_bfly2 .. kf_bfly5 (also run by the AVX2
 * stages where the lanes do not) */
void ct_opus_fft_bfly2(ct_fft_cpx *Fout, int m, int N);
void ct_opus_fft_bfly3(ct_fft_cpx *Fout, const size_t fstride,
                       const ct_fft_state *st, int m, int N, int mm);
void ct_opus_fft_bfly4(ct_fft_cpx *Fout, const size_t fstride,
                       const ct_fft_state *st, int m, int N, int mm);
void ct_opus_fft_bfly5(ct_fft_cpx *Fout, const size_t fstride,
                       const ct_fft_state *st, int m, int N, int mm);

/* kf_bfly3's, kf_bfly4's and kf_bfly5's signature */
typedef void ct_fft_bfly(ct_fft_cpx *Fout, const size_t fstride,
                         const ct_fft_state *st, int m, int N, int mm);
/* opus_fft_impl's stages, with the radix-3, -4 and -5 butterflies given
 * (radix 2 is kf_bfly2's) */
void ct_opus_fft_stages(const ct_fft_state *st, ct_fft_cpx *fout,
                        ct_fft_bfly *bfly3, ct_fft_bfly *bfly4,
                        ct_fft_bfly *bfly5);

#endif
