/*
 * The Opus encoder of one stream: opus_encoder_init, its ctls and
 * opus_encode_native of the float build (CELT, SILK and Hybrid frames);
 * and the writer half of its tonality analysis, which may run ahead.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/opus_encoder.c and celt/float_cast.h's
 * FLOAT2INT16 (BSD-3-Clause, Xiph.Org Foundation and contributors).
 */
#include "codec.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "celt_signal.h"
#include "mathops.h"
#include "opus/silk/silk.h"
#include "range_enc.h"
#include "repacketizer.h"

#define PSEUDO_SNR_THRESHOLD 316.23f /* 10^(25/10) */

/* celt/float_cast.h FLOAT2INT16: float2int is cvtss2si on x86 (gcc with
 * SSE), rounding to nearest even */
static int16_t FLOAT2INT16(float x)
{
    x = x * CT_CELT_SIG_SCALE;
    x = CT_MAX32(x, -32768);
    x = CT_MIN32(x, 32767);
    return (int16_t)silk_float2int(x);
}

/* Transition tables for the voice and music. First column is the
   middle (memoriless) threshold. The second column is the hysteresis
   (difference with the middle) */
static const int32_t mono_voice_bandwidth_thresholds[8] = {
    9000,  700,  /* NB<->MB */
    9000,  700,  /* MB<->WB */
    13500, 1000, /* WB<->SWB */
    14000, 2000, /* SWB<->FB */
};
static const int32_t mono_music_bandwidth_thresholds[8] = {
    9000,  700,  /* NB<->MB */
    9000,  700,  /* MB<->WB */
    11000, 1000, /* WB<->SWB */
    12000, 2000, /* SWB<->FB */
};
static const int32_t stereo_voice_bandwidth_thresholds[8] = {
    9000,  700,  /* NB<->MB */
    9000,  700,  /* MB<->WB */
    13500, 1000, /* WB<->SWB */
    14000, 2000, /* SWB<->FB */
};
static const int32_t stereo_music_bandwidth_thresholds[8] = {
    9000,  700,  /* NB<->MB */
    9000,  700,  /* MB<->WB */
    11000, 1000, /* WB<->SWB */
    12000, 2000, /* SWB<->FB */
};
/* Threshold bit-rates for switching between mono and stereo */
static const int32_t stereo_voice_threshold = 19000;
static const int32_t stereo_music_threshold = 17000;

/* Threshold bit-rate for switching between SILK/hybrid and CELT-only */
static const int32_t mode_thresholds[2][2] = {
    /* voice */ /* music */
    {64000, 10000}, /* mono */
    {44000, 10000}, /* stereo */
};

static const int32_t fec_thresholds[] = {
    12000, 1000, /* NB */
    14000, 1000, /* MB */
    16000, 1000, /* WB */
    20000, 1000, /* SWB */
    22000, 1000, /* FB */
};

/* The largest frame opus_encode_native codes in one piece (60 ms SILK at
 * 48 kHz) and its delay compensation */
#define MAX_FRAME_SIZE (3 * 48000 / 50)
#define MAX_DELAY_COMP (48000 / 250)

int ct_opus_encoder_init(ct_opus_codec *st, int32_t Fs, int channels,
                         int application, const ct_opus_dsp *dsp)
{
    int err;
    int ret;

    if ((Fs != 48000 && Fs != 24000 && Fs != 16000 && Fs != 12000 &&
         Fs != 8000) ||
        (channels != 1 && channels != 2) ||
        (application != CT_OPUS_APPLICATION_VOIP &&
         application != CT_OPUS_APPLICATION_AUDIO &&
         application != CT_OPUS_APPLICATION_RESTRICTED_LOWDELAY))
        return CT_OPUS_BAD_ARG;

    memset(st, 0, sizeof(*st));

    st->stream_channels = st->channels = channels;

    st->Fs = Fs;

    st->dsp = dsp;

    ret = ct_silk_InitEncoder(&st->silk_enc, dsp, &st->silk_mode);
    if (ret)
        return CT_OPUS_INTERNAL_ERROR;

    /* default SILK parameters */
    st->silk_mode.nChannelsAPI = channels;
    st->silk_mode.nChannelsInternal = channels;
    st->silk_mode.API_sampleRate = st->Fs;
    st->silk_mode.maxInternalSampleRate = 16000;
    st->silk_mode.minInternalSampleRate = 8000;
    st->silk_mode.desiredInternalSampleRate = 16000;
    st->silk_mode.payloadSize_ms = 20;
    st->silk_mode.bitRate = 25000;
    st->silk_mode.packetLossPercentage = 0;
    st->silk_mode.complexity = 9;
    st->user_complexity = st->silk_mode.complexity;
    st->silk_mode.useInBandFEC = 0;
    st->silk_mode.useDTX = 0;
    st->silk_mode.useCBR = 0;
    st->silk_mode.reducedDependency = 0;

    /* Initialize CELT encoder */
    err = ct_celt_encoder_init(&st->celt_enc, Fs, channels, dsp);
    if (err != CT_CELT_OK)
        return CT_OPUS_INTERNAL_ERROR;

    ct_celt_encoder_set_signalling(&st->celt_enc, 0);
    ct_celt_encoder_set_complexity(&st->celt_enc, st->silk_mode.complexity);

    st->use_vbr = 1;
    /* Makes constrained VBR the default (safer for real-time use) */
    st->vbr_constraint = 1;
    st->user_bitrate_bps = CT_OPUS_AUTO;
    st->bitrate_bps = 3000 + Fs * channels;
    st->application = application;
    st->signal_type = CT_OPUS_AUTO;
    st->user_bandwidth = CT_OPUS_AUTO;
    st->max_bandwidth = CT_OPUS_BANDWIDTH_FULLBAND;
    st->force_channels = CT_OPUS_AUTO;
    st->user_forced_mode = CT_OPUS_AUTO;
    st->voice_ratio = -1;
    st->encoder_buffer = st->Fs / 100;
    st->lsb_depth = 24;
    st->variable_duration = CT_OPUS_FRAMESIZE_ARG;

    /* Delay compensation of 4 ms (2.5 ms for SILK's extra look-ahead
       + 1.5 ms for SILK resamplers and stereo prediction) */
    st->delay_compensation = st->Fs / 250;

    st->hybrid_stereo_width_Q14 = 1 << 14;
    st->prev_HB_gain = CT_Q15ONE;
    st->variable_HP_smth2_Q15 =
        silk_LSHIFT(ct_silk_lin2log(VARIABLE_HP_MIN_CUTOFF_HZ), 8);
    st->first = 1;
    st->mode = CT_MODE_HYBRID;
    st->bandwidth = CT_OPUS_BANDWIDTH_FULLBAND;

    ct_opus_tonality_analysis_init(&st->analysis, st->Fs, st->dsp);
    st->analysis.application = st->application;

    return CT_OPUS_OK;
}

static unsigned char gen_toc(int mode, int framerate, int bandwidth,
                             int channels)
{
    int period;
    unsigned char toc;
    period = 0;
    while (framerate < 400) {
        framerate <<= 1;
        period++;
    }
    if (mode == CT_MODE_SILK_ONLY) {
        toc = (unsigned char)((bandwidth - CT_OPUS_BANDWIDTH_NARROWBAND) << 5);
        toc |= (unsigned char)((period - 2) << 3);
    } else if (mode == CT_MODE_CELT_ONLY) {
        int tmp = bandwidth - CT_OPUS_BANDWIDTH_MEDIUMBAND;
        if (tmp < 0)
            tmp = 0;
        toc = 0x80;
        toc |= (unsigned char)(tmp << 5);
        toc |= (unsigned char)(period << 3);
    } else /* Hybrid */
    {
        toc = 0x60;
        toc |= (unsigned char)((bandwidth - CT_OPUS_BANDWIDTH_SUPERWIDEBAND)
                               << 4);
        toc |= (unsigned char)((period - 2) << 3);
    }
    toc |= (unsigned char)((channels == 2) << 2);
    return toc;
}

static void silk_biquad_float(
    const float *in,      /* I:    Input signal                   */
    const int32_t *B_Q28, /* I:    MA coefficients [3]            */
    const int32_t *A_Q28, /* I:    AR coefficients [2]            */
    float *S,             /* I/O:  State vector [2]               */
    float *out,           /* O:    Output signal                  */
    const int32_t len,    /* I:    Signal length (must be even)   */
    int stride)
{
    /* DIRECT FORM II TRANSPOSED (uses 2 element state vector) */
    int k;
    float vout;
    float inval;
    float A[2], B[3];

    A[0] = (float)(A_Q28[0] * (1.f / ((int32_t)1 << 28)));
    A[1] = (float)(A_Q28[1] * (1.f / ((int32_t)1 << 28)));
    B[0] = (float)(B_Q28[0] * (1.f / ((int32_t)1 << 28)));
    B[1] = (float)(B_Q28[1] * (1.f / ((int32_t)1 << 28)));
    B[2] = (float)(B_Q28[2] * (1.f / ((int32_t)1 << 28)));

    /* Negate A_Q28 values and split in two parts */

    for (k = 0; k < len; k++) {
        /* S[ 0 ], S[ 1 ]: Q12 */
        inval = in[k * stride];
        vout = S[0] + B[0] * inval;

        S[0] = S[1] - vout * A[0] + B[1] * inval;

        S[1] = -vout * A[1] + B[2] * inval + CT_VERY_SMALL;

        /* Scale back to Q0 and saturate */
        out[k * stride] = vout;
    }
}

static void hp_cutoff(const float *in, int32_t cutoff_Hz, float *out,
                      float *hp_mem, int len, int channels, int32_t Fs)
{
    int32_t B_Q28[3], A_Q28[2];
    int32_t Fc_Q19, r_Q28, r_Q22;

    Fc_Q19 = silk_DIV32_16(
        silk_SMULBB(SILK_FIX_CONST(1.5 * 3.14159 / 1000, 19), cutoff_Hz),
        Fs / 1000);

    r_Q28 = SILK_FIX_CONST(1.0, 28) - silk_MUL(SILK_FIX_CONST(0.92, 9), Fc_Q19);

    /* b = r * [ 1; -2; 1 ]; */
    /* a = [ 1; -2 * r * ( 1 - 0.5 * Fc^2 ); r^2 ]; */
    B_Q28[0] = r_Q28;
    B_Q28[1] = silk_LSHIFT(-r_Q28, 1);
    B_Q28[2] = r_Q28;

    /* -r * ( 2 - Fc * Fc ); */
    r_Q22 = silk_RSHIFT(r_Q28, 6);
    A_Q28[0] = silk_SMULWW(r_Q22, silk_SMULWW(Fc_Q19, Fc_Q19) -
                                      SILK_FIX_CONST(2.0, 22));
    A_Q28[1] = silk_SMULWW(r_Q22, r_Q22);

    silk_biquad_float(in, B_Q28, A_Q28, hp_mem, out, len, channels);
    if (channels == 2) {
        silk_biquad_float(in + 1, B_Q28, A_Q28, hp_mem + 2, out + 1, len,
                          channels);
    }
}

