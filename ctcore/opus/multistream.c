/*
 * The multistream Opus encoder for mapping families 0, 1 and 255: init
 * (the Vorbis layouts), the surround analysis, the per-stream rate
 * allocation, the encode call and the ctls libopusenc forwards; and the
 * encode call split around the streams' tonality analyses (ct).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/opus_multistream_encoder.c and the layout
 * functions of src/opus_multistream.c (BSD-3-Clause, Xiph.Org Foundation
 * and contributors).
 */
#include "multistream.h"

#include <stddef.h>

#include <math.h>
#include <string.h>

#include "analysis.h"
#include "bands.h"
#include "celt_common.h"
#include "celt_signal.h"
#include "energy.h"
#include "mathops.h"
#include "mdct.h"
#include "repacketizer.h"

/* src/opus_multistream_encoder.c VorbisLayout */
typedef struct {
    int nb_streams;
    int nb_coupled_streams;
    unsigned char mapping[8];
} VorbisLayout;

/* Index is nb_channel-1 */
static const VorbisLayout vorbis_mappings[8] = {
    {1, 0, {0}},                      /* 1: mono */
    {1, 1, {0, 1}},                   /* 2: stereo */
    {2, 1, {0, 2, 1}},                /* 3: 1-d surround */
    {2, 2, {0, 1, 2, 3}},             /* 4: quadraphonic surround */
    {3, 2, {0, 4, 1, 2, 3}},          /* 5: 5-channel surround */
    {4, 2, {0, 4, 1, 2, 3, 5}},       /* 6: 5.1 surround */
    {4, 3, {0, 4, 1, 2, 3, 5, 6}},    /* 7: 6.1 surround */
    {5, 3, {0, 6, 1, 2, 3, 4, 5, 7}}, /* 8: 7.1 surround */
};

/* Max size in case the encoder decides to return six frames (6 x 20 ms =
 * 120 ms) */
#define MS_FRAME_TMP (6 * 1275 + 12)

/* The longest frame (120 ms at 48 kHz) */
#define MS_MAX_FRAME_SIZE 5760

/* src/opus_multistream.c validate_layout */
static int validate_layout(const ct_opus_channel_layout *layout)
{
    int i, max_channel;

    max_channel = layout->nb_streams + layout->nb_coupled_streams;
    if (max_channel > 255)
        return 0;
    for (i = 0; i < layout->nb_channels; i++) {
        if (layout->mapping[i] >= max_channel && layout->mapping[i] != 255)
            return 0;
    }
    return 1;
}

/* src/opus_multistream.c get_left_channel */
static int get_left_channel(const ct_opus_channel_layout *layout,
                            int stream_id, int prev)
{
    int i;
    i = (prev < 0) ? 0 : prev + 1;
    for (; i < layout->nb_channels; i++) {
        if (layout->mapping[i] == stream_id * 2)
            return i;
    }
    return -1;
}

/* src/opus_multistream.c get_right_channel */
static int get_right_channel(const ct_opus_channel_layout *layout,
                             int stream_id, int prev)
{
    int i;
    i = (prev < 0) ? 0 : prev + 1;
    for (; i < layout->nb_channels; i++) {
        if (layout->mapping[i] == stream_id * 2 + 1)
            return i;
    }
    return -1;
}

/* src/opus_multistream.c get_mono_channel */
static int get_mono_channel(const ct_opus_channel_layout *layout,
                            int stream_id, int prev)
{
    int i;
    i = (prev < 0) ? 0 : prev + 1;
    for (; i < layout->nb_channels; i++) {
        if (layout->mapping[i] == stream_id + layout->nb_coupled_streams)
            return i;
    }
    return -1;
}

static int validate_encoder_layout(const ct_opus_channel_layout *layout)
{
    int s;
    for (s = 0; s < layout->nb_streams; s++) {
        if (s < layout->nb_coupled_streams) {
            if (get_left_channel(layout, s, -1) == -1)
                return 0;
            if (get_right_channel(layout, s, -1) == -1)
                return 0;
        } else {
            if (get_mono_channel(layout, s, -1) == -1)
                return 0;
        }
    }
    return 1;
}

