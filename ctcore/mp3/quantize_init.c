/*
 * Initialization of the quantization: the ATH per scalefactor band
 * (compute_ath), the power tables LAME keeps as globals (here per encoder
 * in gfc->qtab), the Huffman region tables and the nspsytune band factors
 * longfact/shortfact.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/quantize_pvt.c (LGPL-2.0-or-later, the
 * LAME project).
 */
#include <math.h>

#include "quantize.h"
#include "util.h"

#define NSATHSCALE 100 /* Assuming dynamic range=96dB, this value should be 92 */

/* machine.h's FLOAT_MAX: FLT_MAX where <float.h> came first, else 1e37,
 * which is what quantize_pvt.c gets (it shows in the ATH of empty bands). */
#define FLOAT_MAX 1e37

/* The ATH at f Hz in MDCT energy units. The formula is in dB relative to a
 * 3.3 kHz wave of amplitude 1 at -5 dB; the largest wave (32767) averages
 * -11 dB in sfb 12 and a CD has 96 dB of range, so the MDCT scale is the
 * formula minus ~103 dB (NSATHSCALE, or ATHfixpoint). */
static float ath_mdct(const ct_mp3_config *cfg, float f)
{
    float ath;

    ath = ct_mp3_ath_formula(cfg, f);

    if (cfg->ATHfixpoint > 0)
        ath -= cfg->ATHfixpoint;
    else
        ath -= NSATHSCALE;
    ath += cfg->ATH_offset_db;

    /* modify the MDCT scaling for the ATH and convert to energy */
    ath = powf(10.0f, ath * 0.1f);
    return ath;
}

/* The ATH of each scalefactor band: its minimum over the band's lines
 * (short bands: times the band width). */
static void compute_ath(ct_mp3_state *gfc)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    float *const ATH_l = gfc->ATH.l;
    float *const ATH_psfb21 = gfc->ATH.psfb21;
    float *const ATH_s = gfc->ATH.s;
    float *const ATH_psfb12 = gfc->ATH.psfb12;
    int sfb, i, start, end;
    float ATH_f;
    float const samp_freq = cfg->samplerate_out;

    for (sfb = 0; sfb < SBMAX_l; sfb++) {
        start = gfc->scalefac_band.l[sfb];
        end = gfc->scalefac_band.l[sfb + 1];
        ATH_l[sfb] = FLOAT_MAX;
        for (i = start; i < end; i++) {
            float const freq = i * samp_freq / (2 * 576);
            ATH_f = ath_mdct(cfg, freq);
            ATH_l[sfb] = (ATH_l[sfb] < ATH_f) ? ATH_l[sfb] : ATH_f;
        }
    }

    for (sfb = 0; sfb < PSFB21; sfb++) {
        start = gfc->scalefac_band.psfb21[sfb];
        end = gfc->scalefac_band.psfb21[sfb + 1];
        ATH_psfb21[sfb] = FLOAT_MAX;
        for (i = start; i < end; i++) {
            float const freq = i * samp_freq / (2 * 576);
            ATH_f = ath_mdct(cfg, freq);
            ATH_psfb21[sfb] = (ATH_psfb21[sfb] < ATH_f) ? ATH_psfb21[sfb] : ATH_f;
        }
    }

    for (sfb = 0; sfb < SBMAX_s; sfb++) {
        start = gfc->scalefac_band.s[sfb];
        end = gfc->scalefac_band.s[sfb + 1];
        ATH_s[sfb] = FLOAT_MAX;
        for (i = start; i < end; i++) {
            float const freq = i * samp_freq / (2 * 192);
            ATH_f = ath_mdct(cfg, freq);
            ATH_s[sfb] = (ATH_s[sfb] < ATH_f) ? ATH_s[sfb] : ATH_f;
        }
        ATH_s[sfb] *= (gfc->scalefac_band.s[sfb + 1] - gfc->scalefac_band.s[sfb]);
    }

    for (sfb = 0; sfb < PSFB12; sfb++) {
        start = gfc->scalefac_band.psfb12[sfb];
        end = gfc->scalefac_band.psfb12[sfb + 1];
        ATH_psfb12[sfb] = FLOAT_MAX;
        for (i = start; i < end; i++) {
            float const freq = i * samp_freq / (2 * 192);
            ATH_f = ath_mdct(cfg, freq);
            ATH_psfb12[sfb] = (ATH_psfb12[sfb] < ATH_f) ? ATH_psfb12[sfb] : ATH_f;
        }
        /* not sure about the following */
        ATH_psfb12[sfb] *= (gfc->scalefac_band.s[13] - gfc->scalefac_band.s[12]);
    }

    /* (LAME's no-ATH mode, --noath, is not among our settings) */

    gfc->ATH.floor = 10. * log10(ath_mdct(cfg, -1.));
}

