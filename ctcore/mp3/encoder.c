/*
 * The public MP3 encoder: LAME's lame_encode_buffer, lame_encode_flush and
 * lame_get_lametag_frame flow behind ctcore/mp3.h's send/receive API, and
 * the cutting of the byte stream into frames.
 *
 * The input is handed to the encoding in pieces of one frame's length, as
 * the lame CLI reads it (get_audio: lame_get_framesize() samples per call),
 * so that the output does not depend on how the caller splits its samples
 * (the resampler's arithmetic does).
 *
 * With a pool of more than one worker, the frames go through the frame
 * ring of graph.c instead of ct_mp3_encode_frame: this file's input side
 * hands each frame's window to its Dispatch node, and the ring hands the
 * finished frames' bytes back, in order, to the byte FIFO. Otherwise the
 * sequential chain runs on the calling thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/lame.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#include "ctcore/mp3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"
#include "bitstream.h"
#include "config.h"
#include "frame.h"
#include "graph.h"
#include "lametag.h"
#include "replaygain.h"
#include "resample.h"
#include "state.h"
#include "tables.h"

/* The most bytes one call of copy_buffer can hand out: the whole bit
 * stream buffer. */
#define OUT_RESERVE CT_MP3_BUFFER_SIZE
/* The largest frame: 320 kbit/s at 32 kHz, padded (LAME tag frames are no
 * larger). */
#define MAX_FRAME_BYTES 1441

struct ct_mp3_encoder {
    ct_mp3_settings settings;
    ct_mp3_state *gfc;
    ct_mp3_graph *graph;    /* the frame ring, or NULL: the sequential chain */
    int chunk;              /* samples per encode call: the CLI's framesize */
    int16_t *pending;       /* interleaved input waiting for a full chunk */
    int pending_frames;
    unsigned char *out;     /* finished stream bytes not yet cut into packets */
    size_t out_head, out_len, out_cap;
    unsigned char packet[MAX_FRAME_BYTES];
    int64_t audio_frames;   /* audio packets handed out */
    int tag_seen;           /* the LAME tag placeholder was handed out */
    int drained;
    int failed;             /* sticky CT_E* code of an internal failure */
    unsigned char lametag[MAX_FRAME_BYTES];
    size_t lametag_size;
};

void ct_mp3_settings_default(ct_mp3_settings *settings)
{
    memset(settings, 0, sizeof(*settings));
    settings->sample_rate = 44100;
    settings->channels = 2;
    settings->rate_control = CT_MP3_VBR;
    settings->vbr_quality = 4;
    settings->bitrate = 128;
    settings->quality = -1;
    settings->mode = CT_MP3_MODE_DEFAULT;
    settings->replaygain = 1;
    settings->lametag = 1;
    settings->simd = CT_SIMD_AUTO;
}

/* ---- the byte FIFO ------------------------------------------------------ */

/* Room for `need` bytes at the end of the FIFO. */
static int reserve_bytes(ct_mp3_encoder *enc, size_t need)
{
    if (enc->out_head > 0 && enc->out_head == enc->out_len) {
        enc->out_head = enc->out_len = 0;
    }
    if (enc->out_cap - enc->out_len >= need)
        return CT_OK;
    if (enc->out_head > 0) {
        memmove(enc->out, enc->out + enc->out_head, enc->out_len - enc->out_head);
        enc->out_len -= enc->out_head;
        enc->out_head = 0;
        if (enc->out_cap - enc->out_len >= need)
            return CT_OK;
    }
    {
        size_t cap = enc->out_len + 2 * need;
        if (cap < 2 * enc->out_cap) /* a caller that does not receive */
            cap = 2 * enc->out_cap;
        unsigned char *out = realloc(enc->out, cap);
        if (out == NULL)
            return CT_ENOMEM;
        enc->out = out;
        enc->out_cap = cap;
    }
    return CT_OK;
}

/* Room for one copy_buffer at the end of the FIFO. */
static int reserve_out(ct_mp3_encoder *enc)
{
    return reserve_bytes(enc, OUT_RESERVE);
}

/* The state that holds the bit stream: the Encode node's on the ring. */
static ct_mp3_state *bitstream_state(ct_mp3_encoder *enc)
{
    return enc->graph != NULL ? ct_mp3_graph_encode_state(enc->graph) : enc->gfc;
}