void ct_opus_dc_reject(const float *in, int32_t cutoff_Hz, float *out,
                       float *hp_mem, int len, int channels, int32_t Fs)
{
    int i;
    float coef, coef2;
    coef = 6.3f * cutoff_Hz / Fs;
    coef2 = 1 - coef;
    if (channels == 2) {
        float m0, m2;
        m0 = hp_mem[0];
        m2 = hp_mem[2];
        for (i = 0; i < len; i++) {
            float x0, x1, out0, out1;
            x0 = in[2 * i + 0];
            x1 = in[2 * i + 1];
            out0 = x0 - m0;
            out1 = x1 - m2;
            m0 = coef * x0 + CT_VERY_SMALL + coef2 * m0;
            m2 = coef * x1 + CT_VERY_SMALL + coef2 * m2;
            out[2 * i + 0] = out0;
            out[2 * i + 1] = out1;
        }
        hp_mem[0] = m0;
        hp_mem[2] = m2;
    } else {
        float m0;
        m0 = hp_mem[0];
        for (i = 0; i < len; i++) {
            float x, y;
            x = in[i];
            y = x - m0;
            m0 = coef * x + CT_VERY_SMALL + coef2 * m0;
            out[i] = y;
        }
        hp_mem[0] = m0;
    }
}

static void stereo_fade(const float *in, float *out, float g1, float g2,
                        int overlap48, int frame_size, int channels,
                        const float *window, int32_t Fs)
{
    int i;
    int overlap;
    int inc;
    inc = 48000 / Fs;
    overlap = overlap48 / inc;
    g1 = CT_Q15ONE - g1;
    g2 = CT_Q15ONE - g2;
    for (i = 0; i < overlap; i++) {
        float diff;
        float g, w;
        w = window[i * inc] * window[i * inc];
        g = w * g2 + (CT_Q15ONE - w) * g1;
        diff = .5f * ((float)in[i * channels] - (float)in[i * channels + 1]);
        diff = g * diff;
        out[i * channels] = out[i * channels] - diff;
        out[i * channels + 1] = out[i * channels + 1] + diff;
    }
    for (; i < frame_size; i++) {
        float diff;
        diff = .5f * ((float)in[i * channels] - (float)in[i * channels + 1]);
        diff = g2 * diff;
        out[i * channels] = out[i * channels] - diff;
        out[i * channels + 1] = out[i * channels + 1] + diff;
    }
}

static void gain_fade(const float *in, float *out, float g1, float g2,
                      int overlap48, int frame_size, int channels,
                      const float *window, int32_t Fs)
{
    int i;
    int inc;
    int overlap;
    int c;
    inc = 48000 / Fs;
    overlap = overlap48 / inc;
    if (channels == 1) {
        for (i = 0; i < overlap; i++) {
            float g, w;
            w = window[i * inc] * window[i * inc];
            g = w * g2 + (CT_Q15ONE - w) * g1;
            out[i] = g * in[i];
        }
    } else {
        for (i = 0; i < overlap; i++) {
            float g, w;
            w = window[i * inc] * window[i * inc];
            g = w * g2 + (CT_Q15ONE - w) * g1;
            out[i * 2] = g * in[i * 2];
            out[i * 2 + 1] = g * in[i * 2 + 1];
        }
    }
    c = 0;
    do {
        for (i = overlap; i < frame_size; i++) {
            out[i * channels + c] = g2 * in[i * channels + c];
        }
    } while (++c < channels);
}

static int32_t user_bitrate_to_bitrate(const ct_opus_codec *st, int frame_size,
                                       int max_data_bytes)
{
    if (!frame_size)
        frame_size = st->Fs / 400;
    if (st->user_bitrate_bps == CT_OPUS_AUTO)
        return 60 * st->Fs / frame_size + st->Fs * st->channels;
    else if (st->user_bitrate_bps == CT_OPUS_BITRATE_MAX)
        return max_data_bytes * 8 * st->Fs / frame_size;
    else
        return st->user_bitrate_bps;
}

int32_t ct_opus_frame_size_select(int32_t frame_size, int variable_duration,
                                  int32_t Fs)
{
    int new_size;
    if (frame_size < Fs / 400)
        return -1;
    if (variable_duration == CT_OPUS_FRAMESIZE_ARG)
        new_size = frame_size;
    else if (variable_duration >= CT_OPUS_FRAMESIZE_2_5_MS &&
             variable_duration <= CT_OPUS_FRAMESIZE_120_MS) {
        if (variable_duration <= CT_OPUS_FRAMESIZE_40_MS)
            new_size = (Fs / 400)
                       << (variable_duration - CT_OPUS_FRAMESIZE_2_5_MS);
        else
            new_size = (variable_duration - CT_OPUS_FRAMESIZE_2_5_MS - 2) *
                       Fs / 50;
    } else
        return -1;
    if (new_size > frame_size)
        return -1;
    if (400 * new_size != Fs && 200 * new_size != Fs &&
        100 * new_size != Fs && 50 * new_size != Fs && 25 * new_size != Fs &&
        50 * new_size != 3 * Fs && 50 * new_size != 4 * Fs &&
        50 * new_size != 5 * Fs && 50 * new_size != 6 * Fs)
        return -1;
    return new_size;
}

float ct_opus_compute_stereo_width(const float *pcm, int frame_size,
                                   int32_t Fs,
                                   ct_opus_stereo_width_state *mem)
{
    float xx, xy, yy;
    float sqrt_xx, sqrt_yy;
    float qrrt_xx, qrrt_yy;
    int frame_rate;
    int i;
    float short_alpha;

    frame_rate = Fs / frame_size;
    short_alpha = CT_Q15ONE - (25.f * CT_Q15ONE) / CT_IMAX(50, frame_rate);
    xx = xy = yy = 0;
    /* Unroll by 4. The frame size is always a multiple of 4 *except* for
       2.5 ms frames at 12 kHz. Since this setting is very rare (and very
       stupid), we just discard the last two samples. */
    for (i = 0; i < frame_size - 3; i += 4) {
        float pxx = 0;
        float pxy = 0;
        float pyy = 0;
        float x, y;
        x = pcm[2 * i];
        y = pcm[2 * i + 1];
        pxx = x * x;
        pxy = x * y;
        pyy = y * y;
        x = pcm[2 * i + 2];
        y = pcm[2 * i + 3];
        pxx += x * x;
        pxy += x * y;
        pyy += y * y;
        x = pcm[2 * i + 4];
        y = pcm[2 * i + 5];
        pxx += x * x;
        pxy += x * y;
        pyy += y * y;
        x = pcm[2 * i + 6];
        y = pcm[2 * i + 7];
        pxx += x * x;
        pxy += x * y;
        pyy += y * y;

        xx += pxx;
        xy += pxy;
        yy += pyy;
    }
    if (!(xx < 1e9f) || ct_celt_isnan(xx) || !(yy < 1e9f) ||
        ct_celt_isnan(yy)) {
        xy = xx = yy = 0;
    }
    mem->XX += short_alpha * (xx - mem->XX);
    mem->XY += short_alpha * (xy - mem->XY);
    mem->YY += short_alpha * (yy - mem->YY);
    mem->XX = CT_MAX32(0, mem->XX);
    mem->XY = CT_MAX32(0, mem->XY);
    mem->YY = CT_MAX32(0, mem->YY);
    if (CT_MAX32(mem->XX, mem->YY) > 8e-4f) {
        float corr;
        float ldiff;
        float width;
        sqrt_xx = ct_celt_sqrt(mem->XX);
        sqrt_yy = ct_celt_sqrt(mem->YY);
        qrrt_xx = ct_celt_sqrt(sqrt_xx);
        qrrt_yy = ct_celt_sqrt(sqrt_yy);
        /* Inter-channel correlation */
        mem->XY = CT_MIN32(mem->XY, sqrt_xx * sqrt_yy);
        corr = ct_celt_frac_div32(mem->XY, CT_EPSILON + sqrt_xx * sqrt_yy);
        /* Approximate loudness difference */
        ldiff = (CT_Q15ONE * CT_ABS16(qrrt_xx - qrrt_yy)) /
                (CT_EPSILON + qrrt_xx + qrrt_yy);
        width = ct_celt_sqrt(1.f - corr * corr) * ldiff;
        /* Smoothing over one second */
        mem->smoothed_width += (width - mem->smoothed_width) / frame_rate;
        /* Peak follower */
        mem->max_follower = CT_MAX16(mem->max_follower - .02f / frame_rate,
                                     mem->smoothed_width);
    }
    return CT_MIN32(CT_Q15ONE, 20.f * mem->max_follower);
}

static int decide_fec(int useInBandFEC, int PacketLoss_perc, int last_fec,
                      int mode, int *bandwidth, int32_t rate)
{
    int orig_bandwidth;
    if (!useInBandFEC || PacketLoss_perc == 0 || mode == CT_MODE_CELT_ONLY)
        return 0;
    orig_bandwidth = *bandwidth;
    for (;;) {
        int32_t hysteresis;
        int32_t LBRR_rate_thres_bps;
        /* Compute threshold for using FEC at the current bandwidth setting */
        LBRR_rate_thres_bps =
            fec_thresholds[2 * (*bandwidth - CT_OPUS_BANDWIDTH_NARROWBAND)];
        hysteresis =
            fec_thresholds[2 * (*bandwidth - CT_OPUS_BANDWIDTH_NARROWBAND) + 1];
        if (last_fec == 1)
            LBRR_rate_thres_bps -= hysteresis;
        if (last_fec == 0)
            LBRR_rate_thres_bps += hysteresis;
        LBRR_rate_thres_bps = silk_SMULWB(
            silk_MUL(LBRR_rate_thres_bps, 125 - silk_min(PacketLoss_perc, 25)),
            SILK_FIX_CONST(0.01, 16));
        /* If loss <= 5%, we look at whether we have enough rate to enable
           FEC. If loss > 5%, we decrease the bandwidth until we can enable
           FEC. */
        if (rate > LBRR_rate_thres_bps)
            return 1;
        else if (PacketLoss_perc <= 5)
            return 0;
        else if (*bandwidth > CT_OPUS_BANDWIDTH_NARROWBAND)
            (*bandwidth)--;
        else
            break;
    }
    /* Couldn't find any bandwidth to enable FEC, keep original bandwidth. */
    *bandwidth = orig_bandwidth;
    return 0;
}

static int compute_silk_rate_for_hybrid(int rate, int bandwidth,
                                        int frame20ms, int vbr, int fec,
                                        int channels)
{
    int entry;
    int i;
    int N;
    int silk_rate;
    static const int rate_table[][5] = {
        /*  |total| |-------- SILK------------|
                    |-- No FEC -| |--- FEC ---|
                     10ms   20ms   10ms   20ms */
        {0, 0, 0, 0, 0},
        {12000, 10000, 10000, 11000, 11000},
        {16000, 13500, 13500, 15000, 15000},
        {20000, 16000, 16000, 18000, 18000},
        {24000, 18000, 18000, 21000, 21000},
        {32000, 22000, 22000, 28000, 28000},
        {64000, 38000, 38000, 50000, 50000}};
    /* Do the allocation per-channel. */
    rate /= channels;
    entry = 1 + frame20ms + 2 * fec;
    N = sizeof(rate_table) / sizeof(rate_table[0]);
    for (i = 1; i < N; i++) {
        if (rate_table[i][0] > rate)
            break;
    }
    if (i == N) {
        silk_rate = rate_table[i - 1][entry];
        /* For now, just give 50% of the extra bits to SILK. */
        silk_rate += (rate - rate_table[i - 1][0]) / 2;
    } else {
        int32_t lo, hi, x0, x1;
        lo = rate_table[i - 1][entry];
        hi = rate_table[i][entry];
        x0 = rate_table[i - 1][0];
        x1 = rate_table[i][0];
        silk_rate = (lo * (x1 - rate) + hi * (rate - x0)) / (x1 - x0);
    }
    if (!vbr) {
        /* Tiny boost to SILK for CBR. We should probably tune this better. */
        silk_rate += 100;
    }
    if (bandwidth == CT_OPUS_BANDWIDTH_SUPERWIDEBAND)
        silk_rate += 300;
    silk_rate *= channels;
    /* Small adjustment for stereo (calibrated for 32 kb/s, haven't tried
     * other bitrates). */
    if (channels == 2 && rate >= 12000)
        silk_rate -= 1000;
    return silk_rate;
}

