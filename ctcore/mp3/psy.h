/*
 * The psychoacoustic model (LAME's L3psycho_anal_vbr, which LAME 3.100 runs
 * for every rate control: CBR, ABR and VBR). Per granule and channel
 * (L, R and, in joint stereo, M and S) it computes the masking threshold
 * and energy of every scalefactor band, the perceptual entropy, the block
 * type and the energies of the four channels. Its results are one granule
 * late: the call for granule g returns those of granule g - 1, because the
 * block type of g - 1 depends on an attack in g.
 *
 * The work is split in two (the frame ring runs the first for many frames
 * at once and the second in frame order):
 *
 *   ct_mp3_psy_prepare  STATELESS. Reads the granule's input and the
 *                       per-encoder constants (cfg, cd_psy, ATH.eql_w),
 *                       writes a ct_mp3_psy_granule: the long FFTs and
 *                       their energies, the loudness, the high-passed
 *                       peaks for the attack detection, the partition
 *                       energies and the spreading function convolution
 *                       (about 90 % of the model's time); with with_short,
 *                       the same for the short blocks.
 *   ct_mp3_psy_prepare_short  STATELESS: the short block part alone.
 *                       LAME computes it only for granules that use short
 *                       blocks (an attack in the granule, or
 *                       force_short_block_calc), with the same code, so
 *                       its values do not depend on when it is computed:
 *                       the sequential chain computes it only when
 *                       ct_mp3_psy_resolve finds that it needs it (about
 *                       a third of the model's time saved); the frame ring
 *                       may compute it ahead, in parallel, or also leave it
 *                       to resolve (keeping the granule's input until then).
 *   ct_mp3_psy_resolve  CARRIES STATE (sv_psy, ov_psy): the rest, in three
 *                       parts that the frame ring runs as three nodes:
 *     ct_mp3_psy_decide CARRIES STATE: attack detection, block type choice,
 *                       the loudness for the ATH adjustment and the
 *                       energies of the granules before for the long block
 *                       pre-echo control (nb_l1, nb_l2); records in a
 *                       ct_mp3_psy_decision what the other two read of the
 *                       state as it stands now, with the two values other
 *                       stages set: sv_qnt.masking_lower (quantization of
 *                       the previous frame) and ATH.adjust_factor
 *                       (adjust_ATH after the previous frame's model).
 *     ct_mp3_psy_mask   STATELESS, given the decision: long block pre-echo
 *                       control, masking_lower, M/S thresholds,
 *                       partitions to scalefactor bands, long and short
 *                       (computing the short blocks if it needs them and
 *                       they are missing): the granule's masking before
 *                       the short block pre-echo control (about 80 % of
 *                       resolve's time).
 *     ct_mp3_psy_finish CARRIES STATE (the masking, sv_psy.en and thm):
 *                       hands out the previous granule's masking, short
 *                       block pre-echo control against it, perceptual
 *                       entropy.
 *   ct_mp3_psy_anal     prepare + resolve of one granule: L3psycho_anal_vbr.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/psymodel.c and psymodel.h
 * (LGPL-2.0-or-later, the LAME project)
 */
#ifndef CTCORE_MP3_PSY_H
#define CTCORE_MP3_PSY_H

#include "state.h"

/* What ct_mp3_psy_prepare computes for one granule. Channel index chn:
 * 0 L, 1 R, 2 M, 3 S (M and S only in joint stereo). */
typedef struct ct_mp3_psy_granule {
    /* energy of lines 11 .. HBLKSIZE - 1 of the long FFT */
    float tot_ener[4];
    /* loudness^2 approximation (for the ATH auto-adjustment), L and R */
    float loudness_sq[2];
    /* peak of the fs/4 high-passed signal in each ninth of the granule */
    float en_subshort[4][9];
    /* pulse-like signal detection: factor for each short block's thm */
    float sub_short_factor[4][3];
    /* long blocks, per partition: energy, spread masking threshold before
     * pre-echo control, and the tonal limit max * minval * avg_mask */
    float eb_l[4][CBANDS];
    float ecb_l[4][CBANDS];
    float lim_l[4][CBANDS];
    /* short blocks, per block and partition: energy and threshold before
     * masking_lower */
    float eb_s[4][3][CBANDS];
    float thr_s[4][3][CBANDS];
    /* eb_s and thr_s are set (ct_mp3_psy_prepare_short has run) */
    int has_short;
} ct_mp3_psy_granule;

/* psymodel_init: the model's constants (cd_psy; ATH.cb_l, cb_s, eql_w),
 * its initial state (sv_psy), cfg->msfix and the ATH auto-adjustment's
 * start values. Needs cfg, flags, scalefac_band. */
void ct_mp3_psy_init(ct_mp3_state *gfc);

/* Stateless: the analysis of the granule whose FFT window starts at
 * buffer[ch] (576 + gr * 576 - FFTOFFSET into the frame's input; reads
 * buffer[ch][0 .. BLKSIZE - 1]); the short block part only if with_short
 * (pg->has_short says whether it is there). */