/* src/opus_multistream_encoder.c channel_pos */
static void channel_pos(int channels, int pos[8])
{
    /* Position in the mix: 0 don't mix, 1: left, 2: center, 3:right */
    if (channels == 4) {
        pos[0] = 1;
        pos[1] = 3;
        pos[2] = 1;
        pos[3] = 3;
    } else if (channels == 3 || channels == 5 || channels == 6) {
        pos[0] = 1;
        pos[1] = 2;
        pos[2] = 3;
        pos[3] = 1;
        pos[4] = 3;
        pos[5] = 0;
    } else if (channels == 7) {
        pos[0] = 1;
        pos[1] = 2;
        pos[2] = 3;
        pos[3] = 1;
        pos[4] = 3;
        pos[5] = 2;
        pos[6] = 0;
    } else if (channels == 8) {
        pos[0] = 1;
        pos[1] = 2;
        pos[2] = 3;
        pos[3] = 1;
        pos[4] = 3;
        pos[5] = 1;
        pos[6] = 3;
        pos[7] = 0;
    }
}

/* Computes a rough approximation of log2(2^a + 2^b) */
static float logSum(float a, float b)
{
    float max;
    float diff;
    float frac;
    /* Only the first 9 entries are set: diff < 8 reads up to [16] */
    static const float diff_table[17] = {
        0.5000000f, 0.2924813f, 0.1609640f, 0.0849625f, 0.0437314f,
        0.0221971f, 0.0111839f, 0.0056136f, 0.0028123f};
    int low;
    if (a > b) {
        max = a;
        diff = a - b;
    } else {
        max = b;
        diff = b - a;
    }
    if (!(diff < 8.f)) /* inverted to catch NaNs */
        return max;
    low = (int)floor(2 * diff);
    frac = 2 * diff - low;
    return max + diff_table[low] +
           frac * (diff_table[low + 1] - diff_table[low]);
}

void ct_opus_surround_analysis(const ct_celt_mode *celt_mode, const void *pcm,
                               float *bandLogE, float *mem, float *preemph_mem,
                               int len, int overlap, int channels, int rate,
                               ct_opus_copy_channel_in_func copy_channel_in,
                               const ct_opus_dsp *dsp)
{
    int c;
    int i;
    int LM;
    int pos[8] = {0};
    int upsample;
    int frame_size;
    int freq_size;
    float channel_offset;
    float bandE[21];
    float maskLogE[3][21];
    /* frame_size + overlap and len are at most 5760 + 120 (120 ms) */
    float in[MS_MAX_FRAME_SIZE + 120];
    float x[MS_MAX_FRAME_SIZE];
    float freq[960];

    upsample = ct_celt_resampling_factor(rate);
    frame_size = len * upsample;
    freq_size = CT_IMIN(960, frame_size);

    /* LM = log2(frame_size / 120) */
    for (LM = 0; LM < celt_mode->maxLM; LM++)
        if (celt_mode->shortMdctSize << LM == frame_size)
            break;

    channel_pos(channels, pos);

    for (c = 0; c < 3; c++)
        for (i = 0; i < 21; i++)
            maskLogE[c][i] = -28.f;

    for (c = 0; c < channels; c++) {
        int frame;
        int nb_frames = frame_size / freq_size;
        float sum;
        memcpy(in, mem + c * overlap, overlap * sizeof(*in));
        (*copy_channel_in)(x, 1, pcm, channels, c, len);
        ct_celt_preemphasis(x, in + overlap, frame_size, 1, upsample,
                            celt_mode->preemph, preemph_mem + c, 0);
        sum = dsp->inner_prod(in, in, frame_size + overlap);
        /* This should filter out both NaNs and ridiculous signals that could
           cause NaNs further down. */
        if (!(sum < 1e18f) || ct_celt_isnan(sum)) {
            memset(in, 0, (frame_size + overlap) * sizeof(*in));
            preemph_mem[c] = 0;
        }
        memset(bandE, 0, sizeof(bandE));
        for (frame = 0; frame < nb_frames; frame++) {
            float tmpE[21];
            ct_clt_mdct_forward(&celt_mode->mdct, in + 960 * frame, freq,
                                celt_mode->window, overlap,
                                celt_mode->maxLM - LM, 1, dsp);
            if (upsample != 1) {
                int bound = freq_size / upsample;
                for (i = 0; i < bound; i++)
                    freq[i] *= upsample;
                for (; i < freq_size; i++)
                    freq[i] = 0;
            }

            ct_celt_compute_band_energies(celt_mode, freq, tmpE, 21, 1, LM,
                                          dsp);
            /* If we have multiple frames, take the max energy. */
            for (i = 0; i < 21; i++)
                bandE[i] = CT_MAX32(bandE[i], tmpE[i]);
        }
        ct_celt_amp2Log2(celt_mode, 21, 21, bandE, bandLogE + 21 * c, 1);
        /* Apply spreading function with -6 dB/band going up and -12 dB/band
         * going down. */
        for (i = 1; i < 21; i++)
            bandLogE[21 * c + i] = CT_MAX16(bandLogE[21 * c + i],
                                            bandLogE[21 * c + i - 1] - 1.f);
        for (i = 19; i >= 0; i--)
            bandLogE[21 * c + i] = CT_MAX16(bandLogE[21 * c + i],
                                            bandLogE[21 * c + i + 1] - 2.f);
        if (pos[c] == 1) {
            for (i = 0; i < 21; i++)
                maskLogE[0][i] = logSum(maskLogE[0][i], bandLogE[21 * c + i]);
        } else if (pos[c] == 3) {
            for (i = 0; i < 21; i++)
                maskLogE[2][i] = logSum(maskLogE[2][i], bandLogE[21 * c + i]);
        } else if (pos[c] == 2) {
            for (i = 0; i < 21; i++) {
                maskLogE[0][i] =
                    logSum(maskLogE[0][i], bandLogE[21 * c + i] - .5f);
                maskLogE[2][i] =
                    logSum(maskLogE[2][i], bandLogE[21 * c + i] - .5f);
            }
        }
        memcpy(mem + c * overlap, in + frame_size, overlap * sizeof(*in));
    }
    for (i = 0; i < 21; i++)
        maskLogE[1][i] = CT_MIN32(maskLogE[0][i], maskLogE[2][i]);
    channel_offset = .5f * ct_celt_log2(2.f / (channels - 1));
    for (c = 0; c < 3; c++)
        for (i = 0; i < 21; i++)
            maskLogE[c][i] += channel_offset;
    for (c = 0; c < channels; c++) {
        float *mask;
        if (pos[c] != 0) {
            mask = &maskLogE[pos[c] - 1][0];
            for (i = 0; i < 21; i++)
                bandLogE[21 * c + i] = bandLogE[21 * c + i] - mask[i];
        } else {
            for (i = 0; i < 21; i++)
                bandLogE[21 * c + i] = 0;
        }
    }
}

