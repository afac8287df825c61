/*
 * The streaming encoder (ct_jpeg_encoder) against ct_jpeg_encode: every
 * pixel layout, with 1, 2, 3 and 8 frames in flight, on pools of 1, 2 and 3
 * threads, gives frame by frame the bytes of ct_jpeg_encode on the packed
 * RGB (or gray) picture. Pictures: a few golden inputs (when the golden
 * directory is given) and synthetic ones of odd sizes down to 1x1, with
 * padded rows. Then the states: new settings mid-stream, a reset with
 * frames waiting or files ready, drains, a receive before any send, and
 * the error paths. Exits 0 when every check passes, 1 otherwise.
 *
 * usage: jpeg_encoder [GOLDEN_DIR]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ctcore/jpeg.h"
#include "ctcore/runtime.h"
#include "pnm.h"

#define FRAMES_PER_STREAM 5
static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* A picture as tight packed RGB (channels 3) or gray (channels 1). */
typedef struct picture {
    char name[96];
    uint32_t width, height;
    int channels;
    uint8_t *pixels;
} picture;

static void picture_free(picture *p)
{
    free(p->pixels);
    p->pixels = NULL;
}

/* Noise over a gradient, different per seed. */
static picture synthetic_picture(uint32_t width, uint32_t height,
                                 int channels, uint32_t seed)
{
    picture p = { "", width, height, channels, NULL };
    snprintf(p.name, sizeof(p.name), "synthetic %ux%u%s", (unsigned)width,
             (unsigned)height, channels == 1 ? " gray" : "");
    const size_t row = (size_t)width * channels;
    p.pixels = checked_calloc(1, row * height);
    uint32_t state = 2654435761u * (seed + 1);
    for (uint32_t y = 0; y < height; y++)
        for (size_t x = 0; x < row; x++)
            p.pixels[y * row + x] = (uint8_t)(x * 255 / row + y * 5 +
                                              (next_random(&state) >> 27));
    return p;
}

/* Frame k of a stream made of picture p: its bytes shifted by 37 k. */
static picture stream_frame(const picture *p, int k)
{
    picture f = *p;
    const size_t size = (size_t)p->width * p->height * p->channels;
    f.pixels = checked_calloc(1, size);
    for (size_t i = 0; i < size; i++)
        f.pixels[i] = (uint8_t)(p->pixels[i] + 37 * k);
    return f;
}

/* The formats a picture comes in: gray for gray, every RGB layout else. */
static const ct_pixel_format rgb_formats[] = {
    CT_PIXEL_RGB8,  CT_PIXEL_BGR8,  CT_PIXEL_RGBX8,
    CT_PIXEL_BGRX8, CT_PIXEL_XRGB8, CT_PIXEL_XBGR8,
};
#define NUM_RGB_FORMATS (sizeof(rgb_formats) / sizeof(rgb_formats[0]))

static const char *format_name(ct_pixel_format format)
{
    switch (format) {
    case CT_PIXEL_GRAY8: return "GRAY8";
    case CT_PIXEL_RGB8: return "RGB8";
    case CT_PIXEL_BGR8: return "BGR8";
    case CT_PIXEL_RGBX8: return "RGBX8";
    case CT_PIXEL_BGRX8: return "BGRX8";
    case CT_PIXEL_XRGB8: return "XRGB8";
    case CT_PIXEL_XBGR8: return "XBGR8";
    default:
        break;
    }
    return "?";
}

/* Where R, G, B (or gray) sit in a pixel of the layout, and its bytes. */
static int layout_of(ct_pixel_format format, int offsets[3])
{
    static const struct {
        ct_pixel_format format;
        int bytes, r, g, b;
    } layouts[] = {
        { CT_PIXEL_GRAY8, 1, 0, 0, 0 }, { CT_PIXEL_RGB8, 3, 0, 1, 2 },
        { CT_PIXEL_BGR8, 3, 2, 1, 0 },  { CT_PIXEL_RGBX8, 4, 0, 1, 2 },
        { CT_PIXEL_BGRX8, 4, 2, 1, 0 }, { CT_PIXEL_XRGB8, 4, 1, 2, 3 },
        { CT_PIXEL_XBGR8, 4, 3, 2, 1 },
    };
    for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
        if (layouts[i].format == format) {
            offsets[0] = layouts[i].r;
            offsets[1] = layouts[i].g;
            offsets[2] = layouts[i].b;
            return layouts[i].bytes;
        }
    }
    return 0;
}

