/*
 * Huffman bit counting and table selection: quantization of xr^3/4 to
 * integers (the IEEE 754 float trick of TAKEHIRO_IEEE754_HACK builds), the
 * bits of the big values, count1 and scalefactors, the region division
 * (best_huffman_divide), the scalefactor storage (best_scalefac_store,
 * scfsi) and scale_bitcount for MPEG-1 and MPEG-2 LSF.
 *
 * All functions work on one granule (best_scalefac_store also reads the
 * frame's first granule for scfsi); none reads the bit reservoir.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/takehiro.c (LGPL-2.0-or-later, the LAME
 * project).
 */
#include <string.h>

#include "quantize.h"
#include "tables.h"

static const struct {
    int region0_count;
    int region1_count;
} subdv_table[23] = {
    {0, 0}, /* 0 bands */
    {0, 0}, /* 1 bands */
    {0, 0}, /* 2 bands */
    {0, 0}, /* 3 bands */
    {0, 0}, /* 4 bands */
    {0, 1}, /* 5 bands */
    {1, 1}, /* 6 bands */
    {1, 1}, /* 7 bands */
    {1, 2}, /* 8 bands */
    {2, 2}, /* 9 bands */
    {2, 3}, /* 10 bands */
    {2, 3}, /* 11 bands */
    {3, 4}, /* 12 bands */
    {3, 4}, /* 13 bands */
    {3, 4}, /* 14 bands */
    {4, 5}, /* 15 bands */
    {4, 5}, /* 16 bands */
    {4, 6}, /* 17 bands */
    {5, 6}, /* 18 bands */
    {5, 6}, /* 19 bands */
    {5, 7}, /* 20 bands */
    {6, 7}, /* 21 bands */
    {6, 7}, /* 22 bands */
};

/* Lines whose previous quantization was at most 1 (above count1): only
 * decide between 0 and 1. */
static void quantize_lines_xrpow_01(unsigned int l, float istep,
                                    const float *xr, int *ix)
{
    const float compareval0 = (1.0f - 0.4054f) / istep;
    unsigned int i;

    for (i = 0; i < l; i += 2) {
        float const xr_0 = xr[i + 0];
        float const xr_1 = xr[i + 1];
        int const ix_0 = (compareval0 > xr_0) ? 0 : 1;
        int const ix_1 = (compareval0 > xr_1) ? 0 : 1;
        ix[i + 0] = ix_0;
        ix[i + 1] = ix_1;
    }
}

/* Lines in pairs (LAME: 4 and then 2 at a time; an odd last line is left
 * as it is); each line's value depends on that line alone (quantize_dsp.h:
 * quantize_x34, LAME's TAKEHIRO_IEEE754_HACK quantization). */
static void quantize_lines_xrpow(const ct_mp3_state *gfc, unsigned int l, float istep,
                                 const float *xp, int *pi)
{
    l = (l >> 1) << 1;
    gfc->dsp.quantize.quantize_x34(gfc->qtab.adj43asm, istep, xp, pi, l);
}

/* Quantization of xr^3/4 with step istep, band by band; bands whose step
 * did not change since prev_noise keep their values. */
static void quantize_xrpow(const ct_mp3_state *gfc, const float *xp, int *pi,
                           float istep, const ct_mp3_gr_info *cod_info,
                           const ct_mp3_noise_data *prev_noise)
{
    int sfb;
    int sfbmax;
    int j = 0;
    int prev_data_use;
    int *iData;
    int accumulate = 0;
    int accumulate01 = 0;
    int *acc_iData;
    const float *acc_xp;

    iData = pi;
    acc_xp = xp;
    acc_iData = iData;

    prev_data_use = (prev_noise && (cod_info->global_gain == prev_noise->global_gain));

    if (cod_info->block_type == SHORT_TYPE)
        sfbmax = 38;
    else
        sfbmax = 21;

    for (sfb = 0; sfb <= sfbmax; sfb++) {
        int step = -1;

        if (prev_data_use || cod_info->block_type == NORM_TYPE) {
            step = cod_info->global_gain
                - ((cod_info->scalefac[sfb] + (cod_info->preflag ? ct_mp3_pretab[sfb] : 0))
                   << (cod_info->scalefac_scale + 1))
                - cod_info->subblock_gain[cod_info->window[sfb]] * 8;
        }
        if (prev_data_use && (prev_noise->step[sfb] == step)) {
            /* do not recompute this part, but compute accumulated lines */
            if (accumulate) {
                quantize_lines_xrpow(gfc, accumulate, istep, acc_xp, acc_iData);
                accumulate = 0;
            }
            if (accumulate01) {
                quantize_lines_xrpow_01(accumulate01, istep, acc_xp, acc_iData);
                accumulate01 = 0;
            }
        } else {
            int l;
            l = cod_info->width[sfb];

            if ((j + cod_info->width[sfb]) > cod_info->max_nonzero_coeff) {
                /* do not compute upper zero part */
                int usefullsize;
                usefullsize = cod_info->max_nonzero_coeff - j + 1;
                memset(&pi[cod_info->max_nonzero_coeff], 0,
                       sizeof(int) * (576 - cod_info->max_nonzero_coeff));
                l = usefullsize;

                if (l < 0)
                    l = 0;

                /* no need to compute higher sfb values */
                sfb = sfbmax + 1;
            }

            /* accumulate lines to quantize */
            if (!accumulate && !accumulate01) {
                acc_iData = iData;
                acc_xp = xp;
            }
            if (prev_noise && prev_noise->sfb_count1 > 0 && sfb >= prev_noise->sfb_count1
                && prev_noise->step[sfb] > 0 && step >= prev_noise->step[sfb]) {
                if (accumulate) {
                    quantize_lines_xrpow(gfc, accumulate, istep, acc_xp, acc_iData);
                    accumulate = 0;
                    acc_iData = iData;
                    acc_xp = xp;
                }
                accumulate01 += l;
            } else {
                if (accumulate01) {
                    quantize_lines_xrpow_01(accumulate01, istep, acc_xp, acc_iData);
                    accumulate01 = 0;
                    acc_iData = iData;
                    acc_xp = xp;
                }
                accumulate += l;
            }

            if (l <= 0) {
                /* may happen due to the "prev_data_use" optimization */
                if (accumulate01) {
                    quantize_lines_xrpow_01(accumulate01, istep, acc_xp, acc_iData);
                    accumulate01 = 0;
                }
                if (accumulate) {
                    quantize_lines_xrpow(gfc, accumulate, istep, acc_xp, acc_iData);
                    accumulate = 0;
                }
                break;
            }
        }
        if (sfb <= sfbmax) {
            iData += cod_info->width[sfb];
            xp += cod_info->width[sfb];
            j += cod_info->width[sfb];
        }
    }
    if (accumulate)
        quantize_lines_xrpow(gfc, accumulate, istep, acc_xp, acc_iData);
    if (accumulate01)
        quantize_lines_xrpow_01(accumulate01, istep, acc_xp, acc_iData);
}