/* opus_encoder_ctl's OPUS_SET_LFE and OPUS_SET_ENERGY_MASK (the codec
 * field and its CELT encoder's), which only this file sends */
static void opus_encoder_set_lfe(ct_opus_codec *enc, int value)
{
    enc->lfe = value;
    ct_celt_encoder_set_lfe(&enc->celt_enc, value);
}

static void opus_encoder_set_energy_mask(ct_opus_codec *enc, const float *value)
{
    enc->energy_masking = value;
    ct_celt_encoder_set_energy_mask(&enc->celt_enc, value);
}

static int opus_multistream_encoder_init_impl(
    ct_opus_ms_encoder *st, int32_t Fs, int channels, int streams,
    int coupled_streams, const unsigned char *mapping, int application,
    ct_opus_mapping_type mapping_type, const ct_opus_dsp *dsp)
{
    int i, ret;

    if ((channels > 255) || (channels < 1) || (coupled_streams > streams) ||
        (streams < 1) || (coupled_streams < 0) ||
        (streams > 255 - coupled_streams))
        return CT_OPUS_BAD_ARG;

    st->dsp = dsp;
    st->layout.nb_channels = channels;
    st->layout.nb_streams = streams;
    st->layout.nb_coupled_streams = coupled_streams;
    if (mapping_type != CT_OPUS_MAPPING_TYPE_SURROUND)
        st->lfe_stream = -1;
    st->bitrate_bps = CT_OPUS_AUTO;
    st->application = application;
    st->variable_duration = CT_OPUS_FRAMESIZE_ARG;
    for (i = 0; i < st->layout.nb_channels; i++)
        st->layout.mapping[i] = mapping[i];
    if (!validate_layout(&st->layout))
        return CT_OPUS_BAD_ARG;
    if (mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND &&
        !validate_encoder_layout(&st->layout))
        return CT_OPUS_BAD_ARG;

    for (i = 0; i < st->layout.nb_coupled_streams; i++) {
        ret = ct_opus_encoder_init(&st->streams[i], Fs, 2, application, dsp);
        if (ret != CT_OPUS_OK)
            return ret;
        if (i == st->lfe_stream)
            opus_encoder_set_lfe(&st->streams[i], 1);
    }
    for (; i < st->layout.nb_streams; i++) {
        ret = ct_opus_encoder_init(&st->streams[i], Fs, 1, application, dsp);
        if (i == st->lfe_stream)
            opus_encoder_set_lfe(&st->streams[i], 1);
        if (ret != CT_OPUS_OK)
            return ret;
    }
    if (mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND) {
        memset(st->preemph_mem, 0, channels * sizeof(st->preemph_mem[0]));
        memset(st->window_mem, 0, channels * 120 * sizeof(st->window_mem[0]));
    }
    st->mapping_type = mapping_type;
    return CT_OPUS_OK;
}

