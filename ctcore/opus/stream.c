/*
 * libopusenc's OggOpusEnc for the one stream opusenc writes: the pull API
 * (pages wait in the Ogg packer until taken), one EncStream and no
 * chaining (so no keyframes: streams->next is always NULL there), mapping
 * families 0, 1 and 255. The arithmetic of the end of stream (the LPC extension and
 * its window) is libopusenc's, promotions included.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopusenc 0.2.1 src/opusenc.c (BSD-3-Clause, Jean-Marc
 * Valin, Xiph.Org Foundation, Gregory Maxwell; the LPC routines derived
 * from code by Jutta Degener and Carsten Bormann, Technische Universitaet
 * Berlin, freely redistributable with their notice: see the reference)
 */
#include "opus/stream.h"

#include <stdlib.h>
#include <string.h>

#include "opus/header.h"
#include "opus/multistream.h"
#include "opus/ogg.h"
#include "opus/resampler.h"

#define LPC_PADDING 120
#define LPC_ORDER 24
#define LPC_INPUT 480
/* Always equal to 2*cos(M_PI/LPC_PADDING) */
#define LPC_GOERTZEL_CONST 1.99931465f

/* Up to 2 seconds for delayed decision. */
#define MAX_LOOKAHEAD 96000
/* No circular buffer (because of delayed decision): copy seldom. */
#define BUFFER_EXTRA 24000

#define BUFFER_SAMPLES (MAX_LOOKAHEAD + BUFFER_EXTRA)

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct ct_ogg_opus_enc {
    ct_opus_ms_encoder st;
    ct_ogg_packer *oggp;
    int unrecoverable;
    int rate;
    int channels;
    float *buffer;
    int buffer_start;
    int buffer_end;
    ct_resampler re;
    int have_re;
    int frame_size;
    int decision_delay;
    int max_ogg_delay;
    int global_granule_offset;
    int64_t curr_granule;
    int64_t write_granule;
    int64_t last_page_granule;
    int draining;
    int eos_planned; /* ct: the last frame is planned, none follows */
    int frame_size_request;
    float *lpc_buffer;
    ct_ope_packet_func packet_callback;
    void *packet_callback_data;
    ct_opus_header header;
    int comment_padding;
    /* The one EncStream; streams == NULL there once it ended. */
    int stream_open;
    int serialno_is_set;
    int32_t serialno;
    int stream_is_init;
    int packetno;
    char *comment;
    int comment_length;
    int header_is_frozen;
    int64_t end_granule;
    int64_t granule_offset;
    /* what the codec refused (CT_OPE_INTERNAL_ERROR) */
    int codec_error;
    int64_t codec_error_granule;
};

static void extend_signal(float *x, int before, int after, int channels);

static int oe_flush_page(ct_ogg_opus_enc *enc)
{
    /* pull API: the pages wait to be taken */
    ct_ogg_packer_flush_page(enc->oggp);
    return 0;
}

