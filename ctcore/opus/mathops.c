/*
 * CELT's integer square root. Ports isqrt32 of celt/mathops.c (the rest of
 * that file is fixed-point only).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "mathops.h"

/* floor(sqrt(_val)) with exact arithmetic, _val > 0: the largest binary
 * digit b such that (g+b)*(g+b) <= _val is added to the solution g, from
 * the top (the second method of
 * http://www.azillionmonkeys.com/qed/sqroot.html). */
unsigned ct_celt_isqrt32(uint32_t _val)
{
    unsigned b;
    unsigned g;
    int bshift;
    g = 0;
    bshift = (ct_ec_ilog(_val) - 1) >> 1;
    b = 1U << bshift;
    do {
        uint32_t t;
        t = (((uint32_t)g << 1) + b) << bshift;
        if (t <= _val) {
            g += b;
            _val -= t;
        }
        b >>= 1;
        bshift--;
    } while (bshift >= 0);
    return g;
}
