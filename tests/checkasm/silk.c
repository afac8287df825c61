/*
 * checkasm for SILK's kernels: the noise shaping quantiser with delayed
 * decisions (the kernel table's nsq_del_dec) and the speech activity
 * detector (vad_get_sa_q8).
 *
 * silk_nsq_del_dec: the AVX2 version against the C one (libopus 1.3.1's
 * silk_NSQ_del_dec_c), bit for bit: every output (pulses, the NSQ state
 * with xq and the shaping and prediction states, the indices' Seed) after
 * every frame of runs that carry the state from frame to frame, as the
 * encoder does. The parameters span their real ranges: 8, 12 and 16 kHz,
 * 2 or 4 subframes, LPC order 10 (16 at 16 kHz), shaping orders 12..24,
 * warping on and off, each count of states 1..4, voiced frames with lags
 * of 2..18 ms and unvoiced ones, Lambda below and above 2048, gains from
 * 2^16 to 2^30 in Q16, inputs from silence to full scale. The strong
 * filters drive the 32-bit sums that 1.3.1 lets wrap (the long-term
 * shaping sum, the residual's, sLTP_shp_Q14) past their range on some 2
 * to 8 % of the samples, so the wrapping is compared too.
 *
 * The speech activity detector's two versions are not twins: libopus'
 * SSE4.1 one (silk/x86/VAD_sse4_1.c) scales the speech activity by the band
 * powers differently from the C one (silk/VAD.c), so each is checked
 * against a plain transcription of its own reference:
 *
 *  - silk_vad_c: ct_silk_VAD_GetSA_Q8_c against VAD.c;
 *  - silk_vad_sse4_1 (CPUs with SSE4.1): ct_silk_VAD_GetSA_Q8_sse4_1
 *    against VAD_sse4_1.c, whose _mm_madd_epi16 energies are the exact
 *    int32 sums of the scalar loop's.
 *
 * The detector carries state (filter banks, noise levels, smoothed band
 * ratios), so each run starts from ct_silk_VAD_Init and feeds many frames
 * of 10 or 20 ms at 8, 12 or 16 kHz: silence, noise and harmonic bursts at
 * levels from 0 to full scale. The state and the outputs are compared
 * after every frame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * The models are transcribed from libopus 1.3.1 silk/VAD.c and
 * silk/x86/VAD_sse4_1.c (BSD-3-Clause, Xiph.Org Foundation and
 * contributors, Cisco Systems)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "common/cpu.h"
#include "opus/dsp.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

#define VAD_RUNS   24
#define VAD_FRAMES 400

#define NSQ_RUNS   96
#define NSQ_FRAMES 24

/* One frame: silence, white noise, a harmonic burst with noise, or
 * alternating full-scale samples, at a level of 0 to 15 bits. */
static void vad_frame(int16_t *x, int n, int kind, int bits, int t0)
{
    const float amp = bits ? ldexpf(1.0f, bits) - 1.0f : 0.0f;
    const float f0 = checkasm_rand_float(0.01f, 0.1f);
    for (int i = 0; i < n; i++) {
        float v = 0;
        if (kind == 1)
            v = amp * checkasm_rand_float(-1.0f, 1.0f);
        else if (kind == 2)
            v = amp * (0.5f * sinf(f0 * (float)(t0 + i)) +
                       0.3f * sinf(3.1f * f0 * (float)(t0 + i)) +
                       0.1f * checkasm_rand_float(-1.0f, 1.0f));
        else if (kind == 3)
            v = (i & 1) ? 32767.0f : -32768.0f;
        x[i] = (int16_t)v;
    }
}