/* Tables t1 and t2 with linbits: both counted at once (largetbl), each
 * escaped value adding both tables' linbits. */
static int count_bit_ESC(const ct_mp3_quantize_dsp *dsp, const int *ix, const int *const end,
                         int t1, const int t2, unsigned int *const s)
{
    unsigned int const linbits = ct_mp3_ht[t1].xlen * 65536u + ct_mp3_ht[t2].xlen;
    unsigned int nesc;
    unsigned int sum = dsp->pair_sum_esc(ct_mp3_largetbl, ix, (int) (end - ix), &nesc);
    unsigned int sum2;

    sum += nesc * linbits;
    sum2 = sum & 0xffffu;
    sum >>= 16u;

    if (sum > sum2) {
        sum = sum2;
        t1 = t2;
    }

    *s += sum;
    return t1;
}

static int count_bit_noESC(const int *ix, const int *end, unsigned int *s)
{
    unsigned int sum1 = 0;
    const uint8_t *const hlen1 = ct_mp3_ht[1].hlen;

    do {
        unsigned int const x0 = *ix++;
        unsigned int const x1 = *ix++;
        sum1 += hlen1[x0 + x0 + x1];
    } while (ix < end);

    *s += sum1;
    return 1;
}

static const int huf_tbl_noESC[] = {
    1, 2, 5, 7, 7, 10, 10, 13, 13, 13, 13, 13, 13, 13, 13
};

static int count_bit_noESC_from2(const ct_mp3_quantize_dsp *dsp, const int *ix,
                                 const int *end, unsigned int max, unsigned int *s)
{
    int t1 = huf_tbl_noESC[max - 1];
    const unsigned int xlen = ct_mp3_ht[t1].xlen;
    const uint32_t *table = (t1 == 2) ? &ct_mp3_table23[0] : &ct_mp3_table56[0];
    unsigned int sum = dsp->pair_sum32(table, xlen, ix, (int) (end - ix));
    unsigned int sum2;

    sum2 = sum & 0xffffu;
    sum >>= 16u;

    if (sum > sum2) {
        sum = sum2;
        t1++;
    }

    *s += sum;
    return t1;
}

/* Of the tables t1, t1 + 1, t1 + 2 with the bits sum1, sum2, sum3 (packed
 * at bits 0, 16, 32 of sum), the first with the fewest; its bits are added
 * to *s. */
static int choose_of_three(int t1, uint64_t sum, unsigned int *s)
{
    unsigned int sum1 = (unsigned int) (sum & 0xffffu);
    unsigned int const sum2 = (unsigned int) ((sum >> 16) & 0xffffu);
    unsigned int const sum3 = (unsigned int) (sum >> 32);
    int t = t1;

    if (sum1 > sum2) {
        sum1 = sum2;
        t++;
    }
    if (sum1 > sum3) {
        sum1 = sum3;
        t = t1 + 2;
    }
    *s += sum1;
    return t;
}

/* The three tables t1, t1 + 1, t1 + 2 at once: one lookup in the packed
 * lengths (qtab->hlen3, fields at bits 0, 16, 32) per pair; the sums are
 * LAME's sum1, sum2, sum3. */
static int count_bit_noESC_from3(const ct_mp3_quantize_dsp *dsp,
                                 const uint64_t (*hlen3)[16 * 16], const int *ix,
                                 const int *end, unsigned int max, unsigned int *s)
{
    int t1 = huf_tbl_noESC[max - 1];
    const unsigned int xlen = ct_mp3_ht[t1].xlen;

    return choose_of_three(t1, dsp->pair_sum64(hlen3[(t1 - 7) / 3], xlen, ix, (int) (end - ix)),
                           s);
}

/* choose_table_nonMMX: the Huffman table that codes ix[0..end) in the
 * fewest bits, which it adds to *_s; knows the sizes and characteristics of
 * the tables of ISO 11172-3 Table B.7. */
