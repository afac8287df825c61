/*
 * SILK's insertion sort (float, decreasing), fast for already almost
 * sorted arrays, which only makes sure of the K first of the L values:
 * a[0 .. K) are the K largest values, idx their indices.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 silk/float/sort_FLP.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors)
 */
#include <assert.h>

#include "opus/silk/silk.h"

void ct_silk_insertion_sort_decreasing_FLP(float *a, int *idx, const int L,
                                           const int K)
{
    float value;
    int i, j;

    /* Safety checks */
    assert(K > 0);
    assert(L > 0);
    assert(L >= K);

    /* Write start indices in index vector */
    for (i = 0; i < K; i++) {
        idx[i] = i;
    }

    /* Sort vector elements by value, decreasing order */
    for (i = 1; i < K; i++) {
        value = a[i];
        for (j = i - 1; (j >= 0) && (value > a[j]); j--) {
            a[j + 1] = a[j];     /* Shift value */
            idx[j + 1] = idx[j]; /* Shift index */
        }
        a[j + 1] = value; /* Write value */
        idx[j + 1] = i;   /* Write index */
    }

    /* If less than L values are asked check the remaining values,      */
    /* but only spend CPU to ensure that the K first values are correct */
    for (i = K; i < L; i++) {
        value = a[i];
        if (value > a[K - 1]) {
            for (j = K - 2; (j >= 0) && (value > a[j]); j--) {
                a[j + 1] = a[j];     /* Shift value */
                idx[j + 1] = idx[j]; /* Shift index */
            }
            a[j + 1] = value; /* Write value */
            idx[j + 1] = i;   /* Write index */
        }
    }
}
