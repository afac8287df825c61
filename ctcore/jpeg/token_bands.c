/*
 * Token bands: tokenizing a scan band by band and stitching the bands into
 * the sequential tokens (see token_bands.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct. The rules the stitch replays are those of jpegli's
 * TokenizeACProgressiveScan and TokenizeACRefinementScan
 * (lib/jpegli/entropy_coding.cc, BSD-3-Clause, Copyright the JPEG XL
 * Project Authors), as tokenize.c ports them.
 */
#include <stdlib.h>
#include <string.h>

#include "token_bands.h"

typedef enum scan_kind {
    DC_TOKENS,     /* sequential scans and DC first scans */
    DC_REFINEMENT, /* one correction bit per block, no state */
    AC_FIRST,
    AC_REFINEMENT,
} scan_kind;

static scan_kind kind_of(const ct_jpeg_scan *scan)
{
    if (scan->Ss == 0)
        return scan->Ah == 0 ? DC_TOKENS : DC_REFINEMENT;
    return scan->Ah == 0 ? AC_FIRST : AC_REFINEMENT;
}

/* Most correction bits one block of an AC refinement scan has (Ss >= 1),
 * so a token closed because the next block would take it over
 * CT_JPEG_MAX_EOB_REFBITS holds at least MIN_OVERFLOWED_REFBITS. */
#define MAX_BLOCK_REFBITS (CT_DCTSIZE2 - 1)
#define MIN_OVERFLOWED_REFBITS \
    (CT_JPEG_MAX_EOB_REFBITS + 1 - MAX_BLOCK_REFBITS)

static void add_hist_row(ct_jpeg_scan_bands *sb, int context)
{
    sb->row_of_context[context] = (int8_t)sb->num_hist_rows;
    sb->hist_row[sb->num_hist_rows++] =
        ct_jpeg_histogram_row(context, sb->ac_context);
}

int ct_jpeg_scan_bands_init(ct_jpeg_scan_bands *sb,
                            const ct_jpeg_frame *frame, int scan_index,
                            int ac_context, ct_jpeg_padding padding,
                            int num_bands, const int *cuts)
{
    memset(sb, 0, sizeof(*sb));
    sb->bands = calloc((size_t)num_bands, sizeof(*sb->bands));
    if (sb->bands == NULL)
        return CT_ENOMEM;
    sb->scan_index = scan_index;
    sb->ac_context = ac_context;
    sb->padding = padding;
    sb->num_bands = num_bands;
    for (int b = 0; b < num_bands; ++b) {
        sb->bands[b].row0 = cuts[b];
        sb->bands[b].row1 = cuts[b + 1];
    }
    memset(sb->row_of_context, -1, sizeof(sb->row_of_context));
    const ct_jpeg_scan *scan = &frame->scans[scan_index];
    switch (kind_of(scan)) {
    case DC_TOKENS:
        for (int i = 0; i < scan->comps_in_scan; ++i)
            add_hist_row(sb, scan->component_index[i]);
        if (scan->Se > 0)
            for (int i = 0; i < scan->comps_in_scan; ++i)
                add_hist_row(sb, ac_context + i);
        break;
    case AC_FIRST:
    case AC_REFINEMENT:
        add_hist_row(sb, ac_context);
        break;
    case DC_REFINEMENT:
        break;
    }
    return CT_OK;
}

void ct_jpeg_scan_bands_free(ct_jpeg_scan_bands *sb)
{
    for (int b = 0; b < sb->num_bands; ++b) {
        ct_jpeg_token_band *band = &sb->bands[b];
        ct_jpeg_scan_tokens_free(&band->tokens);
        ct_jpeg_scan_tokens_free(&band->joint);
        free(band->counts);
        free(band->lead_refbits);
    }
    free(sb->bands);
    ct_jpeg_scan_tokens_free(&sb->final_joint);
    memset(sb, 0, sizeof(*sb));
}

/* ------------------------------------------------------------------ */
/* Tokenize                                                            */