static int choose_table(const ct_mp3_state *gfc, const int *ix, const int *const end,
                        int *const _s)
{
    const uint64_t (*const hlen3)[16 * 16] = (const uint64_t (*)[16 * 16]) gfc->qtab.hlen3;
    unsigned int *s = (unsigned int *) _s;
    unsigned int max;
    int choice, choice2;
    /* ix_max (quantize_dsp.h) */
    max = (unsigned int) gfc->dsp.quantize.ix_max(ix, (int) (end - ix));

    if (max <= 15) {
        if (max == 0)
            return 0;
        if (max == 1)
            return count_bit_noESC(ix, end, s);
        if (max <= 3)
            return count_bit_noESC_from2(&gfc->dsp.quantize, ix, end, max, s);
        return count_bit_noESC_from3(&gfc->dsp.quantize, hlen3, ix, end, max, s);
    }
    /* try tables with linbits */
    if (max > IXMAX_VAL) {
        *s = LARGE_BITS;
        return -1;
    }
    max -= 15u;
    for (choice2 = 24; choice2 < 32; choice2++) {
        if (ct_mp3_ht[choice2].linmax >= max)
            break;
    }

    for (choice = choice2 - 8; choice < 24; choice++) {
        if (ct_mp3_ht[choice].linmax >= max)
            break;
    }
    return count_bit_ESC(&gfc->dsp.quantize, ix, end, choice, choice2, s);
}

int ct_mp3_noquant_count_bits(const ct_mp3_state *gfc, ct_mp3_gr_info *gi,
                              ct_mp3_noise_data *prev_noise)
{
    int bits = 0;
    int i, a1, a2;
    int const *const ix = gi->l3_enc;

    i = ((gi->max_nonzero_coeff + 2) >> 1) << 1;
    if (i > 576)
        i = 576;

    if (prev_noise)
        prev_noise->sfb_count1 = 0;

    /* Determine count1 region (quantize_dsp.h: zero_pairs_end) */
    i = gfc->dsp.quantize.zero_pairs_end(ix, i);
    gi->count1 = i;

    /* Determines the number of bits to encode the quadruples
     * (count1_quads). */
    a1 = a2 = 0;
    i = gfc->dsp.quantize.count1_quads(ix, i, ct_mp3_t32l, ct_mp3_t33l, &a1, &a2);

    bits = a1;
    gi->count1table_select = 0;
    if (a1 > a2) {
        bits = a2;
        gi->count1table_select = 1;
    }

    gi->count1bits = bits;
    gi->big_values = i;
    if (i == 0)
        return bits;

    if (gi->block_type == SHORT_TYPE) {
        a1 = 3 * gfc->scalefac_band.s[3];
        if (a1 > gi->big_values)
            a1 = gi->big_values;
        a2 = gi->big_values;
    } else if (gi->block_type == NORM_TYPE) {
        a1 = gi->region0_count = gfc->sv_qnt.bv_scf[i - 2];
        a2 = gi->region1_count = gfc->sv_qnt.bv_scf[i - 1];

        a2 = gfc->scalefac_band.l[a1 + a2 + 2];
        a1 = gfc->scalefac_band.l[a1 + 1];
        if (a2 < i)
            gi->table_select[2] = choose_table(gfc, ix + a2, ix + i, &bits);
    } else {
        gi->region0_count = 7;
        gi->region1_count = SBMAX_l - 1 - 7 - 1;
        a1 = gfc->scalefac_band.l[7 + 1];
        a2 = i;
        if (a1 > a2)
            a1 = a2;
    }

    /* have to allow for the case when bigvalues < region0 < region1
     * (and region0, region1 are ignored) */
    if (a1 > i)
        a1 = i;
    if (a2 > i)
        a2 = i;

    /* Count the number of bits necessary to code the bigvalues region. */
    if (0 < a1)
        gi->table_select[0] = choose_table(gfc, ix, ix + a1, &bits);
    if (a1 < a2)
        gi->table_select[1] = choose_table(gfc, ix + a1, ix + a2, &bits);

    if (prev_noise) {
        if (gi->block_type == NORM_TYPE) {
            int sfb = 0;
            while (gfc->scalefac_band.l[sfb] < gi->big_values)
                sfb++;
            prev_noise->sfb_count1 = sfb;
        }
    }

    return bits;
}

int ct_mp3_count_bits(const ct_mp3_state *gfc, const float *xr, ct_mp3_gr_info *gi,
                      ct_mp3_noise_data *prev_noise)
{
    const float *const ipow20 = gfc->qtab.ipow20;
    int *const ix = gi->l3_enc;

    /* since quantize_xrpow uses table lookup, we need to check this first: */
    float const w = (IXMAX_VAL) / ipow20[gi->global_gain];

    if (gi->xrpow_max > w)
        return LARGE_BITS;

    quantize_xrpow(gfc, xr, ix, ipow20[gi->global_gain], gi, prev_noise);

    if (gfc->sv_qnt.substep_shaping & 2) {
        int sfb, j = 0;
        /* 0.634521682242439 = 0.5946*2**(.5*0.1875) */
        int const gain = gi->global_gain + gi->scalefac_scale;
        const float roundfac = 0.634521682242439 / ipow20[gain];
        for (sfb = 0; sfb < gi->sfbmax; sfb++) {
            int const width = gi->width[sfb];
            if (!gfc->sv_qnt.pseudohalf[sfb]) {
                j += width;
            } else {
                int k;
                for (k = j, j += width; k < j; ++k)
                    ix[k] = (xr[k] >= roundfac) ? ix[k] : 0;
            }
        }
    }
    return ct_mp3_noquant_count_bits(gfc, gi, prev_noise);
}

/* ---- choose_table over runs of scalefactor bands ------------------------
 *
 * best_huffman_divide asks choose_table about a few hundred ranges of the
 * same lines, each a run of whole long block scalefactor bands (the last
 * one may end at big_values). choose_table's result depends only on the
 * largest value of the range and, for the tables that value selects, on
 * sums over the line pairs; those sums are sums of the same sums over the
 * bands (unsigned integer addition: the order does not matter). So each
 * band's largest value and its sum for a group of tables is computed once,
 * when first needed, and a range grown band by band keeps its largest
 * value and the sum for its group (recomputed from the bands when the
 * group changes): the same tables and bit counts as choose_table over the
 * lines. */

