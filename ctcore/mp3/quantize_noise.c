/*
 * Allowed distortion and quantization noise of a granule: calc_xmin (the
 * masking threshold per scalefactor band from the psychoacoustic ratio and
 * the ATH), athAdjust, and calc_noise (noise over threshold per band, in
 * the fast log10 domain).
 *
 * Functions of the granule and the (fixed after init) ATH, band factors and
 * tables; ATH.adjust_factor is the psychoacoustic stage's value for the
 * frame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/quantize_pvt.c (LGPL-2.0-or-later, the
 * LAME project).
 */
#include <float.h>
#include <math.h>

#include "quantize.h"
#include "tables.h"
#include "util.h"

/* athAdjust: lowers the ATH by the peak volume's factor a, keeping the
 * noise floor; affects the higher frequencies more than the lower ones. */
static float ath_adjust(float a, float x, float athFloor, float ATHfixpoint)
{
    float const o = 90.30873362f;
    float const p = (ATHfixpoint < 1.f) ? 94.82444863f : ATHfixpoint;
    float u = ct_mp3_fast_log10_x(x, 10.0f);
    float const v = a * a;
    float w = 0.0f;
    u -= athFloor; /* undo scaling */
    if (v > 1E-20f)
        w = 1.f + ct_mp3_fast_log10_x(v, 10.0f / o);
    if (w < 0)
        w = 0.f;
    u *= w;
    u += athFloor + o - p; /* redo scaling */

    return powf(10.f, 0.1f * u);
}

/*
 * The allowed distortion of each scalefactor band: xmin(sb) = ratio(sb) *
 * en(sb) / bw(sb), at least the ATH. Sets max_nonzero_coeff and
 * energy_above_cutoff; returns the number of bands with energy above the
 * ATH.
 */