/* Returns the equivalent bitrate corresponding to 20 ms frames,
   complexity 10 VBR operation. */
static int32_t compute_equiv_rate(int32_t bitrate, int channels,
                                  int frame_rate, int vbr, int mode,
                                  int complexity, int loss)
{
    int32_t equiv;
    equiv = bitrate;
    /* Take into account overhead from smaller frames. */
    if (frame_rate > 50)
        equiv -= (40 * channels + 20) * (frame_rate - 50);
    /* CBR is about a 8% penalty for both SILK and CELT. */
    if (!vbr)
        equiv -= equiv / 12;
    /* Complexity makes about 10% difference (from 0 to 10) in general. */
    equiv = equiv * (90 + complexity) / 100;
    if (mode == CT_MODE_SILK_ONLY || mode == CT_MODE_HYBRID) {
        /* SILK complexity 0-1 uses the non-delayed-decision NSQ, which
           costs about 20%. */
        if (complexity < 2)
            equiv = equiv * 4 / 5;
        equiv -= equiv * loss / (6 * loss + 10);
    } else if (mode == CT_MODE_CELT_ONLY) {
        /* CELT complexity 0-4 doesn't have the pitch filter, which costs
           about 10%. */
        if (complexity < 5)
            equiv = equiv * 9 / 10;
    } else {
        /* Mode not known yet */
        /* Half the SILK loss*/
        equiv -= equiv * loss / (12 * loss + 20);
    }
    return equiv;
}

int ct_opus_is_digital_silence(const float *pcm, int frame_size, int channels,
                               int lsb_depth,
                               float (*maxabs)(const float *x, int len))
{
    int silence = 0;
    float sample_max = 0;

    sample_max = maxabs(pcm, frame_size * channels);

    silence = (sample_max <= (float)1 / (1 << lsb_depth));

    return silence;
}

static float compute_frame_energy(const float *pcm, int frame_size,
                                  int channels, const ct_opus_dsp *dsp)
{
    int len = frame_size * channels;
    return dsp->inner_prod(pcm, pcm, len) / len;
}

/* Decides if DTX should be turned on (=1) or off (=0) */
static int decide_dtx_mode(
    float activity_probability, /* probability that current frame contains
                                   speech/music */
    int *nb_no_activity_frames, /* number of consecutive frames with no
                                   activity */
    float peak_signal_energy,   /* peak energy of desired signal detected so
                                   far */
    const float *pcm,           /* input pcm signal */
    int frame_size,             /* frame size */
    int channels,
    int is_silence, /* only digital silence detected in this frame */
    const ct_opus_dsp *dsp)
{
    float noise_energy;

    if (!is_silence) {
        if (activity_probability < DTX_ACTIVITY_THRESHOLD) /* is noise */
        {
            noise_energy =
                compute_frame_energy(pcm, frame_size, channels, dsp);

            /* but is sufficiently quiet */
            is_silence =
                peak_signal_energy >= (PSEUDO_SNR_THRESHOLD * noise_energy);
        }
    }

    if (is_silence) {
        /* The number of consecutive DTX frames should be within the allowed
         * bounds */
        (*nb_no_activity_frames)++;

        if (*nb_no_activity_frames > NB_SPEECH_FRAMES_BEFORE_DTX) {
            if (*nb_no_activity_frames <=
                (NB_SPEECH_FRAMES_BEFORE_DTX + MAX_CONSECUTIVE_DTX))
                /* Valid frame for DTX! */
                return 1;
            else
                (*nb_no_activity_frames) = NB_SPEECH_FRAMES_BEFORE_DTX;
        }
    } else
        (*nb_no_activity_frames) = 0;

    return 0;
}

/* Frames longer than one coded frame (over 20 ms in CELT or Hybrid mode,
 * over 60 ms in SILK): shorter frames joined by the repacketizer */
static int32_t encode_multiframe_packet(ct_opus_codec *st, const float *pcm,
                                        int nb_frames, int frame_size,
                                        unsigned char *data,
                                        int32_t out_data_bytes, int to_celt,
                                        int lsb_depth, int float_api)
{
    int i;
    int32_t ret = 0;
    /* 6 frames (the most: 120 ms) of at most 1276 bytes */
    unsigned char tmp_data[6 * 1276];
    int bak_mode, bak_bandwidth, bak_channels, bak_to_mono;
    ct_opus_repacketizer rp;
    int max_header_bytes;
    int32_t bytes_per_frame;
    int32_t cbr_bytes;
    int32_t repacketize_len;
    int32_t tmp_len;

    /* Worst cases:
     * 2 frames: Code 2 with different compressed sizes
     * >2 frames: Code 3 VBR */
    max_header_bytes = nb_frames == 2 ? 3 : (2 + (nb_frames - 1) * 2);

    if (st->use_vbr || st->user_bitrate_bps == CT_OPUS_BITRATE_MAX)
        repacketize_len = out_data_bytes;
    else {
        cbr_bytes = 3 * st->bitrate_bps /
                    (3 * 8 * st->Fs / (frame_size * nb_frames));
        repacketize_len = CT_IMIN(cbr_bytes, out_data_bytes);
    }
    bytes_per_frame =
        CT_IMIN(1276, 1 + (repacketize_len - max_header_bytes) / nb_frames);

    ct_opus_repacketizer_init(&rp);

    bak_mode = st->user_forced_mode;
    bak_bandwidth = st->user_bandwidth;
    bak_channels = st->force_channels;

    st->user_forced_mode = st->mode;
    st->user_bandwidth = st->bandwidth;
    st->force_channels = st->stream_channels;

    bak_to_mono = st->silk_mode.toMono;
    if (bak_to_mono)
        st->force_channels = 1;
    else
        st->prev_channels = st->stream_channels;

    for (i = 0; i < nb_frames; i++) {
        st->silk_mode.toMono = 0;
        st->nonfinal_frame = i < (nb_frames - 1);

        /* When switching from SILK/Hybrid to CELT, only ask for a switch at
         * the last frame */
        if (to_celt && i == nb_frames - 1)
            st->user_forced_mode = CT_MODE_CELT_ONLY;

        tmp_len = ct_opus_encode_native(
            st, pcm + i * (st->channels * frame_size), frame_size,
            tmp_data + i * bytes_per_frame, bytes_per_frame, lsb_depth, NULL, 0,
            0, 0, 0, NULL, NULL, float_api);

        if (tmp_len < 0)
            return CT_OPUS_INTERNAL_ERROR;

        ret = ct_opus_repacketizer_cat(&rp, tmp_data + i * bytes_per_frame,
                                       tmp_len);

        if (ret < 0)
            return CT_OPUS_INTERNAL_ERROR;
    }

    ret = ct_opus_repacketizer_out_range_impl(
        &rp, 0, nb_frames, data, repacketize_len, 0, !st->use_vbr);

    if (ret < 0)
        return CT_OPUS_INTERNAL_ERROR;

    /* Discard configs that were forced locally for the purpose of
     * repacketization */
    st->user_forced_mode = bak_mode;
    st->user_bandwidth = bak_bandwidth;
    st->force_channels = bak_channels;
    st->silk_mode.toMono = bak_to_mono;

    return ret;
}

static int compute_redundancy_bytes(int32_t max_data_bytes,
                                    int32_t bitrate_bps, int frame_rate,
                                    int channels)
{
    int redundancy_bytes_cap;
    int redundancy_bytes;
    int32_t redundancy_rate;
    int base_bits;
    int32_t available_bits;
    base_bits = (40 * channels + 20);

    /* Equivalent rate for 5 ms frames. */
    redundancy_rate = bitrate_bps + base_bits * (200 - frame_rate);
    /* For VBR, further increase the bitrate if we can afford it. It's
       pretty short and we'll avoid artefacts. */
    redundancy_rate = 3 * redundancy_rate / 2;
    redundancy_bytes = redundancy_rate / 1600;

    /* Compute the max rate we can use given CBR or VBR with cap. */
    available_bits = max_data_bytes * 8 - 2 * base_bits;
    redundancy_bytes_cap =
        (available_bits * 240 / (240 + 48000 / frame_rate) + base_bits) / 8;
    redundancy_bytes = CT_IMIN(redundancy_bytes, redundancy_bytes_cap);
    /* It we can't get enough bits for redundancy to be worth it, rely on
     * the decoder PLC. */
    if (redundancy_bytes > 4 + 8 * channels)
        redundancy_bytes = CT_IMIN(257, redundancy_bytes);
    else
        redundancy_bytes = 0;
    return redundancy_bytes;
}

/* opus_encode_native's test for its tonality analysis, on user_complexity
 * where the reference reads silk_mode.complexity: the same value whenever
 * this runs (SILK sets silk_mode.complexity to 0 only during a prefill and
 * restores it; its error returns in between come from rates and packet
 * sizes this codec never sets), and one the writer may read on its thread
 * while Encode runs. */
static int analysis_runs(const ct_opus_codec *st)
{
    return st->user_complexity >= 7 && st->Fs >= 16000;
}

void ct_opus_encoder_peek_analysis(ct_opus_codec *st,
                                   const ct_tonality_view *view,
                                   int frame_size, ct_analysis_info *info)
{
    const int read_pos = st->analysis.read_pos;
    const int read_subframe = st->analysis.read_subframe;
    memset(info, 0, sizeof(*info));
    if (!analysis_runs(st))
        return;
    ct_opus_tonality_get_info(&st->analysis, view, info, frame_size);
    st->analysis.read_pos = read_pos;
    st->analysis.read_subframe = read_subframe;
}

/* tonality_analysis_reset, and the view that goes with the analysis */
static void analysis_reset(ct_opus_codec *st)
{
    ct_opus_tonality_analysis_reset(&st->analysis);
    memset(&st->analysis_view, 0, sizeof(st->analysis_view));
}

void ct_opus_encoder_analysis_write(ct_opus_codec *st,
                                    ct_opus_analysis_pcm_at pcm_at,
                                    const void *ctx, int32_t analysis_size,
                                    int frame_size, int c1, int c2,
                                    int analysis_channels, int lsb_depth,
                                    ct_opus_downmix_func downmix,
                                    ct_tonality_view *view)
{
    if (!analysis_runs(st)) {
        memset(view, 0, sizeof(*view));
        return;
    }
    ct_opus_tonality_analysis_write(
        &st->analysis, ct_celt_encoder_get_mode(&st->celt_enc), pcm_at, ctx,
        analysis_size, frame_size, c1, c2, analysis_channels, st->Fs,
        CT_IMIN(lsb_depth, st->lsb_depth), downmix);
    ct_opus_tonality_view(&st->analysis, view);
}

