/*
 * The VBR granule search of vbr_mt/vbr_mtrh: per scalefactor band the
 * largest quantization step whose noise stays within the allowed
 * distortion (find_scalefac_x34, or a guess at -q 7..9), then the global
 * gain, scalefac_scale, preflag and subblock gains that can code those
 * steps (long/short_block_constrain), the quantization and the bit count.
 * When the frame's bit budget is too small, the steps are flattened towards
 * the global gain until each granule fits its share (outOfBitsStrategy).
 *
 * ct_mp3_vbr_search_frame reads nothing of the bit reservoir;
 * ct_mp3_vbr_fit_frame takes the budget (max_bits) and redoes granules only
 * when the frame does not fit it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/vbrquantize.c (LGPL-2.0-or-later, the
 * LAME project).
 */
#include <math.h>
#include <string.h>

#include "quantize.h"
#include "tables.h"

typedef struct vbr_algo vbr_algo;

typedef void (*alloc_sf_fn)(const vbr_algo *, const int *, const int *, int);
typedef uint8_t (*find_sf_fn)(const ct_mp3_state *, const float *, const float *, float,
                               unsigned int, uint8_t);

/* algo_t: one granule's search. */
struct vbr_algo {
    alloc_sf_fn alloc;
    find_sf_fn find;
    const float *xr34orig;
    const ct_mp3_state *gfc;
    ct_mp3_gr_info *cod_info;
    int mingain_l;
    int mingain_s[3];
};

static float vec_max(const float *xr34, unsigned int bw)
{
    float xfsf = 0;
    unsigned int i;

    for (i = 0; i < bw; ++i) {
        if (xfsf < xr34[i])
            xfsf = xr34[i];
    }
    return xfsf;
}

/* The smallest scalefactor (largest step) with sfpow34 * xr34 <= IXMAX_VAL. */
static uint8_t find_lowest_scalefac(const float *ipow20, const float xr34)
{
    uint8_t sf_ok = 255;
    uint8_t sf = 128, delsf = 64;
    uint8_t i;
    float const ixmax_val = IXMAX_VAL;
    for (i = 0; i < 8; ++i) {
        float const xfsf = ipow20[sf] * xr34;
        if (xfsf <= ixmax_val) {
            sf_ok = sf;
            sf -= delsf;
        } else {
            sf += delsf;
        }
        delsf >>= 1;
    }
    return sf_ok;
}

/* The quantization noise of a band at scalefactor sf, or where it exceeds
 * l3_xmin a partial sum that does (tri_calc_sfb_noise_x34 only compares it
 * with l3_xmin); only for sf with sfpow34 * xr34 <= IXMAX_VAL
 * (quantize_dsp.h: sfb_noise_x34). */
static float calc_sfb_noise_x34(const ct_mp3_state *gfc, const float *xr,
                                const float *xr34, unsigned int bw, uint8_t sf,
                                float l3_xmin)
{
    const ct_mp3_qnt_tables *const qtab = &gfc->qtab;
    const float sfpow = qtab->pow20[sf + Q_MAX2]; /* pow(2.0,sf/4.0) */
    const float sfpow34 = qtab->ipow20[sf];       /* pow(sfpow,-3.0/4.0) */

    return gfc->dsp.quantize.sfb_noise_x34(qtab->pow43, qtab->adj43asm, xr, xr34, bw, sfpow,
                                           sfpow34, l3_xmin);
}

typedef struct calc_noise_cache {
    int valid;
    float value;
} calc_noise_cache;

/* 1 if the noise at sf, sf + 1 or sf - 1 exceeds l3_xmin. */
static uint8_t tri_calc_sfb_noise_x34(const ct_mp3_state *gfc, const float *xr,
                                      const float *xr34, float l3_xmin, unsigned int bw,
                                      uint8_t sf, calc_noise_cache *did_it)
{
    if (did_it[sf].valid == 0) {
        did_it[sf].valid = 1;
        did_it[sf].value = calc_sfb_noise_x34(gfc, xr, xr34, bw, sf, l3_xmin);
    }
    if (l3_xmin < did_it[sf].value)
        return 1;
    if (sf < 255) {
        uint8_t const sf_x = sf + 1;
        if (did_it[sf_x].valid == 0) {
            did_it[sf_x].valid = 1;
            did_it[sf_x].value = calc_sfb_noise_x34(gfc, xr, xr34, bw, sf_x, l3_xmin);
        }
        if (l3_xmin < did_it[sf_x].value)
            return 1;
    }
    if (sf > 0) {
        uint8_t const sf_x = sf - 1;
        if (did_it[sf_x].valid == 0) {
            did_it[sf_x].valid = 1;
            did_it[sf_x].value = calc_sfb_noise_x34(gfc, xr, xr34, bw, sf_x, l3_xmin);
        }
        if (l3_xmin < did_it[sf_x].value)
            return 1;
    }
    return 0;
}

/* The quantization step size the allowed masking gives (Robert Hegemann
 * 2001-05-01). */
static int calc_scalefac(float l3_xmin, int bw)
{
    float const c = 5.799142446; /* 10 * 10^(2/3) * log10(4/3) */
    return 210 + (int) (c * log10f(l3_xmin / bw) - .5f);
}

static uint8_t guess_scalefac_x34(const ct_mp3_state *gfc, const float *xr,
                                  const float *xr34, float l3_xmin, unsigned int bw,
                                  uint8_t sf_min)
{
    int const guess = calc_scalefac(l3_xmin, bw);
    (void) gfc;
    (void) xr;
    (void) xr34;
    if (guess < sf_min)
        return sf_min;
    if (guess >= 255)
        return 255;
    return guess;
}