/* The table groups choose_table counts, by the range's largest value. */
enum {
    HG_T1,  /* max 1: table 1 */
    HG_T23, /* max 2: tables 2, 3 (table23) */
    HG_T56, /* max 3: tables 5, 6 (table56) */
    HG_T7,  /* max 4, 5: tables 7, 8, 9 (hlen3[0]) */
    HG_T10, /* max 6, 7: tables 10, 11, 12 (hlen3[1]) */
    HG_T13, /* max 8..15: tables 13, 14, 15 (hlen3[2]) */
    HG_ESC, /* max above 15: largetbl, and the count of escaped values */
    HG_N
};

typedef struct huff_seg {
    const int *ix, *end; /* its lines */
    int max;             /* largest value; -1 until known */
    unsigned int valid;  /* bit g: sum[g] is known */
    uint64_t sum[HG_N];
    unsigned int nesc;   /* values >= 15 (with sum[HG_ESC]) */
} huff_seg;

typedef struct huff_band_cache {
    const ct_mp3_quantize_dsp *dsp;
    const uint64_t (*hlen3)[16 * 16];
    const int *ix;
    const int *l;           /* scalefac_band.l */
    huff_seg band[SBMAX_l]; /* whole band k: lines l[k] .. l[k + 1] */
    huff_seg part;          /* lines l[part_band] .. part_end */
    int part_band, part_end;
} huff_band_cache;

/* A run of segments and what choose_table needs of it. */
typedef struct huff_range {
    huff_seg *seg[SBMAX_l + 1];
    int n;
    unsigned int max;
    int g;        /* group of max, -1 while max is 0 or above IXMAX_VAL */
    uint64_t sum; /* of group g */
    unsigned int nesc;
} huff_range;

static void huff_seg_init(huff_seg *seg, const int *ix, const int *end)
{
    seg->ix = ix;
    seg->end = end;
    seg->max = -1;
    seg->valid = 0;
}

static void huff_band_cache_init(huff_band_cache *c, const ct_mp3_state *gfc, const int *ix)
{
    int k;
    c->dsp = &gfc->dsp.quantize;
    c->hlen3 = (const uint64_t (*)[16 * 16]) gfc->qtab.hlen3;
    c->ix = ix;
    c->l = gfc->scalefac_band.l;
    for (k = 0; k < SBMAX_l; k++)
        huff_seg_init(&c->band[k], ix + c->l[k], ix + c->l[k + 1]);
    c->part_band = -1;
    c->part_end = -1;
}

/* The segment of band k up to line end (the whole band if it ends there
 * or before). */
static huff_seg *huff_band_seg(huff_band_cache *c, int k, int end)
{
    if (c->l[k + 1] <= end)
        return &c->band[k];
    if (c->part_band != k || c->part_end != end) {
        huff_seg_init(&c->part, c->ix + c->l[k], c->ix + end);
        c->part_band = k;
        c->part_end = end;
    }
    return &c->part;
}

static int huff_group(unsigned int max)
{
    if (max <= 1)
        return HG_T1;
    if (max <= 2)
        return HG_T23;
    if (max <= 3)
        return HG_T56;
    if (max <= 5)
        return HG_T7;
    if (max <= 7)
        return HG_T10;
    if (max <= 15)
        return HG_T13;
    return HG_ESC;
}

static unsigned int huff_seg_max(const huff_band_cache *c, huff_seg *seg)
{
    if (seg->max < 0)
        seg->max = c->dsp->ix_max(seg->ix, (int) (seg->end - seg->ix));
    return (unsigned int) seg->max;
}

/* The sum of group g over the segment's pairs, added as the count_bit
 * function of the group adds it. */
static uint64_t huff_seg_sum(const huff_band_cache *c, huff_seg *seg, int g)
{
    const int *ix = seg->ix;
    const int *const end = seg->end;
    uint64_t sum = 0;
    unsigned int nesc = 0;

    if (seg->valid & (1u << g))
        return seg->sum[g];
    switch (g) {
    case HG_T1: {
        const uint8_t *const hlen1 = ct_mp3_ht[1].hlen;
        uint32_t sum32 = 0;
        do {
            unsigned int const x0 = *ix++;
            unsigned int const x1 = *ix++;
            sum32 += hlen1[x0 + x0 + x1];
        } while (ix < end);
        sum = sum32;
        break;
    }
    case HG_T23:
    case HG_T56: {
        int const t1 = (g == HG_T23) ? 2 : 5;
        const uint32_t *table = (t1 == 2) ? &ct_mp3_table23[0] : &ct_mp3_table56[0];
        sum = c->dsp->pair_sum32(table, ct_mp3_ht[t1].xlen, ix, (int) (end - ix));
        break;
    }
    case HG_T7:
    case HG_T10:
    case HG_T13: {
        int const k = g - HG_T7;
        sum = c->dsp->pair_sum64(c->hlen3[k], ct_mp3_ht[7 + 3 * k].xlen, ix, (int) (end - ix));
        break;
    }
    default:
        sum = c->dsp->pair_sum_esc(ct_mp3_largetbl, ix, (int) (end - ix), &nesc);
        seg->nesc = nesc;
        break;
    }
    seg->sum[g] = sum;
    seg->valid |= 1u << g;
    return sum;
}

static void huff_range_init(huff_range *r)
{
    r->n = 0;
    r->max = 0;
    r->g = -1;
    r->sum = 0;
    r->nesc = 0;
}