/* The first DC token of each component is the only one the predictor
 * carried in changes: every MCU row starts with a real block of every
 * component of the scan (padding blocks lie right and below), so the
 * band's end state does not depend on its start. */
static void describe_dc_band(const ct_jpeg_frame *frame,
                             const ct_jpeg_coeffs *coeffs,
                             const ct_jpeg_scan *scan,
                             const ct_jpeg_tokenizer_state *state,
                             ct_jpeg_token_band *band)
{
    const ct_jpeg_token *tokens = band->tokens.tokens;
    const int interleaved = scan->comps_in_scan > 1;
    for (int i = 0; i < scan->comps_in_scan; ++i) {
        const int c = scan->component_index[i];
        /* DC contexts are component indexes, apart from the AC ones. */
        size_t t = 0;
        while (tokens[t].context != c)
            ++t;
        band->first_dc_token[i] = t;
        const int by = band->row0 * (interleaved ? frame->comp[c].v_samp : 1);
        const int dc = ct_jpeg_block(coeffs, frame, c, by, 0)[0];
        band->first_dc[i] = frame->progressive ? dc >> scan->Al : dc;
        band->last_dc[i] = state->last_dc[i];
    }
    band->body = band->tokens; /* a view: the arrays stay the band's */
}

static int is_eob_run_symbol(int symbol)
{
    return (symbol & 15) == 0 && symbol != 0xf0;
}

/* The lead's tokens are the EOB runs before the first other token. */
static void describe_ac_first_band(const ct_jpeg_tokenizer_state *state,
                                   ct_jpeg_token_band *band)
{
    const ct_jpeg_token *tokens = band->tokens.tokens;
    const size_t n = band->tokens.num_tokens;
    size_t lead = 0;
    size_t lead_blocks = 0;
    while (lead < n && is_eob_run_symbol(tokens[lead].symbol)) {
        lead_blocks += ((size_t)1 << (tokens[lead].symbol >> 4)) +
                       tokens[lead].bits;
        ++lead;
    }
    band->has_body = lead < n;
    band->lead_blocks = lead_blocks + (band->has_body ? 0 : state->eob_run);
    band->tail_run = band->has_body ? state->eob_run : 0;
    memset(&band->body, 0, sizeof(band->body));
    band->body.tokens = band->tokens.tokens + lead;
    band->body.num_tokens = n - lead;
}

/* The lead's tokens are the EOB tokens before the first newly nonzero
 * coefficient or ZRL; the tail is the open EOB token at the end, the last
 * token, with the last EOB run offset when its run is 2 or more. */
static void describe_refinement_band(const ct_jpeg_tokenizer_state *state,
                                     ct_jpeg_token_band *band)
{
    const ct_jpeg_scan_tokens *all = &band->tokens;
    const ct_jpeg_ref_token *tokens = all->ref_tokens;
    const size_t n = all->num_ref_tokens;
    size_t lead = 0, lead_eobruns = 0, lead_bits = 0;
    while (lead < n && (tokens[lead].symbol & 1) == 0 &&
           tokens[lead].symbol != 0xf0) {
        lead_eobruns += tokens[lead].symbol >= 16;
        lead_bits += tokens[lead].refbits;
        ++lead;
    }
    band->has_body = lead < n;
    band->lead_blocks = state->num_lead_blocks;
    band->tail_run = band->has_body ? state->eob_run : 0;
    band->tail_refbits = band->has_body ? state->eob_refbits : 0;
    memset(&band->body, 0, sizeof(band->body));
    band->body.ref_tokens = all->ref_tokens + lead;
    band->body.num_ref_tokens = n - lead - (band->tail_run > 0);
    band->body.eobruns = all->eobruns + lead_eobruns;
    band->body.num_eobruns =
        all->num_eobruns - lead_eobruns - (band->tail_run >= 2);
    band->body.refbits = all->refbits + lead_bits;
    band->body.num_refbits =
        all->num_refbits - lead_bits - (size_t)band->tail_refbits;
}