int ct_opus_ope_encoder_create_pull(const char *comment, int comment_length, int32_t rate,
                                    int channels, int family, const ct_opus_dsp *dsp,
                                    ct_ogg_opus_enc **out)
{
    ct_ogg_opus_enc *enc;
    int ret;

    *out = NULL;
    /* libopusenc's families but the ambisonics ones (2, 3) and the
     * deferred init (-1), which opusenc never asks for */
    if (family != 0 && family != 1 && family != 255)
        return family < -1 || family > 255 ? CT_OPE_BAD_ARG : CT_OPE_UNIMPLEMENTED;
    if (channels <= 0 || channels > 255)
        return CT_OPE_BAD_ARG;
    if (rate <= 0)
        return CT_OPE_BAD_ARG;
    if ((enc = calloc(1, sizeof(*enc))) == NULL)
        return CT_OPE_ALLOC_FAIL;
    if ((enc->comment = malloc(comment_length)) == NULL)
        goto fail_alloc;
    memcpy(enc->comment, comment, comment_length);
    enc->comment_length = comment_length;
    enc->stream_open = 1;
    enc->rate = rate;
    enc->channels = channels;
    enc->frame_size = 960;
    /* opusenc always sets it (ope_encoder_create_* leaves it unset) */
    enc->frame_size_request = CT_OPUS_FRAMESIZE_20_MS;
    enc->decision_delay = 96000;
    enc->max_ogg_delay = 48000;
    enc->comment_padding = 512;
    enc->header.version = 1;
    enc->header.channels = channels;
    enc->header.channel_mapping = family;
    enc->header.input_sample_rate = rate;
    enc->header.gain = 0;
    ret = ct_opus_ms_encoder_init(&enc->st, 48000, channels, family, &enc->header.nb_streams,
                                  &enc->header.nb_coupled, enc->header.stream_map,
                                  CT_OPUS_APPLICATION_AUDIO, dsp);
    if (ret != CT_OPUS_OK) {
        if (ret == CT_OPUS_BAD_ARG)
            ret = CT_OPE_BAD_ARG;
        else if (ret == CT_OPUS_UNIMPLEMENTED)
            ret = CT_OPE_UNIMPLEMENTED;
        else
            ret = CT_OPE_INTERNAL_ERROR;
        ct_opus_ope_encoder_destroy(enc);
        return ret;
    }
    ct_opus_ms_encoder_set_expert_frame_duration(&enc->st, CT_OPUS_FRAMESIZE_20_MS);
    if (rate != 48000) {
        if (ct_resampler_init(&enc->re, channels, rate, 48000, 5, dsp) !=
            CT_RESAMPLER_ERR_SUCCESS)
            goto fail_alloc;
        enc->have_re = 1;
        ct_resampler_skip_zeros(&enc->re);
    }
    enc->global_granule_offset = -1;
    if ((enc->buffer = malloc(sizeof(*enc->buffer) * BUFFER_SAMPLES * channels)) == NULL)
        goto fail_alloc;
    if (rate != 48000) {
        /* LPC_PADDING more samples, for the padding in place */
        if ((enc->lpc_buffer =
                 malloc(sizeof(*enc->lpc_buffer) * (LPC_INPUT + LPC_PADDING) * channels)) == NULL)
            goto fail_alloc;
        memset(enc->lpc_buffer, 0, sizeof(*enc->lpc_buffer) * LPC_INPUT * channels);
    }
    *out = enc;
    return CT_OPE_OK;
fail_alloc:
    ct_opus_ope_encoder_destroy(enc);
    return CT_OPE_ALLOC_FAIL;
}

void ct_opus_ope_encoder_destroy(ct_ogg_opus_enc *enc)
{
    if (!enc)
        return;
    free(enc->comment);
    free(enc->buffer);
    ct_ogg_packer_free(enc->oggp);
    if (enc->have_re)
        ct_resampler_destroy(&enc->re);
    free(enc->lpc_buffer);
    free(enc);
}

struct ct_opus_ms_encoder *ct_opus_ope_encoder_codec(ct_ogg_opus_enc *enc)
{
    return &enc->st;
}

static void init_stream(ct_ogg_opus_enc *enc)
{
    if (enc->oggp == NULL) {
        enc->oggp = ct_ogg_packer_new(enc->serialno);
        if (enc->oggp == NULL) {
            enc->unrecoverable = CT_OPE_ALLOC_FAIL;
            return;
        }
        ct_ogg_packer_set_muxing_delay(enc->oggp, enc->max_ogg_delay);
    }
    ct_opus_comment_pad(&enc->comment, &enc->comment_length, enc->comment_padding);
    if (enc->comment == NULL) {
        enc->unrecoverable = CT_OPE_ALLOC_FAIL;
        return;
    }

    /* The preskip at the last minute (when it can no longer change). */
    if (enc->global_granule_offset == -1) {
        enc->header.preskip = ct_opus_ms_encoder_get_lookahead(&enc->st);
        enc->global_granule_offset = enc->header.preskip;
    }
    /* The header packets, a page each */
    {
        int header_size;
        int packet_size;
        unsigned char *p;
        header_size = ct_opus_header_get_size(&enc->header);
        p = ct_ogg_packer_get_packet_buffer(enc->oggp, header_size);
        if (p == NULL) {
            enc->unrecoverable = CT_OPE_ALLOC_FAIL;
            return;
        }
        packet_size = ct_opus_header_to_packet(&enc->header, p, header_size);
        if (enc->packet_callback)
            enc->packet_callback(enc->packet_callback_data, p, packet_size, -1, 0, 0);
        if (ct_ogg_packer_commit_packet(enc->oggp, packet_size, 0, 0)) {
            enc->unrecoverable = CT_OPE_ALLOC_FAIL;
            return;
        }
        oe_flush_page(enc);
        p = ct_ogg_packer_get_packet_buffer(enc->oggp, enc->comment_length);
        if (p == NULL) {
            enc->unrecoverable = CT_OPE_ALLOC_FAIL;
            return;
        }
        memcpy(p, enc->comment, enc->comment_length);
        if (enc->packet_callback)
            enc->packet_callback(enc->packet_callback_data, p, enc->comment_length, -1, 0, 0);
        if (ct_ogg_packer_commit_packet(enc->oggp, enc->comment_length, 0, 0)) {
            enc->unrecoverable = CT_OPE_ALLOC_FAIL;
            return;
        }
        oe_flush_page(enc);
    }
    enc->stream_is_init = 1;
    enc->packetno = 2;
}