static int copy_out(ct_mp3_encoder *enc, int mp3data)
{
    int n;
    int ret = reserve_out(enc);
    if (ret != CT_OK)
        return ret;
    n = ct_mp3_copy_buffer(bitstream_state(enc), enc->out + enc->out_len,
                           (int) (enc->out_cap - enc->out_len), mp3data);
    if (n < 0)
        return CT_EINVAL;
    enc->out_len += (size_t) n;
    return CT_OK;
}

/* The ring's sink: a finished frame's bytes into the FIFO. */
static int append_out(void *ctx, const unsigned char *data, size_t size)
{
    ct_mp3_encoder *enc = ctx;
    int ret = reserve_bytes(enc, size);
    if (ret != CT_OK)
        return ret;
    memcpy(enc->out + enc->out_len, data, size);
    enc->out_len += size;
    return CT_OK;
}

/* Frames encoded, or on the ring dispatched. */
static int frames_started(const ct_mp3_encoder *enc)
{
    return enc->graph != NULL ? (int) ct_mp3_graph_frames(enc->graph)
                              : enc->gfc->ov_enc.frame_number;
}

/* The length of the frame whose header starts at p, 0 if p holds no
 * Layer III header. */
static size_t frame_length(const unsigned char *p)
{
    int id, version, kbps, rate, padding;
    if (p[0] != 0xFF || (p[1] & 0xE0) != 0xE0 || ((p[1] >> 1) & 3) != 1)
        return 0;
    id = (p[1] >> 3) & 3; /* 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5 */
    if (id == 1)
        return 0;
    version = id == 3 ? 1 : (id == 2 ? 0 : 2);
    kbps = ct_mp3_bitrate_table[version][p[2] >> 4];
    rate = ct_mp3_samplerate_table[version][(p[2] >> 2) & 3];
    padding = (p[2] >> 1) & 1;
    if (kbps <= 0 || rate <= 0)
        return 0;
    return (size_t) ((id == 3 ? 144000 : 72000) * kbps / rate + padding);
}

/* ---- lame.c: the encoding of PCM ---------------------------------------- */

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
 * (resampled when needed), encoding every frame that becomes complete. */
