/*
 * The Opus encoder of one stream (OpusEncoder): the per-frame decisions
 * (bitrate, frame size, stereo width, voice/music, mode, bandwidth,
 * channels, FEC), the DC filter and the delay buffer, the tonality analysis
 * call, the SILK call (SILK-only and Hybrid frames, with the SILK/CELT bit
 * split), the redundant CELT frames and prefills at mode and SILK
 * bandwidth switches, the CELT call and the TOC byte, as libopus' float
 * build makes them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/opus_encoder.c and the parts of
 * src/opus_private.h and include/opus_defines.h it uses (BSD-3-Clause,
 * Xiph.Org Foundation and contributors).
 */
#ifndef CTCORE_OPUS_CODEC_H
#define CTCORE_OPUS_CODEC_H

#include <stdint.h>

#include "analysis.h"
#include "celt_encoder.h"
#include "dsp.h"
#include "opus/silk/structs.h"

/* libopus' return codes (include/opus_defines.h), same values */
#define CT_OPUS_OK               0
#define CT_OPUS_BAD_ARG          (-1)
#define CT_OPUS_BUFFER_TOO_SMALL (-2)
#define CT_OPUS_INTERNAL_ERROR   (-3)
#define CT_OPUS_UNIMPLEMENTED    (-5)

/* include/opus_defines.h values, kept so that settings read as in libopus */
#define CT_OPUS_AUTO        (-1000)
#define CT_OPUS_BITRATE_MAX (-1)

#define CT_OPUS_APPLICATION_VOIP                2048
#define CT_OPUS_APPLICATION_AUDIO               2049
#define CT_OPUS_APPLICATION_RESTRICTED_LOWDELAY 2051

/* OPUS_SIGNAL_VOICE and OPUS_SIGNAL_MUSIC (ctcore/opus.h's public
 * CT_OPUS_SIGNAL_* are another enum) */
#define CT_OPUS_CODEC_SIGNAL_VOICE 3001
#define CT_OPUS_CODEC_SIGNAL_MUSIC 3002

#define CT_OPUS_BANDWIDTH_NARROWBAND    1101
#define CT_OPUS_BANDWIDTH_MEDIUMBAND    1102
#define CT_OPUS_BANDWIDTH_WIDEBAND      1103
#define CT_OPUS_BANDWIDTH_SUPERWIDEBAND 1104
#define CT_OPUS_BANDWIDTH_FULLBAND      1105

#define CT_OPUS_FRAMESIZE_ARG    5000
#define CT_OPUS_FRAMESIZE_2_5_MS 5001
#define CT_OPUS_FRAMESIZE_5_MS   5002
#define CT_OPUS_FRAMESIZE_10_MS  5003
#define CT_OPUS_FRAMESIZE_20_MS  5004
#define CT_OPUS_FRAMESIZE_40_MS  5005
#define CT_OPUS_FRAMESIZE_60_MS  5006
#define CT_OPUS_FRAMESIZE_80_MS  5007
#define CT_OPUS_FRAMESIZE_100_MS 5008
#define CT_OPUS_FRAMESIZE_120_MS 5009

/* src/opus_private.h modes */
#define CT_MODE_SILK_ONLY 1000
#define CT_MODE_HYBRID    1001
#define CT_MODE_CELT_ONLY 1002

#define CT_OPUS_MAX_ENCODER_BUFFER 480

/* src/opus_encoder.c StereoWidthState */
typedef struct ct_opus_stereo_width_state {
    float XX, XY, YY;
    float smoothed_width;
    float max_follower;
} ct_opus_stereo_width_state;

/* src/opus_encoder.c struct OpusEncoder (celt_enc_offset and
 * silk_enc_offset become the embedded celt_enc and silk_enc; arch becomes
 * dsp). */
