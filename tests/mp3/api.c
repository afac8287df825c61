/*
 * The MP3 encoder's API contract, without a reference encoder: the bytes do
 * not depend on how the input is split into ct_mp3_send_samples calls, nor
 * on the sample format it is sent in (16-bit, 32-bit, float), a reset
 * stream repeats the first one, the packets are whole frames in
 * order, and the calls out of order are refused.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctcore/mp3.h"
#include "ctcore/runtime.h"

static int failures;

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__); \
            printf("\n"); \
            failures++; \
        } \
    } while (0)

typedef struct stream {
    unsigned char *data;
    size_t size;
    int packets, tag_packets;
    int64_t next_sample; /* first_sample the next audio packet must have */
    int order_ok;
    int has_tag; /* ct_mp3_lametag gave a frame (LAME drops the tag when it
                    does not fit its frame, e.g. 32 kbit/s at 16 kHz) */
} stream;

static void put(stream *s, const ct_mp3_packet *p)
{
    s->data = realloc(s->data, s->size + p->size);
    memcpy(s->data + s->size, p->data, p->size);
    s->size += p->size;
    s->packets++;
    if (p->num_samples == 0) {
        s->tag_packets++;
    }
    else {
        if (p->first_sample < s->next_sample)
            s->order_ok = 0;
        s->next_sample = p->first_sample + 1;
    }
    if (p->size < 4 || p->data[0] != 0xFF || (p->data[1] & 0xE0) != 0xE0)
        s->order_ok = 0;
}

static int receive_all(ct_mp3_encoder *enc, stream *s)
{
    ct_mp3_packet p;
    int ret;
    while ((ret = ct_mp3_receive_packet(enc, &p)) == CT_OK)
        put(s, &p);
    return ret;
}

/* The samples in each format: 16-bit, s << 16, s / 32768. */
typedef struct pcm_formats {
    const int16_t *s16;
    int32_t *s32;
    float *f32;
} pcm_formats;

/* Sends n frames from frame pos in a format (0 s16, 1 s32, 2 f32). */
static int send(ct_mp3_encoder *enc, const pcm_formats *pcm, int format, long pos, long n,
                int channels)
{
    size_t const at = (size_t) (pos * channels);
    if (format == 1)
        return ct_mp3_send_samples_s32(enc, pcm->s32 + at, (size_t) n);
    if (format == 2)
        return ct_mp3_send_samples_f32(enc, pcm->f32 + at, (size_t) n);
    return ct_mp3_send_samples(enc, pcm->s16 + at, (size_t) n);
}

/* Encodes pcm in pieces of `piece` samples (0: one call), in a format of
 * send's; with format 3, the pieces take the three formats in turn. */
static void encode(ct_mp3_encoder *enc, const pcm_formats *pcm, int format, long frames,
                   int channels, long piece, stream *s)
{
    ct_mp3_packet tag;
    long pos;
    int ret;
    memset(s, 0, sizeof(*s));
    s->order_ok = 1;
    if (piece == 0)
        piece = frames;
    for (pos = 0; pos < frames; pos += piece) {
        long n = frames - pos < piece ? frames - pos : piece;
        ret = send(enc, pcm, format == 3 ? (int) (pos / piece % 3) : format, pos, n, channels);
        CHECK(ret == CT_OK, "send_samples: %d", ret);
        ret = receive_all(enc, s);
        CHECK(ret == CT_EAGAIN, "receive before drain: %d", ret);
    }
    CHECK(ct_mp3_lametag(enc, &tag) == CT_ESTATE, "lametag before drain");
    ret = ct_mp3_drain(enc);
    CHECK(ret == CT_OK, "drain: %d", ret);
    CHECK(ct_mp3_send_samples(enc, pcm->s16, 1) == CT_ESTATE, "send after drain");
    ret = receive_all(enc, s);
    CHECK(ret == CT_EOF, "receive after drain: %d", ret);
    CHECK(ct_mp3_receive_packet(enc, &tag) == CT_EOF, "receive after EOF");
    ret = ct_mp3_lametag(enc, &tag);
    CHECK(ret == CT_OK || ret == CT_EUNSUPPORTED, "lametag: %d", ret);
    s->has_tag = ret == CT_OK;
    if (ret == CT_OK && s->size >= tag.size)
        memcpy(s->data, tag.data, tag.size);
}

