/*
 * The test and bench entries of the public MP3 encoder (encoder.c); the
 * API itself is ctcore/mp3.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_ENCODER_H
#define CTCORE_MP3_ENCODER_H

#include <stddef.h>

#include "ctcore/mp3.h"
#include "graph.h"

/*
 * For tests/mp3/ring.c, tests/mp3/state.c and bench/mp3_stages:
 * ct_mp3_encoder_new on a ring of `ring` slots, on any pool, one worker
 * included (ring > 0: the ring runs even where ct_mp3_encoder_new would
 * run the sequential chain; 0: as ct_mp3_encoder_new).
 */
int ct_mp3_encoder_new_ring(ct_pool *pool, const ct_mp3_settings *settings,
                            size_t ring, ct_mp3_encoder **encoder, char *errbuf,
                            size_t errbuf_size);
/* The encoder's graph (its trace, ct_mp3_graph_poison). */
ct_mp3_graph *ct_mp3_encoder_graph(ct_mp3_encoder *encoder);

#endif