/* The picture in `format`, with `pad` bytes after each row; the padding
 * and the ignored fourth bytes hold noise that must not reach the file. */
static ct_jpeg_image make_layout(const picture *p, ct_pixel_format format,
                                 size_t pad, uint8_t **memory)
{
    int offsets[3];
    const int bytes = layout_of(format, offsets);
    const size_t stride = (size_t)p->width * bytes + pad;
    uint8_t *m = checked_calloc(1, stride * p->height);
    uint32_t state = 0x9e3779b9u ^ (uint32_t)format ^ (uint32_t)pad;
    for (size_t i = 0; i < stride * p->height; i++)
        m[i] = (uint8_t)(next_random(&state) >> 24);
    for (uint32_t y = 0; y < p->height; y++) {
        for (uint32_t x = 0; x < p->width; x++) {
            const uint8_t *in =
                p->pixels + ((size_t)y * p->width + x) * p->channels;
            uint8_t *out = m + y * stride + (size_t)x * bytes;
            for (int c = 0; c < p->channels; c++)
                out[offsets[c]] = in[c];
        }
    }
    *memory = m;
    return (ct_jpeg_image){.width = p->width,
                           .height = p->height,
                           .format = format,
                           .stride = stride,
                           .pixels = m};
}

static ct_jpeg_image packed_image(const picture *p)
{
    return (ct_jpeg_image){.width = p->width,
                           .height = p->height,
                           .format = p->channels == 1 ? CT_PIXEL_GRAY8
                                                      : CT_PIXEL_RGB8,
                           .stride = (size_t)p->width * p->channels,
                           .pixels = p->pixels};
}

static int same_bytes(const ct_jpeg_output *a, const ct_jpeg_output *b)
{
    return a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
}

/* What ct_jpeg_encode writes for the packed picture (exits on failure). */
static ct_jpeg_output expected_file(const ct_jpeg_settings *settings,
                                    const picture *p)
{
    ct_jpeg_output out;
    char err[256] = "";
    const ct_jpeg_image image = packed_image(p);
    if (ct_jpeg_encode(NULL, settings, &image, &out, err, sizeof(err)) !=
        CT_OK) {
        fprintf(stderr, "%s: ct_jpeg_encode: %s\n", p->name, err);
        exit(1);
    }
    return out;
}

/* Receives every file ready, checking each against expected[*received]. */
static int receive_ready(ct_jpeg_encoder *enc, const ct_jpeg_output *expected,
                         void *const *users, int *received, int n,
                         const char *what)
{
    int rc;
    for (;;) {
        ct_jpeg_output out;
        void *user = NULL;
        rc = ct_jpeg_receive_frame(enc, &out, &user);
        if (rc == CT_EAGAIN || rc == CT_EOF)
            return rc;
        if (check(*received < n, "%s: more files than frames", what)) {
            check(rc == CT_OK && user == users[*received] &&
                      same_bytes(&out, &expected[*received]),
                  "%s: frame %d differs (rc %d, %zu bytes, expected %zu)",
                  what, *received, rc, out.size, expected[*received].size);
        }
        ct_jpeg_output_free(&out);
        ++*received;
    }
}

/* One stream of the picture's frames in `format` through an encoder, each
 * file taken as soon as it is ready, then a drain. */
