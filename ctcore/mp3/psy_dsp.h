/*
 * The psychoacoustic model's kernels (psy_dsp.c: the scalar references;
 * x86/psy_{sse2,avx2}.c: the same bits in vectors), a table per encoder
 * (gfc->dsp.psy, dsp.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_PSY_DSP_H
#define CTCORE_MP3_PSY_DSP_H

typedef struct ct_mp3_psy_dsp {
    /* psymodel.c, the spreading function convolution of
     * vbrpsy_compute_masking_l/_s: for each partition b < npart, ecb[b] =
     * the vbrpsy_mask_add chain over xs[k] of its maskers kk =
     * s3ind[b][0] .. s3ind[b][1] (k counts all (b, kk) in order), with
     * delta[b]. The chains of different b are independent: the vector
     * versions run one b per lane, each in its scalar order. */
    void (*mask_chain)(int npart, const int (*s3ind)[2], const float *xs,
                       const int *delta, float *ecb);
    /* psymodel.c vbrpsy_attack_detection: the fs/4 high pass (21-tap FIR,
     * two float sums per output) of firbuf[0 .. 596] into out[0 .. 575];
     * the vector versions run the outputs in lanes */
    void (*attack_hpf)(const float *firbuf, float out[576]);
    /* and the peak max(1, |x|) of each ninth of x[0 .. 575] */
    void (*abs_peaks)(const float *x, float en[9]);
} ct_mp3_psy_dsp;

/* The scalar references, upgraded where cpu_flags (common/cpu.h) allow. */
void ct_mp3_psy_dsp_init(ct_mp3_psy_dsp *dsp, unsigned cpu_flags);

void ct_mp3_mask_chain_c(int npart, const int (*s3ind)[2], const float *xs,
                         const int *delta, float *ecb);
void ct_mp3_attack_hpf_c(const float *firbuf, float out[576]);
void ct_mp3_abs_peaks_c(const float *x, float en[9]);

/* psymodel.c fircoef of the attack detection's high pass */
extern const float ct_mp3_attack_fircoef[10];
/* mask_add's constants (psymodel.c ma_max_i1, ma_max_i2, table2) */
extern const float ct_mp3_ma_max_i1;
extern const float ct_mp3_ma_max_i2;
extern const float ct_mp3_mask_add_table2[10];
/* the ratios where mask_add's table2 index steps up (psy_dsp.c) */
extern const float ct_mp3_mask_add_steps[8];

#if defined(__x86_64__)
void ct_mp3_mask_chain_sse2(int npart, const int (*s3ind)[2], const float *xs,
                            const int *delta, float *ecb);
void ct_mp3_attack_hpf_sse2(const float *firbuf, float out[576]);
void ct_mp3_abs_peaks_sse2(const float *x, float en[9]);

void ct_mp3_mask_chain_avx2(int npart, const int (*s3ind)[2], const float *xs,
                            const int *delta, float *ecb);
void ct_mp3_attack_hpf_avx2(const float *firbuf, float out[576]);
void ct_mp3_abs_peaks_avx2(const float *x, float en[9]);
#endif

#endif
