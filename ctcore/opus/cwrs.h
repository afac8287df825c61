/*
 * The PVQ codeword index of a pulse vector (CELT's band shapes), encoder
 * side. Ports celt/cwrs.{c,h} (the table build, not SMALL_FOOTPRINT).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_CWRS_H
#define CTCORE_OPUS_CWRS_H

#include "range_enc.h"

/* Encodes the vector _y of N integers with sum |_y[j]| == K as its index
 * among V(N,K) codewords (ct_ec_enc_uint) */
void ct_celt_encode_pulses(const int *_y, int N, int K, ct_ec_enc *enc);

#endif
