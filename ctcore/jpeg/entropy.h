/*
 * Entropy coding and assembly: coefficients -> JPEG file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_ENTROPY_H
#define CTCORE_JPEG_ENTROPY_H

#include <stddef.h>
#include <stdint.h>

#include "coeffs.h"
#include "frame.h"

/*
 * Tokenizes every scan, builds the Huffman codes (optimized or fixed), and
 * writes the whole file: SOI, APP2 ICC markers (icc may be NULL), DQT, SOF,
 * DHT, the scans with their SOS headers, EOI. The sequential chain of
 * jpegli's jpegli_finish_compress (and of its streaming paths, which write
 * the same bytes).
 */
int ct_jpeg_write_file(const ct_jpeg_frame *frame, const ct_jpeg_coeffs *coeffs,
                       const uint8_t *icc, size_t icc_size,
                       ct_jpeg_output *out);

#endif
