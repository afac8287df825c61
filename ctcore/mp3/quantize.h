/*
 * Quantization: the iteration loops that turn a granule's MDCT lines (xr)
 * and its masking (ratio, pe) into quantized lines (l3_enc), scalefactors,
 * global gain, Huffman table choice and bit counts, and the bit allocation
 * between granules, channels and the bit reservoir.
 *
 *   quantize.c        the loops per rate control (CBR, ABR, VBR "new"),
 *                     bit allocation (on_pe, reduce_side, ABR targets),
 *                     bitrate choice and the reservoir commit
 *   quantize_outer.c  CBR/ABR granule search: init_outer_loop, init_xrpow,
 *                     bin_search_StepSize, outer_loop and its noise shaping
 *   quantize_noise.c  allowed distortion (calc_xmin, athAdjust) and the
 *                     quantization noise (calc_noise)
 *   quantize_init.c   iteration_init: the ATH per scalefactor band, the
 *                     power tables, the nspsytune band factors
 *   vbr_search.c      VBR granule search (LAME's vbrquantize.c, vbr_mtrh)
 *   takehiro.c        quantization of xr^3/4, Huffman bit counting, table
 *                     choice, region division, scalefactor storage
 *
 * What depends on the bit reservoir (the one dependency from the bitstream
 * of frame N to the quantization of frame N+1):
 *
 *   VBR: nothing of the search. Per frame, ct_mp3_vbr_prepare (M/S
 *   conversion, init_outer_loop, calc_xmin, xr^3/4) and
 *   ct_mp3_vbr_search_frame (the scalefactor search, the first
 *   quantization and bit count of every granule) are functions of the
 *   frame's own input (xr, block types, ratio, mode_ext) and of the
 *   configuration; the per-encoder inputs they read (ATH, longfact,
 *   shortfact, sfb21_extra, bv_scf, qtab) are fixed after init, except
 *   ATH.adjust_factor, which the psychoacoustic stage sets per frame. Only
 *   ct_mp3_vbr_commit_frame needs the reservoir: it computes the bit budget
 *   (max_bits, from ResvFrameBegin/ResvMaxBits and the frame's pe), redoes
 *   a granule's quantization (outOfBitsStrategy) only when the frame's
 *   "as is" result does not fit that budget, picks the bitrate and updates
 *   the reservoir.
 *
 *   CBR and ABR: the target bits of every granule come from the reservoir
 *   (CBR: on_pe/ResvMaxBits; ABR: the maximum frame size), and the binary
 *   step size search starts where the previous granule of the channel
 *   ended (sv_qnt.OldValue, sv_qnt.CurrentStep), so outer_loop is serial.
 *   M/S conversion, init_outer_loop, init_xrpow and calc_xmin are not: they
 *   depend on the frame alone. sv_qnt.pseudohalf is scratch of the granule
 *   in outer_loop. ResvMaxBits also sets or clears bit 0x80 of
 *   sv_qnt.substep_shaping (read only by trancate_smallspectrums, which
 *   our settings never run).
 *
 * Settings the port reaches (presets and lame_init_qval): quant_comp and
 * quant_comp_short are always 9, noise_shaping_amp is 0, 1 or 2 (never 3:
 * no refine pass), substep_shaping is 0 or 2 (never bit 1 or 4: no
 * trancate_smallspectrums), use_best_huffman is 0 or 1 (never 2), vbr is
 * off, abr, mt or mtrh (never rh: no psfb21_analogsilence, no VBR-old
 * loop), free format is off.
 *
 * Left out as write-only in LAME 3.100: sv_qnt.masking_lower (set from
 * mask_adjust/mask_adjust_short before each granule, read nowhere).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/quantize.h, quantize_pvt.h and
 * vbrquantize.h (LGPL-2.0-or-later, the LAME project).
 */
#ifndef CTCORE_MP3_QUANTIZE_H
#define CTCORE_MP3_QUANTIZE_H

#include <stdbool.h>

#include "bitstream.h"
#include "runtime/lane.h"
#include "state.h"

/* ---- quantize_init.c ---------------------------------------------------- */

/* iteration_init: compute_ath, the power tables, Huffman region tables,
 * longfact/shortfact; once, after the configuration is set. */
void ct_mp3_iteration_init(ct_mp3_state *gfc);

/* ---- quantize.c: the iteration loops (called once per frame) ----------- */

