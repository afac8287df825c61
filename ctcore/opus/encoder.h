/*
 * What tests and bench/ reach inside an Opus encoder (encoder.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_OPUS_ENCODER_H
#define CTCORE_OPUS_ENCODER_H

#include "ctcore/opus.h"
#include "opus/graph.h"

/* The encoder's frame ring, NULL on the sequential path. */
ct_opus_graph *ct_opus_encoder_graph(ct_opus_encoder *encoder);

#endif