/* The quantiser's inputs for one frame. */
typedef struct nsq_frame {
    int16_t x16[MAX_FRAME_LENGTH];
    int16_t PredCoef_Q12[2 * MAX_LPC_ORDER];
    int16_t LTPCoef_Q14[LTP_ORDER * MAX_NB_SUBFR];
    int16_t AR_Q13[MAX_NB_SUBFR * MAX_SHAPE_LPC_ORDER];
    int HarmShapeGain_Q14[MAX_NB_SUBFR];
    int Tilt_Q14[MAX_NB_SUBFR];
    int32_t LF_shp_Q14[MAX_NB_SUBFR];
    int32_t Gains_Q16[MAX_NB_SUBFR];
    int pitchL[MAX_NB_SUBFR];
    int Lambda_Q10;
    int LTP_scale_Q14;
    ct_silk_side_info_indices indices;
} nsq_frame;

/* The state of one side: the encoder's settings, the NSQ state. */
typedef struct nsq_side {
    ct_silk_encoder_state enc;
    ct_silk_nsq_state nsq;
    ct_silk_side_info_indices indices;
    int8_t pulses[MAX_FRAME_LENGTH];
} nsq_side;

/* A frame of the settings in `enc`: vad_frame's input, filters of one of
 * three sizes (mild, strong, any 16-bit value) and gains log-uniform over
 * their range, some subframes sharing the previous gain. */
static void nsq_random_frame(nsq_frame *f, const ct_silk_encoder_state *enc)
{
    const int fs = enc->fs_kHz;
    vad_frame(f->x16, enc->frame_length, checkasm_rand_int(0, 3),
              checkasm_rand_int(0, 15), 0);
    const int size = checkasm_rand_int(0, 7);
    const int lim = size < 5 ? 1200 : size < 7 ? 6000 : 32767;
    for (int i = 0; i < 2 * MAX_LPC_ORDER; i++)
        f->PredCoef_Q12[i] = (int16_t)(checkasm_rand_int(-lim, lim) >>
                                       ((i % MAX_LPC_ORDER) / 4));
    for (int i = 0; i < LTP_ORDER * MAX_NB_SUBFR; i++)
        f->LTPCoef_Q14[i] =
            (int16_t)(i % LTP_ORDER == 2 ? checkasm_rand_int(-2000, 14000)
                                         : checkasm_rand_int(-3000, 5000));
    for (int i = 0; i < MAX_NB_SUBFR * MAX_SHAPE_LPC_ORDER; i++)
        f->AR_Q13[i] = (int16_t)(checkasm_rand_int(-2 * lim, 2 * lim) >>
                                 ((i % MAX_SHAPE_LPC_ORDER) / 6));
    const int voiced = checkasm_rand_int(0, 2) != 0;
    const int lag0 = checkasm_rand_int(2 * fs, 18 * fs);
    for (int k = 0; k < MAX_NB_SUBFR; k++) {
        f->HarmShapeGain_Q14[k] = voiced ? checkasm_rand_int(0, 16384) : 0;
        f->Tilt_Q14[k] = checkasm_rand_int(-16000, 4000);
        f->LF_shp_Q14[k] =
            (int32_t)((uint32_t)checkasm_rand_int(0, 16384) << 16) |
            (uint16_t)checkasm_rand_int(-16384, 0);
        if (k > 0 && checkasm_rand_int(0, 3) == 0)
            f->Gains_Q16[k] = f->Gains_Q16[k - 1];
        else
            f->Gains_Q16[k] = (int32_t)ldexpf(1.0f, checkasm_rand_int(16, 29)) +
                              checkasm_rand_int(0, 65535);
        /* lags of 2..18 ms (PE_MIN_LAG_MS, PE_MAX_LAG_MS), 0 unvoiced;
         * within a frame they follow a contour of small steps (the
         * pitch codebooks'): the quantiser reads the LTP state that the
         * rewhitening wrote, lag + 2 samples back from its start */
        const int lag = lag0 + checkasm_rand_int(-fs / 2, fs / 2);
        f->pitchL[k] = voiced ? (lag < 2 * fs    ? 2 * fs
                                 : lag > 18 * fs ? 18 * fs
                                                 : lag)
                              : 0;
    }
    f->Lambda_Q10 = checkasm_rand_int(0, 1) ? checkasm_rand_int(100, 2048)
                                            : checkasm_rand_int(2049, 4000);
    memset(&f->indices, 0, sizeof(f->indices));
    f->indices.signalType =
        (int8_t)(voiced ? TYPE_VOICED : checkasm_rand_int(0, 1));
    f->indices.quantOffsetType = (int8_t)checkasm_rand_int(0, 1);
    /* 10 ms frames do not interpolate */
    f->indices.NLSFInterpCoef_Q2 =
        (int8_t)(enc->nb_subfr == MAX_NB_SUBFR ? checkasm_rand_int(0, 4) : 4);
    f->indices.Seed = (int8_t)checkasm_rand_int(0, 3);
    f->LTP_scale_Q14 =
        voiced ? ct_silk_LTPScales_table_Q14[checkasm_rand_int(0, 2)] : 0;
}

