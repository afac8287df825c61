/*
 * Tokenization: the coefficients of a scan -> Huffman symbols with their
 * extra bits (and, for refinement scans, the correction bits).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/entropy_coding.cc, entropy_coding-inl.h and
 * encode_streaming.cc (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/intmath.h"
#include "entropy_internal.h"
#include "tokenize_dsp.h"

static int count_trailing_zeros64(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        ++n;
    }
    return n;
#endif
}

/* Blocks whose masks the tokenizer takes at once: a run of a block row. */
#define MASK_RUN 64
/* Sampling factors are 1 or 2 (all that cjpegli's settings produce). */
#define MAX_SAMP 2

void ct_jpeg_magnitude_masks_c(const int16_t *blocks, size_t n, int threshold,
                               uint64_t *masks)
{
    for (size_t j = 0; j < n; ++j, blocks += CT_DCTSIZE2) {
        uint64_t mask = 0;
        for (int k = 0; k < CT_DCTSIZE2; ++k) {
            const int v = blocks[k];
            mask |= (uint64_t)((v < 0 ? -v : v) >= threshold) << k;
        }
        masks[j] = mask;
    }
}

void ct_jpeg_tokenize_dsp_init(ct_jpeg_tokenize_dsp *dsp, unsigned cpu_flags)
{
    dsp->magnitude_masks = ct_jpeg_magnitude_masks_c;
#if defined(__x86_64__)
    if (cpu_flags & CT_CPU_FLAG_SSE2)
        dsp->magnitude_masks = ct_jpeg_magnitude_masks_sse2;
#else
    (void)cpu_flags;
#endif
}

void ct_jpeg_contexts_init(ct_jpeg_contexts *ctx, const ct_jpeg_frame *frame)
{
    int num_ac_contexts = 0;
    for (int i = 0; i < frame->num_scans; ++i) {
        ctx->ac_offset[i] = CT_JPEG_NUM_DC_CONTEXTS + num_ac_contexts;
        if (frame->scans[i].Se > 0)
            num_ac_contexts += frame->scans[i].comps_in_scan;
    }
    ctx->num_contexts = CT_JPEG_NUM_DC_CONTEXTS + num_ac_contexts;
}

ct_jpeg_scan_geometry ct_jpeg_scan_geometry_of(const ct_jpeg_frame *frame,
                                               const ct_jpeg_scan *scan)
{
    ct_jpeg_scan_geometry g;
    g.interleaved = scan->comps_in_scan > 1;
    if (g.interleaved) {
        g.mcus_per_row = frame->total_imcu_cols;
        g.mcu_rows = frame->total_imcu_rows;
    } else {
        const ct_jpeg_component *comp = &frame->comp[scan->component_index[0]];
        g.mcus_per_row = comp->width_in_blocks;
        g.mcu_rows = comp->height_in_blocks;
    }
    return g;
}

void ct_jpeg_tokenizer_state_init(ct_jpeg_tokenizer_state *state,
                                  const ct_jpeg_frame *frame)
{
    memset(state, 0, sizeof(*state));
    ct_jpeg_tokenize_dsp_init(&state->dsp, frame->cpu_flags);
}

void ct_jpeg_scan_tokens_free(ct_jpeg_scan_tokens *st)
{
    free(st->tokens);
    free(st->ref_tokens);
    free(st->refbits);
    free(st->eobruns);
    memset(st, 0, sizeof(*st));
}

/*
 * Returns the array with room for `more` elements after the `used` ones,
 * moved if it had to grow, or NULL when out of memory (the array is then
 * left as it was). rows_done of rows_total rows are tokenized: the new
 * capacity extrapolates the use so far over the rows still to come (as
 * jpegli's EstimateNumTokens) and grows by half at least, so an array is
 * resized a few times per scan, not per row. more is never 0.
 */
static void *reserve(void *array, size_t *cap, size_t used, size_t more,
                     size_t elem_size, int rows_done, int rows_total)
{
    if (used + more <= *cap)
        return array;
    size_t want = used + more;
    if (rows_done < rows_total) {
        const size_t rows_left = (size_t)(rows_total - rows_done);
        const size_t estimate =
            rows_done == 0
                ? (size_t)(rows_total < 16 ? rows_total : 16) * more
                : used + used / (size_t)rows_done * rows_left * 5 / 4 + more;
        if (estimate > want)
            want = estimate;
        if (want < *cap + *cap / 2)
            want = *cap + *cap / 2;
    }
    void *grown = realloc(array, want * elem_size);
    if (grown != NULL)
        *cap = want;
    return grown;
}

