/*
 * The encodes of the fault tests (encodes.h): ct_jpeg_encode on one image
 * (progressive; XYB with fixed codes), the streaming JPEG encoder with 2
 * frames in flight on 3 frames, and the MP3 encoder on a short stereo
 * signal (VBR; CBR), sent, received, drained and given its LAME tag. Every
 * error code is returned as it is: the caller judges it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdbool.h>
#include <string.h>

#include "ctcore/jpeg.h"
#include "ctcore/mp3.h"
#include "encodes.h"

#define N_FRAMES 3

/* Appends bytes, or returns false when they do not fit (a test error). */
static bool append(encode_bytes *out, const uint8_t *data, size_t size)
{
    if (size > out->capacity - out->size)
        return false;
    if (size > 0)
        memcpy(out->data + out->size, data, size);
    out->size += size;
    return true;
}

/* The pool of the run: the given one, none, or a new one (NULL pool with
 * threads > 0: out of memory). */
static int pool_of_run(ct_pool *given, int threads, ct_pool **pool)
{
    if (given != NULL) {
        *pool = ct_pool_ref(given);
        return CT_OK;
    }
    *pool = threads > 0 ? ct_pool_new(threads) : NULL;
    return threads > 0 && *pool == NULL ? CT_ENOMEM : CT_OK;
}

/* Frame `index`, RGB: noise over a gradient. */
static void fill_picture(uint8_t *pixels, uint32_t width, uint32_t height,
                         int index)
{
    uint32_t state = 2654435761u * (uint32_t)(index + 1);
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < width * 3; x++) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            pixels[y * width * 3 + x] =
                (uint8_t)(x * 255 / (width * 3) + y * 5 + (state >> 27));
        }
    }
}

#define MAX_SIZE   8
#define MAX_WIDTH  (MAX_SIZE * 24)
#define MAX_HEIGHT (MAX_SIZE * 16)
static uint8_t pictures[N_FRAMES][MAX_WIDTH * MAX_HEIGHT * 3];

static ct_jpeg_image picture(int size, int index)
{
    uint32_t width = 24 * (uint32_t)(size < MAX_SIZE ? size : MAX_SIZE);
    uint32_t height = 16 * (uint32_t)(size < MAX_SIZE ? size : MAX_SIZE);
    fill_picture(pictures[index], width, height, index);
    return (ct_jpeg_image){
        .width = width,
        .height = height,
        .format = CT_PIXEL_RGB8,
        .stride = (size_t)width * 3,
        .pixels = pictures[index],
    };
}

static int jpeg_encode(const ct_jpeg_settings *settings, ct_pool *given,
                       int threads, int size, encode_bytes *out)
{
    ct_jpeg_image image = picture(size, 0);
    ct_pool *pool;
    int r = pool_of_run(given, threads, &pool);
    if (r != CT_OK)
        return r;
    ct_jpeg_output file = {0};
    char errbuf[256];
    r = ct_jpeg_encode(pool, settings, &image, &file, errbuf, sizeof(errbuf));
    if (r == CT_OK && !append(out, file.data, file.size))
        r = ENCODE_NO_ROOM;
    /* A failed encode leaves the output empty. */
    if (r < 0 && (file.data != NULL || file.size != 0))
        r = ENCODE_NOT_EMPTY;
    ct_jpeg_output_free(&file);
    ct_pool_unref(pool);
    return r;
}

static int jpeg_encode_run(ct_pool *given, int threads, int size,
                           encode_bytes *out)
{
    ct_jpeg_settings settings;
    ct_jpeg_settings_default(&settings);
    settings.progressive_level = 2;
    return jpeg_encode(&settings, given, threads, size, out);
}

/* XYB (its ICC profile), baseline with fixed codes. */
static int jpeg_xyb_run(ct_pool *given, int threads, int size,
                        encode_bytes *out)
{
    ct_jpeg_settings settings;
    ct_jpeg_settings_default(&settings);
    settings.xyb = 1;
    settings.progressive_level = 0;
    settings.fixed_code = 1;
    return jpeg_encode(&settings, given, threads, size, out);
}

/* The next file into out: CT_OK, CT_EAGAIN or the receive's error. */
static int receive_file(ct_jpeg_encoder *encoder, encode_bytes *out)
{
    ct_jpeg_output file = {0};
    int r = ct_jpeg_receive_frame(encoder, &file, NULL);
    if (r == CT_OK && !append(out, file.data, file.size))
        r = ENCODE_NO_ROOM;
    ct_jpeg_output_free(&file);
    return r;
}