static void nsq_run(const ct_opus_dsp *dsp, nsq_side *s, const nsq_frame *f)
{
    s->indices = f->indices;
    dsp->nsq_del_dec(&s->enc, &s->nsq, &s->indices, f->x16, s->pulses,
                     f->PredCoef_Q12, f->LTPCoef_Q14, f->AR_Q13,
                     f->HarmShapeGain_Q14, f->Tilt_Q14, f->LF_shp_Q14,
                     f->Gains_Q16, f->pitchL, f->Lambda_Q10, f->LTP_scale_Q14);
}

/* The settings of a run: rate, subframes, orders, warping, states. */
static void nsq_settings(ct_silk_encoder_state *e, int run)
{
    static const int fs[3] = {8, 12, 16};
    e->fs_kHz = fs[checkasm_rand_int(0, 2)];
    e->nb_subfr = checkasm_rand_int(0, 3) ? MAX_NB_SUBFR : MAX_NB_SUBFR / 2;
    e->subfr_length = SUB_FRAME_LENGTH_MS * e->fs_kHz;
    e->frame_length = e->subfr_length * e->nb_subfr;
    e->ltp_mem_length = LTP_MEM_LENGTH_MS * e->fs_kHz;
    e->predictLPCOrder = e->fs_kHz == 16 ? MAX_LPC_ORDER : MIN_LPC_ORDER;
    e->shapingLPCOrder = 2 * checkasm_rand_int(6, MAX_SHAPE_LPC_ORDER / 2);
    e->warping_Q16 = checkasm_rand_int(0, 1) ? 0 : checkasm_rand_int(1, 20000);
    e->nStatesDelayedDecision = 1 + run % MAX_DEL_DEC_STATES;
}

static void nsq_init_state(ct_silk_nsq_state *nsq)
{
    memset(nsq, 0, sizeof(*nsq));
    nsq->lagPrev = 100;
    nsq->prev_gain_Q16 = 65536;
}

static int nsq_compare(const nsq_side *a, const nsq_side *b, int it)
{
    return checkasm_check_bits("pulses", a->pulses, b->pulses,
                               (size_t)a->enc.frame_length, it) ||
           checkasm_check_bits("NSQ state", &a->nsq, &b->nsq, sizeof(a->nsq),
                               it) ||
           checkasm_check_bits("Seed", &a->indices.Seed, &b->indices.Seed,
                               sizeof(a->indices.Seed), it);
}

