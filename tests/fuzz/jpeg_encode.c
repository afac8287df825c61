/*
 * Fuzz target: ct_jpeg_encode with every setting, size, pixel layout and
 * stride from the input; the pixels are the input's remaining bytes. Each
 * image is encoded on the calling thread and on a pool of two workers: the
 * same result code, and the same bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "ctcore/runtime.h"
#include "jpeg_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size, 0 };
    ct_jpeg_settings settings;
    fuzz_jpeg_settings(&in, &settings);
    ct_jpeg_image image;
    fuzz_jpeg_size(&in, &image.width, &image.height);
    image.format = fuzz_jpeg_format(&in);
    const size_t pixel_bytes = fuzz_jpeg_pixel_bytes(image.format);
    image.stride = fuzz_jpeg_stride(&in, image.width, image.height,
                                    pixel_bytes);
    const int without_pixels = fuzz_u8(&in) == 255;
    uint8_t *pixels = fuzz_jpeg_pixels(&in, image.width, image.height,
                                       image.stride, pixel_bytes);
    if (!pixels)
        return 0;
    image.pixels = without_pixels ? NULL : pixels;

    char errbuf[256];
    ct_jpeg_output alone = { 0 }, pooled = { 0 };
    const int code = ct_jpeg_encode(NULL, &settings, &image, &alone, errbuf,
                                    sizeof(errbuf));
    fuzz_assert(code == CT_OK || code == CT_EINVAL || code == CT_ETOOBIG);
    fuzz_assert(code == CT_OK ? alone.size > 0 : alone.data == NULL);

    ct_pool *pool = ct_pool_new(2);
    fuzz_assert(pool);
    const int pooled_code = ct_jpeg_encode(pool, &settings, &image, &pooled,
                                           errbuf, sizeof(errbuf));
    ct_pool_unref(pool);
    fuzz_assert(pooled_code == code);
    fuzz_assert(pooled.size == alone.size);
    fuzz_assert(alone.size == 0 ||
                memcmp(pooled.data, alone.data, alone.size) == 0);

    ct_jpeg_output_free(&alone);
    ct_jpeg_output_free(&pooled);
    free(pixels);
    return 0;
}
