/*
 * The MP3 encoder's state: the port of LAME's lame_internal_flags and its
 * parts, the user-visible flags that the ported code still reads (the port of
 * lame_global_flags), and the per-frame record.
 *
 * Naming: struct FIELD names are LAME's, so that a reviewer can put our code
 * beside LAME's; type names are ours:
 *
 *   LAME                     ours
 *   lame_internal_flags      ct_mp3_state          (variable name: gfc)
 *   lame_global_flags        ct_mp3_global_flags   (gfc->flags; gfp = &gfc->flags)
 *   SessionConfig_t          ct_mp3_config         (gfc->cfg)
 *   EncStateVar_t            ct_mp3_enc_state      (gfc->sv_enc)
 *   EncResult_t              ct_mp3_enc_result     (gfc->ov_enc)
 *   PsyStateVar_t            ct_mp3_psy_state      (gfc->sv_psy)
 *   PsyResult_t              ct_mp3_psy_result     (gfc->ov_psy)
 *   QntStateVar_t            ct_mp3_qnt_state      (gfc->sv_qnt)
 *   RpgStateVar_t            ct_mp3_rpg_state      (gfc->sv_rpg)
 *   RpgResult_t              ct_mp3_rpg_result     (gfc->ov_rpg)
 *   replaygain_t             ct_mp3_replaygain     (replaygain.h; gfc->sv_rpg.rgdata, by value)
 *   Bit_stream_struc         ct_mp3_bit_stream     (gfc->bs)
 *   III_side_info_t          ct_mp3_side_info      (gfc->l3_side)
 *   gr_info                  ct_mp3_gr_info
 *   scalefac_struct          ct_mp3_scalefac       (gfc->scalefac_band)
 *   III_psy_xmin             ct_mp3_psy_xmin
 *   III_psy_ratio            ct_mp3_psy_ratio
 *   ATH_t                    ct_mp3_ath            (gfc->ATH, by value: &gfc->ATH)
 *   PsyConst_t               ct_mp3_psy_const      (gfc->cd_psy, by value)
 *   PsyConst_CB2SB_t         ct_mp3_psy_cb2sb
 *   VBR_seek_info_t          ct_mp3_vbr_seek_info  (gfc->VBR_seek_table)
 *   vbr_mode                 ct_mp3_vbr_mode       (vbr_off -> CT_MP3_VBR_OFF, ...)
 *   MPEG_mode                ct_mp3_mpeg_mode      (JOINT_STEREO -> CT_MP3_JOINT_STEREO, ...)
 *   short_block_t            ct_mp3_short_block    (short_block_allowed -> CT_MP3_SHORT_BLOCK_ALLOWED, ...)
 *   FLOAT, sample_t          float
 *   FLOAT8                   double
 *   pow20, ipow20, pow43,    gfc->qtab.pow20, ... (per-encoder, filled by
 *   adj43asm (globals)       ct_mp3_iteration_init)
 *   ct_mp3_log_table (util.c) const table (ct_mp3_fast_log2, util.h)
 *
 * Pointers LAME allocates (bs.buf, ATH, cd_psy, cd_psy->s3, rgdata,
 * VBR_seek_table.bag, resampler buffers) are fixed-size members here: the
 * state is one allocation, and no part of the encoder mallocs or frees.
 * Left out: class_id, tag_spec (ID3), pinfo (analysis), hip (decoder),
 * CPU_features and the function pointers (choose_table, fft_fht,
 * init_xrpow_core: Debian's build always runs the C versions
 * choose_table_nonMMX, fht, init_xrpow_core_c; call them directly), the
 * report functions; cfg.decode_on_the_fly, cfg.analysis, cfg.free_format
 * (always 0 for our settings: drop those branches) and what only they
 * feed (RpgResult_t's PeakSample, noclipGainChange, noclipScale); fields
 * no ported path reads (PsyStateVar_t's nb_s1, nb_s2, PsyConst_CB2SB_t's
 * bm, lame_init_params_successful); the flags the CLI sets only for
 * options the port has not (nogap_total, nogap_current: --nogap;
 * experimentalZ: -Z; VBR_hard_min: -F), whose branches read LAME's
 * default (0) as a constant.
 *
 * Who defines what (each concern's header declares its cross-file
 * functions; everything else is static):
 *   state.h     these types (lame_internal_flags and its parts)
 *   util.h      util.c: ct_mp3_ath_formula (ATHformula), ct_mp3_freq2bark,
 *               ct_mp3_fast_log2 and the FAST_LOG10 helpers,
 *               ct_mp3_bitrate_index (BitrateIndex); PI, LOG2, LOG10, SQRT2
 *   config.h    config.c: ct_mp3_config_init (lame_init, the CLI's
 *               lame_set_* calls, presets.c, lame_init_params)
 *   resample.h  resample.c: ct_mp3_fill_buffer (fill_buffer and the
 *               resampler), ct_mp3_is_resampling_necessary
 *   frame.h     frame.c: ct_mp3_encode_frame (lame_encode_mp3_frame,
 *               adjust_ATH, updateStats) and the same stages cut for the
 *               frame ring (ct_mp3_frame_prepare, _psy_resolve, _mdct,
 *               _encode, ...)
 *   input.h     input.c: ct_mp3_input_encode, ct_mp3_input_flush
 *               (lame_encode_buffer, lame_encode_flush: PCM to frame
 *               windows, on the caller's thread)
 *   graph.h     graph.c: the frames of a stream, the sequential chain
 *               (ct_mp3_encode_frame) on one worker, else the frame ring
 *               (Dispatch, Prepare, Resolve, Search, Encode over
 *               ct_pipeline) and its per-frame record ct_mp3_frame_slot;
 *               the only file that includes the runtime
 *   encoder.c   the public API of ctcore/mp3.h (settings, the input cut
 *               into frames' lengths, the byte FIFO, packets, the LAME
 *               tag); encoder.h its test entries
 *   psy.h       psy_init.c, psy_prepare.c, psy.c: ct_mp3_psy_init
 *               (psymodel_init), ct_mp3_psy_prepare / ct_mp3_psy_resolve /
 *               ct_mp3_psy_anal (L3psycho_anal_vbr)
 *   fft.h       fft.c: ct_mp3_fft_init, ct_mp3_fft_long, ct_mp3_fft_short
 *   mdct.h      mdct.c: ct_mp3_mdct_sub48 (mdct_sub48), ct_mp3_polyphase,
 *               ct_mp3_mdct_granule
 *   quantize.h  quantize.c, quantize_outer.c, quantize_noise.c,
 *               quantize_init.c, vbr_search.c, takehiro.c:
 *               ct_mp3_iteration_init, ct_mp3_{cbr,abr,vbr_new}_iteration_loop
 *               and the quantization helpers (calc_xmin, calc_noise,
 *               count_bits, ...)
 *   bitstream.h bitstream.c: ct_mp3_encode_main_data, ct_mp3_encode_part3,
 *               ct_mp3_format_bitstream,
 *               ct_mp3_copy_buffer, ct_mp3_flush_bitstream, ...
 *   reservoir.h reservoir.c: ct_mp3_resv_frame_begin, _max_bits, _adjust,
 *               _frame_end
 *   lametag.h   lametag.c (VbrTag.c): ct_mp3_init_vbr_tag, ct_mp3_add_vbr_frame,
 *               ct_mp3_update_music_crc, ct_mp3_get_lametag_frame
 *   replaygain.h replaygain.c (gain_analysis.c): ct_mp3_replaygain and
 *               ct_mp3_init_gain_analysis, ct_mp3_analyze_samples,
 *               ct_mp3_get_title_gain
 *   tables.h    tables.c: the const tables (ct_mp3_ht, ct_mp3_bitrate_table,
 *               ct_mp3_sfb_band_index, ct_mp3_pretab, ...)
 *   dsp.h       the tables of SIMD kernels of the loops above that
 *               vectorize exactly (gfc->dsp, by value: filled by
 *               ct_mp3_config_init from settings->simd), one per module:
 *     quantize_dsp.h  quantize_dsp.c, x86/quantize_{sse2,avx2}.c:
 *               quantization noise and quantization of xr^3/4, xr^3/4,
 *               amplification, ix_max
 *     psy_dsp.h   psy_dsp.c, x86/psy_{sse2,avx2}.c: the spreading
 *               convolution, the attack detection's high pass and peaks
 *     fft_dsp.h   fft.c, x86/fft_{sse2,avx2}.c: the FHT
 *     mdct_dsp.h  mdct.c, x86/mdct_{sse2,avx2}.c: the polyphase window
 *     replaygain_dsp.h replaygain.c, x86/replaygain_sse2.c: the ReplayGain
 *               filters
 * Functions that took lame_global_flags *gfp take ct_mp3_state *gfc and read
 * the flags as  ct_mp3_global_flags const *const gfp = &gfc->flags;
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/util.h, l3side.h, encoder.h,
 * lame_global_flags.h, machine.h (LGPL-2.0-or-later, the
 * LAME project)
 */