static void check_nsq_del_dec(const ct_opus_dsp *ref, const ct_opus_dsp *opt)
{
    if (!checkasm_check_func((const void *)opt->nsq_del_dec,
                             (const void *)ref->nsq_del_dec,
                             "silk_nsq_del_dec"))
        return;
    nsq_side *a = calloc(1, sizeof(*a));
    nsq_side *b = calloc(1, sizeof(*b));
    nsq_frame *f = calloc(1, sizeof(*f));
    if (a == NULL || b == NULL || f == NULL) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(1);
    }
    for (int run = 0, it = 0, fail = 0; run < NSQ_RUNS && !fail; run++) {
        nsq_settings(&a->enc, run);
        nsq_init_state(&a->nsq);
        memset(a->pulses, 0, sizeof(a->pulses));
        memcpy(b, a, sizeof(*a));
        for (int fr = 0; fr < NSQ_FRAMES && !fail; fr++, it++) {
            nsq_random_frame(f, &a->enc);
            nsq_run(ref, a, f);
            nsq_run(opt, b, f);
            fail = nsq_compare(a, b, it);
        }
    }
    /* complexity 10's settings at 16 kHz: 4 states, orders 16 and 24,
     * warping; a voiced frame */
    a->enc.fs_kHz = 16;
    a->enc.nb_subfr = MAX_NB_SUBFR;
    a->enc.subfr_length = SUB_FRAME_LENGTH_MS * 16;
    a->enc.frame_length = a->enc.subfr_length * MAX_NB_SUBFR;
    a->enc.ltp_mem_length = LTP_MEM_LENGTH_MS * 16;
    a->enc.predictLPCOrder = MAX_LPC_ORDER;
    a->enc.shapingLPCOrder = MAX_SHAPE_LPC_ORDER;
    a->enc.warping_Q16 = 16 * 983;
    a->enc.nStatesDelayedDecision = MAX_DEL_DEC_STATES;
    nsq_init_state(&a->nsq);
    memcpy(b, a, sizeof(*a));
    do {
        nsq_random_frame(f, &a->enc);
    } while (f->indices.signalType != TYPE_VOICED);
    f->Lambda_Q10 = 1200;
    CHECKASM_BENCH(nsq_run(ref, a, f), nsq_run(opt, b, f));
    free(a);
    free(b);
    free(f);
}

