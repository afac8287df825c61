/*
 * The Opus kernel table (dsp.h) and the C kernels of the pitch analysis,
 * the comb filter and celt_maxabs16: libopus' C code, the arithmetic of a build
 * without SIMD. The table's pvq_search and resampler_inner_product live with
 * their callers (vq.c, resampler.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/pitch.h, celt/celt.c, celt/mathops.h
 * (BSD-3-Clause, Xiph.Org Foundation and contributors)
 */
#include "opus/dsp.h"

#include <assert.h>

#include "common/cpu.h"
#include "opus/mathops.h"
#include "opus/silk/silk.h"

void ct_opus_dsp_init(ct_opus_dsp *dsp, ct_simd simd)
{
    dsp->xcorr_kernel = ct_opus_xcorr_kernel_c;
    dsp->xcorr_kernel8 = ct_opus_xcorr_kernel8_c;
    dsp->inner_prod = ct_opus_inner_prod_c;
    dsp->dual_inner_prod = ct_opus_dual_inner_prod_c;
    dsp->comb_filter_const = ct_opus_comb_filter_const_c;
    dsp->pvq_search = ct_opus_pvq_search_c;
    dsp->resampler_inner_product = ct_opus_resampler_inner_product_c;
    dsp->maxabs = ct_opus_maxabs_c;
    dsp->fft_impl = ct_opus_fft_impl;
    dsp->tonality_bins = ct_opus_tonality_bins_c;
    dsp->vad_get_sa_q8 = ct_silk_VAD_GetSA_Q8_c;
    dsp->warped_autocorrelation = ct_silk_warped_autocorrelation_FLP;
    dsp->nsq_del_dec = ct_silk_NSQ_del_dec;
#if defined(__x86_64__)
    /* Debian's build presumes SSE and SSE2 and has no wider float
     * kernels: every level above C gets the SSE versions. */
    if (simd != CT_SIMD_C) {
        dsp->xcorr_kernel = ct_opus_xcorr_kernel_sse;
        dsp->xcorr_kernel8 = ct_opus_xcorr_kernel8_sse;
        dsp->inner_prod = ct_opus_inner_prod_sse;
        dsp->dual_inner_prod = ct_opus_dual_inner_prod_sse;
        dsp->comb_filter_const = ct_opus_comb_filter_const_sse;
        dsp->pvq_search = ct_opus_pvq_search_sse2;
        dsp->resampler_inner_product = ct_opus_resampler_inner_product_sse;
        /* ours, with the C loop's bits */
        dsp->maxabs = ct_opus_maxabs_sse2;
        /* libopus' run-time choice (arch >= 3) is the CPU's, not a level
         * the caller picks. */
        if (ct_cpu_flags_detected() & CT_CPU_FLAG_SSE41)
            dsp->vad_get_sa_q8 = ct_silk_VAD_GetSA_Q8_sse4_1;
    }
    if (simd == CT_SIMD_AVX2 && (ct_cpu_flags_for(simd) & CT_CPU_FLAG_AVX2)) {
        /* ours, with the bits of the SSE kernel and the C loops they
         * replace (SILK's quantiser is fixed-point: any SIMD version of the
         * C's integer operations gives the C's bits) */
        dsp->xcorr_kernel8 = ct_opus_xcorr_kernel8_avx2;
        dsp->fft_impl = ct_opus_fft_impl_avx2;
        dsp->tonality_bins = ct_opus_tonality_bins_avx2;
        dsp->warped_autocorrelation = ct_silk_warped_autocorrelation_FLP_avx2;
        dsp->nsq_del_dec = ct_silk_NSQ_del_dec_avx2;
    }
#else
    (void)simd;
#endif
}

/* pitch.h xcorr_kernel_c: four lags at once, the y values rotating
 * through y_0 .. y_3. */
