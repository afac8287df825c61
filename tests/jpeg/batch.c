/*
 * The streaming encoder's batches: for every frame of a stream it writes
 * exactly the bytes ct_jpeg_encode writes for it alone, with 1..17 frames
 * in flight, on no pool and on pools of 1..4 workers, for streams of
 * different sizes and formats. An invalid frame in the middle of a batch is
 * refused at once and the batch goes on without it; invalid settings fail
 * the encoder's creation with a message. Exits 0 when every check passes,
 * 1 otherwise.
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

#define MAX_BATCH 17
#define MAX_THREADS 4
/* One picture of the set, with what ct_jpeg_encode writes for it. */
typedef struct test_picture {
    ct_jpeg_image image;
    uint8_t *pixels;
    ct_jpeg_output expected;
} test_picture;

/* Frame `index` of stream `stream`: noise over a gradient; odd sizes, a
 * gray stream, some rows padded. */
static void make_picture(test_picture *p, size_t stream, size_t index)
{
    uint32_t width = 1 + (uint32_t)(stream * 29 % 61);
    uint32_t height = 1 + (uint32_t)(stream * 13 % 47);
    int channels = stream % 3 == 1 ? 1 : 3;
    size_t stride = (size_t)width * channels + index % 3;
    uint32_t state = 2654435761u * (uint32_t)(stream * 131 + index + 1);

    p->pixels = malloc(stride * height);
    if (p->pixels == NULL) {
        fputs("out of memory\n", stderr);
        exit(1);
    }
    for (uint32_t y = 0; y < height; y++) {
        for (size_t x = 0; x < stride; x++) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            p->pixels[y * stride + x] =
                (uint8_t)(x * 255 / stride + y * 3 + (state >> 28));
        }
    }
    p->image = (ct_jpeg_image){
        .width = width,
        .height = height,
        .format = channels == 1 ? CT_PIXEL_GRAY8 : CT_PIXEL_RGB8,
        .stride = stride,
        .pixels = p->pixels,
    };
    p->expected = (ct_jpeg_output){ NULL, 0 };
}

/* The stream's frames through an encoder of `frames_in_flight`, each
 * file received as soon as it is ready, against the one-by-one bytes. */
static void check_stream(ct_pool *pool, const ct_jpeg_settings *settings,
                         const char *settings_name,
                         const test_picture *pictures, size_t n_pictures,
                         int frames_in_flight)
{
    const ct_jpeg_image *first = &pictures[0].image;
    ct_jpeg_encoder *enc;
    char err[256] = "";
    int rc = ct_jpeg_encoder_new(pool, settings, first->width, first->height,
                                 first->format, frames_in_flight, &enc, err,
                                 sizeof(err));
    if (!check(rc == CT_OK, "%s: ct_jpeg_encoder_new returned %d (%s)",
               settings_name, rc, err))
        return;
    size_t received = 0;
    for (size_t i = 0; i <= n_pictures; i++) {
        if (i < n_pictures) {
            rc = ct_jpeg_send_frame(enc, &pictures[i].image,
                                    (void *)&pictures[i]);
            check(rc == CT_OK, "%s, %d in flight: send %zu returned %d",
                  settings_name, frames_in_flight, i, rc);
        } else {
            check(ct_jpeg_encoder_drain(enc) == CT_OK, "drain failed");
        }
        for (;;) {
            ct_jpeg_output out;
            void *user = NULL;
            rc = ct_jpeg_receive_frame(enc, &out, &user);
            if (rc == CT_EAGAIN || rc == CT_EOF)
                break;
            const test_picture *p = &pictures[received];
            check(rc == CT_OK && user == p && out.size == p->expected.size &&
                      memcmp(out.data, p->expected.data, out.size) == 0,
                  "%s, %d threads, %d in flight: frame %zu (%ux%u) differs "
                  "(rc %d, %zu bytes, expected %zu)",
                  settings_name, ct_pool_threads(pool), frames_in_flight,
                  received, p->image.width, p->image.height, rc, out.size,
                  p->expected.size);
            ct_jpeg_output_free(&out);
            received++;
        }
        check(rc == (i < n_pictures ? CT_EAGAIN : CT_EOF),
              "%s, %d in flight: after frame %zu, receive returned %d",
              settings_name, frames_in_flight, i, rc);
    }
    check(received == n_pictures, "%s, %d in flight: %zu of %zu files",
          settings_name, frames_in_flight, received, n_pictures);
    ct_jpeg_encoder_free(enc);
}

/* Invalid frames in the middle of a batch: each is refused with its
 * message, and the valid ones still give their bytes. */