int ct_mp3_calc_xmin(const ct_mp3_state *gfc, float ath_adjust_factor,
                     const ct_mp3_psy_ratio *const ratio, ct_mp3_gr_info *const cod_info,
                     float *pxmin)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int sfb, gsfb, j = 0, ath_over = 0, k;
    const ct_mp3_ath *const ATH = &gfc->ATH;
    const float *const xr = cod_info->xr;
    int max_nonzero;

    for (gsfb = 0; gsfb < cod_info->psy_lmax; gsfb++) {
        float en0, xmin;
        float rh1, rh2, rh3;
        int width, l;

        xmin = ath_adjust(ath_adjust_factor, ATH->l[gsfb], ATH->floor, cfg->ATHfixpoint);
        xmin *= gfc->sv_qnt.longfact[gsfb];

        width = cod_info->width[gsfb];
        rh1 = xmin / width;
        rh2 = DBL_EPSILON;
        en0 = 0.0;
        for (l = 0; l < width; ++l) {
            float const xa = xr[j++];
            float const x2 = xa * xa;
            en0 += x2;
            rh2 += (x2 < rh1) ? x2 : rh1;
        }
        if (en0 > xmin)
            ath_over++;

        if (en0 < xmin)
            rh3 = en0;
        else if (rh2 < xmin)
            rh3 = xmin;
        else
            rh3 = rh2;
        xmin = rh3;
        {
            float const e = ratio->en.l[gsfb];
            if (e > 1e-12f) {
                float x;
                x = en0 * ratio->thm.l[gsfb] / e;
                x *= gfc->sv_qnt.longfact[gsfb];
                if (xmin < x)
                    xmin = x;
            }
        }
        xmin = (xmin > DBL_EPSILON) ? xmin : DBL_EPSILON;
        cod_info->energy_above_cutoff[gsfb] = (en0 > xmin + 1e-14f) ? 1 : 0;
        *pxmin++ = xmin;
    }

    /* the highest nonzero coefficient */
    max_nonzero = 0;
    for (k = 575; k > 0; --k) {
        if (fabs(xr[k]) > 1e-12f) {
            max_nonzero = k;
            break;
        }
    }
    if (cod_info->block_type != SHORT_TYPE) {
        max_nonzero |= 1; /* only odd numbers */
    } else {
        max_nonzero /= 6; /* 3 short blocks */
        max_nonzero *= 6;
        max_nonzero += 5;
    }

    if (gfc->sv_qnt.sfb21_extra == 0 && cfg->samplerate_out < 44000) {
        int const sfb_l = (cfg->samplerate_out <= 8000) ? 17 : 21;
        int const sfb_s = (cfg->samplerate_out <= 8000) ? 9 : 12;
        int limit;
        if (cod_info->block_type != SHORT_TYPE)
            limit = gfc->scalefac_band.l[sfb_l] - 1;
        else
            limit = 3 * gfc->scalefac_band.s[sfb_s] - 1;
        if (max_nonzero > limit)
            max_nonzero = limit;
    }
    cod_info->max_nonzero_coeff = max_nonzero;

    for (sfb = cod_info->sfb_smin; gsfb < cod_info->psymax; sfb++, gsfb += 3) {
        int width, b, l;
        float tmpATH;

        tmpATH = ath_adjust(ath_adjust_factor, ATH->s[sfb], ATH->floor, cfg->ATHfixpoint);
        tmpATH *= gfc->sv_qnt.shortfact[sfb];

        width = cod_info->width[gsfb];
        for (b = 0; b < 3; b++) {
            float en0 = 0.0, xmin = tmpATH;
            float rh1, rh2, rh3;

            rh1 = tmpATH / width;
            rh2 = DBL_EPSILON;
            for (l = 0; l < width; ++l) {
                float const xa = xr[j++];
                float const x2 = xa * xa;
                en0 += x2;
                rh2 += (x2 < rh1) ? x2 : rh1;
            }
            if (en0 > tmpATH)
                ath_over++;

            if (en0 < tmpATH)
                rh3 = en0;
            else if (rh2 < tmpATH)
                rh3 = tmpATH;
            else
                rh3 = rh2;
            xmin = rh3;
            {
                float const e = ratio->en.s[sfb][b];
                if (e > 1e-12f) {
                    float x;
                    x = en0 * ratio->thm.s[sfb][b] / e;
                    x *= gfc->sv_qnt.shortfact[sfb];
                    if (xmin < x)
                        xmin = x;
                }
            }
            xmin = (xmin > DBL_EPSILON) ? xmin : DBL_EPSILON;
            cod_info->energy_above_cutoff[gsfb + b] = (en0 > xmin + 1e-14f) ? 1 : 0;
            *pxmin++ = xmin;
        }
        if (cfg->use_temporal_masking_effect) {
            if (pxmin[-3] > pxmin[-3 + 1])
                pxmin[-3 + 1] += (pxmin[-3] - pxmin[-3 + 1]) * gfc->cd_psy.decay;
            if (pxmin[-3 + 1] > pxmin[-3 + 2])
                pxmin[-3 + 2] += (pxmin[-3 + 1] - pxmin[-3 + 2]) * gfc->cd_psy.decay;
        }
    }

    return ath_over;
}

/* Noise of l lines pairs from j on: zero above count1, 0 or step in the
 * count1 region, the 4/3 power of the big values otherwise. */
static float calc_noise_core(const float *pow43, const float *restrict xr,
                             const int *restrict ix, int count1, int big_values, int j, int l,
                             float step)
{
    float noise = 0;

    if (j > count1) {
        while (l--) {
            float temp;
            temp = xr[j];
            j++;
            noise += temp * temp;
            temp = xr[j];
            j++;
            noise += temp * temp;
        }
    } else if (j > big_values) {
        float ix01[2];
        ix01[0] = 0;
        ix01[1] = step;
        while (l--) {
            float temp;
            temp = fabs(xr[j]) - ix01[ix[j]];
            j++;
            noise += temp * temp;
            temp = fabs(xr[j]) - ix01[ix[j]];
            j++;
            noise += temp * temp;
        }
    } else {
        while (l--) {
            float temp;
            temp = fabs(xr[j]) - pow43[ix[j]] * step;
            j++;
            noise += temp * temp;
            temp = fabs(xr[j]) - pow43[ix[j]] * step;
            j++;
            noise += temp * temp;
        }
    }

    return noise;
}