static void shift_buffer(ct_ogg_opus_enc *enc)
{
    /* Leaving enough in the buffer to do LPC extension if needed. */
    if (enc->buffer_start > LPC_INPUT) {
        memmove(&enc->buffer[0], &enc->buffer[enc->channels * (enc->buffer_start - LPC_INPUT)],
                enc->channels * (enc->buffer_end - enc->buffer_start + LPC_INPUT) *
                    sizeof(*enc->buffer));
        enc->buffer_end -= enc->buffer_start - LPC_INPUT;
        enc->buffer_start = LPC_INPUT;
    }
}

static int compute_frame_samples(int size_request)
{
    if (size_request <= CT_OPUS_FRAMESIZE_40_MS)
        return 120 << (size_request - CT_OPUS_FRAMESIZE_2_5_MS);
    else
        return (size_request - CT_OPUS_FRAMESIZE_2_5_MS - 2) * 960;
}

int ct_opus_ope_next_frame(ct_ogg_opus_enc *enc, int buffered, ct_ope_frame *frame)
{
    /* Round up when converting the granule pos because the decoder will round down. */
    int64_t end_granule48k =
        (enc->end_granule * 48000 + enc->rate - 1) / enc->rate + enc->global_granule_offset;
    if (enc->unrecoverable || !enc->stream_open || enc->eos_planned ||
        buffered <= enc->frame_size + enc->decision_delay)
        return 0;
    frame->duration_request = 0;
    /* Handle the last packet by making sure not to encode too much padding. */
    if (enc->curr_granule + enc->frame_size >= end_granule48k && enc->draining &&
        enc->frame_size_request > CT_OPUS_FRAMESIZE_20_MS) {
        int min_samples;
        int frame_size_request = CT_OPUS_FRAMESIZE_20_MS;
        /* Minimum frame size required for the current frame to still meet the e_o_s
           condition. */
        min_samples = end_granule48k - enc->curr_granule;
        while (compute_frame_samples(frame_size_request) < min_samples)
            frame_size_request++;
        /* ope_encoder_ctl(OPUS_SET_EXPERT_FRAME_DURATION): the stream's
           half now, the codec's with the frame (ct_opus_ope_code_frame) */
        enc->frame_size = compute_frame_samples(frame_size_request);
        enc->frame_size_request = frame_size_request;
        frame->duration_request = frame_size_request;
    }
    frame->start = enc->curr_granule;
    frame->buffered = buffered;
    frame->frame_size = enc->frame_size;
    enc->curr_granule += enc->frame_size;
    frame->granulepos = enc->curr_granule - enc->granule_offset;
    frame->e_o_s = enc->curr_granule >= end_granule48k;
    if (frame->e_o_s)
        frame->granulepos = end_granule48k - enc->granule_offset;
    enc->eos_planned = frame->e_o_s;
    return 1;
}

int ct_opus_ope_max_packet(const ct_ogg_opus_enc *enc)
{
    return (1277 * 6 + 2) * enc->header.nb_streams;
}

