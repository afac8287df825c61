/*
 * SILK: the pitch lags of the subframes from the lag index and the contour
 * index. Ports silk/decode_pitch.c (silk_decode_pitch).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"
#include "opus/silk/tables.h"

void ct_silk_decode_pitch(
    int16_t                     lagIndex,                               /* I                                                                */
    int8_t                      contourIndex,                           /* O                                                                */
    int                         pitch_lags[],                           /* O    4 pitch values                                              */
    const int                   Fs_kHz,                                 /* I    sampling frequency (kHz)                                    */
    const int                   nb_subfr                                /* I    number of sub frames                                        */
)
{
    int   lag, k, min_lag, max_lag, cbk_size;
    const int8_t *Lag_CB_ptr;

    if( Fs_kHz == 8 ) {
        if( nb_subfr == PE_MAX_NB_SUBFR ) {
            Lag_CB_ptr = &ct_silk_CB_lags_stage2[ 0 ][ 0 ];
            cbk_size   = PE_NB_CBKS_STAGE2_EXT;
        } else {
            Lag_CB_ptr = &ct_silk_CB_lags_stage2_10_ms[ 0 ][ 0 ];
            cbk_size   = PE_NB_CBKS_STAGE2_10MS;
        }
    } else {
        if( nb_subfr == PE_MAX_NB_SUBFR ) {
            Lag_CB_ptr = &ct_silk_CB_lags_stage3[ 0 ][ 0 ];
            cbk_size   = PE_NB_CBKS_STAGE3_MAX;
        } else {
            Lag_CB_ptr = &ct_silk_CB_lags_stage3_10_ms[ 0 ][ 0 ];
            cbk_size   = PE_NB_CBKS_STAGE3_10MS;
        }
    }

    min_lag = silk_SMULBB( PE_MIN_LAG_MS, Fs_kHz );
    max_lag = silk_SMULBB( PE_MAX_LAG_MS, Fs_kHz );
    lag = min_lag + lagIndex;

    for( k = 0; k < nb_subfr; k++ ) {
        pitch_lags[ k ] = lag + matrix_ptr( Lag_CB_ptr, k, contourIndex, cbk_size );
        pitch_lags[ k ] = silk_LIMIT( pitch_lags[ k ], min_lag, max_lag );
    }
}
