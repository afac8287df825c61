/*
 * The two versions of SILK's speech activity detector, for the kernel
 * table (libopus' SILK_VAD_GETSA_Q8_IMPL: the SSE4.1 one at arch >= 3),
 * and the noise level tracker both call: the VAD part of silk.h, for
 * dsp.c, which needs no more of SILK. Their signature is the dsp
 * table's vad_get_sa_q8: they update psEncC->sVAD and write
 * speech_activity_Q8, input_tilt_Q15 and input_quality_bands_Q15.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/main.h, silk/x86/main_sse.h
 * (BSD-3-Clause, Xiph.Org Foundation and contributors)
 */
#ifndef CTCORE_OPUS_SILK_VAD_H
#define CTCORE_OPUS_SILK_VAD_H

#include <stdint.h>

#include "opus/silk/structs.h"

int ct_silk_VAD_Init(ct_silk_VAD_state *psSilk_VAD);

/* VAD.c: the C version (libopus' silk_VAD_GetSA_Q8_c) */
int ct_silk_VAD_GetSA_Q8_c(ct_silk_encoder_state *psEncC, const int16_t pIn[]);

#if defined(__x86_64__)
/* x86/VAD_sse4_1.c: needs SSE4.1; its power scaling differs from the C
 * version's */
int ct_silk_VAD_GetSA_Q8_sse4_1(ct_silk_encoder_state *psEncC,
                                const int16_t pIn[]);
#endif

/* Updates the noise levels NL, inv_NL and the counter of psSilk_VAD from
 * the band energies pX */
void ct_silk_VAD_GetNoiseLevels(const int32_t pX[VAD_N_BANDS],
                                ct_silk_VAD_state *psSilk_VAD);

#endif