int ct_opus_ms_encoder_init(ct_opus_ms_encoder *st, int32_t Fs, int channels,
                            int mapping_family, int *streams,
                            int *coupled_streams, unsigned char *mapping,
                            int application, const ct_opus_dsp *dsp)
{
    ct_opus_mapping_type mapping_type;

    if ((channels > 255) || (channels < 1))
        return CT_OPUS_BAD_ARG;
    st->lfe_stream = -1;
    if (mapping_family == 0) {
        if (channels == 1) {
            *streams = 1;
            *coupled_streams = 0;
            mapping[0] = 0;
        } else if (channels == 2) {
            *streams = 1;
            *coupled_streams = 1;
            mapping[0] = 0;
            mapping[1] = 1;
        } else
            return CT_OPUS_UNIMPLEMENTED;
    } else if (mapping_family == 1 && channels <= 8 && channels >= 1) {
        int i;
        *streams = vorbis_mappings[channels - 1].nb_streams;
        *coupled_streams = vorbis_mappings[channels - 1].nb_coupled_streams;
        for (i = 0; i < channels; i++)
            mapping[i] = vorbis_mappings[channels - 1].mapping[i];
        if (channels >= 6)
            st->lfe_stream = *streams - 1;
    } else if (mapping_family == 255) {
        int i;
        *streams = channels;
        *coupled_streams = 0;
        for (i = 0; i < channels; i++)
            mapping[i] = i;
    } else
        /* Family 2 (ambisonics) and 3 (projection) are not ported:
         * opusenc never asks for them */
        return CT_OPUS_UNIMPLEMENTED;

    if (channels > 2 && mapping_family == 1)
        mapping_type = CT_OPUS_MAPPING_TYPE_SURROUND;
    else
        mapping_type = CT_OPUS_MAPPING_TYPE_NONE;
    return opus_multistream_encoder_init_impl(
        st, Fs, channels, *streams, *coupled_streams, mapping, application,
        mapping_type, dsp);
}

