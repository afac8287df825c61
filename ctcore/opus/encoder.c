/*
 * The public Opus encoder, ctcore/opus.h: the settings' checks, opusenc's
 * default bitrate and its ctls in opusenc's order, the OpusTags comments
 * as opusenc adds them, the samples converted to float as opus-tools' WAV
 * reader converts them and handed to the stream in pieces of one frame's
 * length at the input rate (as opusenc reads them), and the pages or
 * packets that come out.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from opus-tools 0.2 src/opusenc.c and src/audio-in.c (BSD-2-Clause
 * and BSD-3-Clause, Xiph.Org Foundation and contributors) and libopusenc
 * 0.2.1 (BSD-3-Clause, Xiph.Org Foundation and contributors)
 */
#include "ctcore/opus.h"

#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"
#include "opus/dsp.h"
#include "opus/encoder.h"
#include "opus/header.h"
#include "opus/multistream.h"
#include "opus/stream.h"

#define IMIN(a, b) ((a) < (b) ? (a) : (b))
#define IMAX(a, b) ((a) > (b) ? (a) : (b))

/* opusenc's ENCODER comment in Debian's opus-tools */
#define ENCODER_STRING "opusenc from opus-tools 0.2"

/* A packet of CT_OPUS_OUTPUT_PACKETS waiting to be received. */
typedef struct queued_packet {
    uint8_t *data;
    size_t size;
    int64_t granule;
    int duration;
    int header;
    int eos;
} queued_packet;

struct ct_opus_encoder {
    ct_opus_settings settings; /* comments and options point into the copies */
    char **comments;
    char *encoder_options;
    ct_opus_dsp dsp;
    int bitrate;
    /* the channels coded: settings.channels, or 2 or 1 when opusenc would
     * downmix (matrix, coded_channels x settings.channels, non-NULL) */
    int coded_channels;
    float *matrix;
    int lsb_depth; /* 0 until known */
    ct_ogg_opus_enc *stream;
    ct_opus_graph *graph; /* the frame ring, NULL on the sequential path */
    size_t ring;          /* its slots */
    float *chunk; /* one read of opusenc's: frame_size input frames */
    int chunk_frames;
    int chunk_fill;
    int drained;
    int failed; /* the CT_E* code of a failure, kept until reset */
    int pages_out;
    /* the packets (CT_OPUS_OUTPUT_PACKETS) not yet received */
    queued_packet *queue;
    size_t queue_head, queue_len, queue_cap;
    uint8_t *returned; /* the last received packet's bytes */
    /* OpusHead and OpusTags, as the stream wrote them */
    uint8_t *head;
    size_t head_size;
    uint8_t *tags;
    size_t tags_size;
    int packet_failed;
    char error[256];
};

void ct_opus_settings_default(ct_opus_settings *settings)
{
    memset(settings, 0, sizeof(*settings));
    settings->sample_rate = 48000;
    settings->channels = 2;
    settings->bitrate = 0;
    settings->bitrate_type = CT_OPUS_VBR;
    settings->complexity = 10;
    settings->frame_size = 960;
    settings->signal = CT_OPUS_SIGNAL_AUTO;
    settings->packet_loss_percentage = 0;
    settings->max_delay_ms = 1000;
    settings->serial = 0;
    settings->lsb_depth = 0;
    settings->comment_padding = 512;
    settings->comments = NULL;
    settings->num_comments = 0;
    settings->encoder_options = NULL;
    settings->output = CT_OPUS_OUTPUT_OGG;
    settings->simd = CT_SIMD_AUTO;
}

/* opusenc's --framesize values: the OPUS_FRAMESIZE_* request for a frame
 * size in 48 kHz samples, 0 for any other size. */
static int frame_param(int frame_size)
{
    switch (frame_size) {
    case 120:
        return CT_OPUS_FRAMESIZE_2_5_MS;
    case 240:
        return CT_OPUS_FRAMESIZE_5_MS;
    case 480:
        return CT_OPUS_FRAMESIZE_10_MS;
    case 960:
        return CT_OPUS_FRAMESIZE_20_MS;
    case 1920:
        return CT_OPUS_FRAMESIZE_40_MS;
    case 2880:
        return CT_OPUS_FRAMESIZE_60_MS;
    default:
        return 0;
    }
}

static const char *frame_ms(int frame_size)
{
    switch (frame_size) {
    case 120:
        return "2.5";
    case 240:
        return "5";
    case 480:
        return "10";
    case 1920:
        return "40";
    case 2880:
        return "60";
    default:
        return "20";
    }
}

