/*
 * The CELT encoder: state, init, reset, settings, and the frame encoder
 * that runs the front end (celt_frontend.c) and the decisions
 * (celt_decisions.c) in the reference's order, then the energy coding,
 * the allocation, the bands, the anti-collapse bit, the energy
 * finalisation and the state for the next frame. Float build, standard
 * mode.
 *
 * Ports celt/celt_encoder.c (opus_custom_encoder_init_arch,
 * celt_encoder_init, opus_custom_encoder_ctl, tf_encode,
 * celt_encode_with_ec) of libopus 1.3.1. The fixed/float macros are
 * written out as the float build expands them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include <stddef.h>
#include <string.h>

#include "bands.h"
#include "celt_common.h"
#include "celt_encoder_internal.h"
#include "celt_signal.h"
#include "celt_spec.h"
#include "energy.h"
#include "mathops.h"
#include "rate.h"

int ct_celt_encoder_init(ct_celt_encoder *st, int32_t sampling_rate,
                         int channels, const ct_opus_dsp *dsp)
{
    if (channels < 0 || channels > 2)
        return CT_CELT_BAD_ARG;
    if (ct_celt_resampling_factor(sampling_rate) == 0)
        return CT_CELT_BAD_ARG;

    memset(st, 0, sizeof(*st));

    st->mode = ct_celt_mode_get();
    st->stream_channels = st->channels = channels;

    st->upsample = 1;
    st->start = 0;
    st->end = st->mode->effEBands;
    st->signalling = 1;
    st->dsp = *dsp;

    st->constrained_vbr = 1;
    st->clip = 1;

    st->bitrate = CT_CELT_BITRATE_MAX;
    st->vbr = 0;
    st->force_intra = 0;
    st->complexity = 5;
    st->lsb_depth = 24;

    ct_celt_encoder_reset(st);

    st->upsample = ct_celt_resampling_factor(sampling_rate);
    return CT_CELT_OK;
}

void ct_celt_encoder_reset(ct_celt_encoder *st)
{
    int i;
    memset((char *)&st->rng, 0, sizeof(*st) - offsetof(ct_celt_encoder, rng));
    for (i = 0; i < st->channels * st->mode->nbEBands; i++)
        st->oldLogE[i] = st->oldLogE2[i] = -28.f;
    st->vbr_offset = 0;
    st->delayedIntra = 1;
    st->spread_decision = SPREAD_NORMAL;
    st->tonal_average = 256;
    st->hf_average = 0;
    st->tapset_decision = 0;
}

int ct_celt_encoder_set_complexity(ct_celt_encoder *st, int value)
{
    if (value < 0 || value > 10)
        return CT_CELT_BAD_ARG;
    st->complexity = value;
    return CT_CELT_OK;
}

int ct_celt_encoder_set_start_band(ct_celt_encoder *st, int32_t value)
{
    if (value < 0 || value >= st->mode->nbEBands)
        return CT_CELT_BAD_ARG;
    st->start = value;
    return CT_CELT_OK;
}

int ct_celt_encoder_set_end_band(ct_celt_encoder *st, int32_t value)
{
    if (value < 1 || value > st->mode->nbEBands)
        return CT_CELT_BAD_ARG;
    st->end = value;
    return CT_CELT_OK;
}

int ct_celt_encoder_set_prediction(ct_celt_encoder *st, int value)
{
    if (value < 0 || value > 2)
        return CT_CELT_BAD_ARG;
    st->disable_pf = value <= 1;
    st->force_intra = value == 0;
    return CT_CELT_OK;
}

int ct_celt_encoder_set_packet_loss_perc(ct_celt_encoder *st, int value)
{
    if (value < 0 || value > 100)
        return CT_CELT_BAD_ARG;
    st->loss_rate = value;
    return CT_CELT_OK;
}

void ct_celt_encoder_set_vbr_constraint(ct_celt_encoder *st, int32_t value)
{
    st->constrained_vbr = value;
}

void ct_celt_encoder_set_vbr(ct_celt_encoder *st, int32_t value)
{
    st->vbr = value;
}

int ct_celt_encoder_set_bitrate(ct_celt_encoder *st, int32_t value)
{
    if (value <= 500 && value != CT_CELT_BITRATE_MAX)
        return CT_CELT_BAD_ARG;
    value = CT_IMIN(value, 260000 * st->channels);
    st->bitrate = value;
    return CT_CELT_OK;
}

int ct_celt_encoder_set_channels(ct_celt_encoder *st, int32_t value)
{
    if (value < 1 || value > 2)
        return CT_CELT_BAD_ARG;
    st->stream_channels = value;
    return CT_CELT_OK;
}

int ct_celt_encoder_set_lsb_depth(ct_celt_encoder *st, int32_t value)
{
    if (value < 8 || value > 24)
        return CT_CELT_BAD_ARG;
    st->lsb_depth = value;
    return CT_CELT_OK;
}

int ct_celt_encoder_set_phase_inversion_disabled(ct_celt_encoder *st,
                                                 int32_t value)
{
    if (value < 0 || value > 1)
        return CT_CELT_BAD_ARG;
    st->disable_inv = value;
    return CT_CELT_OK;
}

void ct_celt_encoder_set_signalling(ct_celt_encoder *st, int32_t value)
{
    st->signalling = value;
}

void ct_celt_encoder_set_analysis(ct_celt_encoder *st,
                                  const ct_analysis_info *info)
{
    if (info)
        st->analysis = *info;
}

void ct_celt_encoder_set_silk_info(ct_celt_encoder *st,
                                   const ct_silk_info *info)
{
    if (info)
        st->silk_info = *info;
}

void ct_celt_encoder_set_lfe(ct_celt_encoder *st, int32_t value)
{
    st->lfe = value;
}

void ct_celt_encoder_set_energy_mask(ct_celt_encoder *st, const float *value)
{
    st->energy_mask = value;
}

uint32_t ct_celt_encoder_get_final_range(const ct_celt_encoder *st)
{
    return st->rng;
}

const ct_celt_mode *ct_celt_encoder_get_mode(const ct_celt_encoder *st)
{
    return st->mode;
}

/* celt/celt.h toOpusTable, toOpus: the TOC byte of a standard-mode CELT
   frame (custom modes' signalling). */
