/*
 * The tonality analysis (float build): the downmix at 24 kHz, a 480-point
 * FFT every 20 ms over a 30 ms window, per-bin phase prediction for the
 * tonality, band energies for the bandwidth, the leakage boosts and the
 * network's features, then the music and activity probabilities; and
 * tonality_get_info, which reads the frames around the one being coded.
 * The reference's ring of 100 entries is a history of 512 here
 * (analysis.h), read through a view, so that the writer may run ahead.
 *
 * Kept as the reference computes it: float arithmetic in the same order,
 * with the double promotions of its libm calls and double constants
 * (log, sqrt, floor; M_PI is <math.h>'s, as the reference's gnu build
 * sees it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/analysis.c and downmix_float of
 * src/opus_encoder.c (BSD-3-Clause, Xiph.Org Foundation and contributors).
 */
#include "analysis.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "codec.h"
#include "fft.h"
#include "mathops.h"
#include "mlp.h"
#include "mode.h"

/* <math.h>'s M_PI, which the reference's -std=gnu build has */
#define M_PI_D 3.14159265358979323846

#define NB_FRAMES          CT_OPUS_NB_FRAMES
#define NB_TBANDS          CT_OPUS_NB_TBANDS
#define ANALYSIS_BUF_SIZE  CT_OPUS_ANALYSIS_BUF_SIZE
#define ANALYSIS_COUNT_MAX CT_OPUS_ANALYSIS_COUNT_MAX
#define DETECT_SIZE        CT_OPUS_DETECT_SIZE
#define LEAK_BANDS         CT_OPUS_LEAK_BANDS

#define TRANSITION_PENALTY 10

/* celt/float_cast.h float2int: cvtss2si where the reference has SSE
 * (round to nearest even) */
static inline int32_t float2int(float x)
{
#if defined(__SSE__)
    return _mm_cvt_ss2si(_mm_set_ss(x));
#else
    return (int32_t)lrintf(x);
#endif
}

/* the DCT-II basis of 16 bands (8 coefficients) */
/* clang-format off */
static const float dct_table[128] = {
    0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f,
    0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f, 0.250000f,
    0.351851f, 0.338330f, 0.311806f, 0.273300f, 0.224292f, 0.166664f, 0.102631f, 0.034654f,
    -0.034654f,-0.102631f,-0.166664f,-0.224292f,-0.273300f,-0.311806f,-0.338330f,-0.351851f,
    0.346760f, 0.293969f, 0.196424f, 0.068975f,-0.068975f,-0.196424f,-0.293969f,-0.346760f,
    -0.346760f,-0.293969f,-0.196424f,-0.068975f, 0.068975f, 0.196424f, 0.293969f, 0.346760f,
    0.338330f, 0.224292f, 0.034654f,-0.166664f,-0.311806f,-0.351851f,-0.273300f,-0.102631f,
    0.102631f, 0.273300f, 0.351851f, 0.311806f, 0.166664f,-0.034654f,-0.224292f,-0.338330f,
    0.326641f, 0.135299f,-0.135299f,-0.326641f,-0.326641f,-0.135299f, 0.135299f, 0.326641f,
    0.326641f, 0.135299f,-0.135299f,-0.326641f,-0.326641f,-0.135299f, 0.135299f, 0.326641f,
    0.311806f, 0.034654f,-0.273300f,-0.338330f,-0.102631f, 0.224292f, 0.351851f, 0.166664f,
    -0.166664f,-0.351851f,-0.224292f, 0.102631f, 0.338330f, 0.273300f,-0.034654f,-0.311806f,
    0.293969f,-0.068975f,-0.346760f,-0.196424f, 0.196424f, 0.346760f, 0.068975f,-0.293969f,
    -0.293969f, 0.068975f, 0.346760f, 0.196424f,-0.196424f,-0.346760f,-0.068975f, 0.293969f,
    0.273300f,-0.166664f,-0.338330f, 0.034654f, 0.351851f, 0.102631f,-0.311806f,-0.224292f,
    0.224292f, 0.311806f,-0.102631f,-0.351851f,-0.034654f, 0.338330f, 0.166664f,-0.273300f,
};