#ifndef CTCORE_MP3_STATE_H
#define CTCORE_MP3_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "dsp.h"        /* ct_mp3_dsp (not LAME's) */
#include "replaygain.h" /* ct_mp3_replaygain (replaygain_t) */

/* encoder.h: encoder and decoder delays, block and band sizes. */
#define ENCDELAY 576
#define POSTDELAY 1152
#define MDCTDELAY 48
#define FFTOFFSET (224 + MDCTDELAY)
#define SBLIMIT 32
#define CBANDS 64
#define SBPSY_l 21
#define SBPSY_s 12
#define SBMAX_l 22
#define SBMAX_s 13
#define PSFB21 6
#define PSFB12 6
#define BLKSIZE 1024
#define HBLKSIZE (BLKSIZE / 2 + 1)
#define BLKSIZE_s 256
#define HBLKSIZE_s (BLKSIZE_s / 2 + 1)
#define NORM_TYPE 0
#define START_TYPE 1
#define SHORT_TYPE 2
#define STOP_TYPE 3
#define MPG_MD_LR_LR 0
#define MPG_MD_MS_LR 2

/* l3side.h: max scalefactor band, max(SBMAX_l, SBMAX_s*3, (SBMAX_s-3)*3+8) */
#define SFBMAX (SBMAX_s * 3)