/* reserve() for the tokens of out. Returns CT_OK or CT_ENOMEM. */
static int reserve_tokens(ct_jpeg_scan_tokens *out, size_t more,
                          int rows_done, int rows_total)
{
    ct_jpeg_token *tokens =
        reserve(out->tokens, &out->tokens_cap, out->num_tokens, more,
                sizeof(*tokens), rows_done, rows_total);
    if (tokens == NULL)
        return CT_ENOMEM;
    out->tokens = tokens;
    return CT_OK;
}

/* Bits Ss..Se. */
static inline uint64_t band_mask(int Ss, int Se)
{
    const uint64_t upto_se =
        Se == CT_DCTSIZE2 - 1 ? ~(uint64_t)0 : ((uint64_t)1 << (Se + 1)) - 1;
    return upto_se & ~(((uint64_t)1 << Ss) - 1);
}

/* The magnitude mask of block bx of a block row of `width` blocks, where
 * masks holds those of its run: computed when bx starts a run. */
static inline uint64_t block_mask(ct_jpeg_magnitude_masks_fn magnitude_masks,
                                  const int16_t *block, int bx, int width,
                                  int threshold, uint64_t masks[MASK_RUN])
{
    if (bx % MASK_RUN == 0)
        magnitude_masks(block, (size_t)ct_min_int(MASK_RUN, width - bx),
                        threshold, masks);
    return masks[bx % MASK_RUN];
}

/* ComputeTokensForBlock: one block of a sequential scan, its DC difference
 * already taken; mask: its magnitude mask for threshold 1. */
static ct_jpeg_token *tokenize_sequential_block(const int16_t *block,
                                                uint64_t mask, int dc_diff,
                                                int dc_ctx, int ac_ctx,
                                                ct_jpeg_token *t)
{
    *t++ = ct_jpeg_dc_token(dc_ctx, dc_diff);
    mask &= ~(uint64_t)1;
    int prev = 0;
    while (mask) {
        const int k = count_trailing_zeros64(mask);
        mask &= mask - 1;
        int r = k - prev - 1;
        while (r > 15) {
            *t++ = ct_jpeg_make_token(ac_ctx, 0xf0, 0);
            r -= 16;
        }
        const int v = block[k];
        const int magnitude = v < 0 ? -v : v;
        const int nbits = ct_jpeg_floor_log2((uint32_t)magnitude) + 1;
        const int bits = (v < 0 ? ~magnitude : magnitude) & ((1 << nbits) - 1);
        *t++ = ct_jpeg_make_token(ac_ctx, (r << 4) + nbits, bits);
        prev = k;
    }
    if (prev < CT_DCTSIZE2 - 1)
        *t++ = ct_jpeg_make_token(ac_ctx, 0, 0);
    return t;
}

static const int16_t zero_block[CT_DCTSIZE2];

/* The block at (block_y, block_x) of component c, or NULL beyond its
 * blocks (padding of the MCU grid). */
static inline const int16_t *block_or_null(const ct_jpeg_frame *frame,
                                           const ct_jpeg_coeffs *coeffs, int c,
                                           int block_y, int block_x)
{
    const ct_jpeg_component *comp = &frame->comp[c];
    if (block_x >= comp->width_in_blocks || block_y >= comp->height_in_blocks)
        return NULL;
    return ct_jpeg_block(coeffs, frame, c, block_y, block_x);
}

/* Blocks in one MCU of a scan. */
static int blocks_per_mcu(const ct_jpeg_frame *frame, const ct_jpeg_scan *scan,
                          int interleaved)
{
    if (!interleaved)
        return 1;
    int n = 0;
    for (int i = 0; i < scan->comps_in_scan; ++i) {
        const ct_jpeg_component *comp = &frame->comp[scan->component_index[i]];
        n += comp->h_samp * comp->v_samp;
    }
    return n;
}

/* Sequential scan (Ss == 0, Se == 63): ComputeTokensForiMCURow for the
 * single-scan files jpegli streams, TokenizeScan otherwise. */