static void check_stream(ct_pool *pool, const ct_jpeg_settings *settings,
                         const char *settings_name, const picture *frames,
                         const ct_jpeg_output *expected,
                         ct_pixel_format format, int frames_in_flight)
{
    char what[256];
    snprintf(what, sizeof(what), "%s, %s, %s, %d threads, %d in flight",
             frames[0].name, format_name(format), settings_name,
             ct_pool_threads(pool), frames_in_flight);
    ct_jpeg_image images[FRAMES_PER_STREAM];
    uint8_t *memory[FRAMES_PER_STREAM];
    void *users[FRAMES_PER_STREAM];
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        images[k] = make_layout(&frames[k], format, (size_t)(k % 3) * 5,
                                &memory[k]);
        users[k] = &images[k];
    }
    ct_jpeg_encoder *enc;
    char err[256] = "";
    int rc = ct_jpeg_encoder_new(pool, settings, frames[0].width,
                                 frames[0].height, format, frames_in_flight,
                                 &enc, err, sizeof(err));
    if (check(rc == CT_OK, "%s: new returned %d (%s)", what, rc, err)) {
        check(ct_jpeg_encoder_frames_in_flight(enc) == frames_in_flight &&
                  ct_jpeg_encoder_delay(enc) == frames_in_flight - 1,
              "%s: frames in flight %d, delay %d", what,
              ct_jpeg_encoder_frames_in_flight(enc),
              ct_jpeg_encoder_delay(enc));
        int received = 0;
        for (int k = 0; k < FRAMES_PER_STREAM; k++) {
            rc = ct_jpeg_send_frame(enc, &images[k], users[k]);
            check(rc == CT_OK, "%s: send %d returned %d (%s)", what, k, rc,
                  ct_jpeg_encoder_error(enc));
            rc = receive_ready(enc, expected, users, &received,
                               FRAMES_PER_STREAM, what);
            check(rc == CT_EAGAIN, "%s: receive after send %d: %d", what, k,
                  rc);
            /* The files come a batch at a time. */
            check(received == (k + 1) / frames_in_flight * frames_in_flight,
                  "%s: %d files after %d frames", what, received, k + 1);
        }
        check(ct_jpeg_encoder_drain(enc) == CT_OK, "%s: drain", what);
        rc = receive_ready(enc, expected, users, &received, FRAMES_PER_STREAM,
                           what);
        check(rc == CT_EOF && received == FRAMES_PER_STREAM,
              "%s: after the drain %d, %d files", what, rc, received);
        ct_jpeg_encoder_free(enc);
    }
    for (int k = 0; k < FRAMES_PER_STREAM; k++)
        free(memory[k]);
}

static const int frames_in_flight_values[] = { 1, 2, 3, 8 };
static const int pool_sizes[] = { 1, 2, 3 };

/* Every layout with ct_jpeg_encode, then every layout x frames in flight x
 * pool as a stream. */
static void check_picture(ct_pool *const *pools, const picture *p,
                          const ct_jpeg_settings *settings,
                          const char *settings_name)
{
    picture frames[FRAMES_PER_STREAM];
    ct_jpeg_output expected[FRAMES_PER_STREAM];
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        frames[k] = stream_frame(p, k);
        expected[k] = expected_file(settings, &frames[k]);
    }
    const ct_pixel_format gray = CT_PIXEL_GRAY8;
    const ct_pixel_format *formats = p->channels == 1 ? &gray : rgb_formats;
    const size_t num_formats = p->channels == 1 ? 1 : NUM_RGB_FORMATS;

    for (size_t f = 0; f < num_formats; f++) {
        uint8_t *memory;
        const ct_jpeg_image image =
            make_layout(&frames[0], formats[f], 3, &memory);
        for (size_t i = 0; i < 2; i++) {
            ct_pool *pool = i == 0 ? NULL : pools[2];
            ct_jpeg_output out;
            char err[256] = "";
            int rc = ct_jpeg_encode(pool, settings, &image, &out, err,
                                    sizeof(err));
            check(rc == CT_OK && same_bytes(&out, &expected[0]),
                  "%s, %s, %s: ct_jpeg_encode on %d threads differs from "
                  "packed (rc %d, %s)",
                  p->name, format_name(formats[f]), settings_name,
                  ct_pool_threads(pool), rc, err);
            ct_jpeg_output_free(&out);
        }
        free(memory);
        for (size_t n = 0; n < 4; n++)
            for (size_t t = 0; t < 3; t++)
                check_stream(pools[t], settings, settings_name, frames,
                             expected, formats[f], frames_in_flight_values[n]);
    }
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        ct_jpeg_output_free(&expected[k]);
        picture_free(&frames[k]);
    }
}