static void surround_rate_allocation(const ct_opus_ms_encoder *st,
                                     int32_t *rate, int frame_size, int32_t Fs)
{
    int i;
    int32_t channel_rate;
    int stream_offset;
    int lfe_offset;
    int coupled_ratio; /* Q8 */
    int lfe_ratio;     /* Q8 */
    int nb_lfe;
    int nb_uncoupled;
    int nb_coupled;
    int nb_normal;
    int32_t channel_offset;
    int32_t bitrate;
    int total;

    nb_lfe = (st->lfe_stream != -1);
    nb_coupled = st->layout.nb_coupled_streams;
    nb_uncoupled = st->layout.nb_streams - nb_coupled - nb_lfe;
    nb_normal = 2 * nb_coupled + nb_uncoupled;

    /* Give each non-LFE channel enough bits per channel for coding band
     * energy. */
    channel_offset = 40 * CT_IMAX(50, Fs / frame_size);

    if (st->bitrate_bps == CT_OPUS_AUTO) {
        bitrate = nb_normal * (channel_offset + Fs + 10000) + 8000 * nb_lfe;
    } else if (st->bitrate_bps == CT_OPUS_BITRATE_MAX) {
        bitrate = nb_normal * 300000 + nb_lfe * 128000;
    } else {
        bitrate = st->bitrate_bps;
    }

    /* Give LFE some basic stream_channel allocation but never exceed 1/20 of
       the total rate for the non-energy part to avoid problems at really low
       rate. */
    lfe_offset = CT_IMIN(bitrate / 20, 3000) + 15 * CT_IMAX(50, Fs / frame_size);

    /* We give each stream (coupled or uncoupled) a starting bitrate.
       This models the main saving of coupled channels over uncoupled. */
    stream_offset = (bitrate - channel_offset * nb_normal -
                     lfe_offset * nb_lfe) /
                    nb_normal / 2;
    stream_offset = CT_IMAX(0, CT_IMIN(20000, stream_offset));

    /* Coupled streams get twice the mono rate after the offset is
     * allocated. */
    coupled_ratio = 512;
    /* Should depend on the bitrate, for now we assume LFE gets 1/8 the bits
     * of mono */
    lfe_ratio = 32;

    total = (nb_uncoupled << 8)         /* mono */
            + coupled_ratio * nb_coupled /* stereo */
            + nb_lfe * lfe_ratio;
    channel_rate = (int32_t)(256 *
                             (int64_t)(bitrate - lfe_offset * nb_lfe -
                                       stream_offset *
                                           (nb_coupled + nb_uncoupled) -
                                       channel_offset * nb_normal) /
                             total);

    for (i = 0; i < st->layout.nb_streams; i++) {
        if (i < st->layout.nb_coupled_streams)
            rate[i] = 2 * channel_offset +
                      CT_IMAX(0, stream_offset +
                                     (channel_rate * coupled_ratio >> 8));
        else if (i != st->lfe_stream)
            rate[i] = channel_offset + CT_IMAX(0, stream_offset + channel_rate);
        else
            rate[i] = CT_IMAX(0, lfe_offset + (channel_rate * lfe_ratio >> 8));
    }
}

static int32_t rate_allocation(const ct_opus_ms_encoder *st, int32_t *rate,
                               int frame_size)
{
    int i;
    int32_t rate_sum = 0;
    int32_t Fs;

    Fs = st->streams[0].Fs;

    /* Ambisonics (family 2, its own allocation) is not ported */
    surround_rate_allocation(st, rate, frame_size, Fs);

    for (i = 0; i < st->layout.nb_streams; i++) {
        rate[i] = CT_IMAX(rate[i], 500);
        rate_sum += rate[i];
    }
    return rate_sum;
}

/* src/opus_multistream_encoder.c opus_copy_channel_in_float, float build */
static void opus_copy_channel_in_float(float *dst, int dst_stride,
                                       const void *src, int src_stride,
                                       int src_channel, int frame_size)
{
    const float *float_src;
    int32_t i;
    float_src = (const float *)src;
    /* ct: the strides of mono and stereo streams known to the compiler,
       which then vectorises the copy */
    if (dst_stride == 1 && src_stride == 1) {
        memcpy(dst, float_src + src_channel, (size_t)frame_size * sizeof(*dst));
        return;
    }
    if (dst_stride == 2 && src_stride == 2) {
        for (i = 0; i < frame_size; i++)
            dst[2 * i] = float_src[2 * i + src_channel];
        return;
    }
    for (i = 0; i < frame_size; i++)
        dst[i * dst_stride] = float_src[i * src_stride + src_channel];
}

/* views (ct): NULL, each stream's analysis reads pcm as in the reference;
 * else it was done ahead (ct_opus_ms_analysis_write) and stream s reads
 * views[s] */
