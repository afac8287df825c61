/*
 * SILK, float build: the correlation matrix and vector of the LS
 * estimates. Ports silk/float/corrMatrix_FLP.c.
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

/* Calculates correlation vector X'*t */
void ct_silk_corrVector_FLP(
    const float                 *x,                                     /* I    x vector [L+order-1] used to create X       */
    const float                 *t,                                     /* I    Target vector [L]                           */
    const int                   L,                                      /* I    Length of vecors                            */
    const int                   Order,                                  /* I    Max lag for correlation                     */
    float                       *Xt                                     /* O    X'*t correlation vector [order]             */
)
{
    int lag;
    const float *ptr1;

    ptr1 = &x[ Order - 1 ];                     /* Points to first sample of column 0 of X: X[:,0] */
    for( lag = 0; lag < Order; lag++ ) {
        /* Calculate X[:,lag]'*t */
        Xt[ lag ] = (float)ct_silk_inner_product_FLP( ptr1, t, L );
        ptr1--;                                 /* Next column of X */
    }
}

/* Calculates correlation matrix X'*X */
void ct_silk_corrMatrix_FLP(
    const float                 *x,                                     /* I    x vector [ L+order-1 ] used to create X     */
    const int                   L,                                      /* I    Length of vectors                           */
    const int                   Order,                                  /* I    Max lag for correlation                     */
    float                       *XX                                     /* O    X'*X correlation matrix [order x order]     */
)
{
    int j, lag;
    double  energy;
    const float *ptr1, *ptr2;

    ptr1 = &x[ Order - 1 ];                     /* First sample of column 0 of X */
    energy = ct_silk_energy_FLP( ptr1, L );  /* X[:,0]'*X[:,0] */
    matrix_ptr( XX, 0, 0, Order ) = ( float )energy;
    for( j = 1; j < Order; j++ ) {
        /* Calculate X[:,j]'*X[:,j] */
        energy += ptr1[ -j ] * ptr1[ -j ] - ptr1[ L - j ] * ptr1[ L - j ];
        matrix_ptr( XX, j, j, Order ) = ( float )energy;
    }

    ptr2 = &x[ Order - 2 ];                     /* First sample of column 1 of X */
    for( lag = 1; lag < Order; lag++ ) {
        /* Calculate X[:,0]'*X[:,lag] */
        energy = ct_silk_inner_product_FLP( ptr1, ptr2, L );
        matrix_ptr( XX, lag, 0, Order ) = ( float )energy;
        matrix_ptr( XX, 0, lag, Order ) = ( float )energy;
        /* Calculate X[:,j]'*X[:,j + lag] */
        for( j = 1; j < ( Order - lag ); j++ ) {
            energy += ptr1[ -j ] * ptr2[ -j ] - ptr1[ L - j ] * ptr2[ L - j ];
            matrix_ptr( XX, lag + j, j, Order ) = ( float )energy;
            matrix_ptr( XX, j, lag + j, Order ) = ( float )energy;
        }
        ptr2--;                                 /* Next column of X */
    }
}
