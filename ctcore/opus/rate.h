/*
 * The CELT bit allocation: the pulse cache lookups (bits <-> pulses of a
 * band) and the allocation of a frame's bits to bands, fine energy and PVQ,
 * which codes the skip, intensity and dual-stereo symbols. Encoder side
 * of celt/rate.{c,h}.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_RATE_H
#define CTCORE_OPUS_RATE_H

#include <stdint.h>

#include "mode.h"
#include "range_enc.h"

/* celt/rate.h constants */
#define CT_CELT_MAX_PSEUDO             40
#define CT_CELT_LOG_MAX_PSEUDO         6
#define CT_CELT_MAX_PULSES             128
#define CT_CELT_MAX_FINE_BITS          8
#define CT_CELT_FINE_OFFSET            21
#define CT_CELT_QTHETA_OFFSET          4
#define CT_CELT_QTHETA_OFFSET_TWOPHASE 16

/* get_pulses: the number of pulses of pseudo-pulse index i */
static inline int ct_celt_get_pulses(int i)
{
    return i < 8 ? i : (8 + (i & 7)) << ((i >> 3) - 1);
}

/* bits2pulses: the pseudo-pulse index whose cost (in 1/8 bits) is closest
 * to bits in band `band` at LM */
static inline int ct_celt_bits2pulses(const ct_celt_mode *m, int band, int LM,
                                      int bits)
{
    int i;
    int lo, hi;
    const unsigned char *cache;

    LM++;
    cache = m->cache.bits + m->cache.index[LM * m->nbEBands + band];

    lo = 0;
    hi = cache[0];
    bits--;
    for (i = 0; i < CT_CELT_LOG_MAX_PSEUDO; i++) {
        int mid = (lo + hi + 1) >> 1;
        if ((int)cache[mid] >= bits)
            hi = mid;
        else
            lo = mid;
    }
    if (bits - (lo == 0 ? -1 : (int)cache[lo]) <= (int)cache[hi] - bits)
        return lo;
    else
        return hi;
}

/* pulses2bits: the cost in 1/8 bits of pseudo-pulse index `pulses` */
static inline int ct_celt_pulses2bits(const ct_celt_mode *m, int band, int LM,
                                      int pulses)
{
    const unsigned char *cache;

    LM++;
    cache = m->cache.bits + m->cache.index[LM * m->nbEBands + band];
    return pulses == 0 ? 0 : cache[pulses] + 1;
}

/* clt_compute_allocation: fills pulses (the PVQ bits of each band, 1/8
 * bits), ebits (fine energy bits), fine_priority, *balance, *intensity and
 * *dual_stereo; writes the skip, intensity and dual-stereo symbols to ec.
 * encode must be 1 (the decoder's branch is not ported). Returns the
 * number of coded bands. */
int ct_celt_compute_allocation(const ct_celt_mode *m, int start, int end,
                               const int *offsets, const int *cap,
                               int alloc_trim, int *intensity,
                               int *dual_stereo, int32_t total,
                               int32_t *balance, int *pulses, int *ebits,
                               int *fine_priority, int C, int LM,
                               ct_ec_enc *ec, int encode, int prev,
                               int signalBandwidth);

#endif