int ct_opus_ope_code_frame(ct_ogg_opus_enc *enc, const float *pcm, const ct_ope_frame *frame,
                           const ct_tonality_view *views, unsigned char *packet)
{
    int32_t pred;
    int nbBytes;
    if (frame->duration_request)
        ct_opus_ms_encoder_set_expert_frame_duration(&enc->st, frame->duration_request);
    pred = ct_opus_ms_encoder_get_prediction_disabled(&enc->st);
    if (views)
        nbBytes = ct_opus_ms_encode_float_analysed(&enc->st, pcm, frame->buffered, views, packet,
                                                   ct_opus_ope_max_packet(enc));
    else
        nbBytes = ct_opus_ms_encode_float(&enc->st, pcm, frame->buffered, packet,
                                          ct_opus_ope_max_packet(enc));
    if (nbBytes >= 0)
        ct_opus_ms_encoder_set_prediction_disabled(&enc->st, pred);
    return nbBytes;
}

unsigned char *ct_opus_ope_packet_buffer(ct_ogg_opus_enc *enc)
{
    unsigned char *packet = ct_ogg_packer_get_packet_buffer(enc->oggp, ct_opus_ope_max_packet(enc));
    if (packet == NULL)
        enc->unrecoverable = CT_OPE_ALLOC_FAIL;
    return packet;
}

void ct_opus_ope_frame_failed(ct_ogg_opus_enc *enc, const ct_ope_frame *frame, int code)
{
    enc->codec_error = code;
    enc->codec_error_granule = frame->start;
    enc->unrecoverable = CT_OPE_INTERNAL_ERROR;
}

int ct_opus_ope_commit_frame(ct_ogg_opus_enc *enc, const ct_ope_frame *frame,
                             const unsigned char *packet, int nbBytes)
{
    if (enc->packet_callback)
        enc->packet_callback(enc->packet_callback_data, packet, nbBytes, frame->granulepos, frame->frame_size, frame->e_o_s);
    if (ct_ogg_packer_commit_packet(enc->oggp, nbBytes, frame->granulepos, frame->e_o_s)) {
        enc->unrecoverable = CT_OPE_ALLOC_FAIL;
        return enc->unrecoverable;
    }
    if (frame->e_o_s) {
        oe_flush_page(enc);
        /* the only stream ended */
        enc->stream_open = 0;
    }
    return CT_OPE_OK;
}

static void encode_buffer(ct_ogg_opus_enc *enc)
{
    ct_ope_frame frame;
    while (ct_opus_ope_next_frame(enc, enc->buffer_end - enc->buffer_start, &frame)) {
        int nbBytes;
        unsigned char *packet = ct_opus_ope_packet_buffer(enc);
        if (packet == NULL)
            return;
        nbBytes = ct_opus_ope_code_frame(enc, &enc->buffer[enc->channels * enc->buffer_start],
                                         &frame, NULL, packet);
        if (nbBytes < 0) {
            ct_opus_ope_frame_failed(enc, &frame, nbBytes);
            return;
        }
        if (ct_opus_ope_commit_frame(enc, &frame, packet, nbBytes) != CT_OPE_OK || frame.e_o_s)
            return;
        enc->buffer_start += frame.frame_size;
    }
    /* If we've reached the end of the buffer, move everything back to the front. */
    if (enc->buffer_end == BUFFER_SAMPLES)
        shift_buffer(enc);
}

int ct_opus_ope_write_begin(ct_ogg_opus_enc *enc, const float *pcm, int samples_per_channel)
{
    int channels = enc->channels;
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (!enc->stream_open)
        return CT_OPE_TOO_LATE;
    enc->header_is_frozen = 1;
    if (!enc->stream_is_init)
        init_stream(enc);
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (samples_per_channel < 0)
        return CT_OPE_BAD_ARG;
    enc->write_granule += samples_per_channel;
    enc->end_granule = enc->write_granule;
    if (enc->lpc_buffer) {
        int i;
        if (samples_per_channel < LPC_INPUT) {
            for (i = 0; i < (LPC_INPUT - samples_per_channel) * channels; i++)
                enc->lpc_buffer[i] = enc->lpc_buffer[samples_per_channel * channels + i];
            for (i = 0; i < samples_per_channel * channels; i++)
                enc->lpc_buffer[(LPC_INPUT - samples_per_channel) * channels + i] = pcm[i];
        } else {
            for (i = 0; i < LPC_INPUT * channels; i++)
                enc->lpc_buffer[i] = pcm[(samples_per_channel - LPC_INPUT) * channels + i];
        }
    }
    return CT_OPE_OK;
}