int32_t ct_opus_encode_native(ct_opus_codec *st, const float *pcm,
                              int frame_size, unsigned char *data,
                              int32_t out_data_bytes, int lsb_depth,
                              const float *analysis_pcm, int32_t analysis_size,
                              int c1, int c2, int analysis_channels,
                              ct_opus_downmix_func downmix,
                              const ct_tonality_view *analysis_view,
                              int float_api)
{
    ct_silk_encoder *silk_enc;
    ct_celt_encoder *celt_enc;
    int i;
    int32_t ret = 0;
    int32_t nBytes;
    ct_ec_enc enc;
    int bytes_target;
    int prefill = 0;
    int start_band = 0;
    int redundancy = 0;
    int redundancy_bytes = 0; /* Number of bytes to use for redundancy frame */
    int celt_to_silk = 0;
    float pcm_buf[(MAX_DELAY_COMP + MAX_FRAME_SIZE) * 2];
    int nb_compr_bytes;
    int to_celt = 0;
    uint32_t redundant_rng = 0;
    int cutoff_Hz, hp_freq_smth1;
    int voice_est; /* Probability of voice in Q7 */
    int32_t equiv_rate;
    int delay_compensation;
    int frame_rate;
    int32_t max_rate; /* Max bitrate we're allowed to use */
    int curr_bandwidth;
    float HB_gain;
    int32_t max_data_bytes; /* Max number of bytes we're allowed to use */
    int total_buffer;
    float stereo_width;
    const ct_celt_mode *celt_mode;
    ct_analysis_info analysis_info;
    int analysis_read_pos_bak = -1;
    int analysis_read_subframe_bak = -1;
    int is_silence = 0;
    float tmp_prefill[2 * 48000 / 400];

    max_data_bytes = CT_IMIN(1276, out_data_bytes);

    st->rangeFinal = 0;
    if (frame_size <= 0 || max_data_bytes <= 0) {
        return CT_OPUS_BAD_ARG;
    }

    /* Cannot encode 100 ms in 1 byte */
    if (max_data_bytes == 1 && st->Fs == (frame_size * 10)) {
        return CT_OPUS_BUFFER_TOO_SMALL;
    }

    silk_enc = &st->silk_enc;
    celt_enc = &st->celt_enc;
    if (st->application == CT_OPUS_APPLICATION_RESTRICTED_LOWDELAY)
        delay_compensation = 0;
    else
        delay_compensation = st->delay_compensation;

    lsb_depth = CT_IMIN(lsb_depth, st->lsb_depth);

    celt_mode = ct_celt_encoder_get_mode(celt_enc);
    /* Only valid is set in the reference; the rest is zeroed so that what
     * CELT copies is defined (it reads the rest only when valid). */
    memset(&analysis_info, 0, sizeof(analysis_info));
    analysis_info.valid = 0;
    if (analysis_runs(st)) {
        is_silence = ct_opus_is_digital_silence(pcm, frame_size, st->channels,
                                                lsb_depth, st->dsp->maxabs);
        analysis_read_pos_bak = st->analysis.read_pos;
        analysis_read_subframe_bak = st->analysis.read_subframe;
        if (analysis_pcm == NULL && analysis_view != NULL)
            st->analysis_view = *analysis_view;
        ct_opus_run_analysis(&st->analysis, celt_mode, analysis_pcm,
                             analysis_size, frame_size, c1, c2,
                             analysis_channels, st->Fs, lsb_depth, downmix,
                             &st->analysis_view, &analysis_info);

        /* Track the peak signal energy */
        if (!is_silence &&
            analysis_info.activity_probability > DTX_ACTIVITY_THRESHOLD)
            st->peak_signal_energy = CT_MAX32(
                0.999f * st->peak_signal_energy,
                compute_frame_energy(pcm, frame_size, st->channels, st->dsp));
    } else if (st->analysis.initialized) {
        /* Nothing runs on this analysis meanwhile: a writer ahead
         * (ct_opus_encoder_analysis_write) has the settings of this call
         * and skips this stream too. */
        analysis_reset(st);
    }

    /* Reset voice_ratio if this frame is not silent or if analysis is
     * disabled. Otherwise, preserve voice_ratio from the last non-silent
     * frame */
    if (!is_silence)
        st->voice_ratio = -1;

    st->detected_bandwidth = 0;
    if (analysis_info.valid) {
        int analysis_bandwidth;
        if (st->signal_type == CT_OPUS_AUTO) {
            float prob;
            if (st->prev_mode == 0)
                prob = analysis_info.music_prob;
            else if (st->prev_mode == CT_MODE_CELT_ONLY)
                prob = analysis_info.music_prob_max;
            else
                prob = analysis_info.music_prob_min;
            st->voice_ratio = (int)floor(.5 + 100 * (1 - prob));
        }

        analysis_bandwidth = analysis_info.bandwidth;
        if (analysis_bandwidth <= 12)
            st->detected_bandwidth = CT_OPUS_BANDWIDTH_NARROWBAND;
        else if (analysis_bandwidth <= 14)
            st->detected_bandwidth = CT_OPUS_BANDWIDTH_MEDIUMBAND;
        else if (analysis_bandwidth <= 16)
            st->detected_bandwidth = CT_OPUS_BANDWIDTH_WIDEBAND;
        else if (analysis_bandwidth <= 18)
            st->detected_bandwidth = CT_OPUS_BANDWIDTH_SUPERWIDEBAND;
        else
            st->detected_bandwidth = CT_OPUS_BANDWIDTH_FULLBAND;
    }

    if (st->channels == 2 && st->force_channels != 1)
        stereo_width = ct_opus_compute_stereo_width(pcm, frame_size, st->Fs,
                                                    &st->width_mem);
    else
        stereo_width = 0;
    total_buffer = delay_compensation;
    st->bitrate_bps = user_bitrate_to_bitrate(st, frame_size, max_data_bytes);

    frame_rate = st->Fs / frame_size;
    if (!st->use_vbr) {
        int cbrBytes;
        /* Multiply by 12 to make sure the division is exact. */
        int frame_rate12 = 12 * st->Fs / frame_size;
        /* We need to make sure that "int" values always fit in 16 bits. */
        cbrBytes = CT_IMIN((12 * st->bitrate_bps / 8 + frame_rate12 / 2) /
                               frame_rate12,
                           max_data_bytes);
        st->bitrate_bps = cbrBytes * (int32_t)frame_rate12 * 8 / 12;
        /* Make sure we provide at least one byte to avoid failing. */
        max_data_bytes = CT_IMAX(1, cbrBytes);
    }
    if (max_data_bytes < 3 || st->bitrate_bps < 3 * frame_rate * 8 ||
        (frame_rate < 50 &&
         (max_data_bytes * frame_rate < 300 || st->bitrate_bps < 2400))) {
        /*If the space is too low to do something useful, emit 'PLC' frames.*/
        int tocmode = st->mode;
        int bw = st->bandwidth == 0 ? CT_OPUS_BANDWIDTH_NARROWBAND
                                    : st->bandwidth;
        int packet_code = 0;
        int num_multiframes = 0;

        if (tocmode == 0)
            tocmode = CT_MODE_SILK_ONLY;
        if (frame_rate > 100)
            tocmode = CT_MODE_CELT_ONLY;
        /* 40 ms -> 2 x 20 ms if in CELT_ONLY or HYBRID mode */
        if (frame_rate == 25 && tocmode != CT_MODE_SILK_ONLY) {
            frame_rate = 50;
            packet_code = 1;
        }

        /* >= 60 ms frames */
        if (frame_rate <= 16) {
            /* 1 x 60 ms, 2 x 40 ms, 2 x 60 ms */
            if (out_data_bytes == 1 ||
                (tocmode == CT_MODE_SILK_ONLY && frame_rate != 10)) {
                tocmode = CT_MODE_SILK_ONLY;

                packet_code = frame_rate <= 12;
                frame_rate = frame_rate == 12 ? 25 : 16;
            } else {
                num_multiframes = 50 / frame_rate;
                frame_rate = 50;
                packet_code = 3;
            }
        }

        if (tocmode == CT_MODE_SILK_ONLY && bw > CT_OPUS_BANDWIDTH_WIDEBAND)
            bw = CT_OPUS_BANDWIDTH_WIDEBAND;
        else if (tocmode == CT_MODE_CELT_ONLY &&
                 bw == CT_OPUS_BANDWIDTH_MEDIUMBAND)
            bw = CT_OPUS_BANDWIDTH_NARROWBAND;
        else if (tocmode == CT_MODE_HYBRID &&
                 bw <= CT_OPUS_BANDWIDTH_SUPERWIDEBAND)
            bw = CT_OPUS_BANDWIDTH_SUPERWIDEBAND;

        data[0] = gen_toc(tocmode, frame_rate, bw, st->stream_channels);
        data[0] |= (unsigned char)packet_code;

        ret = packet_code <= 1 ? 1 : 2;

        max_data_bytes = CT_IMAX(max_data_bytes, ret);

        if (packet_code == 3)
            data[1] = (unsigned char)num_multiframes;

        if (!st->use_vbr) {
            ret = ct_opus_packet_pad(data, ret, max_data_bytes);
            if (ret == CT_OPUS_OK)
                ret = max_data_bytes;
            else
                ret = CT_OPUS_INTERNAL_ERROR;
        }
        return ret;
    }
    max_rate = frame_rate * max_data_bytes * 8;

    /* Equivalent 20-ms rate for mode/channel/bandwidth decisions */
    equiv_rate = compute_equiv_rate(
        st->bitrate_bps, st->channels, st->Fs / frame_size, st->use_vbr, 0,
        st->silk_mode.complexity, st->silk_mode.packetLossPercentage);

    if (st->signal_type == CT_OPUS_CODEC_SIGNAL_VOICE)
        voice_est = 127;
    else if (st->signal_type == CT_OPUS_CODEC_SIGNAL_MUSIC)
        voice_est = 0;
    else if (st->voice_ratio >= 0) {
        voice_est = st->voice_ratio * 327 >> 8;
        /* For AUDIO, never be more than 90% confident of having speech */
        if (st->application == CT_OPUS_APPLICATION_AUDIO)
            voice_est = CT_IMIN(voice_est, 115);
    } else if (st->application == CT_OPUS_APPLICATION_VOIP)
        voice_est = 115;
    else
        voice_est = 48;

    if (st->force_channels != CT_OPUS_AUTO && st->channels == 2) {
        st->stream_channels = st->force_channels;
    } else {
        /* Rate-dependent mono-stereo decision */
        if (st->channels == 2) {
            int32_t stereo_threshold;
            stereo_threshold =
                stereo_music_threshold +
                ((voice_est * voice_est *
                  (stereo_voice_threshold - stereo_music_threshold)) >>
                 14);
            if (st->stream_channels == 2)
                stereo_threshold -= 1000;
            else
                stereo_threshold += 1000;
            st->stream_channels = (equiv_rate > stereo_threshold) ? 2 : 1;
        } else {
            st->stream_channels = st->channels;
        }
    }
    /* Update equivalent rate for channels decision. */
    equiv_rate = compute_equiv_rate(
        st->bitrate_bps, st->stream_channels, st->Fs / frame_size,
        st->use_vbr, 0, st->silk_mode.complexity,
        st->silk_mode.packetLossPercentage);

    /* Allow SILK DTX if DTX is enabled but the generalized DTX cannot be
       used, e.g. because of the complexity setting or sample rate. */
    st->silk_mode.useDTX = st->use_dtx && !(analysis_info.valid || is_silence);

    /* Mode selection depending on application and signal type */
    if (st->application == CT_OPUS_APPLICATION_RESTRICTED_LOWDELAY) {
        st->mode = CT_MODE_CELT_ONLY;
    } else if (st->user_forced_mode == CT_OPUS_AUTO) {
        int32_t mode_voice, mode_music;
        int32_t threshold;

        /* Interpolate based on stereo width */
        mode_voice =
            (int32_t)((CT_Q15ONE - stereo_width) * mode_thresholds[0][0] +
                      stereo_width * mode_thresholds[1][0]);
        mode_music =
            (int32_t)((CT_Q15ONE - stereo_width) * mode_thresholds[1][1] +
                      stereo_width * mode_thresholds[1][1]);
        /* Interpolate based on speech/music probability */
        threshold =
            mode_music + ((voice_est * voice_est * (mode_voice - mode_music)) >>
                          14);
        /* Bias towards SILK for VoIP because of some useful features */
        if (st->application == CT_OPUS_APPLICATION_VOIP)
            threshold += 8000;

        /* Hysteresis */
        if (st->prev_mode == CT_MODE_CELT_ONLY)
            threshold -= 4000;
        else if (st->prev_mode > 0)
            threshold += 4000;

        st->mode =
            (equiv_rate >= threshold) ? CT_MODE_CELT_ONLY : CT_MODE_SILK_ONLY;

        /* When FEC is enabled and there's enough packet loss, use SILK */
        if (st->silk_mode.useInBandFEC &&
            st->silk_mode.packetLossPercentage > (128 - voice_est) >> 4)
            st->mode = CT_MODE_SILK_ONLY;
        /* When encoding voice and DTX is enabled but the generalized DTX
           cannot be used, use SILK in order to make use of its DTX. */
        if (st->silk_mode.useDTX && voice_est > 100)
            st->mode = CT_MODE_SILK_ONLY;

        /* If max_data_bytes represents less than 6 kb/s, switch to
         * CELT-only mode */
        if (max_data_bytes <
            (frame_rate > 50 ? 9000 : 6000) * frame_size / (st->Fs * 8))
            st->mode = CT_MODE_CELT_ONLY;
    } else {
        st->mode = st->user_forced_mode;
    }

    /* Override the chosen mode to make sure we meet the requested frame
     * size */
    if (st->mode != CT_MODE_CELT_ONLY && frame_size < st->Fs / 100)
        st->mode = CT_MODE_CELT_ONLY;
    if (st->lfe)
        st->mode = CT_MODE_CELT_ONLY;

    if (st->prev_mode > 0 && ((st->mode != CT_MODE_CELT_ONLY &&
                               st->prev_mode == CT_MODE_CELT_ONLY) ||
                              (st->mode == CT_MODE_CELT_ONLY &&
                               st->prev_mode != CT_MODE_CELT_ONLY))) {
        redundancy = 1;
        celt_to_silk = (st->mode != CT_MODE_CELT_ONLY);
        if (!celt_to_silk) {
            /* Switch to SILK/hybrid if frame size is 10 ms or more*/
            if (frame_size >= st->Fs / 100) {
                st->mode = st->prev_mode;
                to_celt = 1;
            } else {
                redundancy = 0;
            }
        }
    }

    /* When encoding multiframes, we can ask for a switch to CELT only in the
     * last frame. This switch is processed above as the requested mode
     * shouldn't interrupt stereo->mono transition. */
    if (st->stream_channels == 1 && st->prev_channels == 2 &&
        st->silk_mode.toMono == 0 && st->mode != CT_MODE_CELT_ONLY &&
        st->prev_mode != CT_MODE_CELT_ONLY) {
        /* Delay stereo->mono transition by two frames so that SILK can do a
         * smooth downmix */
        st->silk_mode.toMono = 1;
        st->stream_channels = 2;
    } else {
        st->silk_mode.toMono = 0;
    }

    /* Update equivalent rate with mode decision. */
    equiv_rate = compute_equiv_rate(
        st->bitrate_bps, st->stream_channels, st->Fs / frame_size,
        st->use_vbr, st->mode, st->silk_mode.complexity,
        st->silk_mode.packetLossPercentage);

    if (st->mode != CT_MODE_CELT_ONLY && st->prev_mode == CT_MODE_CELT_ONLY) {
        ct_silk_EncControlStruct dummy;
        ct_silk_InitEncoder(silk_enc, st->dsp, &dummy);
        prefill = 1;
    }

    /* Automatic (rate-dependent) bandwidth selection */
    if (st->mode == CT_MODE_CELT_ONLY || st->first ||
        st->silk_mode.allowBandwidthSwitch) {
        const int32_t *voice_bandwidth_thresholds, *music_bandwidth_thresholds;
        int32_t bandwidth_thresholds[8];
        int bandwidth = CT_OPUS_BANDWIDTH_FULLBAND;

        if (st->channels == 2 && st->force_channels != 1) {
            voice_bandwidth_thresholds = stereo_voice_bandwidth_thresholds;
            music_bandwidth_thresholds = stereo_music_bandwidth_thresholds;
        } else {
            voice_bandwidth_thresholds = mono_voice_bandwidth_thresholds;
            music_bandwidth_thresholds = mono_music_bandwidth_thresholds;
        }
        /* Interpolate bandwidth thresholds depending on voice estimation */
        for (i = 0; i < 8; i++) {
            bandwidth_thresholds[i] =
                music_bandwidth_thresholds[i] +
                ((voice_est * voice_est *
                  (voice_bandwidth_thresholds[i] -
                   music_bandwidth_thresholds[i])) >>
                 14);
        }
        do {
            int threshold, hysteresis;
            threshold = bandwidth_thresholds[2 * (bandwidth -
                                                  CT_OPUS_BANDWIDTH_MEDIUMBAND)];
            hysteresis =
                bandwidth_thresholds[2 * (bandwidth -
                                          CT_OPUS_BANDWIDTH_MEDIUMBAND) +
                                     1];
            if (!st->first) {
                if (st->auto_bandwidth >= bandwidth)
                    threshold -= hysteresis;
                else
                    threshold += hysteresis;
            }
            if (equiv_rate >= threshold)
                break;
        } while (--bandwidth > CT_OPUS_BANDWIDTH_NARROWBAND);
        /* We don't use mediumband anymore, except when explicitly requested
           or during mode transitions. */
        if (bandwidth == CT_OPUS_BANDWIDTH_MEDIUMBAND)
            bandwidth = CT_OPUS_BANDWIDTH_WIDEBAND;
        st->bandwidth = st->auto_bandwidth = bandwidth;
        /* Prevents any transition to SWB/FB until the SILK layer has fully
           switched to WB mode and turned the variable LP filter off */
        if (!st->first && st->mode != CT_MODE_CELT_ONLY &&
            !st->silk_mode.inWBmodeWithoutVariableLP &&
            st->bandwidth > CT_OPUS_BANDWIDTH_WIDEBAND)
            st->bandwidth = CT_OPUS_BANDWIDTH_WIDEBAND;
    }

    if (st->bandwidth > st->max_bandwidth)
        st->bandwidth = st->max_bandwidth;

    if (st->user_bandwidth != CT_OPUS_AUTO)
        st->bandwidth = st->user_bandwidth;

    /* This prevents us from using hybrid at unsafe CBR/max rates */
    if (st->mode != CT_MODE_CELT_ONLY && max_rate < 15000) {
        st->bandwidth = CT_IMIN(st->bandwidth, CT_OPUS_BANDWIDTH_WIDEBAND);
    }

    /* Prevents Opus from wasting bits on frequencies that are above
       the Nyquist rate of the input signal */
    if (st->Fs <= 24000 && st->bandwidth > CT_OPUS_BANDWIDTH_SUPERWIDEBAND)
        st->bandwidth = CT_OPUS_BANDWIDTH_SUPERWIDEBAND;
    if (st->Fs <= 16000 && st->bandwidth > CT_OPUS_BANDWIDTH_WIDEBAND)
        st->bandwidth = CT_OPUS_BANDWIDTH_WIDEBAND;
    if (st->Fs <= 12000 && st->bandwidth > CT_OPUS_BANDWIDTH_MEDIUMBAND)
        st->bandwidth = CT_OPUS_BANDWIDTH_MEDIUMBAND;
    if (st->Fs <= 8000 && st->bandwidth > CT_OPUS_BANDWIDTH_NARROWBAND)
        st->bandwidth = CT_OPUS_BANDWIDTH_NARROWBAND;
    /* Use detected bandwidth to reduce the encoded bandwidth. */
    if (st->detected_bandwidth && st->user_bandwidth == CT_OPUS_AUTO) {
        int min_detected_bandwidth;
        /* Makes bandwidth detection more conservative just in case the
           detector gets it wrong when we could have coded a high bandwidth
           transparently. When operating in SILK/hybrid mode, we don't go
           below wideband to avoid more complicated switches that require
           redundancy. */
        if (equiv_rate <= 18000 * st->stream_channels &&
            st->mode == CT_MODE_CELT_ONLY)
            min_detected_bandwidth = CT_OPUS_BANDWIDTH_NARROWBAND;
        else if (equiv_rate <= 24000 * st->stream_channels &&
                 st->mode == CT_MODE_CELT_ONLY)
            min_detected_bandwidth = CT_OPUS_BANDWIDTH_MEDIUMBAND;
        else if (equiv_rate <= 30000 * st->stream_channels)
            min_detected_bandwidth = CT_OPUS_BANDWIDTH_WIDEBAND;
        else if (equiv_rate <= 44000 * st->stream_channels)
            min_detected_bandwidth = CT_OPUS_BANDWIDTH_SUPERWIDEBAND;
        else
            min_detected_bandwidth = CT_OPUS_BANDWIDTH_FULLBAND;

        st->detected_bandwidth =
            CT_IMAX(st->detected_bandwidth, min_detected_bandwidth);
        st->bandwidth = CT_IMIN(st->bandwidth, st->detected_bandwidth);
    }
    st->silk_mode.LBRR_coded = decide_fec(
        st->silk_mode.useInBandFEC, st->silk_mode.packetLossPercentage,
        st->silk_mode.LBRR_coded, st->mode, &st->bandwidth, equiv_rate);
    ct_celt_encoder_set_lsb_depth(celt_enc, lsb_depth);

    /* CELT mode doesn't support mediumband, use wideband instead */
    if (st->mode == CT_MODE_CELT_ONLY &&
        st->bandwidth == CT_OPUS_BANDWIDTH_MEDIUMBAND)
        st->bandwidth = CT_OPUS_BANDWIDTH_WIDEBAND;
    if (st->lfe)
        st->bandwidth = CT_OPUS_BANDWIDTH_NARROWBAND;

    curr_bandwidth = st->bandwidth;

    /* Chooses the appropriate mode for speech
       *NEVER* switch to/from CELT-only mode here as this will invalidate
       some assumptions */
    if (st->mode == CT_MODE_SILK_ONLY &&
        curr_bandwidth > CT_OPUS_BANDWIDTH_WIDEBAND)
        st->mode = CT_MODE_HYBRID;
    if (st->mode == CT_MODE_HYBRID &&
        curr_bandwidth <= CT_OPUS_BANDWIDTH_WIDEBAND)
        st->mode = CT_MODE_SILK_ONLY;

    /* Can't support higher than >60 ms frames, and >20 ms when in Hybrid or
     * CELT-only modes */
    if ((frame_size > st->Fs / 50 && (st->mode != CT_MODE_SILK_ONLY)) ||
        frame_size > 3 * st->Fs / 50) {
        int enc_frame_size;
        int nb_frames;

        if (st->mode == CT_MODE_SILK_ONLY) {
            if (frame_size == 2 * st->Fs / 25) /* 80 ms -> 2x 40 ms */
                enc_frame_size = st->Fs / 25;
            else if (frame_size == 3 * st->Fs / 25) /* 120 ms -> 2x 60 ms */
                enc_frame_size = 3 * st->Fs / 50;
            else /* 100 ms -> 5x 20 ms */
                enc_frame_size = st->Fs / 50;
        } else
            enc_frame_size = st->Fs / 50;

        nb_frames = frame_size / enc_frame_size;

        if (analysis_read_pos_bak != -1) {
            st->analysis.read_pos = analysis_read_pos_bak;
            st->analysis.read_subframe = analysis_read_subframe_bak;
        }

        ret = encode_multiframe_packet(st, pcm, nb_frames, enc_frame_size,
                                       data, out_data_bytes, to_celt,
                                       lsb_depth, float_api);

        return ret;
    }

    /* For the first frame at a new SILK bandwidth */
    if (st->silk_bw_switch) {
        redundancy = 1;
        celt_to_silk = 1;
        st->silk_bw_switch = 0;
        /* Do a prefill without reseting the sampling rate control. */
        prefill = 2;
    }

    /* If we decided to go with CELT, make sure redundancy is off, no matter
       what we decided earlier. */
    if (st->mode == CT_MODE_CELT_ONLY)
        redundancy = 0;

    if (redundancy) {
        redundancy_bytes = compute_redundancy_bytes(
            max_data_bytes, st->bitrate_bps, frame_rate, st->stream_channels);
        if (redundancy_bytes == 0)
            redundancy = 0;
    }

    bytes_target =
        CT_IMIN(max_data_bytes - redundancy_bytes,
                st->bitrate_bps * frame_size / (st->Fs * 8)) -
        1;

    data += 1;

    ct_ec_enc_init(&enc, data, (uint32_t)(max_data_bytes - 1));

    memcpy(pcm_buf,
           &st->delay_buffer[(st->encoder_buffer - total_buffer) *
                             st->channels],
           sizeof(float) * (size_t)(total_buffer * st->channels));

    if (st->mode == CT_MODE_CELT_ONLY)
        hp_freq_smth1 =
            silk_LSHIFT(ct_silk_lin2log(VARIABLE_HP_MIN_CUTOFF_HZ), 8);
    else
        hp_freq_smth1 = silk_enc->state_Fxx[0].sCmn.variable_HP_smth1_Q15;

    st->variable_HP_smth2_Q15 = silk_SMLAWB(
        st->variable_HP_smth2_Q15, hp_freq_smth1 - st->variable_HP_smth2_Q15,
        SILK_FIX_CONST(VARIABLE_HP_SMTH_COEF2, 16));

    /* convert from log scale to Hertz */
    cutoff_Hz = ct_silk_log2lin(silk_RSHIFT(st->variable_HP_smth2_Q15, 8));

    if (st->application == CT_OPUS_APPLICATION_VOIP) {
        hp_cutoff(pcm, cutoff_Hz, &pcm_buf[total_buffer * st->channels],
                  st->hp_mem, frame_size, st->channels, st->Fs);
    } else {
        /* ct: the frame ring's Signal node may have filtered this very
           input */
        if (st->Fs != 48000 ||
            !ct_celt_signal_take_dc_reject(
                st->celt_enc.signal_offer, st->celt_enc.signal_tally, pcm, frame_size, st->channels,
                st->hp_mem, &pcm_buf[total_buffer * st->channels]))
            ct_opus_dc_reject(pcm, 3, &pcm_buf[total_buffer * st->channels],
                              st->hp_mem, frame_size, st->channels, st->Fs);
    }
    if (float_api) {
        float sum;
        sum = st->dsp->inner_prod(&pcm_buf[total_buffer * st->channels],
                                  &pcm_buf[total_buffer * st->channels],
                                  frame_size * st->channels);
        /* This should filter out both NaNs and ridiculous signals that could
           cause NaNs further down. */
        if (!(sum < 1e9f) || ct_celt_isnan(sum)) {
            memset(&pcm_buf[total_buffer * st->channels], 0,
                   sizeof(float) * (size_t)(frame_size * st->channels));
            st->hp_mem[0] = st->hp_mem[1] = st->hp_mem[2] = st->hp_mem[3] = 0;
        }
    }

    /* SILK processing */
    HB_gain = CT_Q15ONE;
    if (st->mode != CT_MODE_CELT_ONLY) {
        int32_t total_bitRate, celt_rate;
        int activity;
        int16_t pcm_silk[2 * MAX_FRAME_SIZE];

        activity = VAD_NO_DECISION;
        if (analysis_info.valid) {
            /* Inform SILK about the Opus VAD decision */
            activity = (analysis_info.activity_probability >=
                        DTX_ACTIVITY_THRESHOLD);
        }

        /* Distribute bits between SILK and CELT */
        total_bitRate = 8 * bytes_target * frame_rate;
        if (st->mode == CT_MODE_HYBRID) {
            /* Base rate for SILK */
            st->silk_mode.bitRate = compute_silk_rate_for_hybrid(
                total_bitRate, curr_bandwidth, st->Fs == 50 * frame_size,
                st->use_vbr, st->silk_mode.LBRR_coded, st->stream_channels);
            if (!st->energy_masking) {
                /* Increasingly attenuate high band when it gets allocated
                 * fewer bits */
                celt_rate = total_bitRate - st->silk_mode.bitRate;
                HB_gain = CT_Q15ONE - ct_celt_exp2(-celt_rate * (1.f / 1024));
            }
        } else {
            /* SILK gets all bits */
            st->silk_mode.bitRate = total_bitRate;
        }

        /* Surround masking for SILK */
        if (st->energy_masking && st->use_vbr && !st->lfe) {
            float mask_sum = 0;
            float masking_depth;
            int32_t rate_offset;
            int c;
            int end = 17;
            int16_t srate = 16000;
            if (st->bandwidth == CT_OPUS_BANDWIDTH_NARROWBAND) {
                end = 13;
                srate = 8000;
            } else if (st->bandwidth == CT_OPUS_BANDWIDTH_MEDIUMBAND) {
                end = 15;
                srate = 12000;
            }
            for (c = 0; c < st->channels; c++) {
                for (i = 0; i < end; i++) {
                    float mask;
                    mask = CT_MAX16(CT_MIN16(st->energy_masking[21 * c + i],
                                             .5f),
                                    -2.0f);
                    if (mask > 0)
                        mask = .5f * mask;
                    mask_sum += mask;
                }
            }
            /* Conservative rate reduction, we cut the masking in half */
            masking_depth = mask_sum / end * st->channels;
            masking_depth += .2f;
            rate_offset = (int32_t)((float)srate * masking_depth);
            rate_offset =
                CT_MAX32(rate_offset, -2 * st->silk_mode.bitRate / 3);
            /* Split the rate change between the SILK and CELT part for
             * hybrid. */
            if (st->bandwidth == CT_OPUS_BANDWIDTH_SUPERWIDEBAND ||
                st->bandwidth == CT_OPUS_BANDWIDTH_FULLBAND)
                st->silk_mode.bitRate += 3 * rate_offset / 5;
            else
                st->silk_mode.bitRate += rate_offset;
        }

        st->silk_mode.payloadSize_ms = 1000 * frame_size / st->Fs;
        st->silk_mode.nChannelsAPI = st->channels;
        st->silk_mode.nChannelsInternal = st->stream_channels;
        if (curr_bandwidth == CT_OPUS_BANDWIDTH_NARROWBAND) {
            st->silk_mode.desiredInternalSampleRate = 8000;
        } else if (curr_bandwidth == CT_OPUS_BANDWIDTH_MEDIUMBAND) {
            st->silk_mode.desiredInternalSampleRate = 12000;
        } else {
            st->silk_mode.desiredInternalSampleRate = 16000;
        }
        if (st->mode == CT_MODE_HYBRID) {
            /* Don't allow bandwidth reduction at lowest bitrates in hybrid
             * mode */
            st->silk_mode.minInternalSampleRate = 16000;
        } else {
            st->silk_mode.minInternalSampleRate = 8000;
        }

        st->silk_mode.maxInternalSampleRate = 16000;
        if (st->mode == CT_MODE_SILK_ONLY) {
            int32_t effective_max_rate = max_rate;
            if (frame_rate > 50)
                effective_max_rate = effective_max_rate * 2 / 3;
            if (effective_max_rate < 8000) {
                st->silk_mode.maxInternalSampleRate = 12000;
                st->silk_mode.desiredInternalSampleRate =
                    CT_IMIN(12000, st->silk_mode.desiredInternalSampleRate);
            }
            if (effective_max_rate < 7000) {
                st->silk_mode.maxInternalSampleRate = 8000;
                st->silk_mode.desiredInternalSampleRate =
                    CT_IMIN(8000, st->silk_mode.desiredInternalSampleRate);
            }
        }

        st->silk_mode.useCBR = !st->use_vbr;

        /* Call SILK encoder for the low band */

        /* Max bits for SILK, counting ToC, redundancy bytes, and optionally
         * redundancy. */
        st->silk_mode.maxBits = (max_data_bytes - 1) * 8;
        if (redundancy && redundancy_bytes >= 2) {
            /* Counting 1 bit for redundancy position and 20 bits for
             * flag+size (only for hybrid). */
            st->silk_mode.maxBits -= redundancy_bytes * 8 + 1;
            if (st->mode == CT_MODE_HYBRID)
                st->silk_mode.maxBits -= 20;
        }
        if (st->silk_mode.useCBR) {
            if (st->mode == CT_MODE_HYBRID) {
                st->silk_mode.maxBits =
                    CT_IMIN(st->silk_mode.maxBits,
                            st->silk_mode.bitRate * frame_size / st->Fs);
            }
        } else {
            /* Constrained VBR. */
            if (st->mode == CT_MODE_HYBRID) {
                /* Compute SILK bitrate corresponding to the max total bits
                 * available */
                int32_t maxBitRate = compute_silk_rate_for_hybrid(
                    st->silk_mode.maxBits * st->Fs / frame_size,
                    curr_bandwidth, st->Fs == 50 * frame_size, st->use_vbr,
                    st->silk_mode.LBRR_coded, st->stream_channels);
                st->silk_mode.maxBits = maxBitRate * frame_size / st->Fs;
            }
        }

        if (prefill) {
            int32_t zero = 0;
            int prefill_offset;
            /* Use a smooth onset for the SILK prefill to avoid the encoder
               trying to encode a discontinuity. The exact location is what
               we need to avoid leaving any "gap" in the audio when mixing
               with the redundant CELT frame. Here we can afford to
               overwrite st->delay_buffer because the only thing that uses
               it before it gets rewritten is tmp_prefill[] and even then
               only the part after the ramp really gets used (rather than
               sent to the encoder and discarded) */
            prefill_offset =
                st->channels * (st->encoder_buffer - st->delay_compensation -
                                st->Fs / 400);
            gain_fade(st->delay_buffer + prefill_offset,
                      st->delay_buffer + prefill_offset, 0, CT_Q15ONE,
                      celt_mode->overlap, st->Fs / 400, st->channels,
                      celt_mode->window, st->Fs);
            memset(st->delay_buffer, 0,
                   sizeof(float) * (size_t)prefill_offset);
            for (i = 0; i < st->encoder_buffer * st->channels; i++)
                pcm_silk[i] = FLOAT2INT16(st->delay_buffer[i]);
            ct_silk_Encode(silk_enc, &st->silk_mode, pcm_silk,
                           st->encoder_buffer, NULL, &zero, prefill,
                           activity);
            /* Prevent a second switch in the real encode call. */
            st->silk_mode.opusCanSwitch = 0;
        }

        for (i = 0; i < frame_size * st->channels; i++)
            pcm_silk[i] = FLOAT2INT16(pcm_buf[total_buffer * st->channels + i]);
        ret = ct_silk_Encode(silk_enc, &st->silk_mode, pcm_silk, frame_size,
                             &enc, &nBytes, 0, activity);
        if (ret) {
            return CT_OPUS_INTERNAL_ERROR;
        }

        /* Extract SILK internal bandwidth for signaling in first byte */
        if (st->mode == CT_MODE_SILK_ONLY) {
            if (st->silk_mode.internalSampleRate == 8000) {
                curr_bandwidth = CT_OPUS_BANDWIDTH_NARROWBAND;
            } else if (st->silk_mode.internalSampleRate == 12000) {
                curr_bandwidth = CT_OPUS_BANDWIDTH_MEDIUMBAND;
            } else if (st->silk_mode.internalSampleRate == 16000) {
                curr_bandwidth = CT_OPUS_BANDWIDTH_WIDEBAND;
            }
        }

        st->silk_mode.opusCanSwitch =
            st->silk_mode.switchReady && !st->nonfinal_frame;

        if (nBytes == 0) {
            st->rangeFinal = 0;
            data[-1] = gen_toc(st->mode, st->Fs / frame_size, curr_bandwidth,
                               st->stream_channels);
            return 1;
        }

        /* FIXME: How do we allocate the redundancy for CBR? */
        if (st->silk_mode.opusCanSwitch) {
            redundancy_bytes = compute_redundancy_bytes(
                max_data_bytes, st->bitrate_bps, frame_rate,
                st->stream_channels);
            redundancy = (redundancy_bytes != 0);
            celt_to_silk = 0;
            st->silk_bw_switch = 1;
        }
    }

    /* CELT processing */
    {
        int endband = 21;

        switch (curr_bandwidth) {
        case CT_OPUS_BANDWIDTH_NARROWBAND:
            endband = 13;
            break;
        case CT_OPUS_BANDWIDTH_MEDIUMBAND:
        case CT_OPUS_BANDWIDTH_WIDEBAND:
            endband = 17;
            break;
        case CT_OPUS_BANDWIDTH_SUPERWIDEBAND:
            endband = 19;
            break;
        case CT_OPUS_BANDWIDTH_FULLBAND:
            endband = 21;
            break;
        }
        ct_celt_encoder_set_end_band(celt_enc, endband);
        ct_celt_encoder_set_channels(celt_enc, st->stream_channels);
    }
    ct_celt_encoder_set_bitrate(celt_enc, CT_CELT_BITRATE_MAX);
    if (st->mode != CT_MODE_SILK_ONLY) {
        int celt_pred = 2;
        ct_celt_encoder_set_vbr(celt_enc, 0);
        /* We may still decide to disable prediction later */
        if (st->silk_mode.reducedDependency)
            celt_pred = 0;
        ct_celt_encoder_set_prediction(celt_enc, celt_pred);

        if (st->mode == CT_MODE_HYBRID) {
            if (st->use_vbr) {
                ct_celt_encoder_set_bitrate(
                    celt_enc, st->bitrate_bps - st->silk_mode.bitRate);
                ct_celt_encoder_set_vbr_constraint(celt_enc, 0);
            }
        } else {
            if (st->use_vbr) {
                ct_celt_encoder_set_vbr(celt_enc, 1);
                ct_celt_encoder_set_vbr_constraint(celt_enc,
                                                   st->vbr_constraint);
                ct_celt_encoder_set_bitrate(celt_enc, st->bitrate_bps);
            }
        }
    }

    if (st->mode != CT_MODE_SILK_ONLY && st->mode != st->prev_mode &&
        st->prev_mode > 0) {
        memcpy(tmp_prefill,
               &st->delay_buffer[(st->encoder_buffer - total_buffer -
                                  st->Fs / 400) *
                                 st->channels],
               sizeof(float) * (size_t)(st->channels * st->Fs / 400));
    }

    if (st->channels * (st->encoder_buffer - (frame_size + total_buffer)) >
        0) {
        memmove(st->delay_buffer, &st->delay_buffer[st->channels * frame_size],
                sizeof(float) * (size_t)(st->channels *
                                         (st->encoder_buffer - frame_size -
                                          total_buffer)));
        memcpy(&st->delay_buffer[st->channels * (st->encoder_buffer -
                                                 frame_size - total_buffer)],
               &pcm_buf[0],
               sizeof(float) * (size_t)((frame_size + total_buffer) *
                                        st->channels));
    } else {
        memcpy(st->delay_buffer,
               &pcm_buf[(frame_size + total_buffer - st->encoder_buffer) *
                        st->channels],
               sizeof(float) * (size_t)(st->encoder_buffer * st->channels));
    }
    /* gain_fade() and stereo_fade() need to be after the buffer copying
       because we don't want any of this to affect the SILK part */
    if (st->prev_HB_gain < CT_Q15ONE || HB_gain < CT_Q15ONE) {
        gain_fade(pcm_buf, pcm_buf, st->prev_HB_gain, HB_gain,
                  celt_mode->overlap, frame_size, st->channels,
                  celt_mode->window, st->Fs);
    }
    st->prev_HB_gain = HB_gain;
    if (st->mode != CT_MODE_HYBRID || st->stream_channels == 1) {
        if (equiv_rate > 32000)
            st->silk_mode.stereoWidth_Q14 = 16384;
        else if (equiv_rate < 16000)
            st->silk_mode.stereoWidth_Q14 = 0;
        else
            st->silk_mode.stereoWidth_Q14 =
                16384 -
                2048 * (int32_t)(32000 - equiv_rate) / (equiv_rate - 14000);
    }
    if (!st->energy_masking && st->channels == 2) {
        /* Apply stereo width reduction (at low bitrates) */
        if (st->hybrid_stereo_width_Q14 < (1 << 14) ||
            st->silk_mode.stereoWidth_Q14 < (1 << 14)) {
            float g1, g2;
            g1 = st->hybrid_stereo_width_Q14;
            g2 = (float)(st->silk_mode.stereoWidth_Q14);
            g1 *= (1.f / 16384);
            g2 *= (1.f / 16384);
            stereo_fade(pcm_buf, pcm_buf, g1, g2, celt_mode->overlap,
                        frame_size, st->channels, celt_mode->window, st->Fs);
            st->hybrid_stereo_width_Q14 =
                (int16_t)st->silk_mode.stereoWidth_Q14;
        }
    }

    if (st->mode != CT_MODE_CELT_ONLY &&
        ct_ec_tell(&enc) + 17 + 20 * (st->mode == CT_MODE_HYBRID) <=
            8 * (max_data_bytes - 1)) {
        /* For SILK mode, the redundancy is inferred from the length */
        if (st->mode == CT_MODE_HYBRID)
            ct_ec_enc_bit_logp(&enc, redundancy, 12);
        if (redundancy) {
            int max_redundancy;
            ct_ec_enc_bit_logp(&enc, celt_to_silk, 1);
            if (st->mode == CT_MODE_HYBRID) {
                /* Reserve the 8 bits needed for the redundancy length,
                   and at least a few bits for CELT if possible */
                max_redundancy = (max_data_bytes - 1) -
                                 ((ct_ec_tell(&enc) + 8 + 3 + 7) >> 3);
            } else
                max_redundancy =
                    (max_data_bytes - 1) - ((ct_ec_tell(&enc) + 7) >> 3);
            /* Target the same bit-rate for redundancy as for the rest,
               up to a max of 257 bytes */
            redundancy_bytes = CT_IMIN(max_redundancy, redundancy_bytes);
            redundancy_bytes = CT_IMIN(257, CT_IMAX(2, redundancy_bytes));
            if (st->mode == CT_MODE_HYBRID)
                ct_ec_enc_uint(&enc, (uint32_t)(redundancy_bytes - 2), 256);
        }
    } else {
        redundancy = 0;
    }

    if (!redundancy) {
        st->silk_bw_switch = 0;
        redundancy_bytes = 0;
    }
    if (st->mode != CT_MODE_CELT_ONLY)
        start_band = 17;

    if (st->mode == CT_MODE_SILK_ONLY) {
        ret = (ct_ec_tell(&enc) + 7) >> 3;
        ct_ec_enc_done(&enc);
        nb_compr_bytes = ret;
    } else {
        nb_compr_bytes = (max_data_bytes - 1) - redundancy_bytes;
        ct_ec_enc_shrink(&enc, (uint32_t)nb_compr_bytes);
    }

    if (redundancy || st->mode != CT_MODE_SILK_ONLY)
        ct_celt_encoder_set_analysis(celt_enc, &analysis_info);
    if (st->mode == CT_MODE_HYBRID) {
        ct_silk_info info;
        info.signalType = st->silk_mode.signalType;
        info.offset = st->silk_mode.offset;
        ct_celt_encoder_set_silk_info(celt_enc, &info);
    }

    /* 5 ms redundant frame for CELT->SILK */
    if (redundancy && celt_to_silk) {
        int err;
        ct_celt_encoder_set_start_band(celt_enc, 0);
        ct_celt_encoder_set_vbr(celt_enc, 0);
        ct_celt_encoder_set_bitrate(celt_enc, CT_CELT_BITRATE_MAX);
        err = ct_celt_encode_with_ec(celt_enc, pcm_buf, st->Fs / 200,
                                     data + nb_compr_bytes, redundancy_bytes,
                                     NULL);
        if (err < 0) {
            return CT_OPUS_INTERNAL_ERROR;
        }
        redundant_rng = ct_celt_encoder_get_final_range(celt_enc);
        ct_celt_encoder_reset(celt_enc);
    }

    ct_celt_encoder_set_start_band(celt_enc, start_band);

    if (st->mode != CT_MODE_SILK_ONLY) {
        if (st->mode != st->prev_mode && st->prev_mode > 0) {
            unsigned char dummy[2];
            ct_celt_encoder_reset(celt_enc);

            /* Prefilling */
            ct_celt_encode_with_ec(celt_enc, tmp_prefill, st->Fs / 400,
                                   dummy, 2, NULL);
            ct_celt_encoder_set_prediction(celt_enc, 0);
        }
        /* If false, we already busted the budget and we'll end up with a
         * "PLC frame" */
        if (ct_ec_tell(&enc) <= 8 * nb_compr_bytes) {
            /* Set the bitrate again if it was overridden in the redundancy
             * code above*/
            if (redundancy && celt_to_silk && st->mode == CT_MODE_HYBRID &&
                st->use_vbr)
                ct_celt_encoder_set_bitrate(
                    celt_enc, st->bitrate_bps - st->silk_mode.bitRate);
            ct_celt_encoder_set_vbr(celt_enc, st->use_vbr);
            ret = ct_celt_encode_with_ec(celt_enc, pcm_buf, frame_size, NULL,
                                         nb_compr_bytes, &enc);
            if (ret < 0) {
                return CT_OPUS_INTERNAL_ERROR;
            }
            /* Put CELT->SILK redundancy data in the right place. */
            if (redundancy && celt_to_silk && st->mode == CT_MODE_HYBRID &&
                st->use_vbr) {
                memmove(data + ret, data + nb_compr_bytes,
                        (size_t)redundancy_bytes);
                nb_compr_bytes = nb_compr_bytes + redundancy_bytes;
            }
        }
    }

    /* 5 ms redundant frame for SILK->CELT */
    if (redundancy && !celt_to_silk) {
        int err;
        unsigned char dummy[2];
        int N2, N4;
        N2 = st->Fs / 200;
        N4 = st->Fs / 400;

        ct_celt_encoder_reset(celt_enc);
        ct_celt_encoder_set_start_band(celt_enc, 0);
        ct_celt_encoder_set_prediction(celt_enc, 0);
        ct_celt_encoder_set_vbr(celt_enc, 0);
        ct_celt_encoder_set_bitrate(celt_enc, CT_CELT_BITRATE_MAX);

        if (st->mode == CT_MODE_HYBRID) {
            /* Shrink packet to what the encoder actually used. */
            nb_compr_bytes = ret;
            ct_ec_enc_shrink(&enc, (uint32_t)nb_compr_bytes);
        }
        /* NOTE: We could speed this up slightly (at the expense of code
         * size) by just adding a function that prefills the buffer */
        ct_celt_encode_with_ec(celt_enc,
                               pcm_buf + st->channels * (frame_size - N2 - N4),
                               N4, dummy, 2, NULL);

        err = ct_celt_encode_with_ec(celt_enc,
                                     pcm_buf + st->channels * (frame_size - N2),
                                     N2, data + nb_compr_bytes,
                                     redundancy_bytes, NULL);
        if (err < 0) {
            return CT_OPUS_INTERNAL_ERROR;
        }
        redundant_rng = ct_celt_encoder_get_final_range(celt_enc);
    }

    /* Signalling the mode in the first byte */
    data--;
    data[0] = gen_toc(st->mode, st->Fs / frame_size, curr_bandwidth,
                      st->stream_channels);

    st->rangeFinal = enc.rng ^ redundant_rng;

    if (to_celt)
        st->prev_mode = CT_MODE_CELT_ONLY;
    else
        st->prev_mode = st->mode;
    st->prev_channels = st->stream_channels;
    st->prev_framesize = frame_size;

    st->first = 0;

    /* DTX decision */
    if (st->use_dtx && (analysis_info.valid || is_silence)) {
        if (decide_dtx_mode(analysis_info.activity_probability,
                            &st->nb_no_activity_frames,
                            st->peak_signal_energy, pcm, frame_size,
                            st->channels, is_silence, st->dsp)) {
            st->rangeFinal = 0;
            data[0] = gen_toc(st->mode, st->Fs / frame_size, curr_bandwidth,
                              st->stream_channels);
            return 1;
        }
    } else {
        st->nb_no_activity_frames = 0;
    }

    /* In the unlikely case that the SILK encoder busted its target, tell
       the decoder to call the PLC */
    if (ct_ec_tell(&enc) > (max_data_bytes - 1) * 8) {
        if (max_data_bytes < 2) {
            return CT_OPUS_BUFFER_TOO_SMALL;
        }
        data[1] = 0;
        ret = 1;
        st->rangeFinal = 0;
    } else if (st->mode == CT_MODE_SILK_ONLY && !redundancy) {
        /*When in LPC only mode it's perfectly
          reasonable to strip off trailing zero bytes as
          the required range decoder behavior is to
          fill these in. This can't be done when the MDCT
          modes are used because the decoder needs to know
          the actual length for allocation purposes.*/
        while (ret > 2 && data[ret] == 0)
            ret--;
    }
    /* Count ToC and redundancy */
    ret += 1 + redundancy_bytes;
    if (!st->use_vbr) {
        if (ct_opus_packet_pad(data, ret, max_data_bytes) != CT_OPUS_OK) {
            return CT_OPUS_INTERNAL_ERROR;
        }
        ret = max_data_bytes;
    }
    return ret;
}