/* util.h */
#define MAX_BITS_PER_CHANNEL 4095
#define MAX_BITS_PER_GRANULE 7680
/* lame.h: LAME_MAXMP3BUFFER (16384 + LAME_MAXALBUMART) */
#define CT_MP3_BUFFER_SIZE (16384 + 128 * 1024)
#define BPC 320 /* filter convolution windows the resampler precomputes */
#define CT_MP3_BLACKSIZE_MAX 33 /* BLACKSIZE = filter_l + 1, filter_l <= 32 */
#define MAX_HEADER_BUF 256
#define MAX_HEADER_LEN 40
#define MFSIZE (3 * 1152 + ENCDELAY - MDCTDELAY)
#define CT_MP3_VBR_SEEK_SIZE 400 /* InitVbrTag: the bag's 400 entries */

/* quantize_pvt.h: the per-encoder power tables. */
#define IXMAX_VAL 8206
#define PRECALC_SIZE (IXMAX_VAL + 2)
#define Q_MAX (256 + 1)
#define Q_MAX2 116
#define LARGE_BITS 100000


/* lame.h enums, restricted to the values the port uses. */
typedef enum ct_mp3_vbr_mode {
    CT_MP3_VBR_OFF = 0,  /* vbr_off */
    CT_MP3_VBR_MT = 1,   /* vbr_mt (tag method byte only; same frames as mtrh) */
    CT_MP3_VBR_RH = 2,   /* vbr_rh: not ported */
    CT_MP3_VBR_ABR = 3,  /* vbr_abr */
    CT_MP3_VBR_MTRH = 4, /* vbr_mtrh = vbr_default */
} ct_mp3_vbr_mode;

typedef enum ct_mp3_mpeg_mode {
    CT_MP3_STEREO = 0,
    CT_MP3_JOINT_STEREO = 1,
    CT_MP3_DUAL_CHANNEL = 2, /* unused by our settings */
    CT_MP3_MONO = 3,
    CT_MP3_NOT_SET = 4,
} ct_mp3_mpeg_mode;

typedef enum ct_mp3_short_block {
    CT_MP3_SHORT_BLOCK_NOT_SET = -1,
    CT_MP3_SHORT_BLOCK_ALLOWED = 0,
    CT_MP3_SHORT_BLOCK_COUPLED = 1,
    CT_MP3_SHORT_BLOCK_DISPENSED = 2,
    CT_MP3_SHORT_BLOCK_FORCED = 3,
} ct_mp3_short_block;

