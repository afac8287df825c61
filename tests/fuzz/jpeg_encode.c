/*
 * Fuzz target: ct_jpeg_encode with every setting, size, pixel layout and
 * stride from the input; the pixels are the input's remaining bytes. Each
 * image is encoded on the calling thread and on a pool of two workers: the
 * same result code, and the same bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jpeg_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size, 0 };
    ct_jpeg_settings settings;
    fuzz_jpeg_settings(&in, &settings);
    ct_jpeg_image image = {0};
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

    fuzz_jpeg_encode_twice(&settings, &image);
    free(pixels);
    return 0;
}