static const float analysis_window[240] = {
    0.000043f, 0.000171f, 0.000385f, 0.000685f, 0.001071f, 0.001541f, 0.002098f, 0.002739f,
    0.003466f, 0.004278f, 0.005174f, 0.006156f, 0.007222f, 0.008373f, 0.009607f, 0.010926f,
    0.012329f, 0.013815f, 0.015385f, 0.017037f, 0.018772f, 0.020590f, 0.022490f, 0.024472f,
    0.026535f, 0.028679f, 0.030904f, 0.033210f, 0.035595f, 0.038060f, 0.040604f, 0.043227f,
    0.045928f, 0.048707f, 0.051564f, 0.054497f, 0.057506f, 0.060591f, 0.063752f, 0.066987f,
    0.070297f, 0.073680f, 0.077136f, 0.080665f, 0.084265f, 0.087937f, 0.091679f, 0.095492f,
    0.099373f, 0.103323f, 0.107342f, 0.111427f, 0.115579f, 0.119797f, 0.124080f, 0.128428f,
    0.132839f, 0.137313f, 0.141849f, 0.146447f, 0.151105f, 0.155823f, 0.160600f, 0.165435f,
    0.170327f, 0.175276f, 0.180280f, 0.185340f, 0.190453f, 0.195619f, 0.200838f, 0.206107f,
    0.211427f, 0.216797f, 0.222215f, 0.227680f, 0.233193f, 0.238751f, 0.244353f, 0.250000f,
    0.255689f, 0.261421f, 0.267193f, 0.273005f, 0.278856f, 0.284744f, 0.290670f, 0.296632f,
    0.302628f, 0.308658f, 0.314721f, 0.320816f, 0.326941f, 0.333097f, 0.339280f, 0.345492f,
    0.351729f, 0.357992f, 0.364280f, 0.370590f, 0.376923f, 0.383277f, 0.389651f, 0.396044f,
    0.402455f, 0.408882f, 0.415325f, 0.421783f, 0.428254f, 0.434737f, 0.441231f, 0.447736f,
    0.454249f, 0.460770f, 0.467298f, 0.473832f, 0.480370f, 0.486912f, 0.493455f, 0.500000f,
    0.506545f, 0.513088f, 0.519630f, 0.526168f, 0.532702f, 0.539230f, 0.545751f, 0.552264f,
    0.558769f, 0.565263f, 0.571746f, 0.578217f, 0.584675f, 0.591118f, 0.597545f, 0.603956f,
    0.610349f, 0.616723f, 0.623077f, 0.629410f, 0.635720f, 0.642008f, 0.648271f, 0.654508f,
    0.660720f, 0.666903f, 0.673059f, 0.679184f, 0.685279f, 0.691342f, 0.697372f, 0.703368f,
    0.709330f, 0.715256f, 0.721144f, 0.726995f, 0.732807f, 0.738579f, 0.744311f, 0.750000f,
    0.755647f, 0.761249f, 0.766807f, 0.772320f, 0.777785f, 0.783203f, 0.788573f, 0.793893f,
    0.799162f, 0.804381f, 0.809547f, 0.814660f, 0.819720f, 0.824724f, 0.829673f, 0.834565f,
    0.839400f, 0.844177f, 0.848895f, 0.853553f, 0.858151f, 0.862687f, 0.867161f, 0.871572f,
    0.875920f, 0.880203f, 0.884421f, 0.888573f, 0.892658f, 0.896677f, 0.900627f, 0.904508f,
    0.908321f, 0.912063f, 0.915735f, 0.919335f, 0.922864f, 0.926320f, 0.929703f, 0.933013f,
    0.936248f, 0.939409f, 0.942494f, 0.945503f, 0.948436f, 0.951293f, 0.954072f, 0.956773f,
    0.959396f, 0.961940f, 0.964405f, 0.966790f, 0.969096f, 0.971321f, 0.973465f, 0.975528f,
    0.977510f, 0.979410f, 0.981228f, 0.982963f, 0.984615f, 0.986185f, 0.987671f, 0.989074f,
    0.990393f, 0.991627f, 0.992778f, 0.993844f, 0.994826f, 0.995722f, 0.996534f, 0.997261f,
    0.997902f, 0.998459f, 0.998929f, 0.999315f, 0.999615f, 0.999829f, 0.999957f, 1.000000f,
};

static const int tbands[NB_TBANDS + 1] = {
    4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 136, 160, 192, 240
};
/* clang-format on */

#define NB_TONAL_SKIP_BANDS 9

/* clang-format off */
static const float std_feature_bias[9] = {
    5.684947f, 3.475288f, 1.770634f, 1.599784f, 3.773215f,
    2.163313f, 1.260756f, 1.116868f, 1.918795f
};
/* clang-format on */

#define LEAKAGE_OFFSET 2.5f
#define LEAKAGE_SLOPE  2.f

void ct_opus_downmix_float(const void *_x, float *y, int subframe, int offset,
                           int c1, int c2, int C)
{
    const float *x;
    int j;

    x = (const float *)_x;
    for (j = 0; j < subframe; j++)
        y[j] = x[(j + offset) * C + c1] * CT_CELT_SIG_SCALE;
    if (c2 > -1) {
        for (j = 0; j < subframe; j++)
            y[j] += x[(j + offset) * C + c2] * CT_CELT_SIG_SCALE;
    } else if (c2 == -2) {
        int c;
        for (c = 1; c < C; c++) {
            for (j = 0; j < subframe; j++)
                y[j] += x[(j + offset) * C + c] * CT_CELT_SIG_SCALE;
        }
    }
}

/* The float build of SILK's 2:1 down-sampler with a high-pass branch: the
 * output is half the sum of the two all-pass sections, and the return value
 * the energy of the high band (their difference) */
/* S: the state [3]; out: inLen / 2 samples */
static float silk_resampler_down2_hp(float *S, float *out, const float *in,
                                     int inLen)
{
    int k, len2 = inLen / 2;
    float in32, out32, out32_hp, Y, X;
    float hp_ener = 0;
    for (k = 0; k < len2; k++) {
        in32 = in[2 * k];

        /* All-pass section for even input sample */
        Y = in32 - S[0];
        X = 0.6074371f * Y;
        out32 = S[0] + X;
        S[0] = in32 + X;
        out32_hp = out32;
        in32 = in[2 * k + 1];

        /* All-pass section for odd input sample, and add to output of
         * previous section */
        Y = in32 - S[1];
        X = 0.15063f * Y;
        out32 = out32 + S[1];
        out32 = out32 + X;
        S[1] = in32 + X;

        Y = -in32 - S[2];
        X = 0.15063f * Y;
        out32_hp = out32_hp + S[2];
        out32_hp = out32_hp + X;
        S[2] = -in32 + X;

        hp_ener += out32_hp * out32_hp;
        out[k] = .5f * out32;
    }
    return hp_ener;
}

