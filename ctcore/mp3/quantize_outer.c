/*
 * The granule search of CBR and ABR: init_outer_loop (fresh side info, the
 * short block reordering), init_xrpow (|xr|^3/4), the binary step size
 * search, and outer_loop with its noise shaping (amplify distorted bands,
 * scalefac_scale, subblock gain), which keeps the best quantization within
 * the target bits.
 *
 * init_outer_loop and init_xrpow depend on the granule alone. outer_loop
 * depends on the target bits (from the reservoir) and, through the binary
 * search's start (sv_qnt.OldValue, sv_qnt.CurrentStep), on the previous
 * granule of the channel. It reads the target bits only to compare bit
 * counts with them: a run can record the targets for which every
 * comparison comes out as it did (ct_mp3_targ_range), the targets that
 * give its result.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/quantize.c (LGPL-2.0-or-later, the LAME
 * project).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "quantize.h"
#include "tables.h"

/* Fresh side info for the granule; short blocks are reordered band by band
 * (window 0, 1, 2 of each band in a row) for the encoding below. */
void ct_mp3_init_outer_loop(const ct_mp3_state *gfc, ct_mp3_gr_info *const cod_info)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int sfb, j;

    cod_info->part2_3_length = 0;
    cod_info->big_values = 0;
    cod_info->count1 = 0;
    cod_info->global_gain = 210;
    cod_info->scalefac_compress = 0;
    /* mixed_block_flag, block_type were set by the psychoacoustic stage */
    cod_info->table_select[0] = 0;
    cod_info->table_select[1] = 0;
    cod_info->table_select[2] = 0;
    cod_info->subblock_gain[0] = 0;
    cod_info->subblock_gain[1] = 0;
    cod_info->subblock_gain[2] = 0;
    cod_info->subblock_gain[3] = 0; /* this one is always 0 */
    cod_info->region0_count = 0;
    cod_info->region1_count = 0;
    cod_info->preflag = 0;
    cod_info->scalefac_scale = 0;
    cod_info->count1table_select = 0;
    cod_info->part2_length = 0;
    if (cfg->samplerate_out <= 8000) {
        cod_info->sfb_lmax = 17;
        cod_info->sfb_smin = 9;
        cod_info->psy_lmax = 17;
    } else {
        cod_info->sfb_lmax = SBPSY_l;
        cod_info->sfb_smin = SBPSY_s;
        cod_info->psy_lmax = gfc->sv_qnt.sfb21_extra ? SBMAX_l : SBPSY_l;
    }
    cod_info->psymax = cod_info->psy_lmax;
    cod_info->sfbmax = cod_info->sfb_lmax;
    cod_info->sfbdivide = 11;
    for (sfb = 0; sfb < SBMAX_l; sfb++) {
        cod_info->width[sfb] = gfc->scalefac_band.l[sfb + 1] - gfc->scalefac_band.l[sfb];
        cod_info->window[sfb] = 3; /* which is always 0. */
    }
    if (cod_info->block_type == SHORT_TYPE) {
        float ixwork[576];
        float *ix;

        cod_info->sfb_smin = 0;
        cod_info->sfb_lmax = 0;
        if (cod_info->mixed_block_flag) {
            /* MPEG-1: sfbs 0-7 long block, 3-12 short blocks;
             * MPEG-2(.5): sfbs 0-5 long block, 3-12 short blocks */
            cod_info->sfb_smin = 3;
            cod_info->sfb_lmax = cfg->mode_gr * 2 + 4;
        }
        if (cfg->samplerate_out <= 8000) {
            cod_info->psymax = cod_info->sfb_lmax + 3 * (9 - cod_info->sfb_smin);
            cod_info->sfbmax = cod_info->sfb_lmax + 3 * (9 - cod_info->sfb_smin);
        } else {
            cod_info->psymax = cod_info->sfb_lmax
                + 3 * ((gfc->sv_qnt.sfb21_extra ? SBMAX_s : SBPSY_s) - cod_info->sfb_smin);
            cod_info->sfbmax = cod_info->sfb_lmax + 3 * (SBPSY_s - cod_info->sfb_smin);
        }
        cod_info->sfbdivide = cod_info->sfbmax - 18;
        cod_info->psy_lmax = cod_info->sfb_lmax;
        /* re-order the short blocks, for more efficient encoding below
         * (Takehiro Tominaga) */
        ix = &cod_info->xr[gfc->scalefac_band.l[cod_info->sfb_lmax]];
        memcpy(ixwork, cod_info->xr, 576 * sizeof(float));
        for (sfb = cod_info->sfb_smin; sfb < SBMAX_s; sfb++) {
            int const start = gfc->scalefac_band.s[sfb];
            int const end = gfc->scalefac_band.s[sfb + 1];
            int window, l;
            for (window = 0; window < 3; window++) {
                for (l = start; l < end; l++)
                    *ix++ = ixwork[3 * l + window];
            }
        }

        j = cod_info->sfb_lmax;
        for (sfb = cod_info->sfb_smin; sfb < SBMAX_s; sfb++) {
            cod_info->width[j] = cod_info->width[j + 1] = cod_info->width[j + 2]
                = gfc->scalefac_band.s[sfb + 1] - gfc->scalefac_band.s[sfb];
            cod_info->window[j] = 0;
            cod_info->window[j + 1] = 1;
            cod_info->window[j + 2] = 2;
            j += 3;
        }
    }

    cod_info->count1bits = 0;
    cod_info->sfb_partition_table = ct_mp3_nr_of_sfb_block[0][0];
    cod_info->slen[0] = 0;
    cod_info->slen[1] = 0;
    cod_info->slen[2] = 0;
    cod_info->slen[3] = 0;

    cod_info->max_nonzero_coeff = 575;

    /* fresh scalefactors are all zero */
    memset(cod_info->scalefac, 0, sizeof(cod_info->scalefac));
}

