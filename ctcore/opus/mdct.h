/*
 * CELT's forward MDCT (through an N/4-point complex FFT) in the float
 * build. Ports celt/mdct.{c,h}, forward transform only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_MDCT_H
#define CTCORE_OPUS_MDCT_H

#include "dsp.h"
#include "fft.h"

/* mdct_lookup */
typedef struct ct_mdct_lookup {
    int n;
    int maxshift;
    const ct_fft_state *kfft[4];
    const float *trig;
} ct_mdct_lookup;

/* clt_mdct_forward_c: the MDCT of in (N >> shift samples plus the overlap,
 * windowed by window over overlap samples), scaled by 4/N, written to
 * out[0], out[stride], ...; in is used as scratch (trashed); the FFT
 * is dsp's */
void ct_clt_mdct_forward(const ct_mdct_lookup *l, float *in,
                         float *restrict out, const float *window,
                         int overlap, int shift, int stride,
                         const ct_opus_dsp *dsp);

#endif