/* New settings with frames waiting: those encode with the old settings,
 * the later ones with the new; invalid settings keep the old ones. */
static void check_set_settings(ct_pool *pool, const picture *p)
{
    ct_jpeg_settings a, b, bad;
    ct_jpeg_settings_default(&a);
    b = a;
    b.progressive_level = 0;
    b.quality = 60;
    b.chroma_subsampling = CT_JPEG_SUBSAMPLING_420;
    bad = a;
    bad.fixed_code = 1;
    picture frames[FRAMES_PER_STREAM];
    ct_jpeg_output expected[FRAMES_PER_STREAM];
    ct_jpeg_image images[FRAMES_PER_STREAM];
    void *users[FRAMES_PER_STREAM];
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        frames[k] = stream_frame(p, k);
        expected[k] = expected_file(k < 2 ? &a : &b, &frames[k]);
        images[k] = packed_image(&frames[k]);
        users[k] = &frames[k];
    }
    ct_jpeg_encoder *enc;
    char err[256] = "";
    if (!check(ct_jpeg_encoder_new(pool, &a, p->width, p->height,
                                   images[0].format, 3, &enc, err,
                                   sizeof(err)) == CT_OK,
               "set_settings: new (%s)", err))
        return;
    int received = 0;
    for (int k = 0; k < 2; k++)
        check(ct_jpeg_send_frame(enc, &images[k], users[k]) == CT_OK,
              "set_settings: send %d", k);
    err[0] = '\0';
    check(ct_jpeg_encoder_set_settings(enc, &bad, err, sizeof(err)) ==
                  CT_EINVAL &&
              err[0] != '\0' && strcmp(err, ct_jpeg_encoder_error(enc)) == 0,
          "set_settings: bad settings accepted or no message ('%s')", err);
    check(receive_ready(enc, expected, users, &received, 5, "set_settings") ==
                  CT_EAGAIN &&
              received == 0,
          "set_settings: bad settings encoded the waiting frames");
    check(ct_jpeg_encoder_set_settings(enc, &b, err, sizeof(err)) == CT_OK,
          "set_settings: %s", err);
    /* The two waiting frames are ready: sending waits for them. */
    check(ct_jpeg_send_frame(enc, &images[2], users[2]) == CT_EAGAIN,
          "set_settings: send with files ready did not say CT_EAGAIN");
    check(receive_ready(enc, expected, users, &received, 5, "set_settings") ==
                  CT_EAGAIN &&
              received == 2,
          "set_settings: %d files of the old settings", received);
    for (int k = 2; k < 5; k++)
        check(ct_jpeg_send_frame(enc, &images[k], users[k]) == CT_OK,
              "set_settings: send %d", k);
    check(receive_ready(enc, expected, users, &received, 5, "set_settings") ==
                  CT_EAGAIN &&
              received == 5,
          "set_settings: %d files in all", received);
    ct_jpeg_encoder_free(enc);
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        ct_jpeg_output_free(&expected[k]);
        picture_free(&frames[k]);
    }
}

/* A reset forgets frames waiting and files ready, reads none of their
 * pixels again (they are overwritten and freed), and the stream goes on. */