static float downmix_and_resample(ct_opus_downmix_func downmix, const void *_x,
                                  float *y, float S[3], int subframe,
                                  int offset, int c1, int c2, int C, int Fs)
{
    /* at most 2 * 480 (48 kHz), or 3 * 320 once tripled (16 kHz) */
    float tmp[960];
    float scale;
    int j;
    float ret = 0;

    if (subframe == 0)
        return 0;
    if (Fs == 48000) {
        subframe *= 2;
        offset *= 2;
    } else if (Fs == 16000) {
        subframe = subframe * 2 / 3;
        offset = offset * 2 / 3;
    }

    downmix(_x, tmp, subframe, offset, c1, c2, C);
    scale = 1.f / 32768;
    if (c2 == -2)
        scale /= C;
    else if (c2 > -1)
        scale /= 2;
    for (j = 0; j < subframe; j++)
        tmp[j] *= scale;
    if (Fs == 48000) {
        ret = silk_resampler_down2_hp(S, y, tmp, subframe);
    } else if (Fs == 24000) {
        memcpy(y, tmp, subframe * sizeof(*y));
    } else if (Fs == 16000) {
        float tmp3x[960];
        /* Don't do this at home! This resampler is horrible and it's only
         * (barely) usable for the purpose of the analysis because we don't
         * care about all the aliasing between 8 kHz and 12 kHz. */
        for (j = 0; j < subframe; j++) {
            tmp3x[3 * j] = tmp[j];
            tmp3x[3 * j + 1] = tmp[j];
            tmp3x[3 * j + 2] = tmp[j];
        }
        silk_resampler_down2_hp(S, y, tmp3x, 3 * subframe);
    }
    return ret;
}

void ct_opus_tonality_analysis_init(ct_tonality_analysis *tonal, int32_t Fs,
                                    const ct_opus_dsp *dsp)
{
    /* Initialize reusable fields. */
    tonal->Fs = Fs;
    tonal->dsp = dsp;
    /* Clear remaining fields. */
    ct_opus_tonality_analysis_reset(tonal);
}

void ct_opus_tonality_analysis_reset(ct_tonality_analysis *tonal)
{
    /* Clear non-reusable fields. */
    memset(tonal->angle, 0,
           sizeof(*tonal) - offsetof(ct_tonality_analysis, angle));
}

void ct_opus_tonality_view(const ct_tonality_analysis *tonal,
                           ct_tonality_view *view)
{
    view->write_count = tonal->write_count;
    view->count = tonal->count;
}

/* What the reference's ring holds before anything is written there (the
 * reset zeroes it) */
static const ct_analysis_info no_entry;

/* Entry a of the history; a < 0: never written */
static const ct_analysis_info *history_entry(const ct_tonality_analysis *tonal,
                                             int64_t a)
{
    if (a < 0)
        return &no_entry;
    return &tonal->history[a % CT_OPUS_ANALYSIS_HISTORY];
}

/* The entry that the reference's ring holds at position p (0 <= p <
 * DETECT_SIZE) once the view's entries are written: write_pos (the view's
 * count modulo DETECT_SIZE) follows the last written, so p holds the entry
 * (write_pos - 1 - p) mod DETECT_SIZE before the last. */
static const ct_analysis_info *ring_entry(const ct_tonality_analysis *tonal,
                                          const ct_tonality_view *view,
                                          int write_pos, int p)
{
    int back = (write_pos - 1 - p + DETECT_SIZE) % DETECT_SIZE;
    return history_entry(tonal, view->write_count - 1 - back);
}

/* The reader's step of get_info: moves the read position on by len
 * samples and returns the position of the entry the call reads first. */
static int reader_step(int32_t Fs, int write_pos, int *read_pos,
                       int *read_subframe, int len)
{
    int pos = *read_pos;
    *read_subframe += len / (Fs / 400);
    while (*read_subframe >= 8) {
        *read_subframe -= 8;
        (*read_pos)++;
    }
    if (*read_pos >= DETECT_SIZE)
        *read_pos -= DETECT_SIZE;

    /* On long frames, look at the second analysis window rather than the
     * first. */
    if (len > Fs / 50 && pos != write_pos) {
        pos++;
        if (pos == DETECT_SIZE)
            pos = 0;
    }
    if (pos == write_pos)
        pos--;
    if (pos < 0)
        pos = DETECT_SIZE - 1;
    return pos;
}

const ct_analysis_info *ct_opus_tonality_peek_entry(
    const ct_tonality_analysis *tonal, const ct_tonality_view *view,
    int *read_pos, int *read_subframe, int len)
{
    const int write_pos = (int)(view->write_count % DETECT_SIZE);
    int pos = reader_step(tonal->Fs, write_pos, read_pos, read_subframe, len);
    return ring_entry(tonal, view, write_pos, pos);
}

