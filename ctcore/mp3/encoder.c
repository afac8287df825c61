/*
 * The public MP3 encoder, ctcore/mp3.h: the settings' checks, the input in
 * 32-bit integers as lame's reader makes them (16-bit, 32-bit and float
 * samples), cut into pieces of one frame's length (as the lame CLI hands
 * them to lame_encode_buffer_int: input.c), the byte FIFO the graph's
 * frames arrive in and its cutting into packets, lame_get_lametag_frame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/lame.c and frontend/get_audio.c
 * (LGPL-2.0-or-later, the LAME project)
 */
#include "ctcore/mp3.h"

#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"
#include "config.h"
#include "encoder.h"
#include "graph.h"
#include "input.h"
#include "lametag.h"
#include "state.h"
#include "tables.h"

/* The largest frame: 320 kbit/s at 32 kHz, padded (LAME tag frames are no
 * larger). */
#define MAX_FRAME_BYTES 1441

struct ct_mp3_encoder {
    ct_mp3_settings settings;
    ct_mp3_state *gfc;
    ct_mp3_graph *graph;    /* the sequential chain or the frame ring */
    int chunk;              /* samples per encode call: the CLI's framesize */
    int32_t *pending;       /* interleaved input waiting for a full chunk, as
                               the CLI hands it to lame_encode_buffer_int */
    int pending_frames;
    unsigned char *out;     /* finished stream bytes not yet cut into packets */
    size_t out_head, out_len, out_cap;
    unsigned char packet[MAX_FRAME_BYTES];
    int64_t audio_frames;   /* audio packets handed out */
    int tag_seen;           /* the LAME tag placeholder was handed out */
    int drained;
    int failed;             /* sticky CT_E* code of an internal failure */
    unsigned char lametag[MAX_FRAME_BYTES];
    size_t lametag_size;
};

void ct_mp3_settings_default(ct_mp3_settings *settings)
{
    memset(settings, 0, sizeof(*settings));
    settings->sample_rate = 44100;
    settings->channels = 2;
    settings->rate_control = CT_MP3_VBR;
    settings->vbr_quality = 4;
    settings->bitrate = 128;
    settings->quality = -1;
    settings->mode = CT_MP3_MODE_DEFAULT;
    settings->replaygain = 1;
    settings->lametag = 1;
    settings->simd = CT_SIMD_AUTO;
}

/* ---- the byte FIFO ------------------------------------------------------ */

/* Room for `need` bytes at the end of the FIFO. */
static int reserve_bytes(ct_mp3_encoder *enc, size_t need)
{
    if (enc->out_head > 0 && enc->out_head == enc->out_len) {
        enc->out_head = enc->out_len = 0;
    }
    if (enc->out_cap - enc->out_len >= need)
        return CT_OK;
    if (enc->out_head > 0) {
        memmove(enc->out, enc->out + enc->out_head, enc->out_len - enc->out_head);
        enc->out_len -= enc->out_head;
        enc->out_head = 0;
        if (enc->out_cap - enc->out_len >= need)
            return CT_OK;
    }
    {
        size_t cap = enc->out_len + 2 * need;
        if (cap < 2 * enc->out_cap) /* a caller that does not receive */
            cap = 2 * enc->out_cap;
        unsigned char *out = realloc(enc->out, cap);
        if (out == NULL)
            return CT_ENOMEM;
        enc->out = out;
        enc->out_cap = cap;
    }
    return CT_OK;
}

/* The graph's sink: a finished frame's bytes (or the bit stream's) into
 * the FIFO. */
static int append_out(void *ctx, const unsigned char *data, size_t size)
{
    ct_mp3_encoder *enc = ctx;
    int ret;
    if (size == 0)
        return CT_OK; /* out may still be NULL */
    ret = reserve_bytes(enc, size);
    if (ret != CT_OK)
        return ret;
    memcpy(enc->out + enc->out_len, data, size);
    enc->out_len += size;
    return CT_OK;
}

/* The length of the frame whose header starts at p, 0 if p holds no
 * Layer III header. */
static size_t frame_length(const unsigned char *p)
{
    int id, version, kbps, rate, padding;
    if (p[0] != 0xFF || (p[1] & 0xE0) != 0xE0 || ((p[1] >> 1) & 3) != 1)
        return 0;
    id = (p[1] >> 3) & 3; /* 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5 */
    if (id == 1)
        return 0;
    version = id == 3 ? 1 : (id == 2 ? 0 : 2);
    kbps = ct_mp3_bitrate_table[version][p[2] >> 4];
    rate = ct_mp3_samplerate_table[version][(p[2] >> 2) & 3];
    padding = (p[2] >> 1) & 1;
    if (kbps <= 0 || rate <= 0)
        return 0;
    return (size_t) ((id == 3 ? 144000 : 72000) * kbps / rate + padding);
}