/* lame.h: preset values (lame_set_preset / VBR_q mapping) */
enum {
    CT_MP3_PRESET_V9 = 410, CT_MP3_PRESET_V8 = 420, CT_MP3_PRESET_V7 = 430,
    CT_MP3_PRESET_V6 = 440, CT_MP3_PRESET_V5 = 450, CT_MP3_PRESET_V4 = 460,
    CT_MP3_PRESET_V3 = 470, CT_MP3_PRESET_V2 = 480, CT_MP3_PRESET_V1 = 490,
    CT_MP3_PRESET_V0 = 500,
};

/* ---- l3side.h ---------------------------------------------------------- */

typedef struct ct_mp3_scalefac {
    int l[1 + SBMAX_l];
    int s[1 + SBMAX_s];
    int psfb21[1 + PSFB21];
    int psfb12[1 + PSFB12];
} ct_mp3_scalefac;

typedef struct ct_mp3_psy_xmin {
    float l[SBMAX_l];
    float s[SBMAX_s][3];
} ct_mp3_psy_xmin;

typedef struct ct_mp3_psy_ratio {
    ct_mp3_psy_xmin thm;
    ct_mp3_psy_xmin en;
} ct_mp3_psy_ratio;

typedef struct ct_mp3_gr_info {
    float xr[576];
    int l3_enc[576];
    int scalefac[SFBMAX];
    float xrpow_max;
    int part2_3_length;
    int big_values;
    int count1;
    int global_gain;
    int scalefac_compress;
    int block_type;
    int mixed_block_flag;
    int table_select[3];
    int subblock_gain[3 + 1];
    int region0_count;
    int region1_count;
    int preflag;
    int scalefac_scale;
    int count1table_select;
    int part2_length;
    int sfb_lmax;
    int sfb_smin;
    int psy_lmax;
    int sfbmax;
    int psymax;
    int sfbdivide;
    int width[SFBMAX];
    int window[SFBMAX];
    int count1bits;
    /* added for LSF */
    const int *sfb_partition_table;
    int slen[4];
    int max_nonzero_coeff;
    char energy_above_cutoff[SFBMAX];
} ct_mp3_gr_info;

typedef struct ct_mp3_side_info {
    ct_mp3_gr_info tt[2][2];
    int main_data_begin;
    int private_bits;
    int resvDrain_pre;
    int resvDrain_post;
    int scfsi[2][4];
} ct_mp3_side_info;

/* ---- util.h ------------------------------------------------------------ */

typedef struct ct_mp3_bit_stream {
    unsigned char buf[CT_MP3_BUFFER_SIZE]; /* bit stream buffer */
    int buf_size;     /* size of buffer (in number of bytes) */
    int totbit;       /* bit counter of bit stream */
    int buf_byte_idx; /* pointer to top byte in buffer */
    int buf_bit_idx;  /* pointer to top bit of top byte in buffer */
} ct_mp3_bit_stream;

typedef struct ct_mp3_vbr_seek_info {
    int sum;  /* what we have seen so far */
    int seen; /* how many frames we have seen in this chunk */
    int want; /* how many frames we want to collect into one chunk */
    int pos;  /* actual position in our bag */
    int size; /* size of our bag */
    int bag[CT_MP3_VBR_SEEK_SIZE];
    unsigned int nVbrNumFrames;
    unsigned long nBytesWritten;
    /* VBR tag data */
    unsigned int TotalFrameSize;
} ct_mp3_vbr_seek_info;

typedef struct ct_mp3_ath {
    int use_adjust;         /* method for the auto adjustment */
    float aa_sensitivity_p; /* factor for tuning the (sample power) point
                               below which adaptive threshold of hearing
                               adjustment occurs */
    float adjust_factor;    /* lowering based on peak volume, 1 = no lowering */
    float adjust_limit;     /* limit for dynamic ATH adjust */
    float floor;            /* lowest ATH value */
    float l[SBMAX_l];       /* ATH for sfbs in long blocks */
    float s[SBMAX_s];       /* ATH for sfbs in short blocks */
    float psfb21[PSFB21];   /* ATH for partitioned sfb21 in long blocks */
    float psfb12[PSFB12];   /* ATH for partitioned sfb12 in short blocks */
    float cb_l[CBANDS];     /* ATH for long block convolution bands */
    float cb_s[CBANDS];     /* ATH for short block convolution bands */
    float eql_w[BLKSIZE / 2]; /* equal loudness weights (based on ATH) */
} ct_mp3_ath;

#define CT_MP3_MAX_SB (SBMAX_l > SBMAX_s ? SBMAX_l : SBMAX_s)