/* xrpow = |xr|^3/4 up to max_nonzero_coeff, and its maximum. Returns 1 if
 * there is energy to quantize, else 0 (and l3_enc is zero). LAME also
 * resets sv_qnt.pseudohalf here, which only outer_loop reads: that is done
 * in ct_mp3_outer_loop_start, so that this stays a function of the
 * granule. */
int ct_mp3_init_xrpow(const ct_mp3_quantize_dsp *dsp, ct_mp3_gr_info *const cod_info,
                      float xrpow[576])
{
    float sum = 0;
    int const upper = cod_info->max_nonzero_coeff;

    cod_info->xrpow_max = 0;

    /* check if there is some energy we have to quantize and calculate
     * xrpow matching our fresh scalefactors */
    memset(&(xrpow[upper]), 0, (576 - upper) * sizeof(xrpow[0]));

    /* init_xrpow_core_c (quantize_dsp.h: init_xrpow) */
    cod_info->xrpow_max =
        dsp->init_xrpow(cod_info->xr, xrpow, upper + 1, &sum, cod_info->xrpow_max);

    if (sum > (float) 1E-20)
        return 1;

    memset(&cod_info->l3_enc[0], 0, sizeof(int) * 576);
    return 0;
}

/* The comparisons with the target bits: need is the target at which a
 * bit count meets its budget exactly. They narrow range, where there is
 * one, to the targets that give the same answer (targ_bits is always in
 * it). */

/* need > targ_bits: the bits exceed the budget. */
static int target_exceeded(ct_mp3_targ_range *range, int need, int targ_bits)
{
    if (need > targ_bits) {
        if (range != NULL && range->hi > need - 1)
            range->hi = need - 1;
        return 1;
    }
    if (range != NULL && range->lo < need)
        range->lo = need;
    return 0;
}

/* The sign of need - targ_bits. */
static int target_order(ct_mp3_targ_range *range, int need, int targ_bits)
{
    if (need > targ_bits)
        return target_exceeded(range, need, targ_bits);
    if (need < targ_bits) {
        (void) target_exceeded(range, need + 1, targ_bits);
        return -1;
    }
    if (range != NULL)
        range->lo = range->hi = need;
    return 0;
}

typedef enum {
    BINSEARCH_NONE,
    BINSEARCH_UP,
    BINSEARCH_DOWN
} binsearch_direction;

/* bin_search_StepSize: the global gain whose bit count is closest to (at
 * most) desired_rate, the target less part2_length, by a binary search
 * from the previous granule's gain of this channel. */