static int tokenize_sequential_rows(const ct_jpeg_frame *frame,
                                    const ct_jpeg_coeffs *coeffs,
                                    const ct_jpeg_scan *scan, int ac_context,
                                    ct_jpeg_padding padding, int row0,
                                    int row1, ct_jpeg_tokenizer_state *state,
                                    ct_jpeg_scan_tokens *out)
{
    const ct_jpeg_scan_geometry g = ct_jpeg_scan_geometry_of(frame, scan);
    const size_t max_tokens_per_row = (size_t)g.mcus_per_row *
                                      blocks_per_mcu(frame, scan,
                                                     g.interleaved) *
                                      CT_DCTSIZE2;
    const ct_jpeg_magnitude_masks_fn magnitude_masks =
        state->dsp.magnitude_masks;
    /* The masks of the current run of each block row of the MCU row, per
     * component of the scan (block_mask: the blocks of a row come in
     * order, so every run is computed before its blocks are read). */
    uint64_t masks[CT_JPEG_MAX_COMPONENTS][MAX_SAMP][MASK_RUN];
    for (int mcu_y = row0; mcu_y < row1; ++mcu_y) {
        if (reserve_tokens(out, max_tokens_per_row, mcu_y - row0,
                           row1 - row0) != CT_OK)
            return CT_ENOMEM;
        ct_jpeg_token *t = out->tokens + out->num_tokens;
        for (int mcu_x = 0; mcu_x < g.mcus_per_row; ++mcu_x) {
            for (int i = 0; i < scan->comps_in_scan; ++i) {
                const int c = scan->component_index[i];
                const ct_jpeg_component *comp = &frame->comp[c];
                const int n_blocks_y = g.interleaved ? comp->v_samp : 1;
                const int n_blocks_x = g.interleaved ? comp->h_samp : 1;
                const int ac_ctx = ac_context + i;
                for (int iy = 0; iy < n_blocks_y; ++iy) {
                    for (int ix = 0; ix < n_blocks_x; ++ix) {
                        const int block_y = mcu_y * n_blocks_y + iy;
                        const int block_x = mcu_x * n_blocks_x + ix;
                        const int16_t *block =
                            block_or_null(frame, coeffs, c, block_y, block_x);
                        uint64_t mask = 0;
                        if (block == NULL) {
                            if (padding == CT_JPEG_PADDING_REPEAT_DC) {
                                *t++ = ct_jpeg_make_token(c, 0, 0);
                                *t++ = ct_jpeg_make_token(ac_ctx, 0, 0);
                                continue;
                            }
                            block = zero_block;
                        } else {
                            mask = block_mask(magnitude_masks, block, block_x,
                                              comp->width_in_blocks, 1,
                                              masks[i][iy]);
                        }
                        t = tokenize_sequential_block(
                            block, mask,
                            (int16_t)(block[0] - state->last_dc[i]), c,
                            ac_ctx, t);
                        state->last_dc[i] = block[0];
                    }
                }
            }
        }
        out->num_tokens = (size_t)(t - out->tokens);
    }
    return CT_OK;
}

/* DC scans of a progressive file: TokenizeProgressiveDC (Ah == 0) or one
 * correction bit per block (Ah > 0). Padding blocks are all-zero blocks. */