/* ---- the public API ----------------------------------------------------- */

static int check_settings(const ct_mp3_settings *s, char *errbuf, size_t errbuf_size)
{
    /* lame_init_params' only limit: any other rate than the nine of MPEG
     * audio is resampled */
    if (s->sample_rate < 1)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "sample rate %d: not 1 Hz or more", s->sample_rate);
    if (s->channels != 1 && s->channels != 2)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "%d channels: not 1 or 2",
                             s->channels);
    switch (s->rate_control) {
    case CT_MP3_VBR:
        if (!(s->vbr_quality >= 0 && s->vbr_quality < 10))
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "VBR quality %g: not in 0..9.999", s->vbr_quality);
        break;
    case CT_MP3_CBR:
        if (s->bitrate != 0 && (s->bitrate < 8 || s->bitrate > 320))
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "bitrate %d kbit/s: not 0 or in 8..320", s->bitrate);
        break;
    case CT_MP3_ABR:
        if (s->bitrate < 8 || s->bitrate > 320)
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "bitrate %d kbit/s: not in 8..320", s->bitrate);
        break;
    default:
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "unknown rate control %d",
                             (int) s->rate_control);
    }
    if (s->quality < -1 || s->quality > 9)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "quality %d: not in -1..9",
                             s->quality);
    if ((int) s->mode < CT_MP3_MODE_DEFAULT || (int) s->mode > CT_MP3_MODE_MONO)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "unknown channel mode %d",
                             (int) s->mode);
    if (s->frames_in_flight < 0 || s->frames_in_flight > CT_MP3_MAX_FRAMES_IN_FLIGHT)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "frames in flight %d: not in 0..%d", s->frames_in_flight,
                             CT_MP3_MAX_FRAMES_IN_FLIGHT);
    if ((int) s->simd < CT_SIMD_AUTO || (int) s->simd > CT_SIMD_AVX2)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "unknown simd level %d",
                             (int) s->simd);
    return CT_OK;
}

/* lame_init + lame_set_* + lame_init_params, and the encoder's own state. */
static int start_stream(ct_mp3_encoder *enc)
{
    int ret;
    /* no node of the ring may run on the state while it is set up */
    if (enc->graph != NULL)
        ct_mp3_graph_stop(enc->graph);
    memset(enc->gfc, 0, sizeof(*enc->gfc));
    ret = ct_mp3_config_init(enc->gfc, &enc->settings);
    if (ret != CT_OK)
        return ret;
    if (enc->graph != NULL)
        ct_mp3_graph_start(enc->graph);
    enc->chunk = 576 * enc->gfc->cfg.mode_gr;
    enc->pending_frames = 0;
    enc->out_head = enc->out_len = 0;
    enc->audio_frames = 0;
    enc->tag_seen = !enc->gfc->cfg.write_lame_tag;
    enc->drained = 0;
    enc->failed = CT_OK;
    enc->lametag_size = 0;
    return CT_OK;
}

