/*
 * SILK: the short-term prediction and the noise shaping feedback loop the
 * two noise shaping quantisers share. Ports silk/NSQ.h (the C versions:
 * Debian's x86 build has no other).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_SILK_NSQ_H
#define CTCORE_OPUS_SILK_NSQ_H

#include "opus/silk/macros.h"

static inline int32_t silk_noise_shape_quantizer_short_prediction_c(const int32_t *buf32, const int16_t *coef16, int order)
{
    int32_t out;

    /* Avoids introducing a bias because silk_SMLAWB() always rounds to -inf */
    out = silk_RSHIFT( order, 1 );
    out = silk_SMLAWB( out, buf32[  0 ], coef16[ 0 ] );
    out = silk_SMLAWB( out, buf32[ -1 ], coef16[ 1 ] );
    out = silk_SMLAWB( out, buf32[ -2 ], coef16[ 2 ] );
    out = silk_SMLAWB( out, buf32[ -3 ], coef16[ 3 ] );
    out = silk_SMLAWB( out, buf32[ -4 ], coef16[ 4 ] );
    out = silk_SMLAWB( out, buf32[ -5 ], coef16[ 5 ] );
    out = silk_SMLAWB( out, buf32[ -6 ], coef16[ 6 ] );
    out = silk_SMLAWB( out, buf32[ -7 ], coef16[ 7 ] );
    out = silk_SMLAWB( out, buf32[ -8 ], coef16[ 8 ] );
    out = silk_SMLAWB( out, buf32[ -9 ], coef16[ 9 ] );

    if( order == 16 )
    {
        out = silk_SMLAWB( out, buf32[ -10 ], coef16[ 10 ] );
        out = silk_SMLAWB( out, buf32[ -11 ], coef16[ 11 ] );
        out = silk_SMLAWB( out, buf32[ -12 ], coef16[ 12 ] );
        out = silk_SMLAWB( out, buf32[ -13 ], coef16[ 13 ] );
        out = silk_SMLAWB( out, buf32[ -14 ], coef16[ 14 ] );
        out = silk_SMLAWB( out, buf32[ -15 ], coef16[ 15 ] );
    }
    return out;
}

static inline int32_t silk_NSQ_noise_shape_feedback_loop_c(const int32_t *data0, int32_t *data1, const int16_t *coef, int order)
{
    int32_t out;
    int32_t tmp1, tmp2;
    int j;

    tmp2 = data0[0];
    tmp1 = data1[0];
    data1[0] = tmp2;

    out = silk_RSHIFT(order, 1);
    out = silk_SMLAWB(out, tmp2, coef[0]);

    for (j = 2; j < order; j += 2) {
        tmp2 = data1[j - 1];
        data1[j - 1] = tmp1;
        out = silk_SMLAWB(out, tmp1, coef[j - 1]);
        tmp1 = data1[j + 0];
        data1[j + 0] = tmp2;
        out = silk_SMLAWB(out, tmp2, coef[j]);
    }
    data1[order - 1] = tmp1;
    out = silk_SMLAWB(out, tmp1, coef[order - 1]);
    /* Q11 -> Q12 */
    out = silk_LSHIFT32( out, 1 );
    return out;
}

#endif