static int encode_buffer_sample_t(ct_mp3_encoder *enc, int nsamples)
{
    ct_mp3_state *const gfc = enc->gfc;
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int pcm_samples_per_frame = 576 * cfg->mode_gr;
    int i, ch, mf_needed, ret;
    float *mfbuf[2];
    const float *in_buffer[2];

    if (nsamples == 0)
        return CT_OK;

    /* copy out any tags that may have been written into bitstream (on the
     * ring only before its first frame, while no node touches the bit
     * stream; there is nothing to copy after a frame) */
    if (enc->graph == NULL || ct_mp3_graph_frames(enc->graph) == 0) {
        ret = copy_out(enc, 0);
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

        if (esv->mf_size >= mf_needed && enc->graph != NULL) {
            ret = ct_mp3_graph_dispatch(enc->graph, (const float *const *) mfbuf);
            if (ret != CT_OK)
                return ret;
        }
        else if (esv->mf_size >= mf_needed) {
            int n;
            ret = reserve_out(enc);
            if (ret != CT_OK)
                return ret;
            n = ct_mp3_encode_frame(gfc, mfbuf[0], mfbuf[1], enc->out + enc->out_len,
                                    (int) (enc->out_cap - enc->out_len));
            if (n < 0)
                return CT_EINVAL;
            enc->out_len += (size_t) n;
        }
        if (esv->mf_size >= mf_needed) {
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

/* lame_encode_buffer (16-bit samples): lame_copy_inbuffer's transform
 * (scaling, downmix) into sv_enc.in_buffer_0/1, then the encoding. */
static int encode_buffer(ct_mp3_encoder *enc, const int16_t *pcm, int nsamples)
{
    ct_mp3_state *const gfc = enc->gfc;
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int const jump = cfg->channels_in;
    const int16_t *bl = pcm;
    const int16_t *br = cfg->channels_in > 1 ? pcm + 1 : pcm;
    float m[2][2];
    int i;

    if (nsamples == 0)
        return CT_OK;

    /* apply user defined re-scaling (s = 1.0 for 16-bit input) */
    m[0][0] = 1.0f * cfg->pcm_transform[0][0];
    m[0][1] = 1.0f * cfg->pcm_transform[0][1];
    m[1][0] = 1.0f * cfg->pcm_transform[1][0];
    m[1][1] = 1.0f * cfg->pcm_transform[1][1];

    for (i = 0; i < nsamples; i++) {
        float const xl = *bl;
        float const xr = *br;
        float const u = xl * m[0][0] + xr * m[0][1];
        float const v = xl * m[1][0] + xr * m[1][1];
        esv->in_buffer_0[i] = u;
        esv->in_buffer_1[i] = v;
        bl += jump;
        br += jump;
    }
    return encode_buffer_sample_t(enc, nsamples);
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

/* lame_encode_flush: zeros until every input sample is in a frame, then
 * the end of the bit stream. */
static int encode_flush(ct_mp3_encoder *enc)
{
    ct_mp3_state *const gfc = enc->gfc;
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    static const int16_t zeros[2 * 1152];
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
        int const frame_num = frames_started(enc);
        int bunch = mf_needed - esv->mf_size;

        bunch *= resample_ratio;
        if (bunch > 1152)
            bunch = 1152;
        if (bunch < 1)
            bunch = 1;

        /* send in a frame of 0 padding until all internal sample buffers
         * are flushed */
        ret = encode_buffer(enc, zeros, bunch);
        if (ret != CT_OK)
            return ret;
        {   /* even a single pcm sample can produce several frames */
            int const new_frames = frames_started(enc) - frame_num;
            if (new_frames > 0)
                frames_left -= new_frames;
        }
    }
    /* so that a second flush does nothing */
    esv->mf_samples_to_encode = 0;

    save_gain_values(gfc);
    /* the ring: every frame's bytes out, the Encode state idle and given
     * what the tag reads of the input side */
    if (enc->graph != NULL) {
        ret = ct_mp3_graph_finish(enc->graph);
        if (ret != CT_OK)
            return ret;
    }

    /* mp3 related stuff. bit buffer might still contain some mp3 data */
    ct_mp3_flush_bitstream(bitstream_state(enc));
    return copy_out(enc, 1);
}

/* ---- the public API ----------------------------------------------------- */

static int check_settings(const ct_mp3_settings *s, char *errbuf, size_t errbuf_size)
{
    if (s->sample_rate != 32000 && s->sample_rate != 44100 && s->sample_rate != 48000)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "sample rate %d: not 32000, 44100 or 48000", s->sample_rate);
    if (s->channels != 1 && s->channels != 2)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "%d channels: not 1 or 2",
                             s->channels);
    switch (s->rate_control) {
    case CT_MP3_VBR:
        if (!(s->vbr_quality >= 0 && s->vbr_quality < 10))
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "VBR quality %g: not in 0..9.999", s->vbr_quality);
        break;
    case CT_MP3_CBR:
    case CT_MP3_ABR:
        if (s->bitrate < 8 || s->bitrate > 320)
            return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                                 "bitrate %d kbit/s: not in 8..320", s->bitrate);
        break;
    default:
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "unknown rate control %d",
                             (int) s->rate_control);
    }
    if (s->quality < -1 || s->quality > 9)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "quality %d: not in -1..9",
                             s->quality);
    if ((int) s->mode < CT_MP3_MODE_DEFAULT || (int) s->mode > CT_MP3_MODE_MONO)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "unknown channel mode %d",
                             (int) s->mode);
    return CT_OK;
}

/* lame_init + lame_set_* + lame_init_params, and the encoder's own state. */
static int start_stream(ct_mp3_encoder *enc)
{
    int ret;
    /* no node of the ring may run on the state while it is set up */
    if (enc->graph != NULL)
        ct_mp3_graph_stop(enc->graph);
    memset(enc->gfc, 0, sizeof(*enc->gfc));
    ret = ct_mp3_config_init(enc->gfc, &enc->settings);
    if (ret != CT_OK)
        return ret;
    if (enc->graph != NULL)
        ct_mp3_graph_start(enc->graph);
    enc->chunk = 576 * enc->gfc->cfg.mode_gr;
    enc->pending_frames = 0;
    enc->out_head = enc->out_len = 0;
    enc->audio_frames = 0;
    enc->tag_seen = !enc->gfc->cfg.write_lame_tag;
    enc->drained = 0;
    enc->failed = CT_OK;
    enc->lametag_size = 0;
    return CT_OK;
}

