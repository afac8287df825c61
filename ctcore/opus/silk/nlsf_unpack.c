/*
 * SILK's unpacking of a CB1 index into entropy table indices and the predictor.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/NLSF_unpack.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"
#include "opus/silk/structs.h"

/* Unpack predictor values and indices for entropy coding tables */
void ct_silk_NLSF_unpack(
          int16_t               ec_ix[],                        /* O    Indices to entropy tables [ LPC_ORDER ]     */
          uint8_t               pred_Q8[],                      /* O    LSF predictor [ LPC_ORDER ]                 */
    const ct_silk_NLSF_CB_struct *psNLSF_CB,                    /* I    Codebook object                             */
    const int                   CB1_index                       /* I    Index of vector in first LSF codebook       */
)
{
    int           i;
    uint8_t       entry;
    const uint8_t *ec_sel_ptr;

    ec_sel_ptr = &psNLSF_CB->ec_sel[ CB1_index * psNLSF_CB->order / 2 ];
    for( i = 0; i < psNLSF_CB->order; i += 2 ) {
        entry = *ec_sel_ptr++;
        ec_ix  [ i     ] = silk_SMULBB( silk_RSHIFT( entry, 1 ) & 7, 2 * NLSF_QUANT_MAX_AMPLITUDE + 1 );
        pred_Q8[ i     ] = psNLSF_CB->pred_Q8[ i + ( entry & 1 ) * ( psNLSF_CB->order - 1 ) ];
        ec_ix  [ i + 1 ] = silk_SMULBB( silk_RSHIFT( entry, 5 ) & 7, 2 * NLSF_QUANT_MAX_AMPLITUDE + 1 );
        pred_Q8[ i + 1 ] = psNLSF_CB->pred_Q8[ i + ( silk_RSHIFT( entry, 4 ) & 1 ) * ( psNLSF_CB->order - 1 ) + 1 ];
    }
}
