/*
 * The CELT signal stage computed ahead, and the CELT encoder's check
 * (celt_signal.h). The arithmetic is celt_encoder.c's and codec.c's
 * (dc_reject, celt_preemphasis' fast path, run_prefilter's pitch search,
 * transient_analysis), run on the inputs assumed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include "celt_signal.h"

#include <string.h>

#include "bands.h"
#include "celt_encoder_internal.h"
#include "codec.h"
#include "energy.h"
#include "mathops.h"
#include "pitch.h"

enum {
    MAXP = CT_CELT_COMBFILTER_MAXPERIOD,
    MINP = CT_CELT_COMBFILTER_MINPERIOD,
    OVERLAP = CT_CELT_OVERLAP,
    KEEP = CT_CELT_SIGNAL_KEEP,
    EXTRA = CT_CELT_SIGNAL_EXTRA,
};

void ct_celt_signal_init(ct_celt_signal_state *state, int channels)
{
    memset(state, 0, sizeof(*state));
    state->channels = channels;
    /* CELT's reset state and the analysis reader's: all zero */
    state->chain.valid = 1;
}

/* The analysis entry a call reads (valid 0 where the analysis does not
 * run), the chain's reader moved on by the call's N samples; leak_boost
 * may be NULL. */
static void read_analysis(ct_celt_signal_chain *chain,
                          const ct_celt_signal_want *want, int N, int *valid,
                          float *max_pitch_ratio, unsigned char *leak_boost)
{
    *valid = 0;
    *max_pitch_ratio = 0;
    if (leak_boost)
        memset(leak_boost, 0, CT_OPUS_LEAK_BANDS);
    if (want->tonal) {
        const ct_analysis_info *info = ct_opus_tonality_peek_entry(
            want->tonal, want->view, &chain->read_pos, &chain->read_subframe,
            N);
        *valid = info->valid;
        *max_pitch_ratio = info->max_pitch_ratio;
        if (leak_boost)
            memcpy(leak_boost, info->leak_boost, CT_OPUS_LEAK_BANDS);
    }
}

/* The front end of a call's long blocks as celt_encode_with_ec computes it
 * where no transient is found, on the parameters assumed: band energies and
 * log energies up to eff_end and end, the normalised spectrum and
 * spreading_decision's high bands' sum, dynalloc_analysis (start 0, not
 * LFE, no surround masking, bandLogE2 = bandLogE) and, where it runs,
 * tf_analysis. */
