/*
 * ctcore MP3 encoder: a port of LAME 3.100 (libmp3lame) that writes exactly
 * the bytes Debian's `lame` 3.100 writes for the same input and settings:
 * MPEG-1 Layer III at 32, 44.1 and 48 kHz, MPEG-2 (LSF) at 16, 22.05 and
 * 24 kHz, MPEG-2.5 at 8, 11.025 and 12 kHz, with the LAME tag.
 *
 * The shape of every ctcore encoder: settings with their defaults
 * (ct_mp3_settings_default), then dav1d's send/receive: new, send PCM,
 * receive MP3 frames, drain at the end, reset to start again, free; the
 * delay and frames-in-flight queries. The LAME tag frame (the file's first
 * frame, a placeholder until then) is produced after the drain, for the
 * caller to write at offset 0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_MP3_H
#define CTCORE_MP3_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/ctcore.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ct_mp3_rate_control {
    CT_MP3_VBR = 0, /* lame -V q: LAME's "new" VBR (vbr_mtrh) */
    CT_MP3_CBR = 1, /* lame -b N */
    CT_MP3_ABR = 2, /* lame --abr N */
} ct_mp3_rate_control;

typedef enum ct_mp3_channel_mode {
    CT_MP3_MODE_DEFAULT = 0, /* LAME's choice: joint stereo for 2 channels */
    CT_MP3_MODE_JOINT_STEREO, /* -m j */
    CT_MP3_MODE_STEREO,       /* -m s */
    CT_MP3_MODE_MONO,         /* -m m: stereo input is mixed down */
} ct_mp3_channel_mode;

typedef struct ct_mp3_settings {
    int sample_rate;          /* of the input, 1 Hz or more, as lame: the nine
                                 MPEG rates (8000, 11025, 12000, 16000,
                                 22050, 24000, 32000, 44100, 48000) are kept
                                 unless the bitrate calls for a lower one,
                                 any other is resampled (LAME's resampler)
                                 to the rate lame picks */
    int channels;             /* of the input: 1 or 2 */
    ct_mp3_rate_control rate_control;
    float vbr_quality;        /* -V: 0 (best) up to, not including, 10 */
    int bitrate;              /* kbit/s for CBR (-b) and ABR (--abr):
                                 8 .. 320; for CBR also 0: lame without a
                                 rate flag (the bitrate nearest to a
                                 compression ratio of 11.025 at the
                                 output rate LAME picks) */
    int quality;              /* -q: 0 (best) .. 9; -1 = LAME's default */
    ct_mp3_channel_mode mode; /* -m */
    int replaygain;           /* ReplayGain analysis into the tag (CLI: on) */
    int lametag;              /* write the Xing/Info + LAME tag frame */
    ct_simd simd;             /* kernel level: changes the speed only, never
                                 the bytes (LAME's own build has no SIMD on
                                 these paths) */
    int frames_in_flight;     /* on a pool of more than one worker, the
                                 frames encoded at once (the ring): 0 = 4 per
                                 worker, 16 to 128; fewer bound the delay of
                                 the bytes (live sources); 1 ..
                                 CT_MP3_MAX_FRAMES_IN_FLIGHT. Never changes
                                 the bytes. */
} ct_mp3_settings;

#define CT_MP3_MAX_FRAMES_IN_FLIGHT 1024

/* lame's CLI defaults for 44.1 kHz stereo input: -V 4 (bitrate 128 for
 * -b and --abr), LAME's quality and channel mode (joint stereo for two
 * channels), ReplayGain and the LAME tag on; simd CT_SIMD_AUTO, frames_in_flight 0. */
CT_API void ct_mp3_settings_default(ct_mp3_settings *settings);

typedef struct ct_mp3_encoder ct_mp3_encoder;

/* One MP3 frame (header, side info, its share of main data bytes as LAME's
 * bitstream emits them). data stays valid until the next call. */
typedef struct ct_mp3_packet {
    const uint8_t *data;
    size_t size;
    int64_t first_sample;     /* index of the first input sample it covers,
                                 encoder delay not subtracted */
    int num_samples;          /* samples per frame: 1152 (or 576 in LSF) */
} ct_mp3_packet;

