/*
 * Fuzz target: the MP3 encoder. The input picks the settings (any input
 * rate lame takes: the MPEG rates and others, resampled), then a sequence
 * of sends of S16, S32 or F32 samples in pieces of any size (silence,
 * noise, tones, full-scale extremes; for floats NaN, infinities and
 * clipping too), receives, drains and resets. The same sequence runs on
 * the calling thread and on a pool of two workers: every stream that ends
 * must give the same bytes, packet boundaries and LAME tag on both.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "fuzz.h"

#define MAX_OPERATIONS 48
/* Samples per channel per send (four frames and some). */
#define MAX_SEND_FRAMES 4700

typedef struct bytes {
    uint8_t *data;
    size_t size, cap;
} bytes;

static void bytes_append(bytes *b, const void *data, size_t size)
{
    if (b->size + size > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->size + size)
            cap *= 2;
        b->data = realloc(b->data, cap);
        fuzz_assert(b->data);
        b->cap = cap;
    }
    if (size)
        memcpy(b->data + b->size, data, size);
    b->size += size;
}

/* One encoder and what it gave: `done` the streams ended by a drain
 * (every packet, with its position, then the LAME tag), `stream` the one
 * under way. */
typedef struct run {
    ct_mp3_encoder *encoder;
    bytes done, stream;
    size_t first_packet_size;
    int packets, placeholder, ended;
} run;

static void receive_all(run *r, int lametag)
{
    ct_mp3_packet packet;
    int code;
    while ((code = ct_mp3_receive_packet(r->encoder, &packet)) == CT_OK) {
        fuzz_assert(packet.size > 0 && packet.data);
        fuzz_assert(packet.num_samples == 0 ? lametag && r->packets == 0
                                            : packet.num_samples == 1152 ||
                                                  packet.num_samples == 576);
        if (r->packets++ == 0) {
            r->first_packet_size = packet.size;
            r->placeholder = packet.num_samples == 0;
        }
        bytes_append(&r->stream, packet.data, packet.size);
        bytes_append(&r->stream, &packet.first_sample,
                     sizeof(packet.first_sample));
        bytes_append(&r->stream, &packet.num_samples,
                     sizeof(packet.num_samples));
    }
    fuzz_assert(code == CT_EAGAIN || code == CT_EOF);
    if (code != CT_EOF || r->ended)
        return;
    r->ended = 1;
    /* The tag's placeholder came first, unless the settings have no tag or
     * LAME's tag does not fit in a frame (a low bitrate). */
    code = ct_mp3_lametag(r->encoder, &packet);
    if (code == CT_OK) {
        fuzz_assert(lametag && r->placeholder &&
                    packet.size == r->first_packet_size);
        bytes_append(&r->stream, packet.data, packet.size);
    } else {
        fuzz_assert(code == CT_EUNSUPPORTED && !r->placeholder);
    }
    bytes_append(&r->done, r->stream.data, r->stream.size);
    r->stream.size = 0;
}

static void reset(run *r)
{
    ct_mp3_reset(r->encoder);
    r->stream.size = 0;
    r->packets = 0;
    r->placeholder = 0;
    r->ended = 0;
}

static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* Sample i of a signal `kind` as a full-scale 32-bit integer. */
static int32_t sample_s32(unsigned kind, size_t i, uint32_t *random)
{
    switch (kind % 5) {
    case 0: return 0;
    case 1: return (int32_t)next_random(random);
    case 2: return (int32_t)(next_random(random) >> 8) - (1 << 23);
    case 3: return i & 1 ? INT32_MAX : INT32_MIN;
    default: return (int32_t)(sin((double)i * 0.05 * (1 + kind % 7)) * 2e9);
    }
}

static float sample_f32(unsigned kind, size_t i, uint32_t *random)
{
    switch (kind % 8) {
    case 5: return i % 3 == 0 ? NAN : i % 3 == 1 ? INFINITY : -INFINITY;
    case 6: return (float)(i % 5) - 2.0f; /* clipped beyond +-1 */
    default: return (float)sample_s32(kind, i, random) * 0x1p-31f;
    }
}

static int send_samples(ct_mp3_encoder *encoder, unsigned format, unsigned kind,
                        size_t frames, int channels, int null_pcm)
{
    const size_t count = frames * (size_t)channels;
    uint32_t random = 0x9e3779b9u ^ kind;
    int code;
    if (format == 0) {
        int16_t *pcm = malloc(count * sizeof(*pcm) + 1);
        for (size_t i = 0; i < count; i++)
            pcm[i] = (int16_t)(sample_s32(kind, i, &random) >> 16);
        code = ct_mp3_send_samples(encoder, null_pcm ? NULL : pcm, frames);
        free(pcm);
    } else if (format == 1) {
        int32_t *pcm = malloc(count * sizeof(*pcm) + 1);
        for (size_t i = 0; i < count; i++)
            pcm[i] = sample_s32(kind, i, &random);
        code = ct_mp3_send_samples_s32(encoder, null_pcm ? NULL : pcm, frames);
        free(pcm);
    } else {
        float *pcm = malloc(count * sizeof(*pcm) + 1);
        for (size_t i = 0; i < count; i++)
            pcm[i] = sample_f32(kind, i, &random);
        code = ct_mp3_send_samples_f32(encoder, null_pcm ? NULL : pcm, frames);
        free(pcm);
    }
    return code;
}