/* The find_scalefac routines calculate a quantization step size which
 * would introduce as much noise as is allowed: binary search over sf. */
static uint8_t find_scalefac_x34(const ct_mp3_state *gfc, const float *xr,
                                     const float *xr34, float l3_xmin, unsigned int bw,
                                     uint8_t sf_min)
{
    calc_noise_cache did_it[256];
    uint8_t sf = 128, sf_ok = 255, delsf = 128, seen_good_one = 0, i;
    memset(did_it, 0, sizeof(did_it));
    for (i = 0; i < 8; ++i) {
        delsf >>= 1;
        if (sf <= sf_min) {
            sf += delsf;
        } else {
            uint8_t const bad = tri_calc_sfb_noise_x34(gfc, xr, xr34, l3_xmin, bw, sf, did_it);
            if (bad) { /* distortion. try a smaller scalefactor */
                sf -= delsf;
            } else {
                sf_ok = sf;
                sf += delsf;
                seen_good_one = 1;
            }
        }
    }
    /* returning a scalefac without distortion, if possible */
    if (seen_good_one > 0)
        sf = sf_ok;
    if (sf <= sf_min)
        sf = sf_min;
    return sf;
}

/* block_sf: per band the smallest allowed scalefactor (vbrsfmin) and the
 * searched one (vbrsf); returns the largest. */
static int block_sf(vbr_algo *that, const float l3_xmin[SFBMAX], int vbrsf[SFBMAX],
                    int vbrsfmin[SFBMAX])
{
    const ct_mp3_qnt_tables *const qtab = &that->gfc->qtab;
    float max_xr34;
    const float *const xr = &that->cod_info->xr[0];
    const float *const xr34_orig = &that->xr34orig[0];
    const int *const width = &that->cod_info->width[0];
    const char *const energy_above_cutoff = &that->cod_info->energy_above_cutoff[0];
    unsigned int const max_nonzero_coeff = (unsigned int) that->cod_info->max_nonzero_coeff;
    uint8_t maxsf = 0;
    int sfb = 0, m_o = -1;
    unsigned int j = 0, i = 0;
    int const psymax = that->cod_info->psymax;

    that->mingain_l = 0;
    that->mingain_s[0] = 0;
    that->mingain_s[1] = 0;
    that->mingain_s[2] = 0;
    while (j <= max_nonzero_coeff) {
        unsigned int const w = (unsigned int) width[sfb];
        unsigned int const m = (unsigned int) (max_nonzero_coeff - j + 1);
        unsigned int l = w;
        uint8_t m1, m2;
        if (l > m)
            l = m;
        max_xr34 = vec_max(&xr34_orig[j], l);

        m1 = find_lowest_scalefac(qtab->ipow20, max_xr34);
        vbrsfmin[sfb] = m1;
        if (that->mingain_l < m1)
            that->mingain_l = m1;
        if (that->mingain_s[i] < m1)
            that->mingain_s[i] = m1;
        if (++i > 2)
            i = 0;
        if (sfb < psymax && w > 2) { /* mpeg2.5 at 8 kHz doesn't use all
                                        scalefactors, unused have width 2 */
            if (energy_above_cutoff[sfb]) {
                m2 = that->find(that->gfc, &xr[j], &xr34_orig[j], l3_xmin[sfb], l, m1);
                if (maxsf < m2)
                    maxsf = m2;
                if (m_o < m2 && m2 < 255)
                    m_o = m2;
            } else {
                m2 = 255;
                maxsf = 255;
            }
        } else {
            if (maxsf < m1)
                maxsf = m1;
            m2 = maxsf;
        }
        vbrsf[sfb] = m2;
        ++sfb;
        j += w;
    }
    for (; sfb < SFBMAX; ++sfb) {
        vbrsf[sfb] = maxsf;
        vbrsfmin[sfb] = 0;
    }
    if (m_o > -1) {
        maxsf = m_o;
        for (sfb = 0; sfb < SFBMAX; ++sfb) {
            if (vbrsf[sfb] == 255)
                vbrsf[sfb] = m_o;
        }
    }
    return maxsf;
}

/* Quantize xr34 with the granule's scalefactors (block_xr34); LAME
 * quantizes 4 lines at a time and the remaining ones with zeros in the
 * other lanes: each line's value depends on that line alone (quantize_dsp.h:
 * quantize_x34). */
static void quantize_x34(const vbr_algo *that)
{
    const ct_mp3_qnt_tables *const qtab = &that->gfc->qtab;
    const ct_mp3_quantize_dsp *const dsp = &that->gfc->dsp.quantize;
    const float *xr34_orig = that->xr34orig;
    ct_mp3_gr_info *const cod_info = that->cod_info;
    int const ifqstep = (cod_info->scalefac_scale == 0) ? 2 : 4;
    int *l3 = cod_info->l3_enc;
    unsigned int j = 0, sfb = 0;
    unsigned int const max_nonzero_coeff = (unsigned int) cod_info->max_nonzero_coeff;

    while (j <= max_nonzero_coeff) {
        int const s = (cod_info->scalefac[sfb] + (cod_info->preflag ? ct_mp3_pretab[sfb] : 0))
                * ifqstep
            + cod_info->subblock_gain[cod_info->window[sfb]] * 8;
        uint8_t const sfac = (uint8_t) (cod_info->global_gain - s);
        float const sfpow34 = qtab->ipow20[sfac];
        unsigned int const w = (unsigned int) cod_info->width[sfb];
        unsigned int const m = (unsigned int) (max_nonzero_coeff - j + 1);
        unsigned int const n = (w <= m) ? w : m;

        j += w;
        ++sfb;

        dsp->quantize_x34(qtab->adj43asm, sfpow34, xr34_orig, l3, n);
        l3 += n;
        xr34_orig += n;
    }
}