/* snprintf into buf at *len, the length counted beyond size as
 * snprintf counts it. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
    CT_PRINTF_LIKE(4, 5);

static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (buf && size > 0 && *len < size - 1) {
        size_t room = size - 1 - *len;
        size_t copy = (size_t)n < room ? (size_t)n : room;
        memcpy(buf + *len, tmp, copy);
        buf[*len + copy] = 0;
    }
    *len += (size_t)n;
}

size_t ct_opus_encoder_options(const ct_opus_settings *s, int with_serial,
                               char *buf, size_t size)
{
    size_t len = 0;
    if (buf && size > 0)
        buf[0] = 0;
#define SEP (len ? " " : "")
    if (s->bitrate > 0)
        append(buf, size, &len, "%s--bitrate %g", SEP, s->bitrate / 1000.);
    if (s->bitrate_type == CT_OPUS_CVBR)
        append(buf, size, &len, "%s--cvbr", SEP);
    else if (s->bitrate_type == CT_OPUS_CBR)
        append(buf, size, &len, "%s--hard-cbr", SEP);
    if (s->signal == CT_OPUS_SIGNAL_MUSIC)
        append(buf, size, &len, "%s--music", SEP);
    else if (s->signal == CT_OPUS_SIGNAL_VOICE)
        append(buf, size, &len, "%s--speech", SEP);
    if (s->complexity != 10)
        append(buf, size, &len, "%s--comp %d", SEP, s->complexity);
    if (s->frame_size != 960)
        append(buf, size, &len, "%s--framesize %s", SEP,
               frame_ms(s->frame_size));
    if (s->packet_loss_percentage != 0)
        append(buf, size, &len, "%s--expect-loss %d", SEP,
               s->packet_loss_percentage);
    if (s->max_delay_ms != 1000)
        append(buf, size, &len, "%s--max-delay %d", SEP, s->max_delay_ms);
    if (with_serial)
        append(buf, size, &len, "%s--serial %u", SEP, (unsigned)s->serial);
#undef SEP
    return len;
}

/* opusenc downmixes surround below 16 kb/s per channel: to stereo, or to
 * mono from more than 8 channels */
static int coded_channels(const ct_opus_settings *s)
{
    if (s->channels > 2 && s->bitrate > 0 && s->bitrate < 16000 * s->channels)
        return s->channels > 8 ? 1 : 2;
    return s->channels;
}

/* opusenc's family: 0 for mono and stereo, 1 (Vorbis layouts, surround)
 * up to 8 channels, 255 above */
static int opusenc_family(int channels)
{
    return channels > 8 ? 255 : channels > 2;
}

/* opus-tools audio-in.c setup_downmix: the matrix (out_channels rows of
 * in_channels) for input in Vorbis order, normalised to out_channels */
static float *downmix_matrix(int in_channels, int out_channels)
{
    static const float stupid_matrix[7][8][2] = {
        /*2*/ {{1, 0}, {0, 1}},
        /*3*/ {{1, 0}, {0.7071f, 0.7071f}, {0, 1}},
        /*4*/ {{1, 0}, {0, 1}, {0.866f, 0.5f}, {0.5f, 0.866f}},
        /*5*/
        {{1, 0}, {0.7071f, 0.7071f}, {0, 1}, {0.866f, 0.5f}, {0.5f, 0.866f}},
        /*6*/
        {{1, 0},
         {0.7071f, 0.7071f},
         {0, 1},
         {0.866f, 0.5f},
         {0.5f, 0.866f},
         {0.7071f, 0.7071f}},
        /*7*/
        {{1, 0},
         {0.7071f, 0.7071f},
         {0, 1},
         {0.866f, 0.5f},
         {0.5f, 0.866f},
         {0.6123f, 0.6123f},
         {0.7071f, 0.7071f}},
        /*8*/
        {{1, 0},
         {0.7071f, 0.7071f},
         {0, 1},
         {0.866f, 0.5f},
         {0.5f, 0.866f},
         {0.866f, 0.5f},
         {0.5f, 0.866f},
         {0.7071f, 0.7071f}},
    };
    float sum;
    int i, j;
    float *matrix =
        malloc(sizeof(float) * (size_t)in_channels * (size_t)out_channels);
    if (!matrix)
        return NULL;
    if (out_channels == 1 && in_channels > 8) {
        for (i = 0; i < in_channels; i++)
            matrix[i] = 1.0f / in_channels;
    } else if (out_channels == 2) {
        for (j = 0; j < out_channels; j++)
            for (i = 0; i < in_channels; i++)
                matrix[in_channels * j + i] =
                    stupid_matrix[in_channels - 2][i][j];
    } else {
        for (i = 0; i < in_channels; i++)
            matrix[i] = (stupid_matrix[in_channels - 2][i][0]) +
                        (stupid_matrix[in_channels - 2][i][1]);
    }
    sum = 0;
    for (i = 0; i < in_channels * out_channels; i++)
        sum += matrix[i];
    sum = (float)out_channels / sum;
    for (i = 0; i < in_channels * out_channels; i++)
        matrix[i] *= sum;
    return matrix;
}