static void frontend(ct_celt_signal_call *call,
                     const ct_celt_signal_params *params,
                     const ct_opus_dsp *dsp)
{
    const ct_celt_mode *mode = ct_celt_mode_get();
    const int CC = call->CC, N = call->N;
    const int eff_end = params->eff_end, end = params->end;
    float surround_dynalloc[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    ct_analysis_info analysis;
    int LM = 0, i;
    while (mode->shortMdctSize << LM != N)
        LM++;
    call->fe_params = *params;
    ct_celt_compute_band_energies(mode, call->mdct_long, call->bandE, eff_end,
                                  CC, LM, dsp);
    ct_celt_amp2Log2(mode, eff_end, end, call->bandE, call->bandLogE, CC);
    ct_celt_normalise_bands(mode, call->mdct_long, call->X, call->bandE,
                            eff_end, CC, 1 << LM);
    call->hf_sum =
        ct_celt_spreading_hf_sum(mode, call->X, eff_end, CC, 1 << LM);
    call->has_hf = 1;
    call->has[CT_CELT_SIGNAL_BANDS] = 1;
    /* nothing synced yet: no rate to assume */
    if (params->effective_bytes <= 0)
        return;

    memset(surround_dynalloc, 0, sizeof(surround_dynalloc));
    memset(&analysis, 0, sizeof(analysis));
    analysis.valid = call->fe_analysis_valid;
    memcpy(analysis.leak_boost, call->fe_leak_boost, CT_OPUS_LEAK_BANDS);
    call->max_depth = ct_celt_dynalloc_analysis(
        call->bandLogE, call->bandLogE, mode->nbEBands, 0, end, CC,
        call->offsets, params->lsb_depth, mode->logN, 0, params->vbr,
        params->constrained_vbr, mode->eBands, LM, params->effective_bytes,
        &call->tot_boost, 0, surround_dynalloc, &analysis, call->importance,
        call->spread_weight);
    call->has[CT_CELT_SIGNAL_DYNALLOC] = 1;
    call->has[CT_CELT_SIGNAL_TF] = params->tf_runs;
    if (params->tf_runs) {
        int lambda = CT_IMAX(80, 20480 / params->effective_bytes + 2);
        call->tf_select = ct_celt_tf_analysis(
            mode, eff_end, 0, call->tf_res, lambda, call->X, N, LM,
            call->tf_estimate, call->tf_chan, call->importance);
        for (i = eff_end; i < end; i++)
            call->tf_res[i] = call->tf_res[eff_end - 1];
    }
}

/* The tapset's update later in a call, on the chain: where
 * spreading_decision runs (long blocks; no early return) with update_hf
 * (the prefilter on). Off the chain where the sum is needed and missing. */
static void tapset_step(ct_celt_signal_chain *chain,
                        const ct_celt_signal_params *params, int pf_on,
                        int is_short, int has_hf, int hf, int N)
{
    const ct_celt_mode *mode = ct_celt_mode_get();
    const int M = N / mode->shortMdctSize;
    const int eff_end = params->eff_end;
    if (!params->spread_runs || is_short || !pf_on || eff_end < 1 ||
        M * (mode->eBands[eff_end] - mode->eBands[eff_end - 1]) <= 8)
        return;
    /* A sum of the frame's own bands that the parameters replayed with
       (a later sync's: another bandwidth or channel count) cannot divide
       is no prediction either */
    if (!has_hf ||
        (hf != 0 && params->C * (4 - mode->nbEBands + eff_end) <= 0)) {
        chain->valid = 0;
        return;
    }
    ct_celt_tapset_update(hf, params->C, eff_end, mode->nbEBands,
                          &chain->hf_average, &chain->tapset_decision);
}

static int prefilter_step(ct_celt_signal_chain *chain, const float *pitch_buf,
                          int raw_pitch, float *const pre[], int CC, int N,
                          const ct_celt_signal_params *params,
                          int analysis_valid, float max_pitch_ratio, float *in,
                          int *pitch_index, float *gain, int *qg,
                          const ct_opus_dsp *dsp)
{
    const ct_celt_mode *mode = ct_celt_mode_get();
    ct_celt_prefilter_state *pf = &chain->pf;
    int c, pf_on;
    *pitch_index = raw_pitch;
    pf_on = ct_celt_prefilter_decide(pitch_buf, N, params, pf->period, pf->gain,
                                     analysis_valid, max_pitch_ratio,
                                     pitch_index, gain, qg, dsp);
    for (c = 0; c < CC; c++)
        ct_celt_prefilter_comb(
            in + c * (N + OVERLAP), pre[c], pf->in_mem + c * OVERLAP,
            CT_IMAX(pf->period, MINP), pf->gain, pf->tapset, *pitch_index,
            *gain, params->tapset, N, mode, dsp);
    pf->period = *pitch_index;
    pf->gain = *gain;
    pf->tapset = params->tapset;
    return pf_on;
}

/* The sign of the first sample flipped: 0.0 becomes -0.0, so the bytes
 * differ whatever the value. */
static void perturb(float *x)
{
    uint32_t bits;
    memcpy(&bits, x, sizeof(bits));
    bits ^= 0x80000000u;
    memcpy(x, &bits, sizeof(bits));
}

void ct_celt_signal_frame_compute(ct_celt_signal_state *state, const float *x,
                                  int frame_size,
                                  const ct_celt_signal_want *want,
                                  const ct_opus_dsp *dsp,
                                  ct_celt_signal_frame *rec,
                                  ct_celt_signal_kept *kept)
{
    const int CC = state->channels;
    const float coef0 = ct_celt_mode_get()->preemph[0];
    const float *dc = rec->dc_out;
    int c, i, k, N, ncalls, step;

    /* opus_encode_native's pcm_buf after the delay buffer: dc_reject at
       3 Hz (application audio), in the steps of its calls (20 ms, or the
       frame); one call of several steps gives the same bits, the filter
       runs sample after sample */
    step = frame_size <= 960 ? frame_size : 960;
    rec->dc_len = frame_size;
    rec->dc_step = step;
    rec->dc_channels = CC;
    memcpy(rec->dc_in, x, (size_t)frame_size * (size_t)CC * sizeof(float));
    for (k = 0; k * step < frame_size; k++) {
        memcpy(rec->dc_hp[k], state->hp_mem, sizeof(state->hp_mem));
        ct_opus_dc_reject(x + (size_t)k * (size_t)step * (size_t)CC, 3,
                          rec->dc_out + (size_t)k * (size_t)step * (size_t)CC,
                          state->hp_mem, step, CC, 48000);
    }
    memcpy(rec->dc_hp[k], state->hp_mem, sizeof(state->hp_mem));
    if (want->wrong)
        for (i = 0; i <= k; i++)
            perturb(&rec->dc_hp[i][0]);
    /* E: celt_preemphasis' fast path on the scaled samples */
    for (c = 0; c < CC; c++) {
        float *e = state->hist[c] + EXTRA + KEEP;
        /* m, coef0 times the sample before, from the input alone */
        if (frame_size > 0)
            e[0] = dc[c] * CT_CELT_SIG_SCALE -
                   (float)coef0 * (float)state->last_x[c];
        for (i = 1; i < frame_size; i++)
            e[i] = dc[CC * i + c] * CT_CELT_SIG_SCALE -
                   (float)coef0 * (dc[CC * (i - 1) + c] * CT_CELT_SIG_SCALE);
        state->last_x[c] =
            frame_size > 0 ? dc[CC * (frame_size - 1) + c] * CT_CELT_SIG_SCALE
                           : state->last_x[c];
    }

    rec->ncalls = 0;
    memset(&rec->tally, 0, sizeof(rec->tally));
    N = frame_size <= 960 ? frame_size : 960;
    ncalls = frame_size / N;
    if ((want->pitch || want->transient || want->mdct) &&
        N * ncalls == frame_size && ncalls <= CT_CELT_SIGNAL_MAX_CALLS &&
        (N == 120 || N == 240 || N == 480 || N == 960)) {
        for (k = 0; k < ncalls; k++) {
            ct_celt_signal_call *call = &rec->calls[k];
            /* the call's E: [prefilter_mem | in] at hist + k * N */
            float local[CT_CELT_MAX_CHANNELS][MAXP + 960];
            float *pre[CT_CELT_MAX_CHANNELS];
            float in[CT_CELT_MAX_CHANNELS * (960 + OVERLAP)];
            call->N = N;
            call->CC = CC;
            for (c = 0; c < CC; c++) {
                const float *src = state->hist[c] + EXTRA + k * N;
                memcpy(local[c], src, (size_t)(MAXP + N) * sizeof(float));
                if (want->wrong && c == 0) {
                    /* tests: what would be assumed wrongly; every
                       take-over must miss */
                    perturb(&local[c][0]);
                    perturb(&local[c][MAXP - OVERLAP]);
                }
                pre[c] = local[c];
                memcpy(call->prefilter_mem + c * MAXP, local[c],
                       MAXP * sizeof(float));
                memcpy(call->pre + c * 960, local[c] + MAXP,
                       (size_t)N * sizeof(float));
            }
            call->has[CT_CELT_SIGNAL_PITCH] = want->pitch;
            if (want->pitch) {
                /* run_prefilter's search, before remove_doubling */
                int pitch_index;
                ct_celt_pitch_downsample(pre, call->pitch_buf, MAXP + N, CC,
                                         dsp);
                ct_celt_pitch_search(call->pitch_buf + (MAXP >> 1),
                                     call->pitch_buf, N, MAXP - 3 * MINP,
                                     &pitch_index, dsp);
                call->pitch_index = MAXP - pitch_index;
            }
            call->has[CT_CELT_SIGNAL_PREFILTER] =
                want->prefilter && want->pitch && state->chain.valid;
            if (call->has[CT_CELT_SIGNAL_PREFILTER]) {
                /* on the chain: the CELT encoder's state as predicted */
                call->pf_old = state->chain.pf;
                call->pf_params = want->params;
                call->pf_params.tapset = state->chain.tapset_decision;
                read_analysis(&state->chain, want, N, &call->pf_analysis_valid,
                              &call->pf_max_pitch_ratio, call->fe_leak_boost);
                call->fe_analysis_valid = call->pf_analysis_valid;
                call->pf_on = prefilter_step(
                    &state->chain, call->pitch_buf, call->pitch_index, pre, CC,
                    N, &call->pf_params, call->pf_analysis_valid,
                    call->pf_max_pitch_ratio, call->in, &call->pf_pitch_index,
                    &call->pf_gain, &call->pf_qg, dsp);
                if (want->wrong) {
                    perturb(&call->pf_old.in_mem[0]);
                    perturb(&call->in[0]);
                }
            } else {
                /* off the chain (unknown from here to the next resync):
                   the comb filter as the identity, in = [in_mem | pre] */
                state->chain.valid = 0;
                for (c = 0; c < CC; c++)
                    memcpy(call->in + c * (N + OVERLAP),
                           local[c] + MAXP - OVERLAP,
                           (size_t)(N + OVERLAP) * sizeof(float));
            }
            memcpy(in, call->in, (size_t)(CC * (N + OVERLAP)) * sizeof(float));
            call->has[CT_CELT_SIGNAL_TRANSIENT] = want->transient;
            call->has[CT_CELT_SIGNAL_MDCT] = want->mdct;
            call->has_short = 0;
            call->is_transient = 0;
            if (want->transient) {
                call->tf_chan = 0;
                call->is_transient = ct_celt_transient_analysis(
                    in, N + OVERLAP, CC, &call->tf_estimate, &call->tf_chan, 0,
                    &call->weak_transient);
            }
            if (want->mdct) {
                /* long blocks, and short ones where the transient analysis
                   found a transient */
                const ct_celt_mode *mode = ct_celt_mode_get();
                int LM = 0;
                while (mode->shortMdctSize << LM != N)
                    LM++;
                ct_celt_compute_mdcts(mode, 0, in, call->mdct_long, CC, CC, LM,
                                      1, dsp);
                if (call->is_transient && LM > 0) {
                    ct_celt_compute_mdcts(mode, 1 << LM, in, call->mdct_short,
                                          CC, CC, LM, 1, dsp);
                    call->has_short = 1;
                }
            }
            call->has_hf = 0;
            call->has[CT_CELT_SIGNAL_BANDS] = 0;
            call->has[CT_CELT_SIGNAL_DYNALLOC] = 0;
            call->has[CT_CELT_SIGNAL_TF] = 0;
            if (call->has[CT_CELT_SIGNAL_PREFILTER] && want->transient &&
                want->mdct && want->params.C == CC &&
                !(call->is_transient && N > 120) && want->params.eff_end >= 1) {
                frontend(call, &want->params, dsp);
                if (want->wrong) {
                    perturb(&call->bandLogE[0]);
                    for (c = 0; c < CC; c++)
                        perturb(&call->X[c * N]);
                }
            }
            if (want->wrong && want->mdct)
                perturb(&call->mdct_long[0]);
            if (call->has[CT_CELT_SIGNAL_PREFILTER])
                tapset_step(&state->chain, &want->params, call->pf_on,
                            call->is_transient && N > 120, call->has_hf,
                            call->hf_sum, N);
        }
        rec->ncalls = ncalls;
    } else {
        state->chain.valid = 0;
    }
    kept->ncalls = 0;
    if (rec->ncalls > 0 && rec->calls[0].has[CT_CELT_SIGNAL_PITCH]) {
        kept->ncalls = rec->ncalls;
        kept->N = N;
        if (want->view)
            kept->view = *want->view;
        for (k = 0; k < rec->ncalls; k++) {
            kept->pitch_index[k] = rec->calls[k].pitch_index;
            kept->has_hf[k] = rec->calls[k].has_hf;
            kept->hf_sum[k] = rec->calls[k].hf_sum;
            kept->is_short[k] = rec->calls[k].is_transient && N > 120;
            memcpy(kept->pitch_buf[k], rec->calls[k].pitch_buf,
                   (size_t)((MAXP + N) >> 1) * sizeof(float));
        }
    }

    /* E's last EXTRA + KEEP samples for the next frame */
    for (c = 0; c < CC; c++)
        memmove(state->hist[c], state->hist[c] + frame_size,
                (EXTRA + KEEP) * sizeof(float));
}

int ct_celt_signal_take_pitch(const ct_celt_signal_frame *rec,
                              ct_celt_signal_tally *tally, float *const pre[],
                              int CC, int N, float *pitch_buf, int *pitch_index)
{
    int k, c;
    if (!rec)
        return 0;
    tally->needed[CT_CELT_SIGNAL_PITCH]++;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        int same =
            call->N == N && call->CC == CC && call->has[CT_CELT_SIGNAL_PITCH];
        for (c = 0; same && c < CC; c++)
            same = memcmp(pre[c], call->prefilter_mem + c * MAXP,
                          MAXP * sizeof(float)) == 0 &&
                   memcmp(pre[c] + MAXP, call->pre + c * 960,
                          (size_t)N * sizeof(float)) == 0;
        if (same) {
            memcpy(pitch_buf, call->pitch_buf,
                   (size_t)((MAXP + N) >> 1) * sizeof(float));
            *pitch_index = call->pitch_index;
            tally->taken[CT_CELT_SIGNAL_PITCH]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_dc_reject(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally, const float *in,
                                  int len, int channels, float *hp_mem,
                                  float *out)
{
    int k;
    if (!rec)
        return 0;
    tally->needed[CT_CELT_SIGNAL_DC_REJECT]++;
    if (rec->dc_len == 0 || channels != rec->dc_channels ||
        len % rec->dc_step != 0)
        return 0;
    for (k = 0; (k + len / rec->dc_step) * rec->dc_step <= rec->dc_len; k++) {
        const size_t o = (size_t)k * (size_t)rec->dc_step * (size_t)channels;
        const size_t n = (size_t)len * (size_t)channels;
        if (memcmp(hp_mem, rec->dc_hp[k], sizeof(rec->dc_hp[k])) == 0 &&
            memcmp(in, rec->dc_in + o, n * sizeof(float)) == 0) {
            memcpy(out, rec->dc_out + o, n * sizeof(float));
            memcpy(hp_mem, rec->dc_hp[k + len / rec->dc_step],
                   sizeof(rec->dc_hp[k]));
            tally->taken[CT_CELT_SIGNAL_DC_REJECT]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_mdcts(const ct_celt_signal_frame *rec,
                              ct_celt_signal_tally *tally, int shortBlocks,
                              const float *in, float *out, int C, int CC, int N)
{
    int k;
    if (!rec)
        return 0;
    tally->needed[CT_CELT_SIGNAL_MDCT]++;
    if (C != CC)
        return 0;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        int same =
            call->N == N && call->CC == CC && call->has[CT_CELT_SIGNAL_MDCT] &&
            (shortBlocks == 0 || (call->has_short && shortBlocks == N / 120));
        same =
            same && memcmp(in, call->in,
                           (size_t)(CC * (N + OVERLAP)) * sizeof(float)) == 0;
        if (same) {
            const float *src = shortBlocks ? call->mdct_short : call->mdct_long;
            memcpy(out, src, (size_t)(CC * N) * sizeof(float));
            tally->taken[CT_CELT_SIGNAL_MDCT]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_transient(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally, const float *in,
                                  int CC, int N, int allow_weak_transients,
                                  int *is_transient, float *tf_estimate,
                                  int *tf_chan, int *weak_transient)
{
    int k;
    if (!rec)
        return 0;
    tally->needed[CT_CELT_SIGNAL_TRANSIENT]++;
    if (allow_weak_transients)
        return 0;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        int same = call->N == N && call->CC == CC &&
                   call->has[CT_CELT_SIGNAL_TRANSIENT];
        same =
            same && memcmp(in, call->in,
                           (size_t)(CC * (N + OVERLAP)) * sizeof(float)) == 0;
        if (same) {
            *is_transient = call->is_transient;
            *tf_estimate = call->tf_estimate;
            *tf_chan = call->tf_chan;
            *weak_transient = call->weak_transient;
            tally->taken[CT_CELT_SIGNAL_TRANSIENT]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_prefilter(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally,
                                  ct_celt_encoder *st, float *const pre[],
                                  float *in, float *prefilter_mem, int CC,
                                  int N, const ct_celt_signal_params *params,
                                  const ct_analysis_info *analysis,
                                  int *pitch_index, float *gain, int *qgain,
                                  int *pf_on)
{
    int k, c;
    if (!rec)
        return 0;
    tally->seen = 1;
    tally->seen_params.tapset = params->tapset;
    tally->seen_params.enabled = params->enabled;
    tally->seen_params.avail_below25 = params->avail_below25;
    tally->seen_params.avail_below35 = params->avail_below35;
    tally->seen_params.loss_rate = params->loss_rate;
    tally->needed[CT_CELT_SIGNAL_PREFILTER]++;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        const ct_celt_prefilter_state *old = &call->pf_old;
        const ct_celt_signal_params *assumed = &call->pf_params;
        /* A tapset is an input of the comb filter only where its gain is
           not 0: a gain of 0 (-0 in the filter) times any of the tapset's
           taps (all >= 0) is the same signed zero. The decision does not
           read the tapset; the state's new tapset is Encode's own. */
        int same =
            call->N == N && call->CC == CC &&
            call->has[CT_CELT_SIGNAL_PREFILTER] &&
            old->period == st->prefilter_period &&
            memcmp(&old->gain, &st->prefilter_gain, sizeof(float)) == 0 &&
            (old->tapset == st->prefilter_tapset || old->gain == 0) &&
            (assumed->tapset == params->tapset || call->pf_gain == 0) &&
            assumed->enabled == params->enabled &&
            assumed->avail_below25 == params->avail_below25 &&
            assumed->avail_below35 == params->avail_below35 &&
            assumed->loss_rate == params->loss_rate &&
            call->pf_analysis_valid == analysis->valid &&
            (!analysis->valid ||
             memcmp(&call->pf_max_pitch_ratio, &analysis->max_pitch_ratio,
                    sizeof(float)) == 0) &&
            memcmp(old->in_mem, st->in_mem,
                   (size_t)(CC * OVERLAP) * sizeof(float)) == 0;
        for (c = 0; same && c < CC; c++)
            same = memcmp(pre[c], call->prefilter_mem + c * MAXP,
                          MAXP * sizeof(float)) == 0 &&
                   memcmp(pre[c] + MAXP, call->pre + c * 960,
                          (size_t)N * sizeof(float)) == 0;
        if (same) {
            /* what run_prefilter leaves: its period raised, the comb
               filter's output, in_mem and prefilter_mem */
            st->prefilter_period = CT_IMAX(st->prefilter_period, MINP);
            memcpy(in, call->in, (size_t)(CC * (N + OVERLAP)) * sizeof(float));
            for (c = 0; c < CC; c++) {
                memcpy(st->in_mem + c * OVERLAP,
                       call->in + c * (N + OVERLAP) + N,
                       OVERLAP * sizeof(float));
                memmove(prefilter_mem + c * MAXP, prefilter_mem + c * MAXP + N,
                        (size_t)(MAXP - N) * sizeof(float));
                memcpy(prefilter_mem + c * MAXP + MAXP - N, pre[c] + MAXP,
                       (size_t)N * sizeof(float));
            }
            *pitch_index = call->pf_pitch_index;
            *gain = call->pf_gain;
            *qgain = call->pf_qg;
            *pf_on = call->pf_on;
            tally->taken[CT_CELT_SIGNAL_PREFILTER]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_frame_replay(const ct_celt_signal_state *state,
                                ct_celt_signal_chain *chain,
                                const ct_celt_signal_kept *kept,
                                const ct_celt_signal_want *want, int last,
                                const ct_opus_dsp *dsp)
{
    const int CC = state->channels;
    const int N = kept->N;
    ct_celt_signal_want at = *want;
    int k, c;
    if (!chain->valid || kept->ncalls == 0) {
        chain->valid = 0;
        return 0;
    }
    at.view = &kept->view;
    for (k = 0; k < kept->ncalls; k++) {
        int valid, pitch_index, qg;
        float max_pitch_ratio, gain;
        ct_celt_prefilter_state *pf = &chain->pf;
        ct_celt_signal_params params = want->params;
        int pf_on;
        params.tapset = chain->tapset_decision;
        read_analysis(chain, &at, N, &valid, &max_pitch_ratio, NULL);
        pitch_index = kept->pitch_index[k];
        pf_on = ct_celt_prefilter_decide(
            kept->pitch_buf[k], N, &params, pf->period, pf->gain, valid,
            max_pitch_ratio, &pitch_index, &gain, &qg, dsp);
        if (last && k == kept->ncalls - 1) {
            /* in_mem: the comb filter's last samples; the call's E ends
               where the state's next call's prefilter memory does */
            const ct_celt_mode *mode = ct_celt_mode_get();
            float in[960 + OVERLAP];
            for (c = 0; c < CC; c++)
                ct_celt_prefilter_comb(
                    in, state->hist[c] + EXTRA - N, pf->in_mem + c * OVERLAP,
                    CT_IMAX(pf->period, MINP), pf->gain, pf->tapset,
                    pitch_index, gain, params.tapset, N, mode, dsp);
        }
        pf->period = pitch_index;
        pf->gain = gain;
        pf->tapset = params.tapset;
        tapset_step(chain, &params, pf_on, kept->is_short[k], kept->has_hf[k],
                    kept->hf_sum[k], N);
    }
    return chain->valid;
}

void ct_celt_signal_chain_read(ct_celt_signal_chain *chain,
                               const ct_celt_encoder *st, int read_pos,
                               int read_subframe)
{
    memset(chain, 0, sizeof(*chain));
    chain->valid = 1;
    chain->pf.period = st->prefilter_period;
    chain->pf.gain = st->prefilter_gain;
    chain->pf.tapset = st->prefilter_tapset;
    memcpy(chain->pf.in_mem, st->in_mem, sizeof(chain->pf.in_mem));
    chain->read_pos = read_pos;
    chain->read_subframe = read_subframe;
    chain->hf_average = st->hf_average;
    chain->tapset_decision = st->tapset_decision;
}

int ct_celt_signal_chain_same(const ct_celt_signal_chain *a,
                              const ct_celt_signal_chain *b)
{
    return a->valid && b->valid && a->pf.period == b->pf.period &&
           memcmp(&a->pf.gain, &b->pf.gain, sizeof(float)) == 0 &&
           a->pf.tapset == b->pf.tapset && a->read_pos == b->read_pos &&
           a->read_subframe == b->read_subframe &&
           a->hf_average == b->hf_average &&
           a->tapset_decision == b->tapset_decision;
}

void ct_celt_signal_seen_spread(const ct_celt_signal_frame *rec,
                                ct_celt_signal_tally *tally, int spread_runs)
{
    if (rec)
        tally->seen_params.spread_runs = spread_runs;
}

void ct_celt_signal_seen_frontend(const ct_celt_signal_frame *rec,
                                  ct_celt_signal_tally *tally,
                                  const ct_celt_signal_params *params)
{
    if (!rec)
        return;
    tally->seen_params.eff_end = params->eff_end;
    tally->seen_params.C = params->C;
    tally->seen_params.end = params->end;
    tally->seen_params.lsb_depth = params->lsb_depth;
    tally->seen_params.vbr = params->vbr;
    tally->seen_params.constrained_vbr = params->constrained_vbr;
    tally->seen_params.effective_bytes = params->effective_bytes;
    tally->seen_params.tf_runs = params->tf_runs;
}

/* The call whose long blocks are freq, with its front end computed. */
static const ct_celt_signal_call *frontend_call(const ct_celt_signal_frame *rec,
                                                int kind, const float *freq,
                                                int C, int N)
{
    int k;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        if (call->N == N && call->CC == C && call->has[kind] &&
            memcmp(freq, call->mdct_long, (size_t)(C * N) * sizeof(float)) == 0)
            return call;
    }
    return NULL;
}

int ct_celt_signal_take_bands(const ct_celt_signal_frame *rec,
                              ct_celt_signal_tally *tally, const float *freq,
                              int shortBlocks, int effEnd, int end, int C,
                              int N, float *bandE, float *bandLogE)
{
    const ct_celt_signal_call *call;
    if (!rec)
        return 0;
    tally->needed[CT_CELT_SIGNAL_BANDS]++;
    if (shortBlocks)
        return 0;
    call = frontend_call(rec, CT_CELT_SIGNAL_BANDS, freq, C, N);
    if (!call || call->fe_params.eff_end != effEnd ||
        call->fe_params.end != end)
        return 0;
    memcpy(bandE, call->bandE, (size_t)(C * CT_CELT_NB_EBANDS) * sizeof(float));
    memcpy(bandLogE, call->bandLogE,
           (size_t)(C * CT_CELT_NB_EBANDS) * sizeof(float));
    tally->taken[CT_CELT_SIGNAL_BANDS]++;
    return 1;
}

int ct_celt_signal_take_normalise(const ct_celt_signal_frame *rec,
                                  const float *freq, const float *bandE,
                                  int effEnd, int C, int N, float *X)
{
    const ct_celt_signal_call *call;
    size_t bins;
    int c;
    if (!rec)
        return 0;
    call = frontend_call(rec, CT_CELT_SIGNAL_BANDS, freq, C, N);
    if (!call || call->fe_params.eff_end != effEnd ||
        memcmp(bandE, call->bandE,
               (size_t)(C * CT_CELT_NB_EBANDS) * sizeof(float)) != 0)
        return 0;
    /* the bins normalise_bands writes: the bands up to effEnd */
    bins = (size_t)(N / ct_celt_mode_get()->shortMdctSize) *
           (size_t)ct_celt_mode_get()->eBands[effEnd];
    for (c = 0; c < C; c++)
        memcpy(X + c * N, call->X + c * N, bins * sizeof(float));
    return 1;
}

int ct_celt_signal_take_dynalloc(const ct_celt_signal_frame *rec,
                                 ct_celt_signal_tally *tally,
                                 const float *bandLogE, const float *bandLogE2,
                                 const ct_celt_signal_params *params,
                                 int isTransient, int N,
                                 const ct_analysis_info *analysis, int *offsets,
                                 int *importance, int *spread_weight,
                                 float *max_depth, int32_t *tot_boost)
{
    int k;
    if (!rec)
        return 0;
    tally->needed[CT_CELT_SIGNAL_DYNALLOC]++;
    if (isTransient)
        return 0;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        const ct_celt_signal_params *a = &call->fe_params;
        const size_t n =
            (size_t)(params->C * CT_CELT_NB_EBANDS) * sizeof(float);
        if (call->N == N && call->CC == params->C &&
            call->has[CT_CELT_SIGNAL_DYNALLOC] && a->end == params->end &&
            a->lsb_depth == params->lsb_depth && a->vbr == params->vbr &&
            a->constrained_vbr == params->constrained_vbr &&
            a->effective_bytes == params->effective_bytes &&
            call->fe_analysis_valid == analysis->valid &&
            (!analysis->valid ||
             memcmp(call->fe_leak_boost, analysis->leak_boost,
                    CT_OPUS_LEAK_BANDS) == 0) &&
            memcmp(bandLogE, call->bandLogE, n) == 0 &&
            memcmp(bandLogE2, call->bandLogE, n) == 0) {
            memcpy(offsets, call->offsets, sizeof(call->offsets));
            memcpy(importance, call->importance, sizeof(call->importance));
            memcpy(spread_weight, call->spread_weight,
                   sizeof(call->spread_weight));
            *max_depth = call->max_depth;
            *tot_boost = call->tot_boost;
            tally->taken[CT_CELT_SIGNAL_DYNALLOC]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_tf(const ct_celt_signal_frame *rec,
                           ct_celt_signal_tally *tally, const float *X, int len,
                           int isTransient, int lambda, int N,
                           float tf_estimate, int tf_chan,
                           const int *importance, int *tf_res, int *tf_select)
{
    int k;
    size_t bins;
    if (!rec)
        return 0;
    tally->needed[CT_CELT_SIGNAL_TF]++;
    if (isTransient || len < 1)
        return 0;
    /* tf_analysis reads channel tf_chan's bands up to len */
    bins = (size_t)(N / ct_celt_mode_get()->shortMdctSize) *
           (size_t)ct_celt_mode_get()->eBands[len];
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        const ct_celt_signal_params *a = &call->fe_params;
        if (call->N == N && call->has[CT_CELT_SIGNAL_TF] && a->eff_end == len &&
            tf_chan < call->CC &&
            CT_IMAX(80, 20480 / a->effective_bytes + 2) == lambda &&
            memcmp(&call->tf_estimate, &tf_estimate, sizeof(float)) == 0 &&
            call->tf_chan == tf_chan &&
            memcmp(call->importance, importance, sizeof(call->importance)) ==
                0 &&
            memcmp(X + tf_chan * N, call->X + tf_chan * N,
                   bins * sizeof(float)) == 0) {
            memcpy(tf_res, call->tf_res, sizeof(call->tf_res));
            *tf_select = call->tf_select;
            tally->taken[CT_CELT_SIGNAL_TF]++;
            return 1;
        }
    }
    return 0;
}
