/*
 * SILK stereo: the least-squares predictor of one signal from another,
 * and the smoothed norms of the basis and residual signals.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/stereo_find_predictor.c (BSD-3-Clause,
 * Xiph.Org Foundation and contributors, Skype Limited)
 */
#include "opus/silk/macros.h"
#include "opus/silk/silk.h"

/* Find least-squares prediction gain for one signal based on another and quantize it */
int32_t ct_silk_stereo_find_predictor(                          /* O    Returns predictor in Q13                    */
    int32_t                     *ratio_Q14,                     /* O    Ratio of residual and mid energies          */
    const int16_t               x[],                            /* I    Basis signal                                */
    const int16_t               y[],                            /* I    Target signal                               */
    int32_t                     mid_res_amp_Q0[],               /* I/O  Smoothed mid, residual norms                */
    int                         length,                         /* I    Number of samples                           */
    int                         smooth_coef_Q16                 /* I    Smoothing coefficient                       */
)
{
    int        scale, scale1, scale2;
    int32_t    nrgx, nrgy, corr, pred_Q13, pred2_Q10;

    /* Find  predictor */
    ct_silk_sum_sqr_shift( &nrgx, &scale1, x, length );
    ct_silk_sum_sqr_shift( &nrgy, &scale2, y, length );
    scale = silk_max_int( scale1, scale2 );
    scale = scale + ( scale & 1 );          /* make even */
    nrgy = silk_RSHIFT32( nrgy, scale - scale2 );
    nrgx = silk_RSHIFT32( nrgx, scale - scale1 );
    nrgx = silk_max_int( nrgx, 1 );
    corr = ct_silk_inner_prod_aligned_scale( x, y, scale, length );
    pred_Q13 = silk_DIV32_varQ( corr, nrgx, 13 );
    pred_Q13 = silk_LIMIT( pred_Q13, -(1 << 14), 1 << 14 );
    pred2_Q10 = silk_SMULWB( pred_Q13, pred_Q13 );

    /* Faster update for signals with large prediction parameters */
    smooth_coef_Q16 = (int)silk_max_int( smooth_coef_Q16, silk_abs( pred2_Q10 ) );

    /* Smoothed mid and residual norms */
    scale = silk_RSHIFT( scale, 1 );
    mid_res_amp_Q0[ 0 ] = silk_SMLAWB( mid_res_amp_Q0[ 0 ], silk_LSHIFT( silk_SQRT_APPROX( nrgx ), scale ) - mid_res_amp_Q0[ 0 ],
        smooth_coef_Q16 );
    /* Residual energy = nrgy - 2 * pred * corr + pred^2 * nrgx */
    nrgy = silk_SUB_LSHIFT32( nrgy, silk_SMULWB( corr, pred_Q13 ), 3 + 1 );
    nrgy = silk_ADD_LSHIFT32( nrgy, silk_SMULWB( nrgx, pred2_Q10 ), 6 );
    mid_res_amp_Q0[ 1 ] = silk_SMLAWB( mid_res_amp_Q0[ 1 ], silk_LSHIFT( silk_SQRT_APPROX( nrgy ), scale ) - mid_res_amp_Q0[ 1 ],
        smooth_coef_Q16 );

    /* Ratio of smoothed residual and mid norms */
    *ratio_Q14 = silk_DIV32_varQ( mid_res_amp_Q0[ 1 ], silk_max( mid_res_amp_Q0[ 0 ], 1 ), 14 );
    *ratio_Q14 = silk_LIMIT( *ratio_Q14, 0, 32767 );

    return pred_Q13;
}