static void check_reset(ct_pool *pool, const picture *p)
{
    ct_jpeg_settings settings;
    ct_jpeg_settings_default(&settings);
    picture frames[FRAMES_PER_STREAM];
    ct_jpeg_output expected[FRAMES_PER_STREAM];
    void *users[FRAMES_PER_STREAM];
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        frames[k] = stream_frame(p, k);
        expected[k] = expected_file(&settings, &frames[k]);
        users[k] = &frames[k];
    }
    ct_jpeg_encoder *enc;
    char err[256] = "";
    if (!check(ct_jpeg_encoder_new(pool, &settings, p->width, p->height,
                                   packed_image(p).format, 4, &enc, err,
                                   sizeof(err)) == CT_OK,
               "reset: new (%s)", err))
        return;
    /* Three frames waiting, from copies overwritten and freed right after
     * the reset. */
    picture doomed[3];
    for (int k = 0; k < 3; k++) {
        doomed[k] = stream_frame(p, 10 + k);
        const ct_jpeg_image image = packed_image(&doomed[k]);
        check(ct_jpeg_send_frame(enc, &image, NULL) == CT_OK, "reset: send");
    }
    ct_jpeg_encoder_reset(enc);
    for (int k = 0; k < 3; k++) {
        memset(doomed[k].pixels, 0xff,
               (size_t)p->width * p->height * p->channels);
        picture_free(&doomed[k]);
    }
    int received = 0;
    check(receive_ready(enc, expected, users, &received, 5, "reset") ==
                  CT_EAGAIN &&
              received == 0,
          "reset: files after a reset");
    /* Four frames make a batch; its files are dropped by a reset too. */
    for (int k = 0; k < 4; k++) {
        const ct_jpeg_image image = packed_image(&frames[k]);
        check(ct_jpeg_send_frame(enc, &image, users[k]) == CT_OK,
              "reset: send %d", k);
    }
    ct_jpeg_encoder_reset(enc);
    check(receive_ready(enc, expected, users, &received, 5, "reset") ==
                  CT_EAGAIN &&
              received == 0,
          "reset: files ready survived a reset");
    for (int k = 0; k < 5; k++) {
        const ct_jpeg_image image = packed_image(&frames[k]);
        check(ct_jpeg_send_frame(enc, &image, users[k]) == CT_OK,
              "reset: send %d after the resets", k);
        if (k == 3)
            receive_ready(enc, expected, users, &received, 5, "reset");
    }
    /* A reset with one frame waiting and the encoder freed after it. */
    ct_jpeg_encoder_reset(enc);
    check(received == 4, "reset: %d files of the stream after resets",
          received);
    ct_jpeg_encoder_free(enc);

    /* Freed with a frame waiting and with files not received. */
    if (ct_jpeg_encoder_new(pool, &settings, p->width, p->height,
                            packed_image(p).format, 2, &enc, NULL,
                            0) == CT_OK) {
        for (int k = 0; k < 3; k++) {
            const ct_jpeg_image image = packed_image(&frames[k]);
            if (ct_jpeg_send_frame(enc, &image, NULL) != CT_OK)
                break;
        }
        ct_jpeg_encoder_free(enc);
    }
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        ct_jpeg_output_free(&expected[k]);
        picture_free(&frames[k]);
    }
}

