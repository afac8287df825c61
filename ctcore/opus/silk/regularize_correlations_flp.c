/*
 * SILK, float build: noise added to the correlations' diagonal. Ports
 * silk/float/regularize_correlations_FLP.c.
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

/* Add noise to matrix diagonal */
void ct_silk_regularize_correlations_FLP(
    float                       *XX,                                    /* I/O  Correlation matrices                        */
    float                       *xx,                                    /* I/O  Correlation values                          */
    const float                 noise,                                  /* I    Noise energy to add                         */
    const int                   D                                       /* I    Dimension of XX                             */
)
{
    int i;

    for( i = 0; i < D; i++ ) {
        matrix_ptr( &XX[ 0 ], i, i, D ) += noise;
    }
    xx[ 0 ] += noise;
}