/*
 * Quantization noise relative to the allowed distortion, per band into
 * distort[], and its sums in res (in log10 units: -oo dB => -1.00, -6 dB
 * => -0.97, 0 dB => 0.00, +6 dB => +3.69, +10 dB => +6.45). Returns the
 * number of bands over their threshold.
 *
 * The granule's fields are read into locals once: distort, res and
 * prev_noise may alias nothing of cod_info, but C would reload them after
 * every store.
 */
int ct_mp3_calc_noise(const ct_mp3_qnt_tables *qtab, const ct_mp3_gr_info *const cod_info,
                      const float *restrict l3_xmin, float *restrict distort,
                      ct_mp3_noise_result *const res, ct_mp3_noise_data *restrict prev_noise)
{
    int sfb, l, over = 0, over_SSD = 0;
    float over_noise_db = 0;
    float tot_noise_db = 0; /* 0 dB relative to masking */
    float max_noise = -20.0; /* -200 dB relative to masking */
    int j = 0;
    const int *scalefac = cod_info->scalefac;
    int const global_gain = cod_info->global_gain;
    int const preflag = cod_info->preflag;
    int const sf_shift = cod_info->scalefac_scale + 1;
    int const psymax = cod_info->psymax;
    int const max_nonzero_coeff = cod_info->max_nonzero_coeff;
    int const count1 = cod_info->count1;
    int const big_values = cod_info->big_values;
    float noise_db[SFBMAX];

    for (sfb = 0; sfb < psymax; sfb++) {
        int const width = cod_info->width[sfb];
        int const s = global_gain
            - (((*scalefac++) + (preflag ? ct_mp3_pretab[sfb] : 0)) << sf_shift)
            - cod_info->subblock_gain[cod_info->window[sfb]] * 8;
        float const r_l3_xmin = 1.f / l3_xmin[sfb];
        float distort_ = 0.0f;
        float noise = 0.0f;

        if (prev_noise && (prev_noise->step[sfb] == s)) {
            /* use previously computed values */
            j += width;
            distort_ = r_l3_xmin * prev_noise->noise[sfb];

            noise = prev_noise->noise_log[sfb];
        } else {
            float const step = qtab->pow20[s + Q_MAX2];
            l = width >> 1;

            if ((j + width) > max_nonzero_coeff) {
                int usefullsize;
                usefullsize = max_nonzero_coeff - j + 1;

                if (usefullsize > 0)
                    l = usefullsize >> 1;
                else
                    l = 0;
            }

            noise = calc_noise_core(qtab->pow43, cod_info->xr, cod_info->l3_enc, count1,
                                    big_values, j, l, step);
            j += 2 * l;

            if (prev_noise) {
                /* save noise values */
                prev_noise->step[sfb] = s;
                prev_noise->noise[sfb] = noise;
            }

            distort_ = r_l3_xmin * noise;

            /* multiplying here is adding in dB, but can overflow */
            noise = ct_mp3_fast_log10(distort_ > 1E-20f ? distort_ : 1E-20f);

            if (prev_noise) {
                /* save noise values */
                prev_noise->noise_log[sfb] = noise;
            }
        }
        distort[sfb] = distort_;
        noise_db[sfb] = noise;
    }

    /* The sums in a second pass: the bands above are independent of each
     * other, and of these chains. */
    for (sfb = 0; sfb < psymax; sfb++) {
        float const noise = noise_db[sfb];

        tot_noise_db += noise;

        if (noise > 0.0) {
            int tmp;

            tmp = (int) (noise * 10 + .5);
            if (tmp < 1)
                tmp = 1;
            over_SSD += tmp * tmp;

            over++;
            /* multiplying here is adding in dB, but can overflow */
            over_noise_db += noise;
        }
        max_noise = (max_noise > noise) ? max_noise : noise;
    }

    if (prev_noise && psymax > 0) {
        /* save noise values */
        prev_noise->global_gain = global_gain;
    }

    res->over_SSD = over_SSD;
    res->over_count = over;
    res->tot_noise = tot_noise_db;
    res->over_noise = over_noise_db;
    res->max_noise = max_noise;

    return over;
}
