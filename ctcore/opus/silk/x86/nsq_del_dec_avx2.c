/*
 * SILK's noise shaping quantiser with delayed decisions, the states of the
 * trellis in the four 32-bit lanes of SSE/AVX2 registers (the allpass
 * sections' in four 64-bit lanes, the form their multiplies take). Every
 * lane does the 32- and 64-bit integer operations of ct_silk_NSQ_del_dec
 * (nsq_del_dec.c, libopus 1.3.1's C) in the same order, so the pulses, the
 * quantised signal, the NSQ state and the seed are its bits:
 *
 *  - silk_SMULWB/SMLAWB: a 64-bit product of the 32-bit lane and the
 *    coefficient's 16 bits placed in the upper half of a 32-bit factor,
 *    whose high dword is (a * (int16)c) >> 16; sums of such terms add
 *    the high dwords with 32-bit adds (wrapping, as the C does);
 *  - silk_SMULBB: _mm_madd_epi16 with one factor's upper 16 bits cleared;
 *  - silk_RSHIFT_ROUND(a, s): ((a >> (s - 1)) + 1) >> 1, never
 *    a + (1 << (s - 1)), which wraps where the C does not;
 *  - the plain 32-bit adds and subtracts wrap; 1.3.1 has none of the
 *    saturating ones later libopus put into this function.
 *
 * Lanes at and above nStatesDelayedDecision run on copies of state 0 and
 * are masked out of every choice (winner, worst, best), so that every
 * count from 1 to 4 gives the C's bits. The per-sample values that do not
 * depend on the state (long-term prediction and shaping), the outputs of
 * the winner and the rewhitening are the C code's scalar statements.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/NSQ_del_dec.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors), vectorised after libopus 1.5's
 * silk/x86/NSQ_del_dec_avx2.c (BSD-3-Clause, Copyright (c) 2021 Google
 * Inc., Victor Ding) with 1.3.1's arithmetic.
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"
#include "opus/silk/structs.h"
#include "opus/silk/tables.h"

#define AVX2 __attribute__((target("avx2")))

/* One sample of the delay line, a lane per state. */
typedef struct {
    __m128i RandState;
    __m128i Q_Q10;
    __m128i Xq_Q14;
    __m128i Pred_Q15;
    __m128i Shape_Q14;
} lane_sample;

/* NSQ_del_dec_struct, a lane per state. */
typedef struct {
    __m128i sLPC_Q14[MAX_SUB_FRAME_LENGTH + NSQ_LPC_BUF_LENGTH];
    /* state k in the low dword of 64-bit lane k (the high dwords are
     * scratch): the multiplies of the allpass chain take it as it is */
    __m256i sAR2_Q14[MAX_SHAPE_LPC_ORDER];
    __m128i LF_AR_Q14;
    __m128i Diff_Q14;
    __m128i Seed; /* followed by SeedInit: one block for copy_lane */
    __m128i SeedInit;
    __m128i RD_Q10;
    lane_sample Samples[DECISION_DELAY];
} lane_states;

_Static_assert(sizeof(((lane_states *)0)->Samples) % 32 == 0,
               "copy_lane takes the samples in 32-byte blocks");
_Static_assert(offsetof(lane_states, SeedInit) ==
                   offsetof(lane_states, Seed) + sizeof(__m128i),
               "copy_lane takes Seed and SeedInit as one block");

/* The subframe's coefficients as wb_factor multipliers. */
typedef struct {
    __m256i a_Q12[MAX_LPC_ORDER];
    __m256i AR_shp_Q13[MAX_SHAPE_LPC_ORDER];
    __m256i warping_Q16;
    __m256i Tilt_Q14;
    __m256i LF_MA_Q14;
    __m256i LF_AR_Q14;
} lane_coefs;

static AVX2 inline int32_t lane_of(__m128i v, int k)
{
    int32_t t[4];
    _mm_storeu_si128((__m128i *)(void *)t, v);
    return t[k];
}

/* The 16-bit coefficient c in the upper half of each 32-bit lane. */
static AVX2 inline __m256i wb_factor(int32_t c)
{
    return _mm256_set1_epi32((int32_t)((uint32_t)c << 16));
}

/* a (4 lanes) times wb_factor(c): 64-bit products whose high dwords are
 * silk_SMULWB(a, c). */
static AVX2 inline __m256i wb_products(__m128i a, __m256i factor)
{
    return _mm256_mul_epi32(_mm256_cvtepi32_epi64(a), factor);
}

/* The high dwords of the four 64-bit lanes. */
static AVX2 inline __m128i high_dwords(__m256i v)
{
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        v, _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7)));
}

/* silk_SMULWB(a, c) for factor = wb_factor(c): the even and the odd
 * lanes' products in 128 bits, a shorter chain than high_dwords of
 * wb_products for the allpass sections' serial one */
static AVX2 inline __m128i smulwb(__m128i a, __m256i factor)
{
    const __m128i f = _mm256_castsi256_si128(factor);
    const __m128i even = _mm_srli_epi64(_mm_mul_epi32(a, f), 32);
    const __m128i odd = _mm_mul_epi32(_mm_srli_epi64(a, 32), f);
    return _mm_blend_epi16(even, odd, 0xCC);
}

/* smulwb on the 64-bit-lane layout of sAR2_Q14: the result in the low
 * dwords */
static AVX2 inline __m256i smulwb_q(__m256i a, __m256i factor)
{
    return _mm256_srli_epi64(_mm256_mul_epi32(a, factor), 32);
}

