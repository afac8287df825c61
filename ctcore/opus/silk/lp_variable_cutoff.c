/*
 * SILK's low-pass filter with a variable cutoff, for smooth switches of
 * the internal bandwidth: piece-wise linear interpolation between
 * elliptic filters (Cauer, 0.1 dB passband ripple, 80 dB minimum stopband
 * attenuation, [0.95 : 0.15 : 0.35] normalized cut off frequencies).
 * Started by setting psLP->mode <> 0, deactivated by setting it to 0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/LP_variable_cutoff.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors)
 */
#include <assert.h>
#include <string.h>

#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

/* the interpolation factor below is the frame number shifted by 16 - 6 */
_Static_assert(TRANSITION_INT_STEPS == 64, "TRANSITION_INT_STEPS is 64");

/* Helper function, interpolates the filter taps */
static void silk_LP_interpolate_filter_taps(int32_t B_Q28[TRANSITION_NB],
                                            int32_t A_Q28[TRANSITION_NA],
                                            const int ind,
                                            const int32_t fac_Q16)
{
    int nb, na;

    if (ind < TRANSITION_INT_NUM - 1) {
        if (fac_Q16 > 0) {
            if (fac_Q16 < 32768) { /* fac_Q16 is in range of a 16-bit int */
                /* Piece-wise linear interpolation of B and A */
                for (nb = 0; nb < TRANSITION_NB; nb++) {
                    B_Q28[nb] =
                        silk_SMLAWB(ct_silk_Transition_LP_B_Q28[ind][nb],
                                    ct_silk_Transition_LP_B_Q28[ind + 1][nb] -
                                        ct_silk_Transition_LP_B_Q28[ind][nb],
                                    fac_Q16);
                }
                for (na = 0; na < TRANSITION_NA; na++) {
                    A_Q28[na] =
                        silk_SMLAWB(ct_silk_Transition_LP_A_Q28[ind][na],
                                    ct_silk_Transition_LP_A_Q28[ind + 1][na] -
                                        ct_silk_Transition_LP_A_Q28[ind][na],
                                    fac_Q16);
                }
            } else { /* ( fac_Q16 - ( 1 << 16 ) ) is in range of a 16-bit int */
                /* Piece-wise linear interpolation of B and A */
                for (nb = 0; nb < TRANSITION_NB; nb++) {
                    B_Q28[nb] =
                        silk_SMLAWB(ct_silk_Transition_LP_B_Q28[ind + 1][nb],
                                    ct_silk_Transition_LP_B_Q28[ind + 1][nb] -
                                        ct_silk_Transition_LP_B_Q28[ind][nb],
                                    fac_Q16 - ((int32_t)1 << 16));
                }
                for (na = 0; na < TRANSITION_NA; na++) {
                    A_Q28[na] =
                        silk_SMLAWB(ct_silk_Transition_LP_A_Q28[ind + 1][na],
                                    ct_silk_Transition_LP_A_Q28[ind + 1][na] -
                                        ct_silk_Transition_LP_A_Q28[ind][na],
                                    fac_Q16 - ((int32_t)1 << 16));
                }
            }
        } else {
            memcpy(B_Q28, ct_silk_Transition_LP_B_Q28[ind],
                   TRANSITION_NB * sizeof(int32_t));
            memcpy(A_Q28, ct_silk_Transition_LP_A_Q28[ind],
                   TRANSITION_NA * sizeof(int32_t));
        }
    } else {
        memcpy(B_Q28, ct_silk_Transition_LP_B_Q28[TRANSITION_INT_NUM - 1],
               TRANSITION_NB * sizeof(int32_t));
        memcpy(A_Q28, ct_silk_Transition_LP_A_Q28[TRANSITION_INT_NUM - 1],
               TRANSITION_NA * sizeof(int32_t));
    }
}

/* Low-pass filter with variable cutoff frequency based on  */
/* piece-wise linear interpolation between elliptic filters */
void ct_silk_LP_variable_cutoff(ct_silk_LP_state *psLP, int16_t *frame,
                                const int frame_length)
{
    int32_t B_Q28[TRANSITION_NB], A_Q28[TRANSITION_NA], fac_Q16 = 0;
    int ind = 0;

    assert(psLP->transition_frame_no >= 0 &&
           psLP->transition_frame_no <= TRANSITION_FRAMES);

    /* Run filter if needed */
    if (psLP->mode != 0) {
        /* Calculate index and interpolation factor for interpolation */
        fac_Q16 =
            silk_LSHIFT(TRANSITION_FRAMES - psLP->transition_frame_no, 16 - 6);
        ind = silk_RSHIFT(fac_Q16, 16);
        fac_Q16 -= silk_LSHIFT(ind, 16);

        /* Interpolate filter coefficients */
        silk_LP_interpolate_filter_taps(B_Q28, A_Q28, ind, fac_Q16);

        /* Update transition frame number for next frame */
        psLP->transition_frame_no = silk_LIMIT(
            psLP->transition_frame_no + psLP->mode, 0, TRANSITION_FRAMES);

        /* ARMA low-pass filtering */
        ct_silk_biquad_alt_stride1(frame, B_Q28, A_Q28, psLP->In_LP_State,
                                   frame, frame_length);
    }
}