int ct_opus_ope_encoder_write_float(ct_ogg_opus_enc *enc, const float *pcm,
                                    int samples_per_channel)
{
    int channels = enc->channels;
    int ret = ct_opus_ope_write_begin(enc, pcm, samples_per_channel);
    if (ret != CT_OPE_OK)
        return ret;
    do {
        int i;
        uint32_t in_samples, out_samples;
        out_samples = BUFFER_SAMPLES - enc->buffer_end;
        if (enc->have_re) {
            in_samples = samples_per_channel;
            ct_resampler_process_interleaved_float(&enc->re, pcm, &in_samples,
                                                   &enc->buffer[channels * enc->buffer_end],
                                                   &out_samples);
        } else {
            int curr;
            curr = MIN((uint32_t)samples_per_channel, out_samples);
            for (i = 0; i < channels * curr; i++)
                enc->buffer[channels * enc->buffer_end + i] = pcm[i];
            in_samples = out_samples = curr;
        }
        enc->buffer_end += out_samples;
        pcm += in_samples * channels;
        samples_per_channel -= in_samples;
        encode_buffer(enc);
        if (enc->unrecoverable)
            return enc->unrecoverable;
    } while (samples_per_channel > 0);
    return CT_OPE_OK;
}

int ct_opus_ope_encoder_get_page(ct_ogg_opus_enc *enc, unsigned char **page, int32_t *len,
                                 int flush)
{
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (enc->oggp == NULL)
        return 0;
    if (flush)
        ct_ogg_packer_flush_page(enc->oggp);
    return ct_ogg_packer_get_next_page(enc->oggp, page, len);
}

int ct_opus_ope_drain_begin(ct_ogg_opus_enc *enc, int *pad_samples)
{
    int resampler_drain = 0;
    if (enc->unrecoverable)
        return enc->unrecoverable;
    /* Already drained? */
    if (!enc->stream_open)
        return CT_OPE_TOO_LATE;
    if (enc->have_re)
        resampler_drain = ct_resampler_get_output_latency(&enc->re);
    *pad_samples =
        MAX(LPC_PADDING, enc->global_granule_offset + enc->frame_size + resampler_drain + 1);
    if (!enc->stream_is_init)
        init_stream(enc);
    return enc->unrecoverable;
}

void ct_opus_ope_drain_end(ct_ogg_opus_enc *enc)
{
    enc->decision_delay = 0;
    enc->draining = 1;
}

int ct_opus_ope_encoder_drain(ct_ogg_opus_enc *enc)
{
    int pad_samples;
    int ret = ct_opus_ope_drain_begin(enc, &pad_samples);
    if (ret != CT_OPE_OK)
        return ret;
    shift_buffer(enc);
    if (enc->buffer_end + pad_samples > BUFFER_SAMPLES)
        return CT_OPE_INTERNAL_ERROR;
    memset(&enc->buffer[enc->channels * enc->buffer_end], 0,
           pad_samples * enc->channels * sizeof(enc->buffer[0]));
    if (enc->have_re) {
        uint32_t in_samples, out_samples;
        extend_signal(&enc->lpc_buffer[LPC_INPUT * enc->channels], LPC_INPUT, LPC_PADDING,
                      enc->channels);
        do {
            in_samples = LPC_PADDING;
            out_samples = pad_samples;
            ct_resampler_process_interleaved_float(
                &enc->re, &enc->lpc_buffer[LPC_INPUT * enc->channels], &in_samples,
                &enc->buffer[enc->channels * enc->buffer_end], &out_samples);
            enc->buffer_end += out_samples;
            pad_samples -= out_samples;
            /* If we don't have enough padding, zero all zeros and repeat. */
            memset(&enc->lpc_buffer[LPC_INPUT * enc->channels], 0,
                   LPC_PADDING * enc->channels * sizeof(enc->lpc_buffer[0]));
        } while (pad_samples > 0);
    } else {
        extend_signal(&enc->buffer[enc->channels * enc->buffer_end], enc->buffer_end,
                      LPC_PADDING, enc->channels);
        enc->buffer_end += pad_samples;
    }
    ct_opus_ope_drain_end(enc);
    encode_buffer(enc);
    if (enc->unrecoverable)
        return enc->unrecoverable;
    /* Draining should have completed the stream. */
    if (enc->stream_open)
        return CT_OPE_INTERNAL_ERROR;
    return CT_OPE_OK;
}