/* The payloads of the nspsytune band factors, "all modes like vbr-new"
 * (LAME's sel = 1): bass, alto, treble, sfb21. */
static const float payload_long[4] = {-0.500f, -0.250f, -0.025f, +0.500f};
static const float payload_short[4] = {-2.000f, -1.000f, -0.050f, +0.500f};

void ct_mp3_iteration_init(ct_mp3_state *gfc)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_qnt_tables *const qtab = &gfc->qtab;
    float adjust, db;
    int i;

    if (gfc->iteration_init_init != 0)
        return;
    gfc->iteration_init_init = 1;

    gfc->l3_side.main_data_begin = 0;
    compute_ath(gfc);

    qtab->pow43[0] = 0.0;
    for (i = 1; i < PRECALC_SIZE; i++)
        qtab->pow43[i] = pow((float) i, 4.0 / 3.0);

    qtab->adj43asm[0] = 0.0;
    for (i = 1; i < PRECALC_SIZE; i++)
        qtab->adj43asm[i] = i - 0.5 - pow(0.5 * (qtab->pow43[i - 1] + qtab->pow43[i]), 0.75);
    for (i = 0; i < Q_MAX; i++)
        qtab->ipow20[i] = pow(2.0, (double) (i - 210) * -0.1875);
    for (i = 0; i <= Q_MAX + Q_MAX2; i++)
        qtab->pow20[i] = pow(2.0, (double) (i - 210 - Q_MAX2) * 0.25);

    ct_mp3_huffman_init(gfc);

    /* long */
    db = cfg->adjust_bass_db + payload_long[0];
    adjust = powf(10.f, db * 0.1f);
    for (i = 0; i <= 6; ++i)
        gfc->sv_qnt.longfact[i] = adjust;
    db = cfg->adjust_alto_db + payload_long[1];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 13; ++i)
        gfc->sv_qnt.longfact[i] = adjust;
    db = cfg->adjust_treble_db + payload_long[2];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 20; ++i)
        gfc->sv_qnt.longfact[i] = adjust;
    db = cfg->adjust_sfb21_db + payload_long[3];
    adjust = powf(10.f, db * 0.1f);
    for (; i < SBMAX_l; ++i)
        gfc->sv_qnt.longfact[i] = adjust;

    /* short */
    db = cfg->adjust_bass_db + payload_short[0];
    adjust = powf(10.f, db * 0.1f);
    for (i = 0; i <= 2; ++i)
        gfc->sv_qnt.shortfact[i] = adjust;
    db = cfg->adjust_alto_db + payload_short[1];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 6; ++i)
        gfc->sv_qnt.shortfact[i] = adjust;
    db = cfg->adjust_treble_db + payload_short[2];
    adjust = powf(10.f, db * 0.1f);
    for (; i <= 11; ++i)
        gfc->sv_qnt.shortfact[i] = adjust;
    db = cfg->adjust_sfb21_db + payload_short[3];
    adjust = powf(10.f, db * 0.1f);
    for (; i < SBMAX_s; ++i)
        gfc->sv_qnt.shortfact[i] = adjust;
}
