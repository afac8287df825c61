/*
 * SILK's 2-band analysis filter bank (first-order allpass sections), the
 * VAD's band splitter.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/ana_filt_bank_1.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include "opus/silk/silk.h"

/* Coefficients for 2-band filter bank based on first-order allpass filters */
static const int16_t A_fb1_20 = 5394 << 1;
static const int16_t A_fb1_21 = -24290; /* (int16_t)(20623 << 1) */

/* Split signal into two decimated bands using first-order allpass filters */
void ct_silk_ana_filt_bank_1(const int16_t *in, int32_t *S, int16_t *outL,
                             int16_t *outH, const int32_t N)
{
    int k, N2 = silk_RSHIFT(N, 1);
    int32_t in32, X, Y, out_1, out_2;

    /* Internal variables and state are in Q10 format */
    for (k = 0; k < N2; k++) {
        /* Convert to Q10 */
        in32 = silk_LSHIFT((int32_t)in[2 * k], 10);

        /* All-pass section for even input sample */
        Y = silk_SUB32(in32, S[0]);
        X = silk_SMLAWB(Y, Y, A_fb1_21);
        out_1 = silk_ADD32(S[0], X);
        S[0] = silk_ADD32(in32, X);

        /* Convert to Q10 */
        in32 = silk_LSHIFT((int32_t)in[2 * k + 1], 10);

        /* All-pass section for odd input sample, and add to output of
         * previous section */
        Y = silk_SUB32(in32, S[1]);
        X = silk_SMULWB(Y, A_fb1_20);
        out_2 = silk_ADD32(S[1], X);
        S[1] = silk_ADD32(in32, X);

        /* Add/subtract, convert back to int16 and store to output */
        outL[k] = (int16_t)silk_SAT16(
            silk_RSHIFT_ROUND(silk_ADD32(out_2, out_1), 11));
        outH[k] = (int16_t)silk_SAT16(
            silk_RSHIFT_ROUND(silk_SUB32(out_2, out_1), 11));
    }
}