/* Adds the symbols of part to the band's counts. */
static void count_part(const ct_jpeg_scan_bands *sb, scan_kind kind,
                       const ct_jpeg_scan_tokens *part,
                       ct_jpeg_band_counts *counts)
{
    if (kind == AC_REFINEMENT) {
        /* The sign of a newly nonzero coefficient (bit 1) is an extra
         * bit, not part of the symbol. */
        for (size_t i = 0; i < part->num_ref_tokens; ++i)
            ++counts[0][part->ref_tokens[i].symbol & 253];
    } else {
        for (size_t i = 0; i < part->num_tokens; ++i) {
            const ct_jpeg_token t = part->tokens[i];
            ++counts[sb->row_of_context[t.context]][t.symbol];
        }
    }
}

int ct_jpeg_tokenize_band(const ct_jpeg_frame *frame,
                          const ct_jpeg_coeffs *coeffs,
                          ct_jpeg_scan_bands *sb, int band_index)
{
    ct_jpeg_token_band *band = &sb->bands[band_index];
    const ct_jpeg_scan *scan = &frame->scans[sb->scan_index];
    const scan_kind kind = kind_of(scan);
    ct_jpeg_tokenizer_state state;
    ct_jpeg_tokenizer_state_init(&state, frame);
    state.recording_lead = kind == AC_REFINEMENT;
    const int rc = ct_jpeg_tokenize_rows(frame, coeffs, sb->scan_index,
                                         sb->ac_context, sb->padding,
                                         band->row0, band->row1, &state,
                                         &band->tokens);
    band->lead_refbits = state.lead_refbits;
    if (rc != CT_OK)
        return rc;
    switch (kind) {
    case DC_TOKENS:
        describe_dc_band(frame, coeffs, scan, &state, band);
        break;
    case AC_FIRST:
        describe_ac_first_band(&state, band);
        break;
    case AC_REFINEMENT:
        describe_refinement_band(&state, band);
        break;
    case DC_REFINEMENT:
        band->body = band->tokens; /* a view, as above */
        break;
    }
    if (sb->num_hist_rows > 0) {
        band->counts =
            calloc((size_t)sb->num_hist_rows, sizeof(*band->counts));
        if (band->counts == NULL)
            return CT_ENOMEM;
        count_part(sb, kind, &band->body, band->counts);
    }
    return CT_OK;
}

/* ------------------------------------------------------------------ */
/* Stitch                                                              */

/* Recodes each band's first DC tokens against the band before. */
static void stitch_dc(const ct_jpeg_scan *scan, ct_jpeg_scan_bands *sb)
{
    for (int b = 1; b < sb->num_bands; ++b) {
        ct_jpeg_token_band *band = &sb->bands[b];
        const ct_jpeg_token_band *before = &sb->bands[b - 1];
        for (int i = 0; i < scan->comps_in_scan; ++i) {
            const int c = scan->component_index[i];
            ct_jpeg_token *t = &band->tokens.tokens[band->first_dc_token[i]];
            const ct_jpeg_token recoded = ct_jpeg_dc_token(
                c, (int16_t)(band->first_dc[i] - before->last_dc[i]));
            uint32_t *row = band->counts[sb->row_of_context[c]];
            --row[t->symbol];
            ++row[recoded.symbol];
            *t = recoded;
        }
    }
}

static int alloc_joint_tokens(ct_jpeg_scan_tokens *joint, size_t n)
{
    if (n == 0)
        return CT_OK;
    joint->tokens = malloc(n * sizeof(*joint->tokens));
    joint->tokens_cap = n;
    return joint->tokens != NULL ? CT_OK : CT_ENOMEM;
}

/*
 * First scans: the run carried in and the band's lead make one run, which
 * jpegli ends every CT_JPEG_MAX_EOB_RUN blocks and, when the band has a
 * body, before its first coefficient.
 */
