/*
 * ct_jpeg_encode_batch writes, for every image of a batch, exactly the
 * bytes ct_jpeg_encode writes for it alone: batches of 1..17 images of
 * different sizes and formats, on no pool and on pools of 1..4 workers. A
 * batch with invalid images fails with the first one's error and leaves
 * every output empty; an empty batch succeeds. Exits 0 when every check
 * passes, 1 otherwise.
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

/* Noise over a gradient; odd sizes, a few gray, some rows padded. */
static void make_picture(test_picture *p, size_t index)
{
    uint32_t width = 1 + (uint32_t)(index * 7 % 61);
    uint32_t height = 1 + (uint32_t)(index * 13 % 47);
    int channels = index % 5 == 3 ? 1 : 3;
    size_t stride = (size_t)width * channels + index % 3;
    uint32_t state = 2654435761u * (uint32_t)(index + 1);

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

static int outputs_empty(const ct_jpeg_output *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (out[i].data != NULL || out[i].size != 0)
            return 0;
    }
    return 1;
}

/* Every batch of 1..MAX_BATCH consecutive pictures, starting at each
 * picture, against the one-by-one bytes. */
static void check_batches(ct_pool *pool, const ct_jpeg_settings *settings,
                          const char *settings_name,
                          const test_picture *pictures)
{
    ct_jpeg_image images[MAX_BATCH];
    ct_jpeg_output out[MAX_BATCH];
    char err[256];

    for (size_t n = 1; n <= MAX_BATCH; n++) {
        size_t first = n % 5;
        for (size_t i = 0; i < n; i++)
            images[i] = pictures[first + i].image;
        err[0] = '\0';
        int rc = ct_jpeg_encode_batch(pool, settings, images, n, out, err,
                                      sizeof(err));
        if (!check(rc == CT_OK, "%s, %d threads, %zu images: returned %d (%s)",
                   settings_name, ct_pool_threads(pool), n, rc, err))
            continue;
        for (size_t i = 0; i < n; i++) {
            const ct_jpeg_output *expected = &pictures[first + i].expected;
            check(out[i].size == expected->size &&
                      memcmp(out[i].data, expected->data, out[i].size) == 0,
                  "%s, %d threads, %zu images: image %zu (%ux%u) differs "
                  "(%zu bytes, expected %zu)",
                  settings_name, ct_pool_threads(pool), n, i,
                  images[i].width, images[i].height, out[i].size,
                  expected->size);
            ct_jpeg_output_free(&out[i]);
        }
    }
}

/* Invalid images in the middle: the first one's error, no outputs. */
static void check_errors(ct_pool *pool, const ct_jpeg_settings *settings,
                         const test_picture *pictures)
{
    ct_jpeg_image images[MAX_BATCH];
    ct_jpeg_output out[MAX_BATCH];
    char err[256];
    char expected_prefix[64];

    for (size_t bad = 0; bad < MAX_BATCH; bad += 4) {
        for (size_t i = 0; i < MAX_BATCH; i++)
            images[i] = pictures[i].image;
        images[bad].pixels = NULL;
        /* A second, later bad image must not be the one reported. */
        if (bad + 3 < MAX_BATCH)
            images[bad + 3].stride = 0;
        err[0] = '\0';
        int rc = ct_jpeg_encode_batch(pool, settings, images, MAX_BATCH, out,
                                      err, sizeof(err));
        snprintf(expected_prefix, sizeof(expected_prefix), "image %zu of %d: ",
                 bad + 1, MAX_BATCH);
        check(rc == CT_EINVAL, "%d threads, bad image %zu: returned %d",
              ct_pool_threads(pool), bad, rc);
        check(strncmp(err, expected_prefix, strlen(expected_prefix)) == 0 &&
                  strstr(err, "no pixels") != NULL,
              "%d threads, bad image %zu: message '%s'",
              ct_pool_threads(pool), bad, err);
        check(outputs_empty(out, MAX_BATCH),
              "%d threads, bad image %zu: outputs left after the error",
              ct_pool_threads(pool), bad);
    }

    /* Invalid settings fail every image alike; the first is reported. */
    ct_jpeg_settings bad_settings = *settings;
    bad_settings.quality = 1000;
    for (size_t i = 0; i < MAX_BATCH; i++)
        images[i] = pictures[i].image;
    err[0] = '\0';
    int rc = ct_jpeg_encode_batch(pool, &bad_settings, images, MAX_BATCH, out,
                                  err, sizeof(err));
    check(rc < 0 && strncmp(err, "image 1 of ", 11) == 0,
          "%d threads, bad settings: returned %d, message '%s'",
          ct_pool_threads(pool), rc, err);
    check(outputs_empty(out, MAX_BATCH),
          "%d threads, bad settings: outputs left after the error",
          ct_pool_threads(pool));
}