static int bin_search_step_size(ct_mp3_state *const gfc, ct_mp3_gr_info *const cod_info,
                                const int targ_bits, const int ch, const float xrpow[576],
                                ct_mp3_targ_range *range)
{
    int nBits, order;
    int CurrentStep = gfc->sv_qnt.CurrentStep[ch];
    int flag_GoneOver = 0;
    int const start = gfc->sv_qnt.OldValue[ch];
    int const part2 = cod_info->part2_length;
    binsearch_direction Direction = BINSEARCH_NONE;
    cod_info->global_gain = start;

    for (;;) {
        int step;
        nBits = ct_mp3_count_bits(gfc, xrpow, cod_info, 0);

        if (CurrentStep == 1)
            break; /* nothing to adjust anymore */
        order = target_order(range, nBits + part2, targ_bits);
        if (order == 0)
            break;

        if (order > 0) {
            /* increase Quantize_StepSize */
            if (Direction == BINSEARCH_DOWN)
                flag_GoneOver = 1;

            if (flag_GoneOver)
                CurrentStep /= 2;
            Direction = BINSEARCH_UP;
            step = CurrentStep;
        } else {
            /* decrease Quantize_StepSize */
            if (Direction == BINSEARCH_UP)
                flag_GoneOver = 1;

            if (flag_GoneOver)
                CurrentStep /= 2;
            Direction = BINSEARCH_DOWN;
            step = -CurrentStep;
        }
        cod_info->global_gain += step;
        if (cod_info->global_gain < 0) {
            cod_info->global_gain = 0;
            flag_GoneOver = 1;
        }
        if (cod_info->global_gain > 255) {
            cod_info->global_gain = 255;
            flag_GoneOver = 1;
        }
    }

    while (target_exceeded(range, nBits + part2, targ_bits) && cod_info->global_gain < 255) {
        cod_info->global_gain++;
        nBits = ct_mp3_count_bits(gfc, xrpow, cod_info, 0);
    }
    gfc->sv_qnt.CurrentStep[ch] = (start - cod_info->global_gain >= 4) ? 4 : 2;
    gfc->sv_qnt.OldValue[ch] = cod_info->global_gain;
    cod_info->part2_3_length = nBits;
    return nBits;
}

/* loop_break: 0 if there is a scalefactor band that has not been
 * amplified, else 1. */
static int loop_break(const ct_mp3_gr_info *const cod_info)
{
    int sfb;

    for (sfb = 0; sfb < cod_info->sfbmax; sfb++)
        if (cod_info->scalefac[sfb] + cod_info->subblock_gain[cod_info->window[sfb]] == 0)
            return 0;

    return 1;
}

/* quant_compare, mode 9 (the only one our presets select): fewer and less
 * distorted bands first, then fewer bits. */
static int quant_compare(const ct_mp3_noise_result *const best,
                         const ct_mp3_noise_result *const calc)
{
    int better;

    if (best->over_count > 0) {
        /* there are distorted sfb */
        better = calc->over_SSD <= best->over_SSD;
        if (calc->over_SSD == best->over_SSD)
            better = calc->bits < best->bits;
    } else {
        /* no distorted sfb */
        better = ((calc->max_noise < 0)
                  && ((calc->max_noise * 10 + calc->bits) <= (best->max_noise * 10 + best->bits)));
    }

    if (best->over_count == 0) {
        /* If no distorted bands, only use this quantization if it is
         * better, and if it uses less bits. */
        better = better && calc->bits < best->bits;
    }

    return better;
}

/*
 * amp_scalefac_bands: amplify the scalefactor bands that violate the
 * masking threshold (ISO 11172-3 C.1.5.4.3.5). distort[] = noise/masking.
 * noise_shaping_amp 0: all bands with distort[] > 1; 1: all bands with
 * distort[] >= max_dist^0.5; 2: the first band with distort[] >= max_dist.
 * For 0 and 1, if max_dist < 1, all bands with distort[] >= 0.95*max_dist.
 */