int ct_opus_ope_encoder_flush_header(ct_ogg_opus_enc *enc)
{
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (enc->header_is_frozen || enc->stream_is_init)
        return CT_OPE_TOO_LATE;
    init_stream(enc);
    return enc->unrecoverable;
}

int ct_opus_ope_set_muxing_delay(ct_ogg_opus_enc *enc, int32_t value)
{
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (value < 0)
        return CT_OPE_BAD_ARG;
    enc->max_ogg_delay = value;
    if (enc->oggp)
        ct_ogg_packer_set_muxing_delay(enc->oggp, enc->max_ogg_delay);
    return CT_OPE_OK;
}

int ct_opus_ope_set_comment_padding(ct_ogg_opus_enc *enc, int32_t value)
{
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (value < 0)
        return CT_OPE_BAD_ARG;
    enc->comment_padding = value;
    return CT_OPE_OK;
}

int ct_opus_ope_set_serialno(ct_ogg_opus_enc *enc, int32_t value)
{
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (!enc->stream_open || enc->header_is_frozen)
        return CT_OPE_TOO_LATE;
    enc->serialno = value;
    enc->serialno_is_set = 1;
    return CT_OPE_OK;
}

int ct_opus_ope_set_header_gain(ct_ogg_opus_enc *enc, int32_t value)
{
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (!enc->stream_open || enc->header_is_frozen)
        return CT_OPE_TOO_LATE;
    enc->header.gain = value;
    return CT_OPE_OK;
}

int ct_opus_ope_set_expert_frame_duration(ct_ogg_opus_enc *enc, int32_t value)
{
    int ret;
    if (enc->unrecoverable)
        return enc->unrecoverable;
    if (value < CT_OPUS_FRAMESIZE_2_5_MS || value > CT_OPUS_FRAMESIZE_120_MS)
        return CT_OPE_UNIMPLEMENTED;
    ret = ct_opus_ms_encoder_set_expert_frame_duration(&enc->st, value);
    if (ret != CT_OPUS_OK)
        return ret == CT_OPUS_BAD_ARG ? CT_OPE_BAD_ARG : CT_OPE_INTERNAL_ERROR;
    enc->frame_size = compute_frame_samples(value);
    enc->frame_size_request = value;
    return CT_OPE_OK;
}

void ct_opus_ope_set_packet_callback(ct_ogg_opus_enc *enc, ct_ope_packet_func func,
                                     void *user_data)
{
    enc->packet_callback = func;
    enc->packet_callback_data = user_data;
}

int ct_opus_ope_encoder_last_codec_error(const ct_ogg_opus_enc *enc, int64_t *granule)
{
    *granule = enc->codec_error_granule;
    return enc->codec_error;
}

int ct_opus_ope_encoder_preskip(const ct_ogg_opus_enc *enc)
{
    return enc->header.preskip;
}

int ct_opus_ope_encoder_frame_size(const ct_ogg_opus_enc *enc)
{
    return enc->frame_size;
}

int ct_opus_ope_encoder_max_delay(const ct_ogg_opus_enc *enc)
{
    int64_t held = (int64_t)enc->frame_size + enc->decision_delay;
    int64_t in = (held * enc->rate + 47999) / 48000;
    if (enc->have_re)
        in += ct_resampler_get_input_latency(&enc->re);
    return (int)in;
}

const float *ct_opus_ope_lpc_extension(ct_ogg_opus_enc *enc)
{
    extend_signal(&enc->lpc_buffer[LPC_INPUT * enc->channels], LPC_INPUT, LPC_PADDING,
                  enc->channels);
    return &enc->lpc_buffer[LPC_INPUT * enc->channels];
}

void ct_opus_ope_extend_signal(float *x, int before, int after, int channels)
{
    extend_signal(x, before, after, channels);
}

