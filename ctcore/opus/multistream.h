/*
 * The multistream Opus encoder (OpusMSEncoder) as libopusenc creates it
 * through opus_multistream_surround_encoder_create: mapping family 0 (one
 * stream, mono or coupled stereo), family 1 (Vorbis channel order, 1 to 8
 * channels; surround for 3 and more: the surround analysis and its energy
 * masks, the LFE stream of 5.1/6.1/7.1, bandwidth and forced stereo CELT
 * per stream) and family 255 (1 to 255 uncoupled streams), the per-stream
 * rate allocation, the channel copy into each stream's encoder and the
 * repacketizer step that joins the streams' self-delimited packets.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/opus_multistream_encoder.c and the
 * ChannelLayout of src/opus_private.h (BSD-3-Clause, Xiph.Org Foundation
 * and contributors).
 */
#ifndef CTCORE_OPUS_MULTISTREAM_H
#define CTCORE_OPUS_MULTISTREAM_H

#include <stdint.h>

#include "codec.h"
#include "dsp.h"
#include "mode.h"

/* Family 255 has one stream per channel, up to 255 */
#define CT_OPUS_MS_MAX_STREAMS  255
#define CT_OPUS_MS_MAX_CHANNELS 255

/* src/opus_private.h ChannelLayout */
typedef struct ct_opus_channel_layout {
    int nb_channels;
    int nb_streams;
    int nb_coupled_streams;
    unsigned char mapping[256];
} ct_opus_channel_layout;

/* src/opus_private.h MappingType */
typedef enum ct_opus_mapping_type {
    CT_OPUS_MAPPING_TYPE_NONE = 0,
    CT_OPUS_MAPPING_TYPE_SURROUND = 1,
    CT_OPUS_MAPPING_TYPE_AMBISONICS = 2,
} ct_opus_mapping_type;

/* src/opus_private.h struct OpusMSEncoder; the encoder states that follow
 * it in libopus' allocation are the array streams (coupled streams
 * first, as there), then the surround analysis' memories (ms_get_window_mem,
 * ms_get_preemph_mem). The streams are sized for 255: only the first
 * layout.nb_streams are ever touched, so a calloc'ed encoder costs the
 * pages of those. */
typedef struct ct_opus_ms_encoder {
    ct_opus_channel_layout layout;
    const ct_opus_dsp *dsp;
    int lfe_stream;
    int application;
    int variable_duration;
    ct_opus_mapping_type mapping_type;
    int32_t bitrate_bps;
    ct_opus_codec streams[CT_OPUS_MS_MAX_STREAMS];
    /* Surround only: the last 120 pre-emphasised samples of each channel
     * (the MDCT overlap) and each channel's pre-emphasis memory */
    float window_mem[CT_OPUS_MS_MAX_CHANNELS * 120];
    float preemph_mem[CT_OPUS_MS_MAX_CHANNELS];
} ct_opus_ms_encoder;

/* src/opus_private.h opus_copy_channel_in_func (without user_data):
 * copies channel src_channel of the interleaved src (src_stride channels)
 * to dst[0], dst[dst_stride], ... */
typedef void (*ct_opus_copy_channel_in_func)(float *dst, int dst_stride,
                                             const void *src, int src_stride,
                                             int src_channel, int frame_size);

/* surround_analysis: each channel's band energies (21 bands, from a
 * 960-sample-or-shorter MDCT of the pre-emphasised channel, the maximum
 * over the 20 ms blocks of a longer frame), spread, minus the mask of its
 * side of the mix (left, centre, right; the LFE gets 0), into
 * bandLogE[21 * channels]: the energy masks the streams' CELT encoders
 * get. mem (channels * overlap) and preemph_mem (channels) carry from
 * frame to frame. */
void ct_opus_surround_analysis(const ct_celt_mode *celt_mode, const void *pcm,
                               float *bandLogE, float *mem, float *preemph_mem,
                               int len, int overlap, int channels, int rate,
                               ct_opus_copy_channel_in_func copy_channel_in,
                               const ct_opus_dsp *dsp);

/* opus_multistream_surround_encoder_init: mapping_family 0 (1 or 2
 * channels), 1 (1 to 8 channels in Vorbis order: L, C, R, RL, RR, LFE...
 * as the Vorbis I specification orders them), 255 (1 to 255); families 2
 * and 3 (ambisonics, projection) give CT_OPUS_UNIMPLEMENTED. Writes the
 * layout to *streams, *coupled_streams and mapping[channels] (for the
 * OpusHead). dsp must outlive st. Returns CT_OPUS_OK or a CT_OPUS_* error. */
int ct_opus_ms_encoder_init(ct_opus_ms_encoder *st, int32_t Fs, int channels,
                            int mapping_family, int *streams,
                            int *coupled_streams, unsigned char *mapping,
                            int application, const ct_opus_dsp *dsp);

/* opus_multistream_encode_float (float build: lsb_depth 24): encodes
 * frame_size_select(analysis_frame_size) samples of pcm (interleaved,
 * layout.nb_channels), the analysis reading all analysis_frame_size of
 * them; libopusenc passes its whole buffer. Returns the packet's length or
 * a negative CT_OPUS_* code. */