typedef struct ct_opus_codec {
    ct_silk_EncControlStruct silk_mode;
    int application;
    int channels;
    int delay_compensation;
    int force_channels;
    int signal_type;
    int user_bandwidth;
    int max_bandwidth;
    int user_forced_mode;
    int voice_ratio;
    int32_t Fs;
    int use_vbr;
    int vbr_constraint;
    int variable_duration;
    int32_t bitrate_bps;
    int32_t user_bitrate_bps;
    int lsb_depth;
    int encoder_buffer;
    int lfe;
    const ct_opus_dsp *dsp;
    int use_dtx;
    /* OPUS_SET_COMPLEXITY's value (ct), which the analysis' writer reads
     * on its thread: silk_mode.complexity, the reference's, is SILK's to
     * set to 0 for the time of a prefill (silk/enc_api.c) */
    int user_complexity;
    ct_tonality_analysis analysis;
    /* The view (analysis.h) the analysis' reader last read through (ct):
     * that of the writer's calls for this encoder call, which the calls
     * for the frames of a multi-frame packet read again */
    ct_tonality_view analysis_view;

    /* ct_opus_encoder_reset_state clears from here to the end (as
     * OPUS_ENCODER_RESET_START) */
    int stream_channels;
    int16_t hybrid_stereo_width_Q14;
    int32_t variable_HP_smth2_Q15;
    float prev_HB_gain;
    float hp_mem[4];
    int mode;
    int prev_mode;
    int prev_channels;
    int prev_framesize;
    int bandwidth;
    /* Bandwidth determined automatically from the rate (before any other
     * adjustment) */
    int auto_bandwidth;
    int silk_bw_switch;
    int first;
    const float *energy_masking;
    ct_opus_stereo_width_state width_mem;
    float delay_buffer[CT_OPUS_MAX_ENCODER_BUFFER * 2];
    int detected_bandwidth;
    int nb_no_activity_frames;
    float peak_signal_energy;
    int nonfinal_frame; /* current frame is not the final in a packet */
    uint32_t rangeFinal;

    /* The CELT and SILK encoders, after the rest so that the reset above
     * leaves them to ct_celt_encoder_reset and ct_silk_InitEncoder as
     * OPUS_RESET_STATE does */
    ct_celt_encoder celt_enc;
    ct_silk_encoder silk_enc;
} ct_opus_codec;

/* opus_encoder_init: Fs 48000, 24000, 16000, 12000 or 8000; channels 1 or
 * 2; application one of CT_OPUS_APPLICATION_*. dsp (the kernel table) must
 * outlive st. Returns CT_OPUS_OK or CT_OPUS_BAD_ARG. */
int ct_opus_encoder_init(ct_opus_codec *st, int32_t Fs, int channels,
                         int application, const ct_opus_dsp *dsp);

/* The ctls (opus_encoder_ctl's requests of the same names) that
 * opus_multistream_encoder_ctl forwards for libopusenc and opusenc. Each
 * checks its value as libopus does and returns CT_OPUS_OK or
 * CT_OPUS_BAD_ARG. */
/* OPUS_SET_BITRATE: CT_OPUS_AUTO, CT_OPUS_BITRATE_MAX or > 0 (clamped to
 * 500 .. 300000 * channels) */
int ct_opus_encoder_set_bitrate(ct_opus_codec *st, int32_t value);
int ct_opus_encoder_set_vbr(ct_opus_codec *st, int32_t value); /* 0, 1 */
int ct_opus_encoder_set_vbr_constraint(ct_opus_codec *st, int32_t value);
int ct_opus_encoder_set_complexity(ct_opus_codec *st, int32_t value);
int ct_opus_encoder_set_packet_loss_perc(ct_opus_codec *st, int32_t value);
int ct_opus_encoder_set_lsb_depth(ct_opus_codec *st, int32_t value);
/* CT_OPUS_AUTO, CT_OPUS_CODEC_SIGNAL_VOICE or CT_OPUS_CODEC_SIGNAL_MUSIC */
int ct_opus_encoder_set_signal(ct_opus_codec *st, int32_t value);
/* CT_OPUS_AUTO, 1 .. channels */
int ct_opus_encoder_set_force_channels(ct_opus_codec *st, int32_t value);
/* CT_OPUS_BANDWIDTH_NARROWBAND .. CT_OPUS_BANDWIDTH_FULLBAND */
int ct_opus_encoder_set_max_bandwidth(ct_opus_codec *st, int32_t value);
/* CT_OPUS_AUTO or a CT_OPUS_BANDWIDTH_* */
int ct_opus_encoder_set_bandwidth(ct_opus_codec *st, int32_t value);
/* CT_OPUS_AUTO or a CT_MODE_* */
int ct_opus_encoder_set_force_mode(ct_opus_codec *st, int32_t value);
int ct_opus_encoder_set_prediction_disabled(ct_opus_codec *st,
                                            int32_t value);
int ct_opus_encoder_set_phase_inversion_disabled(ct_opus_codec *st,
                                                 int32_t value);