void ct_opus_tonality_get_info(ct_tonality_analysis *tonal,
                               const ct_tonality_view *view,
                               ct_analysis_info *info_out, int len)
{
    /* The reference's tonal->write_pos and tonal->count, as the view saw
     * them */
    const int write_pos = (int)(view->write_count % DETECT_SIZE);
    const int count = view->count;
    int pos;
    int curr_lookahead;
    float tonality_max;
    float tonality_avg;
    int tonality_count;
    int i;
    int pos0;
    float prob_avg;
    float prob_count;
    float prob_min, prob_max;
    float vad_prob;
    int mpos, vpos;
    int bandwidth_span;

    curr_lookahead = write_pos - tonal->read_pos;
    if (curr_lookahead < 0)
        curr_lookahead += DETECT_SIZE;
    pos = reader_step(tonal->Fs, write_pos, &tonal->read_pos,
                      &tonal->read_subframe, len);
    pos0 = pos;
    memcpy(info_out, ring_entry(tonal, view, write_pos, pos),
           sizeof(*info_out));
    if (!info_out->valid)
        return;
    tonality_max = tonality_avg = info_out->tonality;
    tonality_count = 1;
    /* Look at the neighbouring frames and pick largest bandwidth found (to
     * be safe). */
    bandwidth_span = 6;
    /* If possible, look ahead for a tone to compensate for the delay in the
     * tone detector. */
    for (i = 0; i < 3; i++) {
        pos++;
        if (pos == DETECT_SIZE)
            pos = 0;
        if (pos == write_pos)
            break;
        tonality_max = CT_MAX32(
            tonality_max, ring_entry(tonal, view, write_pos, pos)->tonality);
        tonality_avg += ring_entry(tonal, view, write_pos, pos)->tonality;
        tonality_count++;
        info_out->bandwidth =
            CT_IMAX(info_out->bandwidth,
                    ring_entry(tonal, view, write_pos, pos)->bandwidth);
        bandwidth_span--;
    }
    pos = pos0;
    /* Look back in time to see if any has a wider bandwidth than the current
     * frame. */
    for (i = 0; i < bandwidth_span; i++) {
        pos--;
        if (pos < 0)
            pos = DETECT_SIZE - 1;
        if (pos == write_pos)
            break;
        info_out->bandwidth =
            CT_IMAX(info_out->bandwidth,
                    ring_entry(tonal, view, write_pos, pos)->bandwidth);
    }
    info_out->tonality =
        CT_MAX32(tonality_avg / tonality_count, tonality_max - .2f);

    mpos = vpos = pos0;
    /* If we have enough look-ahead, compensate for the ~5-frame delay in the
     * music prob and ~1 frame delay in the VAD prob. */
    if (curr_lookahead > 15) {
        mpos += 5;
        if (mpos >= DETECT_SIZE)
            mpos -= DETECT_SIZE;
        vpos += 1;
        if (vpos >= DETECT_SIZE)
            vpos -= DETECT_SIZE;
    }

    /* The threshold for which switching now is the best choice, from speech
     * to music (music_prob_min) and back (music_prob_max): the reference
     * (src/analysis.c) derives it. With v_i the activity probability and
     * p_i the music probability of frame i (0: now), S the penalty for
     * switching during active audio, switching at k rather than now costs
     * nothing more when
     *   T = (sum_{i<k} v_i*p_i + S*(v_k-v_0)) / sum_{i<k} v_i;
     * the min over all k of the look-ahead, and the average music
     * probability of the whole window, give music_prob_min; the opposite
     * gives music_prob_max. */
    prob_min = 1.f;
    prob_max = 0.f;
    vad_prob = ring_entry(tonal, view, write_pos, vpos)->activity_probability;
    prob_count = CT_MAX16(.1f, vad_prob);
    prob_avg = CT_MAX16(.1f, vad_prob) *
               ring_entry(tonal, view, write_pos, mpos)->music_prob;
    while (1) {
        float pos_vad;
        mpos++;
        if (mpos == DETECT_SIZE)
            mpos = 0;
        if (mpos == write_pos)
            break;
        vpos++;
        if (vpos == DETECT_SIZE)
            vpos = 0;
        if (vpos == write_pos)
            break;
        pos_vad =
            ring_entry(tonal, view, write_pos, vpos)->activity_probability;
        prob_min = CT_MIN16(
            (prob_avg - TRANSITION_PENALTY * (vad_prob - pos_vad)) / prob_count,
            prob_min);
        prob_max = CT_MAX16(
            (prob_avg + TRANSITION_PENALTY * (vad_prob - pos_vad)) / prob_count,
            prob_max);
        prob_count += CT_MAX16(.1f, pos_vad);
        prob_avg += CT_MAX16(.1f, pos_vad) *
                    ring_entry(tonal, view, write_pos, mpos)->music_prob;
    }
    info_out->music_prob = prob_avg / prob_count;
    prob_min = CT_MIN16(prob_avg / prob_count, prob_min);
    prob_max = CT_MAX16(prob_avg / prob_count, prob_max);
    prob_min = CT_MAX16(prob_min, 0.f);
    prob_max = CT_MIN16(prob_max, 1.f);

    /* If we don't have enough look-ahead, do our best to make a decent
     * decision. */
    if (curr_lookahead < 10) {
        float pmin, pmax;
        pmin = prob_min;
        pmax = prob_max;
        pos = pos0;
        /* Look for min/max in the past. */
        for (i = 0; i < CT_IMIN(count - 1, 15); i++) {
            pos--;
            if (pos < 0)
                pos = DETECT_SIZE - 1;
            pmin = CT_MIN16(
                pmin, ring_entry(tonal, view, write_pos, pos)->music_prob);
            pmax = CT_MAX16(
                pmax, ring_entry(tonal, view, write_pos, pos)->music_prob);
        }
        /* Bias against switching on active audio. */
        pmin = CT_MAX16(0.f, pmin - .1f * vad_prob);
        pmax = CT_MIN16(1.f, pmax + .1f * vad_prob);
        prob_min += (1.f - .1f * curr_lookahead) * (pmin - prob_min);
        prob_max += (1.f - .1f * curr_lookahead) * (pmax - prob_max);
    }
    info_out->music_prob_min = prob_min;
    info_out->music_prob_max = prob_max;
}

/* The reference's info = &tonal->info[tonal->write_pos++]: the next entry,
 * which starts as what the ring's slot held, the entry DETECT_SIZE before
 * (the paths that stop early leave some fields of it in place). */
static ct_analysis_info *start_entry(ct_tonality_analysis *tonal)
{
    int64_t a = tonal->write_count++;
    ct_analysis_info *info = &tonal->history[a % CT_OPUS_ANALYSIS_HISTORY];
    memcpy(info, history_entry(tonal, a - DETECT_SIZE), sizeof(*info));
    return info;
}

/* x: the samples from offset on (the reference's x + offset * C is that
 * of the whole call; ct passes 0 with the chunk, the same samples) */
/* tonality_analysis' loop over the bins [first, end) of the FFT out (N
 * points): each bin's phase and its second difference, the tonalities and
 * the noisiness, and the bin's history A, dA, d2A (the kernel table's
 * tonality_bins) */
