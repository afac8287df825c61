/*
 * SILK, float build: the LTP state scaling index. Ports
 * silk/float/LTP_scale_ctrl_FLP.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/structs.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

void ct_silk_LTP_scale_ctrl_FLP(
    ct_silk_encoder_state_FLP   *psEnc,                                 /* I/O  Encoder state FLP                           */
    ct_silk_encoder_control_FLP *psEncCtrl,                             /* I/O  Encoder control FLP                         */
    int                         condCoding                              /* I    The type of conditional coding to use       */
)
{
    int   round_loss;

    if( condCoding == CODE_INDEPENDENTLY ) {
        /* Only scale if first frame in packet */
        round_loss = psEnc->sCmn.PacketLoss_perc + psEnc->sCmn.nFramesPerPacket;
        psEnc->sCmn.indices.LTP_scaleIndex = (int8_t)silk_LIMIT( round_loss * psEncCtrl->LTPredCodGain * 0.1f, 0.0f, 2.0f );
    } else {
        /* Default is minimum scaling */
        psEnc->sCmn.indices.LTP_scaleIndex = 0;
    }

    psEncCtrl->LTP_scale = (float)ct_silk_LTPScales_table_Q14[ psEnc->sCmn.indices.LTP_scaleIndex ] / 16384.0f;
}