/* The 64-bit-lane layout's low dwords, one per state. */
static AVX2 inline __m128i low_dwords(__m256i v)
{
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

/* The vpermd control that copies 64-bit lane src into lane dst. */
static AVX2 inline __m256i qword_copy_control(int dst, int src)
{
    const __m256i identity = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i lane = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
    const __m256i from = _mm256_add_epi32(
        _mm256_set1_epi32(2 * src), _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1));
    return _mm256_blendv_epi8(identity, from,
                              _mm256_cmpeq_epi32(lane, _mm256_set1_epi32(dst)));
}

/* silk_SMULWW(a, b): bits 16..47 of the 64-bit product. */
static AVX2 inline __m128i smulww(__m128i a, int32_t b)
{
    const __m256i p =
        _mm256_mul_epi32(_mm256_cvtepi32_epi64(a), _mm256_set1_epi32(b));
    return high_dwords(_mm256_slli_epi64(p, 16));
}

/* smulww on the 64-bit-lane layout: bits 16..47 in the low dwords */
static AVX2 inline __m256i smulww_q(__m256i a, int32_t b)
{
    return _mm256_srli_epi64(_mm256_mul_epi32(a, _mm256_set1_epi32(b)), 16);
}

/* silk_SMULBB(a, b): the upper 16 bits of a cleared, madd's second
 * product is zero. */
static AVX2 inline __m128i smulbb(__m128i a, __m128i b)
{
    return _mm_madd_epi16(_mm_and_si128(a, _mm_set1_epi32(0xFFFF)), b);
}

/* silk_RSHIFT_ROUND(a, bits), bits > 1 */
static AVX2 inline __m128i rshift_round(__m128i a, int bits)
{
    return _mm_srai_epi32(
        _mm_add_epi32(_mm_srai_epi32(a, bits - 1), _mm_set1_epi32(1)), 1);
}

/* cond < 0 ? -a : a (psDD->Seed < 0) */
static AVX2 inline __m128i negate_if(__m128i a, __m128i cond)
{
    return _mm_sign_epi32(a, _mm_or_si128(cond, _mm_set1_epi32(1)));
}

static AVX2 inline __m256i negate_if256(__m256i a, __m256i cond)
{
    return _mm256_sign_epi32(a, _mm256_or_si256(cond, _mm256_set1_epi32(1)));
}

/* The first lane holding the smallest value of the valid lanes (invalid
 * lanes set in `invalid`): the C loops' strict `<` keep the first. */
static AVX2 inline int first_min(__m128i v, __m128i invalid)
{
    __m128i m = _mm_blendv_epi8(v, _mm_set1_epi32(silk_int32_MAX), invalid);
    m = _mm_min_epi32(m, _mm_shuffle_epi32(m, 0x4E));
    m = _mm_min_epi32(m, _mm_shuffle_epi32(m, 0xB1));
    const unsigned eq =
        (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, m)));
    return __builtin_ctz(eq);
}

/* first_min of the complements: ~x reverses the order of int32 without
 * overflow. */
static AVX2 inline int first_max(__m128i v, __m128i invalid)
{
    return first_min(_mm_xor_si128(v, _mm_set1_epi32(-1)), invalid);
}

/* The pshufb control that copies lane src into lane dst, in both
 * halves. */
static AVX2 inline __m256i lane_copy_control(int dst, int src)
{
    const __m128i identity =
        _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i from = _mm_set1_epi32(0x03020100 + 0x04040404 * src);
    const __m128i at_dst =
        _mm_cmpeq_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(dst));
    return _mm256_broadcastsi128_si256(_mm_blendv_epi8(identity, from, at_dst));
}

/* Applies ctl to the 32-byte blocks at v: pairs of lane vectors. */
static AVX2 inline void copy_lane(void *v, int blocks, __m256i ctl)
{
    char *p = v;
    for (int t = 0; t < blocks; t++) {
        __m256i *q = (__m256i *)(void *)(p + 32 * t);
        _mm256_storeu_si256(q, _mm256_shuffle_epi8(_mm256_loadu_si256(q), ctl));
    }
}