typedef struct ct_mp3_psy_cb2sb {
    float masking_lower[CBANDS];
    float minval[CBANDS];
    float rnumlines[CBANDS];
    float mld_cb[CBANDS];
    float bo_weight[CT_MP3_MAX_SB]; /* band weight long scalefactor bands,
                                       at transition */
    float attack_threshold;         /* short block tuning */
    int s3ind[CBANDS][2];
    int numlines[CBANDS];
    int bo[CT_MP3_MAX_SB];
    int npart;
    int n_sb; /* SBMAX_l or SBMAX_s */
    float s3[CBANDS * CBANDS]; /* LAME allocates the nonzero entries only */
} ct_mp3_psy_cb2sb;

typedef struct ct_mp3_psy_const {
    float window[BLKSIZE], window_s[BLKSIZE_s / 2];
    ct_mp3_psy_cb2sb l;
    ct_mp3_psy_cb2sb s;
    ct_mp3_psy_cb2sb l_to_s;
    float attack_threshold[4];
    float decay;
    int force_short_block_calc;
} ct_mp3_psy_const;

typedef struct ct_mp3_psy_state {
    float nb_l1[4][CBANDS], nb_l2[4][CBANDS];
    ct_mp3_psy_xmin thm[4];
    ct_mp3_psy_xmin en[4];
    /* loudness calculation (for adaptive threshold of hearing) */
    float loudness_sq_save[2]; /* account for granule delay of L3psycho_anal */
    float tot_ener[4];
    float last_en_subshort[4][9];
    int last_attacks[4];
    int blocktype_old[2];
} ct_mp3_psy_state;

typedef struct ct_mp3_psy_result {
    /* loudness calculation (for adaptive threshold of hearing) */
    float loudness_sq[2][2]; /* loudness^2 approx. per granule and channel */
} ct_mp3_psy_result;

typedef struct ct_mp3_header_slot {
    int write_timing;
    int ptr;
    char buf[MAX_HEADER_LEN];
} ct_mp3_header_slot;

/* Variables used by encoder.c (frame.c), newmdct.c (mdct.c), util.c
 * (resample.c), bitstream.c and reservoir.c. */
typedef struct ct_mp3_enc_state {
    /* newmdct.c */
    float sb_sample[2][2][18][SBLIMIT];
    float amp_filter[32];
    /* util.c: the resampler */
    double itime[2]; /* float precision seems to be not enough */
    float inbuf_old[2][CT_MP3_BLACKSIZE_MAX];
    float blackfilt[2 * BPC + 1][CT_MP3_BLACKSIZE_MAX];
    /* encoder.c: the CBR/ABR pe smoothing */
    float pefirbuf[19];
    /* used for padding */
    int frac_SpF;
    int slot_lag;
    /* bitstream.c: headers waiting for their main data (see encoder.h of
     * LAME: a power of two) */
    ct_mp3_header_slot header[MAX_HEADER_BUF];
    int h_ptr;
    int w_ptr;
    int ancillary_flag;
    /* reservoir.c */
    int ResvSize; /* in bits */
    int ResvMax;  /* in bits */
    /* lame.c: the input as floats (lame_encode_buffer_template); the
     * encoder sends at most one frame (1152 samples) at a time, like the
     * CLI */
    float in_buffer_0[1152];
    float in_buffer_1[1152];
    float mfbuf[2][MFSIZE];
    int mf_samples_to_encode;
    int mf_size;
} ct_mp3_enc_state;

typedef struct ct_mp3_enc_result {
    int bitrate_index;
    int frame_number; /* number of frames encoded */
    int padding;      /* padding for the current frame? */
    int mode_ext;
    int encoder_delay;
    int encoder_padding; /* number of samples of padding appended to input */
} ct_mp3_enc_result;

/* Variables used by quantize.c. */
typedef struct ct_mp3_qnt_state {
    /* variables for nspsytune */
    float longfact[SBMAX_l];
    float shortfact[SBMAX_s];
    float masking_lower;
    float mask_adjust;       /* the dbQ stuff */
    float mask_adjust_short; /* the dbQ stuff */
    int OldValue[2];
    int CurrentStep[2];
    int pseudohalf[SFBMAX];
    int sfb21_extra; /* will be set in lame_init_params */
    int substep_shaping;
    char bv_scf[576];
} ct_mp3_qnt_state;

