/*
 * The input stage: the encoder's float input into the frame buffer mfbuf,
 * through LAME's FIR resampler (Blackman-windowed sinc) when the output
 * rate differs from the input rate.
 *
 * Carried from call to call: the resampler's time counter itime and the
 * last input samples inbuf_old of each channel, and the filter table
 * (gfc->sv_enc, fill_buffer_resample_init).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/util.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#ifndef CTCORE_MP3_RESAMPLE_H
#define CTCORE_MP3_RESAMPLE_H

#include "state.h"

/* isResamplingNecessary: output rate more than 0.05% off the input rate. */
int ct_mp3_is_resampling_necessary(const ct_mp3_config *cfg);

/* fill_buffer: up to one frame of new samples from in_buffer[ch] (nsamples
 * each) to mfbuf[ch] + sv_enc.mf_size. *n_in: input samples used, *n_out:
 * samples written. */
void ct_mp3_fill_buffer(ct_mp3_state *gfc, float *const mfbuf[2],
                        const float *const in_buffer[2], int nsamples,
                        int *n_in, int *n_out);

#endif
