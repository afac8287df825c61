/*
 * Binary PNM (P5 gray, P6 RGB) with maxval 255: the input format of
 * cjpegli's tests and of the golden set.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_PNM_H
#define CT_TOOLS_PNM_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/jpeg.h"

typedef struct ct_pnm_image {
    uint32_t width, height;
    int channels;     /* 1 (P5) or 3 (P6) */
    uint8_t *pixels;  /* width * channels bytes per row, rows top to bottom */
} ct_pnm_image;

/*
 * Reads a binary PNM file, or standard input when path is "-". Returns 0
 * and fills *image (free it with ct_pnm_free), or -1 with a message in
 * errbuf: a header promising more raster than a file holds is refused
 * before its raster is allocated, and a stream is read as it comes.
 */
int ct_pnm_read(const char *path, ct_pnm_image *image,
                char *errbuf, size_t errbuf_size);

void ct_pnm_free(ct_pnm_image *image);

/* The image as ct_jpeg_encode takes it (pointing into image->pixels). */
ct_jpeg_image ct_pnm_jpeg_image(const ct_pnm_image *image);

#endif