/* Drains: with nothing sent, twice in a row, and a new run after one. */
static void check_drains(ct_pool *pool, const picture *p)
{
    ct_jpeg_settings settings;
    ct_jpeg_settings_default(&settings);
    picture frames[FRAMES_PER_STREAM];
    ct_jpeg_output expected[FRAMES_PER_STREAM];
    void *users[FRAMES_PER_STREAM];
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        frames[k] = stream_frame(p, k);
        expected[k] = expected_file(&settings, &frames[k]);
        users[k] = &frames[k];
    }
    ct_jpeg_encoder *enc;
    if (!check(ct_jpeg_encoder_new(pool, &settings, p->width, p->height,
                                   packed_image(p).format, 8, &enc, NULL,
                                   0) == CT_OK,
               "drains: new"))
        return;
    ct_jpeg_output out = { (uint8_t *)"x", 1 };
    void *user = &out;
    check(ct_jpeg_receive_frame(enc, &out, &user) == CT_EAGAIN &&
              out.data == NULL && out.size == 0 && user == &out,
          "drains: receive before any send");
    check(ct_jpeg_encoder_drain(enc) == CT_OK, "drains: drain of nothing");
    check(ct_jpeg_receive_frame(enc, &out, NULL) == CT_EOF,
          "drains: no CT_EOF after a drain of nothing");
    int received = 0;
    for (int k = 0; k < 3; k++) {
        const ct_jpeg_image image = packed_image(&frames[k]);
        check(ct_jpeg_send_frame(enc, &image, users[k]) == CT_OK,
              "drains: send %d", k);
    }
    check(ct_jpeg_receive_frame(enc, &out, NULL) == CT_EAGAIN,
          "drains: a file before the batch is full");
    check(ct_jpeg_encoder_drain(enc) == CT_OK &&
              ct_jpeg_encoder_drain(enc) == CT_OK,
          "drains: drain twice");
    check(receive_ready(enc, expected, users, &received, 5, "drains") ==
                  CT_EOF &&
              received == 3,
          "drains: %d files after two drains", received);
    check(ct_jpeg_encoder_drain(enc) == CT_OK &&
              ct_jpeg_receive_frame(enc, &out, NULL) == CT_EOF,
          "drains: a drain after CT_EOF");
    /* A new run: sending clears the drained state. */
    for (int k = 3; k < 5; k++) {
        const ct_jpeg_image image = packed_image(&frames[k]);
        check(ct_jpeg_send_frame(enc, &image, users[k]) == CT_OK,
              "drains: send %d after the drain", k);
    }
    check(ct_jpeg_receive_frame(enc, &out, NULL) == CT_EAGAIN,
          "drains: not CT_EAGAIN in the new run");
    check(ct_jpeg_encoder_drain(enc) == CT_OK, "drains: last drain");
    check(receive_ready(enc, expected, users, &received, 5, "drains") ==
                  CT_EOF &&
              received == 5,
          "drains: %d files in all", received);
    ct_jpeg_encoder_free(enc);
    for (int k = 0; k < FRAMES_PER_STREAM; k++) {
        ct_jpeg_output_free(&expected[k]);
        picture_free(&frames[k]);
    }
}