static const unsigned char toOpusTable[20] = {
    0xE0, 0xE8, 0xF0, 0xF8, 0xC0, 0xC8, 0xD0, 0xD8, 0xA0, 0xA8,
    0xB0, 0xB8, 0x00, 0x00, 0x00, 0x00, 0x80, 0x88, 0x90, 0x98,
};

static int toOpus(unsigned char c)
{
    int ret = 0;
    if (c < 0xA0)
        ret = toOpusTable[c >> 3];
    if (ret == 0)
        return -1;
    else
        return ret | (c & 0x7);
}

static void tf_encode(int start, int end, int isTransient, int *tf_res, int LM,
                      int tf_select, ct_ec_enc *enc)
{
    int curr, i;
    int tf_select_rsv;
    int tf_changed;
    int logp;
    uint32_t budget;
    uint32_t tell;
    const signed char *table = ct_celt_tf_select_table[LM];
    budget = enc->storage * 8;
    tell = ct_ec_tell(enc);
    logp = isTransient ? 2 : 4;
    /* Reserve space to code the tf_select decision. */
    tf_select_rsv = LM > 0 && tell + logp + 1 <= budget;
    budget -= tf_select_rsv;
    curr = tf_changed = 0;
    for (i = start; i < end; i++) {
        if (tell + logp <= budget) {
            ct_ec_enc_bit_logp(enc, tf_res[i] ^ curr, logp);
            tell = ct_ec_tell(enc);
            curr = tf_res[i];
            tf_changed |= curr;
        } else
            tf_res[i] = curr;
        logp = isTransient ? 4 : 5;
    }
    /* Only code tf_select if it would actually make a difference. */
    if (tf_select_rsv && table[4 * isTransient + 0 + tf_changed] !=
                             table[4 * isTransient + 2 + tf_changed])
        ct_ec_enc_bit_logp(enc, tf_select, 1);
    else
        tf_select = 0;
    for (i = start; i < end; i++)
        tf_res[i] = table[4 * isTransient + 2 * tf_select + tf_res[i]];
}

/* ---- coding: energy finalisation, next frame's state ----
   celt_encode_with_ec's end of a frame, from what its locals were after
   the fine energy (ct: shared with the frame ring's speculation, which runs
   it on a copy with a guess of bits_left). */
