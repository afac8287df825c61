/*
 * ctcore Opus encoder: a port of libopus 1.3.1 and libopusenc 0.2.1 as
 * opus-tools 0.2's `opusenc` drives them, writing exactly the bytes
 * Debian's `opusenc --serial N` writes for the same input and settings
 * (the Ogg Opus file), or the same Opus packets with their headers.
 *
 * Input at any rate is resampled to 48 kHz (libopusenc's speex resampler,
 * quality 5); the tonality analysis looks up to 2 s ahead, so packets come
 * out up to the decision delay after their samples were sent.
 *
 * Every frame is coded as libopus codes it: CELT, SILK (speech, low
 * bitrates) or Hybrid (SILK's low band under CELT's high band), with the
 * redundant frames of its mode switches.
 *
 * The shape of every ctcore encoder: settings with their defaults
 * (ct_opus_settings_default), then send/receive: new, send samples,
 * receive pages or packets, drain at the end, reset to start again, free.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_OPUS_H
#define CTCORE_OPUS_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/ctcore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ct_opus_bitrate_type {
    CT_OPUS_VBR = 0,  /* opusenc's default: unconstrained VBR */
    CT_OPUS_CVBR = 1, /* --cvbr: constrained VBR */
    CT_OPUS_CBR = 2,  /* --hard-cbr */
} ct_opus_bitrate_type;

typedef enum ct_opus_signal {
    CT_OPUS_SIGNAL_AUTO = 0,  /* opusenc's default */
    CT_OPUS_SIGNAL_MUSIC = 1, /* --music */
    CT_OPUS_SIGNAL_VOICE = 2, /* --speech */
} ct_opus_signal;

typedef enum ct_opus_output {
    CT_OPUS_OUTPUT_OGG = 0,     /* Ogg pages: opusenc's file, page by page */
    CT_OPUS_OUTPUT_PACKETS = 1, /* Opus packets: OpusHead, OpusTags, then
                                   the audio packets of opusenc's file */
} ct_opus_output;

/* The sample formats opusenc reads from WAV, converted to float as its
 * reader converts them. */
typedef enum ct_opus_format {
    CT_OPUS_S16 = 0, /* signed 16-bit, native endianness */
    CT_OPUS_F32 = 1, /* 32-bit float, full scale +-1.0 */
    CT_OPUS_S24 = 2, /* signed 24-bit, 3 bytes little-endian per sample */
    CT_OPUS_S32 = 3, /* signed 32-bit, native endianness */
    CT_OPUS_U8 = 4,  /* unsigned 8-bit */
} ct_opus_format;

typedef struct ct_opus_settings {
    int sample_rate;    /* of the input, in Hz: 100 .. 768000 as
                           libopusenc (resampled to 48 kHz unless 48000) */
    int channels;       /* of the input: 1 .. 255, interleaved in the order
                           libopusenc takes (mapping family 1's, Vorbis
                           I's): 1 mono; 2 L R; 3 L C R; 4 FL FR RL RR;
                           5 FL C FR RL RR; 6 (5.1) FL C FR RL RR LFE;
                           7 (6.1) FL C FR SL SR RC LFE; 8 (7.1) FL C FR
                           SL SR RL RR LFE; above 8 any (family 255, each
                           channel its own stream). opusenc's WAV reader
                           puts WAV's order (FL FR C LFE ...) into this one;
                           ctopus and the element do too. Like opusenc,
                           3 and more channels are mixed down to stereo
                           (to mono above 8) when bitrate is below 16000 per
                           channel. */
    int bitrate;        /* bit/s: 0 = opusenc's default for the streams
                           and rate (64000 per stream, 32000 more per
                           coupled one at 48 kHz); else 500 .. 256000 per
                           channel (opusenc refuses less and clamps more) */
    ct_opus_bitrate_type bitrate_type;
    int complexity;     /* --comp: 0 .. 10 (10) */
    int frame_size;     /* --framesize, in samples at 48 kHz: 120 (2.5 ms),
                           240, 480, 960 (20 ms, the default), 1920, 2880 */
    ct_opus_signal signal;
    int packet_loss_percentage; /* --expect-loss: 0 .. 100 (0) */
    int max_delay_ms;   /* --max-delay: the longest span of one Ogg page,
                           0 .. 1000 ms (1000) */
    uint32_t serial;    /* the Ogg stream's serial number (--serial N);
                           opusenc picks a random one without it */
    int lsb_depth;      /* the significant bits of the input, 8 .. 24, as
                           opusenc sets them: 16 for 16-bit input, 8 for
                           8-bit, 24 for 24-bit, 32-bit and float (0 =
                           from the format of the first samples sent) */
    int comment_padding; /* bytes of padding after OpusTags (512) */
    /* The comments after ENCODER=, each "TAG=value" (opusenc's --title,
       --artist ... in their order), and the ENCODER_OPTIONS value (NULL
       or "" = none), as opusenc writes them. */
    const char *const *comments;
    int num_comments;
    const char *encoder_options;
    ct_opus_output output;
    ct_simd simd;       /* CT_SIMD_C writes the bytes of libopus and
                           libopusenc built without SIMD; every other level
                           those of their SSE build (Debian's: the SSE inner
                           products, comb filter and PVQ search are part of
                           the result) */
    int frames_in_flight; /* on a pool of more than one worker, the frames
                           encoded at once (the ring): 0 = 4 per worker, 16
                           to 128; 1 .. CT_OPUS_MAX_FRAMES_IN_FLIGHT (on any
                           pool). Never changes the bytes. */
} ct_opus_settings;

