/*
 * The Ogg Opus stream as libopusenc's OggOpusEnc makes it, for the one
 * stream opusenc writes (pull API, mapping family 0, 1 or 255): the 48 kHz
 * buffer with its decision delay, the resampler in front, encode_buffer's
 * calls of the multistream encoder (the whole buffer as frame_size, so the
 * analysis sees the same lookahead), the end of stream (LPC extension at
 * the input rate, the last frame, its granule), the header packets and the
 * Ogg pages. Each packet also goes to an optional callback (our packet
 * output).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopusenc 0.2.1 src/opusenc.c (BSD-3-Clause, Jean-Marc
 * Valin, Xiph.Org Foundation, Gregory Maxwell)
 */
#ifndef CTCORE_OPUS_STREAM_H
#define CTCORE_OPUS_STREAM_H

#include <stdint.h>

#include "opus/dsp.h"

/* opusenc.h's OPE_* codes that this port can return */
enum {
    CT_OPE_OK = 0,
    CT_OPE_BAD_ARG = -11,
    CT_OPE_INTERNAL_ERROR = -13,
    CT_OPE_UNIMPLEMENTED = -15,
    CT_OPE_ALLOC_FAIL = -17,
    CT_OPE_TOO_LATE = -31,
};

/* opusenc.c's OggOpusEnc (one EncStream, no chaining). */
typedef struct ct_ogg_opus_enc ct_ogg_opus_enc;

/* Called for each packet as libopusenc's packet callback is (headers
 * included, in stream order), with what a packet output needs besides the
 * bytes: its granule position (-1 for the headers), its 48 kHz duration
 * (0 for the headers), e_o_s. */
typedef void (*ct_ope_packet_func)(void *user_data, const uint8_t *packet, int32_t len,
                                   int64_t granulepos, int duration, int e_o_s);

/* ope_encoder_create_pull: comment is the OpusTags packet so far
 * (opeint_comment_init/add, unpadded; copied), rate 1 .. as libopusenc,
 * channels 1 .. 255, family 0 (1 or 2 channels), 1 (1 .. 8) or 255 (any;
 * OpusHead gets the mapping table for 1 and 255). Returns CT_OPE_OK and *enc, or an
 * error code (*enc = NULL). */
int ct_opus_ope_encoder_create_pull(const char *comment, int comment_length, int32_t rate,
                                    int channels, int family, const ct_opus_dsp *dsp,
                                    ct_ogg_opus_enc **enc);
/* ope_encoder_destroy; NULL is ignored. */
void ct_opus_ope_encoder_destroy(ct_ogg_opus_enc *enc);

/* The codec under the stream (ct_opus_ms_encoder, opus/multistream.h), for
 * the OPUS_SET_* ctls libopusenc passes through. */
struct ct_opus_ms_encoder *ct_opus_ope_encoder_codec(ct_ogg_opus_enc *enc);

/* The libopusenc-specific ctls (opusenc.c ope_encoder_ctl) that opusenc
 * sends: return CT_OPE_OK or CT_OPE_BAD_ARG / CT_OPE_TOO_LATE /
 * CT_OPE_UNIMPLEMENTED as there (the decision delay stays libopusenc's
 * default, 96000: opusenc never sets it). */
int ct_opus_ope_set_muxing_delay(ct_ogg_opus_enc *enc, int32_t value);
int ct_opus_ope_set_comment_padding(ct_ogg_opus_enc *enc, int32_t value);
int ct_opus_ope_set_serialno(ct_ogg_opus_enc *enc, int32_t value);
int ct_opus_ope_set_header_gain(ct_ogg_opus_enc *enc, int32_t value);
/* OPUS_SET_EXPERT_FRAME_DURATION through ope_encoder_ctl: sets the codec's
 * and the stream's frame size (value: OPUS_FRAMESIZE_2_5_MS = 5001 ..). */
int ct_opus_ope_set_expert_frame_duration(ct_ogg_opus_enc *enc, int32_t value);
void ct_opus_ope_set_packet_callback(ct_ogg_opus_enc *enc, ct_ope_packet_func func,
                                     void *user_data);

/* ope_encoder_write_float: interleaved samples at the input rate. */
int ct_opus_ope_encoder_write_float(ct_ogg_opus_enc *enc, const float *pcm,
                                    int samples_per_channel);
/* ope_encoder_drain. */
int ct_opus_ope_encoder_drain(ct_ogg_opus_enc *enc);
/* ope_encoder_get_page: 1 and the next page (valid until the next call),
 * 0 if none, or the unrecoverable error code. */
int ct_opus_ope_encoder_get_page(ct_ogg_opus_enc *enc, unsigned char **page, int32_t *len,
                                 int flush);
/* ope_encoder_flush_header: writes the header pages now. */
int ct_opus_ope_encoder_flush_header(ct_ogg_opus_enc *enc);

/* After CT_OPE_INTERNAL_ERROR from the codec: its negative return (a
 * CT_OPUS_* code), and the 48 kHz granule (pre-skip included) where the
 * refused frame starts; 0 if the codec refused nothing. */
int ct_opus_ope_encoder_last_codec_error(const ct_ogg_opus_enc *enc, int64_t *granule);
/* OpusHead's pre-skip (OPUS_GET_LOOKAHEAD when the stream started). */
int ct_opus_ope_encoder_preskip(const ct_ogg_opus_enc *enc);
/* The current frame size in 48 kHz samples. */
int ct_opus_ope_encoder_frame_size(const ct_ogg_opus_enc *enc);
/* The most input samples (at the input rate) the stream holds back before
 * they are in a packet: a frame and the decision delay at 48 kHz, and the
 * resampler's input latency. */
int ct_opus_ope_encoder_max_delay(const ct_ogg_opus_enc *enc);

#endif