static const uint8_t max_range_short[SBMAX_s * 3] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    0, 0, 0
};

static const uint8_t max_range_long[SBMAX_l] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0
};

static const uint8_t max_range_long_lsf_pretab[SBMAX_l] = {
    7, 7, 7, 7, 7, 7, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

/*
 * Scalefactors: sfb 0..5 < 16, sfb > 5 < 8. The coded step of a band is
 * global_gain - 210 - 8 * subblock_gain[window] - ifqstep * scalefac, with
 * ifqstep 2 or 4 (scalefac_scale).
 */
static void set_subblock_gain(ct_mp3_gr_info *cod_info, const int mingain_s[3], int sf[])
{
    const int maxrange1 = 15, maxrange2 = 7;
    const int ifqstepShift = (cod_info->scalefac_scale == 0) ? 1 : 2;
    int *const sbg = cod_info->subblock_gain;
    unsigned int const psymax = (unsigned int) cod_info->psymax;
    unsigned int psydiv = 18;
    int sbg0, sbg1, sbg2;
    unsigned int sfb, i;
    int min_sbg = 7;

    if (psydiv > psymax)
        psydiv = psymax;
    for (i = 0; i < 3; ++i) {
        int maxsf1 = 0, maxsf2 = 0, minsf = 1000;
        /* see if we should use subblock gain */
        for (sfb = i; sfb < psydiv; sfb += 3) { /* part 1 */
            int const v = -sf[sfb];
            if (maxsf1 < v)
                maxsf1 = v;
            if (minsf > v)
                minsf = v;
        }
        for (; sfb < SFBMAX; sfb += 3) { /* part 2 */
            int const v = -sf[sfb];
            if (maxsf2 < v)
                maxsf2 = v;
            if (minsf > v)
                minsf = v;
        }

        /* boost subblock gain as little as possible so we can reach maxsf1
         * with scalefactors: 8*sbg >= maxsf1 */
        {
            int const m1 = maxsf1 - (maxrange1 << ifqstepShift);
            int const m2 = maxsf2 - (maxrange2 << ifqstepShift);

            maxsf1 = (m1 > m2) ? m1 : m2;
        }
        if (minsf > 0)
            sbg[i] = minsf >> 3;
        else
            sbg[i] = 0;
        if (maxsf1 > 0) {
            int const m1 = sbg[i];
            int const m2 = (maxsf1 + 7) >> 3;
            sbg[i] = (m1 > m2) ? m1 : m2;
        }
        if (sbg[i] > 0 && mingain_s[i] > (cod_info->global_gain - sbg[i] * 8))
            sbg[i] = (cod_info->global_gain - mingain_s[i]) >> 3;
        if (sbg[i] > 7)
            sbg[i] = 7;
        if (min_sbg > sbg[i])
            min_sbg = sbg[i];
    }
    sbg0 = sbg[0] * 8;
    sbg1 = sbg[1] * 8;
    sbg2 = sbg[2] * 8;
    for (sfb = 0; sfb < SFBMAX; sfb += 3) {
        sf[sfb + 0] += sbg0;
        sf[sfb + 1] += sbg1;
        sf[sfb + 2] += sbg2;
    }
    if (min_sbg > 0) {
        for (i = 0; i < 3; ++i)
            sbg[i] -= min_sbg;
        cod_info->global_gain -= min_sbg * 8;
    }
}

static void set_scalefacs(ct_mp3_gr_info *cod_info, const int *vbrsfmin, int sf[],
                          const uint8_t *max_range)
{
    const int ifqstep = (cod_info->scalefac_scale == 0) ? 2 : 4;
    const int ifqstepShift = (cod_info->scalefac_scale == 0) ? 1 : 2;
    int *const scalefac = cod_info->scalefac;
    int const sfbmax = cod_info->sfbmax;
    int sfb;
    int const *const sbg = cod_info->subblock_gain;
    int const *const window = cod_info->window;
    int const preflag = cod_info->preflag;

    if (preflag) {
        for (sfb = 11; sfb < sfbmax; ++sfb)
            sf[sfb] += ct_mp3_pretab[sfb] * ifqstep;
    }
    for (sfb = 0; sfb < sfbmax; ++sfb) {
        int const gain = cod_info->global_gain - (sbg[window[sfb]] * 8)
            - ((preflag ? ct_mp3_pretab[sfb] : 0) * ifqstep);

        if (sf[sfb] < 0) {
            int const m = gain - vbrsfmin[sfb];
            /* ifqstep*scalefac >= -sf[sfb], so round UP */
            scalefac[sfb] = (ifqstep - 1 - sf[sfb]) >> ifqstepShift;

            if (scalefac[sfb] > max_range[sfb])
                scalefac[sfb] = max_range[sfb];
            if (scalefac[sfb] > 0 && (scalefac[sfb] << ifqstepShift) > m)
                scalefac[sfb] = m >> ifqstepShift;
        } else {
            scalefac[sfb] = 0;
        }
    }
    for (; sfb < SFBMAX; ++sfb)
        scalefac[sfb] = 0; /* sfb21 */
}

/* Short block scalefactors. */
static void short_block_constrain(const vbr_algo *that, const int vbrsf[SFBMAX],
                                  const int vbrsfmin[SFBMAX], int vbrmax)
{
    ct_mp3_gr_info *const cod_info = that->cod_info;
    const ct_mp3_config *const cfg = &that->gfc->cfg;
    int const maxminsfb = that->mingain_l;
    int mover, maxover0 = 0, maxover1 = 0, delta = 0;
    int v, v0, v1;
    int sfb;
    int const psymax = cod_info->psymax;

    for (sfb = 0; sfb < psymax; ++sfb) {
        v = vbrmax - vbrsf[sfb];
        if (delta < v)
            delta = v;
        v0 = v - (4 * 14 + 2 * max_range_short[sfb]);
        v1 = v - (4 * 14 + 4 * max_range_short[sfb]);
        if (maxover0 < v0)
            maxover0 = v0;
        if (maxover1 < v1)
            maxover1 = v1;
    }
    if (cfg->noise_shaping == 2)
        /* allow scalefac_scale=1 */
        mover = (maxover0 < maxover1) ? maxover0 : maxover1;
    else
        mover = maxover0;
    if (delta > mover)
        delta = mover;
    vbrmax -= delta;
    maxover0 -= mover;
    maxover1 -= mover;

    if (maxover0 == 0)
        cod_info->scalefac_scale = 0;
    else if (maxover1 == 0)
        cod_info->scalefac_scale = 1;
    if (vbrmax < maxminsfb)
        vbrmax = maxminsfb;
    cod_info->global_gain = vbrmax;

    if (cod_info->global_gain < 0)
        cod_info->global_gain = 0;
    else if (cod_info->global_gain > 255)
        cod_info->global_gain = 255;
    {
        int sf_temp[SFBMAX];
        for (sfb = 0; sfb < SFBMAX; ++sfb)
            sf_temp[sfb] = vbrsf[sfb] - vbrmax;
        set_subblock_gain(cod_info, &that->mingain_s[0], sf_temp);
        set_scalefacs(cod_info, vbrsfmin, sf_temp, max_range_short);
    }
}

/* Long block scalefactors. */
static void long_block_constrain(const vbr_algo *that, const int vbrsf[SFBMAX],
                                 const int vbrsfmin[SFBMAX], int vbrmax)
{
    ct_mp3_gr_info *const cod_info = that->cod_info;
    const ct_mp3_config *const cfg = &that->gfc->cfg;
    const uint8_t *max_rangep;
    int const maxminsfb = that->mingain_l;
    int sfb;
    int maxover0, maxover1, maxover0p, maxover1p, mover, delta = 0;
    int v, v0, v1, v0p, v1p, vm0p = 1, vm1p = 1;
    int const psymax = cod_info->psymax;

    max_rangep = cfg->mode_gr == 2 ? max_range_long : max_range_long_lsf_pretab;

    maxover0 = 0;
    maxover1 = 0;
    maxover0p = 0; /* pretab */
    maxover1p = 0; /* pretab */

    for (sfb = 0; sfb < psymax; ++sfb) {
        v = vbrmax - vbrsf[sfb];
        if (delta < v)
            delta = v;
        v0 = v - 2 * max_range_long[sfb];
        v1 = v - 4 * max_range_long[sfb];
        v0p = v - 2 * (max_rangep[sfb] + ct_mp3_pretab[sfb]);
        v1p = v - 4 * (max_rangep[sfb] + ct_mp3_pretab[sfb]);
        if (maxover0 < v0)
            maxover0 = v0;
        if (maxover1 < v1)
            maxover1 = v1;
        if (maxover0p < v0p)
            maxover0p = v0p;
        if (maxover1p < v1p)
            maxover1p = v1p;
    }
    if (vm0p == 1) {
        int gain = vbrmax - maxover0p;
        if (gain < maxminsfb)
            gain = maxminsfb;
        for (sfb = 0; sfb < psymax; ++sfb) {
            int const a = (gain - vbrsfmin[sfb]) - 2 * ct_mp3_pretab[sfb];
            if (a <= 0) {
                vm0p = 0;
                vm1p = 0;
                break;
            }
        }
    }
    if (vm1p == 1) {
        int gain = vbrmax - maxover1p;
        if (gain < maxminsfb)
            gain = maxminsfb;
        for (sfb = 0; sfb < psymax; ++sfb) {
            int const b = (gain - vbrsfmin[sfb]) - 4 * ct_mp3_pretab[sfb];
            if (b <= 0) {
                vm1p = 0;
                break;
            }
        }
    }
    if (vm0p == 0)
        maxover0p = maxover0;
    if (vm1p == 0)
        maxover1p = maxover1;
    if (cfg->noise_shaping != 2) {
        maxover1 = maxover0;
        maxover1p = maxover0p;
    }
    mover = (maxover0 < maxover0p) ? maxover0 : maxover0p;
    mover = (mover < maxover1) ? mover : maxover1;
    mover = (mover < maxover1p) ? mover : maxover1p;

    if (delta > mover)
        delta = mover;
    vbrmax -= delta;
    if (vbrmax < maxminsfb)
        vbrmax = maxminsfb;
    maxover0 -= mover;
    maxover0p -= mover;
    maxover1 -= mover;
    maxover1p -= mover;

    if (maxover0 == 0) {
        cod_info->scalefac_scale = 0;
        cod_info->preflag = 0;
        max_rangep = max_range_long;
    } else if (maxover0p == 0) {
        cod_info->scalefac_scale = 0;
        cod_info->preflag = 1;
    } else if (maxover1 == 0) {
        cod_info->scalefac_scale = 1;
        cod_info->preflag = 0;
        max_rangep = max_range_long;
    } else if (maxover1p == 0) {
        cod_info->scalefac_scale = 1;
        cod_info->preflag = 1;
    }
    cod_info->global_gain = vbrmax;
    if (cod_info->global_gain < 0)
        cod_info->global_gain = 0;
    else if (cod_info->global_gain > 255)
        cod_info->global_gain = 255;
    {
        int sf_temp[SFBMAX];
        for (sfb = 0; sfb < SFBMAX; ++sfb)
            sf_temp[sfb] = vbrsf[sfb] - vbrmax;
        set_scalefacs(cod_info, vbrsfmin, sf_temp, max_rangep);
    }
}

/* bitcount: the scalefactor bits. LAME stops with an internal error if the
 * scalefactors cannot be coded, which the constraints above rule out. */
static void bitcount(const vbr_algo *that)
{
    (void) ct_mp3_scale_bitcount(that->gfc, that->cod_info);
}

static int quantize_and_count_bits(const vbr_algo *that)
{
    quantize_x34(that);
    that->cod_info->part2_3_length = ct_mp3_noquant_count_bits(that->gfc, that->cod_info, 0);
    return that->cod_info->part2_3_length;
}

static int try_global_stepsize(const vbr_algo *that, const int sfwork[SFBMAX],
                               const int vbrsfmin[SFBMAX], int delta)
{
    float const xrpow_max = that->cod_info->xrpow_max;
    int sftemp[SFBMAX], i, nbits;
    int gain, vbrmax = 0;
    for (i = 0; i < SFBMAX; ++i) {
        gain = sfwork[i] + delta;
        if (gain < vbrsfmin[i])
            gain = vbrsfmin[i];
        if (gain > 255)
            gain = 255;
        if (vbrmax < gain)
            vbrmax = gain;
        sftemp[i] = gain;
    }
    that->alloc(that, sftemp, vbrsfmin, vbrmax);
    bitcount(that);
    nbits = quantize_and_count_bits(that);
    that->cod_info->xrpow_max = xrpow_max;
    return nbits;
}

static void search_global_stepsize_max(const vbr_algo *that, const int sfwork[SFBMAX],
                                       const int vbrsfmin[SFBMAX], int target)
{
    const ct_mp3_gr_info *const cod_info = that->cod_info;
    const int gain = cod_info->global_gain;
    int curr = gain;
    int gain_ok = 1024;
    int nbits;
    int l = gain, r = 512;

    while (l <= r) {
        curr = (l + r) >> 1;
        nbits = try_global_stepsize(that, sfwork, vbrsfmin, curr - gain);
        if (nbits == 0 || (nbits + cod_info->part2_length) < target) {
            r = curr - 1;
            gain_ok = curr;
        } else {
            l = curr + 1;
            if (gain_ok == 1024)
                gain_ok = curr;
        }
    }
    if (gain_ok != curr) {
        curr = gain_ok;
        (void) try_global_stepsize(that, sfwork, vbrsfmin, curr - gain);
    }
}

static int sf_depth(const int sfwork[SFBMAX])
{
    int m = 0;
    unsigned int i;
    for (i = 0; i < SFBMAX; ++i) {
        int const di = 255 - sfwork[i];
        if (m < di)
            m = di;
    }
    return m;
}

static void cut_distribution(const int sfwork[SFBMAX], int sf_out[SFBMAX], int cut)
{
    unsigned int i;
    for (i = 0; i < SFBMAX; ++i) {
        int const x = sfwork[i];
        sf_out[i] = x < cut ? x : cut;
    }
}

static int flatten_distribution(const int sfwork[SFBMAX], int sf_out[SFBMAX], int dm, int k,
                                int p)
{
    unsigned int i;
    int x, sfmax = 0;
    if (dm > 0) {
        for (i = 0; i < SFBMAX; ++i) {
            int const di = p - sfwork[i];
            x = sfwork[i] + (k * di) / dm;
            if (x < 0)
                x = 0;
            else if (x > 255)
                x = 255;
            sf_out[i] = x;
            if (sfmax < x)
                sfmax = x;
        }
    } else {
        for (i = 0; i < SFBMAX; ++i) {
            x = sfwork[i];
            sf_out[i] = x;
            if (sfmax < x)
                sfmax = x;
        }
    }
    return sfmax;
}

static int try_that_one(const vbr_algo *that, const int sftemp[SFBMAX],
                        const int vbrsfmin[SFBMAX], int vbrmax)
{
    float const xrpow_max = that->cod_info->xrpow_max;
    int nbits;
    that->alloc(that, sftemp, vbrsfmin, vbrmax);
    bitcount(that);
    nbits = quantize_and_count_bits(that);
    nbits += that->cod_info->part2_length;
    that->cod_info->xrpow_max = xrpow_max;
    return nbits;
}

/* outOfBitsStrategy: flattens the scalefactor distribution towards the
 * global gain (part 1), then raises the whole of it (part 2), binary
 * searching for the least change that fits target. */
static void out_of_bits_strategy(const vbr_algo *that, const int sfwork[SFBMAX],
                                 const int vbrsfmin[SFBMAX], int target)
{
    int wrk[SFBMAX];
    int const dm = sf_depth(sfwork);
    int const p = that->cod_info->global_gain;
    int nbits;

    /* PART 1 */
    {
        int bi = dm / 2;
        int bi_ok = -1;
        int bu = 0;
        int bo = dm;
        for (;;) {
            int const sfmax = flatten_distribution(sfwork, wrk, dm, bi, p);
            nbits = try_that_one(that, wrk, vbrsfmin, sfmax);
            if (nbits <= target) {
                bi_ok = bi;
                bo = bi - 1;
            } else {
                bu = bi + 1;
            }
            if (bu <= bo)
                bi = (bu + bo) / 2;
            else
                break;
        }
        if (bi_ok >= 0) {
            if (bi != bi_ok) {
                int const sfmax = flatten_distribution(sfwork, wrk, dm, bi_ok, p);
                (void) try_that_one(that, wrk, vbrsfmin, sfmax);
            }
            return;
        }
    }

    /* PART 2: */
    {
        int bi = (255 + p) / 2;
        int bi_ok = -1;
        int bu = p;
        int bo = 255;
        for (;;) {
            int const sfmax = flatten_distribution(sfwork, wrk, dm, dm, bi);
            nbits = try_that_one(that, wrk, vbrsfmin, sfmax);
            if (nbits <= target) {
                bi_ok = bi;
                bo = bi - 1;
            } else {
                bu = bi + 1;
            }
            if (bu <= bo)
                bi = (bu + bo) / 2;
            else
                break;
        }
        if (bi_ok >= 0) {
            if (bi != bi_ok) {
                int const sfmax = flatten_distribution(sfwork, wrk, dm, dm, bi_ok);
                (void) try_that_one(that, wrk, vbrsfmin, sfmax);
            }
            return;
        }
    }

    /* fall back to old code, likely to be never called */
    search_global_stepsize_max(that, wrk, vbrsfmin, target);
}

/* reduce_bit_usage: the final scalefactor storage and region division;
 * returns the granule's bits. */
static int reduce_bit_usage(const ct_mp3_state *gfc, ct_mp3_side_info *l3_side, int gr, int ch)
{
    ct_mp3_gr_info *const cod_info = &l3_side->tt[gr][ch];

    ct_mp3_best_scalefac_store(gfc, gr, ch, l3_side);

    if (gfc->cfg.use_best_huffman == 1)
        ct_mp3_best_huffman_divide(gfc, cod_info);
    return cod_info->part2_3_length + cod_info->part2_length;
}

static void algo_init(vbr_algo *that, const ct_mp3_state *gfc, ct_mp3_side_info *l3_side,
                      const ct_mp3_vbr_work *work, int gr, int ch)
{
    that->find = (gfc->cfg.full_outer_loop < 0) ? guess_scalefac_x34 : find_scalefac_x34;
    that->gfc = gfc;
    that->cod_info = &l3_side->tt[gr][ch];
    that->xr34orig = work->xrpow[gr][ch];
    if (that->cod_info->block_type == SHORT_TYPE)
        that->alloc = short_block_constrain;
    else
        that->alloc = long_block_constrain;
    that->mingain_l = 0;
    that->mingain_s[0] = 0;
    that->mingain_s[1] = 0;
    that->mingain_s[2] = 0;
}

void ct_mp3_vbr_search_frame(const ct_mp3_state *gfc, ct_mp3_side_info *l3_side,
                             ct_mp3_vbr_work *work)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int const ngr = cfg->mode_gr;
    int const nch = cfg->channels_out;
    vbr_algo that_[2][2];
    int gr, ch;

    /* searches scalefactors */
    for (gr = 0; gr < ngr; ++gr) {
        for (ch = 0; ch < nch; ++ch) {
            algo_init(&that_[gr][ch], gfc, l3_side, work, gr, ch);
            if (work->active[gr][ch]) {
                vbr_algo *that = &that_[gr][ch];
                int *sfwork = work->sfwork[gr][ch];
                int *vbrsfmin = work->vbrsfmin[gr][ch];
                int vbrmax;

                vbrmax = block_sf(that, work->l3_xmin[gr][ch], sfwork, vbrsfmin);
                work->mingain_l[gr][ch] = that->mingain_l;
                work->mingain_s[gr][ch][0] = that->mingain_s[0];
                work->mingain_s[gr][ch][1] = that->mingain_s[1];
                work->mingain_s[gr][ch][2] = that->mingain_s[2];
                that->alloc(that, sfwork, vbrsfmin, vbrmax);
                bitcount(that);
            }
            /* else: xr contains no energy, l3_enc stays zero */
        }
    }
    /* encode 'as is' */
    for (gr = 0; gr < ngr; ++gr) {
        for (ch = 0; ch < nch; ++ch) {
            const vbr_algo *that = &that_[gr][ch];
            if (work->active[gr][ch]) {
                memset(&that->cod_info->l3_enc[0], 0, sizeof(that->cod_info->l3_enc));
                (void) quantize_and_count_bits(that);
            }
            work->use_nbits_ch[gr][ch] = reduce_bit_usage(gfc, l3_side, gr, ch);
        }
    }
}