/* ring: the slots of the frame ring, 0 for the default (ct_mp3_graph_new). */
static int encoder_new(ct_pool *pool, const ct_mp3_settings *settings, size_t ring,
                       ct_mp3_encoder **encoder, char *errbuf, size_t errbuf_size)
{
    ct_mp3_encoder *enc;
    int ret;

    *encoder = NULL;
    ret = check_settings(settings, errbuf, errbuf_size);
    if (ret != CT_OK)
        return ret;

    enc = calloc(1, sizeof(*enc));
    if (enc == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
    enc->settings = *settings;
    enc->gfc = malloc(sizeof(*enc->gfc));
    enc->pending = malloc(sizeof(int32_t) * 2 * 1152);
    if (enc->gfc == NULL || enc->pending == NULL) {
        ct_mp3_encoder_free(enc);
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
    }
    ret = start_stream(enc);
    if (ret != CT_OK) {
        ct_mp3_encoder_free(enc);
        return ct_errbuf_set(errbuf, errbuf_size, ret, "settings refused by LAME's set-up");
    }
    enc->graph = ct_mp3_graph_new(pool, enc->gfc, ring, append_out, enc);
    if (enc->graph == NULL) {
        ct_mp3_encoder_free(enc);
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
    }
    ct_mp3_graph_start(enc->graph);
    *encoder = enc;
    return CT_OK;
}

int ct_mp3_encoder_new(ct_pool *pool, const ct_mp3_settings *settings,
                       ct_mp3_encoder **encoder, char *errbuf, size_t errbuf_size)
{
    return encoder_new(pool, settings,
                       ct_mp3_graph_ring_for(pool, settings->frames_in_flight),
                       encoder, errbuf, errbuf_size);
}

int ct_mp3_encoder_new_ring(ct_pool *pool, const ct_mp3_settings *settings, size_t ring,
                            ct_mp3_encoder **encoder, char *errbuf, size_t errbuf_size)
{
    return encoder_new(pool, settings, ring, encoder, errbuf, errbuf_size);
}

ct_mp3_graph *ct_mp3_encoder_graph(ct_mp3_encoder *encoder)
{
    return encoder->graph;
}

void ct_mp3_encoder_free(ct_mp3_encoder *encoder)
{
    if (encoder == NULL)
        return;
    ct_mp3_graph_free(encoder->graph);
    free(encoder->gfc);
    free(encoder->pending);
    free(encoder->out);
    free(encoder);
}

/* The samples of one format into the pending chunk, as 32-bit integers. */
typedef void (*convert_fn)(int32_t *dst, const void *src, size_t offset, size_t n);

/* lame's reader of 16-bit WAVs: the sample in the top 16 bits. */
static void convert_s16(int32_t *dst, const void *src, size_t offset, size_t n)
{
    const int16_t *const s = (const int16_t *) src + offset;
    for (size_t i = 0; i < n; i++)
        dst[i] = (int32_t) ((uint32_t) (uint16_t) s[i] << 16);
}

static void convert_s32(int32_t *dst, const void *src, size_t offset, size_t n)
{
    memcpy(dst, (const int32_t *) src + offset, n * sizeof(int32_t));
}

/* lame's own WAV reader (get_audio.c:unpack_read_samples, the one it uses
 * on stdin) for IEEE floats: full scale to +-2^31 in float arithmetic,
 * rounded half away from zero, clipped at +-1. NaN, which lame's reader
 * leaves to the CPU, is silence. */
static void convert_f32(int32_t *dst, const void *src, size_t offset, size_t n)
{
    const float *const s = (const float *) src + offset;
    float const m_max = INT32_MAX;
    float const m_min = -(float) INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        float const u = s[i];
        if (u >= 1)
            dst[i] = INT32_MAX;
        else if (u <= -1)
            dst[i] = INT32_MIN;
        else if (u >= 0)
            dst[i] = (int32_t) (u * m_max + 0.5f);
        else if (u < 0)
            dst[i] = (int32_t) (u * m_min - 0.5f);
        else
            dst[i] = 0;
    }
}

static int send_samples(ct_mp3_encoder *encoder, const void *pcm, size_t frames,
                        convert_fn convert)
{
    size_t const channels = (size_t) encoder->settings.channels;
    size_t offset = 0;

    if (encoder->failed != CT_OK)
        return encoder->failed;
    if (encoder->drained)
        return CT_ESTATE;
    if (frames > 0 && pcm == NULL)
        return CT_EINVAL;
    while (frames > 0) {
        size_t n = (size_t) (encoder->chunk - encoder->pending_frames);
        if (n > frames)
            n = frames;
        convert(encoder->pending + (size_t) encoder->pending_frames * channels, pcm, offset,
                n * channels);
        encoder->pending_frames += (int) n;
        offset += n * channels;
        frames -= n;
        if (encoder->pending_frames == encoder->chunk) {
            int const ret = ct_mp3_input_encode(encoder->gfc, encoder->graph, encoder->pending,
                                                encoder->chunk);
            encoder->pending_frames = 0;
            if (ret != CT_OK)
                return encoder->failed = ret;
        }
    }
    return CT_OK;
}

int ct_mp3_send_samples(ct_mp3_encoder *encoder, const int16_t *pcm, size_t frames)
{
    return send_samples(encoder, pcm, frames, convert_s16);
}

int ct_mp3_send_samples_s32(ct_mp3_encoder *encoder, const int32_t *pcm, size_t frames)
{
    return send_samples(encoder, pcm, frames, convert_s32);
}

int ct_mp3_send_samples_f32(ct_mp3_encoder *encoder, const float *pcm, size_t frames)
{
    return send_samples(encoder, pcm, frames, convert_f32);
}

/* When the FIFO holds no whole frame: the frames the ring has finished,
 * waiting for the oldest when the ring is full. Returns CT_OK when it got
 * some, CT_EAGAIN when none (always on the sequential chain). */