int ct_opus_ope_encoder_open(const ct_ogg_opus_enc *enc)
{
    return enc->stream_open;
}

int ct_opus_ope_encoder_channels(const ct_ogg_opus_enc *enc)
{
    return enc->channels;
}

const ct_resampler *ct_opus_ope_encoder_resampler(const ct_ogg_opus_enc *enc)
{
    return enc->have_re ? &enc->re : NULL;
}

/* Extends x[0..after) (interleaved, `before` samples before it) with the
 * LPC prediction from the last LPC_INPUT samples, windowed. */
static void vorbis_lpc_from_data(float *data, float *lpci, int n, int stride);

static void extend_signal(float *x, int before, int after, int channels)
{
    int c;
    int i;
    float window[LPC_PADDING];
    if (after == 0)
        return;
    before = MIN(before, LPC_INPUT);
    if (before < 4 * LPC_ORDER) {
        for (i = 0; i < after * channels; i++)
            x[i] = 0;
        return;
    }
    {
        /* Generate Window using a resonating IIR aka Goertzel's algorithm. */
        float m0 = 1, m1 = .5 * LPC_GOERTZEL_CONST;
        float a1 = LPC_GOERTZEL_CONST;
        window[0] = 1;
        for (i = 1; i < LPC_PADDING; i++) {
            window[i] = a1 * m0 - m1;
            m1 = m0;
            m0 = window[i];
        }
        for (i = 0; i < LPC_PADDING; i++)
            window[i] = .5 + .5 * window[i];
    }
    for (c = 0; c < channels; c++) {
        float lpc[LPC_ORDER];
        vorbis_lpc_from_data(x - channels * before + c, lpc, before, channels);
        for (i = 0; i < after; i++) {
            float sum;
            int j;
            sum = 0;
            for (j = 0; j < LPC_ORDER; j++)
                sum -= x[(i - j - 1) * channels + c] * lpc[j];
            x[i * channels + c] = sum;
        }
        for (i = 0; i < after; i++)
            x[i * channels + c] *= window[i];
    }
}

/* The autocorrelator and the LPC coefficient estimator of Vorbis. */
static void vorbis_lpc_from_data(float *data, float *lpci, int n, int stride)
{
    double aut[LPC_ORDER + 1];
    double lpc[LPC_ORDER];
    double error;
    double epsilon;
    int i, j;

    /* autocorrelation, p+1 lag coefficients */
    j = LPC_ORDER + 1;
    while (j--) {
        double d = 0; /* double needed for accumulator depth */
        for (i = j; i < n; i++)
            d += (double)data[i * stride] * data[(i - j) * stride];
        aut[j] = d;
    }

    /* Lag windowing (better than bandwidth expansion): a gaussian,
       approximated for low enough order. */
    for (i = 1; i <= LPC_ORDER; i++)
        aut[i] -= aut[i] * (0.008f * 0.008f) * i * i;

    /* Generate lpc coefficients from autocorr values */

    /* set our noise floor to about -100dB */
    error = aut[0] * (1. + 1e-7);
    epsilon = 1e-6 * aut[0] + 1e-7;

    for (i = 0; i < LPC_ORDER; i++) {
        double r = -aut[i + 1];

        if (error < epsilon) {
            memset(lpc + i, 0, (LPC_ORDER - i) * sizeof(*lpc));
            goto done;
        }

        /* This iteration's reflection coefficient */
        for (j = 0; j < i; j++)
            r -= lpc[j] * aut[i - j];
        r /= error;

        /* Update LPC coefficients and total error */
        lpc[i] = r;
        for (j = 0; j < i / 2; j++) {
            double tmp = lpc[j];

            lpc[j] += r * lpc[i - 1 - j];
            lpc[i - 1 - j] += r * tmp;
        }
        if (i & 1)
            lpc[j] += lpc[j] * r;

        error *= 1. - r * r;
    }

done:

    /* slightly damp the filter */
    {
        double g = .999;
        double damp = g;
        for (j = 0; j < LPC_ORDER; j++) {
            lpc[j] *= damp;
            damp *= g;
        }
    }

    for (j = 0; j < LPC_ORDER; j++)
        lpci[j] = (float)lpc[j];
}