static void check_errors(ct_pool *pool, const ct_jpeg_settings *settings,
                         const test_picture *pictures)
{
    const ct_jpeg_image *first = &pictures[0].image;
    ct_jpeg_encoder *enc;
    char err[256] = "";
    int rc = ct_jpeg_encoder_new(pool, settings, first->width, first->height,
                                 first->format, MAX_BATCH, &enc, err,
                                 sizeof(err));
    if (!check(rc == CT_OK, "ct_jpeg_encoder_new returned %d (%s)", rc, err))
        return;
    for (size_t i = 0; i < MAX_BATCH; i++) {
        ct_jpeg_image bad = pictures[i].image;
        if (i % 4 == 1) {
            bad.pixels = NULL;
            rc = ct_jpeg_send_frame(enc, &bad, NULL);
            check(rc == CT_EINVAL &&
                      strstr(ct_jpeg_encoder_error(enc), "no pixels") != NULL,
                  "%d threads, frame %zu without pixels: %d '%s'",
                  ct_pool_threads(pool), i, rc, ct_jpeg_encoder_error(enc));
        } else if (i % 4 == 2) {
            bad.stride = 0;
            rc = ct_jpeg_send_frame(enc, &bad, NULL);
            check(rc == CT_EINVAL &&
                      strstr(ct_jpeg_encoder_error(enc), "stride") != NULL,
                  "%d threads, frame %zu with stride 0: %d '%s'",
                  ct_pool_threads(pool), i, rc, ct_jpeg_encoder_error(enc));
        }
        check(ct_jpeg_send_frame(enc, &pictures[i].image,
                                 (void *)&pictures[i]) == CT_OK,
              "frame %zu refused after a bad one", i);
    }
    for (size_t i = 0; i < MAX_BATCH; i++) {
        ct_jpeg_output out;
        void *user = NULL;
        rc = ct_jpeg_receive_frame(enc, &out, &user);
        check(rc == CT_OK && user == &pictures[i] &&
                  out.size == pictures[i].expected.size &&
                  memcmp(out.data, pictures[i].expected.data, out.size) == 0,
              "%d threads: frame %zu after bad frames differs (rc %d)",
              ct_pool_threads(pool), i, rc);
        ct_jpeg_output_free(&out);
    }
    ct_jpeg_encoder_free(enc);

    /* Invalid settings: no encoder, and the message says why. */
    ct_jpeg_settings bad_settings = *settings;
    bad_settings.quality = 1000;
    err[0] = '\0';
    enc = (ct_jpeg_encoder *)1;
    rc = ct_jpeg_encoder_new(pool, &bad_settings, first->width,
                             first->height, first->format, 0, &enc, err,
                             sizeof(err));
    check(rc == CT_EINVAL && enc == NULL && strstr(err, "quality") != NULL,
          "%d threads, bad settings: returned %d, message '%s'",
          ct_pool_threads(pool), rc, err);
}

int main(void)
{
    enum { N_STREAMS = 5, N_PICTURES = MAX_BATCH + 5 };
    static test_picture pictures[N_STREAMS][N_PICTURES];
    ct_jpeg_settings settings[2];
    const char *settings_names[2] = { "default", "-p 0 420 q75" };
    char err[256];

    ct_jpeg_settings_default(&settings[0]);
    ct_jpeg_settings_default(&settings[1]);
    settings[1].progressive_level = 0;
    settings[1].chroma_subsampling = CT_JPEG_SUBSAMPLING_420;
    settings[1].quality = 75;

    for (size_t s = 0; s < N_STREAMS; s++)
        for (size_t i = 0; i < N_PICTURES; i++)
            make_picture(&pictures[s][i], s, i);

    for (int k = 0; k < 2; k++) {
        for (size_t s = 0; s < N_STREAMS; s++) {
            for (size_t i = 0; i < N_PICTURES; i++) {
                test_picture *p = &pictures[s][i];
                ct_jpeg_output_free(&p->expected);
                int rc = ct_jpeg_encode(NULL, &settings[k], &p->image,
                                        &p->expected, err, sizeof(err));
                if (rc != CT_OK) {
                    fprintf(stderr, "ct_jpeg_encode: %s\n", err);
                    return 1;
                }
            }
        }
        for (int threads = 0; threads <= MAX_THREADS; threads++) {
            ct_pool *pool = threads > 0 ? ct_pool_new(threads) : NULL;
            if (threads > 0 && pool == NULL) {
                fputs("ct_pool_new failed\n", stderr);
                return 1;
            }
            for (size_t s = 0; s < N_STREAMS; s++) {
                for (int n = 1; n <= MAX_BATCH; n++)
                    check_stream(pool, &settings[k], settings_names[k],
                                 pictures[s], N_PICTURES, n);
                if (k == 0)
                    check_errors(pool, &settings[k], pictures[s]);
            }
            ct_pool_unref(pool);
        }
    }

    for (size_t s = 0; s < N_STREAMS; s++) {
        for (size_t i = 0; i < N_PICTURES; i++) {
            ct_jpeg_output_free(&pictures[s][i].expected);
            free(pictures[s][i].pixels);
        }
    }
    return check_finish(
        "ct_jpeg_encoder: every batch equals the one-by-one bytes");
}