static void amp_scalefac_bands(ct_mp3_state *gfc, ct_mp3_gr_info *const cod_info,
                               const float *distort, float xrpow[576])
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int j, sfb;
    float ifqstep34, trigger;

    if (cod_info->scalefac_scale == 0)
        ifqstep34 = 1.29683955465100964055; /* 2**(.75*.5) */
    else
        ifqstep34 = 1.68179283050742922612; /* 2**(.75*1) */

    /* compute maximum value of distort[]: over the even and the odd bands
     * at once, the same largest value (distort[] holds no NaN), half the
     * chain of comparisons */
    {
        float even = 0, odd = 0;
        for (sfb = 0; sfb + 1 < cod_info->sfbmax; sfb += 2) {
            if (even < distort[sfb])
                even = distort[sfb];
            if (odd < distort[sfb + 1])
                odd = distort[sfb + 1];
        }
        if (sfb < cod_info->sfbmax && even < distort[sfb])
            even = distort[sfb];
        trigger = even < odd ? odd : even;
    }

    switch (cfg->noise_shaping_amp) {
    case 2:
        /* amplify exactly 1 band */
        break;

    case 1:
        /* amplify bands within 50% of max (on db scale). LAME's
         * pow(trigger, .5) in double, rounded to float, is sqrtf(trigger)
         * for every float above 1 (checkasm: mp3_amp_trigger). */
        if (trigger > 1.0)
            trigger = sqrtf(trigger);
        else
            trigger *= .95;
        break;

    case 0:
    default:
        /* ISO algorithm. amplify all bands with distort>1 */
        if (trigger > 1.0)
            trigger = 1.0;
        else
            trigger *= .95;
        break;
    }

    j = 0;
    for (sfb = 0; sfb < cod_info->sfbmax; sfb++) {
        int const width = cod_info->width[sfb];
        j += width;
        if (distort[sfb] < trigger)
            continue;

        if (gfc->sv_qnt.substep_shaping & 2) {
            gfc->sv_qnt.pseudohalf[sfb] = !gfc->sv_qnt.pseudohalf[sfb];
            if (!gfc->sv_qnt.pseudohalf[sfb] && cfg->noise_shaping_amp == 2)
                return;
        }
        cod_info->scalefac[sfb]++;
        cod_info->xrpow_max = gfc->dsp.quantize.amp_xrpow(&xrpow[j - width], width, ifqstep34,
                                                          cod_info->xrpow_max);

        if (cfg->noise_shaping_amp == 2)
            return;
    }
}

/* inc_scalefac_scale: turns on scalefac_scale and halves the scalefactors
 * (preflag folded in). */
static void inc_scalefac_scale(const ct_mp3_quantize_dsp *dsp, ct_mp3_gr_info *const cod_info,
                               float xrpow[576])
{
    int j, sfb;
    const float ifqstep34 = 1.29683955465100964055;

    j = 0;
    for (sfb = 0; sfb < cod_info->sfbmax; sfb++) {
        int const width = cod_info->width[sfb];
        int s = cod_info->scalefac[sfb];
        if (cod_info->preflag)
            s += ct_mp3_pretab[sfb];
        j += width;
        if (s & 1) {
            s++;
            cod_info->xrpow_max =
                dsp->amp_xrpow(&xrpow[j - width], width, ifqstep34, cod_info->xrpow_max);
        }
        cod_info->scalefac[sfb] = s >> 1;
    }
    cod_info->preflag = 0;
    cod_info->scalefac_scale = 1;
}

/* inc_subblock_gain: raises the subblock gain of the windows whose
 * scalefactors are too large and lowers their scalefactors. Returns 1 if
 * that cannot help. */
static int inc_subblock_gain(const ct_mp3_state *const gfc, ct_mp3_gr_info *const cod_info,
                             float xrpow[576])
{
    const float *const ipow20 = gfc->qtab.ipow20;
    int sfb, window;
    int *const scalefac = cod_info->scalefac;

    /* subblock_gain can't do anything in the long block region */
    for (sfb = 0; sfb < cod_info->sfb_lmax; sfb++) {
        if (scalefac[sfb] >= 16)
            return 1;
    }

    for (window = 0; window < 3; window++) {
        int s1, s2, j;
        s1 = s2 = 0;

        for (sfb = cod_info->sfb_lmax + window; sfb < cod_info->sfbdivide; sfb += 3) {
            if (s1 < scalefac[sfb])
                s1 = scalefac[sfb];
        }
        for (; sfb < cod_info->sfbmax; sfb += 3) {
            if (s2 < scalefac[sfb])
                s2 = scalefac[sfb];
        }

        if (s1 < 16 && s2 < 8)
            continue;

        if (cod_info->subblock_gain[window] >= 7)
            return 1;

        /* even though there is no scalefactor for sfb12, subblock gain
         * affects upper frequencies too, that's why we have to go up to
         * SBMAX_s */
        cod_info->subblock_gain[window]++;
        j = gfc->scalefac_band.l[cod_info->sfb_lmax];
        for (sfb = cod_info->sfb_lmax + window; sfb < cod_info->sfbmax; sfb += 3) {
            float amp;
            int const width = cod_info->width[sfb];
            int s = scalefac[sfb];
            s = s - (4 >> cod_info->scalefac_scale);
            if (s >= 0) {
                scalefac[sfb] = s;
                j += width * 3;
                continue;
            }

            scalefac[sfb] = 0;
            {
                /* LAME: 210 + (s << (scalefac_scale + 1)), s < 0 */
                int const gain = 210 + s * (1 << (cod_info->scalefac_scale + 1));
                amp = ipow20[gain];
            }
            j += width * (window + 1);
            cod_info->xrpow_max =
                gfc->dsp.quantize.amp_xrpow(&xrpow[j - width], width, amp, cod_info->xrpow_max);
            j += width * (3 - window - 1);
        }

        {
            float const amp = ipow20[202];
            j += cod_info->width[sfb] * (window + 1);
            cod_info->xrpow_max = gfc->dsp.quantize.amp_xrpow(&xrpow[j - cod_info->width[sfb]],
                                                              cod_info->width[sfb], amp,
                                                              cod_info->xrpow_max);
        }
    }
    return 0;
}