/* Adds a segment to the run (choose_table's range grows by its lines). */
static void huff_range_add(const huff_band_cache *c, huff_range *r, huff_seg *seg)
{
    unsigned int const m = huff_seg_max(c, seg);
    int k;

    r->seg[r->n++] = seg;
    if (m > r->max)
        r->max = m;
    if (r->max == 0 || r->max > IXMAX_VAL)
        return;
    {
        int const g = huff_group(r->max);
        if (g != r->g) {
            /* a new group: its sums over all segments of the run */
            r->g = g;
            r->sum = 0;
            r->nesc = 0;
            for (k = 0; k < r->n; k++) {
                r->sum += huff_seg_sum(c, r->seg[k], g);
                if (g == HG_ESC)
                    r->nesc += r->seg[k]->nesc;
            }
        }
        else {
            r->sum += huff_seg_sum(c, seg, g);
            if (g == HG_ESC)
                r->nesc += seg->nesc;
        }
    }
}

/* choose_table over the run: its table, its bits added to *_s
 * (LARGE_BITS set when a value is too large). */
static int huff_range_choose(const huff_range *r, int *const _s)
{
    unsigned int *s = (unsigned int *) _s;
    unsigned int max = r->max;
    uint64_t const sum = r->sum;
    int choice, choice2;

    if (max == 0)
        return 0;
    if (max > IXMAX_VAL) {
        *s = LARGE_BITS;
        return -1;
    }
    switch (r->g) {
    case HG_T1:
        *s += (unsigned int) sum;
        return 1;
    case HG_T23:
    case HG_T56: { /* count_bit_noESC_from2 */
        int t1 = huf_tbl_noESC[max - 1];
        unsigned int sum1 = (unsigned int) sum, sum2;
        sum2 = sum1 & 0xffffu;
        sum1 >>= 16u;
        if (sum1 > sum2) {
            sum1 = sum2;
            t1++;
        }
        *s += sum1;
        return t1;
    }
    case HG_T7:
    case HG_T10:
    case HG_T13: /* count_bit_noESC_from3 */
        return choose_of_three(huf_tbl_noESC[max - 1], sum, s);
    default:
        break;
    }
    /* count_bit_ESC: every escaped value adds the linbits */
    max -= 15u;
    for (choice2 = 24; choice2 < 32; choice2++) {
        if (ct_mp3_ht[choice2].linmax >= max)
            break;
    }
    for (choice = choice2 - 8; choice < 24; choice++) {
        if (ct_mp3_ht[choice].linmax >= max)
            break;
    }
    {
        unsigned int const linbits = ct_mp3_ht[choice].xlen * 65536u + ct_mp3_ht[choice2].xlen;
        unsigned int sum1 = (unsigned int) sum + r->nesc * linbits, sum2;
        sum2 = sum1 & 0xffffu;
        sum1 >>= 16u;
        if (sum1 > sum2) {
            sum1 = sum2;
            choice = choice2;
        }
        *s += sum1;
        return choice;
    }
}

/* best_huffman_divide: the bits of the region 0/1 division r0 (and the
 * table) for every r0 + r1, so that recalc_divide_sub can try each r2.
 * Region 0 is bands 0 .. r0, region 1 bands r0 + 1 .. r0 + r1 + 1: both
 * grow one band per step. */
static void recalc_divide_init(const ct_mp3_state *gfc, const ct_mp3_gr_info *cod_info,
                               huff_band_cache *hc, int r01_bits[], int r01_div[],
                               int r0_tbl[], int r1_tbl[])
{
    int r0, r1, bigv, r0t, r1t, bits;
    huff_range reg0;

    bigv = cod_info->big_values;

    for (r0 = 0; r0 <= 7 + 15; r0++)
        r01_bits[r0] = LARGE_BITS;

    huff_range_init(&reg0);
    for (r0 = 0; r0 < 16; r0++) {
        int const a1 = gfc->scalefac_band.l[r0 + 1];
        int r0bits;
        huff_range reg1;
        if (a1 >= bigv)
            break;
        huff_range_add(hc, &reg0, &hc->band[r0]);
        r0bits = 0;
        r0t = huff_range_choose(&reg0, &r0bits);

        huff_range_init(&reg1);
        for (r1 = 0; r1 < 8; r1++) {
            int const a2 = gfc->scalefac_band.l[r0 + r1 + 2];
            if (a2 >= bigv)
                break;

            huff_range_add(hc, &reg1, &hc->band[r0 + r1 + 1]);
            bits = r0bits;
            r1t = huff_range_choose(&reg1, &bits);
            if (r01_bits[r0 + r1] > bits) {
                r01_bits[r0 + r1] = bits;
                r01_div[r0 + r1] = r0;
                r0_tbl[r0 + r1] = r0t;
                r1_tbl[r0 + r1] = r1t;
            }
        }
    }
}

/* Region 2 is bands r2 .. to big_values: its tables and bits for every r2,
 * from the last band down (a run growing one band per step), then LAME's
 * loop over r2. */