/* Only before the first frame, or to the same application */
int ct_opus_encoder_set_application(ct_opus_codec *st, int32_t value);
/* OPUS_GET_LOOKAHEAD: Fs/400 + delay_compensation */
int32_t ct_opus_encoder_get_lookahead(const ct_opus_codec *st);
/* OPUS_GET_BITRATE: user_bitrate_to_bitrate for the last frame size */
int32_t ct_opus_encoder_get_bitrate(const ct_opus_codec *st);
/* OPUS_GET_FINAL_RANGE */
uint32_t ct_opus_encoder_get_final_range(const ct_opus_codec *st);
/* OPUS_RESET_STATE: the analysis, the CELT and SILK encoders and the
 * per-stream state as after ct_opus_encoder_init, the settings kept */
void ct_opus_encoder_reset_state(ct_opus_codec *st);

/* ct: the analysis the next call of frame_size samples would hand CELT,
 * read through view, with the reader left where it is (the frame ring's
 * speculation of that call); all zero where the analysis does not run. */
void ct_opus_encoder_peek_analysis(ct_opus_codec *st,
                                   const ct_tonality_view *view,
                                   int frame_size, ct_analysis_info *info);

/* src/opus_encoder.c frame_size_select: the frame to encode out of the
 * frame_size samples given, for variable_duration; -1 if none fits */
int32_t ct_opus_frame_size_select(int32_t frame_size, int variable_duration,
                                  int32_t Fs);

/* src/opus_encoder.c compute_stereo_width (Q15 in [0, 1]) */
float ct_opus_compute_stereo_width(const float *pcm, int frame_size,
                                   int32_t Fs,
                                   ct_opus_stereo_width_state *mem);

/* src/opus_encoder.c dc_reject (float build): the DC reject of
 * opus_encode_native's pcm_buf; hp_mem[0] and hp_mem[2] carry from call to
 * call (also run ahead by celt_signal.c). */
void ct_opus_dc_reject(const float *in, int32_t cutoff_Hz, float *out,
                       float *hp_mem, int len, int channels, int32_t Fs);

/* src/opus_encoder.c is_digital_silence, its celt_maxabs16 the one given
 * (a dsp table's, or ct_opus_maxabs_c) */
int ct_opus_is_digital_silence(const float *pcm, int frame_size, int channels,
                               int lsb_depth,
                               float (*maxabs)(const float *x, int len));

/* The writer half of opus_encode_native's tonality analysis (ct): for a
 * call of ct_opus_encode_native with analysis_pcm as pcm_at gives it
 * (analysis_size samples, analysis_channels interleaved; channels c1 and
 * c2 of them through downmix), frame_size and lsb_depth, the
 * tonality_analysis calls that call makes and *view = the analysis' view
 * after them; where that call runs no analysis (complexity below 7, Fs
 * below 16000), nothing and *view = {0, 0}. Reads only settings and
 * touches only the writer's half of st->analysis, so it may run ahead
 * (its calls in order) while ct_opus_encode_native codes earlier calls
 * with the views it gave, if the settings stay those of its calls. */
void ct_opus_encoder_analysis_write(ct_opus_codec *st,
                                    ct_opus_analysis_pcm_at pcm_at,
                                    const void *ctx, int32_t analysis_size,
                                    int frame_size, int c1, int c2,
                                    int analysis_channels, int lsb_depth,
                                    ct_opus_downmix_func downmix,
                                    ct_tonality_view *view);

/* src/opus_encoder.c opus_encode_native, float build: encodes the
 * frame_size samples of pcm (interleaved, st->channels) into data (at most
 * out_data_bytes; 40 and 60 ms CELT or Hybrid frames become a multi-frame
 * packet, SILK codes up to 60 ms in one frame), with the tonality analysis
 * reading the analysis_size samples of analysis_pcm (analysis_channels
 * interleaved, channels c1 and c2 of them) through downmix.
 * analysis_pcm NULL (ct): the analysis' writer is not run; with
 * analysis_view, the reader reads through it (the view that
 * ct_opus_encoder_analysis_write gave for this call), else (the reference's
 * NULL, the frames of a multi-frame packet) through the last one.
 * Returns the packet's length or a CT_OPUS_* error. */
int32_t ct_opus_encode_native(ct_opus_codec *st, const float *pcm,
                              int frame_size, unsigned char *data,
                              int32_t out_data_bytes, int lsb_depth,
                              const float *analysis_pcm, int32_t analysis_size,
                              int c1, int c2, int analysis_channels,
                              ct_opus_downmix_func downmix,
                              const ct_tonality_view *analysis_view,
                              int float_api);

#endif