void ct_mp3_cbr_iteration_loop(ct_mp3_state *gfc, const float pe[2][2],
                               const float ms_ener_ratio[2],
                               const ct_mp3_psy_ratio ratio[2][2]);
void ct_mp3_abr_iteration_loop(ct_mp3_state *gfc, const float pe[2][2],
                               const float ms_ener_ratio[2],
                               const ct_mp3_psy_ratio ratio[2][2]);

/* The target bits lo..hi for which a granule's outer_loop (or its start,
 * or its shaping) runs as it ran: it compares bit counts with the target
 * and nothing else reads it. Empty (lo > hi): no run. */
typedef struct ct_mp3_targ_range {
    int lo, hi;
} ct_mp3_targ_range;

/*
 * CBR and ABR frames in three steps, for a frame ring:
 *   ct_mp3_loop_prepare: what the loop computes of each granule before its
 *     target bits (M/S conversion, init_outer_loop, init_xrpow, calc_xmin);
 *     the frame's alone.
 *   ct_mp3_loop_speculate: the whole loop run ahead on a scratch state
 *     with a guessed reservoir (CBR: three quarters full, ABR: empty) and
 *     a guessed step size search start (the frame ring: where the previous
 *     frame's speculation ended); keeps for each granule the ranges of
 *     target bits its search and its shaping hold for, the granule as the
 *     binary search left it, and its quantization.
 *   ct_mp3_loop_commit: the loop proper, with the real reservoir and
 *     search starts. A granule whose target bits are in the speculation's
 *     ranges and whose binary search leaves it as the speculation's did
 *     takes the speculative quantization (the noise shaping after the
 *     search is a function of exactly those, the target's range and the
 *     granule's xrpow and l3_xmin); any other is shaped here.
 * The three give the bytes of the iteration loops above.
 */
typedef struct ct_mp3_loop_work {
    float l3_xmin[2][2][SFBMAX];  /* allowed distortion per band */
    float xrpow[2][2][576];       /* |xr|^3/4 */
    int active[2][2];             /* granule has energy to quantize */
    int ath_over[2][2];           /* bands above the ATH (calc_xmin) */
    /* speculation: the targets its step size search and its shaping ran
     * for, each empty where it did not run */
    ct_mp3_targ_range spec_start_targ[2][2];
    ct_mp3_targ_range spec_shape_targ[2][2];
    int spec_search[2][2][4];     /* its step size search: OldValue and
                                     CurrentStep before, and after */
    int spec_targ[2][2];          /* the target bits it ran with */
    /* the first granule's step size search from a second start that
     * leaves the granule as the first did (ct_mp3_loop_second_start): as
     * spec_search, and the targets it holds for, empty where none */
    int spec_second_search[2][4];
    ct_mp3_targ_range spec_second_targ[2];
    ct_mp3_gr_info spec_start[2][2]; /* the granule after outer_loop's start */
    ct_mp3_gr_info spec[2][2];    /* and after outer_loop */
    /* the granule's Huffman coded lines: the speculation's, replaced by
     * the commit's where the commit shapes the granule */
    ct_mp3_main_data part3[2][2];
    int speculated;               /* granules the speculation quantized */
    int taken;                    /* of which the commit took */
    int took[2][2];               /* which */
    int coded[2][2];              /* the commit's granules part3 holds */
} ct_mp3_loop_work;

/* Prepares l3_side's granules for the loop, with no speculation yet.
 * Reads of gfc: cfg,
 * scalefac_band, ATH, sv_qnt.longfact/shortfact/sfb21_extra,
 * cd_psy.decay. */
void ct_mp3_loop_prepare(const ct_mp3_state *gfc, int mode_ext, ct_mp3_side_info *l3_side,
                         const ct_mp3_psy_ratio ratio[2][2], ct_mp3_loop_work *work);
/* The speculative run on scratch, a copy of the encoder's state whose
 * l3_side holds the prepared granules and whose ov_enc (mode_ext,
 * padding) and ATH.adjust_factor are the frame's. pe is the smoothed pe.
 * search[ch]: the step size search's start to guess (sv_qnt.OldValue[ch],
 * sv_qnt.CurrentStep[ch]), then where the speculation leaves it. */
void ct_mp3_loop_speculate(ct_mp3_state *scratch, const float pe[2][2],
                           const float ms_ener_ratio[2], int search[2][2],
                           ct_mp3_loop_work *work);