void ct_opus_xcorr_kernel_c(const float *x, const float *y, float sum[4],
                            int len)
{
    int j;
    float y_0, y_1, y_2, y_3;
    assert(len >= 3);
    y_3 = 0;
    y_0 = *y++;
    y_1 = *y++;
    y_2 = *y++;
    for (j = 0; j < len - 3; j += 4) {
        float tmp;
        tmp = *x++;
        y_3 = *y++;
        sum[0] = sum[0] + tmp * y_0;
        sum[1] = sum[1] + tmp * y_1;
        sum[2] = sum[2] + tmp * y_2;
        sum[3] = sum[3] + tmp * y_3;
        tmp = *x++;
        y_0 = *y++;
        sum[0] = sum[0] + tmp * y_1;
        sum[1] = sum[1] + tmp * y_2;
        sum[2] = sum[2] + tmp * y_3;
        sum[3] = sum[3] + tmp * y_0;
        tmp = *x++;
        y_1 = *y++;
        sum[0] = sum[0] + tmp * y_2;
        sum[1] = sum[1] + tmp * y_3;
        sum[2] = sum[2] + tmp * y_0;
        sum[3] = sum[3] + tmp * y_1;
        tmp = *x++;
        y_2 = *y++;
        sum[0] = sum[0] + tmp * y_3;
        sum[1] = sum[1] + tmp * y_0;
        sum[2] = sum[2] + tmp * y_1;
        sum[3] = sum[3] + tmp * y_2;
    }
    if (j++ < len) {
        float tmp = *x++;
        y_3 = *y++;
        sum[0] = sum[0] + tmp * y_0;
        sum[1] = sum[1] + tmp * y_1;
        sum[2] = sum[2] + tmp * y_2;
        sum[3] = sum[3] + tmp * y_3;
    }
    if (j++ < len) {
        float tmp = *x++;
        y_0 = *y++;
        sum[0] = sum[0] + tmp * y_1;
        sum[1] = sum[1] + tmp * y_2;
        sum[2] = sum[2] + tmp * y_3;
        sum[3] = sum[3] + tmp * y_0;
    }
    if (j < len) {
        float tmp = *x++;
        y_1 = *y++;
        sum[0] = sum[0] + tmp * y_2;
        sum[1] = sum[1] + tmp * y_3;
        sum[2] = sum[2] + tmp * y_0;
        sum[3] = sum[3] + tmp * y_1;
    }
}

/* ct: two four-lag kernels */
void ct_opus_xcorr_kernel8_c(const float *x, const float *y, float sum[8],
                             int len)
{
    ct_opus_xcorr_kernel_c(x, y, sum, len);
    ct_opus_xcorr_kernel_c(x, y + 4, sum + 4, len);
}

/* mathops.h celt_maxabs16 */
float ct_opus_maxabs_c(const float *x, int len)
{
    int i;
    float maxval = 0;
    float minval = 0;
    for (i = 0; i < len; i++) {
        maxval = CT_MAX16(maxval, x[i]);
        minval = CT_MIN16(minval, x[i]);
    }
    return CT_MAX32(maxval, -minval);
}

/* pitch.h celt_inner_prod_c */
float ct_opus_inner_prod_c(const float *x, const float *y, int n)
{
    int i;
    float xy = 0;
    for (i = 0; i < n; i++)
        xy = xy + x[i] * y[i];
    return xy;
}

/* pitch.h dual_inner_prod_c */
void ct_opus_dual_inner_prod_c(const float *x, const float *y01,
                               const float *y02, int n, float *xy1, float *xy2)
{
    int i;
    float xy01 = 0;
    float xy02 = 0;
    for (i = 0; i < n; i++) {
        xy01 = xy01 + x[i] * y01[i];
        xy02 = xy02 + x[i] * y02[i];
    }
    *xy1 = xy01;
    *xy2 = xy02;
}

/* celt.c comb_filter_const_c (the float version): the taps x0 .. x4 slide
 * along x[i - t - 2 .. i - t + 2]. */
void ct_opus_comb_filter_const_c(float *y, const float *x, int t, int n,
                                 float g10, float g11, float g12)
{
    float x0, x1, x2, x3, x4;
    int i;
    x4 = x[-t - 2];
    x3 = x[-t - 1];
    x2 = x[-t];
    x1 = x[-t + 1];
    for (i = 0; i < n; i++) {
        x0 = x[i - t + 2];
        y[i] = x[i] + g10 * x2 + g11 * (x1 + x3) + g12 * (x0 + x4);
        x4 = x3;
        x3 = x2;
        x2 = x1;
        x1 = x0;
    }
}
