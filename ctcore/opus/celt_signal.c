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
#include <stdio.h>

#include "bands.h"
#include "celt_encoder_internal.h"
#include "codec.h"
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
 * run), the chain's reader moved on by the call's N samples. */
static void read_analysis(ct_celt_signal_chain *chain,
                          const ct_celt_signal_want *want, int N, int *valid,
                          float *max_pitch_ratio)
{
    *valid = 0;
    *max_pitch_ratio = 0;
    if (want->tonal) {
        const ct_analysis_info *info = ct_opus_tonality_peek_entry(
            want->tonal, want->view, &chain->read_pos, &chain->read_subframe,
            N);
        *valid = info->valid;
        *max_pitch_ratio = info->max_pitch_ratio;
    }
}

/* run_prefilter's decision and comb filter of a call on the chain: the
 * comb filter's output into in (CC channels of N + overlap), the chain
 * moved on. */
/* spreading_decision's high bands' sum for a call's long blocks,
 * normalised as celt_encode_with_ec does up to eff_end; has_hf set. */
static int hf_sum(ct_celt_signal_call *call, int eff_end,
                  const ct_opus_dsp *dsp)
{
    const ct_celt_mode *mode = ct_celt_mode_get();
    float bandE[CT_CELT_MAX_CHANNELS * CT_CELT_NB_EBANDS];
    float X[CT_CELT_MAX_CHANNELS * 960];
    int LM = 0;
    while (mode->shortMdctSize << LM != call->N)
        LM++;
    ct_celt_compute_band_energies(mode, call->mdct_long, bandE, eff_end,
                                  call->CC, LM, dsp);
    ct_celt_normalise_bands(mode, call->mdct_long, X, bandE, eff_end, call->CC,
                            1 << LM);
    call->has_hf = 1;
    return ct_celt_spreading_hf_sum(mode, X, eff_end, call->CC, 1 << LM);
}

/* The tapset's update later in a call, on the chain: where
 * spreading_decision runs (long blocks; no early return) with update_hf
 * (the prefilter on). Off the chain where the sum is needed and missing. */
static void tapset_step(ct_celt_signal_chain *chain,
                        const ct_celt_prefilter_params *params, int pf_on,
                        int is_short, int has_hf, int hf, int N)
{
    const ct_celt_mode *mode = ct_celt_mode_get();
    const int M = N / mode->shortMdctSize;
    const int eff_end = params->eff_end;
    if (!params->spread_runs || is_short || !pf_on || eff_end < 1 ||
        M * (mode->eBands[eff_end] - mode->eBands[eff_end - 1]) <= 8)
        return;
    if (!has_hf) {
        chain->valid = 0;
        return;
    }
    ct_celt_tapset_update(hf, params->C, eff_end, mode->nbEBands,
                          &chain->hf_average, &chain->tapset_decision);
}

static int prefilter_step(ct_celt_signal_chain *chain, const float *pitch_buf,
                          int raw_pitch, float *const pre[], int CC, int N,
                          const ct_celt_prefilter_params *params,
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
        ct_celt_prefilter_comb(in + c * (N + OVERLAP), pre[c],
                               pf->in_mem + c * OVERLAP,
                               CT_IMAX(pf->period, MINP), pf->gain, pf->tapset,
                               *pitch_index, *gain, params->tapset, N, mode,
                               dsp);
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
        float m = (float)coef0 * (float)state->last_x[c];
        float *e = state->hist[c] + EXTRA + KEEP;
        for (i = 0; i < frame_size; i++) {
            float v = dc[CC * i + c] * CT_CELT_SIG_SCALE;
            e[i] = v - m;
            m = (float)coef0 * (float)v;
        }
        state->last_x[c] =
            frame_size > 0 ? dc[CC * (frame_size - 1) + c] * CT_CELT_SIG_SCALE
                           : state->last_x[c];
    }

    rec->ncalls = 0;
    rec->seen = 0;
    memset(rec->needed, 0, sizeof(rec->needed));
    memset(rec->taken, 0, sizeof(rec->taken));
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
                              &call->pf_max_pitch_ratio);
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
                                      1);
                if (call->is_transient && LM > 0) {
                    ct_celt_compute_mdcts(mode, 1 << LM, in, call->mdct_short,
                                          CC, CC, LM, 1);
                    call->has_short = 1;
                }
            }
            call->has_hf = 0;
            if (call->has[CT_CELT_SIGNAL_PREFILTER] && want->transient &&
                want->mdct && want->params.C == CC)
                call->hf_sum = hf_sum(call, want->params.eff_end, dsp);
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