static int tokenize_dc_rows(const ct_jpeg_frame *frame,
                            const ct_jpeg_coeffs *coeffs,
                            const ct_jpeg_scan *scan, int row0, int row1,
                            ct_jpeg_tokenizer_state *state,
                            ct_jpeg_scan_tokens *out)
{
    const ct_jpeg_scan_geometry g = ct_jpeg_scan_geometry_of(frame, scan);
    const size_t blocks_per_row =
        (size_t)g.mcus_per_row * blocks_per_mcu(frame, scan, g.interleaved);
    const int Al = scan->Al;
    const int refine = scan->Ah > 0;
    for (int mcu_y = row0; mcu_y < row1; ++mcu_y) {
        if (refine) {
            uint8_t *refbits =
                reserve(out->refbits, &out->refbits_cap, out->num_refbits,
                        blocks_per_row, 1, mcu_y - row0, row1 - row0);
            if (refbits == NULL)
                return CT_ENOMEM;
            out->refbits = refbits;
        } else if (reserve_tokens(out, blocks_per_row, mcu_y - row0,
                                  row1 - row0) != CT_OK) {
            return CT_ENOMEM;
        }
        for (int mcu_x = 0; mcu_x < g.mcus_per_row; ++mcu_x) {
            for (int i = 0; i < scan->comps_in_scan; ++i) {
                const int c = scan->component_index[i];
                const ct_jpeg_component *comp = &frame->comp[c];
                const int n_blocks_y = g.interleaved ? comp->v_samp : 1;
                const int n_blocks_x = g.interleaved ? comp->h_samp : 1;
                for (int iy = 0; iy < n_blocks_y; ++iy) {
                    for (int ix = 0; ix < n_blocks_x; ++ix) {
                        const int16_t *block = block_or_null(
                            frame, coeffs, c, mcu_y * n_blocks_y + iy,
                            mcu_x * n_blocks_x + ix);
                        const int dc = block == NULL ? 0 : block[0] >> Al;
                        if (refine) {
                            out->refbits[out->num_refbits++] =
                                (uint8_t)(dc & 1);
                        } else {
                            out->tokens[out->num_tokens++] = ct_jpeg_dc_token(
                                c, (int16_t)(dc - state->last_dc[i]));
                            state->last_dc[i] = dc;
                        }
                    }
                }
            }
        }
    }
    return CT_OK;
}

/* TokenizeACProgressiveScan: the first scan of a spectral band, with EOB
 * runs across blocks. */
static int tokenize_ac_first_rows(const ct_jpeg_frame *frame,
                                  const ct_jpeg_coeffs *coeffs,
                                  const ct_jpeg_scan *scan, int context,
                                  int row0, int row1,
                                  ct_jpeg_tokenizer_state *state,
                                  ct_jpeg_scan_tokens *out)
{
    const int c = scan->component_index[0];
    const ct_jpeg_component *comp = &frame->comp[c];
    const int Ss = scan->Ss, Se = scan->Se, Al = scan->Al;
    /* A coefficient is coded in this scan iff |v| >> Al != 0. */
    const int threshold = 1 << Al;
    const uint64_t band = band_mask(Ss, Se);
    /* Each coefficient is in at most one token, plus one EOB run token
     * carried over from the previous row. */
    const size_t max_tokens_per_row =
        1 + (size_t)comp->width_in_blocks * (size_t)(Se - Ss + 1);
    const ct_jpeg_magnitude_masks_fn magnitude_masks =
        state->dsp.magnitude_masks;
    uint64_t masks[MASK_RUN];
    for (int by = row0; by < row1; ++by) {
        if (reserve_tokens(out, max_tokens_per_row, by - row0, row1 - row0) !=
            CT_OK)
            return CT_ENOMEM;
        ct_jpeg_token *t = out->tokens + out->num_tokens;
        const int16_t *block = ct_jpeg_block(coeffs, frame, c, by, 0);
        for (int bx = 0; bx < comp->width_in_blocks;
             ++bx, block += CT_DCTSIZE2) {
            uint64_t mask = block_mask(magnitude_masks, block, bx,
                                       comp->width_in_blocks, threshold,
                                       masks) &
                            band;
            int prev = Ss - 1;
            while (mask) {
                const int k = count_trailing_zeros64(mask);
                mask &= mask - 1;
                if (state->eob_run > 0) {
                    *t++ = ct_jpeg_eob_run_token(context, state->eob_run);
                    state->eob_run = 0;
                }
                int r = k - prev - 1;
                while (r > 15) {
                    *t++ = ct_jpeg_make_token(context, 0xf0, 0);
                    r -= 16;
                }
                const int v = block[k];
                const int magnitude = (v < 0 ? -v : v) >> Al;
                const int nbits = ct_jpeg_floor_log2((uint32_t)magnitude) + 1;
                const int bits =
                    (v < 0 ? ~magnitude : magnitude) & ((1 << nbits) - 1);
                *t++ = ct_jpeg_make_token(context, (r << 4) + nbits, bits);
                prev = k;
            }
            if (prev < Se) {
                ++state->eob_run;
                if (state->eob_run == CT_JPEG_MAX_EOB_RUN) {
                    *t++ = ct_jpeg_eob_run_token(context, state->eob_run);
                    state->eob_run = 0;
                }
            }
        }
        out->num_tokens = (size_t)(t - out->tokens);
    }
    return CT_OK;
}

