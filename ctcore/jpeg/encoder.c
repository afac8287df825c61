/*
 * The streaming encoder: frames of one size and layout in, one file per
 * frame out, in order. Frames wait until frames_in_flight of them are in
 * (or a drain, or new settings), then are encoded together by the graph
 * (graph.c): a lone frame spread over the pool, several one per worker.
 * Setup runs once per settings, not per frame: every frame of a run reads
 * the same plan.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"
#include "frame.h"
#include "graph.h"
#include "xyb.h"

/* With frames_in_flight 0, frames under this many pixels are encoded one
 * per worker: one of them keeps few workers busy. */
#define AUTO_BATCH_MAX_PIXELS (1000 * 1000)
#define ERROR_SIZE 256

struct ct_jpeg_encoder {
    ct_pool *pool; /* a reference, or NULL */
    uint32_t width, height;
    ct_pixel_format format;
    int frames_in_flight;

    /* The plan of the current settings, and its ICC profile (XYB). */
    ct_jpeg_frame frame;
    uint8_t *icc;
    size_t icc_size;

    /* Frames sent and not yet encoded: images[0 .. n_waiting). */
    ct_jpeg_image *images;
    void **users;
    int n_waiting;

    /* The files of the last frames encoded, received from next_ready on;
     * ready_code is what their encoding returned. While any waits, no
     * frame does (a send answers CT_EAGAIN). */
    ct_jpeg_output *out;
    void **ready_users;
    int n_ready, next_ready;
    int ready_code;

    int drained; /* since the last send */
    char error[ERROR_SIZE];
};

/* The plan and ICC profile of settings, or a CT_E* code with a message. */
static int make_plan(const ct_jpeg_encoder *e, const ct_jpeg_settings *settings,
                     ct_jpeg_frame *frame, uint8_t **icc, size_t *icc_size,
                     char *errbuf, size_t errbuf_size)
{
    *icc = NULL;
    *icc_size = 0;
    if (settings == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no settings (NULL)");
    int rc = ct_jpeg_setup(frame, settings, e->width, e->height, e->format,
                           errbuf, errbuf_size);
    if (rc == CT_OK && frame->xyb && ct_jpeg_xyb_icc(icc, icc_size) != CT_OK)
        rc = ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM,
                           "out of memory for the XYB ICC profile");
    return rc;
}

static int resolve_frames_in_flight(const ct_pool *pool, uint32_t width,
                                    uint32_t height, int frames_in_flight)
{
    if (frames_in_flight > 0)
        return frames_in_flight;
    if ((uint64_t)width * height < AUTO_BATCH_MAX_PIXELS)
        return ct_pool_threads(pool);
    return 1;
}

int ct_jpeg_encoder_new(ct_pool *pool, const ct_jpeg_settings *settings,
                        uint32_t width, uint32_t height,
                        ct_pixel_format format, int frames_in_flight,
                        ct_jpeg_encoder **encoder, char *errbuf,
                        size_t errbuf_size)
{
    if (encoder == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no encoder pointer (NULL)");
    *encoder = NULL;
    if (frames_in_flight < 0 ||
        frames_in_flight > CT_JPEG_MAX_FRAMES_IN_FLIGHT)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "invalid frames_in_flight %d (0..%d)",
                             frames_in_flight, CT_JPEG_MAX_FRAMES_IN_FLIGHT);
    ct_jpeg_encoder *e = calloc(1, sizeof(*e));
    if (e == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM,
                             "out of memory for an encoder");
    e->width = width;
    e->height = height;
    e->format = format;
    int rc = make_plan(e, settings, &e->frame, &e->icc, &e->icc_size, errbuf,
                       errbuf_size);
    if (rc != CT_OK) {
        free(e);
        return rc;
    }
    e->frames_in_flight =
        resolve_frames_in_flight(pool, width, height, frames_in_flight);
    const size_t n = (size_t)e->frames_in_flight;
    e->images = calloc(n, sizeof(*e->images));
    e->users = calloc(n, sizeof(*e->users));
    e->out = calloc(n, sizeof(*e->out));
    e->ready_users = calloc(n, sizeof(*e->ready_users));
    if (e->images == NULL || e->users == NULL || e->out == NULL ||
        e->ready_users == NULL) {
        ct_jpeg_encoder_free(e);
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM,
                             "out of memory for %zu frames in flight", n);
    }
    e->pool = pool != NULL ? ct_pool_ref(pool) : NULL;
    *encoder = e;
    return CT_OK;
}

void ct_jpeg_encoder_free(ct_jpeg_encoder *encoder)
{
    if (encoder == NULL)
        return;
    if (encoder->out != NULL)
        ct_jpeg_encoder_reset(encoder);
    free(encoder->images);
    free(encoder->users);
    free(encoder->out);
    free(encoder->ready_users);
    free(encoder->icc);
    if (encoder->pool != NULL)
        ct_pool_unref(encoder->pool);
    free(encoder);
}

/* Encodes the waiting frames with the current plan: their files (or their
 * error) become ready. */