void ct_opus_tonality_bins_c(const ct_fft_cpx *out, int N, int first, int end,
                             float *A, float *dA, float *d2A, float *tonality,
                             float *tonality2, float *noisiness)
{
    const float pi4 = (float)(M_PI_D * M_PI_D * M_PI_D * M_PI_D);
    int i;
    for (i = first; i < end; i++) {
        float X1r, X2r, X1i, X2i;
        float angle, d_angle, d2_angle;
        float angle2, d_angle2, d2_angle2;
        float mod1, mod2, avg_mod;
        X1r = (float)out[i].r + out[N - i].r;
        X1i = (float)out[i].i - out[N - i].i;
        X2r = (float)out[i].i + out[N - i].i;
        X2i = (float)out[N - i].r - out[i].r;

        angle = (float)(.5f / M_PI_D) * ct_celt_fast_atan2f(X1i, X1r);
        d_angle = angle - A[i];
        d2_angle = d_angle - dA[i];

        angle2 = (float)(.5f / M_PI_D) * ct_celt_fast_atan2f(X2i, X2r);
        d_angle2 = angle2 - angle;
        d2_angle2 = d_angle2 - d_angle;

        mod1 = d2_angle - (float)float2int(d2_angle);
        noisiness[i] = CT_ABS16(mod1);
        mod1 *= mod1;
        mod1 *= mod1;

        mod2 = d2_angle2 - (float)float2int(d2_angle2);
        noisiness[i] += CT_ABS16(mod2);
        mod2 *= mod2;
        mod2 *= mod2;

        avg_mod = .25f * (d2A[i] + mod1 + 2 * mod2);
        /* This introduces an extra delay of 2 frames in the detection. */
        tonality[i] = 1.f / (1.f + 40.f * 16.f * pi4 * avg_mod) - .015f;
        /* No delay on this detection, but it's less reliable. */
        tonality2[i] = 1.f / (1.f + 40.f * 16.f * pi4 * mod2) - .015f;

        A[i] = angle2;
        dA[i] = d_angle2;
        d2A[i] = mod2;
    }
}