void ct_celt_frame_close(ct_celt_encoder *st, const ct_celt_frame_tail *tail,
                         int bits_left, ct_ec_enc *enc)
{
    const ct_celt_mode *mode = st->mode;
    const int nbEBands = mode->nbEBands;
    const int start = tail->start, end = tail->end;
    const int C = tail->C, CC = tail->CC;
    float *oldBandE = st->oldBandE, *oldLogE = st->oldLogE;
    float *oldLogE2 = st->oldLogE2, *energyError = st->energyError;
    float error[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    int fine_quant[CT_CELT_NB_EBANDS];
    int fine_priority[CT_CELT_NB_EBANDS];
    int c, i;

    memcpy(error, tail->error, sizeof(error));
    memcpy(fine_quant, tail->fine_quant, sizeof(fine_quant));
    memcpy(fine_priority, tail->fine_priority, sizeof(fine_priority));
    ct_celt_quant_energy_finalise(mode, start, end, oldBandE, error,
                                  fine_quant, fine_priority, bits_left, enc, C);
    memset(energyError, 0, nbEBands * CC * sizeof(*energyError));
    c = 0;
    do {
        for (i = start; i < end; i++) {
            energyError[i + c * nbEBands] =
                CT_MAX16(-0.5f, CT_MIN16(0.5f, error[i + c * nbEBands]));
        }
    } while (++c < C);

    if (tail->silence) {
        for (i = 0; i < C * nbEBands; i++)
            oldBandE[i] = -28.f;
    }

    st->prefilter_period = tail->pitch_index;
    st->prefilter_gain = tail->gain1;
    st->prefilter_tapset = tail->prefilter_tapset;

    if (CC == 2 && C == 1)
        memcpy(&oldBandE[nbEBands], oldBandE, nbEBands * sizeof(*oldBandE));

    if (!tail->isTransient) {
        memcpy(oldLogE2, oldLogE, CC * nbEBands * sizeof(*oldLogE2));
        memcpy(oldLogE, oldBandE, CC * nbEBands * sizeof(*oldLogE));
    } else {
        for (i = 0; i < CC * nbEBands; i++)
            oldLogE[i] = CT_MIN16(oldLogE[i], oldBandE[i]);
    }
    /* In case start or end were to change */
    c = 0;
    do {
        for (i = 0; i < start; i++) {
            oldBandE[c * nbEBands + i] = 0;
            oldLogE[c * nbEBands + i] = oldLogE2[c * nbEBands + i] = -28.f;
        }
        for (i = end; i < nbEBands; i++) {
            oldBandE[c * nbEBands + i] = 0;
            oldLogE[c * nbEBands + i] = oldLogE2[c * nbEBands + i] = -28.f;
        }
    } while (++c < CC);

    if (tail->isTransient || tail->transient_got_disabled)
        st->consec_transient++;
    else
        st->consec_transient = 0;
}

int ct_celt_encode_with_ec(ct_celt_encoder *restrict st, const float *pcm,
                           int frame_size, unsigned char *compressed,
                           int nbCompressedBytes, ct_ec_enc *enc)
{
    enum {
        MAXP = CT_CELT_COMBFILTER_MAXPERIOD,
        MINP = CT_CELT_COMBFILTER_MINPERIOD,
        NBE = CT_CELT_NB_EBANDS,
        NCH = CT_CELT_MAX_CHANNELS,
    };
    int i, c, N;
    int32_t bits;
    ct_ec_enc _enc;
    float in[NCH * (CT_CELT_MAX_N + CT_CELT_OVERLAP)];
    float freq[NCH * CT_CELT_MAX_N];
    float X[NCH * CT_CELT_MAX_N];
    float bandE[NBE * NCH];
    float bandLogE[NBE * NCH];
    float bandLogE2[NCH * NBE];
    int fine_quant[NBE];
    float error[NCH * NBE];
    int pulses[NBE];
    int cap[NBE];
    int offsets[NBE];
    int importance[NBE];
    int spread_weight[NBE];
    int fine_priority[NBE];
    int tf_res[NBE];
    unsigned char collapse_masks[NCH * NBE];
    float *prefilter_mem;
    float *oldBandE, *energyError;
    int shortBlocks = 0;
    int isTransient = 0;
    const int CC = st->channels;
    const int C = st->stream_channels;
    int LM, M;
    int tf_select;
    int nbFilledBytes, nbAvailableBytes;
    int start;
    int end;
    int effEnd;
    int codedBands;
    int alloc_trim;
    int pitch_index = MINP;
    float gain1 = 0;
    int dual_stereo = 0;
    int effectiveBytes;
    int dynalloc_logp;
    int32_t vbr_rate;
    int32_t total_bits;
    int32_t total_boost;
    int32_t balance;
    int32_t tell;
    int32_t tell0_frac;
    int prefilter_tapset = 0;
    int pf_on;
    int anti_collapse_rsv;
    int anti_collapse_on = 0;
    int silence = 0;
    int tf_chan = 0;
    float tf_estimate;
    int pitch_change = 0;
    int32_t tot_boost;
    float sample_max;
    float maxDepth;
    const ct_celt_mode *mode;
    int nbEBands;
    int overlap;
    const int16_t *eBands;
    int secondMdct;
    int signalBandwidth;
    int transient_got_disabled = 0;
    float surround_masking = 0;
    float temporal_vbr = 0;
    float surround_trim = 0;
    int32_t equiv_rate;
    int hybrid;
    int weak_transient = 0;
    int enable_tf_analysis;
    float surround_dynalloc[NCH * NBE];
    ct_celt_frame_tail tail;
    int bands_taken = 0;
    /* the call's bytes as given (a speculation calls with the same) */
    const int nb_compr_arg = nbCompressedBytes;

    mode = st->mode;
    nbEBands = mode->nbEBands;
    overlap = mode->overlap;
    eBands = mode->eBands;
    start = st->start;
    end = st->end;
    hybrid = start != 0;
    tf_estimate = 0;
    if (nbCompressedBytes < 2 || pcm == NULL)
        return CT_CELT_BAD_ARG;

    frame_size *= st->upsample;
    for (LM = 0; LM <= mode->maxLM; LM++)
        if (mode->shortMdctSize << LM == frame_size)
            break;
    if (LM > mode->maxLM)
        return CT_CELT_BAD_ARG;
    M = 1 << LM;
    N = M * mode->shortMdctSize;

    prefilter_mem = st->prefilter_mem;
    oldBandE = st->oldBandE;
    energyError = st->energyError;

    if (enc == NULL) {
        tell0_frac = tell = 1;
        nbFilledBytes = 0;
    } else {
        tell0_frac = ct_ec_tell_frac(enc);
        tell = ct_ec_tell(enc);
        nbFilledBytes = (tell + 4) >> 3;
    }

    /* Debian's build has custom modes: with signalling on, a frame coded on
       a range coder of its own starts with its TOC byte. */
    if (st->signalling && enc == NULL) {
        int tmp = (mode->effEBands - end) >> 1;
        int c0;
        end = st->end = CT_IMAX(1, mode->effEBands - tmp);
        compressed[0] = tmp << 5;
        compressed[0] |= LM << 3;
        compressed[0] |= (C == 2) << 2;
        /* Convert "standard mode" to Opus header */
        c0 = toOpus(compressed[0]);
        if (c0 < 0)
            return CT_CELT_BAD_ARG;
        compressed[0] = c0;
        compressed++;
        nbCompressedBytes--;
    }

    /* ---- front end: rate set-up ---- */

    /* Can't produce more than 1275 output bytes */
    nbCompressedBytes = CT_IMIN(nbCompressedBytes, 1275);
    nbAvailableBytes = nbCompressedBytes - nbFilledBytes;

    if (st->vbr && st->bitrate != CT_CELT_BITRATE_MAX) {
        int32_t den = mode->Fs >> CT_BITRES;
        vbr_rate = (st->bitrate * frame_size + (den >> 1)) / den;
        /* the TOC byte of signalling (custom modes) */
        if (st->signalling)
            vbr_rate -= 8 << CT_BITRES;
        effectiveBytes = vbr_rate >> (3 + CT_BITRES);
    } else {
        int32_t tmp;
        vbr_rate = 0;
        tmp = st->bitrate * frame_size;
        if (tell > 1)
            tmp += tell;
        if (st->bitrate != CT_CELT_BITRATE_MAX)
            nbCompressedBytes =
                CT_IMAX(2, CT_IMIN(nbCompressedBytes,
                                   (tmp + 4 * mode->Fs) / (8 * mode->Fs) -
                                       !!st->signalling));
        effectiveBytes = nbCompressedBytes - nbFilledBytes;
    }
    equiv_rate = ((int32_t)nbCompressedBytes * 8 * 50 >> (3 - LM)) -
                 (40 * C + 20) * ((400 >> LM) - 50);
    if (st->bitrate != CT_CELT_BITRATE_MAX)
        equiv_rate = CT_IMIN(equiv_rate,
                             st->bitrate - (40 * C + 20) * ((400 >> LM) - 50));

    if (enc == NULL) {
        ct_ec_enc_init(&_enc, compressed, nbCompressedBytes);
        enc = &_enc;
    }

    if (vbr_rate > 0) {
        /* Computes the max bit-rate allowed in VBR mode to avoid violating the
            target rate and buffering.
           We must do this up front so that bust-prevention logic triggers
            correctly if we don't have enough bits. */
        if (st->constrained_vbr) {
            int32_t vbr_bound;
            int32_t max_allowed;
            /* We could use any multiple of vbr_rate as bound (depending on the
                delay).
               This is clamped to ensure we use at least two bytes if the
               encoder was entirely empty, but to allow 0 in hybrid mode. */
            vbr_bound = vbr_rate;
            max_allowed =
                CT_IMIN(CT_IMAX(tell == 1 ? 2 : 0,
                                (vbr_rate + vbr_bound - st->vbr_reservoir) >>
                                    (CT_BITRES + 3)),
                        nbAvailableBytes);
            if (max_allowed < nbAvailableBytes) {
                nbCompressedBytes = nbFilledBytes + max_allowed;
                nbAvailableBytes = max_allowed;
                ct_ec_enc_shrink(enc, nbCompressedBytes);
            }
        }
    }
    total_bits = nbCompressedBytes * 8;

    effEnd = end;
    if (effEnd > mode->effEBands)
        effEnd = mode->effEBands;

    /* ---- front end: silence, pre-emphasis, prefilter ---- */

    sample_max =
        CT_MAX32(st->overlap_max,
                 st->dsp.maxabs(pcm, C * (N - overlap) / st->upsample));
    st->overlap_max = st->dsp.maxabs(pcm + C * (N - overlap) / st->upsample,
                                     C * overlap / st->upsample);
    sample_max = CT_MAX32(sample_max, st->overlap_max);
    silence = (sample_max <= (float)1 / (1 << st->lsb_depth));
    if (tell == 1)
        ct_ec_enc_bit_logp(enc, silence, 15);
    else
        silence = 0;
    if (silence) {
        /*In VBR mode there is no need to send more than the minimum. */
        if (vbr_rate > 0) {
            effectiveBytes = nbCompressedBytes =
                CT_IMIN(nbCompressedBytes, nbFilledBytes + 2);
            total_bits = nbCompressedBytes * 8;
            nbAvailableBytes = 2;
            ct_ec_enc_shrink(enc, nbCompressedBytes);
        }
        /* Pretend we've filled all the remaining bits with zeros
              (that's what the initialiser did anyway) */
        tell = nbCompressedBytes * 8;
        enc->nbits_total += tell - ct_ec_tell(enc);
    }
    c = 0;
    do {
        int need_clip = 0;
        need_clip = st->clip && sample_max > 65536.f;
        ct_celt_preemphasis(pcm + c, in + c * (N + overlap) + overlap, N, CC,
                            st->upsample, mode->preemph, st->preemph_memE + c,
                            need_clip);
    } while (++c < CC);

    /* Find pitch period and gain */
    {
        int enabled;
        int qg;
        enabled =
            ((st->lfe && nbAvailableBytes > 3) || nbAvailableBytes > 12 * C) &&
            !hybrid && !silence && !st->disable_pf && st->complexity >= 5;

        prefilter_tapset = st->tapset_decision;
        pf_on = ct_celt_run_prefilter(
            st, in, prefilter_mem, CC, N, prefilter_tapset, &pitch_index,
            &gain1, &qg, enabled, nbAvailableBytes, &st->analysis);
        if ((gain1 > .4f || st->prefilter_gain > .4f) &&
            (!st->analysis.valid || st->analysis.tonality > .3) &&
            (pitch_index > 1.26 * st->prefilter_period ||
             pitch_index < .79 * st->prefilter_period))
            pitch_change = 1;
        if (pf_on == 0) {
            if (!hybrid && tell + 16 <= total_bits)
                ct_ec_enc_bit_logp(enc, 0, 1);
        } else {
            /*This block is not gated by a total bits check only because
              of the nbAvailableBytes check above.*/
            int octave;
            ct_ec_enc_bit_logp(enc, 1, 1);
            pitch_index += 1;
            octave = ct_ec_ilog(pitch_index) - 5;
            ct_ec_enc_uint(enc, octave, 6);
            ct_ec_enc_bits(enc, pitch_index - (16 << octave), 4 + octave);
            pitch_index -= 1;
            ct_ec_enc_bits(enc, qg, 3);
            ct_ec_enc_icdf(enc, prefilter_tapset, ct_celt_tapset_icdf, 2);
        }
    }

    /* ---- front end: transient analysis, MDCTs, band energies ---- */

    isTransient = 0;
    shortBlocks = 0;
    if (st->complexity >= 1 && !st->lfe) {
        /* Reduces the likelihood of energy instability on fricatives at low
           bitrate in hybrid mode. It seems like we still want to have real
           transients on vowels though (small SILK quantization offset value).
         */
        int allow_weak_transients =
            hybrid && effectiveBytes < 15 && st->silk_info.signalType != 2;
        /* ct: the frame ring's Signal node may have analysed this very
           input */
        if (!ct_celt_signal_take_transient(
                st->signal_offer, st->signal_tally, in, CC, N, allow_weak_transients,
                &isTransient, &tf_estimate, &tf_chan, &weak_transient))
            isTransient = ct_celt_transient_analysis(
                in, N + overlap, CC, &tf_estimate, &tf_chan,
                allow_weak_transients, &weak_transient);
    }
    if (LM > 0 && ct_ec_tell(enc) + 3 <= total_bits) {
        if (isTransient)
            shortBlocks = M;
    } else {
        isTransient = 0;
        transient_got_disabled = 1;
    }

    secondMdct = shortBlocks && st->complexity >= 8;
    if (secondMdct) {
        if (st->upsample != 1 ||
            !ct_celt_signal_take_mdcts(st->signal_offer, st->signal_tally, 0, in, freq, C, CC,
                                       N))
            ct_celt_compute_mdcts(mode, 0, in, freq, C, CC, LM, st->upsample,
                                  &st->dsp);
        ct_celt_compute_band_energies(mode, freq, bandE, effEnd, C, LM,
                                      &st->dsp);
        ct_celt_amp2Log2(mode, effEnd, end, bandE, bandLogE2, C);
        for (i = 0; i < C * nbEBands; i++)
            bandLogE2[i] += .5f * LM;
    }

    if (st->upsample != 1 ||
        !ct_celt_signal_take_mdcts(st->signal_offer, st->signal_tally, shortBlocks, in, freq, C,
                                   CC, N))
        ct_celt_compute_mdcts(mode, shortBlocks, in, freq, C, CC, LM,
                              st->upsample, &st->dsp);
    if (CC == 2 && C == 1)
        tf_chan = 0;
    /* ct: the frame ring's Signal node may have computed them from these
       very long blocks */
    if (st->lfe || st->upsample != 1 ||
        !ct_celt_signal_take_bands(st->signal_offer, st->signal_tally, freq, shortBlocks, effEnd,
                                   end, C, N, bandE, bandLogE)) {
        ct_celt_compute_band_energies(mode, freq, bandE, effEnd, C, LM,
                                      &st->dsp);

        if (st->lfe) {
            for (i = 2; i < end; i++) {
                bandE[i] = CT_IMIN(bandE[i], 1e-4f * bandE[0]);
                bandE[i] = CT_MAX32(bandE[i], CT_EPSILON);
            }
        }
        ct_celt_amp2Log2(mode, effEnd, end, bandE, bandLogE, C);
    }

    memset(surround_dynalloc, 0, end * sizeof(*surround_dynalloc));
    /* This computes how much masking takes place between surround channels */
    if (!hybrid && st->energy_mask && !st->lfe)
        ct_celt_surround_masking(st, C, surround_dynalloc, &surround_trim,
                                 &surround_masking);
    /* Temporal VBR (but not for LFE) */
    if (!st->lfe)
        temporal_vbr =
            ct_celt_temporal_vbr(st, bandLogE, start, end, C, shortBlocks, LM);

    if (!secondMdct)
        memcpy(bandLogE2, bandLogE, C * nbEBands * sizeof(*bandLogE2));

    /* Last chance to catch any transient we might have missed in the
       time-domain analysis */
    if (LM > 0 && ct_ec_tell(enc) + 3 <= total_bits && !isTransient &&
        st->complexity >= 5 && !st->lfe && !hybrid) {
        if (ct_celt_patch_transient_decision(bandLogE, oldBandE, nbEBands,
                                             start, end, C)) {
            isTransient = 1;
            shortBlocks = M;
            if (st->upsample != 1 ||
                !ct_celt_signal_take_mdcts(st->signal_offer, st->signal_tally, shortBlocks, in,
                                           freq, C, CC, N))
                ct_celt_compute_mdcts(mode, shortBlocks, in, freq, C, CC, LM,
                                      st->upsample, &st->dsp);
            ct_celt_compute_band_energies(mode, freq, bandE, effEnd, C, LM,
                                          &st->dsp);
            ct_celt_amp2Log2(mode, effEnd, end, bandE, bandLogE, C);
            /* Compensate for the scaling of short vs long mdcts */
            for (i = 0; i < C * nbEBands; i++)
                bandLogE2[i] += .5f * LM;
            tf_estimate = .2f;
        }
    }

    if (LM > 0 && ct_ec_tell(enc) + 3 <= total_bits)
        ct_ec_enc_bit_logp(enc, isTransient, 3);

    /* Band normalisation */
    if (st->lfe || st->upsample != 1 ||
        !ct_celt_signal_take_normalise(st->signal_offer, freq, bandE, effEnd, C,
                                       N, X))
        ct_celt_normalise_bands(mode, freq, X, bandE, effEnd, C, M);

    /* ---- decisions: dynalloc, tf resolution ---- */

    enable_tf_analysis =
        effectiveBytes >= 15 * C && !hybrid && st->complexity >= 2 && !st->lfe;

    {
        /* ct: what the frame ring's Signal node assumes, and its take-over */
        ct_celt_signal_params fe;
        memset(&fe, 0, sizeof(fe));
        fe.eff_end = effEnd;
        fe.C = C;
        fe.end = end;
        fe.lsb_depth = st->lsb_depth;
        fe.vbr = st->vbr;
        fe.constrained_vbr = st->constrained_vbr;
        fe.effective_bytes = effectiveBytes;
        fe.tf_runs = enable_tf_analysis;
        ct_celt_signal_seen_frontend(st->signal_offer, st->signal_tally, &fe);
        if (hybrid || st->lfe || st->energy_mask ||
            !ct_celt_signal_take_dynalloc(st->signal_offer, st->signal_tally, bandLogE, bandLogE2,
                                          &fe, isTransient, N, &st->analysis,
                                          offsets, importance, spread_weight,
                                          &maxDepth, &tot_boost))
            maxDepth = ct_celt_dynalloc_analysis(
                bandLogE, bandLogE2, nbEBands, start, end, C, offsets,
                st->lsb_depth, mode->logN, isTransient, st->vbr,
                st->constrained_vbr, eBands, LM, effectiveBytes, &tot_boost,
                st->lfe, surround_dynalloc, &st->analysis, importance,
                spread_weight);
    }

    /* Disable variable tf resolution for hybrid and at very low bitrate */
    if (enable_tf_analysis) {
        int lambda;
        lambda = CT_IMAX(80, 20480 / effectiveBytes + 2);
        if (!ct_celt_signal_take_tf(st->signal_offer, st->signal_tally, X, effEnd, isTransient,
                                    lambda, N, tf_estimate, tf_chan, importance,
                                    tf_res, &tf_select))
            tf_select = ct_celt_tf_analysis(mode, effEnd, isTransient, tf_res,
                                            lambda, X, N, LM, tf_estimate,
                                            tf_chan, importance);
        for (i = effEnd; i < end; i++)
            tf_res[i] = tf_res[effEnd - 1];
    } else if (hybrid && weak_transient) {
        /* For weak transients, we rely on the fact that improving time
           resolution using TF on a long window is imperfect and will not result
           in an energy collapse at low bitrate. */
        for (i = 0; i < end; i++)
            tf_res[i] = 1;
        tf_select = 0;
    } else if (hybrid && effectiveBytes < 15 && st->silk_info.signalType != 2) {
        /* For low bitrate hybrid, we force temporal resolution to 5 ms rather
         * than 2.5 ms. */
        for (i = 0; i < end; i++)
            tf_res[i] = 0;
        tf_select = isTransient;
    } else {
        for (i = 0; i < end; i++)
            tf_res[i] = isTransient;
        tf_select = 0;
    }

    /* ---- coding: coarse energy, tf ---- */

    c = 0;
    do {
        for (i = start; i < end; i++) {
            /* When the energy is stable, slightly bias energy quantization
               towards the previous error to make the gain more stable (a
               constant offset is better than fluctuations). */
            if (CT_ABS32(bandLogE[i + c * nbEBands] -
                         oldBandE[i + c * nbEBands]) < 2.f)
                bandLogE[i + c * nbEBands] -=
                    energyError[i + c * nbEBands] * 0.25f;
        }
    } while (++c < C);
    ct_celt_quant_coarse_energy(mode, start, end, effEnd, bandLogE, oldBandE,
                                total_bits, error, enc, C, LM, nbAvailableBytes,
                                st->force_intra, &st->delayedIntra,
                                st->complexity >= 4, st->loss_rate, st->lfe);

    tf_encode(start, end, isTransient, tf_res, LM, tf_select, enc);

    /* ---- decisions and their symbols: spreading ---- */

    /* ct: what decides the tapset's update, for the frame ring's Signal
       node */
    ct_celt_signal_seen_spread(st->signal_offer, st->signal_tally,
                               ct_ec_tell(enc) + 4 <= total_bits && !st->lfe &&
                                   !hybrid && st->complexity >= 3 &&
                                   nbAvailableBytes >= 10 * C);
    if (ct_ec_tell(enc) + 4 <= total_bits) {
        if (st->lfe) {
            st->tapset_decision = 0;
            st->spread_decision = SPREAD_NORMAL;
        } else if (hybrid) {
            if (st->complexity == 0)
                st->spread_decision = SPREAD_NONE;
            else if (isTransient)
                st->spread_decision = SPREAD_NORMAL;
            else
                st->spread_decision = SPREAD_AGGRESSIVE;
        } else if (shortBlocks || st->complexity < 3 ||
                   nbAvailableBytes < 10 * C) {
            if (st->complexity == 0)
                st->spread_decision = SPREAD_NONE;
            else
                st->spread_decision = SPREAD_NORMAL;
        } else {
            /* The reference's tonality-based spreading and tapset estimator is
               disabled (#if 0): spreading_decision() works best. */
            st->spread_decision = ct_celt_spreading_decision(
                mode, X, &st->tonal_average, st->spread_decision,
                &st->hf_average, &st->tapset_decision, pf_on && !shortBlocks,
                effEnd, C, M, spread_weight);
        }
        ct_ec_enc_icdf(enc, st->spread_decision, ct_celt_spread_icdf, 5);
    }

    /* ---- coding: dynalloc symbols ---- */

    /* For LFE, everything interesting is in the first band */
    if (st->lfe)
        offsets[0] = CT_IMIN(8, effectiveBytes / 3);
    ct_celt_init_caps(mode, cap, LM, C);

    dynalloc_logp = 6;
    total_bits <<= CT_BITRES;
    total_boost = 0;
    tell = ct_ec_tell_frac(enc);
    for (i = start; i < end; i++) {
        int width, quanta;
        int dynalloc_loop_logp;
        int boost;
        int j;
        width = C * (eBands[i + 1] - eBands[i]) << LM;
        /* quanta is 6 bits, but no more than 1 bit/sample
           and no less than 1/8 bit/sample */
        quanta = CT_IMIN(width << CT_BITRES, CT_IMAX(6 << CT_BITRES, width));
        dynalloc_loop_logp = dynalloc_logp;
        boost = 0;
        for (j = 0; tell + (dynalloc_loop_logp << CT_BITRES) <
                        total_bits - total_boost &&
                    boost < cap[i];
             j++) {
            int flag;
            flag = j < offsets[i];
            ct_ec_enc_bit_logp(enc, flag, dynalloc_loop_logp);
            tell = ct_ec_tell_frac(enc);
            if (!flag)
                break;
            boost += quanta;
            total_boost += quanta;
            dynalloc_loop_logp = 1;
        }
        /* Making dynalloc more likely */
        if (j)
            dynalloc_logp = CT_IMAX(2, dynalloc_logp - 1);
        offsets[i] = boost;
    }

    /* ---- decisions: stereo, intensity, trim ---- */

    if (C == 2) {
        /* intensity stereo from band i on below thresholds[i] kb/s of
           equivalent rate; above the last, 21: off */
        static const float intensity_thresholds[21] = {
            1,  2,  3,  4,  5,  6,  7,  8,  16,  24, 36,
            44, 50, 56, 62, 67, 72, 79, 88, 106, 134};
        static const float intensity_histeresis[21] = {
            1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 4, 5, 6, 8, 8};

        /* Always use MS for 2.5 ms frames until we can do a better analysis */
        if (LM != 0)
            dual_stereo = ct_celt_stereo_analysis(mode, X, LM, N);

        st->intensity = ct_celt_hysteresis_decision(
            (float)(equiv_rate / 1000), intensity_thresholds,
            intensity_histeresis, 21, st->intensity);
        st->intensity = CT_IMIN(end, CT_IMAX(start, st->intensity));
    }

    alloc_trim = 5;
    if (tell + (6 << CT_BITRES) <= total_bits - total_boost) {
        if (start > 0 || st->lfe) {
            st->stereo_saving = 0;
            alloc_trim = 5;
        } else {
            alloc_trim = ct_celt_alloc_trim_analysis(
                mode, X, bandLogE, end, LM, C, N, &st->analysis,
                &st->stereo_saving, tf_estimate, st->intensity, surround_trim,
                equiv_rate, &st->dsp);
        }
        ct_ec_enc_icdf(enc, alloc_trim, ct_celt_trim_icdf, 7);
        tell = ct_ec_tell_frac(enc);
    }

    /* ---- decisions: variable bitrate ---- */

    if (vbr_rate > 0) {
        float alpha;
        int32_t delta;
        /* The target rate in 8th bits per frame */
        int32_t target, base_target;
        int32_t min_allowed;
        int lm_diff = mode->maxLM - LM;

        /* Don't attempt to use more than 510 kb/s, even for frames smaller than
           20 ms. The CELT allocator will just not be able to use more than that
           anyway. */
        nbCompressedBytes = CT_IMIN(nbCompressedBytes, 1275 >> (3 - LM));
        if (!hybrid)
            base_target = vbr_rate - ((40 * C + 20) << CT_BITRES);
        else
            base_target = CT_IMAX(0, vbr_rate - ((9 * C + 4) << CT_BITRES));

        if (st->constrained_vbr)
            base_target += (st->vbr_offset >> lm_diff);

        if (!hybrid) {
            target = ct_celt_compute_vbr(
                mode, &st->analysis, base_target, LM, equiv_rate,
                st->lastCodedBands, C, st->intensity, st->constrained_vbr,
                st->stereo_saving, tot_boost, tf_estimate, pitch_change,
                maxDepth, st->lfe, st->energy_mask != NULL, surround_masking,
                temporal_vbr);
        } else {
            target = base_target;
            /* Tonal frames (offset<100) need more bits than noisy (offset>100)
             * ones. */
            if (st->silk_info.offset < 100)
                target += 12 << CT_BITRES >> (3 - LM);
            if (st->silk_info.offset > 100)
                target -= 18 << CT_BITRES >> (3 - LM);
            /* Boosting bitrate on transients and vowels with significant
               temporal spikes. */
            target += (int32_t)((tf_estimate - .25f) * (50 << CT_BITRES));
            /* If we have a strong transient, let's make sure it has enough bits
               to code the first two bands, so that it can use folding rather
               than noise. */
            if (tf_estimate > .7f)
                target = CT_IMAX(target, 50 << CT_BITRES);
        }
        /* The current offset is removed from the target and the space used
           so far is added*/
        target = target + tell;
        /* In VBR mode the frame size must not be reduced so much that it would
            result in the encoder running out of bits.
           The margin of 2 bytes ensures that none of the bust-prevention logic
            in the decoder will have triggered so far. */
        min_allowed = ((tell + total_boost + (1 << (CT_BITRES + 3)) - 1) >>
                       (CT_BITRES + 3)) +
                      2;
        /* Take into account the 37 bits we need to have left in the packet to
           signal a redundant frame in hybrid mode. Creating a shorter packet
           would create an entropy coder desync. */
        if (hybrid)
            min_allowed = CT_IMAX(min_allowed,
                                  (tell0_frac + (37 << CT_BITRES) +
                                   total_boost + (1 << (CT_BITRES + 3)) - 1) >>
                                      (CT_BITRES + 3));

        nbAvailableBytes = (target + (1 << (CT_BITRES + 2))) >> (CT_BITRES + 3);
        nbAvailableBytes = CT_IMAX(min_allowed, nbAvailableBytes);
        nbAvailableBytes = CT_IMIN(nbCompressedBytes, nbAvailableBytes);

        /* By how much did we "miss" the target on that frame */
        delta = target - vbr_rate;

        target = nbAvailableBytes << (CT_BITRES + 3);

        /*If the frame is silent we don't adjust our drift, otherwise
          the encoder will shoot to very high rates after hitting a
          span of silence, but we do allow the bitres to refill.
          This means that we'll undershoot our target in CVBR/VBR modes
          on files with lots of silence. */
        if (silence) {
            nbAvailableBytes = 2;
            target = 2 * 8 << CT_BITRES;
            delta = 0;
        }

        if (st->vbr_count < 970) {
            st->vbr_count++;
            alpha = ct_celt_rcp((float)(st->vbr_count + 20));
        } else
            alpha = .001f;
        /* How many bits have we used in excess of what we're allowed */
        if (st->constrained_vbr)
            st->vbr_reservoir += target - vbr_rate;

        /* Compute the offset we need to apply in order to reach the target */
        if (st->constrained_vbr) {
            st->vbr_drift +=
                (int32_t)(alpha * ((delta * (1 << lm_diff)) - st->vbr_offset -
                                   st->vbr_drift));
            st->vbr_offset = -st->vbr_drift;
        }

        if (st->constrained_vbr && st->vbr_reservoir < 0) {
            /* We're under the min value -- increase rate */
            int adjust = (-st->vbr_reservoir) / (8 << CT_BITRES);
            /* Unless we're just coding silence */
            nbAvailableBytes += silence ? 0 : adjust;
            st->vbr_reservoir = 0;
        }
        nbCompressedBytes = CT_IMIN(nbCompressedBytes, nbAvailableBytes);
        /* This moves the raw bits to take into account the new compressed size
         */
        ct_ec_enc_shrink(enc, nbCompressedBytes);
    }

    /* ---- coding: allocation, fine energy, bands ---- */

    /* bits =           packet size                    - where we are - safety*/
    bits = (int32_t)((((int32_t)nbCompressedBytes * 8) << CT_BITRES) -
                     ct_ec_tell_frac(enc) - 1);
    anti_collapse_rsv =
        isTransient && LM >= 2 && bits >= ((LM + 2) << CT_BITRES)
            ? (1 << CT_BITRES)
            : 0;
    bits -= anti_collapse_rsv;
    signalBandwidth = end - 1;
    if (st->analysis.valid) {
        int min_bandwidth;
        if (equiv_rate < (int32_t)32000 * C)
            min_bandwidth = 13;
        else if (equiv_rate < (int32_t)48000 * C)
            min_bandwidth = 16;
        else if (equiv_rate < (int32_t)60000 * C)
            min_bandwidth = 18;
        else if (equiv_rate < (int32_t)80000 * C)
            min_bandwidth = 19;
        else
            min_bandwidth = 20;
        signalBandwidth = CT_IMAX(st->analysis.bandwidth, min_bandwidth);
    }
    if (st->lfe)
        signalBandwidth = 1;
    codedBands = ct_celt_compute_allocation(
        mode, start, end, offsets, cap, alloc_trim, &st->intensity,
        &dual_stereo, bits, &balance, pulses, fine_quant, fine_priority, C, LM,
        enc, 1, st->lastCodedBands, signalBandwidth);
    if (st->lastCodedBands)
        st->lastCodedBands =
            CT_IMIN(st->lastCodedBands + 1,
                    CT_IMAX(st->lastCodedBands - 1, codedBands));
    else
        st->lastCodedBands = codedBands;

    ct_celt_quant_fine_energy(mode, start, end, oldBandE, error, fine_quant,
                              enc, C);

    /* ct: what the frame's end reads (ct_celt_frame_close), also for a
       speculation of the next frame */
    tail.start = start;
    tail.end = end;
    tail.C = C;
    tail.CC = CC;
    tail.isTransient = isTransient;
    tail.transient_got_disabled = transient_got_disabled;
    tail.silence = silence;
    tail.pitch_index = pitch_index;
    tail.gain1 = gain1;
    tail.prefilter_tapset = prefilter_tapset;
    memcpy(tail.error, error, sizeof(tail.error));
    memcpy(tail.fine_quant, fine_quant, sizeof(tail.fine_quant));
    memcpy(tail.fine_priority, fine_priority, sizeof(tail.fine_priority));

    /* Residual quantisation; ct: taken over from the frame ring's
       speculation where its input is this one, or else computed here;
       either way the speculation of the next frame starts here (after the
       take-over: it reuses the speculation's memory) */
    if (st->spec_claim) {
        const ct_celt_spec_result *offer = st->spec_claim(st->spec_arg);
        if (offer)
            bands_taken = ct_celt_spec_take(
                offer, start, end, X, C, N, bandE, pulses, shortBlocks,
                st->spread_decision, dual_stereo, st->intensity, tf_res,
                nbCompressedBytes * (8 << CT_BITRES) - anti_collapse_rsv,
                balance, enc, LM, codedBands, st->rng, st->complexity,
                st->disable_inv, collapse_masks);
    }
    if (bands_taken)
        st->spec_taken++;
    if (st->spec_post)
        st->spec_post(st->spec_arg, st, &tail, frame_size, nb_compr_arg);
    if (!bands_taken) {
        ct_celt_seed_use seed_use = {st->spec_seed, 0, 0, 0};
        ct_celt_spec_result *r = st->spec_result;
        if (r) {
            r->start = start;
            r->end = end;
            r->C = C;
            r->N = N;
            r->LM = LM;
            r->shortBlocks = shortBlocks;
            r->spread = st->spread_decision;
            r->dual_stereo = dual_stereo;
            r->intensity = st->intensity;
            r->codedBands = codedBands;
            r->complexity = st->complexity;
            r->disable_inv = st->disable_inv;
            r->total_bits = nbCompressedBytes * (8 << CT_BITRES) - anti_collapse_rsv;
            r->balance = balance;
            memcpy(r->pulses, pulses, sizeof(r->pulses));
            memcpy(r->tf_res, tf_res, sizeof(r->tf_res));
            memcpy(r->bandE, bandE, (size_t)(C * nbEBands) * sizeof(*bandE));
            memcpy(r->X, X, (size_t)(C * N) * sizeof(*X));
            r->before = *enc;
        }
        ct_celt_quant_all_bands(
            mode, start, end, X, C == 2 ? X + N : NULL, collapse_masks, bandE,
            pulses, shortBlocks, st->spread_decision, dual_stereo, st->intensity,
            tf_res, nbCompressedBytes * (8 << CT_BITRES) - anti_collapse_rsv,
            balance, enc, LM, codedBands, &st->rng, st->complexity, &st->dsp,
            st->disable_inv, st->theta_lane, r ? &seed_use : NULL);
        if (r) {
            /* a speculation ends here */
            r->after = *enc;
            r->seed_used = seed_use.used;
            r->seed = seed_use.value;
            memcpy(r->collapse_masks, collapse_masks, sizeof(r->collapse_masks));
            r->valid = !seed_use.failed && !ct_ec_get_error(enc);
            return CT_CELT_OK;
        }
    }

    /* ---- coding: anti-collapse, energy finalisation, next frame's state ----
     */

    if (anti_collapse_rsv > 0) {
        anti_collapse_on = st->consec_transient < 2;
        ct_ec_enc_bits(enc, anti_collapse_on, 1);
    }
    ct_celt_frame_close(st, &tail, nbCompressedBytes * 8 - ct_ec_tell(enc), enc);
    st->rng = enc->rng;

    /* If there's any room left (can only happen for very high rates),
       it's already filled with zeros */
    ct_ec_enc_done(enc);

    if (st->signalling)
        nbCompressedBytes++;

    if (ct_ec_get_error(enc))
        return CT_CELT_INTERNAL_ERROR;
    else
        return nbCompressedBytes;
}