void ct_mp3_psy_prepare(const ct_mp3_state *gfc, const float *const buffer[2],
                        int with_short, ct_mp3_psy_granule *pg);

/* Stateless: the short block part of the granule (eb_s, thr_s), from the
 * same buffer; sets pg->has_short. */
void ct_mp3_psy_prepare_short(const ct_mp3_state *gfc, const float *const buffer[2],
                              ct_mp3_psy_granule *pg);

/* What ct_mp3_psy_decide hands ct_mp3_psy_mask and ct_mp3_psy_finish of
 * one granule: its decisions and the values of the model's state (and of
 * the two stages that set masking_lower and ATH.adjust_factor) they read,
 * as the sequential chain reads them. */
typedef struct ct_mp3_psy_decision {
    /* the granule's block type choice per channel; [1] unread for mono */
    int uselongblock[2];
    /* the attacks found in each short block (and the one before) */
    int ns_attacks[4][4];
    /* the previous granule's ns_attacks[chn][2] */
    int last_attacks[4];
    /* the block types of the previous granule as this one found them,
     * before this one's choice made them START or SHORT */
    int blocktype_old[2];
    /* sv_qnt.masking_lower; the M/S thresholds' ATH factor */
    float masking_lower;
    float ath_factor;
    /* the long blocks' spread thresholds (ecb_l) of the granule before and
     * the one before that, per partition */
    float nb_l1[4][CBANDS];
    float nb_l2[4][CBANDS];
} ct_mp3_psy_decision;

/* Carries state (sv_psy but its en and thm, ov_psy): the decisions of the
 * granule pg into dec; the energies (the four tot_ener) of the granule
 * before into energy, its block types into blocktype_d, and its loudness
 * into ov_psy.loudness_sq[gr_out]. */
void ct_mp3_psy_decide(ct_mp3_state *gfc, const ct_mp3_psy_granule *pg, int gr_out,
                       float energy[4], int blocktype_d[2], ct_mp3_psy_decision *dec);

/* Stateless: the masking of the granule pg (mask[chn], chn < 4 in joint
 * stereo, else < channels) as dec decided it, before the short block
 * pre-echo control. When it needs the short blocks and pg has none,
 * computes them first from buffer (the granule's buffer of
 * ct_mp3_psy_prepare; may be NULL when pg->has_short). */
void ct_mp3_psy_mask(const ct_mp3_state *gfc, ct_mp3_psy_granule *pg,
                     const float *const buffer[2], const ct_mp3_psy_decision *dec,
                     ct_mp3_psy_ratio mask[4]);

/* Carries state (sv_psy.en and thm): the masking of the granule before
 * into masking_ratio[gr_out] and masking_MS_ratio[gr_out] (joint stereo)
 * and its perceptual entropy (with blocktype_d of ct_mp3_psy_decide) into
 * percep_entropy, percep_MS_entropy; keeps pg's mask, after the short
 * block pre-echo control, for the next granule. */
void ct_mp3_psy_finish(ct_mp3_state *gfc, const ct_mp3_psy_granule *pg,
                       const ct_mp3_psy_decision *dec, const ct_mp3_psy_ratio mask[4],
                       int gr_out, ct_mp3_psy_ratio masking_ratio[2][2],
                       ct_mp3_psy_ratio masking_MS_ratio[2][2], float percep_entropy[2],
                       float percep_MS_entropy[2], const int blocktype_d[2]);

/* Carries state: ct_mp3_psy_decide, ct_mp3_psy_mask and ct_mp3_psy_finish
 * of the granule pg: the results of the granule before it,
 * masking_ratio[gr_out], masking_MS_ratio[gr_out] (joint stereo),
 * percep_entropy, percep_MS_entropy, energy (the granule's four
 * tot_ener), blocktype_d, ov_psy.loudness_sq[gr_out]. buffer as
 * ct_mp3_psy_mask's. */
void ct_mp3_psy_resolve(ct_mp3_state *gfc, ct_mp3_psy_granule *pg,
                        const float *const buffer[2],
                        int gr_out, ct_mp3_psy_ratio masking_ratio[2][2],
                        ct_mp3_psy_ratio masking_MS_ratio[2][2],
                        float percep_entropy[2], float percep_MS_entropy[2],
                        float energy[4], int blocktype_d[2]);

/* L3psycho_anal_vbr: ct_mp3_psy_prepare and ct_mp3_psy_resolve of one
 * granule. Returns 0. */
int ct_mp3_psy_anal(ct_mp3_state *gfc, const float *const buffer[2],
                    int gr_out, ct_mp3_psy_ratio masking_ratio[2][2],
                    ct_mp3_psy_ratio masking_MS_ratio[2][2],
                    float percep_entropy[2], float percep_MS_entropy[2],
                    float energy[4], int blocktype_d[2]);

#endif
