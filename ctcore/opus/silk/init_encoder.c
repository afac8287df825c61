/*
 * SILK: the initialisation of one channel's encoder state.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/init_encoder.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include <string.h>

#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"
#include "opus/silk/structs.h"

/*********************************/
/* Initialize Silk Encoder state */
/*********************************/
int ct_silk_init_encoder(
    ct_silk_encoder_state_FLP       *psEnc,                                 /* I/O  Pointer to Silk FIX encoder state                                           */
    const ct_opus_dsp               *dsp                                    /* I    Run-time architecture                                                       */
)
{
    int ret = 0;

    /* Clear the entire encoder state */
    memset( psEnc, 0, sizeof( ct_silk_encoder_state_FLP ) );

    psEnc->sCmn.dsp = dsp;

    psEnc->sCmn.variable_HP_smth1_Q15 = silk_LSHIFT( ct_silk_lin2log( SILK_FIX_CONST( VARIABLE_HP_MIN_CUTOFF_HZ, 16 ) ) - ( 16 << 7 ), 8 );
    psEnc->sCmn.variable_HP_smth2_Q15 = psEnc->sCmn.variable_HP_smth1_Q15;

    /* Used to deactivate LSF interpolation, pitch prediction */
    psEnc->sCmn.first_frame_after_reset = 1;

    /* Initialize Silk VAD */
    ret += ct_silk_VAD_Init( &psEnc->sCmn.sVAD );

    return  ret;
}