static void check_errors(ct_pool *pool, const picture *p)
{
    ct_jpeg_settings settings, bad;
    ct_jpeg_settings_default(&settings);
    ct_jpeg_encoder *enc = NULL;
    char err[256] = "";

    bad = settings;
    bad.quality = 0;
    enc = (ct_jpeg_encoder *)&bad;
    check(ct_jpeg_encoder_new(pool, &bad, 16, 16, CT_PIXEL_RGB8, 0, &enc,
                              err, sizeof(err)) == CT_EINVAL &&
              enc == NULL && strstr(err, "quality") != NULL,
          "errors: bad quality at new: '%s'", err);
    err[0] = '\0';
    check(ct_jpeg_encoder_new(pool, NULL, 16, 16, CT_PIXEL_RGB8, 0, &enc,
                              err, sizeof(err)) == CT_EINVAL &&
              err[0] != '\0',
          "errors: NULL settings at new");
    err[0] = '\0';
    check(ct_jpeg_encoder_new(pool, &settings, 0, 16, CT_PIXEL_RGB8, 0, &enc,
                              err, sizeof(err)) == CT_EINVAL &&
              err[0] != '\0',
          "errors: empty size at new");
    err[0] = '\0';
    check(ct_jpeg_encoder_new(pool, &settings, 70000, 16, CT_PIXEL_RGB8, 0,
                              &enc, err, sizeof(err)) == CT_ETOOBIG &&
              err[0] != '\0',
          "errors: too big at new");
    err[0] = '\0';
    check(ct_jpeg_encoder_new(pool, &settings, 16, 16, (ct_pixel_format)2, 0,
                              &enc, err, sizeof(err)) == CT_EINVAL &&
              strstr(err, "format") != NULL,
          "errors: unknown format at new: '%s'", err);
    err[0] = '\0';
    check(ct_jpeg_encoder_new(pool, &settings, 16, 16, CT_PIXEL_RGB8, -1,
                              &enc, err, sizeof(err)) == CT_EINVAL &&
              err[0] != '\0',
          "errors: negative frames in flight at new");
    check(ct_jpeg_encoder_new(pool, &settings, 16, 16, CT_PIXEL_RGB8,
                              CT_JPEG_MAX_FRAMES_IN_FLIGHT + 1, &enc, NULL,
                              0) == CT_EINVAL,
          "errors: too many frames in flight at new");
    check(ct_jpeg_encoder_new(pool, &settings, 16, 16, CT_PIXEL_RGB8, 0, NULL,
                              NULL, 0) == CT_EINVAL,
          "errors: NULL encoder pointer at new");

    /* Auto: the pool's threads under a megapixel, else 1. */
    const int threads = ct_pool_threads(pool);
    const uint32_t sizes[3][2] = { { 999, 1000 }, { 1000, 1000 },
                                   { 4000, 3000 } };
    for (int i = 0; i < 3; i++) {
        if (ct_jpeg_encoder_new(pool, &settings, sizes[i][0], sizes[i][1],
                                CT_PIXEL_RGB8, 0, &enc, NULL, 0) != CT_OK) {
            check(0, "errors: auto encoder for %ux%u", sizes[i][0],
                  sizes[i][1]);
            continue;
        }
        const int want = i == 0 ? threads : 1;
        check(ct_jpeg_encoder_frames_in_flight(enc) == want &&
                  ct_jpeg_encoder_delay(enc) == want - 1,
              "errors: auto for %ux%u on %d threads: %d in flight",
              sizes[i][0], sizes[i][1], threads,
              ct_jpeg_encoder_frames_in_flight(enc));
        ct_jpeg_encoder_free(enc);
    }

    const ct_jpeg_image good = packed_image(p);
    if (!check(ct_jpeg_encoder_new(pool, &settings, p->width, p->height,
                                   good.format, 2, &enc, err,
                                   sizeof(err)) == CT_OK,
               "errors: new (%s)", err))
        return;
    check(ct_jpeg_encoder_error(enc)[0] == '\0', "errors: a message at first");
    ct_jpeg_image wrong = good;
    wrong.width = p->width + 1;
    wrong.stride = (size_t)wrong.width * p->channels;
    check(ct_jpeg_send_frame(enc, &wrong, NULL) == CT_EINVAL &&
              strstr(ct_jpeg_encoder_error(enc), "pixels") != NULL,
          "errors: wrong width: '%s'", ct_jpeg_encoder_error(enc));
    wrong = good;
    wrong.height = p->height + 3;
    check(ct_jpeg_send_frame(enc, &wrong, NULL) == CT_EINVAL,
          "errors: wrong height");
    wrong = good;
    wrong.format = good.format == CT_PIXEL_RGB8 ? CT_PIXEL_BGR8
                                                : CT_PIXEL_RGB8;
    check(ct_jpeg_send_frame(enc, &wrong, NULL) == CT_EINVAL &&
              strstr(ct_jpeg_encoder_error(enc), "format") != NULL,
          "errors: wrong format: '%s'", ct_jpeg_encoder_error(enc));
    wrong = good;
    wrong.stride = good.stride - 1;
    check(ct_jpeg_send_frame(enc, &wrong, NULL) == CT_EINVAL &&
              strstr(ct_jpeg_encoder_error(enc), "stride") != NULL,
          "errors: short stride: '%s'", ct_jpeg_encoder_error(enc));
    check(ct_jpeg_send_frame(enc, NULL, NULL) == CT_EINVAL,
          "errors: NULL image");
    ct_jpeg_output out;
    check(ct_jpeg_receive_frame(enc, NULL, NULL) == CT_EINVAL,
          "errors: NULL output");
    check(ct_jpeg_receive_frame(enc, &out, NULL) == CT_EAGAIN,
          "errors: a file after refused frames");
    check(ct_jpeg_send_frame(NULL, &good, NULL) == CT_EINVAL &&
              ct_jpeg_receive_frame(NULL, &out, NULL) == CT_EINVAL &&
              ct_jpeg_encoder_drain(NULL) == CT_EINVAL &&
              ct_jpeg_encoder_set_settings(NULL, &settings, NULL, 0) ==
                  CT_EINVAL,
          "errors: NULL encoder");
    ct_jpeg_encoder_reset(NULL);
    ct_jpeg_encoder_free(NULL);
    ct_jpeg_encoder_free(enc);

    /* ct_jpeg_encode refuses the same frames. */
    wrong = good;
    wrong.format = (ct_pixel_format)99;
    check(ct_jpeg_encode(pool, &settings, &wrong, &out, err, sizeof(err)) ==
                  CT_EINVAL &&
              strstr(err, "format") != NULL && out.data == NULL,
          "errors: ct_jpeg_encode of an unknown format: '%s'", err);
}