/* The tables iteration_init computes (LAME: globals of quantize_pvt.c). */
typedef struct ct_mp3_qnt_tables {
    float pow20[Q_MAX + Q_MAX2 + 1];
    float ipow20[Q_MAX];
    float pow43[PRECALC_SIZE];
    float adj43asm[PRECALC_SIZE]; /* TAKEHIRO_IEEE754_HACK's adj43 */
    /* Not LAME's: the code lengths of the three tables t1, t1 + 1, t1 + 2
     * (t1 = 7, 10, 13) that count_bit_noESC_from3 tries, in one word per
     * pair (bits 0, 16 and 32), so that one lookup adds all three
     * (ct_mp3_huffman_init; sums stay below 2^16: at most 288 pairs of
     * at most 21 bits). */
    uint64_t hlen3[3][16 * 16];
} ct_mp3_qnt_tables;

typedef struct ct_mp3_rpg_state {
    ct_mp3_replaygain rgdata; /* LAME: a pointer; used when findReplayGain */
} ct_mp3_rpg_state;

typedef struct ct_mp3_rpg_result {
    int RadioGain;
} ct_mp3_rpg_result;

typedef struct ct_mp3_config {
    int version; /* 0=MPEG-2/2.5  1=MPEG-1 */
    int samplerate_index;
    int sideinfo_len;
    int noise_shaping;      /* 0 none, 1 ISO AAC model, 2 allow scalefac_select=1 */
    int subblock_gain;      /* 0 = no, 1 = yes */
    int use_best_huffman;   /* 0 = no, 1 = outside loop, 2 = inside loop (slow) */
    int noise_shaping_amp;  /* 0..3, see LAME's util.h */
    int full_outer_loop;    /* 0 = stop early after 0 distortion found, 1 = full search */
    int lowpassfreq;
    int highpassfreq;
    int samplerate_in;  /* input_samp_rate in Hz */
    int samplerate_out; /* output_samp_rate */
    int channels_in;    /* number of channels in the input data stream */
    int channels_out;   /* number of channels in the output data stream */
    int mode_gr;        /* granules per frame */
    int force_ms;       /* force M/S mode; requires mode=1 */
    int use_temporal_masking_effect;
    int use_safe_joint_stereo;
    int preset;
    ct_mp3_vbr_mode vbr;
    int vbr_avg_bitrate_kbps;
    int vbr_min_bitrate_index; /* min bitrate index */
    int vbr_max_bitrate_index; /* max bitrate index */
    int avg_bitrate;
    int enforce_min_bitrate; /* strictly enforce VBR_min_bitrate */
    int findReplayGain;      /* find the RG value? */
    int disable_reservoir;
    int buffer_constraint; /* enforce ISO spec as much as possible */
    int write_lame_tag;    /* add Xing VBR tag? */
    int error_protection;  /* use 2 bytes per frame for a CRC checksum */
    int copyright;         /* mark as copyright */
    int original;          /* mark as original */
    int extension;         /* the MP3 'private extension' bit */
    int emphasis;
    ct_mp3_mpeg_mode mode;
    ct_mp3_short_block short_blocks;
    float msfix;             /* Naoki's adjustment of Mid/Side maskings */
    float ATH_offset_db;     /* add to ATH this many db */
    float ATH_offset_factor; /* change ATH by this factor, derived from ATH_offset_db */
    float ATHcurve;          /* change ATH formula 4 shape */
    int ATHtype;
    int ATHonly;  /* only use ATH */
    int noATH;    /* disable ATH */
    float ATHfixpoint;
    float adjust_alto_db;
    float adjust_bass_db;
    float adjust_treble_db;
    float adjust_sfb21_db;
    float compression_ratio; /* sizeof(wav file)/sizeof(mp3 file) */
    /* lowpass and highpass filter control */
    float lowpass1, lowpass2;   /* normalized frequency bounds of passband */
    /* scale input by this amount before encoding */
    float pcm_transform[2][2];
    float minval;
} ct_mp3_config;

/* lame_global_flags: the user-facing settings, as lame_init and the
 * lame_set_* calls the CLI makes leave them, then as lame_init_params
 * adjusts them. Only the fields the port reads. */