static void recalc_divide_sub(const ct_mp3_state *gfc, const ct_mp3_gr_info *cod_info2,
                              ct_mp3_gr_info *const gi, huff_band_cache *hc,
                              const int r01_bits[], const int r01_div[],
                              const int r0_tbl[], const int r1_tbl[])
{
    int bits, r2, a2, bigv, r2t, last;
    int r2_tbl[SBMAX_l + 1], r2_bits[SBMAX_l + 1];
    huff_range reg2;

    bigv = cod_info2->big_values;

    last = 1;
    for (r2 = 2; r2 < SBMAX_l + 1; r2++) {
        if (gfc->scalefac_band.l[r2] >= bigv)
            break;
        last = r2;
    }
    huff_range_init(&reg2);
    for (r2 = last; r2 >= 2; r2--) {
        huff_range_add(hc, &reg2, huff_band_seg(hc, r2, bigv));
        r2_bits[r2] = 0;
        r2_tbl[r2] = huff_range_choose(&reg2, &r2_bits[r2]);
    }

    for (r2 = 2; r2 < SBMAX_l + 1; r2++) {
        a2 = gfc->scalefac_band.l[r2];
        if (a2 >= bigv)
            break;

        bits = r01_bits[r2 - 2] + cod_info2->count1bits;
        if (gi->part2_3_length <= bits)
            break;

        /* choose_table(ix + a2, ix + bigv, &bits) */
        r2t = r2_tbl[r2];
        if (r2t < 0)
            bits = LARGE_BITS;
        else
            bits = (int) ((unsigned int) bits + (unsigned int) r2_bits[r2]);
        if (gi->part2_3_length <= bits)
            continue;

        memcpy(gi, cod_info2, sizeof(ct_mp3_gr_info));
        gi->part2_3_length = bits;
        gi->region0_count = r01_div[r2 - 2];
        gi->region1_count = r2 - 2 - r01_div[r2 - 2];
        gi->table_select[0] = r0_tbl[r2 - 2];
        gi->table_select[1] = r1_tbl[r2 - 2];
        gi->table_select[2] = r2t;
    }
}

void ct_mp3_best_huffman_divide(const ct_mp3_state *gfc, ct_mp3_gr_info *const gi)
{
    int i, a1, a2;
    ct_mp3_gr_info cod_info2;
    int const *const ix = gi->l3_enc;

    int r01_bits[7 + 15 + 1];
    int r01_div[7 + 15 + 1];
    int r0_tbl[7 + 15 + 1];
    int r1_tbl[7 + 15 + 1];
    huff_band_cache hc;

    /* SHORT BLOCK stuff fails for MPEG2 */
    if (gi->block_type == SHORT_TYPE && gfc->cfg.mode_gr == 1)
        return;

    memcpy(&cod_info2, gi, sizeof(ct_mp3_gr_info));
    if (gi->block_type == NORM_TYPE) {
        huff_band_cache_init(&hc, gfc, ix);
        recalc_divide_init(gfc, gi, &hc, r01_bits, r01_div, r0_tbl, r1_tbl);
        recalc_divide_sub(gfc, &cod_info2, gi, &hc, r01_bits, r01_div, r0_tbl, r1_tbl);
    }

    i = cod_info2.big_values;
    if (i == 0 || (unsigned int) (ix[i - 2] | ix[i - 1]) > 1)
        return;

    i = gi->count1 + 2;
    if (i > 576)
        return;

    /* Determines the number of bits to encode the quadruples. */
    memcpy(&cod_info2, gi, sizeof(ct_mp3_gr_info));
    cod_info2.count1 = i;
    a1 = a2 = 0;

    for (; i > cod_info2.big_values; i -= 4) {
        int const p = ((ix[i - 4] * 2 + ix[i - 3]) * 2 + ix[i - 2]) * 2 + ix[i - 1];
        a1 += ct_mp3_t32l[p];
        a2 += ct_mp3_t33l[p];
    }
    cod_info2.big_values = i;

    cod_info2.count1table_select = 0;
    if (a1 > a2) {
        a1 = a2;
        cod_info2.count1table_select = 1;
    }

    cod_info2.count1bits = a1;

    if (cod_info2.block_type == NORM_TYPE) {
        recalc_divide_sub(gfc, &cod_info2, gi, &hc, r01_bits, r01_div, r0_tbl, r1_tbl);
    } else {
        /* Count the number of bits necessary to code the bigvalues region. */
        cod_info2.part2_3_length = a1;
        a1 = gfc->scalefac_band.l[7 + 1];
        if (a1 > i)
            a1 = i;
        if (a1 > 0)
            cod_info2.table_select[0] = choose_table(gfc, ix, ix + a1, &cod_info2.part2_3_length);
        if (i > a1)
            cod_info2.table_select[1] = choose_table(gfc, ix + a1, ix + i, &cod_info2.part2_3_length);
        if (gi->part2_3_length > cod_info2.part2_3_length)
            memcpy(gi, &cod_info2, sizeof(ct_mp3_gr_info));
    }
}

static const int slen1_n[16] = {1, 1, 1, 1, 8, 2, 2, 2, 4, 4, 4, 8, 8, 8, 16, 16};
static const int slen2_n[16] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 2, 4, 8, 4, 8};

/* scfsi: the second granule reuses the first granule's scalefactors in the
 * scfsi band groups where they are equal (its own become -1). */
static void scfsi_calc(int ch, ct_mp3_side_info *l3_side)
{
    unsigned int i;
    int s1, s2, c1, c2;
    int sfb;
    ct_mp3_gr_info *const gi = &l3_side->tt[1][ch];
    const ct_mp3_gr_info *const g0 = &l3_side->tt[0][ch];

    for (i = 0; i < 4; i++) {
        for (sfb = ct_mp3_scfsi_band[i]; sfb < ct_mp3_scfsi_band[i + 1]; sfb++) {
            if (g0->scalefac[sfb] != gi->scalefac[sfb] && gi->scalefac[sfb] >= 0)
                break;
        }
        if (sfb == ct_mp3_scfsi_band[i + 1]) {
            for (sfb = ct_mp3_scfsi_band[i]; sfb < ct_mp3_scfsi_band[i + 1]; sfb++)
                gi->scalefac[sfb] = -1;
            l3_side->scfsi[ch][i] = 1;
        }
    }

    s1 = c1 = 0;
    for (sfb = 0; sfb < 11; sfb++) {
        if (gi->scalefac[sfb] == -1)
            continue;
        c1++;
        if (s1 < gi->scalefac[sfb])
            s1 = gi->scalefac[sfb];
    }

    s2 = c2 = 0;
    for (; sfb < SBPSY_l; sfb++) {
        if (gi->scalefac[sfb] == -1)
            continue;
        c2++;
        if (s2 < gi->scalefac[sfb])
            s2 = gi->scalefac[sfb];
    }

    for (i = 0; i < 16; i++) {
        if (s1 < slen1_n[i] && s2 < slen2_n[i]) {
            int const c = ct_mp3_slen1_tab[i] * c1 + ct_mp3_slen2_tab[i] * c2;
            if (gi->part2_length > c) {
                gi->part2_length = c;
                gi->scalefac_compress = (int) i;
            }
        }
    }
}