/* Small golden inputs, when the golden directory is given. */
static const char *const golden_inputs[] = {
    "crop-raindrops-x1232-y656-48x48.ppm",
    "crop-eveningglow-x1424-y688-32x32.ppm",
    "crop-raindrops-gray-x512-y768-48x48.pgm",
    "crop-storm-x1024-y640-256x256.ppm",
};

static int read_golden(const char *dir, const char *name, picture *p)
{
    char path[1024];
    char err[256];
    ct_pnm_image pnm;
    snprintf(path, sizeof(path), "%s/inputs/%s", dir, name);
    if (ct_pnm_read(path, &pnm, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        return 0;
    }
    *p = (picture){ "", pnm.width, pnm.height, pnm.channels, pnm.pixels };
    snprintf(p->name, sizeof(p->name), "%s", name);
    return 1;
}

int main(int argc, char **argv)
{
    ct_pool *pools[3];
    for (int i = 0; i < 3; i++) {
        pools[i] = ct_pool_new(pool_sizes[i]);
        if (pools[i] == NULL) {
            fputs("ct_pool_new failed\n", stderr);
            return 1;
        }
    }

    enum { MAX_PICTURES = 16 };
    picture pictures[MAX_PICTURES];
    int n = 0;
    static const uint32_t sizes[][2] = {
        { 1, 1 }, { 7, 5 }, { 33, 21 }, { 65, 17 }, { 130, 67 },
    };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        pictures[n++] = synthetic_picture(sizes[i][0], sizes[i][1], 3,
                                          (uint32_t)i);
    pictures[n++] = synthetic_picture(1, 1, 1, 7);
    pictures[n++] = synthetic_picture(23, 9, 1, 8);
    int golden = 0;
    if (argc > 1) {
        for (size_t i = 0;
             i < sizeof(golden_inputs) / sizeof(golden_inputs[0]); i++) {
            if (read_golden(argv[1], golden_inputs[i], &pictures[n])) {
                n++;
                golden++;
            }
        }
    }

    ct_jpeg_settings settings[3];
    const char *settings_names[3] = { "default", "-p 0 420 q75", "--xyb" };
    ct_jpeg_settings_default(&settings[0]);
    settings[1] = settings[0];
    settings[1].progressive_level = 0;
    settings[1].chroma_subsampling = CT_JPEG_SUBSAMPLING_420;
    settings[1].quality = 75;
    settings[2] = settings[0];
    settings[2].xyb = 1;
    for (int i = 0; i < n; i++) {
        /* Every setting on the synthetic pictures, the default on the
         * golden ones. */
        const int num_settings = i < n - golden ? 3 : 1;
        for (int s = 0; s < num_settings; s++)
            check_picture(pools, &pictures[i], &settings[s],
                          settings_names[s]);
    }
    for (int t = 0; t < 3; t++) {
        check_set_settings(pools[t], &pictures[2]);
        check_reset(pools[t], &pictures[3]);
        check_reset(pools[t], &pictures[6]);
        check_drains(pools[t], &pictures[1]);
        check_errors(pools[t], &pictures[2]);
    }
    check_errors(NULL, &pictures[5]);

    for (int i = 0; i < n; i++)
        picture_free(&pictures[i]);
    for (int i = 0; i < 3; i++)
        ct_pool_unref(pools[i]);
    char passed[128];
    snprintf(passed, sizeof(passed),
             "ct_jpeg_encoder: every check passed (%d pictures, %d golden)", n,
             golden);
    return check_finish(passed);
}