static void encode_waiting(ct_jpeg_encoder *e)
{
    const int n = e->n_waiting;
    if (n == 0)
        return;
    const int rc =
        n == 1 ? ct_jpeg_graph_run(e->pool, &e->frame, &e->images[0], NULL,
                                   e->icc, e->icc_size, &e->out[0])
               : ct_jpeg_graph_run_batch(e->pool, &e->frame, e->images,
                                         (size_t)n, e->icc, e->icc_size,
                                         e->out);
    if (rc != CT_OK)
        ct_errbuf_set(e->error, sizeof(e->error), rc,
                      "encoding %d frame(s) failed: %s", n, ct_strerror(rc));
    memcpy(e->ready_users, e->users, (size_t)n * sizeof(*e->users));
    e->ready_code = rc;
    e->n_ready = n;
    e->next_ready = 0;
    e->n_waiting = 0;
}

int ct_jpeg_encoder_set_settings(ct_jpeg_encoder *encoder,
                                 const ct_jpeg_settings *settings,
                                 char *errbuf, size_t errbuf_size)
{
    if (encoder == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "no encoder (NULL)");
    ct_jpeg_frame frame;
    uint8_t *icc;
    size_t icc_size;
    const int rc = make_plan(encoder, settings, &frame, &icc, &icc_size,
                             encoder->error, sizeof(encoder->error));
    if (rc != CT_OK)
        return ct_errbuf_set(errbuf, errbuf_size, rc, "%s", encoder->error);
    encode_waiting(encoder);
    encoder->frame = frame;
    free(encoder->icc);
    encoder->icc = icc;
    encoder->icc_size = icc_size;
    return CT_OK;
}

/* The checks of a frame against the encoder's size and layout. */
static int check_frame(ct_jpeg_encoder *e, const ct_jpeg_image *image)
{
    char *err = e->error;
    const size_t size = sizeof(e->error);
    if (image == NULL)
        return ct_errbuf_set(err, size, CT_EINVAL, "no image (NULL)");
    if (image->width != e->width || image->height != e->height)
        return ct_errbuf_set(err, size, CT_EINVAL,
                             "frame of %ux%u pixels for an encoder of %ux%u",
                             (unsigned)image->width, (unsigned)image->height,
                             (unsigned)e->width, (unsigned)e->height);
    if (image->format != e->format)
        return ct_errbuf_set(err, size, CT_EINVAL,
                             "frame in pixel format %d for an encoder of "
                             "format %d",
                             (int)image->format, (int)e->format);
    return ct_jpeg_check_pixels(image, err, size);
}

int ct_jpeg_send_frame(ct_jpeg_encoder *encoder, const ct_jpeg_image *image,
                       void *user)
{
    if (encoder == NULL)
        return CT_EINVAL;
    if (encoder->next_ready < encoder->n_ready)
        return CT_EAGAIN;
    const int rc = check_frame(encoder, image);
    if (rc != CT_OK)
        return rc;
    encoder->drained = 0;
    encoder->images[encoder->n_waiting] = *image;
    encoder->users[encoder->n_waiting] = user;
    if (++encoder->n_waiting == encoder->frames_in_flight)
        encode_waiting(encoder);
    return CT_OK;
}

int ct_jpeg_receive_frame(ct_jpeg_encoder *encoder, ct_jpeg_output *out,
                          void **user)
{
    if (encoder == NULL || out == NULL)
        return CT_EINVAL;
    *out = (ct_jpeg_output){ NULL, 0 };
    if (encoder->next_ready == encoder->n_ready)
        return encoder->drained ? CT_EOF : CT_EAGAIN;
    const int i = encoder->next_ready++;
    *out = encoder->out[i];
    encoder->out[i] = (ct_jpeg_output){ NULL, 0 };
    if (user != NULL)
        *user = encoder->ready_users[i];
    if (encoder->next_ready == encoder->n_ready)
        encoder->n_ready = encoder->next_ready = 0;
    return encoder->ready_code;
}

int ct_jpeg_encoder_drain(ct_jpeg_encoder *encoder)
{
    if (encoder == NULL)
        return CT_EINVAL;
    encode_waiting(encoder);
    encoder->drained = 1;
    return CT_OK;
}

void ct_jpeg_encoder_reset(ct_jpeg_encoder *encoder)
{
    if (encoder == NULL)
        return;
    for (int i = encoder->next_ready; i < encoder->n_ready; ++i)
        ct_jpeg_output_free(&encoder->out[i]);
    encoder->n_ready = encoder->next_ready = 0;
    encoder->n_waiting = 0;
    encoder->drained = 0;
}

int ct_jpeg_encoder_frames_in_flight(const ct_jpeg_encoder *encoder)
{
    return encoder != NULL ? encoder->frames_in_flight : 0;
}

int ct_jpeg_encoder_delay(const ct_jpeg_encoder *encoder)
{
    return encoder != NULL ? encoder->frames_in_flight - 1 : 0;
}

const char *ct_jpeg_encoder_error(const ct_jpeg_encoder *encoder)
{
    return encoder != NULL ? encoder->error : "";
}
