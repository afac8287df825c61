/*
 * The Opus encoder's kernels: the inner products, the comb filter, the PVQ
 * search and the resampler's dot product. Debian's libopus and libopusenc
 * are built with SSE and SSE2 presumed, so their float results come from
 * the SSE versions (lane sums, rcpps, rsqrtps), which differ from their C
 * code: the *_sse* functions here reproduce those instructions in that
 * order, the *_c functions are libopus' C code (the bytes of a build
 * without SIMD); SILK's delayed-decision quantiser is fixed-point, so its
 * AVX2 version gives its C code's bits. One table per encoder, filled by
 * ct_opus_dsp_init and passed down where the reference passes `arch`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_OPUS_DSP_H
#define CTCORE_OPUS_DSP_H

#include <stdint.h>

#include "ctcore/ctcore.h"
#include "opus/fft.h"

struct ct_silk_encoder_state;
struct ct_silk_nsq_state;
struct ct_silk_side_info_indices;

/* silk_NSQ_del_dec_c's signature (silk.h ct_silk_NSQ_del_dec) */
typedef void ct_silk_nsq_del_dec_fn(
    const struct ct_silk_encoder_state *psEncC, struct ct_silk_nsq_state *NSQ,
    struct ct_silk_side_info_indices *psIndices, const int16_t x16[],
    int8_t pulses[], const int16_t PredCoef_Q12[], const int16_t LTPCoef_Q14[],
    const int16_t AR_Q13[], const int HarmShapeGain_Q14[], const int Tilt_Q14[],
    const int32_t LF_shp_Q14[], const int32_t Gains_Q16[], const int pitchL[],
    const int Lambda_Q10, const int LTP_scale_Q14);

typedef struct ct_opus_dsp {
    /* celt/pitch.h xcorr_kernel: sum[k] += sum over j < len of
     * x[j] * y[j + k], k = 0..3 (len >= 3) */
    void (*xcorr_kernel)(const float *x, const float *y, float sum[4], int len);
    /* eight lags: xcorr_kernel's sum[0..3] for y and sum[4..7] for y + 4
     * (the AVX2 version is ours, with the SSE kernel's bits) */
    void (*xcorr_kernel8)(const float *x, const float *y, float sum[8], int len);
    /* celt/pitch.h celt_inner_prod: sum of x[i] * y[i], i < n */
    float (*inner_prod)(const float *x, const float *y, int n);
    /* celt/pitch.h dual_inner_prod: *xy1 = x . y01, *xy2 = x . y02 */
    void (*dual_inner_prod)(const float *x, const float *y01, const float *y02, int n,
                            float *xy1, float *xy2);
    /* celt/celt.c comb_filter_const: y[i] = x[i] + g10 * x[i - t]
     * + g11 * (x[i - t + 1] + x[i - t - 1]) + g12 * (x[i - t + 2] + x[i - t - 2]) */
    void (*comb_filter_const)(float *y, const float *x, int t, int n, float g10, float g11,
                              float g12);
    /* celt/vq.c op_pvq_search: the pulses iy[0..n) (sum |iy| = k) for the
     * shape x (made non-negative on the way); returns yy */
    float (*pvq_search)(float *x, int *iy, int k, int n);
    /* libopusenc resample.c inner_product_single: the filter's dot product */
    float (*resampler_inner_product)(const float *a, const float *b, unsigned len);
    /* celt/kiss_fft.c opus_fft_impl: the in-place butterflies (the AVX2
     * version is ours, with the C code's bits) */
    void (*fft_impl)(const ct_fft_state *st, ct_fft_cpx *fout);
    /* src/analysis.c tonality_analysis' loop over the FFT's bins [first,
     * end): phases, tonalities, noisiness, the bins' history (the AVX2
     * version is ours, with the C loop's bits) */
    void (*tonality_bins)(const ct_fft_cpx *out, int N, int first, int end, float *A, float *dA,
                          float *d2A, float *tonality, float *tonality2, float *noisiness);
    /* celt/mathops.h celt_maxabs16: max(0, x[i]..., -min(0, x[i]...)) in
     * the C loop's order. The reference runs the C loop: the SSE2 version
     * is ours and gives its bits (x86/mathops_sse2.c) */
    float (*maxabs)(const float *x, int len);
    /* silk/VAD.c silk_VAD_GetSA_Q8: the speech activity of a frame. Not a
     * kernel with a twin: libopus runs silk/x86/VAD_sse4_1.c's version,
     * whose power scaling differs from the C one, on CPUs with SSE4.1 */
    int (*vad_get_sa_q8)(struct ct_silk_encoder_state *psEncC, const int16_t pIn[]);
    /* silk/float/warped_autocorrelation_FLP.c: corr[0..order] of the
     * cascade of allpass sections, in double. The reference runs the C
     * loop: the AVX2 version is ours and gives its bits */
    void (*warped_autocorrelation)(float *corr, const float *input, float warping, int length,
                                   int order);
    /* silk/NSQ_del_dec.c silk_NSQ_del_dec_c: the noise shaping quantiser
     * with delayed decisions (silk.h ct_silk_NSQ_del_dec). libopus 1.3.1
     * runs the C version; the AVX2 one gives its bits for every count of
     * states (1..4) */
    ct_silk_nsq_del_dec_fn *nsq_del_dec;
} ct_opus_dsp;