static void tonality_analysis(ct_tonality_analysis *tonal,
                              const ct_celt_mode *celt_mode, const void *x,
                              int len, int offset, int c1, int c2, int C,
                              int lsb_depth, ct_opus_downmix_func downmix)
{
    int i, b;
    const ct_fft_state *kfft;
    ct_fft_cpx in[480];
    ct_fft_cpx out[480];
    int N = 480, N2 = 240;
    float *restrict A = tonal->angle;
    float *restrict dA = tonal->d_angle;
    float *restrict d2A = tonal->d2_angle;
    float tonality[240];
    float noisiness[240];
    float band_tonality[NB_TBANDS];
    float logE[NB_TBANDS];
    float BFCC[8];
    float features[25];
    float frame_tonality;
    float max_frame_tonality;
    float frame_noisiness;
    float slope = 0;
    float frame_stationarity;
    float relativeE;
    float frame_probs[2];
    float alpha, alphaE, alphaE2;
    float frame_loudness;
    float bandwidth_mask;
    int is_masked[NB_TBANDS + 1];
    int bandwidth = 0;
    float maxE = 0;
    float noise_floor;
    int remaining;
    ct_analysis_info *info;
    float hp_ener;
    float tonality2[240];
    float midE[8];
    float spec_variability = 0;
    float band_log2[NB_TBANDS + 1];
    float leakage_from[NB_TBANDS + 1];
    float leakage_to[NB_TBANDS + 1];
    float layer_out[CT_MLP_MAX_NEURONS];
    float below_max_pitch;
    float above_max_pitch;
    int is_silence;

    if (!tonal->initialized) {
        tonal->mem_fill = 240;
        tonal->initialized = 1;
    }
    alpha = 1.f / CT_IMIN(10, 1 + tonal->count);
    alphaE = 1.f / CT_IMIN(25, 1 + tonal->count);
    /* Noise floor related decay for bandwidth detection: -2.2 dB/second */
    alphaE2 = 1.f / CT_IMIN(100, 1 + tonal->count);
    if (tonal->count <= 1)
        alphaE2 = 1;

    if (tonal->Fs == 48000) {
        /* len and offset are now at 24 kHz. */
        len /= 2;
        offset /= 2;
    } else if (tonal->Fs == 16000) {
        len = 3 * len / 2;
        offset = 3 * offset / 2;
    }

    kfft = celt_mode->mdct.kfft[0];
    tonal->hp_ener_accum += (float)downmix_and_resample(
        downmix, x, &tonal->inmem[tonal->mem_fill], tonal->downmix_state,
        CT_IMIN(len, ANALYSIS_BUF_SIZE - tonal->mem_fill), offset, c1, c2, C,
        tonal->Fs);
    if (tonal->mem_fill + len < ANALYSIS_BUF_SIZE) {
        tonal->mem_fill += len;
        /* Don't have enough to update the analysis */
        return;
    }
    hp_ener = tonal->hp_ener_accum;
    info = start_entry(tonal);

    is_silence = ct_opus_is_digital_silence(tonal->inmem, ANALYSIS_BUF_SIZE, 1,
                                            lsb_depth, ct_opus_maxabs_c);

    for (i = 0; i < N2; i++) {
        float w = analysis_window[i];
        in[i].r = w * tonal->inmem[i];
        in[i].i = w * tonal->inmem[N2 + i];
        in[N - i - 1].r = w * tonal->inmem[N - i - 1];
        in[N - i - 1].i = w * tonal->inmem[N + N2 - i - 1];
    }
    memmove(tonal->inmem, tonal->inmem + ANALYSIS_BUF_SIZE - 240,
            240 * sizeof(*tonal->inmem));
    remaining = len - (ANALYSIS_BUF_SIZE - tonal->mem_fill);
    tonal->hp_ener_accum = (float)downmix_and_resample(
        downmix, x, &tonal->inmem[240], tonal->downmix_state, remaining,
        offset + ANALYSIS_BUF_SIZE - tonal->mem_fill, c1, c2, C, tonal->Fs);
    tonal->mem_fill = 240 + remaining;
    if (is_silence) {
        /* On silence, copy the previous analysis. */
        memcpy(info, history_entry(tonal, tonal->write_count - 2),
               sizeof(*info));
        return;
    }
    ct_opus_fft(kfft, in, out, tonal->dsp->fft_impl);
    /* If there's any NaN on the input, the entire output will be NaN, so we
     * only need to check one value. */
    if (ct_celt_isnan(out[0].r)) {
        info->valid = 0;
        return;
    }

    tonal->dsp->tonality_bins(out, N, 1, N2, A, dA, d2A, tonality, tonality2,
                              noisiness);
    for (i = 2; i < N2 - 1; i++) {
        float tt = CT_MIN32(tonality2[i],
                            CT_MAX32(tonality2[i - 1], tonality2[i + 1]));
        tonality[i] = .9f * CT_MAX32(tonality[i], tt - .1f);
    }
    frame_tonality = 0;
    max_frame_tonality = 0;
    info->activity = 0;
    frame_noisiness = 0;
    frame_stationarity = 0;
    if (!tonal->count) {
        for (b = 0; b < NB_TBANDS; b++) {
            tonal->lowE[b] = 1e10;
            tonal->highE[b] = -1e10;
        }
    }
    relativeE = 0;
    frame_loudness = 0;
    /* The energy of the very first band is special because of DC. */
    {
        float E = 0;
        float X1r, X2r;
        X1r = 2 * (float)out[0].r;
        X2r = 2 * (float)out[0].i;
        E = X1r * X1r + X2r * X2r;
        for (i = 1; i < 4; i++) {
            float binE = out[i].r * (float)out[i].r +
                         out[N - i].r * (float)out[N - i].r +
                         out[i].i * (float)out[i].i +
                         out[N - i].i * (float)out[N - i].i;
            E += binE;
        }
        band_log2[0] = .5f * 1.442695f * (float)log(E + 1e-10f);
    }
    for (b = 0; b < NB_TBANDS; b++) {
        float E = 0, tE = 0, nE = 0;
        float L1, L2;
        float stationarity;
        for (i = tbands[b]; i < tbands[b + 1]; i++) {
            float binE = out[i].r * (float)out[i].r +
                         out[N - i].r * (float)out[N - i].r +
                         out[i].i * (float)out[i].i +
                         out[N - i].i * (float)out[N - i].i;
            E += binE;
            tE += binE * CT_MAX32(0, tonality[i]);
            nE += binE * 2.f * (.5f - noisiness[i]);
        }
        /* Check for extreme band energies that could cause NaNs later. */
        if (!(E < 1e9f) || ct_celt_isnan(E)) {
            info->valid = 0;
            return;
        }

        tonal->E[tonal->E_count][b] = E;
        frame_noisiness += nE / (1e-15f + E);

        frame_loudness += (float)sqrt(E + 1e-10f);
        logE[b] = (float)log(E + 1e-10f);
        band_log2[b + 1] = .5f * 1.442695f * (float)log(E + 1e-10f);
        tonal->logE[tonal->E_count][b] = logE[b];
        if (tonal->count == 0)
            tonal->highE[b] = tonal->lowE[b] = logE[b];
        if (tonal->highE[b] > tonal->lowE[b] + 7.5) {
            if (tonal->highE[b] - logE[b] > logE[b] - tonal->lowE[b])
                tonal->highE[b] -= .01f;
            else
                tonal->lowE[b] += .01f;
        }
        if (logE[b] > tonal->highE[b]) {
            tonal->highE[b] = logE[b];
            tonal->lowE[b] = CT_MAX32(tonal->highE[b] - 15, tonal->lowE[b]);
        } else if (logE[b] < tonal->lowE[b]) {
            tonal->lowE[b] = logE[b];
            tonal->highE[b] = CT_MIN32(tonal->lowE[b] + 15, tonal->highE[b]);
        }
        relativeE += (logE[b] - tonal->lowE[b]) /
                     (1e-5f + (tonal->highE[b] - tonal->lowE[b]));

        L1 = L2 = 0;
        for (i = 0; i < NB_FRAMES; i++) {
            L1 += (float)sqrt(tonal->E[i][b]);
            L2 += tonal->E[i][b];
        }

        stationarity =
            CT_MIN16(0.99f, L1 / (float)sqrt(1e-15 + NB_FRAMES * L2));
        stationarity *= stationarity;
        stationarity *= stationarity;
        frame_stationarity += stationarity;
        band_tonality[b] = CT_MAX16(
            tE / (1e-15f + E), stationarity * tonal->prev_band_tonality[b]);
        frame_tonality += band_tonality[b];
        if (b >= NB_TBANDS - NB_TONAL_SKIP_BANDS)
            frame_tonality -=
                band_tonality[b - NB_TBANDS + NB_TONAL_SKIP_BANDS];
        max_frame_tonality =
            CT_MAX16(max_frame_tonality,
                     (1.f + .03f * (b - NB_TBANDS)) * frame_tonality);
        slope += band_tonality[b] * (b - 8);
        tonal->prev_band_tonality[b] = band_tonality[b];
    }

    leakage_from[0] = band_log2[0];
    leakage_to[0] = band_log2[0] - LEAKAGE_OFFSET;
    for (b = 1; b < NB_TBANDS + 1; b++) {
        float leak_slope = LEAKAGE_SLOPE * (tbands[b] - tbands[b - 1]) / 4;
        leakage_from[b] =
            CT_MIN16(leakage_from[b - 1] + leak_slope, band_log2[b]);
        leakage_to[b] = CT_MAX16(leakage_to[b - 1] - leak_slope,
                                 band_log2[b] - LEAKAGE_OFFSET);
    }
    for (b = NB_TBANDS - 2; b >= 0; b--) {
        float leak_slope = LEAKAGE_SLOPE * (tbands[b + 1] - tbands[b]) / 4;
        leakage_from[b] =
            CT_MIN16(leakage_from[b + 1] + leak_slope, leakage_from[b]);
        leakage_to[b] = CT_MAX16(leakage_to[b + 1] - leak_slope, leakage_to[b]);
    }
    for (b = 0; b < NB_TBANDS + 1; b++) {
        /* leak_boost[] is made up of two terms. The first, based on
         * leakage_to[], represents the boost needed to overcome the amount
         * of analysis leakage cause in a weaker band b by louder
         * neighbouring bands. The second, based on leakage_from[], applies
         * to a loud band b for which the quantization noise causes synthesis
         * leakage to the weaker neighbouring bands. */
        float boost =
            CT_MAX16(0, leakage_to[b] - band_log2[b]) +
            CT_MAX16(0, band_log2[b] - (leakage_from[b] + LEAKAGE_OFFSET));
        info->leak_boost[b] = CT_IMIN(255, (int)floor(.5 + 64.f * boost));
    }
    for (; b < LEAK_BANDS; b++)
        info->leak_boost[b] = 0;

    for (i = 0; i < NB_FRAMES; i++) {
        int j;
        float mindist = 1e15f;
        for (j = 0; j < NB_FRAMES; j++) {
            int k;
            float dist = 0;
            for (k = 0; k < NB_TBANDS; k++) {
                float tmp;
                tmp = tonal->logE[i][k] - tonal->logE[j][k];
                dist += tmp * tmp;
            }
            if (j != i)
                mindist = CT_MIN32(mindist, dist);
        }
        spec_variability += mindist;
    }
    spec_variability = (float)sqrt(spec_variability / NB_FRAMES / NB_TBANDS);
    bandwidth_mask = 0;
    bandwidth = 0;
    maxE = 0;
    noise_floor = 5.7e-4f / (1 << (CT_IMAX(0, lsb_depth - 8)));
    noise_floor *= noise_floor;
    below_max_pitch = 0;
    above_max_pitch = 0;
    for (b = 0; b < NB_TBANDS; b++) {
        float E = 0;
        float Em;
        int band_start, band_end;
        /* Keep a margin of 300 Hz for aliasing */
        band_start = tbands[b];
        band_end = tbands[b + 1];
        for (i = band_start; i < band_end; i++) {
            float binE = out[i].r * (float)out[i].r +
                         out[N - i].r * (float)out[N - i].r +
                         out[i].i * (float)out[i].i +
                         out[N - i].i * (float)out[N - i].i;
            E += binE;
        }
        maxE = CT_MAX32(maxE, E);
        if (band_start < 64) {
            below_max_pitch += E;
        } else {
            above_max_pitch += E;
        }
        tonal->meanE[b] = CT_MAX32((1 - alphaE2) * tonal->meanE[b], E);
        Em = CT_MAX32(E, tonal->meanE[b]);
        /* Consider the band "active" only if all these conditions are met:
         * 1) less than 90 dB below the peak band (maximal masking possible
         *    considering both the ATH and the loudness-dependent slope of the
         *    spreading function)
         * 2) above the PCM quantization noise floor
         * We use b+1 because the first CELT band isn't included in tbands[]
         */
        if (E * 1e9f > maxE &&
            (Em > 3 * noise_floor * (band_end - band_start) ||
             E > noise_floor * (band_end - band_start)))
            bandwidth = b + 1;
        /* Check if the band is masked (see below). */
        is_masked[b] =
            E < (tonal->prev_bandwidth >= b + 1 ? .01f : .05f) * bandwidth_mask;
        /* Use a simple follower with 13 dB/Bark slope for spreading
         * function. */
        bandwidth_mask = CT_MAX32(.05f * bandwidth_mask, E);
    }
    /* Special case for the last two bands, for which we don't have spectrum
     * but only the energy above 12 kHz. The difficulty here is that the
     * high-pass we use leaks some LF energy, so we need to increase the
     * threshold without accidentally cutting off the band. */
    if (tonal->Fs == 48000) {
        float noise_ratio;
        float Em;
        float E = hp_ener * (1.f / (60 * 60));
        noise_ratio = tonal->prev_bandwidth == 20 ? 10.f : 30.f;

        above_max_pitch += E;
        tonal->meanE[b] = CT_MAX32((1 - alphaE2) * tonal->meanE[b], E);
        Em = CT_MAX32(E, tonal->meanE[b]);
        if (Em > 3 * noise_ratio * noise_floor * 160 ||
            E > noise_ratio * noise_floor * 160)
            bandwidth = 20;
        /* Check if the band is masked (see below). */
        is_masked[b] =
            E < (tonal->prev_bandwidth == 20 ? .01f : .05f) * bandwidth_mask;
    }
    if (above_max_pitch > below_max_pitch)
        info->max_pitch_ratio = below_max_pitch / above_max_pitch;
    else
        info->max_pitch_ratio = 1;
    /* In some cases, resampling aliasing can create a small amount of energy
     * in the first band being cut. So if the last band is masked, we don't
     * include it. */
    if (bandwidth == 20 && is_masked[NB_TBANDS])
        bandwidth -= 2;
    else if (bandwidth > 0 && bandwidth <= NB_TBANDS &&
             is_masked[bandwidth - 1])
        bandwidth--;
    if (tonal->count <= 2)
        bandwidth = 20;
    frame_loudness = 20 * (float)log10(frame_loudness);
    tonal->Etracker = CT_MAX32(tonal->Etracker - .003f, frame_loudness);
    tonal->lowECount *= (1 - alphaE);
    if (frame_loudness < tonal->Etracker - 30)
        tonal->lowECount += alphaE;

    for (i = 0; i < 8; i++) {
        float sum = 0;
        for (b = 0; b < 16; b++)
            sum += dct_table[i * 16 + b] * logE[b];
        BFCC[i] = sum;
    }
    for (i = 0; i < 8; i++) {
        float sum = 0;
        for (b = 0; b < 16; b++)
            sum += dct_table[i * 16 + b] * .5f *
                   (tonal->highE[b] + tonal->lowE[b]);
        midE[i] = sum;
    }

    frame_stationarity /= NB_TBANDS;
    relativeE /= NB_TBANDS;
    if (tonal->count < 10)
        relativeE = .5f;
    frame_noisiness /= NB_TBANDS;
    info->activity = frame_noisiness + (1 - frame_noisiness) * relativeE;
    frame_tonality = (max_frame_tonality / (NB_TBANDS - NB_TONAL_SKIP_BANDS));
    frame_tonality = CT_MAX16(frame_tonality, tonal->prev_tonality * .8f);
    tonal->prev_tonality = frame_tonality;

    slope /= 8 * 8;
    info->tonality_slope = slope;

    tonal->E_count = (tonal->E_count + 1) % NB_FRAMES;
    tonal->count = CT_IMIN(tonal->count + 1, ANALYSIS_COUNT_MAX);
    info->tonality = frame_tonality;

    for (i = 0; i < 4; i++)
        features[i] = -0.12299f * (BFCC[i] + tonal->mem[i + 24]) +
                      0.49195f * (tonal->mem[i] + tonal->mem[i + 16]) +
                      0.69693f * tonal->mem[i + 8] - 1.4349f * tonal->cmean[i];

    for (i = 0; i < 4; i++)
        tonal->cmean[i] = (1 - alpha) * tonal->cmean[i] + alpha * BFCC[i];

    for (i = 0; i < 4; i++)
        features[4 + i] = 0.63246f * (BFCC[i] - tonal->mem[i + 24]) +
                          0.31623f * (tonal->mem[i] - tonal->mem[i + 16]);
    for (i = 0; i < 3; i++)
        features[8 + i] = 0.53452f * (BFCC[i] + tonal->mem[i + 24]) -
                          0.26726f * (tonal->mem[i] + tonal->mem[i + 16]) -
                          0.53452f * tonal->mem[i + 8];

    if (tonal->count > 5) {
        for (i = 0; i < 9; i++)
            tonal->std[i] =
                (1 - alpha) * tonal->std[i] + alpha * features[i] * features[i];
    }
    for (i = 0; i < 4; i++)
        features[i] = BFCC[i] - midE[i];

    for (i = 0; i < 8; i++) {
        tonal->mem[i + 24] = tonal->mem[i + 16];
        tonal->mem[i + 16] = tonal->mem[i + 8];
        tonal->mem[i + 8] = tonal->mem[i];
        tonal->mem[i] = BFCC[i];
    }
    for (i = 0; i < 9; i++)
        features[11 + i] = (float)sqrt(tonal->std[i]) - std_feature_bias[i];
    features[18] = spec_variability - 0.78f;
    features[20] = info->tonality - 0.154723f;
    features[21] = info->activity - 0.724643f;
    features[22] = frame_stationarity - 0.743717f;
    features[23] = info->tonality_slope + 0.069216f;
    features[24] = tonal->lowECount - 0.067930f;

    ct_opus_compute_dense(&ct_opus_layer0, layer_out, features);
    ct_opus_compute_gru(&ct_opus_layer1, tonal->rnn_state, layer_out);
    ct_opus_compute_dense(&ct_opus_layer2, frame_probs, tonal->rnn_state);

    /* Probability of speech or music vs noise */
    info->activity_probability = frame_probs[1];
    info->music_prob = frame_probs[0];

    info->bandwidth = bandwidth;
    tonal->prev_bandwidth = bandwidth;
    info->noisiness = frame_noisiness;
    info->valid = 1;
}

