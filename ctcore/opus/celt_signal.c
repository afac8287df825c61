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

#include "celt_encoder_internal.h"
#include "codec.h"
#include "mathops.h"
#include "pitch.h"

enum {
    MAXP = CT_CELT_COMBFILTER_MAXPERIOD,
    MINP = CT_CELT_COMBFILTER_MINPERIOD,
    OVERLAP = CT_CELT_OVERLAP,
    KEEP = CT_CELT_SIGNAL_KEEP,
};

void ct_celt_signal_init(ct_celt_signal_state *state, int channels)
{
    memset(state, 0, sizeof(*state));
    state->channels = channels;
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
                                  ct_celt_signal_frame *rec)
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
        float *e = state->hist[c] + KEEP;
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
                const float *src = state->hist[c] + k * N;
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
                memcpy(call->in_mem + c * OVERLAP, local[c] + MAXP - OVERLAP,
                       OVERLAP * sizeof(float));
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
            call->has[CT_CELT_SIGNAL_TRANSIENT] = want->transient;
            call->has[CT_CELT_SIGNAL_MDCT] = want->mdct;
            call->has_short = 0;
            call->is_transient = 0;
            /* the comb filter as the identity: in = [in_mem | pre] */
            for (c = 0; c < CC; c++)
                memcpy(in + c * (N + OVERLAP), local[c] + MAXP - OVERLAP,
                       (size_t)(N + OVERLAP) * sizeof(float));
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
        }
        rec->ncalls = ncalls;
    }

    /* E's last KEEP samples for the next frame */
    for (c = 0; c < CC; c++)
        memmove(state->hist[c], state->hist[c] + frame_size,
                KEEP * sizeof(float));
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
    int k, c;
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
        for (c = 0; same && c < CC; c++) {
            const float *x = in + c * (N + OVERLAP);
            same = memcmp(x, call->in_mem + c * OVERLAP,
                          OVERLAP * sizeof(float)) == 0 &&
                   memcmp(x + OVERLAP, call->pre + c * 960,
                          (size_t)N * sizeof(float)) == 0;
        }
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
    int k, c;
    if (!rec)
        return 0;
    rec->needed[CT_CELT_SIGNAL_TRANSIENT]++;
    if (allow_weak_transients)
        return 0;
    for (k = 0; k < rec->ncalls; k++) {
        const ct_celt_signal_call *call = &rec->calls[k];
        int same = call->N == N && call->CC == CC &&
                   call->has[CT_CELT_SIGNAL_TRANSIENT];
        for (c = 0; same && c < CC; c++) {
            const float *x = in + c * (N + OVERLAP);
            same = memcmp(x, call->in_mem + c * OVERLAP,
                          OVERLAP * sizeof(float)) == 0 &&
                   memcmp(x + OVERLAP, call->pre + c * 960,
                          (size_t)N * sizeof(float)) == 0;
        }
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