static void check_arguments(const ct_jpeg_settings *settings,
                            const test_picture *pictures)
{
    ct_jpeg_output out[2] = { { (uint8_t *)"x", 1 }, { (uint8_t *)"x", 1 } };
    char err[256] = "";

    check(ct_jpeg_encode_batch(NULL, settings, NULL, 0, NULL, NULL, 0) ==
              CT_OK, "empty batch failed");
    check(ct_jpeg_encode_batch(NULL, settings, &pictures[0].image, 1, NULL,
                               err, sizeof(err)) == CT_EINVAL && err[0],
          "NULL outputs: no CT_EINVAL with a message");
    check(ct_jpeg_encode_batch(NULL, NULL, &pictures[0].image, 2, out, err,
                               sizeof(err)) == CT_EINVAL &&
              outputs_empty(out, 2),
          "NULL settings: no CT_EINVAL, or outputs not emptied");
    check(ct_jpeg_encode_batch(NULL, settings, NULL, 1, out, NULL, 0) ==
              CT_EINVAL, "NULL images: no CT_EINVAL");
}

int main(void)
{
    enum { N_PICTURES = MAX_BATCH + 5 };
    test_picture pictures[N_PICTURES];
    ct_jpeg_settings settings[2];
    const char *settings_names[2] = { "default", "-p 0 420 q75" };
    char err[256];

    ct_jpeg_settings_default(&settings[0]);
    ct_jpeg_settings_default(&settings[1]);
    settings[1].progressive_level = 0;
    settings[1].chroma_subsampling = CT_JPEG_SUBSAMPLING_420;
    settings[1].quality = 75;

    for (size_t i = 0; i < N_PICTURES; i++)
        make_picture(&pictures[i], i);

    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < N_PICTURES; i++) {
            ct_jpeg_output_free(&pictures[i].expected);
            int rc = ct_jpeg_encode(NULL, &settings[s], &pictures[i].image,
                                    &pictures[i].expected, err, sizeof(err));
            if (rc != CT_OK) {
                fprintf(stderr, "ct_jpeg_encode: %s\n", err);
                return 1;
            }
        }
        check_batches(NULL, &settings[s], settings_names[s], pictures);
        for (int threads = 1; threads <= MAX_THREADS; threads++) {
            ct_pool *pool = ct_pool_new(threads);
            if (pool == NULL) {
                fputs("ct_pool_new failed\n", stderr);
                return 1;
            }
            check_batches(pool, &settings[s], settings_names[s], pictures);
            if (s == 0)
                check_errors(pool, &settings[s], pictures);
            ct_pool_unref(pool);
        }
    }
    check_errors(NULL, &settings[0], pictures);
    check_arguments(&settings[0], pictures);

    for (size_t i = 0; i < N_PICTURES; i++) {
        ct_jpeg_output_free(&pictures[i].expected);
        free(pictures[i].pixels);
    }
    return check_finish(
        "ct_jpeg_encode_batch: every batch equals the one-by-one bytes");
}
