/*
 * Fuzz target: the streaming JPEG encoder. The input picks the encoder
 * (size, layout, frames in flight, settings, 1 or 2 threads), then a
 * sequence of sends (any stride, sometimes a frame of another size or
 * layout), receives, new settings, drains and resets. Every file received
 * must be the bytes of ct_jpeg_encode for its frame and the settings it
 * was sent with.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "ctcore/runtime.h"
#include "jpeg_input.h"

/* Operations per input, and frames kept alive per input. */
#define MAX_OPERATIONS 64
#define MAX_FRAMES 32

typedef struct frame {
    ct_jpeg_image image;
    ct_jpeg_settings settings;
    uint8_t *pixels;
} frame;

/* The file received for `sent` against ct_jpeg_encode's. */
static void check_file(const frame *sent, const ct_jpeg_output *file)
{
    ct_jpeg_output expected = { 0 };
    char errbuf[256];
    fuzz_assert(ct_jpeg_encode(NULL, &sent->settings, &sent->image, &expected,
                               errbuf, sizeof(errbuf)) == CT_OK);
    fuzz_assert(expected.size == file->size);
    fuzz_assert(memcmp(expected.data, file->data, file->size) == 0);
    ct_jpeg_output_free(&expected);
}

/* Receives until none is ready (or after a drain, CT_EOF). */
static int receive_all(ct_jpeg_encoder *encoder)
{
    for (;;) {
        ct_jpeg_output file = { 0 };
        void *user = NULL;
        const int code = ct_jpeg_receive_frame(encoder, &file, &user);
        if (code != CT_OK)
            return code;
        fuzz_assert(user);
        check_file(user, &file);
        ct_jpeg_output_free(&file);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size, 0 };
    ct_jpeg_settings settings;
    fuzz_jpeg_settings(&in, &settings);
    uint32_t width, height;
    fuzz_jpeg_size(&in, &width, &height);
    const ct_pixel_format format = fuzz_jpeg_format(&in);
    const unsigned choice = fuzz_u8(&in);
    const int threads = 1 + (choice & 1);
    /* 0 (auto) .. 8, and the limit and one past it. */
    const int frames_in_flight =
        (choice >> 1) < 120 ? (int)((choice >> 1) % 9)
                            : CT_JPEG_MAX_FRAMES_IN_FLIGHT + (int)((choice >> 1) & 1);

    ct_pool *pool = threads > 1 ? ct_pool_new(threads) : NULL;
    fuzz_assert(threads == 1 || pool);
    ct_jpeg_encoder *encoder = NULL;
    char errbuf[256];
    const int code = ct_jpeg_encoder_new(pool, &settings, width, height,
                                         format, frames_in_flight, &encoder,
                                         errbuf, sizeof(errbuf));
    ct_pool_unref(pool);
    if (code != CT_OK) {
        fuzz_assert(!encoder && (code == CT_EINVAL || code == CT_ETOOBIG));
        return 0;
    }
    fuzz_assert(ct_jpeg_encoder_frames_in_flight(encoder) >= 1);
    fuzz_assert(ct_jpeg_encoder_delay(encoder) ==
                ct_jpeg_encoder_frames_in_flight(encoder) - 1);

    frame frames[MAX_FRAMES];
    int frame_count = 0;
    for (int op = 0; op < MAX_OPERATIONS && !fuzz_done(&in); op++) {
        switch (fuzz_u8(&in) % 6) {
        case 0:
        case 1: { /* send a frame */
            if (frame_count == MAX_FRAMES)
                break;
            frame *f = &frames[frame_count];
            f->image.width = width;
            f->image.height = height;
            f->image.format = format;
            const unsigned odd = fuzz_u8(&in);
            if (odd == 254)
                f->image.width = width + 1;
            else if (odd == 255)
                f->image.format = format == CT_PIXEL_GRAY8 ? CT_PIXEL_RGB8
                                                           : CT_PIXEL_GRAY8;
            const size_t bytes = fuzz_jpeg_pixel_bytes(f->image.format);
            f->image.stride = fuzz_jpeg_stride(&in, f->image.width,
                                               f->image.height, bytes);
            f->pixels = fuzz_jpeg_pixels(&in, f->image.width,
                                         f->image.height, f->image.stride,
                                         bytes);
            if (!f->pixels)
                break;
            f->image.pixels = f->pixels;
            f->settings = settings;
            frame_count++;
            const int sent = ct_jpeg_send_frame(encoder, &f->image, f);
            fuzz_assert(sent == CT_OK || sent == CT_EAGAIN ||
                        sent == CT_EINVAL || sent == CT_ESTATE);
            fuzz_assert(sent != CT_OK || odd < 254);
            break;
        }
        case 2: {
            const int received = receive_all(encoder);
            fuzz_assert(received == CT_EAGAIN || received == CT_EOF);
            break;
        }
        case 3: {
            ct_jpeg_settings next;
            fuzz_jpeg_settings(&in, &next);
            if (ct_jpeg_encoder_set_settings(encoder, &next, errbuf,
                                             sizeof(errbuf)) == CT_OK)
                settings = next;
            break;
        }
        case 4:
            fuzz_assert(ct_jpeg_encoder_drain(encoder) == CT_OK);
            break;
        case 5:
            ct_jpeg_encoder_reset(encoder);
            break;
        }
    }
    fuzz_assert(ct_jpeg_encoder_drain(encoder) == CT_OK);
    fuzz_assert(receive_all(encoder) == CT_EOF);
    ct_jpeg_encoder_free(encoder);
    for (int i = 0; i < frame_count; i++)
        free(frames[i].pixels);
    return 0;
}
