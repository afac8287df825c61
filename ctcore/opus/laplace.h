/*
 * The Laplace-distributed symbols of CELT's coarse energy, encoder side.
 * Ports celt/laplace.{c,h}.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_LAPLACE_H
#define CTCORE_OPUS_LAPLACE_H

#include "range_enc.h"

/* Encodes *value with a Laplace distribution of probability fs/32768 for
 * zero and decay/16384 between consecutive magnitudes; *value is clamped
 * to what the distribution can code. */
void ct_ec_laplace_encode(ct_ec_enc *enc, int *value, unsigned fs, int decay);

#endif