/*
 * The commit's second channel on a helper: outer_loop of one channel
 * reads of the other nothing but the target bits, which the granule sets
 * for both before either runs (on_pe, reduce_side; ABR:
 * calc_target_bits), and writes of the state only its channel's step size
 * search (sv_qnt.OldValue, sv_qnt.CurrentStep) and sv_qnt.pseudohalf, the
 * scratch of one granule's search (its start resets every band it reads).
 * So where both channels of a granule need their outer_loop, the commit
 * posts channel 1's on the lane, run on `helper`, a copy of the encoder's
 * quantization part (state.h) with channel 1's search start copied in and
 * out, while it runs channel 0's and its iteration_finish_one; then it
 * completes the job and finishes channel 1. The same arithmetic on the
 * same inputs: the bytes of the loop.
 */
typedef struct ct_mp3_loop_split {
    ct_lane *lane;
    ct_mp3_state *helper;
} ct_mp3_loop_split;

/* After the speculative run on scratch (ct_mp3_loop_speculate), with
 * l3_side the prepared granules: the first granule's step size search
 * from start[ch] too (the previous frame's end, known only now), for each
 * channel whose speculation started elsewhere; kept where it leaves the
 * granule as the speculation's did, so that a commit starting there takes
 * the speculation's result without its own search. */
void ct_mp3_loop_second_start(ct_mp3_state *scratch, const ct_mp3_side_info *l3_side,
                              const int start[2][2], ct_mp3_loop_work *work);
/* The loop proper on gfc->l3_side's prepared granules; split: the second
 * channel's helper, NULL for none (and where the lane has no helper
 * serving, the commit runs both channels itself). */
void ct_mp3_loop_commit(ct_mp3_state *gfc, const float pe[2][2], const float ms_ener_ratio[2],
                        ct_mp3_loop_work *work, const ct_mp3_loop_split *split);
/* vbr_mt and vbr_mtrh: ct_mp3_vbr_prepare, ct_mp3_vbr_search_frame and
 * ct_mp3_vbr_commit_frame in a row, on a ct_mp3_vbr_work of its own. */
void ct_mp3_vbr_new_iteration_loop(ct_mp3_state *gfc, const float pe[2][2],
                                   const float ms_ener_ratio[2],
                                   const ct_mp3_psy_ratio ratio[2][2]);

/* The VBR frame between its three steps. */
typedef struct ct_mp3_vbr_work {
    float l3_xmin[2][2][SFBMAX];  /* allowed distortion per band */
    float xrpow[2][2][576];       /* |xr|^3/4 */
    int active[2][2];             /* granule has energy to quantize */
    int analog_silence;           /* no band above the ATH in the frame */
    int sfwork[2][2][SFBMAX];     /* the search's scalefactors */
    int vbrsfmin[2][2][SFBMAX];   /* smallest allowed scalefactors */
    int mingain_l[2][2];          /* largest vbrsfmin of the granule */
    int mingain_s[2][2][3];       /* the same per short window */
    int use_nbits_ch[2][2];       /* bits of the "as is" quantization */
    int refit;                    /* the commit requantized granules to fit */
} ct_mp3_vbr_work;

/* Frame-local (no reservoir): M/S conversion of l3_side->tt[][].xr when
 * mode_ext is MPG_MD_MS_LR, init_outer_loop, calc_xmin, init_xrpow. Reads
 * of gfc: cfg, scalefac_band, ATH, sv_qnt.longfact/shortfact/sfb21_extra,
 * cd_psy.decay. */
void ct_mp3_vbr_prepare(const ct_mp3_state *gfc, float ath_adjust_factor, int mode_ext,
                        ct_mp3_side_info *l3_side, const ct_mp3_psy_ratio ratio[2][2],
                        ct_mp3_vbr_work *work);
/* The reservoir step: bit budget from pe and the reservoir, fitting the
 * frame into it (ct_mp3_vbr_fit_frame), bitrate choice, reservoir update. */
void ct_mp3_vbr_commit_frame(ct_mp3_state *gfc, const float pe[2][2],
                             ct_mp3_vbr_work *work);

/* ---- quantize_outer.c --------------------------------------------------- */

void ct_mp3_init_outer_loop(const ct_mp3_state *gfc, ct_mp3_gr_info *cod_info);
/* 1 if there is energy to quantize (xrpow set, by dsp), else 0 (l3_enc
 * zeroed). */
int ct_mp3_init_xrpow(const ct_mp3_quantize_dsp *dsp, ct_mp3_gr_info *cod_info,
                      float xrpow[576]);
