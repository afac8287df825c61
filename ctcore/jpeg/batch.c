/*
 * ct_jpeg_encode_batch: several images at a time, one per worker. A small
 * image has too little work to spread over many cores, but a stream of
 * them (MJPEG) keeps every core busy when each core takes a whole image
 * through the sequential chain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "ctcore/jpeg.h"
#include "common/errbuf.h"
#include "runtime/stage.h"

/* Room for any message ct_jpeg_encode writes. */
#define BATCH_MESSAGE_SIZE 256

/* What one image's encode returned. Each job writes only its own. */
typedef struct batch_result {
    int code;
    char message[BATCH_MESSAGE_SIZE];
} batch_result;

typedef struct batch_context {
    const ct_jpeg_settings *settings;
    const ct_jpeg_image *images;
    ct_jpeg_output *out;
    batch_result *results;
} batch_context;

static int encode_one_image(void *ctx, size_t job, int worker)
{
    batch_context *batch = ctx;
    batch_result *result = &batch->results[job];
    (void)worker;

    /* The sequential chain: a job must not run stages on its own pool. */
    result->code = ct_jpeg_encode(NULL, batch->settings, &batch->images[job],
                                  &batch->out[job], result->message,
                                  sizeof(result->message));
    return result->code;
}

static void free_outputs(ct_jpeg_output *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ct_jpeg_output_free(&out[i]);
}

int ct_jpeg_encode_batch(ct_pool *pool, const ct_jpeg_settings *settings,
                         const ct_jpeg_image *images, size_t n,
                         ct_jpeg_output *out, char *errbuf,
                         size_t errbuf_size)
{
    if (n == 0)
        return CT_OK;
    if (out == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no outputs (NULL)");
    for (size_t i = 0; i < n; i++)
        out[i] = (ct_jpeg_output){ NULL, 0 };
    if (settings == NULL || images == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no settings or no images (NULL)");

    batch_result *results = calloc(n, sizeof(*results));
    if (results == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM,
                             "out of memory for a batch of %zu images", n);

    batch_context batch = { settings, images, out, results };
    int rc = ct_stage_run(pool, n, encode_one_image, &batch);
    if (rc != CT_OK) {
        /* After a failure the stage skips the images nobody has claimed
         * yet, but it hands them out in order: every image before a failed
         * one has run, so the first failed image is the same on every run
         * and with any number of workers. */
        size_t first = 0;
        while (first < n && results[first].code == CT_OK)
            first++;
        if (first < n) {
            rc = ct_errbuf_set(errbuf, errbuf_size, results[first].code,
                               "image %zu of %zu: %s", first + 1, n,
                               results[first].message[0] ?
                               results[first].message :
                               ct_strerror(results[first].code));
        } else {
            rc = ct_errbuf_set(errbuf, errbuf_size, rc,
                               "batch of %zu images failed: %s", n,
                               ct_strerror(rc));
        }
        free_outputs(out, n);
    }
    free(results);
    return rc;
}