static int opus_multistream_encode_native(
    ct_opus_ms_encoder *st, ct_opus_copy_channel_in_func copy_channel_in,
    const void *pcm, int analysis_frame_size, unsigned char *data,
    int32_t max_data_bytes, int lsb_depth, ct_opus_downmix_func downmix,
    const ct_tonality_view *views, int float_api)
{
    int32_t Fs;
    int s;
    int tot_size;
    float buf[2 * MS_MAX_FRAME_SIZE];
    unsigned char tmp_data[MS_FRAME_TMP];
    ct_opus_repacketizer rp;
    int32_t vbr;
    const ct_celt_mode *celt_mode;
    int32_t bitrates[256];
    float bandLogE[42];
    float bandSMR[21 * CT_OPUS_MS_MAX_CHANNELS];
    float *mem = NULL;
    float *preemph_mem = NULL;
    int frame_size;
    int32_t rate_sum;
    int32_t smallest_packet;

    if (st->mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND) {
        preemph_mem = st->preemph_mem;
        mem = st->window_mem;
    }

    Fs = st->streams[0].Fs;
    vbr = st->streams[0].use_vbr;
    celt_mode = ct_celt_encoder_get_mode(&st->streams[0].celt_enc);

    frame_size =
        ct_opus_frame_size_select(analysis_frame_size, st->variable_duration,
                                  Fs);
    if (frame_size <= 0) {
        return CT_OPUS_BAD_ARG;
    }

    /* Smallest packet the encoder can produce. */
    smallest_packet = st->layout.nb_streams * 2 - 1;
    /* 100 ms needs an extra byte per stream for the ToC. */
    if (Fs / frame_size == 10)
        smallest_packet += st->layout.nb_streams;
    if (max_data_bytes < smallest_packet) {
        return CT_OPUS_BUFFER_TOO_SMALL;
    }

    if (st->mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND) {
        ct_opus_surround_analysis(celt_mode, pcm, bandSMR, mem, preemph_mem,
                                  frame_size, 120, st->layout.nb_channels, Fs,
                                  copy_channel_in, st->dsp);
    }

    /* Compute bitrate allocation between streams (this could be a lot
     * better) */
    rate_sum = rate_allocation(st, bitrates, frame_size);

    if (!vbr) {
        if (st->bitrate_bps == CT_OPUS_AUTO) {
            max_data_bytes =
                CT_IMIN(max_data_bytes, 3 * rate_sum / (3 * 8 * Fs / frame_size));
        } else if (st->bitrate_bps != CT_OPUS_BITRATE_MAX) {
            max_data_bytes = CT_IMIN(
                max_data_bytes,
                CT_IMAX(smallest_packet,
                        3 * st->bitrate_bps / (3 * 8 * Fs / frame_size)));
        }
    }
    for (s = 0; s < st->layout.nb_streams; s++) {
        ct_opus_codec *enc = &st->streams[s];
        ct_opus_encoder_set_bitrate(enc, bitrates[s]);
        if (st->mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND) {
            int32_t equiv_rate;
            equiv_rate = st->bitrate_bps;
            if (frame_size * 50 < Fs)
                equiv_rate -= 60 * (Fs / frame_size - 50) *
                              st->layout.nb_channels;
            if (equiv_rate > 10000 * st->layout.nb_channels)
                ct_opus_encoder_set_bandwidth(enc,
                                              CT_OPUS_BANDWIDTH_FULLBAND);
            else if (equiv_rate > 7000 * st->layout.nb_channels)
                ct_opus_encoder_set_bandwidth(
                    enc, CT_OPUS_BANDWIDTH_SUPERWIDEBAND);
            else if (equiv_rate > 5000 * st->layout.nb_channels)
                ct_opus_encoder_set_bandwidth(enc,
                                              CT_OPUS_BANDWIDTH_WIDEBAND);
            else
                ct_opus_encoder_set_bandwidth(enc,
                                              CT_OPUS_BANDWIDTH_NARROWBAND);
            if (s < st->layout.nb_coupled_streams) {
                /* To preserve the spatial image, force stereo CELT on
                 * coupled streams */
                ct_opus_encoder_set_force_mode(enc, CT_MODE_CELT_ONLY);
                ct_opus_encoder_set_force_channels(enc, 2);
            }
        }
    }

    /* Counting ToC */
    tot_size = 0;
    for (s = 0; s < st->layout.nb_streams; s++) {
        ct_opus_codec *enc;
        int32_t len;
        int curr_max;
        int c1, c2;
        int ret;

        ct_opus_repacketizer_init(&rp);
        enc = &st->streams[s];
        if (s < st->layout.nb_coupled_streams) {
            int i;
            int left, right;
            left = get_left_channel(&st->layout, s, -1);
            right = get_right_channel(&st->layout, s, -1);
            (*copy_channel_in)(buf, 2, pcm, st->layout.nb_channels, left,
                               frame_size);
            (*copy_channel_in)(buf + 1, 2, pcm, st->layout.nb_channels, right,
                               frame_size);
            if (st->mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND) {
                for (i = 0; i < 21; i++) {
                    bandLogE[i] = bandSMR[21 * left + i];
                    bandLogE[21 + i] = bandSMR[21 * right + i];
                }
            }
            c1 = left;
            c2 = right;
        } else {
            int i;
            int chan = get_mono_channel(&st->layout, s, -1);
            (*copy_channel_in)(buf, 1, pcm, st->layout.nb_channels, chan,
                               frame_size);
            if (st->mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND) {
                for (i = 0; i < 21; i++)
                    bandLogE[i] = bandSMR[21 * chan + i];
            }
            c1 = chan;
            c2 = -1;
        }
        if (st->mapping_type == CT_OPUS_MAPPING_TYPE_SURROUND)
            opus_encoder_set_energy_mask(enc, bandLogE);
        /* number of bytes left (+Toc) */
        curr_max = max_data_bytes - tot_size;
        /* Reserve one byte for the last stream and two for the others */
        curr_max -= CT_IMAX(0, 2 * (st->layout.nb_streams - s - 1) - 1);
        /* For 100 ms, reserve an extra byte per stream for the ToC */
        if (Fs / frame_size == 10)
            curr_max -= st->layout.nb_streams - s - 1;
        curr_max = CT_IMIN(curr_max, MS_FRAME_TMP);
        /* Repacketizer will add one or two bytes for self-delimited frames */
        if (s != st->layout.nb_streams - 1)
            curr_max -= curr_max > 253 ? 2 : 1;
        if (!vbr && s == st->layout.nb_streams - 1)
            ct_opus_encoder_set_bitrate(enc, curr_max * (8 * Fs / frame_size));
        len = ct_opus_encode_native(
            enc, buf, frame_size, tmp_data, curr_max, lsb_depth,
            views == NULL ? pcm : NULL, analysis_frame_size, c1, c2,
            st->layout.nb_channels, downmix, views == NULL ? NULL : &views[s],
            float_api);
        if (len < 0) {
            return len;
        }
        /* We need to use the repacketizer to add the self-delimiting lengths
           while taking into account the fact that the encoder can now return
           more than one frame at a time (e.g. 60 ms CELT-only) */
        ret = ct_opus_repacketizer_cat(&rp, tmp_data, len);
        /* If the opus_repacketizer_cat() fails, then something's seriously
           wrong with the encoder. */
        if (ret != CT_OPUS_OK) {
            return CT_OPUS_INTERNAL_ERROR;
        }
        len = ct_opus_repacketizer_out_range_impl(
            &rp, 0, ct_opus_repacketizer_get_nb_frames(&rp), data,
            max_data_bytes - tot_size, s != st->layout.nb_streams - 1,
            !vbr && s == st->layout.nb_streams - 1);
        data += len;
        tot_size += len;
    }
    return tot_size;
}