/* The cheapest way to store the final scalefactors of granule gr, channel
 * ch: none where the band quantizes to zero, scalefac_scale, preflag, scfsi. */
void ct_mp3_best_scalefac_store(const ct_mp3_state *gfc, const int gr, const int ch,
                                ct_mp3_side_info *const l3_side)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_gr_info *const gi = &l3_side->tt[gr][ch];
    int sfb, i, j, l;
    int recalc = 0;

    /* remove scalefacs from bands with ix=0 (an idea from the AAC ISO
     * docs); -2: anything goes, only this function and scfsi_calc know */
    j = 0;
    for (sfb = 0; sfb < gi->sfbmax; sfb++) {
        int const width = gi->width[sfb];
        for (l = j, j += width; l < j; ++l) {
            if (gi->l3_enc[l] != 0)
                break;
        }
        if (l == j)
            gi->scalefac[sfb] = recalc = -2;
    }

    if (!gi->scalefac_scale && !gi->preflag) {
        int s = 0;
        for (sfb = 0; sfb < gi->sfbmax; sfb++)
            if (gi->scalefac[sfb] > 0)
                s |= gi->scalefac[sfb];

        if (!(s & 1) && s != 0) {
            for (sfb = 0; sfb < gi->sfbmax; sfb++)
                if (gi->scalefac[sfb] > 0)
                    gi->scalefac[sfb] >>= 1;

            gi->scalefac_scale = recalc = 1;
        }
    }

    if (!gi->preflag && gi->block_type != SHORT_TYPE && cfg->mode_gr == 2) {
        for (sfb = 11; sfb < SBPSY_l; sfb++)
            if (gi->scalefac[sfb] < ct_mp3_pretab[sfb] && gi->scalefac[sfb] != -2)
                break;
        if (sfb == SBPSY_l) {
            for (sfb = 11; sfb < SBPSY_l; sfb++)
                if (gi->scalefac[sfb] > 0)
                    gi->scalefac[sfb] -= ct_mp3_pretab[sfb];

            gi->preflag = recalc = 1;
        }
    }

    for (i = 0; i < 4; i++)
        l3_side->scfsi[ch][i] = 0;

    if (cfg->mode_gr == 2 && gr == 1 && l3_side->tt[0][ch].block_type != SHORT_TYPE
        && l3_side->tt[1][ch].block_type != SHORT_TYPE) {
        scfsi_calc(ch, l3_side);
        recalc = 0;
    }
    for (sfb = 0; sfb < gi->sfbmax; sfb++) {
        if (gi->scalefac[sfb] == -2)
            gi->scalefac[sfb] = 0; /* if anything goes, then 0 is a good choice */
    }
    if (recalc)
        (void) ct_mp3_scale_bitcount(gfc, gi);
}

/* Bits of the scalefactors per scalefac_compress: short blocks
 * 18*slen1_tab[i] + 18*slen2_tab[i], mixed 17*slen1 + 18*slen2, long
 * 11*slen1 + 10*slen2. */
static const int scale_short[16] = {
    0, 18, 36, 54, 54, 36, 54, 72, 54, 72, 90, 72, 90, 108, 108, 126
};

static const int scale_mixed[16] = {
    0, 18, 36, 54, 51, 35, 53, 71, 52, 70, 88, 69, 87, 105, 104, 122
};

static const int scale_long[16] = {
    0, 10, 20, 30, 33, 21, 31, 41, 32, 42, 52, 43, 53, 63, 64, 74
};

/* The scalefac_compress with the fewest bits (all 16 tried, ISO stops at
 * the first valid one); 1 if none can hold the scalefactors. */
static int mpeg1_scale_bitcount(ct_mp3_gr_info *const cod_info)
{
    int k, sfb, max_slen1 = 0, max_slen2 = 0;
    const int *tab;
    int *const scalefac = cod_info->scalefac;

    if (cod_info->block_type == SHORT_TYPE) {
        tab = scale_short;
        if (cod_info->mixed_block_flag)
            tab = scale_mixed;
    } else {
        tab = scale_long;
        if (!cod_info->preflag) {
            for (sfb = 11; sfb < SBPSY_l; sfb++)
                if (scalefac[sfb] < ct_mp3_pretab[sfb])
                    break;

            if (sfb == SBPSY_l) {
                cod_info->preflag = 1;
                for (sfb = 11; sfb < SBPSY_l; sfb++)
                    scalefac[sfb] -= ct_mp3_pretab[sfb];
            }
        }
    }

    for (sfb = 0; sfb < cod_info->sfbdivide; sfb++)
        if (max_slen1 < scalefac[sfb])
            max_slen1 = scalefac[sfb];

    for (; sfb < cod_info->sfbmax; sfb++)
        if (max_slen2 < scalefac[sfb])
            max_slen2 = scalefac[sfb];

    cod_info->part2_length = LARGE_BITS;
    for (k = 0; k < 16; k++) {
        if (max_slen1 < slen1_n[k] && max_slen2 < slen2_n[k]
            && cod_info->part2_length > tab[k]) {
            cod_info->part2_length = tab[k];
            cod_info->scalefac_compress = k;
        }
    }
    return cod_info->part2_length == LARGE_BITS;
}