static int pull_frames(ct_mp3_encoder *enc)
{
    size_t in_flight, popped;
    int ret;

    if (enc->drained)
        return CT_EAGAIN;
    in_flight = ct_mp3_graph_in_flight(enc->graph);
    if (in_flight == 0)
        return CT_EAGAIN;
    ret = ct_mp3_graph_collect(enc->graph, in_flight == ct_mp3_graph_ring(enc->graph),
                               &popped);
    if (ret != CT_OK)
        return enc->failed = ret;
    return popped > 0 ? CT_OK : CT_EAGAIN;
}

int ct_mp3_receive_packet(ct_mp3_encoder *encoder, ct_mp3_packet *packet)
{
    const ct_mp3_config *const cfg = &encoder->gfc->cfg;
    size_t avail;
    const unsigned char *p;
    size_t len = 0;

    if (encoder->failed != CT_OK)
        return encoder->failed;
    for (;;) {
        int ret;
        avail = encoder->out_len - encoder->out_head;
        if (avail >= 4) {
            /* only here: out is NULL before the first output */
            p = encoder->out + encoder->out_head;
            len = frame_length(p);
            if (len == 0 || len > MAX_FRAME_BYTES)
                return encoder->failed = CT_EINVAL;
            if (avail >= len)
                break;
        }
        ret = pull_frames(encoder);
        if (ret == CT_OK)
            continue;
        if (ret != CT_EAGAIN)
            return ret;
        if (avail < 4)
            return encoder->drained && avail == 0 ? CT_EOF
                                                  : (encoder->drained ? CT_EINVAL : CT_EAGAIN);
        return encoder->drained ? (encoder->failed = CT_EINVAL) : CT_EAGAIN;
    }

    memcpy(encoder->packet, p, len);
    encoder->out_head += len;
    packet->data = encoder->packet;
    packet->size = len;
    if (!encoder->tag_seen) {
        /* the LAME tag's placeholder: no audio */
        encoder->tag_seen = 1;
        packet->first_sample = 0;
        packet->num_samples = 0;
    }
    else {
        int const framesize = 576 * cfg->mode_gr;
        packet->first_sample =
            encoder->audio_frames * framesize * cfg->samplerate_in / cfg->samplerate_out;
        packet->num_samples = framesize;
        encoder->audio_frames++;
    }
    return CT_OK;
}

int ct_mp3_drain(ct_mp3_encoder *encoder)
{
    int ret;
    if (encoder->failed != CT_OK)
        return encoder->failed;
    if (encoder->drained)
        return CT_OK;
    ret = ct_mp3_input_encode(encoder->gfc, encoder->graph, encoder->pending,
                              encoder->pending_frames);
    encoder->pending_frames = 0;
    if (ret == CT_OK)
        ret = ct_mp3_input_flush(encoder->gfc, encoder->graph);
    if (ret != CT_OK)
        return encoder->failed = ret;
    if (encoder->gfc->cfg.write_lame_tag) {
        encoder->lametag_size = ct_mp3_get_lametag_frame(ct_mp3_graph_encode_state(encoder->graph),
                                                         encoder->lametag,
                                                         sizeof(encoder->lametag));
        if (encoder->lametag_size > sizeof(encoder->lametag))
            return encoder->failed = CT_EINVAL;
    }
    encoder->drained = 1;
    return CT_OK;
}

int ct_mp3_lametag(ct_mp3_encoder *encoder, ct_mp3_packet *packet)
{
    if (!encoder->drained || encoder->out_head != encoder->out_len)
        return CT_ESTATE;
    if (encoder->lametag_size == 0)
        return CT_EUNSUPPORTED;
    packet->data = encoder->lametag;
    packet->size = encoder->lametag_size;
    packet->first_sample = 0;
    packet->num_samples = 0;
    return CT_OK;
}

void ct_mp3_reset(ct_mp3_encoder *encoder)
{
    /* the settings were accepted once: the set-up cannot fail again */
    encoder->failed = start_stream(encoder);
}

int ct_mp3_encoder_delay(const ct_mp3_encoder *encoder)
{
    return encoder->gfc->ov_enc.encoder_delay;
}

int ct_mp3_output_rate(const ct_mp3_encoder *encoder)
{
    return encoder->gfc->cfg.samplerate_out;
}

int ct_mp3_encoder_frames_in_flight(const ct_mp3_encoder *encoder)
{
    return (int) ct_mp3_graph_ring(encoder->graph);
}