/*
 * TokenizeACRefinementScan. The open EOB run lives in the last ref token
 * (state->eob_token) and is rewritten as the run grows; blocks that end in
 * it drop their ZRL tokens and hand their correction bits to it.
 */
static int tokenize_ac_refinement_rows(const ct_jpeg_frame *frame,
                                       const ct_jpeg_coeffs *coeffs,
                                       const ct_jpeg_scan *scan, int row0,
                                       int row1,
                                       ct_jpeg_tokenizer_state *state,
                                       ct_jpeg_scan_tokens *out)
{
    const int c = scan->component_index[0];
    const ct_jpeg_component *comp = &frame->comp[c];
    const int Ss = scan->Ss, Se = scan->Se, Al = scan->Al;
    const int threshold = 1 << Al;
    const uint64_t band = band_mask(Ss, Se);
    const size_t width = (size_t)comp->width_in_blocks;
    const size_t band_size = (size_t)(Se - Ss + 1);
    const int rows = row1 - row0;
    const ct_jpeg_magnitude_masks_fn magnitude_masks =
        state->dsp.magnitude_masks;
    uint64_t masks[MASK_RUN];
    for (int by = row0; by < row1; ++by) {
        /* Per block at most one token per coefficient, one ZRL per 16 of
         * them and an EOB; one correction bit per coefficient; one EOB run
         * offset. */
        ct_jpeg_ref_token *tokens =
            reserve(out->ref_tokens, &out->ref_tokens_cap, out->num_ref_tokens,
                    width * (band_size + band_size / 16 + 1), sizeof(*tokens),
                    by - row0, rows);
        if (tokens == NULL)
            return CT_ENOMEM;
        out->ref_tokens = tokens;
        uint8_t *refbits = reserve(out->refbits, &out->refbits_cap,
                                   out->num_refbits, width * band_size, 1,
                                   by - row0, rows);
        if (refbits == NULL)
            return CT_ENOMEM;
        out->refbits = refbits;
        uint16_t *eobruns =
            reserve(out->eobruns, &out->eobruns_cap, out->num_eobruns, width,
                    sizeof(*eobruns), by - row0, rows);
        if (eobruns == NULL)
            return CT_ENOMEM;
        out->eobruns = eobruns;
        if (state->recording_lead) {
            uint8_t *lead = reserve(state->lead_refbits,
                                    &state->lead_refbits_cap,
                                    state->num_lead_blocks, width, 1,
                                    by - row0, rows);
            if (lead == NULL)
                return CT_ENOMEM;
            state->lead_refbits = lead;
        }
        size_t next_token = out->num_ref_tokens;
        uint8_t *next_ref_bit = out->refbits + out->num_refbits;
        uint16_t *next_eobrun = out->eobruns + out->num_eobruns;
        const int16_t *block = ct_jpeg_block(coeffs, frame, c, by, 0);
        for (size_t bx = 0; bx < width; ++bx, block += CT_DCTSIZE2) {
            int num_eob_refinement_bits = 0;
            int num_refinement_bits = 0;
            /* Zero-history coefficients since the last token; coefficients
             * that were nonzero before do not count. */
            int r = 0;
            uint64_t mask = block_mask(magnitude_masks, block, (int)bx,
                                       (int)width, threshold, masks) &
                            band;
            int prev = Ss - 1;
            while (mask) {
                const int k = count_trailing_zeros64(mask);
                mask &= mask - 1;
                r += k - prev - 1;
                prev = k;
                const int v = block[k];
                const int absval = (v < 0 ? -v : v) >> Al;
                while (r > 15) {
                    tokens[next_token].symbol = 0xf0;
                    tokens[next_token].refbits = (uint8_t)num_refinement_bits;
                    ++next_token;
                    r -= 16;
                    num_eob_refinement_bits += num_refinement_bits;
                    num_refinement_bits = 0;
                }
                if (absval > 1) {
                    *next_ref_bit++ = (uint8_t)(absval & 1);
                    ++num_refinement_bits;
                    continue;
                }
                tokens[next_token].symbol =
                    (uint8_t)((r << 4) + 1 + (v < 0 ? 0 : 2));
                tokens[next_token].refbits = (uint8_t)num_refinement_bits;
                ++next_token;
                num_refinement_bits = 0;
                num_eob_refinement_bits = 0;
                r = 0;
                state->eob_token = next_token;
                state->eob_run = state->eob_refbits = 0;
                state->recording_lead = 0;
            }
            r += Se - prev;
            if (r > 0 || num_eob_refinement_bits + num_refinement_bits > 0) {
                const int block_refbits =
                    num_eob_refinement_bits + num_refinement_bits;
                if (state->recording_lead)
                    state->lead_refbits[state->num_lead_blocks++] =
                        (uint8_t)block_refbits;
                ++state->eob_run;
                state->eob_refbits += block_refbits;
                if (state->eob_refbits > CT_JPEG_MAX_EOB_REFBITS) {
                    ++state->eob_token;
                    state->eob_refbits = block_refbits;
                    state->eob_run = 1;
                }
                next_token = state->eob_token;
                ct_jpeg_ref_token *eob = &tokens[next_token];
                eob->refbits = (uint8_t)state->eob_refbits;
                if (state->eob_run == 1) {
                    eob->symbol = 0;
                } else if (state->eob_run == 2) {
                    eob->symbol = 16;
                    *next_eobrun++ = 0;
                } else if ((state->eob_run & (state->eob_run - 1)) == 0) {
                    eob->symbol += 16;
                    next_eobrun[-1] = 0;
                } else {
                    ++next_eobrun[-1];
                }
                ++next_token;
                if (state->eob_run == CT_JPEG_MAX_EOB_RUN) {
                    state->eob_token = next_token;
                    state->eob_run = state->eob_refbits = 0;
                }
            }
        }
        out->num_ref_tokens = next_token;
        out->num_refbits = (size_t)(next_ref_bit - out->refbits);
        out->num_eobruns = (size_t)(next_eobrun - out->eobruns);
    }
    return CT_OK;
}

