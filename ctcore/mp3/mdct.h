/*
 * The analysis filterbank: polyphase filter (32 subbands x 18 samples per
 * granule) and MDCT (576 lines per granule), LAME's newmdct.c.
 *
 * Stateless and carried parts (for the frame ring):
 *   ct_mp3_polyphase     stateless: a granule's subband samples are a
 *                        function of its input window alone.
 *   ct_mp3_mdct_granule  stateless: a granule's lines are a function of its
 *                        own and the previous granule's subband samples and
 *                        of its block type.
 *   ct_mp3_mdct_sub48    carries the filterbank state: the subband samples
 *                        of the last granule (sv_enc.sb_sample), the only
 *                        thing one frame's filterbank passes to the next.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/newmdct.c and newmdct.h
 * (LGPL-2.0-or-later, the LAME project)
 */
#ifndef CTCORE_MP3_MDCT_H
#define CTCORE_MP3_MDCT_H

#include "mdct_dsp.h"
#include "state.h"

/* window_subband (by dsp) over one granule of one channel: the 18 x 32 subband
 * samples of the 576 input samples from wk on (wk[-286] .. wk[768] are
 * read), with every second sample's odd subbands negated and the
 * subbands scaled by amp_filter (the lowpass / highpass), as LAME leaves
 * them in sb_sample. */
void ct_mp3_polyphase(const ct_mp3_mdct_dsp *dsp, const float amp_filter[SBLIMIT],
                      const float *wk, float samp[18][SBLIMIT]);

/* The MDCT and aliasing reduction of one granule of one channel: xr from
 * the subband samples of the previous granule (prev) and this one (cur).
 * mixed blocks are never used (LAME's encoder always clears
 * mixed_block_flag). */
void ct_mp3_mdct_granule(const float amp_filter[SBLIMIT],
                         const float prev[18][SBLIMIT],
                         const float cur[18][SBLIMIT], int block_type,
                         float xr[576]);

/* mdct_sub48: polyphase and MDCT of every granule and channel of the frame
 * at w0 / w1 (mfbuf) into l3_side.tt[gr][ch].xr, with the block types of
 * l3_side.tt; updates sv_enc.sb_sample. */
void ct_mp3_mdct_sub48(ct_mp3_state *gfc, const float *w0, const float *w1);

#endif