#define CT_OPUS_MAX_FRAMES_IN_FLIGHT 128

/* opusenc's defaults for 48 kHz stereo: bitrate 0 (opusenc's formula),
 * unconstrained VBR, complexity 10, 20 ms frames, signal auto, no expected
 * loss, 1000 ms pages, serial 0, lsb_depth 0, padding 512, no comments,
 * Ogg output, CT_SIMD_AUTO, frames_in_flight 0. */
CT_API void ct_opus_settings_default(ct_opus_settings *settings);

/* opusenc's ENCODER_OPTIONS for settings that differ from the defaults,
 * flags in this order and spelling: --bitrate B (bitrate / 1000 with %g),
 * --cvbr or --hard-cbr, --music or --speech, --comp N, --framesize F,
 * --expect-loss N, --max-delay MS, and --serial N when with_serial. Writes
 * at most size bytes with the terminating 0; returns the length. */
CT_API size_t ct_opus_encoder_options(const ct_opus_settings *settings, int with_serial,
                                      char *buf, size_t size);

typedef struct ct_opus_encoder ct_opus_encoder;

/* An Ogg page (CT_OPUS_OUTPUT_OGG) or an Opus packet
 * (CT_OPUS_OUTPUT_PACKETS). data stays valid until the next call. */
typedef struct ct_opus_packet {
    const uint8_t *data;
    size_t size;
    int64_t granule;    /* the granule position at its end (48 kHz, pre-skip
                           included); for a page, the page's; -1 for the
                           header packets */
    int duration;       /* packets: the 48 kHz samples it holds (0 for
                           headers); pages: 0 */
    int header;         /* OpusHead or OpusTags, or a page of them */
    int eos;            /* the last packet or page of the stream */
} ct_opus_packet;

/* The encoder for the settings (checked: CT_EINVAL with a message in
 * errbuf for one out of range). Returns CT_OK and *encoder, or a CT_E*
 * code with a message in errbuf (*encoder is then NULL). The pool may be
 * NULL (the calling thread encodes); on a pool of more than one worker the
 * stream is spread over its workers frame by frame (the frame ring,
 * frames_in_flight), with the same bytes. The encoder holds a reference
 * to the pool. */
CT_API int ct_opus_encoder_new(ct_pool *pool, const ct_opus_settings *settings,
                               ct_opus_encoder **encoder, char *errbuf,
                               size_t errbuf_size);
/* NULL is ignored. */
CT_API void ct_opus_encoder_free(ct_opus_encoder *encoder);

/* Interleaved samples in the format, `frames` per channel, in pieces of
 * any size: the bytes do not depend on how the stream is cut. Returns
 * CT_OK, CT_ESTATE after ct_opus_drain, CT_EINVAL for NULL samples, or
 * the code of an earlier failure (then kept until ct_opus_reset). */
CT_API int ct_opus_send_samples(ct_opus_encoder *encoder, const void *pcm,
                                ct_opus_format format, size_t frames);
/* The next page or packet: CT_OK, CT_EAGAIN when none is ready, CT_EOF
 * after the drain once all are out, or an error code. */
CT_API int ct_opus_receive(ct_opus_encoder *encoder, ct_opus_packet *packet);
/* End of input: the signal is extended past its end as libopusenc
 * extends it, and every packet becomes available. A second call does
 * nothing. Returns CT_OK or an error code. */
CT_API int ct_opus_drain(ct_opus_encoder *encoder);
/* Forgets all input, output and state (an earlier failure included): as
 * ct_opus_encoder_new left it, for a new stream with the same settings. */
CT_API void ct_opus_reset(ct_opus_encoder *encoder);

/* The OpusHead and OpusTags packets (valid as long as the encoder). */
CT_API void ct_opus_encoder_headers(const ct_opus_encoder *encoder, ct_opus_packet *head,
                                    ct_opus_packet *tags);
/* The pre-skip in 48 kHz samples (OpusHead's: 312 at 44.1 kHz). */
CT_API int ct_opus_encoder_preskip(const ct_opus_encoder *encoder);
/* The most input samples (at the input rate) sent but not yet in a
 * packet: the decision delay and resampler latency a caller must expect,
 * and on a pool the frames in flight. */
CT_API int ct_opus_encoder_delay(const ct_opus_encoder *encoder);
/* The bitrate in bit/s the encoder uses (opusenc's formula for 0). */
CT_API int ct_opus_encoder_bitrate(const ct_opus_encoder *encoder);
/* What went wrong, after a call returned an error ("" if nothing). */
CT_API const char *ct_opus_encoder_error(const ct_opus_encoder *encoder);

#ifdef __cplusplus
}
#endif

#endif