/*
 * balance_noise: amplifies scalefactor bands; returns 0 if all are
 * amplified already or the scalefactors cannot be coded, after trying
 * scalefac_scale and (short blocks) subblock gain.
 */
static int balance_noise(ct_mp3_state *gfc, ct_mp3_gr_info *const cod_info,
                         const float *distort, float xrpow[576])
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int status;

    amp_scalefac_bands(gfc, cod_info, distort, xrpow);

    /* check to make sure we have not amplified too much: loop_break
     * returns 0 if there is an unamplified scalefac, scale_bitcount
     * returns 0 if no scalefactors are too large */
    status = loop_break(cod_info);

    if (status)
        return 0; /* all bands amplified */

    /* not all scalefactors have been amplified. so these scalefacs are
     * possibly valid. encode them: */
    status = ct_mp3_scale_bitcount(gfc, cod_info);

    if (!status)
        return 1; /* amplified some bands not exceeding limits */

    /* some scalefactors are too large. lets try setting scalefac_scale=1 */
    if (cfg->noise_shaping > 1) {
        memset(&gfc->sv_qnt.pseudohalf[0], 0, sizeof(gfc->sv_qnt.pseudohalf));
        if (!cod_info->scalefac_scale) {
            inc_scalefac_scale(&gfc->dsp.quantize, cod_info, xrpow);
            status = 0;
        } else {
            if (cod_info->block_type == SHORT_TYPE && cfg->subblock_gain > 0) {
                status = inc_subblock_gain(gfc, cod_info, xrpow) || loop_break(cod_info);
            }
        }
    }

    if (!status)
        status = ct_mp3_scale_bitcount(gfc, cod_info);
    return !status;
}

/*
 * outer_loop's start: substep shaping's "half" bands and the binary step
 * size search, from where the channel's previous granule ended
 * (sv_qnt.OldValue, sv_qnt.CurrentStep). What the shaping below then does
 * depends only on the granule as this leaves it (its global gain decides
 * the quantization), xrpow, l3_xmin and targ_bits.
 */
void ct_mp3_outer_loop_start(ct_mp3_state *gfc, ct_mp3_gr_info *const cod_info,
                             const float xrpow[576], const int ch, const int targ_bits,
                             ct_mp3_targ_range *range)
{
    int i;

    /* init_xrpow's part: substep shaping starts with all bands "half" */
    for (i = 0; i < cod_info->psymax; i++)
        gfc->sv_qnt.pseudohalf[i] = (gfc->sv_qnt.substep_shaping & 2) ? 1 : 0;

    (void) bin_search_step_size(gfc, cod_info, targ_bits, ch, xrpow, range);
}

/* *cod_info = cod_info_w of outer_loop, but for the lines xr, which the
 * loop never changes (a third of the copy). */
static void keep_quantization(ct_mp3_gr_info *best, const ct_mp3_gr_info *tried)
{
    _Static_assert(offsetof(ct_mp3_gr_info, l3_enc) == sizeof(((ct_mp3_gr_info *) 0)->xr),
                   "xr is all that comes before l3_enc");
    memcpy(best->l3_enc, tried->l3_enc,
           sizeof(*best) - offsetof(ct_mp3_gr_info, l3_enc));
}

/*
 * outer_loop after its start: controls the masking conditions of all
 * scalefactor bands: from the binary search's global gain on, amplifies
 * distorted bands and raises the global gain until the bits fit, keeping
 * the best quantization seen (quant_compare) rather than the last one.
 */