static int fuzz_rate(fuzz_input *in)
{
    static const int rates[] = {
        8000,  11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000,
        1,     7999,  8001,  44099, 64000, 88200, 96000, 192000, 0, -1,
    };
    const unsigned choice = fuzz_u8(in);
    if (choice < 200)
        return rates[choice % (sizeof(rates) / sizeof(rates[0]))];
    return 1000 + (int)(fuzz_u16(in) * 3u);
}

static void fuzz_settings(fuzz_input *in, ct_mp3_settings *s)
{
    ct_mp3_settings_default(s);
    s->sample_rate = fuzz_rate(in);
    const unsigned shape = fuzz_u8(in);
    s->channels = shape < 250 ? 1 + (int)(shape & 1) : (int)(shape & 3) * 3;
    s->rate_control = (ct_mp3_rate_control)((shape >> 1) % 4);
    const unsigned vbr = fuzz_u8(in);
    if (vbr < 250) {
        s->vbr_quality = (float)vbr * 0.04f; /* 0 .. 9.96 */
    } else {
        const uint32_t bits = fuzz_u32(in);
        memcpy(&s->vbr_quality, &bits, sizeof(s->vbr_quality));
    }
    static const int bitrates[] = {
        0,  8,   16,  24,  32,  40,  48,  56,  64,  80, 96,
        112, 128, 144, 160, 192, 224, 256, 320, 7, 321, 100,
    };
    const unsigned bitrate = fuzz_u8(in);
    s->bitrate = bitrate < 220
                     ? bitrates[bitrate % (sizeof(bitrates) / sizeof(bitrates[0]))]
                     : (int)bitrate + 100;
    s->quality = (int)(fuzz_u8(in) % 12) - 1;
    const unsigned flags = fuzz_u8(in);
    s->mode = (ct_mp3_channel_mode)(flags % 5);
    s->replaygain = (flags >> 3) & 1;
    s->lametag = !((flags >> 4) & 1);
    s->simd = (ct_simd)((flags >> 5) % 5);
    const unsigned ring = fuzz_u8(in);
    s->frames_in_flight = ring < 250 ? (int)(ring % 9)
                          : ring < 253 ? CT_MP3_MAX_FRAMES_IN_FLIGHT + (int)ring - 251
                                       : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size, 0 };
    ct_mp3_settings settings;
    fuzz_settings(&in, &settings);

    run runs[2] = { 0 };
    char errbuf[256];
    ct_pool *pool = ct_pool_new(2);
    fuzz_assert(pool);
    const int code = ct_mp3_encoder_new(NULL, &settings, &runs[0].encoder,
                                        errbuf, sizeof(errbuf));
    const int pooled_code = ct_mp3_encoder_new(pool, &settings,
                                               &runs[1].encoder, errbuf,
                                               sizeof(errbuf));
    ct_pool_unref(pool);
    fuzz_assert(code == pooled_code);
    if (code != CT_OK) {
        fuzz_assert(code == CT_EINVAL && !runs[0].encoder && !runs[1].encoder);
        return 0;
    }
    fuzz_assert(ct_mp3_encoder_delay(runs[0].encoder) ==
                ct_mp3_encoder_delay(runs[1].encoder));
    fuzz_assert(ct_mp3_output_rate(runs[0].encoder) ==
                ct_mp3_output_rate(runs[1].encoder));

    /* At most an eighth of a second of input, 16 samples at least (a low
     * rate is resampled to 8 kHz or more) and 6144 at most: a run stays
     * within milliseconds. */
    size_t frames_left = (size_t)settings.sample_rate / 8;
    frames_left = frames_left < 16 ? 16 : frames_left > 6144 ? 6144 : frames_left;
    for (int op = 0; op < MAX_OPERATIONS && !fuzz_done(&in); op++) {
        const unsigned choice = fuzz_u8(&in);
        switch (choice % 8) {
        case 0:
        case 1:
        case 2:
        case 3: { /* send */
            const unsigned format = choice >> 3 & 3;
            const unsigned kind = fuzz_u8(&in);
            size_t frames = fuzz_u16(&in) % MAX_SEND_FRAMES;
            if (frames > frames_left)
                frames = frames_left;
            frames_left -= frames;
            const int null_pcm = format == 3;
            int sent[2];
            for (int i = 0; i < 2; i++)
                sent[i] = send_samples(runs[i].encoder, null_pcm ? 0 : format,
                                       kind, frames, settings.channels,
                                       null_pcm);
            fuzz_assert(sent[0] == sent[1]);
            fuzz_assert(sent[0] == CT_OK || sent[0] == CT_ESTATE ||
                        (sent[0] == CT_EINVAL && null_pcm));
            break;
        }
        case 4:
        case 5:
            for (int i = 0; i < 2; i++)
                receive_all(&runs[i], settings.lametag);
            break;
        case 6:
            for (int i = 0; i < 2; i++)
                fuzz_assert(ct_mp3_drain(runs[i].encoder) == CT_OK);
            break;
        case 7:
            for (int i = 0; i < 2; i++)
                reset(&runs[i]);
            break;
        }
    }
    for (int i = 0; i < 2; i++) {
        fuzz_assert(ct_mp3_drain(runs[i].encoder) == CT_OK);
        receive_all(&runs[i], settings.lametag);
        fuzz_assert(runs[i].ended);
    }
    fuzz_assert(runs[0].done.size == runs[1].done.size);
    fuzz_assert(runs[0].done.size == 0 ||
                memcmp(runs[0].done.data, runs[1].done.data,
                       runs[0].done.size) == 0);
    for (int i = 0; i < 2; i++) {
        ct_mp3_encoder_free(runs[i].encoder);
        free(runs[i].done.data);
        free(runs[i].stream.data);
    }
    return 0;
}