static AVX2 void scale_states(const ct_silk_encoder_state *psEncC,
                              ct_silk_nsq_state *NSQ, lane_states *dd,
                              const int16_t x16[], int32_t x_sc_Q10[],
                              const int16_t sLTP[], int32_t sLTP_Q15[],
                              int subfr, const int LTP_scale_Q14,
                              const int32_t Gains_Q16[MAX_NB_SUBFR],
                              const int pitchL[MAX_NB_SUBFR],
                              const int signal_type, const int decisionDelay)
{
    int i;
    int32_t gain_adj_Q16, inv_gain_Q31, inv_gain_Q26;
    const int lag = pitchL[subfr];

    inv_gain_Q31 = silk_INVERSE32_varQ(silk_max(Gains_Q16[subfr], 1), 47);

    /* Scale input */
    inv_gain_Q26 = silk_RSHIFT_ROUND(inv_gain_Q31, 5);
    for (i = 0; i < psEncC->subfr_length; i++)
        x_sc_Q10[i] = silk_SMULWW(x16[i], inv_gain_Q26);

    /* After rewhitening the LTP state is un-scaled, so scale with
     * inv_gain_Q16 */
    if (NSQ->rewhite_flag) {
        if (subfr == 0) {
            /* Do LTP downscaling */
            inv_gain_Q31 =
                silk_LSHIFT(silk_SMULWB(inv_gain_Q31, LTP_scale_Q14), 2);
        }
        for (i = NSQ->sLTP_buf_idx - lag - LTP_ORDER / 2; i < NSQ->sLTP_buf_idx;
             i++)
            sLTP_Q15[i] = silk_SMULWB(inv_gain_Q31, sLTP[i]);
    }

    /* Adjust for changing gain */
    if (Gains_Q16[subfr] != NSQ->prev_gain_Q16) {
        gain_adj_Q16 =
            silk_DIV32_varQ(NSQ->prev_gain_Q16, Gains_Q16[subfr], 16);

        /* Scale long-term shaping state */
        for (i = NSQ->sLTP_shp_buf_idx - psEncC->ltp_mem_length;
             i < NSQ->sLTP_shp_buf_idx; i++)
            NSQ->sLTP_shp_Q14[i] =
                silk_SMULWW(gain_adj_Q16, NSQ->sLTP_shp_Q14[i]);

        /* Scale long-term prediction state */
        if (signal_type == TYPE_VOICED && NSQ->rewhite_flag == 0) {
            for (i = NSQ->sLTP_buf_idx - lag - LTP_ORDER / 2;
                 i < NSQ->sLTP_buf_idx - decisionDelay; i++)
                sLTP_Q15[i] = silk_SMULWW(gain_adj_Q16, sLTP_Q15[i]);
        }

        /* Scale scalar states */
        dd->LF_AR_Q14 = smulww(dd->LF_AR_Q14, gain_adj_Q16);
        dd->Diff_Q14 = smulww(dd->Diff_Q14, gain_adj_Q16);

        /* Scale short-term prediction and shaping states */
        for (i = 0; i < NSQ_LPC_BUF_LENGTH; i++)
            dd->sLPC_Q14[i] = smulww(dd->sLPC_Q14[i], gain_adj_Q16);
        for (i = 0; i < MAX_SHAPE_LPC_ORDER; i++)
            dd->sAR2_Q14[i] = smulww_q(dd->sAR2_Q14[i], gain_adj_Q16);
        for (i = 0; i < DECISION_DELAY; i++) {
            dd->Samples[i].Pred_Q15 =
                smulww(dd->Samples[i].Pred_Q15, gain_adj_Q16);
            dd->Samples[i].Shape_Q14 =
                smulww(dd->Samples[i].Shape_Q14, gain_adj_Q16);
        }

        /* Save inverse gain */
        NSQ->prev_gain_Q16 = Gains_Q16[subfr];
    }
}

/* silk_noise_shape_quantizer_short_prediction_c on four lanes: the
 * products' high dwords summed from order / 2. */
static AVX2 inline __m128i short_prediction(const __m128i *buf32,
                                            const __m256i *coef, int order)
{
    __m256i out = _mm256_set1_epi32(order >> 1);
    for (int j = 0; j < order; j++)
        out = _mm256_add_epi32(out, wb_products(buf32[-j], coef[j]));
    return high_dwords(out);
}

