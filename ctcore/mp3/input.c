/*
 * The input is handed to the encoding in pieces of one frame's length, as
 * the lame CLI reads it (get_audio: lame_get_framesize() samples per call;
 * encoder.c cuts them), so that the output does not depend on how the
 * caller splits its samples (the resampler's arithmetic does).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/lame.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#include "input.h"

#include <math.h>

#include "replaygain.h"
#include "resample.h"

/* calcNeeded: the samples mfbuf must hold to encode a frame. */
static int calc_needed(const ct_mp3_config *cfg)
{
    int mf_needed;
    int pcm_samples_per_frame = 576 * cfg->mode_gr;

    mf_needed = BLKSIZE + pcm_samples_per_frame - FFTOFFSET; /* amount needed for FFT */
    if (mf_needed < 512 + pcm_samples_per_frame - 32)
        mf_needed = 512 + pcm_samples_per_frame - 32;
    return mf_needed;
}

/* lame_encode_buffer_sample_t: nsamples of sv_enc.in_buffer_0/1 into mfbuf
 * (resampled when needed), every frame that becomes complete to the
 * graph. */
static int encode_buffer_sample_t(ct_mp3_state *gfc, ct_mp3_graph *graph, int nsamples)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int pcm_samples_per_frame = 576 * cfg->mode_gr;
    int i, ch, mf_needed, ret;
    float *mfbuf[2];
    const float *in_buffer[2];

    if (nsamples == 0)
        return CT_OK;

    /* copy out any tags that may have been written into bitstream (only
     * before the first frame: after one, the frames take the bit stream's
     * bytes with them) */
    if (ct_mp3_graph_frames(graph) == 0) {
        ret = ct_mp3_graph_bitstream_out(graph, 0);
        if (ret != CT_OK)
            return ret;
    }

    in_buffer[0] = esv->in_buffer_0;
    in_buffer[1] = esv->in_buffer_1;

    mf_needed = calc_needed(cfg);

    mfbuf[0] = esv->mfbuf[0];
    mfbuf[1] = esv->mfbuf[1];

    while (nsamples > 0) {
        int n_in = 0;  /* number of input samples processed with fill_buffer */
        int n_out = 0; /* number of samples output with fill_buffer */

        /* copy in new samples into mfbuf, with resampling */
        ct_mp3_fill_buffer(gfc, mfbuf, in_buffer, nsamples, &n_in, &n_out);

        /* compute ReplayGain of resampled input if requested */
        if (cfg->findReplayGain)
            if (!ct_mp3_analyze_samples(&gfc->sv_rpg.rgdata, &gfc->dsp.replaygain,
                                        &mfbuf[0][esv->mf_size],
                                        &mfbuf[1][esv->mf_size], n_out,
                                        cfg->channels_out))
                return CT_EINVAL;

        /* update in_buffer counters */
        nsamples -= n_in;
        in_buffer[0] += n_in;
        if (cfg->channels_out == 2)
            in_buffer[1] += n_in;

        /* update mfbuf[] counters */
        esv->mf_size += n_out;

        /* the flush sets mf_samples_to_encode to 0 */
        if (esv->mf_samples_to_encode < 1) {
            esv->mf_samples_to_encode = ENCDELAY + POSTDELAY;
        }
        esv->mf_samples_to_encode += n_out;

        if (esv->mf_size >= mf_needed) {
            /* encode the frame */
            ret = ct_mp3_graph_dispatch(graph, (const float *const *) mfbuf);
            if (ret != CT_OK)
                return ret;

            /* shift out old samples */
            esv->mf_size -= pcm_samples_per_frame;
            esv->mf_samples_to_encode -= pcm_samples_per_frame;
            for (ch = 0; ch < cfg->channels_out; ch++)
                for (i = 0; i < esv->mf_size; i++)
                    mfbuf[ch][i] = mfbuf[ch][i + pcm_samples_per_frame];
        }
    }
    return CT_OK;
}