/* The C code for CT_SIMD_C, else (x86-64) the SSE versions: the arithmetic
 * of Debian's build, whatever wider SIMD the CPU has; and the VAD that
 * libopus picks on this CPU (the SSE4.1 one where the CPU has SSE4.1,
 * whatever CT_SIMD says, except for CT_SIMD_C: a build without
 * intrinsics). SILK's fixed-point nsq_del_dec is the C code's bits at every
 * level: its AVX2 version at CT_SIMD_AVX2 on CPUs with AVX2. simd is
 * resolved (ct_simd_resolve). */
void ct_opus_dsp_init(ct_opus_dsp *dsp, ct_simd simd);

void ct_opus_xcorr_kernel_c(const float *x, const float *y, float sum[4], int len);
void ct_opus_xcorr_kernel8_c(const float *x, const float *y, float sum[8], int len);
float ct_opus_inner_prod_c(const float *x, const float *y, int n);
void ct_opus_dual_inner_prod_c(const float *x, const float *y01, const float *y02, int n,
                               float *xy1, float *xy2);
void ct_opus_comb_filter_const_c(float *y, const float *x, int t, int n, float g10, float g11,
                                 float g12);
float ct_opus_pvq_search_c(float *x, int *iy, int k, int n);
float ct_opus_resampler_inner_product_c(const float *a, const float *b, unsigned len);
float ct_opus_maxabs_c(const float *x, int len);
void ct_opus_tonality_bins_c(const ct_fft_cpx *out, int N, int first, int end, float *A,
                             float *dA, float *d2A, float *tonality, float *tonality2,
                             float *noisiness);

#if defined(__x86_64__)
void ct_opus_xcorr_kernel_sse(const float *x, const float *y, float sum[4], int len);
void ct_opus_xcorr_kernel8_sse(const float *x, const float *y, float sum[8], int len);
void ct_opus_xcorr_kernel8_avx2(const float *x, const float *y, float sum[8], int len);
float ct_opus_inner_prod_sse(const float *x, const float *y, int n);
void ct_opus_dual_inner_prod_sse(const float *x, const float *y01, const float *y02, int n,
                                 float *xy1, float *xy2);
void ct_opus_comb_filter_const_sse(float *y, const float *x, int t, int n, float g10, float g11,
                                   float g12);
float ct_opus_pvq_search_sse2(float *x, int *iy, int k, int n);
float ct_opus_resampler_inner_product_sse(const float *a, const float *b, unsigned len);
float ct_opus_maxabs_sse2(const float *x, int len);
void ct_opus_tonality_bins_avx2(const ct_fft_cpx *out, int N, int first, int end, float *A,
                                float *dA, float *d2A, float *tonality, float *tonality2,
                                float *noisiness);
#endif

#endif