bool ct_mp3_vbr_within_limits(const ct_mp3_config *cfg, const ct_mp3_vbr_work *work)
{
    int gr, ch;

    for (gr = 0; gr < cfg->mode_gr; ++gr) {
        int bits = 0;
        for (ch = 0; ch < cfg->channels_out; ++ch) {
            if (work->use_nbits_ch[gr][ch] > MAX_BITS_PER_CHANNEL)
                return false;
            bits += work->use_nbits_ch[gr][ch];
        }
        if (bits > MAX_BITS_PER_GRANULE)
            return false;
    }
    return true;
}

int ct_mp3_vbr_fit_frame(const ct_mp3_state *gfc, ct_mp3_side_info *l3_side,
                         ct_mp3_vbr_work *work, const int max_bits[2][2])
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int const ngr = cfg->mode_gr;
    int const nch = cfg->channels_out;
    int max_nbits_ch[2][2] = {{0, 0}, {0, 0}};
    int max_nbits_gr[2] = {0, 0};
    int max_nbits_fr = 0;
    int use_nbits_ch[2][2] = {{MAX_BITS_PER_CHANNEL + 1, MAX_BITS_PER_CHANNEL + 1},
                              {MAX_BITS_PER_CHANNEL + 1, MAX_BITS_PER_CHANNEL + 1}};
    int use_nbits_gr[2] = {MAX_BITS_PER_GRANULE + 1, MAX_BITS_PER_GRANULE + 1};
    int use_nbits_fr;
    int gr, ch;
    int ok, sum_fr;

    for (gr = 0; gr < ngr; ++gr) {
        max_nbits_gr[gr] = 0;
        for (ch = 0; ch < nch; ++ch) {
            max_nbits_ch[gr][ch] = max_bits[gr][ch];
            max_nbits_gr[gr] += max_bits[gr][ch];
            max_nbits_fr += max_bits[gr][ch];
        }
    }
    work->refit = 0;
    use_nbits_fr = 0;
    for (gr = 0; gr < ngr; ++gr) {
        use_nbits_gr[gr] = 0;
        for (ch = 0; ch < nch; ++ch) {
            use_nbits_ch[gr][ch] = work->use_nbits_ch[gr][ch];
            use_nbits_gr[gr] += use_nbits_ch[gr][ch];
        }
        use_nbits_fr += use_nbits_gr[gr];
    }

    /* check bit constrains */
    if (use_nbits_fr <= max_nbits_fr) {
        ok = 1;
        for (gr = 0; gr < ngr; ++gr) {
            if (use_nbits_gr[gr] > MAX_BITS_PER_GRANULE) {
                /* violates the rule that every granule has to use no more
                 * bits than MAX_BITS_PER_GRANULE */
                ok = 0;
            }
            for (ch = 0; ch < nch; ++ch) {
                if (use_nbits_ch[gr][ch] > MAX_BITS_PER_CHANNEL) {
                    /* violates the rule that every gr_ch has to use no more
                     * bits than MAX_BITS_PER_CHANNEL (part2_3_length has
                     * only 12 bits) */
                    ok = 0;
                }
            }
        }
        if (ok)
            return use_nbits_fr;
    }

    /* OK, we are in trouble and have to define how many bits are to be
     * used for each granule */
    ok = 1;
    sum_fr = 0;

    for (gr = 0; gr < ngr; ++gr) {
        max_nbits_gr[gr] = 0;
        for (ch = 0; ch < nch; ++ch) {
            if (use_nbits_ch[gr][ch] > MAX_BITS_PER_CHANNEL)
                max_nbits_ch[gr][ch] = MAX_BITS_PER_CHANNEL;
            else
                max_nbits_ch[gr][ch] = use_nbits_ch[gr][ch];
            max_nbits_gr[gr] += max_nbits_ch[gr][ch];
        }
        if (max_nbits_gr[gr] > MAX_BITS_PER_GRANULE) {
            float f[2] = {0.0f, 0.0f}, s = 0.0f;
            for (ch = 0; ch < nch; ++ch) {
                if (max_nbits_ch[gr][ch] > 0) {
                    f[ch] = sqrt(sqrt(max_nbits_ch[gr][ch]));
                    s += f[ch];
                } else {
                    f[ch] = 0;
                }
            }
            for (ch = 0; ch < nch; ++ch) {
                if (s > 0)
                    max_nbits_ch[gr][ch] = MAX_BITS_PER_GRANULE * f[ch] / s;
                else
                    max_nbits_ch[gr][ch] = 0;
            }
            if (nch > 1) {
                if (max_nbits_ch[gr][0] > use_nbits_ch[gr][0] + 32) {
                    max_nbits_ch[gr][1] += max_nbits_ch[gr][0];
                    max_nbits_ch[gr][1] -= use_nbits_ch[gr][0] + 32;
                    max_nbits_ch[gr][0] = use_nbits_ch[gr][0] + 32;
                }
                if (max_nbits_ch[gr][1] > use_nbits_ch[gr][1] + 32) {
                    max_nbits_ch[gr][0] += max_nbits_ch[gr][1];
                    max_nbits_ch[gr][0] -= use_nbits_ch[gr][1] + 32;
                    max_nbits_ch[gr][1] = use_nbits_ch[gr][1] + 32;
                }
                if (max_nbits_ch[gr][0] > MAX_BITS_PER_CHANNEL)
                    max_nbits_ch[gr][0] = MAX_BITS_PER_CHANNEL;
                if (max_nbits_ch[gr][1] > MAX_BITS_PER_CHANNEL)
                    max_nbits_ch[gr][1] = MAX_BITS_PER_CHANNEL;
            }
            max_nbits_gr[gr] = 0;
            for (ch = 0; ch < nch; ++ch)
                max_nbits_gr[gr] += max_nbits_ch[gr][ch];
        }
        sum_fr += max_nbits_gr[gr];
    }
    if (sum_fr > max_nbits_fr) {
        {
            float f[2] = {0.0f, 0.0f}, s = 0.0f;
            for (gr = 0; gr < ngr; ++gr) {
                if (max_nbits_gr[gr] > 0) {
                    f[gr] = sqrt(max_nbits_gr[gr]);
                    s += f[gr];
                } else {
                    f[gr] = 0;
                }
            }
            for (gr = 0; gr < ngr; ++gr) {
                if (s > 0)
                    max_nbits_gr[gr] = max_nbits_fr * f[gr] / s;
                else
                    max_nbits_gr[gr] = 0;
            }
        }
        if (ngr > 1) {
            if (max_nbits_gr[0] > use_nbits_gr[0] + 125) {
                max_nbits_gr[1] += max_nbits_gr[0];
                max_nbits_gr[1] -= use_nbits_gr[0] + 125;
                max_nbits_gr[0] = use_nbits_gr[0] + 125;
            }
            if (max_nbits_gr[1] > use_nbits_gr[1] + 125) {
                max_nbits_gr[0] += max_nbits_gr[1];
                max_nbits_gr[0] -= use_nbits_gr[1] + 125;
                max_nbits_gr[1] = use_nbits_gr[1] + 125;
            }
            for (gr = 0; gr < ngr; ++gr) {
                if (max_nbits_gr[gr] > MAX_BITS_PER_GRANULE)
                    max_nbits_gr[gr] = MAX_BITS_PER_GRANULE;
            }
        }
        for (gr = 0; gr < ngr; ++gr) {
            float f[2] = {0.0f, 0.0f}, s = 0.0f;
            for (ch = 0; ch < nch; ++ch) {
                if (max_nbits_ch[gr][ch] > 0) {
                    f[ch] = sqrt(max_nbits_ch[gr][ch]);
                    s += f[ch];
                } else {
                    f[ch] = 0;
                }
            }
            for (ch = 0; ch < nch; ++ch) {
                if (s > 0)
                    max_nbits_ch[gr][ch] = max_nbits_gr[gr] * f[ch] / s;
                else
                    max_nbits_ch[gr][ch] = 0;
            }
            if (nch > 1) {
                if (max_nbits_ch[gr][0] > use_nbits_ch[gr][0] + 32) {
                    max_nbits_ch[gr][1] += max_nbits_ch[gr][0];
                    max_nbits_ch[gr][1] -= use_nbits_ch[gr][0] + 32;
                    max_nbits_ch[gr][0] = use_nbits_ch[gr][0] + 32;
                }
                if (max_nbits_ch[gr][1] > use_nbits_ch[gr][1] + 32) {
                    max_nbits_ch[gr][0] += max_nbits_ch[gr][1];
                    max_nbits_ch[gr][0] -= use_nbits_ch[gr][1] + 32;
                    max_nbits_ch[gr][1] = use_nbits_ch[gr][1] + 32;
                }
                for (ch = 0; ch < nch; ++ch) {
                    if (max_nbits_ch[gr][ch] > MAX_BITS_PER_CHANNEL)
                        max_nbits_ch[gr][ch] = MAX_BITS_PER_CHANNEL;
                }
            }
        }
    }
    /* sanity check */
    sum_fr = 0;
    for (gr = 0; gr < ngr; ++gr) {
        int sum_gr = 0;
        for (ch = 0; ch < nch; ++ch) {
            sum_gr += max_nbits_ch[gr][ch];
            if (max_nbits_ch[gr][ch] > MAX_BITS_PER_CHANNEL)
                ok = 0;
        }
        sum_fr += sum_gr;
        if (sum_gr > MAX_BITS_PER_GRANULE)
            ok = 0;
    }
    if (sum_fr > max_nbits_fr)
        ok = 0;
    if (!ok) {
        /* we must have done something wrong, fallback to 'on_pe' based
         * constrain */
        for (gr = 0; gr < ngr; ++gr) {
            for (ch = 0; ch < nch; ++ch)
                max_nbits_ch[gr][ch] = max_bits[gr][ch];
        }
    }

    /* we already called the 'best_scalefac_store' function, so we need to
     * reset some variables before we can do it again. */
    for (ch = 0; ch < nch; ++ch) {
        l3_side->scfsi[ch][0] = 0;
        l3_side->scfsi[ch][1] = 0;
        l3_side->scfsi[ch][2] = 0;
        l3_side->scfsi[ch][3] = 0;
    }
    for (gr = 0; gr < ngr; ++gr) {
        for (ch = 0; ch < nch; ++ch)
            l3_side->tt[gr][ch].scalefac_compress = 0;
    }

    /* alter our encoded data, until it fits into the target bitrate */
    work->refit = 1;
    use_nbits_fr = 0;
    for (gr = 0; gr < ngr; ++gr) {
        use_nbits_gr[gr] = 0;
        for (ch = 0; ch < nch; ++ch) {
            vbr_algo that;
            algo_init(&that, gfc, l3_side, work, gr, ch);
            use_nbits_ch[gr][ch] = 0;
            if (max_bits[gr][ch] > 0) {
                int *sfwork = work->sfwork[gr][ch];
                const int *vbrsfmin = work->vbrsfmin[gr][ch];
                /* block_sf's minimum gains of the search */
                that.mingain_l = work->mingain_l[gr][ch];
                that.mingain_s[0] = work->mingain_s[gr][ch][0];
                that.mingain_s[1] = work->mingain_s[gr][ch][1];
                that.mingain_s[2] = work->mingain_s[gr][ch][2];
                cut_distribution(sfwork, sfwork, that.cod_info->global_gain);
                out_of_bits_strategy(&that, sfwork, vbrsfmin, max_nbits_ch[gr][ch]);
            }
            use_nbits_ch[gr][ch] = reduce_bit_usage(gfc, l3_side, gr, ch);
            use_nbits_gr[gr] += use_nbits_ch[gr][ch];
        }
        use_nbits_fr += use_nbits_gr[gr];
    }

    /* LAME stops with an internal error if this does not fit
     * max_nbits_fr, which should not happen. */
    return use_nbits_fr;
}