int ct_opus_ms_encode_float(ct_opus_ms_encoder *st, const float *pcm,
                            int analysis_frame_size, unsigned char *data,
                            int32_t max_data_bytes);

/*
 * The frame ring's split of ct_opus_ms_encode_float (graph.c): the half of
 * each stream's run_analysis that reads the signal runs ahead in the
 * Analysis node, the rest in Encode, with the bytes of the whole call.
 *
 * ct_opus_ms_analysis_write: for a call of ct_opus_ms_encode_float with
 * analysis_frame_size samples buffered (pcm_at(ctx, offset) gives the
 * interleaved samples from offset on, at least 960 of them contiguous,
 * valid until the next pcm_at) and the frame_size it selects, each
 * stream's tonality_analysis calls as that call makes them (streams whose
 * analysis is off are skipped), then each stream's view of its analysis
 * after them into views[layout.nb_streams] ({0, 0} where skipped).
 * Touches only the streams' analysis writers (analysis.h) and reads only
 * settings: it may run while ct_opus_ms_encode_float_analysed codes an
 * earlier frame, if its calls come in the order of the calls they stand
 * for, no settings change in between (complexity, lsb_depth: ctls and
 * ct_opus_encoder_reset_state wait for the frames in flight) and the
 * oldest view still to be read is at most
 * CT_OPUS_ANALYSIS_HISTORY - CT_OPUS_DETECT_SIZE entries behind the
 * writer (a stream writes an entry per 20 ms of new samples: 3 a call of
 * 60 ms, more only the first call, whose own view counts them).
 */
void ct_opus_ms_analysis_write(ct_opus_ms_encoder *st, const float *(*pcm_at)(const void *ctx,
                                                                               int offset),
                               const void *ctx, int analysis_frame_size, int frame_size,
                               ct_tonality_view *views);
/* ct_opus_ms_encode_float for a call whose analysis ct_opus_ms_analysis_write
 * has done, views its result: reads only frame_size samples of pcm. */
int ct_opus_ms_encode_float_analysed(ct_opus_ms_encoder *st, const float *pcm,
                                     int analysis_frame_size, const ct_tonality_view *views,
                                     unsigned char *data, int32_t max_data_bytes);

/* The channels of pcm stream s reads: c1 (left or mono) and c2 (right;
 * -1 for an uncoupled stream), as opus_multistream_encode_native copies
 * them. */
void ct_opus_ms_stream_channels(const ct_opus_ms_encoder *st, int s, int *c1,
                                int *c2);
/* The frame ring's offer (graph.c, celt_signal.h): until the next offer,
 * the CELT calls of stream s < n get offers[s], the others none; offers
 * NULL: none (ct_opus_ms_encode_float's sequential path never offers). */
void ct_opus_ms_offer_signal(ct_opus_ms_encoder *st,
                             struct ct_celt_signal_frame *offers, int n);
/* The frame ring's helper (graph.c, runtime/lane.h): until the next offer,
 * every stream's CELT theta searches post their round-up trials to `lane`
 * (one stream at a time: the streams are coded in turn); NULL: none. */
void ct_opus_ms_offer_theta_lane(ct_opus_ms_encoder *st,
                                 struct ct_lane *lane);

/* opus_multistream_encoder_ctl's requests that libopusenc and opusenc send
 * (the others are not ported).
 * The per-stream ones go to every stream as there; each returns CT_OPUS_OK
 * or the first stream's error. */
/* OPUS_SET_BITRATE: CT_OPUS_AUTO, CT_OPUS_BITRATE_MAX or > 0 (clamped to
 * 500 .. 300000 per channel); the streams get their share per frame */
int ct_opus_ms_encoder_set_bitrate(ct_opus_ms_encoder *st, int32_t value);
int ct_opus_ms_encoder_set_vbr(ct_opus_ms_encoder *st, int32_t value);
int ct_opus_ms_encoder_set_vbr_constraint(ct_opus_ms_encoder *st,
                                          int32_t value);
int ct_opus_ms_encoder_set_complexity(ct_opus_ms_encoder *st, int32_t value);
int ct_opus_ms_encoder_set_packet_loss_perc(ct_opus_ms_encoder *st,
                                            int32_t value);
int ct_opus_ms_encoder_set_lsb_depth(ct_opus_ms_encoder *st, int32_t value);
int ct_opus_ms_encoder_set_signal(ct_opus_ms_encoder *st, int32_t value);
int ct_opus_ms_encoder_set_prediction_disabled(ct_opus_ms_encoder *st,
                                               int32_t value);
/* The multistream encoder's own (the streams keep CT_OPUS_FRAMESIZE_ARG
 * and get the selected size), unchecked as in libopus */
int ct_opus_ms_encoder_set_expert_frame_duration(ct_opus_ms_encoder *st,
                                                 int32_t value);
/* The first stream's values */
int32_t ct_opus_ms_encoder_get_lookahead(const ct_opus_ms_encoder *st);
int32_t ct_opus_ms_encoder_get_prediction_disabled(
    const ct_opus_ms_encoder *st);

#endif
