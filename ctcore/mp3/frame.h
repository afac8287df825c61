/*
 * One MP3 frame from the frame buffer mfbuf: psychoacoustics, ATH
 * adjustment, filterbank (polyphase + MDCT), M/S decision, quantization and
 * bitstream formatting, in LAME's order.
 *
 * ct_mp3_encode_frame is the sequential chain (lame_encode_mp3_frame). The
 * other functions are the same stages cut where the frame ring (graph.c)
 * needs them cut, by what they read and write:
 *
 *   stateless, per frame    ct_mp3_frame_prepare (psy prepare, polyphase),
 *                           ct_mp3_frame_mdct (given the subband samples of
 *                           the frame before's last granule),
 *                           ct_mp3_ms_decision, ct_mp3_frame_vbr_prepare
 *                           (given the frame's ATH.adjust_factor),
 *                           ct_mp3_frame_loop_search (on a scratch state),
 *                           ct_mp3_frame_psy_mask (given the decisions)
 *   carry analysis state    ct_mp3_frame_psy_decide (sv_psy but en and thm,
 *                           ov_psy; records sv_qnt.masking_lower and
 *                           ATH.adjust_factor for mask and finish),
 *                           ct_mp3_frame_psy_finish (sv_psy.en, thm),
 *                           ct_mp3_adjust_ath (ATH.adjust_factor and
 *                           adjust_limit),
 *                           ct_mp3_set_masking_lower (sv_qnt.masking_lower),
 *                           ct_mp3_frame_loop_resolve (slot_lag, pefirbuf)
 *   carry coding state      ct_mp3_frame_encode (padding, CBR/ABR loops or
 *                           the VBR commit, reservoir, bitstream, tag)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/encoder.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#ifndef CTCORE_MP3_FRAME_H
#define CTCORE_MP3_FRAME_H

#include "bitstream.h"
#include "psy.h"
#include "quantize.h"
#include "state.h"

/* lame_encode_mp3_frame: encodes the frame at inbuf_l/inbuf_r (mfbuf, with
 * its look-ahead) and moves the finished bytes of the stream to mp3buf.
 * Returns their count, or a negative value when mp3buf_size is too small. */
int ct_mp3_encode_frame(ct_mp3_state *gfc, const float *inbuf_l,
                        const float *inbuf_r, unsigned char *mp3buf,
                        int mp3buf_size);

/* ---- the stages, for the frame ring ------------------------------------ */

/* A fresh per-frame record (as lame_encode_mp3_frame's locals start). */
void ct_mp3_frame_record_init(ct_mp3_frame *fr);

/* lame_encode_frame_init without the MDCT: the subband samples of the last
 * granule of the priming block, from the first frame's input; the
 * filterbank's carry before the first frame (window_subband by dsp). */
void ct_mp3_prime_filterbank(const ct_mp3_config *cfg, const ct_mp3_mdct_dsp *dsp,
                             const float amp_filter[SBLIMIT], const float *const inbuf[2],
                             float carry[2][18][SBLIMIT]);

/* Stateless: the psychoacoustic prepare of every granule (pg[gr]; the short
 * blocks too if with_short) and the polyphase filter of every granule and
 * channel (sb[gr][ch]) of the frame at inbuf. Reads of gfc: cfg, cd_psy,
 * ATH.eql_w, sv_enc.amp_filter, dsp. */
void ct_mp3_frame_prepare(const ct_mp3_state *gfc, const float *const inbuf[2],
                          int with_short, ct_mp3_psy_granule pg[2],
                          float sb[2][2][18][SBLIMIT]);

/* Carries state (sv_psy but its en and thm, ov_psy): ct_mp3_psy_decide
 * of every granule of the frame into dec and the record fr (energies,
 * block types, ms_ener_ratio), and the block types into l3_side->tt. */
void ct_mp3_frame_psy_decide(ct_mp3_state *gfc, const ct_mp3_psy_granule pg[2],
                             ct_mp3_frame *fr, ct_mp3_psy_decision dec[2],
                             ct_mp3_side_info *l3_side);

/* Stateless: ct_mp3_psy_mask of every granule of the frame into mask[gr].
 * inbuf: the frame's input, for the short blocks prepare left out. */
void ct_mp3_frame_psy_mask(const ct_mp3_state *gfc, const float *const inbuf[2],
                           ct_mp3_psy_granule pg[2], const ct_mp3_psy_decision dec[2],
                           ct_mp3_psy_ratio mask[2][4]);