/* Largest scalefactor values of MPEG-2 LSF per table number and partition. */
static const int max_range_sfac_tab[6][4] = {
    {15, 15, 7, 7},
    {15, 15, 7, 0},
    {7, 3, 0, 0},
    {15, 31, 31, 0},
    {7, 7, 7, 0},
    {3, 3, 0, 0}
};

/* scale_bitcount_lsf: MPEG-2 LSF (ISO 13818-3 2.4.3.2), without intensity
 * stereo (table numbers 0 and 2 only). */
static int mpeg2_scale_bitcount(ct_mp3_gr_info *const cod_info)
{
    int table_number, row_in_table, partition, nr_sfb, window, over;
    int i, sfb, max_sfac[4];
    const int *partition_table;
    int const *const scalefac = cod_info->scalefac;

    if (cod_info->preflag)
        table_number = 2;
    else
        table_number = 0;

    for (i = 0; i < 4; i++)
        max_sfac[i] = 0;

    if (cod_info->block_type == SHORT_TYPE) {
        row_in_table = 1;
        partition_table = &ct_mp3_nr_of_sfb_block[table_number][row_in_table][0];
        for (sfb = 0, partition = 0; partition < 4; partition++) {
            nr_sfb = partition_table[partition] / 3;
            for (i = 0; i < nr_sfb; i++, sfb++)
                for (window = 0; window < 3; window++)
                    if (scalefac[sfb * 3 + window] > max_sfac[partition])
                        max_sfac[partition] = scalefac[sfb * 3 + window];
        }
    } else {
        row_in_table = 0;
        partition_table = &ct_mp3_nr_of_sfb_block[table_number][row_in_table][0];
        for (sfb = 0, partition = 0; partition < 4; partition++) {
            nr_sfb = partition_table[partition];
            for (i = 0; i < nr_sfb; i++, sfb++)
                if (scalefac[sfb] > max_sfac[partition])
                    max_sfac[partition] = scalefac[sfb];
        }
    }

    for (over = 0, partition = 0; partition < 4; partition++) {
        if (max_sfac[partition] > max_range_sfac_tab[table_number][partition])
            over++;
    }
    if (!over) {
        /* no band over-amplified: set scalefac_compress and slen[] for the
         * formatter */
        static const int log2tab[] = {0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};

        int slen1, slen2, slen3, slen4;

        cod_info->sfb_partition_table = ct_mp3_nr_of_sfb_block[table_number][row_in_table];
        for (partition = 0; partition < 4; partition++)
            cod_info->slen[partition] = log2tab[max_sfac[partition]];

        slen1 = cod_info->slen[0];
        slen2 = cod_info->slen[1];
        slen3 = cod_info->slen[2];
        slen4 = cod_info->slen[3];

        if (table_number == 0)
            cod_info->scalefac_compress = (((slen1 * 5) + slen2) << 4) + (slen3 << 2) + slen4;
        else
            cod_info->scalefac_compress = 500 + (slen1 * 3) + slen2;

        cod_info->part2_length = 0;
        for (partition = 0; partition < 4; partition++)
            cod_info->part2_length +=
                cod_info->slen[partition] * cod_info->sfb_partition_table[partition];
    }
    return over;
}

int ct_mp3_scale_bitcount(const ct_mp3_state *gfc, ct_mp3_gr_info *cod_info)
{
    if (gfc->cfg.mode_gr == 2)
        return mpeg1_scale_bitcount(cod_info);
    return mpeg2_scale_bitcount(cod_info);
}

/* The region0/region1 division of long NORM_TYPE blocks per big_values
 * (sv_qnt.bv_scf). */
void ct_mp3_huffman_init(ct_mp3_state *gfc)
{
    int i, k;

    /* the packed lengths of count_bit_noESC_from3 */
    for (k = 0; k < 3; k++) {
        int const t1 = 7 + 3 * k;
        unsigned int const n = ct_mp3_ht[t1].xlen * ct_mp3_ht[t1].xlen;
        unsigned int x;
        memset(gfc->qtab.hlen3[k], 0, sizeof(gfc->qtab.hlen3[k]));
        for (x = 0; x < n; x++) {
            gfc->qtab.hlen3[k][x] = (uint64_t) ct_mp3_ht[t1].hlen[x]
                | (uint64_t) ct_mp3_ht[t1 + 1].hlen[x] << 16
                | (uint64_t) ct_mp3_ht[t1 + 2].hlen[x] << 32;
        }
    }

    for (i = 2; i <= 576; i += 2) {
        int scfb_anz = 0, bv_index;
        while (gfc->scalefac_band.l[++scfb_anz] < i)
            ;

        bv_index = subdv_table[scfb_anz].region0_count;
        while (gfc->scalefac_band.l[bv_index + 1] > i)
            bv_index--;

        if (bv_index < 0) {
            /* everything is going to be encoded as region0: bigvalues <
             * region0 < region1, so set region0, region1 to some value
             * larger than bigvalues */
            bv_index = subdv_table[scfb_anz].region0_count;
        }

        gfc->sv_qnt.bv_scf[i - 2] = (char) bv_index;

        bv_index = subdv_table[scfb_anz].region1_count;
        while (gfc->scalefac_band.l[bv_index + gfc->sv_qnt.bv_scf[i - 2] + 2] > i)
            bv_index--;

        if (bv_index < 0)
            bv_index = subdv_table[scfb_anz].region1_count;

        gfc->sv_qnt.bv_scf[i - 1] = (char) bv_index;
    }
}