/* silk_VAD_GetSA_Q8_c (sse41 = 0) or silk_VAD_GetSA_Q8_sse4_1 (1) */
static int model_vad(ct_silk_encoder_state *psEncC, const int16_t pIn[],
                     int sse41)
{
    static const int32_t tiltWeights[VAD_N_BANDS] = {30000, 6000, -12000,
                                                     -12000};
    ct_silk_VAD_state *v = &psEncC->sVAD;
    const int L = psEncC->frame_length;
    int16_t X[MAX_FRAME_LENGTH + MAX_FRAME_LENGTH / 4];
    int32_t Xnrg[VAD_N_BANDS], ratio[VAD_N_BANDS], sumSquared, speech_nrg;
    int X_offset[VAD_N_BANDS], SA_Q15, pSNR_dB_Q7, input_tilt, SNR_Q7;
    int i, b, s;

    X_offset[0] = 0;
    X_offset[1] = L / 8 + L / 4;
    X_offset[2] = X_offset[1] + L / 8;
    X_offset[3] = X_offset[2] + L / 4;
    ct_silk_ana_filt_bank_1(pIn, v->AnaState, X, &X[X_offset[3]], L);
    ct_silk_ana_filt_bank_1(X, v->AnaState1, X, &X[X_offset[2]], L / 2);
    ct_silk_ana_filt_bank_1(X, v->AnaState2, X, &X[X_offset[1]], L / 4);
    X[L / 8 - 1] = X[L / 8 - 1] >> 1;
    const int16_t HPstateTmp = X[L / 8 - 1];
    for (i = L / 8 - 1; i > 0; i--) {
        X[i - 1] = X[i - 1] >> 1;
        X[i] -= X[i - 1];
    }
    X[0] -= v->HPstate;
    v->HPstate = HPstateTmp;
    for (b = 0; b < VAD_N_BANDS; b++) {
        const int len = (L >> (b == 0 ? 3 : VAD_N_BANDS - b)) >> 2;
        Xnrg[b] = v->XnrgSubfr[b];
        sumSquared = 0;
        for (s = 0; s < VAD_INTERNAL_SUBFRAMES; s++) {
            sumSquared = 0;
            for (i = 0; i < len; i++) {
                const int32_t x = X[X_offset[b] + s * len + i] >> 3;
                sumSquared += x * x;
            }
            Xnrg[b] = silk_ADD_POS_SAT32(Xnrg[b], s < VAD_INTERNAL_SUBFRAMES - 1
                                                      ? sumSquared
                                                      : sumSquared >> 1);
        }
        v->XnrgSubfr[b] = sumSquared;
    }
    ct_silk_VAD_GetNoiseLevels(Xnrg, v);
    sumSquared = 0;
    input_tilt = 0;
    for (b = 0; b < VAD_N_BANDS; b++) {
        speech_nrg = Xnrg[b] - v->NL[b];
        if (speech_nrg > 0) {
            if ((Xnrg[b] & 0xFF800000) == 0)
                ratio[b] = silk_LSHIFT(Xnrg[b], 8) / (v->NL[b] + 1);
            else
                ratio[b] = Xnrg[b] / ((v->NL[b] >> 8) + 1);
            SNR_Q7 = ct_silk_lin2log(ratio[b]) - 8 * 128;
            sumSquared = silk_SMLABB(sumSquared, SNR_Q7, SNR_Q7);
            if (speech_nrg < ((int32_t)1 << 20))
                SNR_Q7 = silk_SMULWB(
                    silk_LSHIFT(silk_SQRT_APPROX(speech_nrg), 6), SNR_Q7);
            input_tilt = silk_SMLAWB(input_tilt, tiltWeights[b], SNR_Q7);
        } else {
            ratio[b] = 256;
        }
    }
    pSNR_dB_Q7 = (int16_t)(3 * silk_SQRT_APPROX(sumSquared / VAD_N_BANDS));
    SA_Q15 = ct_silk_sigm_Q15(silk_SMULWB(VAD_SNR_FACTOR_Q16, pSNR_dB_Q7) -
                              VAD_NEGATIVE_OFFSET_Q5);
    psEncC->input_tilt_Q15 =
        silk_LSHIFT(ct_silk_sigm_Q15(input_tilt) - 16384, 1);
    speech_nrg = 0;
    for (b = 0; b < VAD_N_BANDS; b++)
        speech_nrg += (b + 1) * ((Xnrg[b] - v->NL[b]) >> 4);
    if (!sse41) { /* VAD.c:251-262 */
        if (L == 20 * psEncC->fs_kHz)
            speech_nrg >>= 1;
        if (speech_nrg <= 0)
            SA_Q15 >>= 1;
        else if (speech_nrg < 16384)
            SA_Q15 = silk_SMULWB(
                32768 + silk_SQRT_APPROX(silk_LSHIFT(speech_nrg, 16)), SA_Q15);
    } else { /* VAD_sse4_1.c:233-247 */
        if (speech_nrg <= 0) {
            SA_Q15 >>= 1;
        } else if (speech_nrg < 32768) {
            speech_nrg = silk_LSHIFT_SAT32(speech_nrg,
                                           L == 10 * psEncC->fs_kHz ? 16 : 15);
            SA_Q15 = silk_SMULWB(32768 + silk_SQRT_APPROX(speech_nrg), SA_Q15);
        }
    }
    psEncC->speech_activity_Q8 = silk_min_int(SA_Q15 >> 7, 255);
    int32_t smooth_coef_Q16 =
        silk_SMULWB(VAD_SNR_SMOOTH_COEF_Q18, silk_SMULWB(SA_Q15, SA_Q15));
    if (L == 10 * psEncC->fs_kHz)
        smooth_coef_Q16 >>= 1;
    for (b = 0; b < VAD_N_BANDS; b++) {
        v->NrgRatioSmth_Q8[b] =
            silk_SMLAWB(v->NrgRatioSmth_Q8[b], ratio[b] - v->NrgRatioSmth_Q8[b],
                        smooth_coef_Q16);
        SNR_Q7 = 3 * (ct_silk_lin2log(v->NrgRatioSmth_Q8[b]) - 8 * 128);
        psEncC->input_quality_bands_Q15[b] =
            ct_silk_sigm_Q15((SNR_Q7 - 16 * 128) >> 4);
    }
    return 0;
}

