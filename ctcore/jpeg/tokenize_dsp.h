/*
 * The kernels of the tokenizer, as a table of function pointers chosen
 * once per tokenizer state (like pixel_dsp.h for the pixel phase): a
 * scalar reference (_c, tokenize.c) and SIMD versions (x86/) that give the
 * same bits (tests/checkasm).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_TOKENIZE_DSP_H
#define CTCORE_JPEG_TOKENIZE_DSP_H

#include <stdint.h>

#include <stddef.h>

/*
 * The coefficients of a block that a scan codes, as a bit mask: bit k set
 * iff |block[k]| >= threshold (1 <= threshold <= 1024), for all 64
 * coefficients, so that the tokenizer visits them in order by their set
 * bits rather than by testing all 64. Coefficients of 8-bit JPEG have 12
 * bits, so |v| never overflows int16. The kernel takes n consecutive
 * blocks (64 coefficients each) and writes masks[i] for block i: one call
 * per run of a block row, not per block.
 */
typedef void (*ct_jpeg_magnitude_masks_fn)(const int16_t *blocks, size_t n,
                                           int threshold, uint64_t *masks);

typedef struct ct_jpeg_tokenize_dsp {
    ct_jpeg_magnitude_masks_fn magnitude_masks;
} ct_jpeg_tokenize_dsp;

/* The scalar references, upgraded to the fastest kernels that cpu_flags
 * (common/cpu.h) allow. */
void ct_jpeg_tokenize_dsp_init(ct_jpeg_tokenize_dsp *dsp, unsigned cpu_flags);

void ct_jpeg_magnitude_masks_c(const int16_t *blocks, size_t n, int threshold,
                               uint64_t *masks);
void ct_jpeg_magnitude_masks_sse2(const int16_t *blocks, size_t n,
                                  int threshold, uint64_t *masks);

#endif
