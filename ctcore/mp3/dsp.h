/*
 * The MP3 encoder's SIMD kernels: element-wise loops of the quantization,
 * the psychoacoustic model, the filterbank and ReplayGain, each with a
 * scalar reference (_c, LAME's arithmetic as the rest of the port writes
 * it) and x86-64 versions that give the same bits: every lane does the
 * scalar operations of one element (or one channel) in the scalar order,
 * in the same types (float, or double where LAME converts), and sums are
 * added in LAME's order, never reassociated. tests/mp3/checkasm.c compares
 * them bit for bit.
 *
 * Dispatch: SSE2 is part of x86-64, so its kernels are used there
 * unconditionally; the AVX2 kernels only where the CPU and the OS have AVX2
 * (runtime check; the AVX2 set reuses the SSE2 rg_filter, whose two lanes
 * are the two channels); elsewhere the scalar references. No kernel uses
 * fused multiply-adds. The environment variable CT_MP3_DSP=c|sse2|avx2
 * picks a set (for tests; the output is the same with each). The encoder
 * takes its set once (ct_mp3_iteration_init: gfc->dsp; the few callers
 * without the state ask ct_mp3_dsp_get()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_DSP_H
#define CTCORE_MP3_DSP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ct_mp3_dsp {
    /* vbrquantize.c calc_sfb_noise_x34: the quantization noise of a band
     * of bw lines at scalefactor step sfpow (sfpow34 = sfpow^-3/4):
     * k = quantize(sfpow34 * xr34[i]) with adj43asm, noise
     * (|xr[i]| - sfpow * pow43[k])^2, summed in double by groups of 4
     * ((x0 + x1) + (x2 + x3)) into a float. */
    float (*sfb_noise_x34)(const float *pow43, const float *adj43asm,
                           const float *xr, const float *xr34, unsigned int bw,
                           float sfpow, float sfpow34);
    /* takehiro.c quantize_lines_xrpow, vbrquantize.c quantize_x34 (k_34):
     * ix[i] = the TAKEHIRO_IEEE754_HACK quantization of istep * xr34[i]
     * for i < n (istep * xr34[i] <= IXMAX_VAL). */
    void (*quantize_x34)(const float *adj43asm, float istep, const float *xr34,
                         int *ix, unsigned int n);
    /* psymodel.c, the spreading function convolution of
     * vbrpsy_compute_masking_l/_s: for each partition b < npart, ecb[b] =
     * the vbrpsy_mask_add chain over xs[k] of its maskers kk =
     * s3ind[b][0] .. s3ind[b][1] (k counts all (b, kk) in order), with
     * delta[b]. The chains of different b are independent: the vector
     * versions run one b per lane, each in its scalar order. */
    void (*mask_chain)(int npart, const int (*s3ind)[2], const float *xs,
                       const int *delta, float *ecb);
    /* gain_analysis.c filterYule, then filterButter, of the left and the
     * right channel: step[i] = Yule(in)[i], out[i] = Butter(step)[i] for
     * i < n; in[-10 .. n), step[-10 .. -1] and out[-2 .. -1] hold the
     * history. The vector version runs the two channels in two lanes (the
     * filters are recursive: one sample after the other). */
    void (*rg_filter)(const float *in_l, const float *in_r, float *step_l, float *step_r,
                      float *out_l, float *out_r, size_t n, const float *yule,
                      const float *butter);
    /* fft.c fht: the Hartley transform of 2 * n points of fz (n = 512 or
     * 128), in place. The vector versions run the twiddled butterflies of
     * neighbouring i in lanes (each i touches its own lines), with the
     * twiddles of LAME's recurrence tabulated. */
    void (*fht)(float *fz, int n);
    /* newmdct.c window_subband, its loop over i = -15 .. -1: the windowed
     * sums of the 512 samples around x1 into a[0 .. 29] (x1[-286 .. 224]
     * are read; the vector versions also write a[30], a[31], which
     * window_subband sets after). The vector versions run the i in lanes. */
    void (*window_subband)(const float *x1, float a[32]);
    /* quantize.c init_xrpow_core_c: for i < n, xrpow[i] = |xr[i]|^3/4 as
     * sqrt(t * sqrt(t)) in double (t = |xr[i]|), *sum += t in order (a
     * float sum); returns the largest xrpow[i] and max (the vector
     * versions compute the sum in order, the rest in lanes; the values
     * are >= +0, so the largest is the same whichever lane finds it). */
    float (*init_xrpow)(const float *xr, float *xrpow, int n, float *sum, float max);
    /* quantize.c amp_scalefac_bands and the others: x[i] *= f for i < n;
     * returns the largest x[i] and max (x[i] >= +0). */
    float (*amp_xrpow)(float *x, int n, float f, float max);
    /* takehiro.c ix_max: the largest of ix[0 .. n) (n even, >= 2; values
     * >= 0) */
    int (*ix_max)(const int *ix, int n);
    /* psymodel.c vbrpsy_attack_detection: the fs/4 high pass (21-tap FIR,
     * two float sums per output) of firbuf[0 .. 596] into out[0 .. 575];
     * the vector versions run the outputs in lanes */
    void (*attack_hpf)(const float *firbuf, float out[576]);
    /* and the peak max(1, |x|) of each ninth of x[0 .. 575] */
    void (*abs_peaks)(const float *x, float en[9]);
} ct_mp3_dsp;

