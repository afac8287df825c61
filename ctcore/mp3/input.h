/*
 * The input side of the encoder: LAME's lame_encode_buffer and
 * lame_encode_flush, PCM to frame windows in mfbuf, each frame's
 * window handed to the graph (graph.h: the sequential chain or the ring).
 * It runs on the caller's thread and carries the input state of gfc:
 * sv_enc's input buffers, mfbuf, the resampler, ReplayGain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/lame.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#ifndef CTCORE_MP3_INPUT_H
#define CTCORE_MP3_INPUT_H

#include <stdint.h>

#include "graph.h"
#include "state.h"

/* lame_encode_buffer_int (what the lame CLI calls): nsamples (at most 1152)
 * interleaved 32-bit samples (full scale +-2^31) through lame_copy_inbuffer's transform (scaling, downmix), fill_buffer
 * (resampling) and the ReplayGain analysis; every frame that becomes
 * complete goes to the graph. Returns CT_OK or a CT_E* code. */
int ct_mp3_input_encode(ct_mp3_state *gfc, ct_mp3_graph *graph,
                        const int32_t *pcm, int nsamples);

/* lame_encode_flush: zeros until every input sample is in a frame, the
 * stream's ReplayGain, then the end of the stream (ct_mp3_graph_finish).
 * A second call does nothing. Returns CT_OK or a CT_E* code. */
int ct_mp3_input_flush(ct_mp3_state *gfc, ct_mp3_graph *graph);

#endif