int ct_jpeg_tokenize_rows(const ct_jpeg_frame *frame,
                          const ct_jpeg_coeffs *coeffs, int scan_index,
                          int ac_context, ct_jpeg_padding padding,
                          int mcu_row0, int mcu_row1,
                          ct_jpeg_tokenizer_state *state,
                          ct_jpeg_scan_tokens *out)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    if (scan->Ss > 0) {
        if (scan->Ah == 0)
            return tokenize_ac_first_rows(frame, coeffs, scan, ac_context,
                                          mcu_row0, mcu_row1, state, out);
        return tokenize_ac_refinement_rows(frame, coeffs, scan, mcu_row0,
                                           mcu_row1, state, out);
    }
    if (!frame->progressive)
        return tokenize_sequential_rows(frame, coeffs, scan, ac_context,
                                        padding, mcu_row0, mcu_row1, state,
                                        out);
    return tokenize_dc_rows(frame, coeffs, scan, mcu_row0, mcu_row1, state,
                            out);
}

/* The end of a scan: the EOB run still open after its last block. */
static int tokenize_finish(const ct_jpeg_frame *frame, int scan_index,
                           int ac_context, ct_jpeg_tokenizer_state *state,
                           ct_jpeg_scan_tokens *out)
{
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    if (scan->Ss > 0 && scan->Ah == 0 && state->eob_run > 0) {
        if (reserve_tokens(out, 1, 1, 1) != CT_OK)
            return CT_ENOMEM;
        out->tokens[out->num_tokens++] =
            ct_jpeg_eob_run_token(ac_context, state->eob_run);
        state->eob_run = 0;
    }
    return CT_OK;
}

int ct_jpeg_tokenize_scan(const ct_jpeg_frame *frame,
                          const ct_jpeg_coeffs *coeffs, int scan_index,
                          int ac_context, ct_jpeg_padding padding,
                          ct_jpeg_scan_tokens *out)
{
    ct_jpeg_tokenizer_state state;
    ct_jpeg_tokenizer_state_init(&state, frame);
    const ct_jpeg_scan_geometry g =
        ct_jpeg_scan_geometry_of(frame, &frame->scans[scan_index]);
    int rc = ct_jpeg_tokenize_rows(frame, coeffs, scan_index, ac_context,
                                   padding, 0, g.mcu_rows, &state, out);
    if (rc != CT_OK)
        return rc;
    return tokenize_finish(frame, scan_index, ac_context, &state, out);
}