static int jpeg_stream_run(ct_pool *given, int threads, int size,
                           encode_bytes *out)
{
    ct_jpeg_image frames[N_FRAMES];
    for (int i = 0; i < N_FRAMES; i++)
        frames[i] = picture(size, i);
    ct_jpeg_settings settings;
    ct_jpeg_settings_default(&settings);
    ct_pool *pool;
    int r = pool_of_run(given, threads, &pool);
    if (r != CT_OK)
        return r;
    ct_jpeg_encoder *encoder = NULL;
    char errbuf[256];
    r = ct_jpeg_encoder_new(pool, &settings, frames[0].width, frames[0].height,
                            CT_PIXEL_RGB8, 2, &encoder, errbuf, sizeof(errbuf));
    for (int i = 0; r == CT_OK && i < N_FRAMES; i++) {
        while ((r = ct_jpeg_send_frame(encoder, &frames[i], NULL)) ==
               CT_EAGAIN) {
            r = receive_file(encoder, out);
            if (r != CT_OK)
                break;
        }
    }
    if (r == CT_OK)
        r = ct_jpeg_encoder_drain(encoder);
    while (r == CT_OK)
        r = receive_file(encoder, out);
    if (r == CT_EOF)
        r = CT_OK;
    ct_jpeg_encoder_free(encoder);
    ct_pool_unref(pool);
    return r;
}

/* Receives every packet ready: CT_OK once none is, CT_EOF after the last. */
static int receive_packets(ct_mp3_encoder *encoder, encode_bytes *out)
{
    for (;;) {
        ct_mp3_packet packet;
        int r = ct_mp3_receive_packet(encoder, &packet);
        if (r == CT_EAGAIN)
            return CT_OK;
        if (r != CT_OK)
            return r;
        if (!append(out, packet.data, packet.size))
            return ENCODE_NO_ROOM;
    }
}

#define MP3_CHUNK 1000
static int16_t signal[MAX_SIZE * 8 * 1152 * 2];

static int mp3_encode(const ct_mp3_settings *settings, ct_pool *given,
                      int threads, int size, encode_bytes *out)
{
    size_t frames = (size_t)(size < MAX_SIZE ? size : MAX_SIZE) * 8 * 1152;
    uint32_t state = 12345;
    for (size_t i = 0; i < frames * 2; i++) {
        state = state * 1664525u + 1013904223u;
        signal[i] = (int16_t)((int)((i / 2) % 200) * 80 - 8000 +
                              (int)(state >> 22) - 512);
    }
    ct_pool *pool;
    int r = pool_of_run(given, threads, &pool);
    if (r != CT_OK)
        return r;
    ct_mp3_encoder *encoder = NULL;
    char errbuf[256];
    r = ct_mp3_encoder_new(pool, settings, &encoder, errbuf, sizeof(errbuf));
    for (size_t sent = 0; r == CT_OK && sent < frames; sent += MP3_CHUNK) {
        size_t n = frames - sent < MP3_CHUNK ? frames - sent : MP3_CHUNK;
        r = ct_mp3_send_samples(encoder, signal + sent * 2, n);
        if (r == CT_OK)
            r = receive_packets(encoder, out);
    }
    if (r == CT_OK)
        r = ct_mp3_drain(encoder);
    if (r == CT_OK)
        r = receive_packets(encoder, out);
    if (r == CT_EOF) {
        ct_mp3_packet tag;
        r = ct_mp3_lametag(encoder, &tag);
        if (r == CT_OK && tag.size <= out->size)
            memcpy(out->data, tag.data, tag.size);
        else if (r == CT_OK)
            r = ENCODE_NO_ROOM;
    } else if (r == CT_OK) {
        r = ENCODE_NO_END;
    }
    ct_mp3_encoder_free(encoder);
    ct_pool_unref(pool);
    return r;
}

/* lame's defaults (-V 4), 4 frames in flight on a pool. */
static int mp3_vbr_run(ct_pool *given, int threads, int size, encode_bytes *out)
{
    ct_mp3_settings settings;
    ct_mp3_settings_default(&settings);
    settings.sample_rate = 44100;
    settings.channels = 2;
    settings.frames_in_flight = 4;
    return mp3_encode(&settings, given, threads, size, out);
}

/* CBR (-b 128): the ring's per-worker scratch. */
static int mp3_cbr_run(ct_pool *given, int threads, int size, encode_bytes *out)
{
    ct_mp3_settings settings;
    ct_mp3_settings_default(&settings);
    settings.sample_rate = 44100;
    settings.channels = 2;
    settings.rate_control = CT_MP3_CBR;
    settings.bitrate = 128;
    settings.frames_in_flight = 4;
    return mp3_encode(&settings, given, threads, size, out);
}

const fault_encode fault_encodes[] = {
    {"jpeg", jpeg_encode_run},        {"jpeg xyb", jpeg_xyb_run},
    {"jpeg stream", jpeg_stream_run}, {"mp3", mp3_vbr_run},
    {"mp3 cbr", mp3_cbr_run},
};
const int n_fault_encodes = sizeof(fault_encodes) / sizeof(fault_encodes[0]);

const char *encode_strerror(int code)
{
    switch (code) {
    case ENCODE_NO_ROOM:
        return "more bytes than the test has room for";
    case ENCODE_NOT_EMPTY:
        return "an output left after a failure";
    case ENCODE_NO_END:
        return "no CT_EOF after the drain";
    default:
        return ct_strerror(code);
    }
}