int ct_celt_signal_take_pitch(ct_celt_signal_frame *rec, float *const pre[],
                              int CC, int N, float *pitch_buf, int *pitch_index)
{
    int k, c;
    if (!rec)
        return 0;
    rec->needed[CT_CELT_SIGNAL_PITCH]++;
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
            rec->taken[CT_CELT_SIGNAL_PITCH]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_dc_reject(ct_celt_signal_frame *rec, const float *in,
                                  int len, int channels, float *hp_mem,
                                  float *out)
{
    int k;
    if (!rec)
        return 0;
    rec->needed[CT_CELT_SIGNAL_DC_REJECT]++;
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
            rec->taken[CT_CELT_SIGNAL_DC_REJECT]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_mdcts(ct_celt_signal_frame *rec, int shortBlocks,
                              const float *in, float *out, int C, int CC, int N)
{
    int k;
    if (!rec)
        return 0;
    rec->needed[CT_CELT_SIGNAL_MDCT]++;
    if (C != CC)
        return 0;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        int same =
            call->N == N && call->CC == CC && call->has[CT_CELT_SIGNAL_MDCT] &&
            (shortBlocks == 0 || (call->has_short && shortBlocks == N / 120));
        same = same && memcmp(in, call->in,
                              (size_t)(CC * (N + OVERLAP)) * sizeof(float)) ==
                           0;
        if (same) {
            const float *src = shortBlocks ? call->mdct_short : call->mdct_long;
            memcpy(out, src, (size_t)(CC * N) * sizeof(float));
            rec->taken[CT_CELT_SIGNAL_MDCT]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_transient(ct_celt_signal_frame *rec, const float *in,
                                  int CC, int N, int allow_weak_transients,
                                  int *is_transient, float *tf_estimate,
                                  int *tf_chan, int *weak_transient)
{
    int k;
    if (!rec)
        return 0;
    rec->needed[CT_CELT_SIGNAL_TRANSIENT]++;
    if (allow_weak_transients)
        return 0;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        int same = call->N == N && call->CC == CC &&
                   call->has[CT_CELT_SIGNAL_TRANSIENT];
        same = same && memcmp(in, call->in,
                              (size_t)(CC * (N + OVERLAP)) * sizeof(float)) ==
                           0;
        if (same) {
            *is_transient = call->is_transient;
            *tf_estimate = call->tf_estimate;
            *tf_chan = call->tf_chan;
            *weak_transient = call->weak_transient;
            rec->taken[CT_CELT_SIGNAL_TRANSIENT]++;
            return 1;
        }
    }
    return 0;
}

int ct_celt_signal_take_prefilter(ct_celt_signal_frame *rec,
                                  ct_celt_encoder *st, float *const pre[],
                                  float *in, float *prefilter_mem, int CC,
                                  int N, const ct_celt_prefilter_params *params,
                                  const ct_analysis_info *analysis,
                                  int *pitch_index, float *gain, int *qgain,
                                  int *pf_on)
{
    int k, c;
    if (!rec)
        return 0;
    rec->seen = 1;
    rec->seen_params.tapset = params->tapset;
    rec->seen_params.enabled = params->enabled;
    rec->seen_params.avail_below25 = params->avail_below25;
    rec->seen_params.avail_below35 = params->avail_below35;
    rec->seen_params.loss_rate = params->loss_rate;
    rec->needed[CT_CELT_SIGNAL_PREFILTER]++;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        const ct_celt_prefilter_state *old = &call->pf_old;
        const ct_celt_prefilter_params *assumed = &call->pf_params;
        /* A tapset is an input of the comb filter only where its gain is
           not 0: a gain of 0 (-0 in the filter) times any of the tapset's
           taps (all >= 0) is the same signed zero. The decision does not
           read the tapset; the state's new tapset is Encode's own. */
        int same = call->N == N && call->CC == CC &&
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
        if (call->has[CT_CELT_SIGNAL_PREFILTER] && !same) fprintf(stderr, "MISS period %d/%d gain %g/%g tapset %d/%d ptapset %d/%d pfgain %g params %d valid %d/%d mpr %g/%g inmem %d\n", old->period, st->prefilter_period, old->gain, st->prefilter_gain, old->tapset, st->prefilter_tapset, assumed->tapset, params->tapset, call->pf_gain, memcmp(&call->pf_params, params, sizeof(*params)), call->pf_analysis_valid, analysis->valid, call->pf_max_pitch_ratio, analysis->max_pitch_ratio, memcmp(old->in_mem, st->in_mem, (size_t)(CC * OVERLAP) * sizeof(float)));
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
                memcpy(st->in_mem + c * OVERLAP, call->in + c * (N + OVERLAP) + N,
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
            rec->taken[CT_CELT_SIGNAL_PREFILTER]++;
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
        ct_celt_prefilter_params params = want->params;
        int pf_on;
        params.tapset = chain->tapset_decision;
        read_analysis(chain, &at, N, &valid, &max_pitch_ratio);
        pitch_index = kept->pitch_index[k];
        pf_on = ct_celt_prefilter_decide(kept->pitch_buf[k], N, &params,
                                         pf->period, pf->gain, valid,
                                         max_pitch_ratio, &pitch_index, &gain,
                                         &qg, dsp);
        if (last && k == kept->ncalls - 1) {
            /* in_mem: the comb filter's last samples; the call's E ends
               where the state's next call's prefilter memory does */
            const ct_celt_mode *mode = ct_celt_mode_get();
            float in[960 + OVERLAP];
            for (c = 0; c < CC; c++)
                ct_celt_prefilter_comb(in, state->hist[c] + EXTRA - N,
                                       pf->in_mem + c * OVERLAP,
                                       CT_IMAX(pf->period, MINP), pf->gain,
                                       pf->tapset, pitch_index, gain,
                                       params.tapset, N, mode, dsp);
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

void ct_celt_signal_seen_spread(ct_celt_signal_frame *rec, int spread_runs,
                                int eff_end, int C)
{
    if (!rec)
        return;
    rec->seen_params.spread_runs = spread_runs;
    rec->seen_params.eff_end = eff_end;
    rec->seen_params.C = C;
}