/* ring: the slots of the frame ring, 0 for the default; use_ring: the ring
 * even on one worker. */
static int encoder_new(ct_pool *pool, const ct_mp3_settings *settings, size_t ring,
                       int use_ring, ct_mp3_encoder **encoder, char *errbuf,
                       size_t errbuf_size)
{
    ct_mp3_encoder *enc;
    int ret;

    *encoder = NULL;
    ret = check_settings(settings, errbuf, errbuf_size);
    if (ret != CT_OK)
        return ret;

    enc = calloc(1, sizeof(*enc));
    if (enc == NULL)
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
    enc->settings = *settings;
    enc->gfc = malloc(sizeof(*enc->gfc));
    enc->pending = malloc(sizeof(int16_t) * 2 * 1152);
    if (enc->gfc == NULL || enc->pending == NULL) {
        ct_mp3_encoder_free(enc);
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
    }
    ret = start_stream(enc);
    if (ret != CT_OK) {
        ct_mp3_encoder_free(enc);
        return ct_errbuf_set(errbuf, errbuf_size, ret, "settings refused by LAME's set-up");
    }
    if (use_ring || ct_pool_threads(pool) > 1) {
        enc->graph = ct_mp3_graph_new(pool, enc->gfc, ring, append_out, enc);
        if (enc->graph == NULL) {
            ct_mp3_encoder_free(enc);
            return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
        }
        ct_mp3_graph_start(enc->graph);
    }
    *encoder = enc;
    return CT_OK;
}

int ct_mp3_encoder_new(ct_pool *pool, const ct_mp3_settings *settings,
                       ct_mp3_encoder **encoder, char *errbuf, size_t errbuf_size)
{
    return encoder_new(pool, settings, 0, 0, encoder, errbuf, errbuf_size);
}

int ct_mp3_encoder_new_ring(ct_pool *pool, const ct_mp3_settings *settings, size_t ring,
                            ct_mp3_encoder **encoder, char *errbuf, size_t errbuf_size)
{
    return encoder_new(pool, settings, ring, ring > 0, encoder, errbuf, errbuf_size);
}

ct_mp3_graph *ct_mp3_encoder_graph(ct_mp3_encoder *encoder)
{
    return encoder->graph;
}

void ct_mp3_encoder_free(ct_mp3_encoder *encoder)
{
    if (encoder == NULL)
        return;
    ct_mp3_graph_free(encoder->graph);
    free(encoder->gfc);
    free(encoder->pending);
    free(encoder->out);
    free(encoder);
}

int ct_mp3_send_samples(ct_mp3_encoder *encoder, const int16_t *pcm, size_t frames)
{
    int const channels = encoder->settings.channels;

    if (encoder->failed != CT_OK)
        return encoder->failed;
    if (encoder->drained)
        return CT_ESTATE;
    while (frames > 0) {
        size_t n = (size_t) (encoder->chunk - encoder->pending_frames);
        if (n > frames)
            n = frames;
        memcpy(encoder->pending + (size_t) encoder->pending_frames * channels, pcm,
               n * channels * sizeof(int16_t));
        encoder->pending_frames += (int) n;
        pcm += n * channels;
        frames -= n;
        if (encoder->pending_frames == encoder->chunk) {
            int const ret = encode_buffer(encoder, encoder->pending, encoder->chunk);
            encoder->pending_frames = 0;
            if (ret != CT_OK)
                return encoder->failed = ret;
        }
    }
    return CT_OK;
}

/* On the ring, when the FIFO holds no whole frame: the frames finished,
 * waiting for the oldest when the ring is full. Returns CT_OK when it got
 * some, CT_EAGAIN when none. */