static int stitch_ac_first(ct_jpeg_scan_bands *sb)
{
    const int context = sb->ac_context;
    size_t run = 0; /* open at the border, below CT_JPEG_MAX_EOB_RUN */
    for (int b = 0; b < sb->num_bands; ++b) {
        ct_jpeg_token_band *band = &sb->bands[b];
        const size_t total = run + band->lead_blocks;
        const size_t full_runs = total / CT_JPEG_MAX_EOB_RUN;
        run = total % CT_JPEG_MAX_EOB_RUN;
        const int closes_run = band->has_body && run > 0;
        ct_jpeg_scan_tokens *joint = &band->joint;
        if (alloc_joint_tokens(joint, full_runs + (size_t)closes_run) != CT_OK)
            return CT_ENOMEM;
        for (size_t i = 0; i < full_runs; ++i)
            joint->tokens[joint->num_tokens++] =
                ct_jpeg_eob_run_token(context, CT_JPEG_MAX_EOB_RUN);
        if (closes_run)
            joint->tokens[joint->num_tokens++] =
                ct_jpeg_eob_run_token(context, (int)run);
        if (band->has_body)
            run = (size_t)band->tail_run;
        count_part(sb, AC_FIRST, joint, band->counts);
    }
    if (run > 0) {
        ct_jpeg_scan_tokens *joint = &sb->final_joint;
        if (alloc_joint_tokens(joint, 1) != CT_OK)
            return CT_ENOMEM;
        joint->tokens[joint->num_tokens++] =
            ct_jpeg_eob_run_token(context, (int)run);
        count_part(sb, AC_FIRST, joint, sb->bands[sb->num_bands - 1].counts);
    }
    return CT_OK;
}

/* The open EOB run of a refinement scan at a band border, with the
 * correction bits its token will write (at most CT_JPEG_MAX_EOB_REFBITS). */
typedef struct open_run {
    int run;
    int num_refbits;
    uint8_t refbits[CT_JPEG_MAX_EOB_REFBITS];
} open_run;

/* Room for max_tokens EOB tokens and their offsets, and num_refbits
 * correction bits. */
static int alloc_refinement_joint(ct_jpeg_scan_tokens *joint,
                                  size_t max_tokens, size_t num_refbits)
{
    joint->ref_tokens = malloc(max_tokens * sizeof(*joint->ref_tokens));
    joint->eobruns = malloc(max_tokens * sizeof(*joint->eobruns));
    joint->refbits = malloc(num_refbits > 0 ? num_refbits : 1);
    joint->ref_tokens_cap = joint->eobruns_cap = max_tokens;
    joint->refbits_cap = num_refbits;
    return joint->ref_tokens != NULL && joint->eobruns != NULL &&
                   joint->refbits != NULL
               ? CT_OK
               : CT_ENOMEM;
}

/* Writes the open run as one EOB token (as the tokenizer leaves it) and
 * its correction bits into joint, and empties it. */
static void close_run(open_run *open, ct_jpeg_scan_tokens *joint)
{
    const int log2 = ct_jpeg_floor_log2((uint32_t)open->run);
    ct_jpeg_ref_token *t = &joint->ref_tokens[joint->num_ref_tokens++];
    t->symbol = (uint8_t)(log2 << 4);
    t->refbits = (uint8_t)open->num_refbits;
    if (open->run >= 2)
        joint->eobruns[joint->num_eobruns++] =
            (uint16_t)(open->run - (1 << log2));
    memcpy(joint->refbits + joint->num_refbits, open->refbits,
           (size_t)open->num_refbits);
    joint->num_refbits += (size_t)open->num_refbits;
    open->run = open->num_refbits = 0;
}

/*
 * Refinement scans: the band's lead joins the run carried in block by
 * block, as in the tokenizer: a block whose correction bits would take the
 * open token over CT_JPEG_MAX_EOB_REFBITS starts a new token, a run of
 * CT_JPEG_MAX_EOB_RUN blocks ends, and a body's first newly nonzero
 * coefficient ends the run.
 */