static int check_settings(const ct_opus_settings *s, char *errbuf,
                          size_t errbuf_size)
{
    int i;
    if (s->sample_rate < 100 || s->sample_rate > 768000)
        return ct_errbuf_set(
            errbuf, errbuf_size, CT_EINVAL,
            "sample rate %d Hz is not supported (100 .. 768000 Hz, as opusenc)",
            s->sample_rate);
    if (s->channels < 1 || s->channels > 255)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "%d channels are not supported (1 .. 255)",
                             s->channels);
    if (s->bitrate != 0 &&
        (s->bitrate < 500 || s->bitrate > 1024000 * coded_channels(s)))
        return ct_errbuf_set(
            errbuf, errbuf_size, CT_EINVAL,
            "bitrate %d bits/sec is insane (opusenc takes 500 .. %d; 6 to 256 "
            "kbit/s per channel are meaningful)",
            s->bitrate, 1024000 * coded_channels(s));
    if (s->bitrate_type < CT_OPUS_VBR || s->bitrate_type > CT_OPUS_CBR)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "invalid bitrate type %d", (int)s->bitrate_type);
    if (s->complexity < 0 || s->complexity > 10)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "complexity %d is out of range (0 .. 10)",
                             s->complexity);
    if (!frame_param(s->frame_size))
        return ct_errbuf_set(
            errbuf, errbuf_size, CT_EINVAL,
            "frame size %d is not one of 120, 240, 480, 960, 1920, 2880 "
            "samples (2.5 .. 60 ms)",
            s->frame_size);
    if ((int)s->signal < CT_OPUS_SIGNAL_AUTO ||
        (int)s->signal > CT_OPUS_SIGNAL_VOICE)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "invalid signal type %d", (int)s->signal);
    if (s->packet_loss_percentage < 0 || s->packet_loss_percentage > 100)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "expected loss %d%% is out of range (0 .. 100)",
                             s->packet_loss_percentage);
    if (s->max_delay_ms < 0 || s->max_delay_ms > 1000)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "max delay %d ms is out of range (0 .. 1000)",
                             s->max_delay_ms);
    if (s->lsb_depth != 0 && (s->lsb_depth < 8 || s->lsb_depth > 24))
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "lsb depth %d is out of range (8 .. 24, or 0)",
                             s->lsb_depth);
    if (s->comment_padding < 0)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "negative comment padding %d", s->comment_padding);
    if (s->num_comments < 0 || (s->num_comments > 0 && !s->comments))
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "invalid comments (%d, %s)", s->num_comments,
                             s->comments ? "given" : "NULL");
    for (i = 0; i < s->num_comments; i++) {
        /* ope_comments_add_string's check */
        if (!s->comments[i] || !strchr(s->comments[i], '='))
            return ct_errbuf_set(
                errbuf, errbuf_size, CT_EINVAL,
                "comment %d (\"%s\") is not of the form TAG=value", i,
                s->comments[i] ? s->comments[i] : "(null)");
    }
    if (s->output != CT_OPUS_OUTPUT_OGG && s->output != CT_OPUS_OUTPUT_PACKETS)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "invalid output %d", (int)s->output);
    if (s->simd < CT_SIMD_AUTO || s->simd > CT_SIMD_AVX2)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "invalid SIMD level %d", (int)s->simd);
    if (s->frames_in_flight < 0 || s->frames_in_flight > CT_OPUS_MAX_FRAMES_IN_FLIGHT)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL,
                             "frames in flight %d is out of range (0 .. %d)",
                             s->frames_in_flight, CT_OPUS_MAX_FRAMES_IN_FLIGHT);
    return CT_OK;
}

/* opusenc's default: 64 kb/s per stream and 32 more per coupled one, for
 * 48 kHz, lowered by a factor of (rate+16k)/(64k) below 44.1 kHz; what it
 * is given, at most 256 kb/s per (coded) channel. */
