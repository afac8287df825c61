/*
 * Small integer helpers shared by the encoders.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_COMMON_INTMATH_H
#define CTCORE_COMMON_INTMATH_H

static inline int ct_min_int(int a, int b)
{
    return a < b ? a : b;
}

static inline int ct_max_int(int a, int b)
{
    return a > b ? a : b;
}

/* a / b rounded up, for a >= 0 and b > 0. */
static inline int ct_div_ceil(int a, int b)
{
    return (a + b - 1) / b;
}

#endif