/* Noise shape quantizer for one subframe */
static AVX2 void
quantizer(ct_silk_nsq_state *NSQ, lane_states *dd, int signalType,
          const int32_t x_Q10[], int8_t pulses[], int16_t xq[],
          int32_t sLTP_Q15[], int32_t delayedGain_Q10[], const lane_coefs *c,
          const int16_t b_Q14[], int lag, int32_t HarmShapeFIRPacked_Q14,
          int32_t Gain_Q16, int Lambda_Q10, int offset_Q10, int length,
          int subfr, int shapingLPCOrder, int predictLPCOrder, __m128i invalid,
          int *smpl_buf_idx, int decisionDelay)
{
    int32_t *shp_lag_ptr = &NSQ->sLTP_shp_Q14[NSQ->sLTP_shp_buf_idx - lag +
                                              HARM_SHAPE_FIR_TAPS / 2];
    int32_t *pred_lag_ptr = &sLTP_Q15[NSQ->sLTP_buf_idx - lag + LTP_ORDER / 2];
    const int32_t Gain_Q10 = silk_RSHIFT(Gain_Q16, 6);
    const __m128i lambda = _mm_set1_epi32(Lambda_Q10);
    const __m128i offset = _mm_set1_epi32(offset_Q10);
    const int rdo_offset = Lambda_Q10 / 2 - 512;

    for (int i = 0; i < length; i++) {
        int32_t LTP_pred_Q14, n_LTP_Q14;

        /* Long-term prediction */
        if (signalType == TYPE_VOICED) {
            /* Avoids introducing a bias because silk_SMLAWB() always rounds to
             * -inf */
            LTP_pred_Q14 = 2;
            LTP_pred_Q14 = silk_SMLAWB(LTP_pred_Q14, pred_lag_ptr[0], b_Q14[0]);
            LTP_pred_Q14 =
                silk_SMLAWB(LTP_pred_Q14, pred_lag_ptr[-1], b_Q14[1]);
            LTP_pred_Q14 =
                silk_SMLAWB(LTP_pred_Q14, pred_lag_ptr[-2], b_Q14[2]);
            LTP_pred_Q14 =
                silk_SMLAWB(LTP_pred_Q14, pred_lag_ptr[-3], b_Q14[3]);
            LTP_pred_Q14 =
                silk_SMLAWB(LTP_pred_Q14, pred_lag_ptr[-4], b_Q14[4]);
            LTP_pred_Q14 = silk_LSHIFT(LTP_pred_Q14, 1); /* Q13 -> Q14 */
            pred_lag_ptr++;
        } else {
            LTP_pred_Q14 = 0;
        }

        /* Long-term shaping */
        if (lag > 0) {
            /* Symmetric, packed FIR coefficients */
            n_LTP_Q14 =
                silk_SMULWB(silk_ADD32_ovflw(shp_lag_ptr[0], shp_lag_ptr[-2]),
                            HarmShapeFIRPacked_Q14);
            n_LTP_Q14 =
                silk_SMLAWT(n_LTP_Q14, shp_lag_ptr[-1], HarmShapeFIRPacked_Q14);
            n_LTP_Q14 = silk_SUB32_ovflw(
                LTP_pred_Q14, silk_LSHIFT32(n_LTP_Q14, 2)); /* Q12 -> Q14 */
            shp_lag_ptr++;
        } else {
            n_LTP_Q14 = 0;
        }

        /* Generate dither */
        dd->Seed = _mm_add_epi32(
            _mm_mullo_epi32(dd->Seed, _mm_set1_epi32(RAND_MULTIPLIER)),
            _mm_set1_epi32(RAND_INCREMENT));

        /* Short-term prediction, Q10 -> Q14 */
        const __m128i LPC_pred_Q14 = _mm_slli_epi32(
            short_prediction(&dd->sLPC_Q14[NSQ_LPC_BUF_LENGTH - 1 + i],
                             c->a_Q12, predictLPCOrder),
            4);

        /* Noise shape feedback: the allpass sections in sAR2_Q14, their
         * outputs weighted by AR_shp_Q13 */
        __m256i tmp2 =
            _mm256_add_epi32(_mm256_cvtepi32_epi64(dd->Diff_Q14),
                             smulwb_q(dd->sAR2_Q14[0], c->warping_Q16));
        __m256i n_AR = _mm256_set1_epi32(shapingLPCOrder >> 1);
        for (int j = 0; j < shapingLPCOrder - 1; j++) {
            const __m256i prev = dd->sAR2_Q14[j];
            dd->sAR2_Q14[j] = tmp2;
            n_AR = _mm256_add_epi32(n_AR,
                                    _mm256_mul_epi32(tmp2, c->AR_shp_Q13[j]));
            tmp2 = _mm256_add_epi32(
                prev, smulwb_q(_mm256_sub_epi32(dd->sAR2_Q14[j + 1], tmp2),
                               c->warping_Q16));
        }
        dd->sAR2_Q14[shapingLPCOrder - 1] = tmp2;
        n_AR = _mm256_add_epi32(
            n_AR, _mm256_mul_epi32(tmp2, c->AR_shp_Q13[shapingLPCOrder - 1]));

        __m128i n_AR_Q14 =
            _mm_slli_epi32(high_dwords(n_AR), 1); /* Q11 -> Q12 */
        n_AR_Q14 = _mm_add_epi32(n_AR_Q14,
                                 smulwb(dd->LF_AR_Q14, c->Tilt_Q14)); /* Q12 */
        n_AR_Q14 = _mm_slli_epi32(n_AR_Q14, 2); /* Q12 -> Q14 */

        __m128i n_LF_Q14 = _mm_add_epi32(
            smulwb(dd->Samples[*smpl_buf_idx].Shape_Q14, c->LF_MA_Q14),
            smulwb(dd->LF_AR_Q14, c->LF_AR_Q14)); /* Q12 */
        n_LF_Q14 = _mm_slli_epi32(n_LF_Q14, 2);   /* Q12 -> Q14 */

        /* Input minus prediction plus noise feedback                       */
        /* r = x[ i ] - LTP_pred - LPC_pred + n_AR + n_Tilt + n_LF + n_LTP  */
        __m128i tmp = _mm_sub_epi32(
            _mm_add_epi32(_mm_set1_epi32(n_LTP_Q14), LPC_pred_Q14),
            _mm_add_epi32(n_AR_Q14, n_LF_Q14)); /* Q13 */
        tmp = rshift_round(tmp, 4);             /* Q10 */
        __m128i r_Q10 = _mm_sub_epi32(_mm_set1_epi32(x_Q10[i]),
                                      tmp); /* residual error Q10 */

        /* Flip sign depending on dither */
        r_Q10 = negate_if(r_Q10, dd->Seed);
        r_Q10 = _mm_max_epi32(_mm_min_epi32(r_Q10, _mm_set1_epi32(30 << 10)),
                              _mm_set1_epi32(-(31 << 10)));

        /* Find two quantization level candidates and measure their
         * rate-distortion */
        __m128i q1_Q10 = _mm_sub_epi32(r_Q10, offset);
        __m128i q1_Q0 = _mm_srai_epi32(q1_Q10, 10);
        if (Lambda_Q10 > 2048) {
            /* For aggressive RDO, the bias becomes more than one pulse:
             * |q1_Q10| - rdo_offset, signed as q1_Q10, where it is > 0,
             * else -1 or 0 */
            const __m128i beyond = _mm_sub_epi32(_mm_abs_epi32(q1_Q10),
                                                 _mm_set1_epi32(rdo_offset));
            q1_Q0 =
                _mm_blendv_epi8(_mm_srai_epi32(q1_Q10, 31),
                                _mm_srai_epi32(negate_if(beyond, q1_Q10), 10),
                                _mm_cmpgt_epi32(beyond, _mm_setzero_si128()));
        }
        /* q1_Q0 > 0: q1 = q1_Q0 * 1024 - 80 + offset, q2 = q1 + 1024;
         * 0: q1 = offset, q2 = q1 + 944; -1: q1 = offset - 944,
         * q2 = offset; < -1: q1 = q1_Q0 * 1024 + 80 + offset,
         * q2 = q1 + 1024 */
        q1_Q10 = _mm_add_epi32(
            _mm_sub_epi32(
                _mm_slli_epi32(q1_Q0, 10),
                _mm_sign_epi32(_mm_set1_epi32(QUANT_LEVEL_ADJUST_Q10), q1_Q0)),
            offset);
        const __m128i near_zero =
            _mm_cmpeq_epi32(_mm_add_epi32(q1_Q0, _mm_srli_epi32(q1_Q0, 31)),
                            _mm_setzero_si128());
        const __m128i q2_Q10 = _mm_add_epi32(
            q1_Q10,
            _mm_blendv_epi8(_mm_set1_epi32(1024),
                            _mm_set1_epi32(1024 - QUANT_LEVEL_ADJUST_Q10),
                            near_zero));
        /* rd = SMULBB(|q|, Lambda) + SMULBB(r - q, r - q), >> 10 (q1 and
         * q2 have the sign the C's branches give them) */
        const __m128i rr1 = _mm_sub_epi32(r_Q10, q1_Q10);
        const __m128i rr2 = _mm_sub_epi32(r_Q10, q2_Q10);
        const __m128i rd1_Q10 =
            _mm_srai_epi32(_mm_add_epi32(smulbb(_mm_abs_epi32(q1_Q10), lambda),
                                         smulbb(rr1, rr1)),
                           10);
        const __m128i rd2_Q10 =
            _mm_srai_epi32(_mm_add_epi32(smulbb(_mm_abs_epi32(q2_Q10), lambda),
                                         smulbb(rr2, rr2)),
                           10);

        const __m128i first_better = _mm_cmplt_epi32(rd1_Q10, rd2_Q10);
        __m128i RD0 = _mm_add_epi32(
            dd->RD_Q10, _mm_blendv_epi8(rd2_Q10, rd1_Q10, first_better));
        __m128i RD1 = _mm_add_epi32(
            dd->RD_Q10, _mm_blendv_epi8(rd1_Q10, rd2_Q10, first_better));
        /* the two sample states of every lane: low half the best, high
         * half the second best quantization */
        __m256i SS_Q_Q10 =
            _mm256_set_m128i(_mm_blendv_epi8(q1_Q10, q2_Q10, first_better),
                             _mm_blendv_epi8(q2_Q10, q1_Q10, first_better));

        /* Quantized excitation */
        const __m256i seed2 = _mm256_broadcastsi128_si256(dd->Seed);
        const __m256i exc_Q14 =
            negate_if256(_mm256_slli_epi32(SS_Q_Q10, 4), seed2);

        /* Add predictions */
        __m256i SS_LPC_exc_Q14 =
            _mm256_add_epi32(exc_Q14, _mm256_set1_epi32(LTP_pred_Q14));
        __m256i SS_xq_Q14 = _mm256_add_epi32(
            SS_LPC_exc_Q14, _mm256_broadcastsi128_si256(LPC_pred_Q14));

        /* Update states */
        __m256i SS_Diff_Q14 = _mm256_sub_epi32(
            SS_xq_Q14, _mm256_set1_epi32(silk_LSHIFT32(x_Q10[i], 4)));
        __m256i SS_LF_AR_Q14 = _mm256_sub_epi32(
            SS_Diff_Q14, _mm256_broadcastsi128_si256(n_AR_Q14));
        __m256i SS_sLTP_shp_Q14 = _mm256_sub_epi32(
            SS_LF_AR_Q14, _mm256_broadcastsi128_si256(n_LF_Q14));

        *smpl_buf_idx = (*smpl_buf_idx + DECISION_DELAY - 1) % DECISION_DELAY;
        const int last_smple_idx =
            (*smpl_buf_idx + decisionDelay) % DECISION_DELAY;

        /* Find winner */
        const int Winner_ind = first_min(RD0, invalid);

        /* Increase RD values of expired states */
        const __m128i rand_last = dd->Samples[last_smple_idx].RandState;
        const __m128i expired = _mm_xor_si128(
            _mm_cmpeq_epi32(rand_last,
                            _mm_set1_epi32(lane_of(rand_last, Winner_ind))),
            _mm_set1_epi32(-1));
        const __m128i penalty =
            _mm_and_si128(expired, _mm_set1_epi32(silk_int32_MAX >> 4));
        RD0 = _mm_add_epi32(RD0, penalty);
        RD1 = _mm_add_epi32(RD1, penalty);

        /* Find worst in first set and best in second set */
        const int RDmax_ind = first_max(RD0, invalid);
        const int RDmin_ind = first_min(RD1, invalid);

        /* Replace a state if best from second set outperforms worst in
         * first set: the C copies all of the state from sLPC_Q14[i] on;
         * sLPC_Q14 beyond i + NSQ_LPC_BUF_LENGTH is written before it is
         * read, and LF_AR, Diff and RD are set from the sample state
         * below */
        if (lane_of(RD1, RDmin_ind) < lane_of(RD0, RDmax_ind)) {
            const __m256i ctl = lane_copy_control(RDmax_ind, RDmin_ind);
            copy_lane(&dd->sLPC_Q14[i], NSQ_LPC_BUF_LENGTH / 2, ctl);
            const __m256i qctl = qword_copy_control(RDmax_ind, RDmin_ind);
            for (int t = 0; t < shapingLPCOrder; t++)
                dd->sAR2_Q14[t] =
                    _mm256_permutevar8x32_epi32(dd->sAR2_Q14[t], qctl);
            /* Seed and SeedInit, adjacent */
            copy_lane(&dd->Seed, 1, ctl);
            copy_lane(dd->Samples, (int)sizeof(dd->Samples) / 32, ctl);
            /* the best sample state of RDmax_ind: RDmin_ind's second best */
            const __m256i identity = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            const __m256i p = _mm256_blendv_epi8(
                identity, _mm256_set1_epi32(4 + RDmin_ind),
                _mm256_cmpeq_epi32(identity, _mm256_set1_epi32(RDmax_ind)));
            SS_Q_Q10 = _mm256_permutevar8x32_epi32(SS_Q_Q10, p);
            SS_xq_Q14 = _mm256_permutevar8x32_epi32(SS_xq_Q14, p);
            SS_LF_AR_Q14 = _mm256_permutevar8x32_epi32(SS_LF_AR_Q14, p);
            SS_Diff_Q14 = _mm256_permutevar8x32_epi32(SS_Diff_Q14, p);
            SS_sLTP_shp_Q14 = _mm256_permutevar8x32_epi32(SS_sLTP_shp_Q14, p);
            SS_LPC_exc_Q14 = _mm256_permutevar8x32_epi32(SS_LPC_exc_Q14, p);
            RD0 = _mm256_castsi256_si128(
                _mm256_permutevar8x32_epi32(_mm256_set_m128i(RD1, RD0), p));
        }

        /* Write samples from winner to output and long-term filter states */
        const lane_sample *last = &dd->Samples[last_smple_idx];
        if (subfr > 0 || i >= decisionDelay) {
            pulses[i - decisionDelay] =
                (int8_t)silk_RSHIFT_ROUND(lane_of(last->Q_Q10, Winner_ind), 10);
            xq[i - decisionDelay] = (int16_t)silk_SAT16(
                silk_RSHIFT_ROUND(silk_SMULWW(lane_of(last->Xq_Q14, Winner_ind),
                                              delayedGain_Q10[last_smple_idx]),
                                  8));
            NSQ->sLTP_shp_Q14[NSQ->sLTP_shp_buf_idx - decisionDelay] =
                lane_of(last->Shape_Q14, Winner_ind);
            sLTP_Q15[NSQ->sLTP_buf_idx - decisionDelay] =
                lane_of(last->Pred_Q15, Winner_ind);
        }
        NSQ->sLTP_shp_buf_idx++;
        NSQ->sLTP_buf_idx++;

        /* Update states */
        lane_sample *s = &dd->Samples[*smpl_buf_idx];
        const __m128i Q0 = _mm256_castsi256_si128(SS_Q_Q10);
        dd->LF_AR_Q14 = _mm256_castsi256_si128(SS_LF_AR_Q14);
        dd->Diff_Q14 = _mm256_castsi256_si128(SS_Diff_Q14);
        dd->sLPC_Q14[NSQ_LPC_BUF_LENGTH + i] =
            _mm256_castsi256_si128(SS_xq_Q14);
        s->Xq_Q14 = _mm256_castsi256_si128(SS_xq_Q14);
        s->Q_Q10 = Q0;
        s->Pred_Q15 = _mm_slli_epi32(_mm256_castsi256_si128(SS_LPC_exc_Q14), 1);
        s->Shape_Q14 = _mm256_castsi256_si128(SS_sLTP_shp_Q14);
        dd->Seed = _mm_add_epi32(dd->Seed, rshift_round(Q0, 10));
        s->RandState = dd->Seed;
        dd->RD_Q10 = RD0;
        delayedGain_Q10[*smpl_buf_idx] = Gain_Q10;
    }
    /* Update LPC states */
    for (int i = 0; i < NSQ_LPC_BUF_LENGTH; i++)
        dd->sLPC_Q14[i] = dd->sLPC_Q14[length + i];
}