int ct_opus_ms_encode_float(ct_opus_ms_encoder *st, const float *pcm,
                            int analysis_frame_size, unsigned char *data,
                            int32_t max_data_bytes)
{
    return opus_multistream_encode_native(
        st, opus_copy_channel_in_float, pcm, analysis_frame_size, data,
        max_data_bytes, 24, ct_opus_downmix_float, NULL, 1);
}

void ct_opus_ms_analysis_write(ct_opus_ms_encoder *st,
                               const float *(*pcm_at)(const void *ctx,
                                                      int offset),
                               const void *ctx, int analysis_frame_size,
                               int frame_size, ct_tonality_view *views)
{
    int s;

    /* What opus_multistream_encode_native passes each stream's
     * opus_encode_native (ct_opus_ms_encode_float's lsb_depth and
     * downmix) */
    for (s = 0; s < st->layout.nb_streams; s++) {
        int c1, c2;
        if (s < st->layout.nb_coupled_streams) {
            c1 = get_left_channel(&st->layout, s, -1);
            c2 = get_right_channel(&st->layout, s, -1);
        } else {
            c1 = get_mono_channel(&st->layout, s, -1);
            c2 = -1;
        }
        ct_opus_encoder_analysis_write(
            &st->streams[s], pcm_at, ctx, analysis_frame_size, frame_size, c1,
            c2, st->layout.nb_channels, 24, ct_opus_downmix_float, &views[s]);
    }
}

int ct_opus_ms_encode_float_analysed(ct_opus_ms_encoder *st, const float *pcm,
                                     int analysis_frame_size,
                                     const ct_tonality_view *views,
                                     unsigned char *data,
                                     int32_t max_data_bytes)
{
    return opus_multistream_encode_native(
        st, opus_copy_channel_in_float, pcm, analysis_frame_size, data,
        max_data_bytes, 24, ct_opus_downmix_float, views, 1);
}