static int pull_frames(ct_mp3_encoder *enc)
{
    size_t in_flight, popped;
    int ret;

    if (enc->graph == NULL || enc->drained)
        return CT_EAGAIN;
    in_flight = ct_mp3_graph_in_flight(enc->graph);
    if (in_flight == 0)
        return CT_EAGAIN;
    ret = ct_mp3_graph_collect(enc->graph, in_flight == ct_mp3_graph_ring(enc->graph),
                               &popped);
    if (ret != CT_OK)
        return enc->failed = ret;
    return popped > 0 ? CT_OK : CT_EAGAIN;
}

int ct_mp3_receive_packet(ct_mp3_encoder *encoder, ct_mp3_packet *packet)
{
    const ct_mp3_config *const cfg = &encoder->gfc->cfg;
    size_t avail;
    const unsigned char *p;
    size_t len = 0;

    if (encoder->failed != CT_OK)
        return encoder->failed;
    for (;;) {
        int ret;
        avail = encoder->out_len - encoder->out_head;
        p = encoder->out + encoder->out_head;
        if (avail >= 4) {
            len = frame_length(p);
            if (len == 0 || len > MAX_FRAME_BYTES)
                return encoder->failed = CT_EINVAL;
            if (avail >= len)
                break;
        }
        ret = pull_frames(encoder);
        if (ret == CT_OK)
            continue;
        if (ret != CT_EAGAIN)
            return ret;
        if (avail < 4)
            return encoder->drained && avail == 0 ? CT_EOF
                                                  : (encoder->drained ? CT_EINVAL : CT_EAGAIN);
        return encoder->drained ? (encoder->failed = CT_EINVAL) : CT_EAGAIN;
    }

    memcpy(encoder->packet, p, len);
    encoder->out_head += len;
    packet->data = encoder->packet;
    packet->size = len;
    if (!encoder->tag_seen) {
        /* the LAME tag's placeholder: no audio */
        encoder->tag_seen = 1;
        packet->first_sample = 0;
        packet->num_samples = 0;
    }
    else {
        int const framesize = 576 * cfg->mode_gr;
        packet->first_sample =
            encoder->audio_frames * framesize * cfg->samplerate_in / cfg->samplerate_out;
        packet->num_samples = framesize;
        encoder->audio_frames++;
    }
    return CT_OK;
}

int ct_mp3_drain(ct_mp3_encoder *encoder)
{
    int ret;
    if (encoder->failed != CT_OK)
        return encoder->failed;
    if (encoder->drained)
        return CT_OK;
    ret = encode_buffer(encoder, encoder->pending, encoder->pending_frames);
    encoder->pending_frames = 0;
    if (ret == CT_OK)
        ret = encode_flush(encoder);
    if (ret != CT_OK)
        return encoder->failed = ret;
    if (encoder->gfc->cfg.write_lame_tag) {
        encoder->lametag_size = ct_mp3_get_lametag_frame(bitstream_state(encoder),
                                                         encoder->lametag,
                                                         sizeof(encoder->lametag));
        if (encoder->lametag_size > sizeof(encoder->lametag))
            return encoder->failed = CT_EINVAL;
    }
    encoder->drained = 1;
    return CT_OK;
}

int ct_mp3_lametag(ct_mp3_encoder *encoder, ct_mp3_packet *packet)
{
    if (!encoder->drained || encoder->out_head != encoder->out_len)
        return CT_ESTATE;
    if (encoder->lametag_size == 0)
        return CT_EUNSUPPORTED;
    packet->data = encoder->lametag;
    packet->size = encoder->lametag_size;
    packet->first_sample = 0;
    packet->num_samples = 0;
    return CT_OK;
}

void ct_mp3_reset(ct_mp3_encoder *encoder)
{
    /* the settings were accepted once: the set-up cannot fail again */
    encoder->failed = start_stream(encoder);
}

int ct_mp3_encoder_delay(const ct_mp3_encoder *encoder)
{
    return encoder->gfc->ov_enc.encoder_delay;
}

int ct_mp3_output_rate(const ct_mp3_encoder *encoder)
{
    return encoder->gfc->cfg.samplerate_out;
}

int ct_mp3_encoder_ring_frames(const ct_mp3_encoder *encoder)
{
    return encoder->graph != NULL ? (int) ct_mp3_graph_ring(encoder->graph) : 0;
}
