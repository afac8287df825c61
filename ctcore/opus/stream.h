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

#include "opus/analysis.h"
#include "opus/dsp.h"
#include "opus/resampler.h"

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

/*
 * The steps of encode_buffer, write_float and drain, shared by the
 * sequential path above and the frame ring (graph.c), which runs them on
 * different threads: planning and committing on the caller's, coding in
 * its Encode node (ct).
 */

/* The most 48 kHz samples buffered before a frame is due: encode_buffer
 * codes one once more than a frame (120 ms at most) and the decision delay
 * are buffered. */
#define CT_OPE_MAX_BUFFERED (5760 + 96000 + 1)

/* One packet of encode_buffer's loop, decided before the codec codes it. */
typedef struct ct_ope_frame {
    int64_t start;        /* its first sample in the 48 kHz signal (curr_granule
                             before it) */
    int buffered;         /* the samples buffered from start on: the codec's
                             frame_size argument, its analysis' look-ahead */
    int frame_size;       /* the samples it codes */
    int duration_request; /* 0, or the frame duration (CT_OPUS_FRAMESIZE_*)
                             the codec gets before it: the last packets' */
    int64_t granulepos;
    int e_o_s;
} ct_ope_frame;

/* write_float up to its resampling: the checks, the header packets at the
 * first call, the granule and LPC history of the samples. CT_OPE_*. */
int ct_opus_ope_write_begin(ct_ogg_opus_enc *enc, const float *pcm, int samples_per_channel);
/* encode_buffer's loop head with `buffered` samples from the next frame's
 * start: 1 and the frame when it codes one now (the stream moves past
 * it), 0 when not (or the stream ended or failed). */
int ct_opus_ope_next_frame(ct_ogg_opus_enc *enc, int buffered, ct_ope_frame *frame);
/* The codec on the frame's samples (pcm: frame->frame_size of them; with
 * views, the analysis done by ct_opus_ms_analysis_write, else the codec's
 * own reads frame->buffered): the packet into packet
 * (ct_opus_ope_max_packet bytes). Touches only the codec. Returns its
 * length or the codec's negative code. */
int ct_opus_ope_code_frame(ct_ogg_opus_enc *enc, const float *pcm, const ct_ope_frame *frame,
                           const ct_tonality_view *views, unsigned char *packet);
int ct_opus_ope_max_packet(const ct_ogg_opus_enc *enc);
/* Room in the Ogg packer for the next packet; NULL when out of memory
 * (the stream has then failed). */
unsigned char *ct_opus_ope_packet_buffer(ct_ogg_opus_enc *enc);
/* The packet (in the room above) to the callback and the packer; the end
 * of the stream after the last. CT_OPE_*. */
int ct_opus_ope_commit_frame(ct_ogg_opus_enc *enc, const ct_ope_frame *frame,
                             const unsigned char *packet, int nbBytes);
/* The codec refused the frame (code < 0): the stream fails. */
void ct_opus_ope_frame_failed(ct_ogg_opus_enc *enc, const ct_ope_frame *frame, int code);
/* drain up to its padding: the checks, the samples of padding (*pad_samples),
 * the header packets if no samples came. CT_OPE_*. */
int ct_opus_ope_drain_begin(ct_ogg_opus_enc *enc, int *pad_samples);
/* drain after its padding: no decision delay, the last packets' rules. */
void ct_opus_ope_drain_end(ct_ogg_opus_enc *enc);
/* The resampled stream's padding at the input rate: the LPC extension of
 * the last input samples, 120 of them (interleaved), in the stream's LPC
 * buffer. */
const float *ct_opus_ope_lpc_extension(ct_ogg_opus_enc *enc);
/* The LPC extension of x[-before*channels ..) into x[0 .. after*channels)
 * (libopusenc's extend_signal: it uses the last min(before, 480)). */
void ct_opus_ope_extend_signal(float *x, int before, int after, int channels);
int ct_opus_ope_encoder_channels(const ct_ogg_opus_enc *enc);
/* The resampler, NULL at 48 kHz. */
const ct_resampler *ct_opus_ope_encoder_resampler(const ct_ogg_opus_enc *enc);
/* Whether the stream still takes samples (not ended). */
int ct_opus_ope_encoder_open(const ct_ogg_opus_enc *enc);

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