static int opusenc_bitrate(const ct_opus_settings *s)
{
    /* The streams of multistream.c's Vorbis layouts, 1 to 8 channels */
    static const unsigned char vorbis_streams[8] = {1, 1, 2, 2, 3, 4, 4, 5};
    static const unsigned char vorbis_coupled[8] = {0, 1, 1, 2, 2, 2, 3, 3};
    int channels = coded_channels(s);
    int nb_streams = channels > 8 ? channels : vorbis_streams[channels - 1];
    int nb_coupled = channels > 8 ? 0 : vorbis_coupled[channels - 1];
    int rate = s->sample_rate;
    int bitrate = s->bitrate;
    if (bitrate <= 0)
        bitrate =
            ((64000 * nb_streams + 32000 * nb_coupled) *
                 (IMIN(48,
                       IMAX(8, ((rate < 44100 ? rate : 48000) + 1000) / 1000)) +
                  16) +
             32) >>
            6;
    return IMIN(channels * 256000, bitrate);
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

static uint8_t *copy_bytes(const uint8_t *p, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    if (c)
        memcpy(c, p, n);
    return c;
}

static void clear_queue(ct_opus_encoder *enc)
{
    size_t i;
    for (i = 0; i < enc->queue_len; i++)
        free(enc->queue[enc->queue_head + i].data);
    enc->queue_head = enc->queue_len = 0;
    free(enc->returned);
    enc->returned = NULL;
}

/* The stream's packet callback: the header packets kept, the packets of
 * CT_OPUS_OUTPUT_PACKETS queued. */
static void on_packet(void *user_data, const uint8_t *packet, int32_t len,
                      int64_t granulepos, int duration, int e_o_s)
{
    ct_opus_encoder *enc = user_data;
    int header = granulepos < 0;
    queued_packet *q;
    if (header && !enc->head) {
        enc->head = copy_bytes(packet, (size_t)len);
        enc->head_size = (size_t)len;
        enc->packet_failed |= !enc->head;
    } else if (header && !enc->tags) {
        enc->tags = copy_bytes(packet, (size_t)len);
        enc->tags_size = (size_t)len;
        enc->packet_failed |= !enc->tags;
    }
    if (enc->settings.output != CT_OPUS_OUTPUT_PACKETS)
        return;
    if (enc->queue_head > 0 &&
        enc->queue_head + enc->queue_len == enc->queue_cap) {
        memmove(enc->queue, enc->queue + enc->queue_head,
                enc->queue_len * sizeof(*q));
        enc->queue_head = 0;
    }
    if (enc->queue_len == enc->queue_cap) {
        size_t cap = enc->queue_cap ? 2 * enc->queue_cap : 16;
        queued_packet *nq = realloc(enc->queue, cap * sizeof(*nq));
        if (!nq) {
            enc->packet_failed = 1;
            return;
        }
        enc->queue = nq;
        enc->queue_cap = cap;
    }
    q = &enc->queue[enc->queue_head + enc->queue_len];
    q->data = copy_bytes(packet, (size_t)len);
    if (!q->data) {
        enc->packet_failed = 1;
        return;
    }
    q->size = (size_t)len;
    q->granule = header ? -1 : granulepos;
    q->duration = header ? 0 : duration;
    q->header = header;
    q->eos = e_o_s;
    enc->queue_len++;
}

static int fail(ct_opus_encoder *enc, int code, const char *fmt, ...)
    CT_PRINTF_LIKE(3, 4);

static int fail(ct_opus_encoder *enc, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_errbuf_vset(enc->error, sizeof(enc->error), code, fmt, ap);
    va_end(ap);
    enc->failed = code;
    return code;
}

/* A CT_OPE_* code of the stream as a CT_E* code, with its message. */
static int stream_failure(ct_opus_encoder *enc, int ret, const char *what)
{
    if (ret == CT_OPE_INTERNAL_ERROR) {
        int64_t granule;
        int codec = ct_opus_ope_encoder_last_codec_error(enc->stream, &granule);
        int frame_size = ct_opus_ope_encoder_frame_size(enc->stream);
        if (codec < 0)
            return fail(enc, CT_EINVAL,
                        "%s: the Opus codec failed with code %d at frame %lld",
                        what, codec, (long long)(granule / frame_size));
        return fail(enc, CT_EINVAL, "%s: internal error", what);
    }
    if (ret == CT_OPE_ALLOC_FAIL)
        return fail(enc, CT_ENOMEM, "%s: out of memory", what);
    if (ret == CT_OPE_TOO_LATE)
        return fail(enc, CT_ESTATE, "%s: too late", what);
    if (ret == CT_OPE_UNIMPLEMENTED)
        return fail(enc, CT_EUNSUPPORTED, "%s: not implemented", what);
    return fail(enc, CT_EINVAL, "%s: invalid argument (%d)", what, ret);
}

/* The codec's ctls' results (CT_OPUS_*) as the stream's (ope_encoder_ctl's
 * translation). */
static int ctl_result(int ret)
{
    if (ret == CT_OPUS_OK)
        return CT_OPE_OK;
    if (ret == CT_OPUS_BAD_ARG)
        return CT_OPE_BAD_ARG;
    if (ret == CT_OPUS_UNIMPLEMENTED)
        return CT_OPE_UNIMPLEMENTED;
    return CT_OPE_INTERNAL_ERROR;
}

/* The comments opusenc adds: ENCODER, the metadata options, then
 * ENCODER_OPTIONS if not empty; the vendor string first. */
static int make_comments(const ct_opus_encoder *enc, char **comment,
                         int *length)
{
    const ct_opus_settings *s = &enc->settings;
    int i;
    ct_opus_comment_init(comment, length, CT_OPUS_VENDOR_STRING);
    if (!*comment)
        return -1;
    if (ct_opus_comment_add(comment, length, "ENCODER", ENCODER_STRING))
        return -1;
    for (i = 0; i < s->num_comments; i++)
        if (ct_opus_comment_add(comment, length, NULL, s->comments[i]))
            return -1;
    if (s->encoder_options && s->encoder_options[0] &&
        ct_opus_comment_add(comment, length, "ENCODER_OPTIONS",
                            s->encoder_options))
        return -1;
    return 0;
}

/* The stream, its ctls in opusenc's order and its header pages. */
static int setup(ct_opus_encoder *enc)
{
    const ct_opus_settings *s = &enc->settings;
    ct_opus_ms_encoder *ms;
    char *comment = NULL;
    int length = 0;
    int ret;

    if (make_comments(enc, &comment, &length)) {
        free(comment);
        return fail(enc, CT_ENOMEM, "out of memory for the comments");
    }
    ret = ct_opus_ope_encoder_create_pull(
        comment, length, s->sample_rate, enc->coded_channels,
        opusenc_family(enc->coded_channels), &enc->dsp, &enc->stream);
    free(comment);
    if (ret != CT_OPE_OK)
        return ret == CT_OPE_ALLOC_FAIL
                   ? fail(enc, CT_ENOMEM, "out of memory")
                   : fail(enc, CT_EINVAL, "cannot create the Opus stream (%d)",
                          ret);
    ct_opus_ope_set_packet_callback(enc->stream, on_packet, enc);
    ms = ct_opus_ope_encoder_codec(enc->stream);

    ret = ct_opus_ope_set_expert_frame_duration(enc->stream,
                                                frame_param(s->frame_size));
    if (ret == CT_OPE_OK)
        ret = ct_opus_ope_set_muxing_delay(enc->stream, s->max_delay_ms * 48);
    if (ret == CT_OPE_OK)
        ret = ct_opus_ope_set_serialno(enc->stream, (int32_t)s->serial);
    if (ret == CT_OPE_OK)
        ret = ct_opus_ope_set_header_gain(enc->stream, 0);
    if (ret == CT_OPE_OK)
        ret = ct_opus_ope_set_comment_padding(enc->stream, s->comment_padding);
    if (ret == CT_OPE_OK)
        ret = ctl_result(ct_opus_ms_encoder_set_bitrate(ms, enc->bitrate));
    if (ret == CT_OPE_OK)
        ret = ctl_result(
            ct_opus_ms_encoder_set_vbr(ms, s->bitrate_type != CT_OPUS_CBR));
    if (ret == CT_OPE_OK && s->bitrate_type != CT_OPUS_CBR)
        ret = ctl_result(ct_opus_ms_encoder_set_vbr_constraint(
            ms, s->bitrate_type == CT_OPUS_CVBR));
    if (ret == CT_OPE_OK)
        ret = ctl_result(ct_opus_ms_encoder_set_signal(
            ms, s->signal == CT_OPUS_SIGNAL_MUSIC   ? CT_OPUS_CODEC_SIGNAL_MUSIC
                : s->signal == CT_OPUS_SIGNAL_VOICE ? CT_OPUS_CODEC_SIGNAL_VOICE
                                                    : CT_OPUS_AUTO));
    if (ret == CT_OPE_OK)
        ret = ctl_result(ct_opus_ms_encoder_set_complexity(ms, s->complexity));
    if (ret == CT_OPE_OK)
        ret = ctl_result(ct_opus_ms_encoder_set_packet_loss_perc(
            ms, s->packet_loss_percentage));
    if (ret == CT_OPE_OK && enc->lsb_depth)
        ret = ctl_result(ct_opus_ms_encoder_set_lsb_depth(ms, enc->lsb_depth));
    if (ret != CT_OPE_OK)
        return stream_failure(enc, ret, "setting up the encoder");
    /* The headers now, as the first write would make them: nothing that
       changes them can come in between. */
    ret = ct_opus_ope_encoder_flush_header(enc->stream);
    if (ret != CT_OPE_OK)
        return stream_failure(enc, ret, "writing the headers");
    if (enc->graph && ct_opus_graph_start(enc->graph, enc->stream) != CT_OPE_OK)
        return fail(enc, CT_ENOMEM, "out of memory for the frame ring");
    if (enc->packet_failed)
        return fail(enc, CT_ENOMEM, "out of memory for the packets");
    return CT_OK;
}

static void teardown(ct_opus_encoder *enc)
{
    if (enc->graph)
        ct_opus_graph_stop(enc->graph);
    ct_opus_ope_encoder_destroy(enc->stream);
    enc->stream = NULL;
    clear_queue(enc);
    free(enc->head);
    free(enc->tags);
    enc->head = enc->tags = NULL;
    enc->head_size = enc->tags_size = 0;
    enc->chunk_fill = 0;
    enc->drained = 0;
    enc->failed = 0;
    enc->pages_out = 0;
    enc->packet_failed = 0;
    enc->lsb_depth = enc->settings.lsb_depth;
    enc->error[0] = 0;
}

int ct_opus_encoder_new(ct_pool *pool, const ct_opus_settings *settings,
                        ct_opus_encoder **encoder, char *errbuf,
                        size_t errbuf_size)
{
    ct_opus_encoder *enc;
    int ret, i;

    *encoder = NULL;
    if (!settings)
        return ct_errbuf_set(errbuf, errbuf_size, CT_EINVAL, "no settings");
    ret = check_settings(settings, errbuf, errbuf_size);
    if (ret != CT_OK)
        return ret;
    enc = calloc(1, sizeof(*enc));
    if (!enc)
        return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
    enc->settings = *settings;
    enc->settings.comments = NULL;
    enc->settings.encoder_options = NULL;
    if (settings->num_comments > 0) {
        enc->comments =
            calloc((size_t)settings->num_comments, sizeof(*enc->comments));
        if (!enc->comments)
            goto nomem;
        for (i = 0; i < settings->num_comments; i++)
            if (!(enc->comments[i] = copy_string(settings->comments[i])))
                goto nomem;
        enc->settings.comments = (const char *const *)enc->comments;
    }
    if (settings->encoder_options) {
        if (!(enc->encoder_options = copy_string(settings->encoder_options)))
            goto nomem;
        enc->settings.encoder_options = enc->encoder_options;
    }
    enc->coded_channels = coded_channels(settings);
    if (enc->coded_channels != settings->channels &&
        !(enc->matrix =
              downmix_matrix(settings->channels, enc->coded_channels)))
        goto nomem;
    enc->chunk_frames = settings->frame_size;
    enc->chunk = malloc(sizeof(float) * (size_t)enc->chunk_frames *
                        (size_t)enc->coded_channels);
    if (!enc->chunk)
        goto nomem;
    ct_opus_dsp_init(&enc->dsp, ct_simd_resolve(settings->simd));
    enc->bitrate = opusenc_bitrate(settings);
    enc->lsb_depth = settings->lsb_depth;
    enc->ring = ct_opus_graph_ring_for(pool, settings->frames_in_flight);
    if (enc->ring && !(enc->graph = ct_opus_graph_new(pool, enc->ring, settings->sample_rate,
                                                      enc->coded_channels)))
        goto nomem;
    ret = setup(enc);
    if (ret != CT_OK) {
        ct_errbuf_set(errbuf, errbuf_size, ret, "%s", enc->error);
        ct_opus_encoder_free(enc);
        return ret;
    }
    *encoder = enc;
    return CT_OK;
nomem:
    ct_opus_encoder_free(enc);
    return ct_errbuf_set(errbuf, errbuf_size, CT_ENOMEM, "out of memory");
}

void ct_opus_encoder_free(ct_opus_encoder *enc)
{
    int i;
    if (!enc)
        return;
    teardown(enc);
    ct_opus_graph_free(enc->graph);
    free(enc->queue);
    if (enc->comments)
        for (i = 0; i < enc->settings.num_comments; i++)
            free(enc->comments[i]);
    free(enc->comments);
    free(enc->encoder_options);
    free(enc->chunk);
    free(enc->matrix);
    free(enc);
}

void ct_opus_reset(ct_opus_encoder *enc)
{
    teardown(enc);
    setup(enc);
}

/* In packet output the pages are not wanted: dropped as they come. */
static void drop_pages(ct_opus_encoder *enc)
{
    unsigned char *page;
    int32_t len;
    if (enc->settings.output != CT_OPUS_OUTPUT_PACKETS)
        return;
    while (ct_opus_ope_encoder_get_page(enc->stream, &page, &len, 0) == 1)
        ;
}

/* One read of opusenc's to the stream. */
static int write_chunk(ct_opus_encoder *enc)
{
    int ret;
    if (!enc->lsb_depth) {
        /* no samples before the drain: opusenc's samplesize default */
        enc->lsb_depth = 16;
        ret = ctl_result(ct_opus_ms_encoder_set_lsb_depth(
            ct_opus_ope_encoder_codec(enc->stream), 16));
        if (ret != CT_OPE_OK)
            return stream_failure(enc, ret, "setting the lsb depth");
    }
    ret = enc->graph ? ct_opus_graph_write_float(enc->graph, enc->chunk, enc->chunk_fill)
                     : ct_opus_ope_encoder_write_float(enc->stream, enc->chunk,
                                                       enc->chunk_fill);
    enc->chunk_fill = 0;
    if (ret != CT_OPE_OK)
        return stream_failure(enc, ret, "encoding");
    if (enc->packet_failed)
        return fail(enc, CT_ENOMEM, "out of memory for the packets");
    drop_pages(enc);
    return CT_OK;
}

static int format_lsb_depth(ct_opus_format format)
{
    switch (format) {
    case CT_OPUS_S16:
        return 16;
    case CT_OPUS_U8:
        return 8;
    default:
        return 24;
    }
}

/* One sample as opus-tools' wav_read and wav_ieee_read convert them. */
static float convert(const void *pcm, ct_opus_format format, size_t i)
{
    switch (format) {
    case CT_OPUS_S16:
        return ((const int16_t *)pcm)[i] / 32768.0f;
    case CT_OPUS_F32:
        return ((const float *)pcm)[i];
    case CT_OPUS_S24: {
        const unsigned char *b = (const unsigned char *)pcm + 3 * i;
        int v = b[2] << 16 | b[1] << 8 | b[0];
        if (v & 0x800000)
            v -= 0x1000000;
        return v / 8388608.0f;
    }
    case CT_OPUS_S32:
        /* opusenc reads no 32-bit integers: full scale as for the others */
        return ((const int32_t *)pcm)[i] / 2147483648.0f;
    default: /* CT_OPUS_U8 */
        return ((int)((const unsigned char *)pcm)[i] - 128) / 128.0f;
    }
}

/* Samples [first, first + n) of pcm into out, converted as convert()
 * does, the format's loop chosen once */
static void convert_block(float *restrict out, const void *pcm,
                          ct_opus_format format, size_t first, size_t n)
{
    size_t k;
    switch (format) {
    case CT_OPUS_S16: {
        const int16_t *in = (const int16_t *)pcm + first;
        for (k = 0; k < n; k++)
            out[k] = in[k] / 32768.0f;
        break;
    }
    case CT_OPUS_F32:
        memcpy(out, (const float *)pcm + first, n * sizeof(*out));
        break;
    default:
        for (k = 0; k < n; k++)
            out[k] = convert(pcm, format, first + k);
        break;
    }
}

/* opus-tools audio-in.c read_downmix: frames [first, first + n) of pcm
 * into the chunk, mixed to the coded channels */
static void downmix(ct_opus_encoder *enc, const void *pcm,
                    ct_opus_format format, size_t first, size_t n)
{
    const int in_ch = enc->settings.channels, out_ch = enc->coded_channels;
    float in[255];
    size_t i;
    int j, k;
    for (i = 0; i < n; i++) {
        float *out = &enc->chunk[(size_t)(enc->chunk_fill + (int)i) * out_ch];
        for (k = 0; k < in_ch; k++)
            in[k] = convert(pcm, format, (first + i) * (size_t)in_ch + k);
        for (j = 0; j < out_ch; j++) {
            float *samp = &out[j];
            *samp = 0;
            for (k = 0; k < in_ch; k++)
                *samp += in[k] * enc->matrix[in_ch * j + k];
        }
    }
}

int ct_opus_send_samples(ct_opus_encoder *enc, const void *pcm,
                         ct_opus_format format, size_t frames)
{
    const int channels = enc->settings.channels;
    size_t done = 0;
    int ret;

    if (enc->failed)
        return enc->failed;
    if (enc->drained)
        return ct_errbuf_set(enc->error, sizeof(enc->error), CT_ESTATE,
                             "samples sent after the drain");
    if (format < CT_OPUS_S16 || format > CT_OPUS_U8)
        return ct_errbuf_set(enc->error, sizeof(enc->error), CT_EINVAL,
                             "invalid sample format %d", (int)format);
    if (!pcm)
        return frames ? ct_errbuf_set(enc->error, sizeof(enc->error), CT_EINVAL,
                                      "no samples (NULL)")
                      : CT_OK;
    if (!enc->lsb_depth) {
        enc->lsb_depth = format_lsb_depth(format);
        ret = ctl_result(ct_opus_ms_encoder_set_lsb_depth(
            ct_opus_ope_encoder_codec(enc->stream), enc->lsb_depth));
        if (ret != CT_OPE_OK)
            return stream_failure(enc, ret, "setting the lsb depth");
    }
    while (done < frames) {
        size_t n = (size_t)(enc->chunk_frames - enc->chunk_fill);
        size_t base = (size_t)enc->chunk_fill * (size_t)channels;
        if (n > frames - done)
            n = frames - done;
        if (enc->matrix)
            downmix(enc, pcm, format, done, n);
        else
            convert_block(enc->chunk + base, pcm, format,
                          done * (size_t)channels, n * (size_t)channels);
        enc->chunk_fill += (int)n;
        done += n;
        if (enc->chunk_fill == enc->chunk_frames &&
            (ret = write_chunk(enc)) != CT_OK)
            return ret;
    }
    return CT_OK;
}

int ct_opus_drain(ct_opus_encoder *enc)
{
    int ret;
    if (enc->failed)
        return enc->failed;
    if (enc->drained)
        return CT_OK;
    /* opusenc's last, short read (empty when the input filled the last) */
    ret = write_chunk(enc);
    if (ret != CT_OK)
        return ret;
    enc->drained = 1;
    ret = enc->graph ? ct_opus_graph_drain(enc->graph) : ct_opus_ope_encoder_drain(enc->stream);
    if (ret != CT_OPE_OK)
        return stream_failure(enc, ret, "draining");
    if (enc->packet_failed)
        return fail(enc, CT_ENOMEM, "out of memory for the packets");
    drop_pages(enc);
    return CT_OK;
}

static int64_t page_granule(const unsigned char *page)
{
    uint64_t g = 0;
    int i;
    for (i = 7; i >= 0; i--)
        g = g << 8 | page[6 + i];
    return (int64_t)g;
}

int ct_opus_receive(ct_opus_encoder *enc, ct_opus_packet *packet)
{
    memset(packet, 0, sizeof(*packet));
    if (enc->failed)
        return enc->failed;
    free(enc->returned);
    enc->returned = NULL;
    if (enc->graph && !enc->drained) {
        int ret = ct_opus_graph_collect(enc->graph);
        if (ret != CT_OPE_OK)
            return stream_failure(enc, ret, "encoding");
        if (enc->packet_failed)
            return fail(enc, CT_ENOMEM, "out of memory for the packets");
        drop_pages(enc);
    }
    if (enc->settings.output == CT_OPUS_OUTPUT_PACKETS) {
        queued_packet *q;
        if (enc->queue_len == 0)
            return enc->drained ? CT_EOF : CT_EAGAIN;
        q = &enc->queue[enc->queue_head++];
        enc->queue_len--;
        if (enc->queue_len == 0)
            enc->queue_head = 0;
        enc->returned = q->data;
        packet->data = q->data;
        packet->size = q->size;
        packet->granule = q->granule;
        packet->duration = q->duration;
        packet->header = q->header;
        packet->eos = q->eos;
        return CT_OK;
    } else {
        unsigned char *page;
        int32_t len;
        int ret = ct_opus_ope_encoder_get_page(enc->stream, &page, &len, 0);
        if (ret < 0)
            return stream_failure(enc, ret, "writing pages");
        if (ret == 0)
            return enc->drained ? CT_EOF : CT_EAGAIN;
        packet->data = page;
        packet->size = (size_t)len;
        packet->header = enc->pages_out < 2;
        packet->granule = packet->header ? -1 : page_granule(page);
        packet->duration = 0;
        packet->eos = (page[5] & 4) != 0;
        enc->pages_out++;
        return CT_OK;
    }
}

void ct_opus_encoder_headers(const ct_opus_encoder *enc, ct_opus_packet *head,
                             ct_opus_packet *tags)
{
    memset(head, 0, sizeof(*head));
    memset(tags, 0, sizeof(*tags));
    head->data = enc->head;
    head->size = enc->head_size;
    head->granule = -1;
    head->header = 1;
    tags->data = enc->tags;
    tags->size = enc->tags_size;
    tags->granule = -1;
    tags->header = 1;
}

int ct_opus_encoder_preskip(const ct_opus_encoder *enc)
{
    return enc->stream ? ct_opus_ope_encoder_preskip(enc->stream) : 0;
}

int ct_opus_encoder_delay(const ct_opus_encoder *enc)
{
    /* on the ring, up to its slots' frames more wait to be coded */
    int64_t ring = (int64_t)enc->ring * enc->settings.frame_size;
    if (!enc->stream)
        return 0;
    return ct_opus_ope_encoder_max_delay(enc->stream) + enc->chunk_frames - 1 +
           (int)((ring * enc->settings.sample_rate + 47999) / 48000);
}

int ct_opus_encoder_bitrate(const ct_opus_encoder *enc)
{
    return enc->bitrate;
}

ct_opus_graph *ct_opus_encoder_graph(ct_opus_encoder *enc)
{
    return enc->graph;
}

const char *ct_opus_encoder_error(const ct_opus_encoder *enc)
{
    return enc->error;
}