/* CBR/ABR: outer_loop (the best quantization within targ_bits) in its two
 * steps: the start (resets sv_qnt.pseudohalf for substep shaping; the
 * binary step size search from sv_qnt.OldValue[ch], sv_qnt.CurrentStep[ch])
 * and the noise shaping, which depends on the start's global gain only and
 * returns the number of distorted bands (100 without noise shaping). Each
 * narrows range, if not NULL, to the targets that give its result. */
void ct_mp3_outer_loop_start(ct_mp3_state *gfc, ct_mp3_gr_info *cod_info,
                             const float xrpow[576], int ch, int targ_bits,
                             ct_mp3_targ_range *range);
int ct_mp3_outer_loop_shape(ct_mp3_state *gfc, ct_mp3_gr_info *cod_info,
                            const float *l3_xmin, float xrpow[576], int targ_bits,
                            ct_mp3_targ_range *range);

/* ---- quantize_noise.c --------------------------------------------------- */

typedef struct ct_mp3_noise_result { /* calc_noise_result */
    float over_noise; /* sum of quantization noise > masking */
    float tot_noise;  /* sum of all quantization noise */
    float max_noise;  /* max quantization noise */
    int over_count;   /* number of quantization noise > masking */
    int over_SSD;     /* SSD-like cost of distorted bands */
    int bits;
} ct_mp3_noise_result;

/* calc_noise_data: noise values of the previous call, reused where a band's
 * step did not change. */
typedef struct ct_mp3_noise_data {
    int global_gain;
    int sfb_count1;
    int step[39];
    float noise[39];
    float noise_log[39];
} ct_mp3_noise_data;

/* calc_xmin with the frame's ATH.adjust_factor (adjust_ATH's), an
 * argument so that frames ahead of the model's may run it. */
int ct_mp3_calc_xmin(const ct_mp3_state *gfc, float ath_adjust_factor,
                     const ct_mp3_psy_ratio *ratio, ct_mp3_gr_info *cod_info, float *pxmin);
int ct_mp3_calc_noise(const ct_mp3_qnt_tables *qtab,
                      const ct_mp3_gr_info *cod_info, const float *l3_xmin,
                      float *distort, ct_mp3_noise_result *res,
                      ct_mp3_noise_data *prev_noise);

/* ---- vbr_search.c ------------------------------------------------------- */

/* The search and the "as is" quantization of every active granule of
 * l3_side (VBR_encode_frame up to its first bit check, with the final
 * scalefactor storage and region division); no reservoir input. Reads of
 * gfc: cfg, scalefac_band, sv_qnt.bv_scf, qtab. */
void ct_mp3_vbr_search_frame(const ct_mp3_state *gfc, ct_mp3_side_info *l3_side,
                             ct_mp3_vbr_work *work);
/* Whether the searched frame keeps within the fields' limits (each
 * granule's channel within part2_3_length's 12 bits, each granule within
 * MAX_BITS_PER_GRANULE): then ct_mp3_vbr_fit_frame requantizes it only
 * where the frame's bit budget asks for it. */
bool ct_mp3_vbr_within_limits(const ct_mp3_config *cfg, const ct_mp3_vbr_work *work);
/* The rest of VBR_encode_frame: fits the frame into max_bits (granules
 * with max_bits 0 are silent), re-searching granules only when it does not
 * fit (work->refit). Returns the bits used. */
int ct_mp3_vbr_fit_frame(const ct_mp3_state *gfc, ct_mp3_side_info *l3_side,
                         ct_mp3_vbr_work *work, const int max_bits[2][2]);

/* ---- takehiro.c --------------------------------------------------------- */

int ct_mp3_count_bits(const ct_mp3_state *gfc, const float *xr,
                      ct_mp3_gr_info *gi, ct_mp3_noise_data *prev_noise);
int ct_mp3_noquant_count_bits(const ct_mp3_state *gfc, ct_mp3_gr_info *gi,
                              ct_mp3_noise_data *prev_noise);
void ct_mp3_best_huffman_divide(const ct_mp3_state *gfc, ct_mp3_gr_info *gi);
void ct_mp3_best_scalefac_store(const ct_mp3_state *gfc, int gr, int ch,
                                ct_mp3_side_info *l3_side);
int ct_mp3_scale_bitcount(const ct_mp3_state *gfc, ct_mp3_gr_info *cod_info);
void ct_mp3_huffman_init(ct_mp3_state *gfc);

#endif
