/*
 * SILK's float inverse LPC prediction gain (the double-precision Levinson step-down).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/LPC_inv_pred_gain_FLP.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors, Skype Limited)
 */
#include "opus/silk/define.h"
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"

#include <string.h>

/* compute inverse of LPC prediction gain, and                          */
/* test if LPC coefficients are stable (all poles within unit circle)   */
/* this code is based on silk_a2k_FLP()                                 */
float ct_silk_LPC_inverse_pred_gain_FLP(    /* O    return inverse prediction gain, energy domain               */
    const float         *A,                 /* I    prediction coefficients [order]                             */
    int32_t             order               /* I    prediction order                                            */
)
{
    int    k, n;
    double invGain, rc, rc_mult1, rc_mult2, tmp1, tmp2;
    float  Atmp[ SILK_MAX_ORDER_LPC ];

    memcpy( Atmp, A, order * sizeof(float) );

    invGain = 1.0;
    for( k = order - 1; k > 0; k-- ) {
        rc = -Atmp[ k ];
        rc_mult1 = 1.0f - rc * rc;
        invGain *= rc_mult1;
        if( invGain * MAX_PREDICTION_POWER_GAIN < 1.0f ) {
            return 0.0f;
        }
        rc_mult2 = 1.0f / rc_mult1;
        for( n = 0; n < (k + 1) >> 1; n++ ) {
            tmp1 = Atmp[ n ];
            tmp2 = Atmp[ k - n - 1 ];
            Atmp[ n ]         = (float)( ( tmp1 - tmp2 * rc ) * rc_mult2 );
            Atmp[ k - n - 1 ] = (float)( ( tmp2 - tmp1 * rc ) * rc_mult2 );
        }
    }
    rc = -Atmp[ 0 ];
    rc_mult1 = 1.0f - rc * rc;
    invGain *= rc_mult1;
    if( invGain * MAX_PREDICTION_POWER_GAIN < 1.0f ) {
        return 0.0f;
    }
    return (float)invGain;
}
