/*
 * A program built as a user of the installed ctcore builds one: the public
 * headers and the flags `pkg-config ctcore` gives, nothing from the source
 * tree. Encodes a small generated image to JPEG and a short generated
 * signal to MP3 on a pool of workers, and checks that the output has the
 * shape of each format (the byte-exact tests are elsewhere).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <ctcore/jpeg.h>
#include <ctcore/mp3.h>
#include <ctcore/runtime.h>

#define IMAGE_WIDTH 64
#define IMAGE_HEIGHT 48
#define SAMPLE_RATE 44100
#define CHANNELS 2
#define PCM_FRAMES (SAMPLE_RATE / 2)

static int fail(const char *what, int code)
{
    fprintf(stderr, "FAIL %s: %s (%d)\n", what, ct_strerror(code), code);
    return 1;
}

/* A gradient with a pattern, so that every block has work to do. */
static int encode_jpeg(ct_pool *pool)
{
    static uint8_t rgb[IMAGE_HEIGHT][IMAGE_WIDTH][3];
    ct_jpeg_settings settings;
    ct_jpeg_image image = {
        .width = IMAGE_WIDTH,
        .height = IMAGE_HEIGHT,
        .format = CT_PIXEL_RGB8,
        .stride = IMAGE_WIDTH * 3,
        .pixels = &rgb[0][0][0],
    };
    ct_jpeg_output out = { NULL, 0 };
    char err[256] = "";
    int ret;

    for (int y = 0; y < IMAGE_HEIGHT; y++)
        for (int x = 0; x < IMAGE_WIDTH; x++) {
            rgb[y][x][0] = (uint8_t)(x * 4);
            rgb[y][x][1] = (uint8_t)(y * 5);
            rgb[y][x][2] = (uint8_t)((x ^ y) * 8);
        }
    ct_jpeg_settings_default(&settings);
    ret = ct_jpeg_encode(pool, &settings, &image, &out, err, sizeof(err));
    if (ret != CT_OK) {
        fprintf(stderr, "ct_jpeg_encode: %s\n", err);
        return fail("ct_jpeg_encode", ret);
    }
    if (out.size < 4 || out.data[0] != 0xff || out.data[1] != 0xd8 ||
        out.data[out.size - 2] != 0xff || out.data[out.size - 1] != 0xd9) {
        fprintf(stderr, "FAIL the JPEG (%zu bytes) lacks SOI or EOI\n", out.size);
        ct_jpeg_output_free(&out);
        return 1;
    }
    printf("jpeg: %dx%d RGB -> %zu bytes, SOI and EOI\n", IMAGE_WIDTH,
           IMAGE_HEIGHT, out.size);
    ct_jpeg_output_free(&out);
    return 0;
}

/* Receives the packets ready; each one must start with a frame sync. */
static int receive_frames(ct_mp3_encoder *encoder, int *frames, int until)
{
    ct_mp3_packet packet;
    int ret;

    while ((ret = ct_mp3_receive_packet(encoder, &packet)) == CT_OK) {
        if (packet.size < 4 || packet.data[0] != 0xff ||
            (packet.data[1] & 0xe0) != 0xe0) {
            fprintf(stderr, "FAIL MP3 packet %d (%zu bytes) has no frame sync\n",
                    *frames, packet.size);
            return 1;
        }
        (*frames)++;
    }
    return ret == until ? 0 : fail("ct_mp3_receive_packet", ret);
}

/* Two triangle waves at different pitches, half a second. */
static int encode_mp3(ct_pool *pool)
{
    static int16_t pcm[PCM_FRAMES * CHANNELS];
    ct_mp3_settings settings;
    ct_mp3_encoder *encoder;
    char err[256] = "";
    int ret, frames = 0;

    for (int i = 0; i < PCM_FRAMES; i++) {
        pcm[2 * i] = (int16_t)((i % 100 < 50 ? i % 100 : 100 - i % 100) * 400 - 10000);
        pcm[2 * i + 1] = (int16_t)((i % 64 < 32 ? i % 64 : 64 - i % 64) * 600 - 9600);
    }
    ct_mp3_settings_default(&settings);
    settings.sample_rate = SAMPLE_RATE;
    settings.channels = CHANNELS;
    ret = ct_mp3_encoder_new(pool, &settings, &encoder, err, sizeof(err));
    if (ret != CT_OK) {
        fprintf(stderr, "ct_mp3_encoder_new: %s\n", err);
        return fail("ct_mp3_encoder_new", ret);
    }
    ret = ct_mp3_send_samples(encoder, pcm, PCM_FRAMES);
    if (ret != CT_OK) {
        ct_mp3_encoder_free(encoder);
        return fail("ct_mp3_send_samples", ret);
    }
    if (receive_frames(encoder, &frames, CT_EAGAIN)) {
        ct_mp3_encoder_free(encoder);
        return 1;
    }
    ret = ct_mp3_drain(encoder);
    if (ret != CT_OK) {
        ct_mp3_encoder_free(encoder);
        return fail("ct_mp3_drain", ret);
    }
    ret = receive_frames(encoder, &frames, CT_EOF);
    ct_mp3_encoder_free(encoder);
    if (ret)
        return 1;
    /* Half a second is about 19 frames of 1152 samples, and the tag. */
    if (frames < 10) {
        fprintf(stderr, "FAIL only %d MP3 frames for %d samples\n", frames,
                PCM_FRAMES);
        return 1;
    }
    printf("mp3: %d samples x %d channels -> %d frames, each with a sync\n",
           PCM_FRAMES, CHANNELS, frames);
    return 0;
}

int main(void)
{
    ct_pool *pool = ct_pool_new(2);
    int failed;

    if (!pool)
        return fail("ct_pool_new", CT_ENOMEM);
    failed = encode_jpeg(pool);
    failed |= encode_mp3(pool);
    ct_pool_unref(pool);
    return failed;
}