static int stitch_refinement(ct_jpeg_scan_bands *sb)
{
    open_run open;
    open.run = open.num_refbits = 0;
    for (int b = 0; b < sb->num_bands; ++b) {
        ct_jpeg_token_band *band = &sb->bands[b];
        /* The lead's correction bits come first in the band's. */
        const uint8_t *lead_bits = band->tokens.refbits;
        const size_t num_lead_bits =
            band->has_body ? (size_t)(band->body.refbits - lead_bits)
                           : band->tokens.num_refbits;
        const size_t max_tokens =
            (open.num_refbits + num_lead_bits) / MIN_OVERFLOWED_REFBITS +
            (open.run + band->lead_blocks) / CT_JPEG_MAX_EOB_RUN + 1;
        ct_jpeg_scan_tokens *joint = &band->joint;
        if (alloc_refinement_joint(joint, max_tokens,
                                   open.num_refbits + num_lead_bits) != CT_OK)
            return CT_ENOMEM;
        for (size_t i = 0; i < band->lead_blocks; ++i) {
            const int block_refbits = band->lead_refbits[i];
            if (open.num_refbits + block_refbits > CT_JPEG_MAX_EOB_REFBITS)
                close_run(&open, joint);
            memcpy(open.refbits + open.num_refbits, lead_bits,
                   (size_t)block_refbits);
            lead_bits += block_refbits;
            open.num_refbits += block_refbits;
            if (++open.run == CT_JPEG_MAX_EOB_RUN)
                close_run(&open, joint);
        }
        if (band->has_body) {
            if (open.run > 0)
                close_run(&open, joint);
            /* The tail's correction bits follow the body's. */
            open.run = band->tail_run;
            open.num_refbits = band->tail_refbits;
            memcpy(open.refbits,
                   band->body.refbits + band->body.num_refbits,
                   (size_t)band->tail_refbits);
        }
        count_part(sb, AC_REFINEMENT, joint, band->counts);
    }
    if (open.run > 0) {
        ct_jpeg_scan_tokens *joint = &sb->final_joint;
        if (alloc_refinement_joint(joint, 1, (size_t)open.num_refbits) !=
            CT_OK)
            return CT_ENOMEM;
        close_run(&open, joint);
        count_part(sb, AC_REFINEMENT, joint,
                   sb->bands[sb->num_bands - 1].counts);
    }
    return CT_OK;
}

int ct_jpeg_stitch_scan(const ct_jpeg_frame *frame, ct_jpeg_scan_bands *sb,
                        ct_jpeg_scan_histogram *hist)
{
    const ct_jpeg_scan *scan = &frame->scans[sb->scan_index];
    int rc = CT_OK;
    switch (kind_of(scan)) {
    case DC_TOKENS:
        stitch_dc(scan, sb);
        break;
    case AC_FIRST:
        rc = stitch_ac_first(sb);
        break;
    case AC_REFINEMENT:
        rc = stitch_refinement(sb);
        break;
    case DC_REFINEMENT:
        break;
    }
    if (rc != CT_OK)
        return rc;
    memset(hist, 0, sizeof(*hist));
    for (int b = 0; b < sb->num_bands; ++b) {
        for (int r = 0; r < sb->num_hist_rows; ++r) {
            uint32_t *dst = hist->count[sb->hist_row[r]];
            const uint32_t *src = sb->bands[b].counts[r];
            for (int s = 0; s < CT_JPEG_HUFFMAN_ALPHABET; ++s)
                dst[s] += src[s];
        }
    }
    return CT_OK;
}

int ct_jpeg_band_parts(const ct_jpeg_scan_bands *sb, int band,
                       const ct_jpeg_scan_tokens *parts[3])
{
    int n = 0;
    parts[n++] = &sb->bands[band].joint;
    parts[n++] = &sb->bands[band].body;
    if (band == sb->num_bands - 1)
        parts[n++] = &sb->final_joint;
    return n;
}