static int model_vad_c(ct_silk_encoder_state *st, const int16_t pIn[])
{
    return model_vad(st, pIn, 0);
}

static int model_vad_sse4_1(ct_silk_encoder_state *st, const int16_t pIn[])
{
    return model_vad(st, pIn, 1);
}

typedef int (*vad_fn)(ct_silk_encoder_state *, const int16_t[]);

static void check_vad(vad_fn opt, vad_fn model, const char *name)
{
    if (!checkasm_check_func((const void *)opt, (const void *)model, "%s",
                             name))
        return;
    ct_silk_encoder_state *a = calloc(1, sizeof(*a));
    ct_silk_encoder_state *b = calloc(1, sizeof(*b));
    int16_t in[MAX_FRAME_LENGTH];
    if (a == NULL || b == NULL) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(1);
    }
    for (int run = 0, it = 0; run < VAD_RUNS; run++) {
        static const int fs[3] = {8, 12, 16};
        ct_silk_VAD_Init(&a->sVAD);
        memcpy(b, a, sizeof(*a));
        a->fs_kHz = b->fs_kHz = fs[run % 3];
        int kind = 1, bits = 8, fail = 0;
        for (int f = 0; f < VAD_FRAMES && !fail; f++, it++) {
            const int ms = (run & 4) ? 10 * checkasm_rand_int(1, 2)
                                     : ((run & 1) ? 10 : 20);
            a->frame_length = b->frame_length = ms * a->fs_kHz;
            if (checkasm_rand_int(0, 15) == 0) { /* a new segment */
                kind = checkasm_rand_int(0, 3);
                bits = checkasm_rand_int(0, 15);
            }
            vad_frame(in, a->frame_length, kind, bits, f * a->frame_length);
            const int ra = model(a, in), rb = opt(b, in);
            fail =
                checkasm_check_bits("sVAD", &a->sVAD, &b->sVAD, sizeof(a->sVAD),
                                    it) ||
                checkasm_check_bits("speech_activity_Q8",
                                    &a->speech_activity_Q8,
                                    &b->speech_activity_Q8, sizeof(int), it) ||
                checkasm_check_bits("input_tilt_Q15", &a->input_tilt_Q15,
                                    &b->input_tilt_Q15, sizeof(int), it) ||
                checkasm_check_bits("input_quality_bands_Q15",
                                    a->input_quality_bands_Q15,
                                    b->input_quality_bands_Q15,
                                    sizeof(a->input_quality_bands_Q15), it) ||
                checkasm_check_bits("return", &ra, &rb, sizeof(int), it);
        }
        if (fail)
            break;
    }
    a->fs_kHz = b->fs_kHz = 16;
    a->frame_length = b->frame_length = 320;
    vad_frame(in, 320, 2, 12, 0);
    CHECKASM_BENCH(model(a, in), opt(b, in));
    free(a);
    free(b);
}

void checkasm_check_silk_vad(void)
{
    check_vad(ct_silk_VAD_GetSA_Q8_c, model_vad_c, "silk_vad_c");
#if defined(__x86_64__)
    if (ct_cpu_flags_detected() & CT_CPU_FLAG_SSE41)
        check_vad(ct_silk_VAD_GetSA_Q8_sse4_1, model_vad_sse4_1,
                  "silk_vad_sse4_1");
#endif
    checkasm_report("silk_vad");
}

void checkasm_check_silk_nsq(const ct_opus_dsp *c, const ct_opus_dsp *opt)
{
    check_nsq_del_dec(c, opt);
    checkasm_report("silk_nsq");
}
