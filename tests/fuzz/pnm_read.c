/*
 * Fuzz target: the PNM reader (tools/pnm.c) on the input as a file. An
 * image read must hold width x height x channels bytes, every one of them
 * readable.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "fuzz.h"
#include "memfile.h"
#include "pnm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], errbuf[256];
    const int fd = memfile_open(data, size, path);
    ct_pnm_image image;
    if (ct_pnm_read(path, &image, errbuf, sizeof(errbuf)) == 0) {
        fuzz_assert(image.width > 0 && image.height > 0);
        fuzz_assert(image.channels == 1 || image.channels == 3);
        const size_t bytes = (size_t)image.width * image.height *
                             (size_t)image.channels;
        fuzz_assert(bytes <= size);
        /* Every byte read, so that AddressSanitizer sees a short raster. */
        size_t sum = 0;
        for (size_t i = 0; i < bytes; i++)
            sum += image.pixels[i];
        fuzz_assert(sum <= 255 * bytes);
        const ct_jpeg_image jpeg = ct_pnm_jpeg_image(&image);
        fuzz_assert(jpeg.width == image.width && jpeg.height == image.height);
        fuzz_assert(jpeg.pixels == image.pixels);
        ct_pnm_free(&image);
    }
    memfile_close(fd);
    return 0;
}