int ct_mp3_outer_loop_shape(ct_mp3_state *gfc, ct_mp3_gr_info *const cod_info,
                            const float *const l3_xmin, float xrpow[576],
                            const int targ_bits, ct_mp3_targ_range *range)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_gr_info cod_info_w;
    float distort[SFBMAX];
    ct_mp3_noise_result best_noise_info;
    int better;
    int age;
    ct_mp3_noise_data prev_noise;
    int best_part2_3_length = 9999999;
    int counted_with;

    if (!cfg->noise_shaping)
        /* fast mode, no noise shaping, we are ready */
        return 100; /* default noise_info.over_count */

    memset(&prev_noise, 0, sizeof(ct_mp3_noise_data));

    /* compute the distortion in this quantization; coefficients and
     * thresholds both l/r (or both mid/side) */
    (void) ct_mp3_calc_noise(&gfc->qtab, cod_info, l3_xmin, distort, &best_noise_info,
                             &prev_noise);
    best_noise_info.bits = cod_info->part2_3_length;

    cod_info_w = *cod_info;
    age = 0;

    do {
        ct_mp3_noise_result noise_info;
        int search_limit;
        int maxggain = 255;

        /* When quantization with no distorted bands is found, allow up to
         * X new unsuccessful tries in serial. */
        if (gfc->sv_qnt.substep_shaping & 2)
            search_limit = 20;
        else
            search_limit = 3;

        /* (LAME's stop on a distorted sfb21 needs sfb21_extra, which CBR
         * and ABR never have) */

        /* try a new scalefactor combination on cod_info_w */
        if (balance_noise(gfc, &cod_info_w, distort, xrpow) == 0)
            break;
        if (cod_info_w.scalefac_scale)
            maxggain = 254;

        /* inner_loop starts with the initial quantization step computed
         * above and slowly increases until the bits < huff_bits, the
         * target less part2_length: none left, huff_bits <= 0, stops. */
        if (target_exceeded(range, cod_info_w.part2_length + 1, targ_bits))
            break;

        /* increase quantizer stepsize until needed bits are below maximum */
        for (;;) {
            counted_with = prev_noise.sfb_count1;
            cod_info_w.part2_3_length = ct_mp3_count_bits(gfc, xrpow, &cod_info_w, &prev_noise);
            if (!target_exceeded(range, cod_info_w.part2_3_length + cod_info_w.part2_length,
                                 targ_bits)
                || cod_info_w.global_gain > maxggain)
                break;
            cod_info_w.global_gain++;
        }

        if (cod_info_w.global_gain > maxggain)
            break;

        if (best_noise_info.over_count == 0) {
            /* LAME counts the bits at this gain once more first. That
             * count quantizes as the one just made (the same gain,
             * scalefactors and prev_noise) unless the latter moved
             * prev_noise.sfb_count1, which picks the bands quantized as
             * 0/1 only: it is made only then. */
            if (prev_noise.sfb_count1 != counted_with)
                cod_info_w.part2_3_length = ct_mp3_count_bits(gfc, xrpow, &cod_info_w,
                                                              &prev_noise);
            while (cod_info_w.part2_3_length > best_part2_3_length
                   && cod_info_w.global_gain <= maxggain) {
                cod_info_w.global_gain++;
                cod_info_w.part2_3_length = ct_mp3_count_bits(gfc, xrpow, &cod_info_w,
                                                              &prev_noise);
            }

            if (cod_info_w.global_gain > maxggain)
                break;
        }

        /* compute the distortion in this quantization */
        (void) ct_mp3_calc_noise(&gfc->qtab, &cod_info_w, l3_xmin, distort, &noise_info,
                                 &prev_noise);
        noise_info.bits = cod_info_w.part2_3_length;

        /* check if this quantization is better than our saved quantization */
        better = quant_compare(&best_noise_info, &noise_info);

        /* save data so we can restore this quantization later */
        if (better) {
            best_part2_3_length = cod_info->part2_3_length;
            best_noise_info = noise_info;
            keep_quantization(cod_info, &cod_info_w);
            age = 0;
        } else {
            /* early stop? */
            if (cfg->full_outer_loop == 0) {
                if (++age > search_limit && best_noise_info.over_count == 0)
                    break;
            }
        }
    } while ((cod_info_w.global_gain + cod_info_w.scalefac_scale) < 255);

    return best_noise_info.over_count;
}