static AVX2 void set_coefs(lane_coefs *c, const int16_t *A_Q12,
                           const int16_t *AR_shp_Q13, int predictLPCOrder,
                           int shapingLPCOrder, int warping_Q16, int Tilt_Q14,
                           int32_t LF_shp_Q14)
{
    for (int j = 0; j < predictLPCOrder; j++)
        c->a_Q12[j] = wb_factor(A_Q12[j]);
    for (int j = 0; j < shapingLPCOrder; j++)
        c->AR_shp_Q13[j] = wb_factor(AR_shp_Q13[j]);
    c->warping_Q16 = wb_factor(warping_Q16);
    c->Tilt_Q14 = wb_factor(Tilt_Q14);
    c->LF_MA_Q14 = wb_factor(LF_shp_Q14);
    /* silk_SMLAWT's c >> 16, a 16-bit value */
    c->LF_AR_Q14 = wb_factor(LF_shp_Q14 >> 16);
}

AVX2 void ct_silk_NSQ_del_dec_avx2(
    const ct_silk_encoder_state *psEncC, ct_silk_nsq_state *NSQ,
    ct_silk_side_info_indices *psIndices, const int16_t x16[], int8_t pulses[],
    const int16_t PredCoef_Q12[2 * MAX_LPC_ORDER],
    const int16_t LTPCoef_Q14[LTP_ORDER * MAX_NB_SUBFR],
    const int16_t AR_Q13[MAX_NB_SUBFR * MAX_SHAPE_LPC_ORDER],
    const int HarmShapeGain_Q14[MAX_NB_SUBFR], const int Tilt_Q14[MAX_NB_SUBFR],
    const int32_t LF_shp_Q14[MAX_NB_SUBFR],
    const int32_t Gains_Q16[MAX_NB_SUBFR], const int pitchL[MAX_NB_SUBFR],
    const int Lambda_Q10, const int LTP_scale_Q14)
{
    int i, k, lag, start_idx, LSF_interpolation_flag, Winner_ind, subfr;
    int last_smple_idx, smpl_buf_idx, decisionDelay;
    const int16_t *A_Q12, *B_Q14, *AR_shp_Q13;
    int16_t *pxq;
    int32_t sLTP_Q15[2 * MAX_FRAME_LENGTH];
    int16_t sLTP[2 * MAX_FRAME_LENGTH];
    int32_t HarmShapeFIRPacked_Q14;
    int offset_Q10;
    int32_t Gain_Q10;
    int32_t x_sc_Q10[MAX_SUB_FRAME_LENGTH];
    int32_t delayedGain_Q10[DECISION_DELAY];
    lane_states dd;
    lane_coefs coefs;
    const int nStates = psEncC->nStatesDelayedDecision;
    /* lanes nStates..3 */
    const __m128i invalid =
        _mm_cmpgt_epi32(_mm_setr_epi32(1, 2, 3, 4), _mm_set1_epi32(nStates));

    /* Set unvoiced lag to the previous one, overwrite later for voiced */
    lag = NSQ->lagPrev;

    /* Initialize delayed decision states: every lane, the unused ones too,
     * so that they compute on defined values */
    memset(&dd, 0, sizeof(dd));
    dd.Seed = _mm_and_si128(_mm_add_epi32(_mm_setr_epi32(0, 1, 2, 3),
                                          _mm_set1_epi32(psIndices->Seed)),
                            _mm_set1_epi32(3));
    dd.SeedInit = dd.Seed;
    dd.LF_AR_Q14 = _mm_set1_epi32(NSQ->sLF_AR_shp_Q14);
    dd.Diff_Q14 = _mm_set1_epi32(NSQ->sDiff_shp_Q14);
    dd.Samples[0].Shape_Q14 =
        _mm_set1_epi32(NSQ->sLTP_shp_Q14[psEncC->ltp_mem_length - 1]);
    for (i = 0; i < NSQ_LPC_BUF_LENGTH; i++)
        dd.sLPC_Q14[i] = _mm_set1_epi32(NSQ->sLPC_Q14[i]);
    for (i = 0; i < MAX_SHAPE_LPC_ORDER; i++)
        dd.sAR2_Q14[i] = _mm256_set1_epi32(NSQ->sAR2_Q14[i]);

    offset_Q10 = ct_silk_Quantization_Offsets_Q10[psIndices->signalType >> 1]
                                                 [psIndices->quantOffsetType];
    smpl_buf_idx = 0; /* index of oldest samples */

    decisionDelay = silk_min_int(DECISION_DELAY, psEncC->subfr_length);

    /* For voiced frames limit the decision delay to lower than the pitch lag */
    if (psIndices->signalType == TYPE_VOICED) {
        for (k = 0; k < psEncC->nb_subfr; k++)
            decisionDelay =
                silk_min_int(decisionDelay, pitchL[k] - LTP_ORDER / 2 - 1);
    } else if (lag > 0) {
        decisionDelay = silk_min_int(decisionDelay, lag - LTP_ORDER / 2 - 1);
    }

    LSF_interpolation_flag = psIndices->NLSFInterpCoef_Q2 == 4 ? 0 : 1;

    /* Set up pointers to start of sub frame */
    pxq = &NSQ->xq[psEncC->ltp_mem_length];
    NSQ->sLTP_shp_buf_idx = psEncC->ltp_mem_length;
    NSQ->sLTP_buf_idx = psEncC->ltp_mem_length;
    subfr = 0;
    for (k = 0; k < psEncC->nb_subfr; k++) {
        A_Q12 = &PredCoef_Q12[((k >> 1) | (1 - LSF_interpolation_flag)) *
                              MAX_LPC_ORDER];
        B_Q14 = &LTPCoef_Q14[k * LTP_ORDER];
        AR_shp_Q13 = &AR_Q13[k * MAX_SHAPE_LPC_ORDER];

        /* Noise shape parameters */
        HarmShapeFIRPacked_Q14 = silk_RSHIFT(HarmShapeGain_Q14[k], 2);
        HarmShapeFIRPacked_Q14 |=
            silk_LSHIFT((int32_t)silk_RSHIFT(HarmShapeGain_Q14[k], 1), 16);

        NSQ->rewhite_flag = 0;
        if (psIndices->signalType == TYPE_VOICED) {
            /* Voiced */
            lag = pitchL[k];

            /* Re-whitening */
            if ((k & (3 - silk_LSHIFT(LSF_interpolation_flag, 1))) == 0) {
                if (k == 2) {
                    /* RESET DELAYED DECISIONS */
                    /* Find winner */
                    Winner_ind = first_min(dd.RD_Q10, invalid);
                    const __m128i losers = _mm_xor_si128(
                        _mm_cmpeq_epi32(_mm_setr_epi32(0, 1, 2, 3),
                                        _mm_set1_epi32(Winner_ind)),
                        _mm_set1_epi32(-1));
                    dd.RD_Q10 = _mm_add_epi32(
                        dd.RD_Q10,
                        _mm_and_si128(losers,
                                      _mm_set1_epi32(silk_int32_MAX >> 4)));

                    /* Copy final part of signals from winner state to output
                     * and long-term filter states */
                    last_smple_idx = smpl_buf_idx + decisionDelay;
                    for (i = 0; i < decisionDelay; i++) {
                        last_smple_idx = (last_smple_idx + DECISION_DELAY - 1) %
                                         DECISION_DELAY;
                        const lane_sample *s = &dd.Samples[last_smple_idx];
                        pulses[i - decisionDelay] = (int8_t)silk_RSHIFT_ROUND(
                            lane_of(s->Q_Q10, Winner_ind), 10);
                        pxq[i - decisionDelay] =
                            (int16_t)silk_SAT16(silk_RSHIFT_ROUND(
                                silk_SMULWW(lane_of(s->Xq_Q14, Winner_ind),
                                            Gains_Q16[1]),
                                14));
                        NSQ->sLTP_shp_Q14[NSQ->sLTP_shp_buf_idx -
                                          decisionDelay + i] =
                            lane_of(s->Shape_Q14, Winner_ind);
                    }

                    subfr = 0;
                }

                /* Rewhiten with new A coefs */
                start_idx = psEncC->ltp_mem_length - lag -
                            psEncC->predictLPCOrder - LTP_ORDER / 2;

                ct_silk_LPC_analysis_filter(
                    &sLTP[start_idx],
                    &NSQ->xq[start_idx + k * psEncC->subfr_length], A_Q12,
                    psEncC->ltp_mem_length - start_idx,
                    psEncC->predictLPCOrder);

                NSQ->sLTP_buf_idx = psEncC->ltp_mem_length;
                NSQ->rewhite_flag = 1;
            }
        }

        scale_states(psEncC, NSQ, &dd, x16, x_sc_Q10, sLTP, sLTP_Q15, k,
                     LTP_scale_Q14, Gains_Q16, pitchL, psIndices->signalType,
                     decisionDelay);

        set_coefs(&coefs, A_Q12, AR_shp_Q13, psEncC->predictLPCOrder,
                  psEncC->shapingLPCOrder, psEncC->warping_Q16, Tilt_Q14[k],
                  LF_shp_Q14[k]);
        quantizer(NSQ, &dd, psIndices->signalType, x_sc_Q10, pulses, pxq,
                  sLTP_Q15, delayedGain_Q10, &coefs, B_Q14, lag,
                  HarmShapeFIRPacked_Q14, Gains_Q16[k], Lambda_Q10, offset_Q10,
                  psEncC->subfr_length, subfr++, psEncC->shapingLPCOrder,
                  psEncC->predictLPCOrder, invalid, &smpl_buf_idx,
                  decisionDelay);

        x16 += psEncC->subfr_length;
        pulses += psEncC->subfr_length;
        pxq += psEncC->subfr_length;
    }

    /* Find winner */
    Winner_ind = first_min(dd.RD_Q10, invalid);

    /* Copy final part of signals from winner state to output and long-term
     * filter states */
    psIndices->Seed = (int8_t)lane_of(dd.SeedInit, Winner_ind);
    last_smple_idx = smpl_buf_idx + decisionDelay;
    Gain_Q10 = silk_RSHIFT32(Gains_Q16[psEncC->nb_subfr - 1], 6);
    for (i = 0; i < decisionDelay; i++) {
        last_smple_idx = (last_smple_idx + DECISION_DELAY - 1) % DECISION_DELAY;
        const lane_sample *s = &dd.Samples[last_smple_idx];
        pulses[i - decisionDelay] =
            (int8_t)silk_RSHIFT_ROUND(lane_of(s->Q_Q10, Winner_ind), 10);
        pxq[i - decisionDelay] = (int16_t)silk_SAT16(silk_RSHIFT_ROUND(
            silk_SMULWW(lane_of(s->Xq_Q14, Winner_ind), Gain_Q10), 8));
        NSQ->sLTP_shp_Q14[NSQ->sLTP_shp_buf_idx - decisionDelay + i] =
            lane_of(s->Shape_Q14, Winner_ind);
    }
    for (i = 0; i < NSQ_LPC_BUF_LENGTH; i++)
        NSQ->sLPC_Q14[i] =
            lane_of(dd.sLPC_Q14[psEncC->subfr_length + i], Winner_ind);
    for (i = 0; i < MAX_SHAPE_LPC_ORDER; i++)
        NSQ->sAR2_Q14[i] = lane_of(low_dwords(dd.sAR2_Q14[i]), Winner_ind);

    /* Update states */
    NSQ->sLF_AR_shp_Q14 = lane_of(dd.LF_AR_Q14, Winner_ind);
    NSQ->sDiff_shp_Q14 = lane_of(dd.Diff_Q14, Winner_ind);
    NSQ->lagPrev = pitchL[psEncC->nb_subfr - 1];

    /* Save quantized speech signal */
    memmove(NSQ->xq, &NSQ->xq[psEncC->frame_length],
            psEncC->ltp_mem_length * sizeof(int16_t));
    memmove(NSQ->sLTP_shp_Q14, &NSQ->sLTP_shp_Q14[psEncC->frame_length],
            psEncC->ltp_mem_length * sizeof(int32_t));
}