/* The encoder for the settings (checked: CT_EINVAL with a message in
 * errbuf for one out of range). Returns CT_OK and *encoder, or a CT_E*
 * code with a message in errbuf (*encoder is then NULL). With a pool of
 * more than one worker, the frames of the stream are encoded on all of
 * them at once (a ring of frames in flight, see
 * ct_mp3_encoder_frames_in_flight; the encoder holds a reference to the
 * pool); with NULL or one worker, one after the other on the calling
 * thread. The bytes are the same. */
CT_API int ct_mp3_encoder_new(ct_pool *pool, const ct_mp3_settings *settings,
                              ct_mp3_encoder **encoder, char *errbuf,
                              size_t errbuf_size);
/* NULL is ignored. */
CT_API void ct_mp3_encoder_free(ct_mp3_encoder *encoder);

/* Interleaved signed 16-bit samples, `frames` samples per channel, in
 * pieces of any size: the bytes do not depend on how the stream is cut.
 * Returns CT_OK, CT_ESTATE after ct_mp3_drain, CT_EINVAL for NULL samples,
 * or the code of an earlier failure (the encoder then refuses everything
 * until ct_mp3_reset). */
CT_API int ct_mp3_send_samples(ct_mp3_encoder *encoder, const int16_t *pcm,
                               size_t frames);
/* The same for signed 32-bit samples (full scale +-2^31): what lame's
 * reader makes of 8-, 16-, 24- and 32-bit WAVs (the sample in the top
 * bits), encoded as lame_encode_buffer_int does (each sample rounded to
 * float, then scaled by 2^-16). A 16-bit stream sent as s16 << 16 writes
 * the bytes of ct_mp3_send_samples. One stream may mix the three
 * functions. */
CT_API int ct_mp3_send_samples_s32(ct_mp3_encoder *encoder, const int32_t *pcm,
                                   size_t frames);
/* The same for 32-bit floats (full scale +-1.0), turned into 32-bit
 * integers as lame's own WAV reader turns IEEE float samples (the one it
 * reads stdin with: x * 2^31 in float, rounded half away from zero,
 * clipped at +-1.0; NaN is read as 0): the bytes of `lame - out.mp3` on
 * the float WAV. (Given a float WAV *file*, lame reads it with libsndfile,
 * which first scales the whole file to its peak: ctlame does the same
 * and sends the result with ct_mp3_send_samples_s32.) */
CT_API int ct_mp3_send_samples_f32(ct_mp3_encoder *encoder, const float *pcm,
                                   size_t frames);
/* The next packet: CT_OK, CT_EAGAIN when none is ready, CT_EOF after the
 * drain once all are out, or an error code. With the LAME tag on, the
 * first packet is its placeholder (num_samples 0). On a pool, frames still
 * being encoded are not waited for, except the oldest when the ring is
 * full (the calling thread then works on the ring). */
CT_API int ct_mp3_receive_packet(ct_mp3_encoder *encoder, ct_mp3_packet *packet);
/* End of input: the samples sent are padded to whole frames, and every
 * frame becomes available to receive; the LAME tag is computed. A second
 * call does nothing. Returns CT_OK or an error code. */
CT_API int ct_mp3_drain(ct_mp3_encoder *encoder);
/* Once ct_mp3_receive_packet has returned CT_EOF: the final LAME tag frame,
 * the size of the placeholder, for the caller to write over it (the first
 * packet). CT_ESTATE before that, CT_EUNSUPPORTED when the settings have
 * no LAME tag. */
CT_API int ct_mp3_lametag(ct_mp3_encoder *encoder, ct_mp3_packet *packet);
/* Forgets all input, output and state (an earlier failure included): the
 * encoder is as ct_mp3_encoder_new left it, ready for a new stream with
 * the same settings. */
CT_API void ct_mp3_reset(ct_mp3_encoder *encoder);

/* The encoder delay in samples at the output rate, as written to the LAME
 * tag (LAME's 576; the tag's padding at the end is known after the
 * drain only). */
CT_API int ct_mp3_encoder_delay(const ct_mp3_encoder *encoder);
/* Output sample rate (LAME may resample at low bitrates). */
CT_API int ct_mp3_output_rate(const ct_mp3_encoder *encoder);
/* The frames the encoder may hold in flight on its pool (its frame ring):
 * a frame's bytes may come out this many frames later than on one thread;
 * 0 when the frames are encoded one by one on the calling thread. */
CT_API int ct_mp3_encoder_frames_in_flight(const ct_mp3_encoder *encoder);

#ifdef __cplusplus
}
#endif

#endif