void ct_opus_ms_stream_channels(const ct_opus_ms_encoder *st, int s, int *c1,
                                int *c2)
{
    if (s < st->layout.nb_coupled_streams) {
        *c1 = get_left_channel(&st->layout, s, -1);
        *c2 = get_right_channel(&st->layout, s, -1);
    } else {
        *c1 = get_mono_channel(&st->layout, s, -1);
        *c2 = -1;
    }
}

void ct_opus_ms_offer_signal(ct_opus_ms_encoder *st,
                             struct ct_celt_signal_frame *offers, int n)
{
    int s;
    for (s = 0; s < st->layout.nb_streams; s++)
    {
        st->streams[s].celt_enc.signal_offer =
            offers != NULL && s < n ? &offers[s] : NULL;
        st->streams[s].celt_enc.signal_tally =
            offers != NULL && s < n ? &offers[s].tally : NULL;
    }
}

void ct_opus_ms_offer_theta_lane(ct_opus_ms_encoder *st,
                                 struct ct_lane *lane)
{
    int s;
    for (s = 0; s < st->layout.nb_streams; s++)
        st->streams[s].celt_enc.theta_lane = lane;
}

/* The ctls */

int ct_opus_ms_encoder_set_bitrate(ct_opus_ms_encoder *st, int32_t value)
{
    if (value != CT_OPUS_AUTO && value != CT_OPUS_BITRATE_MAX) {
        if (value <= 0)
            return CT_OPUS_BAD_ARG;
        value = CT_IMIN(300000 * st->layout.nb_channels,
                        CT_IMAX(500 * st->layout.nb_channels, value));
    }
    st->bitrate_bps = value;
    return CT_OPUS_OK;
}

/* A request every stream gets, in order, until one fails */
#define FOR_EACH_STREAM(setter)                                                \
    do {                                                                       \
        int s;                                                                 \
        int ret = CT_OPUS_OK;                                                  \
        for (s = 0; s < st->layout.nb_streams; s++) {                          \
            ret = setter(&st->streams[s], value);                              \
            if (ret != CT_OPUS_OK)                                             \
                break;                                                         \
        }                                                                      \
        return ret;                                                            \
    } while (0)

int ct_opus_ms_encoder_set_vbr(ct_opus_ms_encoder *st, int32_t value)
{
    FOR_EACH_STREAM(ct_opus_encoder_set_vbr);
}

int ct_opus_ms_encoder_set_vbr_constraint(ct_opus_ms_encoder *st,
                                          int32_t value)
{
    FOR_EACH_STREAM(ct_opus_encoder_set_vbr_constraint);
}

int ct_opus_ms_encoder_set_complexity(ct_opus_ms_encoder *st, int32_t value)
{
    FOR_EACH_STREAM(ct_opus_encoder_set_complexity);
}

int ct_opus_ms_encoder_set_packet_loss_perc(ct_opus_ms_encoder *st,
                                            int32_t value)
{
    FOR_EACH_STREAM(ct_opus_encoder_set_packet_loss_perc);
}

int ct_opus_ms_encoder_set_lsb_depth(ct_opus_ms_encoder *st, int32_t value)
{
    FOR_EACH_STREAM(ct_opus_encoder_set_lsb_depth);
}

int ct_opus_ms_encoder_set_signal(ct_opus_ms_encoder *st, int32_t value)
{
    FOR_EACH_STREAM(ct_opus_encoder_set_signal);
}

int ct_opus_ms_encoder_set_prediction_disabled(ct_opus_ms_encoder *st,
                                               int32_t value)
{
    FOR_EACH_STREAM(ct_opus_encoder_set_prediction_disabled);
}

int ct_opus_ms_encoder_set_expert_frame_duration(ct_opus_ms_encoder *st,
                                                 int32_t value)
{
    st->variable_duration = value;
    return CT_OPUS_OK;
}

int32_t ct_opus_ms_encoder_get_lookahead(const ct_opus_ms_encoder *st)
{
    return ct_opus_encoder_get_lookahead(&st->streams[0]);
}

int32_t ct_opus_ms_encoder_get_prediction_disabled(
    const ct_opus_ms_encoder *st)
{
    return st->streams[0].silk_mode.reducedDependency;
}