typedef enum ct_mp3_dsp_isa {
    CT_MP3_DSP_C = 0,
    CT_MP3_DSP_SSE2 = 1,
    CT_MP3_DSP_AVX2 = 2,
} ct_mp3_dsp_isa;

/* The best set this CPU runs (CT_MP3_DSP may ask for a lesser one). */
const ct_mp3_dsp *ct_mp3_dsp_get(void);
/* The set of one instruction set; NULL when this build or CPU lacks it. */
const ct_mp3_dsp *ct_mp3_dsp_get_isa(ct_mp3_dsp_isa isa);

/* The kernels (for checkasm). */
float ct_mp3_sfb_noise_x34_c(const float *pow43, const float *adj43asm, const float *xr,
                             const float *xr34, unsigned int bw, float sfpow,
                             float sfpow34);
void ct_mp3_quantize_x34_c(const float *adj43asm, float istep, const float *xr34, int *ix,
                           unsigned int n);
void ct_mp3_mask_chain_c(int npart, const int (*s3ind)[2], const float *xs,
                         const int *delta, float *ecb);
void ct_mp3_rg_filter_c(const float *in_l, const float *in_r, float *step_l, float *step_r,
                        float *out_l, float *out_r, size_t n, const float *yule,
                        const float *butter);
void ct_mp3_fht_c(float *fz, int n);
/* fft.c costab: cos and sin of the first twiddle of each stage */
#define CT_MP3_FHT_TRI_SIZE 4
extern const float ct_mp3_fht_costab[CT_MP3_FHT_TRI_SIZE * 2];
void ct_mp3_window_subband_c(const float *x1, float a[32]);
float ct_mp3_init_xrpow_c(const float *xr, float *xrpow, int n, float *sum, float max);
float ct_mp3_amp_xrpow_c(float *x, int n, float f, float max);
int ct_mp3_ix_max_c(const int *ix, int n);
void ct_mp3_attack_hpf_c(const float *firbuf, float out[576]);
/* psymodel.c fircoef of the attack detection's high pass */
extern const float ct_mp3_attack_fircoef[10];
void ct_mp3_abs_peaks_c(const float *x, float en[9]);
/* newmdct.c enwindow (mdct.c) */
extern const float ct_mp3_enwindow[];
/* mask_add's constants (psymodel.c ma_max_i1, ma_max_i2, table2) */
extern const float ct_mp3_ma_max_i1;
extern const float ct_mp3_ma_max_i2;
extern const float ct_mp3_mask_add_table2[10];
/* the ratios where mask_add's table2 index steps up (dsp.c) */
extern const float ct_mp3_mask_add_steps[8];

#if defined(__x86_64__)
float ct_mp3_sfb_noise_x34_sse2(const float *pow43, const float *adj43asm, const float *xr,
                                const float *xr34, unsigned int bw, float sfpow,
                                float sfpow34);
void ct_mp3_quantize_x34_sse2(const float *adj43asm, float istep, const float *xr34,
                              int *ix, unsigned int n);
float ct_mp3_sfb_noise_x34_avx2(const float *pow43, const float *adj43asm, const float *xr,
                                const float *xr34, unsigned int bw, float sfpow,
                                float sfpow34);
void ct_mp3_quantize_x34_avx2(const float *adj43asm, float istep, const float *xr34,
                              int *ix, unsigned int n);
void ct_mp3_mask_chain_sse2(int npart, const int (*s3ind)[2], const float *xs,
                            const int *delta, float *ecb);
void ct_mp3_mask_chain_avx2(int npart, const int (*s3ind)[2], const float *xs,
                            const int *delta, float *ecb);
void ct_mp3_rg_filter_sse2(const float *in_l, const float *in_r, float *step_l,
                           float *step_r, float *out_l, float *out_r, size_t n,
                           const float *yule, const float *butter);
void ct_mp3_fht_sse2(float *fz, int n);
void ct_mp3_fht_avx2(float *fz, int n);
void ct_mp3_window_subband_sse2(const float *x1, float a[32]);
void ct_mp3_window_subband_avx2(const float *x1, float a[32]);
float ct_mp3_init_xrpow_sse2(const float *xr, float *xrpow, int n, float *sum, float max);
float ct_mp3_amp_xrpow_sse2(float *x, int n, float f, float max);
float ct_mp3_init_xrpow_avx2(const float *xr, float *xrpow, int n, float *sum, float max);
float ct_mp3_amp_xrpow_avx2(float *x, int n, float f, float max);
int ct_mp3_ix_max_sse2(const int *ix, int n);
int ct_mp3_ix_max_avx2(const int *ix, int n);
void ct_mp3_attack_hpf_sse2(const float *firbuf, float out[576]);
void ct_mp3_abs_peaks_sse2(const float *x, float en[9]);
void ct_mp3_attack_hpf_avx2(const float *firbuf, float out[576]);
void ct_mp3_abs_peaks_avx2(const float *x, float en[9]);
int ct_mp3_cpu_has_avx2(void);
#endif

#endif