int ct_mp3_input_encode(ct_mp3_state *gfc, ct_mp3_graph *graph, const int32_t *pcm,
                        int nsamples)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int const jump = cfg->channels_in;
    const int32_t *bl = pcm;
    const int32_t *br = cfg->channels_in > 1 ? pcm + 1 : pcm;
    /* lame_encode_buffer_int: full scale is +-2^31, the norm a float */
    float const norm = (1.0 / (1L << (8 * sizeof(int32_t) - 16)));
    float m[2][2];
    int i;

    if (nsamples == 0)
        return CT_OK;

    /* lame_copy_inbuffer: apply user defined re-scaling */
    m[0][0] = norm * cfg->pcm_transform[0][0];
    m[0][1] = norm * cfg->pcm_transform[0][1];
    m[1][0] = norm * cfg->pcm_transform[1][0];
    m[1][1] = norm * cfg->pcm_transform[1][1];

    /* the int rounded to float first, as LAME's sample_t xl = *bl */
    for (i = 0; i < nsamples; i++) {
        float const xl = (float) *bl;
        float const xr = (float) *br;
        float const u = xl * m[0][0] + xr * m[0][1];
        float const v = xl * m[1][0] + xr * m[1][1];
        esv->in_buffer_0[i] = u;
        esv->in_buffer_1[i] = v;
        bl += jump;
        br += jump;
    }
    return encode_buffer_sample_t(gfc, graph, nsamples);
}

/* save_gain_values: the ReplayGain of the whole stream, for the tag. */
static void save_gain_values(ct_mp3_state *gfc)
{
    if (gfc->cfg.findReplayGain) {
        float const RadioGain = ct_mp3_get_title_gain(&gfc->sv_rpg.rgdata);
        /* NEQ(RadioGain, GAIN_NOT_ENOUGH_SAMPLES) of machine.h */
        double const a = fabs(RadioGain), b = fabs((double) CT_MP3_GAIN_NOT_ENOUGH_SAMPLES);
        int const eq = a > b ? fabs(RadioGain - CT_MP3_GAIN_NOT_ENOUGH_SAMPLES) <= a * 1e-6f
                             : fabs(RadioGain - CT_MP3_GAIN_NOT_ENOUGH_SAMPLES) <= b * 1e-6f;
        if (!eq) {
            gfc->ov_rpg.RadioGain = (int) floor(RadioGain * 10.0 + 0.5); /* round to nearest */
        }
        else {
            gfc->ov_rpg.RadioGain = 0;
        }
    }
}

int ct_mp3_input_flush(ct_mp3_state *gfc, ct_mp3_graph *graph)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    static const int32_t zeros[2 * 1152];
    int end_padding, frames_left, samples_to_encode, pcm_samples_per_frame, mf_needed;
    double resample_ratio = 1;
    int ret;

    /* Was flush already called? */
    if (esv->mf_samples_to_encode < 1) {
        return CT_OK;
    }
    pcm_samples_per_frame = 576 * cfg->mode_gr;
    mf_needed = calc_needed(cfg);

    samples_to_encode = esv->mf_samples_to_encode - POSTDELAY;

    if (ct_mp3_is_resampling_necessary(cfg)) {
        resample_ratio = (double) cfg->samplerate_in / (double) cfg->samplerate_out;
        /* delay due to resampling; needs to be fixed, if resampling code
         * gets changed */
        samples_to_encode += 16. / resample_ratio;
    }
    end_padding = pcm_samples_per_frame - (samples_to_encode % pcm_samples_per_frame);
    if (end_padding < 576)
        end_padding += pcm_samples_per_frame;
    gfc->ov_enc.encoder_padding = end_padding;

    frames_left = (samples_to_encode + end_padding) / pcm_samples_per_frame;
    while (frames_left > 0) {
        int const frame_num = (int) ct_mp3_graph_frames(graph);
        int bunch = mf_needed - esv->mf_size;

        bunch *= resample_ratio;
        if (bunch > 1152)
            bunch = 1152;
        if (bunch < 1)
            bunch = 1;

        /* send in a frame of 0 padding until all internal sample buffers
         * are flushed */
        ret = ct_mp3_input_encode(gfc, graph, zeros, bunch);
        if (ret != CT_OK)
            return ret;
        {   /* even a single pcm sample can produce several frames */
            int const new_frames = (int) ct_mp3_graph_frames(graph) - frame_num;
            if (new_frames > 0)
                frames_left -= new_frames;
        }
    }
    /* so that a second flush does nothing */
    esv->mf_samples_to_encode = 0;

    save_gain_values(gfc);
    /* every frame's bytes out, then the end of the bit stream */
    return ct_mp3_graph_finish(graph);
}