/* The ctls */

int ct_opus_encoder_set_application(ct_opus_codec *st, int32_t value)
{
    if ((value != CT_OPUS_APPLICATION_VOIP &&
         value != CT_OPUS_APPLICATION_AUDIO &&
         value != CT_OPUS_APPLICATION_RESTRICTED_LOWDELAY) ||
        (!st->first && st->application != value))
        return CT_OPUS_BAD_ARG;
    st->application = value;
    st->analysis.application = value;
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_bitrate(ct_opus_codec *st, int32_t value)
{
    if (value != CT_OPUS_AUTO && value != CT_OPUS_BITRATE_MAX) {
        if (value <= 0)
            return CT_OPUS_BAD_ARG;
        else if (value <= 500)
            value = 500;
        else if (value > (int32_t)300000 * st->channels)
            value = (int32_t)300000 * st->channels;
    }
    st->user_bitrate_bps = value;
    return CT_OPUS_OK;
}

int32_t ct_opus_encoder_get_bitrate(const ct_opus_codec *st)
{
    return user_bitrate_to_bitrate(st, st->prev_framesize, 1276);
}

int ct_opus_encoder_set_force_channels(ct_opus_codec *st, int32_t value)
{
    if ((value < 1 || value > st->channels) && value != CT_OPUS_AUTO)
        return CT_OPUS_BAD_ARG;
    st->force_channels = value;
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_max_bandwidth(ct_opus_codec *st, int32_t value)
{
    if (value < CT_OPUS_BANDWIDTH_NARROWBAND ||
        value > CT_OPUS_BANDWIDTH_FULLBAND)
        return CT_OPUS_BAD_ARG;
    st->max_bandwidth = value;
    if (st->max_bandwidth == CT_OPUS_BANDWIDTH_NARROWBAND) {
        st->silk_mode.maxInternalSampleRate = 8000;
    } else if (st->max_bandwidth == CT_OPUS_BANDWIDTH_MEDIUMBAND) {
        st->silk_mode.maxInternalSampleRate = 12000;
    } else {
        st->silk_mode.maxInternalSampleRate = 16000;
    }
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_bandwidth(ct_opus_codec *st, int32_t value)
{
    if ((value < CT_OPUS_BANDWIDTH_NARROWBAND ||
         value > CT_OPUS_BANDWIDTH_FULLBAND) &&
        value != CT_OPUS_AUTO)
        return CT_OPUS_BAD_ARG;
    st->user_bandwidth = value;
    if (st->user_bandwidth == CT_OPUS_BANDWIDTH_NARROWBAND) {
        st->silk_mode.maxInternalSampleRate = 8000;
    } else if (st->user_bandwidth == CT_OPUS_BANDWIDTH_MEDIUMBAND) {
        st->silk_mode.maxInternalSampleRate = 12000;
    } else {
        st->silk_mode.maxInternalSampleRate = 16000;
    }
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_complexity(ct_opus_codec *st, int32_t value)
{
    if (value < 0 || value > 10)
        return CT_OPUS_BAD_ARG;
    st->silk_mode.complexity = value;
    st->user_complexity = value;
    ct_celt_encoder_set_complexity(&st->celt_enc, value);
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_packet_loss_perc(ct_opus_codec *st, int32_t value)
{
    if (value < 0 || value > 100)
        return CT_OPUS_BAD_ARG;
    st->silk_mode.packetLossPercentage = value;
    ct_celt_encoder_set_packet_loss_perc(&st->celt_enc, value);
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_vbr(ct_opus_codec *st, int32_t value)
{
    if (value < 0 || value > 1)
        return CT_OPUS_BAD_ARG;
    st->use_vbr = value;
    st->silk_mode.useCBR = 1 - value;
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_vbr_constraint(ct_opus_codec *st, int32_t value)
{
    if (value < 0 || value > 1)
        return CT_OPUS_BAD_ARG;
    st->vbr_constraint = value;
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_signal(ct_opus_codec *st, int32_t value)
{
    if (value != CT_OPUS_AUTO && value != CT_OPUS_CODEC_SIGNAL_VOICE &&
        value != CT_OPUS_CODEC_SIGNAL_MUSIC)
        return CT_OPUS_BAD_ARG;
    st->signal_type = value;
    return CT_OPUS_OK;
}

int32_t ct_opus_encoder_get_lookahead(const ct_opus_codec *st)
{
    int32_t value = st->Fs / 400;
    if (st->application != CT_OPUS_APPLICATION_RESTRICTED_LOWDELAY)
        value += st->delay_compensation;
    return value;
}

uint32_t ct_opus_encoder_get_final_range(const ct_opus_codec *st)
{
    return st->rangeFinal;
}

int ct_opus_encoder_set_lsb_depth(ct_opus_codec *st, int32_t value)
{
    if (value < 8 || value > 24)
        return CT_OPUS_BAD_ARG;
    st->lsb_depth = value;
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_prediction_disabled(ct_opus_codec *st, int32_t value)
{
    if (value > 1 || value < 0)
        return CT_OPUS_BAD_ARG;
    st->silk_mode.reducedDependency = value;
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_phase_inversion_disabled(ct_opus_codec *st,
                                                 int32_t value)
{
    if (value < 0 || value > 1)
        return CT_OPUS_BAD_ARG;
    ct_celt_encoder_set_phase_inversion_disabled(&st->celt_enc, value);
    return CT_OPUS_OK;
}

int ct_opus_encoder_set_force_mode(ct_opus_codec *st, int32_t value)
{
    if ((value < CT_MODE_SILK_ONLY || value > CT_MODE_CELT_ONLY) &&
        value != CT_OPUS_AUTO)
        return CT_OPUS_BAD_ARG;
    st->user_forced_mode = value;
    return CT_OPUS_OK;
}

void ct_opus_encoder_reset_state(ct_opus_codec *st)
{
    char *start;
    ct_silk_EncControlStruct dummy;

    analysis_reset(st);

    start = (char *)&st->stream_channels;
    memset(start, 0, offsetof(ct_opus_codec, celt_enc) -
                         offsetof(ct_opus_codec, stream_channels));

    ct_celt_encoder_reset(&st->celt_enc);
    ct_silk_InitEncoder(&st->silk_enc, st->dsp, &dummy);
    st->stream_channels = st->channels;
    st->hybrid_stereo_width_Q14 = 1 << 14;
    st->prev_HB_gain = CT_Q15ONE;
    st->first = 1;
    st->mode = CT_MODE_HYBRID;
    st->bandwidth = CT_OPUS_BANDWIDTH_FULLBAND;
    st->variable_HP_smth2_Q15 =
        silk_LSHIFT(ct_silk_lin2log(VARIABLE_HP_MIN_CUTOFF_HZ), 8);
}