typedef struct ct_mp3_global_flags {
    int num_channels;
    int samplerate_in;
    int samplerate_out;
    float scale;
    float scale_left;
    float scale_right;
    int write_lame_tag;
    int quality;
    ct_mp3_mpeg_mode mode;
    int force_ms;
    int findReplayGain;
    int substep_shaping;
    int noise_shaping;
    int subblock_gain;
    int use_best_huffman;
    int brate;
    float compression_ratio;
    int copyright;
    int original;
    int extension;
    int emphasis;
    int error_protection;
    int strict_ISO;
    int disable_reservoir;
    int experimentalY;
    int exp_nspsytune;
    int preset;
    ct_mp3_vbr_mode VBR;
    float VBR_q_frac; /* range [0,...,1[ */
    int VBR_q;        /* range [0,...,9] */
    int VBR_mean_bitrate_kbps;
    int lowpassfreq;
    float maskingadjust;
    float maskingadjust_short;
    int ATHonly;
    int noATH;
    int ATHtype;
    float ATHcurve;
    float ATH_lower_db;
    int athaa_type;
    float athaa_sensitivity;
    ct_mp3_short_block short_blocks;
    int useTemporal;
    float msfix;
    float attackthre;
    float attackthre_s;
} ct_mp3_global_flags;

/* lame_internal_flags, in three parts by who works on them on the frame
 * ring (graph.c), so that a node's copy of the state is one span of it,
 * complete by construction (on one thread one state serves all):
 *   - the input and analysis part: Dispatch's and Resolve's (only gfc's);
 *   - the bit stream part: Encode's; its copy spans it and the part after;
 *   - the quantization part, last: what the quantization loops
 *     (quantize*.c, takehiro.c, vbr_search.c, reservoir.c) read and write,
 *     the set-up they read included; each CBR/ABR Search worker's scratch
 *     copy spans it.
 * A field the loops read belongs in the quantization part, one the bit
 * stream or the LAME tag reads in that part or the one before it: the
 * test mp3-state (tests/mp3/state.c) fills everything outside the spans
 * with garbage and checks the bytes. */
typedef struct ct_mp3_state {
    /* ---- the input and analysis part ---- */
    int lame_encode_frame_init;
    int iteration_init_init;
    int fill_buffer_resample_init;

    ct_mp3_psy_state sv_psy;
    ct_mp3_psy_result ov_psy;
    ct_mp3_rpg_state sv_rpg;
    ct_mp3_rpg_result ov_rpg; /* read by the LAME tag: graph.c hands it to
                                 Encode at the end of the stream */

    /* ---- the bit stream part ---- */
    ct_mp3_global_flags flags;
    ct_mp3_bit_stream bs;
    uint16_t nMusicCRC;
    /* Not LAME's: ct_mp3_update_music_crc's tables, set at init */
    uint16_t music_crc_slices[8][256];
    ct_mp3_vbr_seek_info VBR_seek_table; /* used for Xing VBR header */

    /* ---- the quantization part ---- */
    ct_mp3_config cfg;
    ct_mp3_scalefac scalefac_band;
    ct_mp3_side_info l3_side;
    ct_mp3_enc_state sv_enc;
    ct_mp3_enc_result ov_enc;
    ct_mp3_qnt_state sv_qnt;
    ct_mp3_ath ATH;           /* all ATH related stuff */
    ct_mp3_psy_const cd_psy;
    ct_mp3_qnt_tables qtab;   /* pow20, ipow20, pow43, adj43asm */
    /* Not LAME's: the SIMD kernels (dsp.h), by value, filled by
     * ct_mp3_config_init from the settings' simd level */
    ct_mp3_dsp dsp;
} ct_mp3_state;

/* Where the bit stream part and the quantization part start: a node's copy
 * of the state spans from one of them to the end (graph.c). */
#define CT_MP3_BITSTREAM_PART offsetof(ct_mp3_state, flags)
#define CT_MP3_QUANTIZE_PART offsetof(ct_mp3_state, cfg)

/* The per-frame record: what lame_encode_mp3_frame keeps in locals between
 * its stages (psychoacoustics -> MDCT -> M/S decision -> quantization ->
 * bitstream). frame.c fills it; the stage functions take its parts. */
typedef struct ct_mp3_frame {
    ct_mp3_psy_ratio masking_LR[2][2]; /* [gr][ch] LR masking & energy */
    ct_mp3_psy_ratio masking_MS[2][2]; /* [gr][ch] MS masking & energy */
    float tot_ener[2][4];
    float ms_ener_ratio[2];
    float pe[2][2];
    float pe_MS[2][2];
    int blocktype[2][2];
} ct_mp3_frame;

#endif
