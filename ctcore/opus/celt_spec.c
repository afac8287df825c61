/*
 * CELT's band quantisation speculated a frame ahead: the seed's cell, the
 * speculation's run and Encode's take-over (celt_spec.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include "celt_spec.h"

#include <string.h>

#include "celt_signal.h"
#include "mode.h"

/* How long the speculation waits actively for the seed before it sleeps:
 * Encode publishes it a few µs after its own bands. */
#define SEED_SPINS 4096

enum { SEED_PENDING, SEED_PUBLISHED, SEED_ABANDONED };

int ct_celt_seed_cell_init(ct_celt_seed_cell *cell)
{
    atomic_init(&cell->state, SEED_PENDING);
    cell->value = 0;
    if (pthread_mutex_init(&cell->lock, NULL) != 0)
        return -1;
    if (pthread_cond_init(&cell->cond, NULL) != 0) {
        pthread_mutex_destroy(&cell->lock);
        return -1;
    }
    return 0;
}

void ct_celt_seed_cell_destroy(ct_celt_seed_cell *cell)
{
    pthread_cond_destroy(&cell->cond);
    pthread_mutex_destroy(&cell->lock);
}

void ct_celt_seed_cell_rearm(ct_celt_seed_cell *cell)
{
    atomic_store(&cell->state, SEED_PENDING);
}

static void settle(ct_celt_seed_cell *cell, int state)
{
    pthread_mutex_lock(&cell->lock);
    atomic_store(&cell->state, state);
    pthread_cond_broadcast(&cell->cond);
    pthread_mutex_unlock(&cell->lock);
}

void ct_celt_seed_cell_publish(ct_celt_seed_cell *cell, uint32_t seed)
{
    cell->value = seed;
    settle(cell, SEED_PUBLISHED);
}

void ct_celt_seed_cell_abandon(ct_celt_seed_cell *cell)
{
    settle(cell, SEED_ABANDONED);
}

bool ct_celt_seed_cell_wait(ct_celt_seed_cell *cell, uint32_t *seed)
{
    int state = atomic_load(&cell->state);
    int spins;
    for (spins = 0; state == SEED_PENDING && spins < SEED_SPINS; spins++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        state = atomic_load(&cell->state);
    }
    if (state == SEED_PENDING) {
        pthread_mutex_lock(&cell->lock);
        while ((state = atomic_load(&cell->state)) == SEED_PENDING)
            pthread_cond_wait(&cell->cond, &cell->lock);
        pthread_mutex_unlock(&cell->lock);
    }
    if (state != SEED_PUBLISHED)
        return false;
    *seed = cell->value;
    return true;
}

void ct_celt_spec_run(ct_celt_spec_job *job)
{
    ct_celt_encoder *st = &job->st;
    unsigned char scratch_buf[CT_CELT_SPEC_MAX_BYTES];
    /* the record is read while Encode counts in it: the copy counts here */
    ct_celt_signal_tally tally;
    ct_ec_enc scratch, enc;

    job->result.valid = 0;
    /* frame N's end with the guess; its bits go nowhere */
    ct_ec_enc_init(&scratch, scratch_buf, sizeof(scratch_buf));
    ct_celt_frame_close(st, &job->tail, job->leftover_guess, &scratch);
    /* frame N + 1's call as assumed */
    memset(&tally, 0, sizeof(tally));
    st->analysis = job->analysis;
    st->signal_offer = job->signal;
    st->signal_tally = job->signal ? &tally : NULL;
    st->theta_lane = NULL;
    st->spec_post = NULL;
    st->spec_claim = NULL;
    st->spec_result = &job->result;
    st->spec_seed = &job->seed;
    ct_ec_enc_init(&enc, job->result.buf, (uint32_t)job->nb_compr_bytes);
    ct_celt_encode_with_ec(st, job->pcm, job->frame_size, NULL,
                           job->nb_compr_bytes, &enc);
}

static bool same_ec_state(const ct_ec_enc *a, const ct_ec_enc *b)
{
    return a->storage == b->storage && a->end_offs == b->end_offs &&
           a->nend_bits == b->nend_bits && a->nbits_total == b->nbits_total &&
           a->offs == b->offs && a->rng == b->rng && a->val == b->val &&
           a->ext == b->ext && a->rem == b->rem && a->error == b->error;
}

bool ct_celt_spec_take(const ct_celt_spec_result *r, int start, int end,
                       const float *X, int C, int N, const float *bandE,
                       const int *pulses, int shortBlocks, int spread,
                       int dual_stereo, int intensity, const int *tf_res,
                       int32_t total_bits, int32_t balance, ct_ec_enc *ec,
                       int LM, int codedBands, uint32_t seed, int complexity,
                       int disable_inv, unsigned char *collapse_masks)
{
    const int nbEBands = CT_CELT_NB_EBANDS;
    const int16_t *eBands = ct_celt_mode_get()->eBands;
    const int M = 1 << LM;
    unsigned char *buf = ec->buf;
    const uint32_t storage = ec->storage;
    const uint32_t offs0 = ec->offs, end_offs0 = ec->end_offs;
    ct_ec_window pending;
    uint32_t k;
    int c;
    if (!r->valid || r->start != start || r->end != end || r->C != C ||
        r->N != N || r->LM != LM || r->shortBlocks != shortBlocks ||
        r->spread != spread || r->dual_stereo != dual_stereo ||
        r->intensity != intensity || r->codedBands != codedBands ||
        r->complexity != complexity || r->disable_inv != disable_inv ||
        r->total_bits != total_bits || r->balance != balance ||
        (r->seed_used && r->seed != seed) || !same_ec_state(&r->before, ec))
        return false;
    /* what quant_all_bands reads of its arrays: bands start to end */
    for (c = 0; c < C; c++) {
        const size_t lo = (size_t)(M * eBands[start]),
                     hi = (size_t)(M * eBands[end]);
        if (memcmp(r->bandE + c * nbEBands + start,
                   bandE + c * nbEBands + start,
                   (size_t)(end - start) * sizeof(float)) != 0 ||
            memcmp(r->X + (size_t)c * (size_t)N + lo,
                   X + (size_t)c * (size_t)N + lo,
                   (hi - lo) * sizeof(float)) != 0)
            return false;
    }
    if (memcmp(r->pulses + start, pulses + start,
               (size_t)(end - start) * sizeof(int)) != 0 ||
        memcmp(r->tf_res + start, tf_res + start,
               (size_t)(end - start) * sizeof(int)) != 0)
        return false;
    /* the range coder as after the speculation's bands, over Encode's
       buffer: its bytes from offs on and its raw bits from end_offs on */
    pending = ec->end_window ^ r->before.end_window;
    *ec = r->after;
    ec->buf = buf;
    memcpy(buf + offs0, r->buf + offs0, ec->offs - offs0);
    memcpy(buf + storage - ec->end_offs, r->buf + storage - ec->end_offs,
           ec->end_offs - end_offs0);
    /* the raw bits pending before the bands were Encode's own (they went
       out with the first raw byte the bands flushed, or are still in the
       window) */
    for (k = 0; pending != 0; k++, pending >>= 8) {
        const uint32_t at = end_offs0 + k;
        const unsigned byte = (unsigned)(pending & 0xff);
        if (at < ec->end_offs)
            buf[storage - 1 - at] ^= (unsigned char)byte;
        else
            ec->end_window ^= (ct_ec_window)byte << (8 * (at - ec->end_offs));
    }
    memcpy(collapse_masks, r->collapse_masks, (size_t)(C * nbEBands));
    return true;
}