static void run(const char *name, ct_mp3_settings *cs, const pcm_formats *pcm, long frames)
{
    static const long pieces[] = {0, 1, 577, 1152, 4095};
    stream first, other;
    ct_mp3_encoder *enc;
    char err[200];
    size_t i;
    int format;
    int ret = ct_mp3_encoder_new(NULL, cs, &enc, err, sizeof(err));
    CHECK(ret == CT_OK, "%s: encoder_new: %s", name, err);
    if (ret != CT_OK)
        return;

    encode(enc, pcm, 0, frames, cs->channels, 0, &first);
    CHECK(first.order_ok, "%s: packets out of order or not frames", name);
    CHECK(first.tag_packets == first.has_tag, "%s: %d tag packets", name,
          first.tag_packets);
    CHECK(cs->lametag || !first.has_tag, "%s: a tag without lametag", name);
    CHECK(ct_mp3_encoder_frames_in_flight(enc) == 0, "%s: frames in flight on one thread",
          name);
    for (i = 1; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
        ct_mp3_reset(enc);
        encode(enc, pcm, 0, frames, cs->channels, pieces[i], &other);
        CHECK(other.size == first.size && !memcmp(other.data, first.data, first.size),
              "%s: pieces of %ld samples after reset: other bytes", name, pieces[i]);
        free(other.data);
    }
    for (format = 1; format <= 3; format++) {
        ct_mp3_reset(enc);
        encode(enc, pcm, format, frames, cs->channels, 1000, &other);
        CHECK(other.size == first.size && !memcmp(other.data, first.data, first.size),
              "%s: sample format %d: other bytes", name, format);
        free(other.data);
    }
    ct_mp3_reset(enc);
    CHECK(ct_mp3_send_samples_f32(enc, NULL, 1) == CT_EINVAL, "%s: NULL samples", name);
    printf("%s %s: %zu bytes, %d packets, delay %d, output rate %d\n",
           failures ? "..." : "ok ", name, first.size, first.packets,
           ct_mp3_encoder_delay(enc), ct_mp3_output_rate(enc));
    free(first.data);
    ct_mp3_encoder_free(enc);
}

int main(void)
{
    const long frames = 3 * 44100 + 123;
    int16_t *s16 = malloc(sizeof(int16_t) * 2 * (size_t) frames);
    pcm_formats pcm = {s16, malloc(sizeof(int32_t) * 2 * (size_t) frames),
                       malloc(sizeof(float) * 2 * (size_t) frames)};
    ct_mp3_settings cs;
    ct_mp3_encoder *enc;
    char err[200];
    long i;

    for (i = 0; i < frames; i++) {
        s16[2 * i] = (int16_t) lrint(12000 * sin(i * 0.031) + 3000 * sin(i * 0.9));
        s16[2 * i + 1] = (int16_t) lrint(9000 * sin(i * 0.047));
    }
    s16[0] = -32768; /* full scale, the float's -1.0 */
    s16[1] = 32767;
    for (i = 0; i < 2 * frames; i++) {
        pcm.s32[i] = (int32_t) ((uint32_t) (uint16_t) s16[i] << 16);
        pcm.f32[i] = s16[i] / 32768.0f;
    }

    ct_mp3_settings_default(&cs);
    run("-V 4", &cs, &pcm, frames);
    cs.rate_control = CT_MP3_CBR;
    cs.bitrate = 128;
    run("-b 128", &cs, &pcm, frames);
    cs.bitrate = 32; /* resampled to 22.05 kHz MPEG-2 */
    run("-b 32", &cs, &pcm, frames);
    cs.bitrate = 128;
    cs.lametag = 0;
    run("-b 128 -t", &cs, &pcm, frames);
    cs.lametag = 1;
    cs.bitrate = 0; /* lame without a rate flag */
    run("(no rate flag)", &cs, &pcm, frames);
    cs.bitrate = 64;
    cs.sample_rate = 12345; /* resampled, as any rate off the nine */
    run("-b 64 at 12345 Hz", &cs, &pcm, frames);
    CHECK(cs.sample_rate == 12345, "settings changed");

    ct_mp3_settings_default(&cs);
    cs.sample_rate = 0;
    CHECK(ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err)) == CT_EINVAL,
          "sample rate 0 accepted");
    ct_mp3_settings_default(&cs);
    cs.channels = 3;
    CHECK(ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err)) == CT_EINVAL,
          "3 channels accepted");

    ct_mp3_settings_default(&cs);
    {
        ct_pool *pool = ct_pool_new(2);
        int const ret = ct_mp3_encoder_new(pool, &cs, &enc, err, sizeof(err));
        CHECK(ret == CT_OK, "encoder_new on 2 threads: %s", err);
        /* the pool's default ring: 4 slots per worker, at least 16 */
        CHECK(ret != CT_OK || ct_pool_threads(pool) < 2
                  || ct_mp3_encoder_frames_in_flight(enc) >= 16,
              "frames in flight on 2 threads: %d",
              ret == CT_OK ? ct_mp3_encoder_frames_in_flight(enc) : 0);
        ct_mp3_encoder_free(enc);

        /* a ring of the settings' frames in flight (a live source's) */
        cs.frames_in_flight = 4;
        CHECK(ct_mp3_encoder_new(pool, &cs, &enc, err, sizeof(err)) == CT_OK,
              "4 frames in flight on 2 threads: %s", err);
        CHECK(ct_pool_threads(pool) < 2 || ct_mp3_encoder_frames_in_flight(enc) == 4,
              "frames in flight asked 4, got %d", ct_mp3_encoder_frames_in_flight(enc));
        ct_mp3_encoder_free(enc);
        ct_pool_unref(pool);
        /* on one thread the sequential chain, whatever the settings ask */
        CHECK(ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err)) == CT_OK
                  && ct_mp3_encoder_frames_in_flight(enc) == 0,
              "frames in flight on one thread");
        ct_mp3_encoder_free(enc);
        cs.frames_in_flight = -1;
        CHECK(ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err)) == CT_EINVAL,
              "frames in flight -1 accepted");
        cs.frames_in_flight = 0;
        cs.simd = (ct_simd) 99;
        CHECK(ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err)) == CT_EINVAL,
              "simd 99 accepted");
    }
    ct_mp3_encoder_free(NULL);

    free(s16);
    free(pcm.s32);
    free(pcm.f32);
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
