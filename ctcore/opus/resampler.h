/*
 * The speex resampler as libopusenc builds it (float, quality 5 as it asks
 * for, RESAMPLE_FULL_SINC_TABLE: always the direct sinc table, whatever
 * the ratio): the input at any rate to 48 kHz. The filter's dot product is
 * the kernel table's resampler_inner_product (the SSE 4-lane sums in
 * Debian's build).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopusenc 0.2.1 src/resample.c (BSD-3-Clause, Jean-Marc
 * Valin, Thorvald Natvig, Xiph.Org Foundation and contributors)
 */
#ifndef CTCORE_OPUS_RESAMPLER_H
#define CTCORE_OPUS_RESAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "opus/dsp.h"

/* As many as Opus has (mapping family 255) */
#define CT_RESAMPLER_MAX_CHANNELS 255

/* speex_resampler.h's RESAMPLER_ERR_* */
enum {
    CT_RESAMPLER_ERR_SUCCESS = 0,
    CT_RESAMPLER_ERR_ALLOC_FAILED = 1,
    CT_RESAMPLER_ERR_BAD_STATE = 2,
    CT_RESAMPLER_ERR_INVALID_ARG = 3,
    CT_RESAMPLER_ERR_PTR_OVERLAP = 4,
    CT_RESAMPLER_ERR_OVERFLOW = 5,
};

/* SpeexResamplerState_; the per-channel arrays are fixed, mem and
 * sinc_table are allocated (the table holds filt_len * den_rate floats:
 * 12800 for 44.1 kHz, several MB for odd rates). */
typedef struct ct_resampler {
    uint32_t in_rate;
    uint32_t out_rate;
    uint32_t num_rate;
    uint32_t den_rate;

    int quality;
    uint32_t nb_channels;
    uint32_t filt_len;
    uint32_t mem_alloc_size;
    uint32_t buffer_size;
    int int_advance;
    int frac_advance;
    float cutoff;
    uint32_t oversample;
    int initialised;
    int started;

    int32_t last_sample[CT_RESAMPLER_MAX_CHANNELS];
    uint32_t samp_frac_num[CT_RESAMPLER_MAX_CHANNELS];
    uint32_t magic_samples[CT_RESAMPLER_MAX_CHANNELS];

    float *mem;
    float *sinc_table;
    uint32_t sinc_table_length;
    /* 0 after a failed allocation: resampler_basic_zero, else the direct
       single-precision filter (the only one quality 5 uses) */
    int filter_ok;

    int in_stride;
    int out_stride;

    const ct_opus_dsp *dsp;
} ct_resampler;

/* speex_resampler_init into *st (nothing allocated on failure): returns
 * CT_RESAMPLER_ERR_*. nb_channels 1 .. CT_RESAMPLER_MAX_CHANNELS. */
int ct_resampler_init(ct_resampler *st, uint32_t nb_channels, uint32_t in_rate,
                      uint32_t out_rate, int quality, const ct_opus_dsp *dsp);
/* speex_resampler_destroy: frees mem and the sinc table (st itself is the
 * caller's); a zeroed or destroyed st is fine. */
void ct_resampler_destroy(ct_resampler *st);
int ct_resampler_process_float(ct_resampler *st, uint32_t channel_index, const float *in,
                               uint32_t *in_len, float *out, uint32_t *out_len);
/* in may be NULL (zeros). */
int ct_resampler_process_interleaved_float(ct_resampler *st, const float *in, uint32_t *in_len,
                                           float *out, uint32_t *out_len);
/*
 * The frame ring's resampler (ct, graph.c): the outputs of one channel of
 * the stream that ct_resampler_init and ct_resampler_skip_zeros start,
 * each computed from its position alone, bit for bit the value the stream
 * gives it (the same sinc row, the same input, the same dot product), so
 * that blocks can be computed on any worker in any order.
 *
 * The channel's input is read as ext: filt_len - 1 zeros (the filter
 * memory the stream starts with), then the samples; output j (0: the first
 * the stream gives) reads ext[ct_resampler_input_start(st, j) ..
 * + filt_len).
 */
int64_t ct_resampler_input_start(const ct_resampler *st, int64_t j);
/* The outputs the stream has given once it has taken n_in input samples
 * (it gives each as soon as its input is there). */
int64_t ct_resampler_outputs(const ct_resampler *st, int64_t n_in);
/* Outputs [first, first + count) into out[0], out[out_stride], ...:
 * ext_ring holds ext as a ring of ring_len samples (ext[t] at
 * ext_ring[t % ring_len]) followed by filt_len - 1 samples that repeat its
 * first ones, so that every output's input is contiguous. st is as
 * ct_resampler_init made it (successfully): only read. */
void ct_resampler_block(const ct_resampler *st, const float *ext_ring, size_t ring_len,
                        int64_t first, int count, float *out, int out_stride);

int ct_resampler_get_input_latency(const ct_resampler *st);
int ct_resampler_get_output_latency(const ct_resampler *st);
int ct_resampler_skip_zeros(ct_resampler *st);

#endif
