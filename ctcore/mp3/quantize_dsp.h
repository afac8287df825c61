/*
 * The quantization's kernels (quantize_dsp.c: the scalar references;
 * x86/quantize_{sse2,avx2}.c: the same bits in vectors), a table per
 * encoder (gfc->dsp.quantize, dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_QUANTIZE_DSP_H
#define CTCORE_MP3_QUANTIZE_DSP_H

#include <stdint.h>

typedef struct ct_mp3_quantize_dsp {
    /* vbrquantize.c calc_sfb_noise_x34: the quantization noise of a band
     * of bw lines at scalefactor step sfpow (sfpow34 = sfpow^-3/4):
     * k = quantize(sfpow34 * xr34[i]) with adj43asm, noise
     * (|xr[i]| - sfpow * pow43[k])^2, summed in double by groups of 4
     * ((x0 + x1) + (x2 + x3)) into a float. The search asks only whether
     * the noise exceeds limit, and a sum of squares only grows: the sum
     * stops after the first 8 lines 8j .. 8j + 7 (j < bw / 8) where it
     * exceeds limit, and returns that partial sum. */
    float (*sfb_noise_x34)(const float *pow43, const float *adj43asm,
                           const float *xr, const float *xr34, unsigned int bw,
                           float sfpow, float sfpow34, float limit);
    /* takehiro.c quantize_lines_xrpow, vbrquantize.c quantize_x34 (k_34):
     * ix[i] = the TAKEHIRO_IEEE754_HACK quantization of istep * xr34[i]
     * for i < n (istep * xr34[i] <= IXMAX_VAL). */
    void (*quantize_x34)(const float *adj43asm, float istep, const float *xr34,
                         int *ix, unsigned int n);
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
    /* takehiro.c count_bit_noESC_from2 and _from3: the sum over the pairs
     * (x0, x1) of ix[0 .. n) (n even, >= 2; x0, x1 < xlen) of
     * table[x0 * xlen + x1], modulo 2^32 and 2^64 (the tables pack the
     * lengths of two or three Huffman tables in fields of 16 bits, and
     * the sums are the fields' sums whatever their order). */
    uint32_t (*pair_sum32)(const uint32_t *table, unsigned int xlen, const int *ix, int n);
    uint64_t (*pair_sum64)(const uint64_t *table, unsigned int xlen, const int *ix, int n);
    /* count_bit_ESC: the sum of largetbl[16 * min(x0, 15) + min(x1, 15)]
     * over the pairs (modulo 2^32), and in *nesc the count of values
     * >= 15 (each adds the tables' linbits). */
    uint32_t (*pair_sum_esc)(const uint32_t *largetbl, const int *ix, int n,
                             unsigned int *nesc);
    /* takehiro.c noquant_count_bits' count1 region: its end, i less the
     * line pairs of zeros below i (i even, 0 <= i <= 576) down to line 0 */
    int (*zero_pairs_end)(const int *ix, int i);
    /* and its quadruples: from i down by ix[i - 4 .. i - 1] while all four
     * are 0 or 1, adding t32l and t33l of each quadruple's code
     * ((x4 * 2 + x3) * 2 + x2) * 2 + x1 to *a1 and *a2; returns where it
     * stops (big_values) */
    int (*count1_quads)(const int *ix, int i, const uint8_t *t32l, const uint8_t *t33l,
                        int *a1, int *a2);
} ct_mp3_quantize_dsp;

/* The scalar references, upgraded where cpu_flags (common/cpu.h) allow. */
void ct_mp3_quantize_dsp_init(ct_mp3_quantize_dsp *dsp, unsigned cpu_flags);

float ct_mp3_sfb_noise_x34_c(const float *pow43, const float *adj43asm, const float *xr,
                             const float *xr34, unsigned int bw, float sfpow,
                             float sfpow34, float limit);
void ct_mp3_quantize_x34_c(const float *adj43asm, float istep, const float *xr34, int *ix,
                           unsigned int n);
float ct_mp3_init_xrpow_c(const float *xr, float *xrpow, int n, float *sum, float max);
float ct_mp3_amp_xrpow_c(float *x, int n, float f, float max);
int ct_mp3_ix_max_c(const int *ix, int n);
uint32_t ct_mp3_pair_sum32_c(const uint32_t *table, unsigned int xlen, const int *ix, int n);
uint64_t ct_mp3_pair_sum64_c(const uint64_t *table, unsigned int xlen, const int *ix, int n);
uint32_t ct_mp3_pair_sum_esc_c(const uint32_t *largetbl, const int *ix, int n,
                               unsigned int *nesc);
int ct_mp3_zero_pairs_end_c(const int *ix, int i);
int ct_mp3_count1_quads_c(const int *ix, int i, const uint8_t *t32l, const uint8_t *t33l,
                          int *a1, int *a2);

#if defined(__x86_64__)
float ct_mp3_sfb_noise_x34_sse2(const float *pow43, const float *adj43asm, const float *xr,
                                const float *xr34, unsigned int bw, float sfpow,
                                float sfpow34, float limit);
void ct_mp3_quantize_x34_sse2(const float *adj43asm, float istep, const float *xr34,
                              int *ix, unsigned int n);
float ct_mp3_init_xrpow_sse2(const float *xr, float *xrpow, int n, float *sum, float max);
float ct_mp3_amp_xrpow_sse2(float *x, int n, float f, float max);
int ct_mp3_ix_max_sse2(const int *ix, int n);

float ct_mp3_sfb_noise_x34_avx2(const float *pow43, const float *adj43asm, const float *xr,
                                const float *xr34, unsigned int bw, float sfpow,
                                float sfpow34, float limit);
void ct_mp3_quantize_x34_avx2(const float *adj43asm, float istep, const float *xr34,
                              int *ix, unsigned int n);
float ct_mp3_init_xrpow_avx2(const float *xr, float *xrpow, int n, float *sum, float max);
float ct_mp3_amp_xrpow_avx2(float *x, int n, float f, float max);
int ct_mp3_ix_max_avx2(const int *ix, int n);
uint32_t ct_mp3_pair_sum32_avx2(const uint32_t *table, unsigned int xlen, const int *ix,
                                int n);
uint64_t ct_mp3_pair_sum64_avx2(const uint64_t *table, unsigned int xlen, const int *ix,
                                int n);
uint32_t ct_mp3_pair_sum_esc_avx2(const uint32_t *largetbl, const int *ix, int n,
                                  unsigned int *nesc);
int ct_mp3_zero_pairs_end_avx2(const int *ix, int i);
int ct_mp3_count1_quads_avx2(const int *ix, int i, const uint8_t *t32l, const uint8_t *t33l,
                             int *a1, int *a2);
#endif

#endif