/* Carries state (sv_psy.en and thm): ct_mp3_psy_finish of every granule
 * of the frame into the record fr (masking, pe). */
void ct_mp3_frame_psy_finish(ct_mp3_state *gfc, const ct_mp3_psy_granule pg[2],
                             const ct_mp3_psy_decision dec[2],
                             const ct_mp3_psy_ratio mask[2][4], ct_mp3_frame *fr);

/* adjust_ATH: ATH.adjust_factor for this frame from the loudness the model
 * left in ov_psy. */
void ct_mp3_adjust_ath(ct_mp3_state *gfc);

/* Frame-local: the MDCT of every granule and channel into
 * l3_side->tt[gr][ch].xr, with the block types there, from the subband
 * samples sb of ct_mp3_frame_prepare and, before the first granule, carry
 * (the subband samples of the last granule of the frame before: the
 * filterbank's state, which the caller carries). */
void ct_mp3_frame_mdct(const ct_mp3_config *cfg, const float amp_filter[SBLIMIT],
                       const float carry[2][18][SBLIMIT], const float sb[2][2][18][SBLIMIT],
                       ct_mp3_side_info *l3_side);

/* The frame's mode_ext: MPG_MD_MS_LR or MPG_MD_LR_LR. */
int ct_mp3_ms_decision(const ct_mp3_config *cfg, const ct_mp3_frame *fr,
                       const ct_mp3_side_info *l3_side);

/* sv_qnt.masking_lower for the next frame's model, as the iteration loop of
 * this frame (whose block types l3_side holds) leaves it: a function of the
 * rate control and the last block type, so it can be set once the model of
 * the frame is done. */
void ct_mp3_set_masking_lower(ct_mp3_state *gfc, const ct_mp3_side_info *l3_side);

/* VBR, frame-local: clears work and runs ct_mp3_vbr_prepare with the
 * masking of mode_ext and the frame's ATH.adjust_factor. */
void ct_mp3_frame_vbr_prepare(const ct_mp3_state *gfc, const ct_mp3_frame *fr, int mode_ext,
                              float ath_adjust_factor, ct_mp3_side_info *l3_side,
                              ct_mp3_vbr_work *work);

/* CBR/ABR, carries state: the frame's padding (sv_enc.slot_lag; returned)
 * and its pe smoothed by the FIR over the frames (sv_enc.pefirbuf), in
 * fr, as the Encode step would find them. */
int ct_mp3_frame_loop_resolve(ct_mp3_state *gfc, ct_mp3_frame *fr, int mode_ext);
/* CBR/ABR, frame-local: ct_mp3_loop_prepare of l3_side and, if
 * speculate, ct_mp3_loop_speculate on scratch (the worker's own copy of
 * the quantization part of the encoder's state, state.h) from the step
 * size search start search[ch], with the frame's padding and
 * ATH.adjust_factor; fr's pe smoothed by ct_mp3_frame_loop_resolve. */
void ct_mp3_frame_loop_search(ct_mp3_state *scratch, ct_mp3_frame *fr, int mode_ext,
                              int padding, float ath_adjust_factor, int speculate,
                              int search[2][2], ct_mp3_side_info *l3_side,
                              ct_mp3_loop_work *work);
/* Carries state: the rest of the frame on gfc->l3_side (xr and block types
 * set; VBR: the searched frame; CBR/ABR with loop: the prepared frame):
 * padding, the quantization loop (VBR with work: ct_mp3_vbr_commit_frame
 * only; CBR/ABR with loop: ct_mp3_loop_commit), the bitstream, the bytes
 * out to mp3buf (their count, or negative when mp3buf_size is too small)
 * and the LAME tag's accounting. VBR with work: searched, if not NULL, is
 * the main data coded from the searched frame (ct_mp3_encode_main_data),
 * written where the commit did not requantize the frame. CBR/ABR with
 * loop: split, if not NULL, the commit's second channel helper
 * (ct_mp3_loop_split). */
int ct_mp3_frame_encode(ct_mp3_state *gfc, ct_mp3_frame *fr, int mode_ext,
                        ct_mp3_vbr_work *work, const ct_mp3_main_data *searched,
                        ct_mp3_loop_work *loop, const ct_mp3_loop_split *split,
                        unsigned char *mp3buf, int mp3buf_size);

#endif
