/*
 * The golden set's synthetic rows without the golden set: the inputs
 * (syn-*) made by their formula (see the golden set's README.md, on the
 * synthetic images), the outputs checked against the sha256 and size
 * their manifest rows keep.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_SYNTHETIC_H
#define CT_TESTS_SYNTHETIC_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/jpeg.h"
#include "golden_manifest.h"

/* Uniform noise and gradients at 9 sizes in RGB and gray, and 2 flat ones. */
#define CT_SYNTHETIC_COUNT 38

typedef struct ct_synthetic_image {
    uint32_t width, height;
    int channels;     /* 3 (RGB, .ppm) or 1 (gray, .pgm) */
    uint8_t *pixels;  /* packed, rows top to bottom */
} ct_synthetic_image;

/* The file name of synthetic input index (0..CT_SYNTHETIC_COUNT-1) in the
 * golden set's inputs/, e.g. "syn-noise-rgb-7x9.ppm". */
void ct_synthetic_name(int index, char *name, size_t size);

/*
 * Makes the synthetic input of that file name (inputs/ may lead it).
 * Returns 0 and fills *image (free it with ct_synthetic_free), or -1 when
 * the name is none of them or memory runs out.
 */
int ct_synthetic_make(const char *name, ct_synthetic_image *image);
void ct_synthetic_free(ct_synthetic_image *image);

/* The image as ct_jpeg_encode takes it (pointing into image->pixels). */
ct_jpeg_image ct_synthetic_jpeg_image(const ct_synthetic_image *image);

/* Checks a file encoded for the row against the row's sha256 and bytes:
 * 1 when both match, else 0 with the reason in why. */
int ct_synthetic_check_output(const ct_golden_row *row, const uint8_t *data,
                              size_t size, char *why, size_t why_size);

#endif