void ct_opus_tonality_analysis_write(ct_tonality_analysis *analysis,
                                     const ct_celt_mode *celt_mode,
                                     ct_opus_analysis_pcm_at pcm_at,
                                     const void *ctx, int analysis_frame_size,
                                     int frame_size, int c1, int c2, int C,
                                     int32_t Fs, int lsb_depth,
                                     ct_opus_downmix_func downmix)
{
    int offset;
    int pcm_len;

    analysis_frame_size -= analysis_frame_size & 1;
    /* Avoid overflow/wrap-around of the analysis buffer */
    analysis_frame_size =
        CT_IMIN((DETECT_SIZE - 5) * Fs / 50, analysis_frame_size);

    pcm_len = analysis_frame_size - analysis->analysis_offset;
    offset = analysis->analysis_offset;
    while (pcm_len > 0) {
        tonality_analysis(analysis, celt_mode, pcm_at(ctx, offset),
                          CT_IMIN(Fs / 50, pcm_len), 0, c1, c2, C, lsb_depth,
                          downmix);
        offset += Fs / 50;
        pcm_len -= Fs / 50;
    }
    analysis->analysis_offset = analysis_frame_size;

    analysis->analysis_offset -= frame_size;
}

/* The source of ct_opus_run_analysis: the call's interleaved samples */
typedef struct interleaved_pcm {
    const float *pcm;
    int C;
} interleaved_pcm;

static const float *interleaved_pcm_at(const void *ctx, int offset)
{
    const interleaved_pcm *src = ctx;
    return src->pcm + (size_t)offset * src->C;
}

void ct_opus_run_analysis(ct_tonality_analysis *analysis,
                          const ct_celt_mode *celt_mode,
                          const float *analysis_pcm, int analysis_frame_size,
                          int frame_size, int c1, int c2, int C, int32_t Fs,
                          int lsb_depth, ct_opus_downmix_func downmix,
                          ct_tonality_view *view,
                          ct_analysis_info *analysis_info)
{
    if (analysis_pcm != NULL) {
        interleaved_pcm src = {analysis_pcm, C};
        ct_opus_tonality_analysis_write(analysis, celt_mode, interleaved_pcm_at,
                                        &src, analysis_frame_size, frame_size,
                                        c1, c2, C, Fs, lsb_depth, downmix);
        ct_opus_tonality_view(analysis, view);
    }

    ct_opus_tonality_get_info(analysis, view, analysis_info, frame_size);
}
