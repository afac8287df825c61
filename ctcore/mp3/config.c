/*
 * Session set-up: lame_init's defaults, the CLI's settings, the presets of
 * -V and of the bitrate (CBR and ABR), and lame_init_params.
 *
 * Only what our settings reach is here: no free format, no compression
 * ratio (CBR always has a bitrate), no user high pass or filter widths, no
 * VBR-old presets, no user VBR bitrate limits, no analysis or decoding.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/lame.c, presets.c, set_get.c and util.c
 * (LGPL-2.0-or-later, the LAME project)
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "bitstream.h"
#include "common/cpu.h"
#include "lametag.h"
#include "psy.h"
#include "quantize.h"
#include "replaygain.h"
#include "tables.h"
#include "util.h"

#define LAME_DEFAULT_QUALITY 3

#define Min(A, B) ((A) < (B) ? (A) : (B))
#define Max(A, B) ((A) > (B) ? (A) : (B))

/* ---- util.c: bitrates and sample rates ---------------------------------- */

static int find_nearest_bitrate(int bRate, int version, int samplerate)
{
    int bitrate;
    int i;

    if (samplerate < 16000)
        version = 2;

    bitrate = ct_mp3_bitrate_table[version][1];

    for (i = 2; i <= 14; i++) {
        if (ct_mp3_bitrate_table[version][i] > 0) {
            if (abs(ct_mp3_bitrate_table[version][i] - bRate) < abs(bitrate - bRate))
                bitrate = ct_mp3_bitrate_table[version][i];
        }
    }
    return bitrate;
}

/* nearestBitrateFullIndex: the index of the nearest of LAME's 17 "full"
 * bitrates (the rows of the bandwidth and ABR preset tables). */
static int nearest_bitrate_full_index(uint16_t bitrate)
{
    static const int full_bitrate_table[] = {
        8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320
    };
    int lower_range = 16, lower_range_kbps = full_bitrate_table[16];
    int upper_range = 16, upper_range_kbps = full_bitrate_table[16];
    int b;

    for (b = 0; b < 16; b++) {
        if ((Max(bitrate, full_bitrate_table[b + 1])) != bitrate) {
            upper_range_kbps = full_bitrate_table[b + 1];
            upper_range = b + 1;
            lower_range_kbps = full_bitrate_table[b];
            lower_range = b;
            break;
        }
    }

    if ((upper_range_kbps - bitrate) > (bitrate - lower_range_kbps)) {
        return lower_range;
    }
    return upper_range;
}

/* SmpFrqIndex */
/* util.c:map2MP3Frequency: the MPEG rate at or above freq. */
static int map2mp3_frequency(int freq)
{
    if (freq <= 8000)
        return 8000;
    if (freq <= 11025)
        return 11025;
    if (freq <= 12000)
        return 12000;
    if (freq <= 16000)
        return 16000;
    if (freq <= 22050)
        return 22050;
    if (freq <= 24000)
        return 24000;
    if (freq <= 32000)
        return 32000;
    if (freq <= 44100)
        return 44100;

    return 48000;
}

static int smp_frq_index(int sample_freq, int *const version)
{
    switch (sample_freq) {
    case 44100:
        *version = 1;
        return 0;
    case 48000:
        *version = 1;
        return 1;
    case 32000:
        *version = 1;
        return 2;
    case 22050:
        *version = 0;
        return 0;
    case 24000:
        *version = 0;
        return 1;
    case 16000:
        *version = 0;
        return 2;
    case 11025:
        *version = 0;
        return 0;
    case 12000:
        *version = 0;
        return 1;
    case 8000:
        *version = 0;
        return 2;
    default:
        *version = 0;
        return -1;
    }
}

/* ---- presets.c ---------------------------------------------------------- */

/* The preset tables as LAME has them; their quant_comp (always 9) and
 * interch columns feed settings that no ported code path reads. */
typedef struct vbr_preset {
    int vbr_q;
    int quant_comp;
    int quant_comp_s;
    int expY;
    float st_lrm; /* short threshold */
    float st_s;
    float masking_adj;
    float masking_adj_short;
    float ath_lower;
    float ath_curve;
    float ath_sensitivity;
    float interch;
    int safejoint;
    int sfb21mod;
    float msfix;
    float minval;
    float ath_fixpoint;
} vbr_preset;

/* vbr_mt_psy_switch_map: the presets of vbr_mt and vbr_mtrh. */
static const vbr_preset vbr_mt_psy_switch_map[] = {
    /*vbr_q qcomp_l qcomp_s expY st_lrm st_s  mask adj_l adj_s ath_lower ath_curve ath_sens interChR safejoint sfb21mod msfix minval ath_fixpoint */
    {0, 9, 9, 0, 4.20, 25.0, -6.8, -6.8, 7.1, 1, 0, 0, 2, 31, 1.000, 5, 100},
    {1, 9, 9, 0, 4.20, 25.0, -4.8, -4.8, 5.4, 1.4, -1, 0, 2, 27, 1.122, 5, 98},
    {2, 9, 9, 0, 4.20, 25.0, -2.6, -2.6, 3.7, 2.0, -3, 0, 2, 23, 1.288, 5, 97},
    {3, 9, 9, 1, 4.20, 25.0, -1.6, -1.6, 2.0, 2.0, -5, 0, 2, 18, 1.479, 5, 96},
    {4, 9, 9, 1, 4.20, 25.0, -0.0, -0.0, 0.0, 2.0, -8, 0, 2, 12, 1.698, 5, 95},
    {5, 9, 9, 1, 4.20, 25.0, 1.3, 1.3, -6, 3.5, -11, 0, 2, 8, 1.950, 5, 94.2},
    {6, 9, 9, 1, 4.50, 100.0, 2.2, 2.3, -12.0, 6.0, -14, 0, 2, 4, 2.239, 3, 93.9},
    {7, 9, 9, 1, 4.80, 200.0, 2.7, 2.7, -18.0, 9.0, -17, 0, 2, 0, 2.570, 1, 93.6},
    {8, 9, 9, 1, 5.30, 300.0, 2.8, 2.8, -21.0, 10.0, -23, 0.0002, 0, 0, 2.951, 0, 93.3},
    {9, 9, 9, 1, 6.60, 300.0, 2.8, 2.8, -23.0, 11.0, -25, 0.0006, 0, 0, 3.388, 0, 93.3},
    {10, 9, 9, 1, 25.00, 300.0, 2.8, 2.8, -25.0, 12.0, -27, 0.0025, 0, 0, 3.500, 0, 93.3},
};

/* SET_OPTION(opt, val, def) without enforce: set the option only while it
 * still holds its default, compared as LAME does, fabs(get - def) > 0. */
#define SET_OPTION(field, val, def) \
    if (!(fabs((double) (gfp->field - (def))) > 0)) \
        gfp->field = (val);

static void apply_vbr_preset(ct_mp3_state *gfc, int a)
{
    ct_mp3_global_flags *const gfp = &gfc->flags;
    float x = gfp->VBR_q_frac;
    vbr_preset p = vbr_mt_psy_switch_map[a];
    vbr_preset const q = vbr_mt_psy_switch_map[a + 1];
    vbr_preset const *set = &p;

    p.st_lrm = p.st_lrm + x * (q.st_lrm - p.st_lrm);
    p.st_s = p.st_s + x * (q.st_s - p.st_s);
    p.masking_adj = p.masking_adj + x * (q.masking_adj - p.masking_adj);
    p.masking_adj_short = p.masking_adj_short + x * (q.masking_adj_short - p.masking_adj_short);
    p.ath_lower = p.ath_lower + x * (q.ath_lower - p.ath_lower);
    p.ath_curve = p.ath_curve + x * (q.ath_curve - p.ath_curve);
    p.ath_sensitivity = p.ath_sensitivity + x * (q.ath_sensitivity - p.ath_sensitivity);
    p.sfb21mod = p.sfb21mod + x * (q.sfb21mod - p.sfb21mod);
    p.msfix = p.msfix + x * (q.msfix - p.msfix);
    p.minval = p.minval + x * (q.minval - p.minval);
    p.ath_fixpoint = p.ath_fixpoint + x * (q.ath_fixpoint - p.ath_fixpoint);

    /* lame_set_VBR_q: clamped to 0..9, fraction cleared */
    gfp->VBR_q = Max(0, Min(9, set->vbr_q));
    gfp->VBR_q_frac = 0;
    if (set->expY) {
        gfp->experimentalY = set->expY;
    }
    SET_OPTION(attackthre, set->st_lrm, -1);
    SET_OPTION(attackthre_s, set->st_s, -1);
    SET_OPTION(maskingadjust, set->masking_adj, 0);
    SET_OPTION(maskingadjust_short, set->masking_adj_short, 0);
    gfp->ATHtype = 5;
    SET_OPTION(ATH_lower_db, set->ath_lower, 0);
    SET_OPTION(ATHcurve, set->ath_curve, -1);
    SET_OPTION(athaa_sensitivity, set->ath_sensitivity, 0);

    /* parameters for which there is no proper set/get interface */
    if (set->safejoint > 0) {
        gfp->exp_nspsytune = gfp->exp_nspsytune | 2;
    }
    if (set->sfb21mod > 0) {
        int const nsp = gfp->exp_nspsytune;
        int const val = (nsp >> 20) & 63;
        if (val == 0) {
            int const sf21mod = (set->sfb21mod << 20) | nsp;
            gfp->exp_nspsytune = sf21mod;
        }
    }
    SET_OPTION(msfix, set->msfix, -1);

    gfp->VBR_q = a;
    gfp->VBR_q_frac = x;
    gfc->cfg.minval = set->minval;
    {   /* take care of gain adjustments */
        double const xs = fabs(gfp->scale);
        double const y = (xs > 0.f) ? (10.f * log10(xs)) : 0.f;
        gfc->cfg.ATHfixpoint = set->ath_fixpoint - y;
    }
}

typedef struct abr_preset {
    int abr_kbps;
    int quant_comp;
    int quant_comp_s;
    int safejoint;
    float nsmsfix;
    float st_lrm; /* short threshold */
    float st_s;
    float scale;
    float masking_adj;
    float ath_lower;
    float ath_curve;
    float interch;
    int sfscale;
} abr_preset;

static const abr_preset abr_switch_map[] = {
    /* kbps quant q_s safejoint nsmsfix st_lrm st_s scale msk ath_lwr ath_curve interch sfscale */
    {8, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -30.0, 11, 0.0012, 1},
    {16, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -25.0, 11, 0.0010, 1},
    {24, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -20.0, 11, 0.0010, 1},
    {32, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -15.0, 11, 0.0010, 1},
    {40, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -10.0, 11, 0.0009, 1},
    {48, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -10.0, 11, 0.0009, 1},
    {56, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -6.0, 11, 0.0008, 1},
    {64, 9, 9, 0, 0, 6.60, 145, 0.95, 0, -2.0, 11, 0.0008, 1},
    {80, 9, 9, 0, 0, 6.60, 145, 0.95, 0, .0, 8, 0.0007, 1},
    {96, 9, 9, 0, 2.50, 6.60, 145, 0.95, 0, 1.0, 5.5, 0.0006, 1},
    {112, 9, 9, 0, 2.25, 6.60, 145, 0.95, 0, 2.0, 4.5, 0.0005, 1},
    {128, 9, 9, 0, 1.95, 6.40, 140, 0.95, 0, 3.0, 4, 0.0002, 1},
    {160, 9, 9, 1, 1.79, 6.00, 135, 0.95, -2, 5.0, 3.5, 0, 1},
    {192, 9, 9, 1, 1.49, 5.60, 125, 0.97, -4, 7.0, 3, 0, 0},
    {224, 9, 9, 1, 1.25, 5.20, 125, 0.98, -6, 9.0, 2, 0, 0},
    {256, 9, 9, 1, 0.97, 5.20, 125, 1.00, -8, 10.0, 1, 0, 0},
    {320, 9, 9, 1, 0.90, 5.20, 125, 1.00, -10, 12.0, 0, 0, 0},
};

/* apply_abr_preset: for CBR as well (lame_init_params passes the bitrate);
 * lame_init_params restores gfp->VBR afterwards. */
static void apply_abr_preset(ct_mp3_state *gfc, int preset)
{
    ct_mp3_global_flags *const gfp = &gfc->flags;
    int const r = nearest_bitrate_full_index(preset);

    gfp->VBR = CT_MP3_VBR_ABR;
    gfp->VBR_mean_bitrate_kbps = preset;
    gfp->VBR_mean_bitrate_kbps = Min(gfp->VBR_mean_bitrate_kbps, 320);
    gfp->VBR_mean_bitrate_kbps = Max(gfp->VBR_mean_bitrate_kbps, 8);
    gfp->brate = gfp->VBR_mean_bitrate_kbps;

    /* parameters for which there is no proper set/get interface */
    if (abr_switch_map[r].safejoint > 0)
        gfp->exp_nspsytune = gfp->exp_nspsytune | 2; /* safejoint */

    if (abr_switch_map[r].sfscale > 0)
        gfp->noise_shaping = 2; /* lame_set_sfscale(gfp, 1) */

    SET_OPTION(msfix, abr_switch_map[r].nsmsfix, -1);

    SET_OPTION(attackthre, abr_switch_map[r].st_lrm, -1);
    SET_OPTION(attackthre_s, abr_switch_map[r].st_s, -1);

    /* ABR seems to have big problems with clipping, especially at low
     * bitrates, so we compensate for that here by using a scale value
     * depending on bitrate */
    gfp->scale = gfp->scale * abr_switch_map[r].scale;

    SET_OPTION(maskingadjust, abr_switch_map[r].masking_adj, 0);
    if (abr_switch_map[r].masking_adj > 0) {
        SET_OPTION(maskingadjust_short, (float) (abr_switch_map[r].masking_adj * .9), 0);
    }
    else {
        SET_OPTION(maskingadjust_short, (float) (abr_switch_map[r].masking_adj * 1.1), 0);
    }

    SET_OPTION(ATH_lower_db, abr_switch_map[r].ath_lower, 0);
    SET_OPTION(ATHcurve, abr_switch_map[r].ath_curve, -1);

    gfc->cfg.minval = 5. * (abr_switch_map[r].abr_kbps / 320.);
}

/* apply_preset: the V presets (410..500) and the bitrate presets (8..320). */
static void apply_preset(ct_mp3_state *gfc, int preset)
{
    ct_mp3_global_flags *const gfp = &gfc->flags;

    gfp->preset = preset;
    if (CT_MP3_PRESET_V9 <= preset && preset <= CT_MP3_PRESET_V0 && preset % 10 == 0) {
        apply_vbr_preset(gfc, (CT_MP3_PRESET_V0 - preset) / 10);
        return;
    }
    if (8 <= preset && preset <= 320) {
        apply_abr_preset(gfc, preset);
        return;
    }
    gfp->preset = 0; /* no corresponding preset found */
}

/* ---- lame.c ------------------------------------------------------------- */

static float filter_coef(float x)
{
    if (x > 1.0)
        return 0.0;
    if (x <= 0.0)
        return 1.0;

    return cos(PI / 2 * x);
}

/* lame_init_params_ppflt: the polyphase filterbank's lowpass (the CLI sets
 * no highpass: LAME's highpass1 = highpass2 = 0 give fc1 = 1). */
static void init_params_ppflt(ct_mp3_state *gfc)
{
    ct_mp3_config *const cfg = &gfc->cfg;
    int band, minband;
    float freq;
    int lowpass_band = 32;

    if (cfg->lowpass1 > 0) {
        minband = 999;
        for (band = 0; band <= 31; band++) {
            freq = band / 31.0;
            /* this band and above will be zeroed: */
            if (freq >= cfg->lowpass2) {
                lowpass_band = Min(lowpass_band, band);
            }
            if (cfg->lowpass1 < freq && freq < cfg->lowpass2) {
                minband = Min(minband, band);
            }
        }

        /* compute the *actual* transition band implemented by the
         * polyphase filter */
        if (minband == 999) {
            cfg->lowpass1 = (lowpass_band - .75) / 31.0;
        }
        else {
            cfg->lowpass1 = (minband - .75) / 31.0;
        }
        cfg->lowpass2 = lowpass_band / 31.0;
    }

    for (band = 0; band < 32; band++) {
        float fc1, fc2;
        freq = band / 31.0f;
        fc1 = 1.0f;
        if (cfg->lowpass2 > cfg->lowpass1) {
            fc2 = filter_coef((freq - cfg->lowpass1) / (cfg->lowpass2 - cfg->lowpass1 + 1e-20));
        }
        else {
            fc2 = 1.0f;
        }
        gfc->sv_enc.amp_filter[band] = fc1 * fc2;
    }
}

/* optimum_bandwidth: the lowpass for a bitrate in kbps. */
static double optimum_bandwidth(const unsigned bitrate)
{
    static const int freq_map_lowpass[] = {
        2000, 3700, 3900, 5500, 7000, 7500, 10000, 11000, 13500,
        15100, 15600, 17000, 17500, 18600, 19400, 19700, 20500
    };
    return freq_map_lowpass[nearest_bitrate_full_index(bitrate)];
}

static int optimum_samplefreq(int lowpassfreq, int input_samplefreq)
{
    int suggested_samplefreq = 44100;

    if (input_samplefreq >= 48000)
        suggested_samplefreq = 48000;
    else if (input_samplefreq >= 44100)
        suggested_samplefreq = 44100;
    else if (input_samplefreq >= 32000)
        suggested_samplefreq = 32000;
    else if (input_samplefreq >= 24000)
        suggested_samplefreq = 24000;
    else if (input_samplefreq >= 22050)
        suggested_samplefreq = 22050;
    else if (input_samplefreq >= 16000)
        suggested_samplefreq = 16000;
    else if (input_samplefreq >= 12000)
        suggested_samplefreq = 12000;
    else if (input_samplefreq >= 11025)
        suggested_samplefreq = 11025;
    else if (input_samplefreq >= 8000)
        suggested_samplefreq = 8000;

    if (lowpassfreq == -1)
        return suggested_samplefreq;

    if (lowpassfreq <= 15960)
        suggested_samplefreq = 44100;
    if (lowpassfreq <= 15250)
        suggested_samplefreq = 32000;
    if (lowpassfreq <= 11220)
        suggested_samplefreq = 24000;
    if (lowpassfreq <= 9970)
        suggested_samplefreq = 22050;
    if (lowpassfreq <= 7230)
        suggested_samplefreq = 16000;
    if (lowpassfreq <= 5420)
        suggested_samplefreq = 12000;
    if (lowpassfreq <= 4510)
        suggested_samplefreq = 11025;
    if (lowpassfreq <= 3970)
        suggested_samplefreq = 8000;

    if (input_samplefreq < suggested_samplefreq) {
        /* choose a valid MPEG sample frequency above the input sample
         * frequency to avoid SFB21/12 bitrate bloat (rh 061115) */
        if (input_samplefreq > 44100) {
            return 48000;
        }
        if (input_samplefreq > 32000) {
            return 44100;
        }
        if (input_samplefreq > 24000) {
            return 32000;
        }
        if (input_samplefreq > 22050) {
            return 24000;
        }
        if (input_samplefreq > 16000) {
            return 22050;
        }
        if (input_samplefreq > 12000) {
            return 16000;
        }
        if (input_samplefreq > 11025) {
            return 12000;
        }
        if (input_samplefreq > 8000) {
            return 11025;
        }
        return 8000;
    }
    return suggested_samplefreq;
}

/* lame_init_qval: the algorithm switches of the quality level. */
static void init_qval(ct_mp3_state *gfc)
{
    ct_mp3_global_flags *const gfp = &gfc->flags;
    ct_mp3_config *const cfg = &gfc->cfg;

    switch (gfp->quality) {
    default:
    case 9: /* no psymodel, no noise shaping */
        cfg->noise_shaping = 0;
        cfg->noise_shaping_amp = 0;
        cfg->use_best_huffman = 0;
        cfg->full_outer_loop = 0;
        break;

    case 8:
        gfp->quality = 7;
        /* fall through */
    case 7: /* use psymodel (for short block and m/s switching), but no noise shaping */
        cfg->noise_shaping = 0;
        cfg->noise_shaping_amp = 0;
        cfg->use_best_huffman = 0;
        cfg->full_outer_loop = 0;
        if (cfg->vbr == CT_MP3_VBR_MT || cfg->vbr == CT_MP3_VBR_MTRH) {
            cfg->full_outer_loop = -1;
        }
        break;

    case 6:
    case 5:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        cfg->noise_shaping_amp = 0;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 0;
        cfg->full_outer_loop = 0;
        break;

    case 4:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        cfg->noise_shaping_amp = 0;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 1;
        cfg->full_outer_loop = 0;
        break;

    case 3:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        cfg->noise_shaping_amp = 1;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 1;
        cfg->full_outer_loop = 0;
        break;

    case 2:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        if (gfc->sv_qnt.substep_shaping == 0)
            gfc->sv_qnt.substep_shaping = 2;
        cfg->noise_shaping_amp = 1;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 1; /* inner loop */
        cfg->full_outer_loop = 0;
        break;

    case 1:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        if (gfc->sv_qnt.substep_shaping == 0)
            gfc->sv_qnt.substep_shaping = 2;
        cfg->noise_shaping_amp = 2;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 1;
        cfg->full_outer_loop = 0;
        break;

    case 0:
        if (cfg->noise_shaping == 0)
            cfg->noise_shaping = 1;
        if (gfc->sv_qnt.substep_shaping == 0)
            gfc->sv_qnt.substep_shaping = 2;
        cfg->noise_shaping_amp = 2;
        if (cfg->subblock_gain == -1)
            cfg->subblock_gain = 1;
        cfg->use_best_huffman = 1; /* type 2 disabled because of its slowness,
                                      in favor of full outer loop search */
        cfg->full_outer_loop = 1;
        break;
    }
}

static double linear_int(double a, double b, double m)
{
    return a + m * (b - a);
}

/* lame_init_old and lame_init_internal_flags: the library's defaults. */
static void init_defaults(ct_mp3_state *gfc)
{
    ct_mp3_global_flags *const gfp = &gfc->flags;

    gfp->strict_ISO = CT_MP3_MDB_MAXIMUM;
    gfp->mode = CT_MP3_NOT_SET;
    gfp->original = 1;
    gfp->samplerate_in = 44100;
    gfp->num_channels = 2;
    gfp->write_lame_tag = 1;
    gfp->quality = -1;
    gfp->short_blocks = CT_MP3_SHORT_BLOCK_NOT_SET;
    gfp->subblock_gain = -1;
    gfp->VBR = CT_MP3_VBR_OFF;
    gfp->VBR_q = 4;
    gfp->VBR_mean_bitrate_kbps = 128;
    gfp->msfix = -1;
    gfp->attackthre = -1;
    gfp->attackthre_s = -1;
    gfp->scale = 1;
    gfp->scale_left = 1;
    gfp->scale_right = 1;
    gfp->ATHcurve = -1;
    gfp->ATHtype = -1;
    gfp->athaa_sensitivity = 0.0;
    gfp->athaa_type = -1;
    gfp->useTemporal = -1;

    gfc->cfg.vbr_min_bitrate_index = 1;
    gfc->cfg.vbr_max_bitrate_index = 13;

    gfc->sv_qnt.OldValue[0] = 180;
    gfc->sv_qnt.OldValue[1] = 180;
    gfc->sv_qnt.CurrentStep[0] = 4;
    gfc->sv_qnt.CurrentStep[1] = 4;
    gfc->sv_qnt.masking_lower = 1;

    /* ENCDELAY = internal encoder delay, plus POSTDELAY because of the 50%
     * MDCT overlap: a 576 MDCT granule decodes to 1152 samples. */
    gfc->sv_enc.mf_samples_to_encode = ENCDELAY + POSTDELAY;
    gfc->sv_enc.mf_size = ENCDELAY - MDCTDELAY; /* we pad input with this many 0's */
    gfc->ov_enc.encoder_padding = 0;
    gfc->ov_enc.encoder_delay = ENCDELAY;

    gfc->ov_rpg.RadioGain = 0;
}

/* The lame_set_* calls of the CLI (frontend/parse.c) for our settings. */
static int apply_settings(ct_mp3_global_flags *gfp, const ct_mp3_settings *s)
{
    gfp->num_channels = s->channels;
    gfp->samplerate_in = s->sample_rate;
    switch (s->rate_control) {
    case CT_MP3_VBR: { /* -V q: vbr_default, lame_set_VBR_quality */
        float VBR_q = s->vbr_quality;
        gfp->VBR = CT_MP3_VBR_MTRH;
        if (0 > VBR_q)
            VBR_q = 0;
        if (9.999 < VBR_q)
            VBR_q = 9.999;
        gfp->VBR_q = (int) VBR_q;
        gfp->VBR_q_frac = VBR_q - gfp->VBR_q;
        break;
    }
    case CT_MP3_CBR: /* -b N: lame_set_brate (its VBR_min_bitrate_kbps has no
                        effect in CBR); 0: no rate flag, lame_init_params
                        picks the bitrate */
        if (s->bitrate < 0)
            return CT_EINVAL;
        gfp->brate = s->bitrate;
        if (gfp->brate > 320)
            gfp->disable_reservoir = 1;
        break;
    case CT_MP3_ABR: { /* --abr N */
        int kbps = s->bitrate;
        if (kbps <= 0)
            return CT_EINVAL;
        if (kbps >= 8000)
            kbps = (kbps + 500) / 1000;
        if (kbps > 320)
            kbps = 320;
        if (kbps < 8)
            kbps = 8;
        gfp->VBR = CT_MP3_VBR_ABR;
        gfp->VBR_mean_bitrate_kbps = kbps;
        break;
    }
    default:
        return CT_EINVAL;
    }
    if (s->quality >= 0) /* -q n: lame_set_quality */
        gfp->quality = s->quality > 9 ? 9 : s->quality;
    switch (s->mode) {
    case CT_MP3_MODE_DEFAULT:
        break;
    case CT_MP3_MODE_JOINT_STEREO:
        gfp->force_ms = 0;
        gfp->mode = CT_MP3_JOINT_STEREO;
        break;
    case CT_MP3_MODE_STEREO:
        gfp->mode = CT_MP3_STEREO;
        break;
    case CT_MP3_MODE_MONO:
        gfp->mode = CT_MP3_MONO;
        break;
    default:
        return CT_EINVAL;
    }
    gfp->findReplayGain = s->replaygain ? 1 : 0;
    gfp->write_lame_tag = s->lametag ? 1 : 0;
    return CT_OK;
}

/* The VBR scale of -V at input rates below 44.1 kHz and for -V 6.5 and
 * up: LAME maps it to another quality and output rate. */
static void map_vbr_scale(ct_mp3_global_flags *gfp)
{
    struct q_map {
        int sr_a;
        float qa, qb, ta, tb;
        int lp;
    };
    static const struct q_map m[9] = {
        {48000, 0.0, 6.5, 0.0, 6.5, 23700},
        {44100, 0.0, 6.5, 0.0, 6.5, 21780},
        {32000, 6.5, 8.0, 5.2, 6.5, 15800},
        {24000, 8.0, 8.5, 5.2, 6.0, 11850},
        {22050, 8.5, 9.01, 5.2, 6.5, 10892},
        {16000, 9.01, 9.4, 4.9, 6.5, 7903},
        {12000, 9.4, 9.6, 4.5, 6.0, 5928},
        {11025, 9.6, 9.9, 5.1, 6.5, 5446},
        {8000, 9.9, 10., 4.9, 6.5, 3952},
    };
    float const qval = gfp->VBR_q + gfp->VBR_q_frac;
    int i;
    for (i = 2; i < 9; ++i) {
        if (gfp->samplerate_in == m[i].sr_a) {
            if (qval < m[i].qa) {
                double d = qval / m[i].qa;
                d = d * m[i].ta;
                gfp->VBR_q = (int) d;
                gfp->VBR_q_frac = d - gfp->VBR_q;
            }
        }
        if (gfp->samplerate_in >= m[i].sr_a) {
            if (m[i].qa <= qval && qval < m[i].qb) {
                float const q_ = m[i].qb - m[i].qa;
                float const t_ = m[i].tb - m[i].ta;
                double d = m[i].ta + t_ * (qval - m[i].qa) / q_;
                gfp->VBR_q = (int) d;
                gfp->VBR_q_frac = d - gfp->VBR_q;
                gfp->samplerate_out = m[i].sr_a;
                if (gfp->lowpassfreq == 0) {
                    gfp->lowpassfreq = -1;
                }
                break;
            }
        }
    }
}

/* The lowpass LAME picks when the user set none. */
static double default_lowpass(const ct_mp3_global_flags *gfp, ct_mp3_vbr_mode vbr)
{
    double lowpass;

    switch (vbr) {
    case CT_MP3_VBR_OFF:
        lowpass = optimum_bandwidth(gfp->brate);
        break;
    case CT_MP3_VBR_ABR:
        lowpass = optimum_bandwidth(gfp->VBR_mean_bitrate_kbps);
        break;
    default: { /* vbr_mtrh, vbr_mt */
        static const int x[11] = {
            24000, 19500, 18500, 18000, 17500, 17000, 16500, 15600, 15200, 7230, 3950
        };
        if (0 <= gfp->VBR_q && gfp->VBR_q <= 9) {
            double a = x[gfp->VBR_q], b = x[gfp->VBR_q + 1], m = gfp->VBR_q_frac;
            lowpass = linear_int(a, b, m);
        }
        else {
            lowpass = 21500;
        }
        break;
    }
    }

    if (gfp->mode == CT_MP3_MONO && (vbr == CT_MP3_VBR_OFF || vbr == CT_MP3_VBR_ABR))
        lowpass *= 1.5;
    return lowpass;
}

static float nspsytune_db(int bits)
{
    float db = bits & 63;
    if (db >= 32.f)
        db -= 64.f;
    db *= 0.25f;
    return db;
}

/* lame_init_params */
static int init_params(ct_mp3_state *gfc)
{
    ct_mp3_global_flags *const gfp = &gfc->flags;
    ct_mp3_config *const cfg = &gfc->cfg;
    int i, j;

    if (gfp->samplerate_in < 1)
        return CT_EINVAL;
    if (gfp->num_channels < 1 || 2 < gfp->num_channels)
        return CT_EINVAL;

    cfg->vbr = gfp->VBR;
    cfg->error_protection = gfp->error_protection;
    cfg->copyright = gfp->copyright;
    cfg->original = gfp->original;
    cfg->extension = gfp->extension;
    cfg->emphasis = gfp->emphasis;

    cfg->channels_in = gfp->num_channels;
    if (cfg->channels_in == 1)
        gfp->mode = CT_MP3_MONO;
    cfg->channels_out = (gfp->mode == CT_MP3_MONO) ? 1 : 2;
    if (gfp->mode != CT_MP3_JOINT_STEREO)
        gfp->force_ms = 0; /* forced mid/side stereo for j-stereo only */
    cfg->force_ms = gfp->force_ms;

    if (cfg->vbr == CT_MP3_VBR_OFF && gfp->brate == 0) {
        /* no bitrate or compression ratio specified, use 11.025 */
        if (gfp->compression_ratio == 0)
            gfp->compression_ratio = 11.025; /* a CD down to exactly 128000 bps */
    }

    /* find bitrate if user specify a compression ratio */
    if (cfg->vbr == CT_MP3_VBR_OFF && gfp->compression_ratio > 0) {
        /* round up with a margin of 3% */
        if (gfp->samplerate_out == 0)
            gfp->samplerate_out = map2mp3_frequency((int) (0.97 * gfp->samplerate_in));

        /* choose a bitrate for the output samplerate which achieves
         * specified compression ratio */
        gfp->brate = gfp->samplerate_out * 16 * cfg->channels_out / (1.e3 * gfp->compression_ratio);

        /* we need the version for the bitrate table look up */
        cfg->samplerate_index = smp_frq_index(gfp->samplerate_out, &cfg->version);

        /* the nearest allowed bitrate (the CLI has no free format) */
        gfp->brate = find_nearest_bitrate(gfp->brate, cfg->version, gfp->samplerate_out);
    }
    if (gfp->samplerate_out) {
        if (gfp->samplerate_out < 16000) {
            gfp->VBR_mean_bitrate_kbps = Max(gfp->VBR_mean_bitrate_kbps, 8);
            gfp->VBR_mean_bitrate_kbps = Min(gfp->VBR_mean_bitrate_kbps, 64);
        }
        else if (gfp->samplerate_out < 32000) {
            gfp->VBR_mean_bitrate_kbps = Max(gfp->VBR_mean_bitrate_kbps, 8);
            gfp->VBR_mean_bitrate_kbps = Min(gfp->VBR_mean_bitrate_kbps, 160);
        }
        else {
            gfp->VBR_mean_bitrate_kbps = Max(gfp->VBR_mean_bitrate_kbps, 32);
            gfp->VBR_mean_bitrate_kbps = Min(gfp->VBR_mean_bitrate_kbps, 320);
        }
    }

    /* mapping VBR scale to internal VBR quality settings */
    if (gfp->samplerate_out == 0 && (cfg->vbr == CT_MP3_VBR_MT || cfg->vbr == CT_MP3_VBR_MTRH))
        map_vbr_scale(gfp);

    /* if a filter has not been enabled, see if we should add one */
    if (gfp->lowpassfreq == 0)
        gfp->lowpassfreq = default_lowpass(gfp, cfg->vbr);

    if (gfp->samplerate_out == 0) {
        if (2 * gfp->lowpassfreq > gfp->samplerate_in) {
            gfp->lowpassfreq = gfp->samplerate_in / 2;
        }
        gfp->samplerate_out = optimum_samplefreq(gfp->lowpassfreq, gfp->samplerate_in);
    }
    if (cfg->vbr == CT_MP3_VBR_MT || cfg->vbr == CT_MP3_VBR_MTRH) {
        gfp->lowpassfreq = Min(24000, gfp->lowpassfreq);
    }
    else {
        gfp->lowpassfreq = Min(20500, gfp->lowpassfreq);
    }
    gfp->lowpassfreq = Min(gfp->samplerate_out / 2, gfp->lowpassfreq);

    cfg->disable_reservoir = gfp->disable_reservoir;
    cfg->lowpassfreq = gfp->lowpassfreq;
    cfg->highpassfreq = 0; /* the CLI sets no high pass */
    cfg->samplerate_in = gfp->samplerate_in;
    cfg->samplerate_out = gfp->samplerate_out;
    cfg->mode_gr = cfg->samplerate_out <= 24000 ? 1 : 2; /* granules per frame */

    switch (cfg->vbr) {
    case CT_MP3_VBR_MT:
    case CT_MP3_VBR_MTRH: {
        /* numbers are a bit strange, but they determine the lowpass value */
        static const float cmp[] = { 5.7, 6.5, 7.3, 8.2, 10, 11.9, 13, 14, 15, 16.5 };
        gfp->compression_ratio = cmp[gfp->VBR_q];
        break;
    }
    case CT_MP3_VBR_ABR:
        gfp->compression_ratio =
            cfg->samplerate_out * 16 * cfg->channels_out / (1.e3 * gfp->VBR_mean_bitrate_kbps);
        break;
    default:
        gfp->compression_ratio =
            cfg->samplerate_out * 16 * cfg->channels_out / (1.e3 * gfp->brate);
        break;
    }

    /* mode not set by the user and more than one input channel: J-STEREO */
    if (gfp->mode == CT_MP3_NOT_SET) {
        gfp->mode = CT_MP3_JOINT_STEREO;
    }
    cfg->mode = gfp->mode;

    /* low pass filter, 0% below on default */
    cfg->lowpass1 = 0;
    cfg->lowpass2 = 0;
    if (cfg->lowpassfreq > 0 && cfg->lowpassfreq < (cfg->samplerate_out / 2)) {
        cfg->lowpass2 = 2. * cfg->lowpassfreq;
        cfg->lowpass1 = (1 - 0.00) * 2. * cfg->lowpassfreq;
        cfg->lowpass1 /= cfg->samplerate_out;
        cfg->lowpass2 /= cfg->samplerate_out;
    }

    /* compute info needed for polyphase filter (filter type==0, default) */
    init_params_ppflt(gfc);

    /* samplerate and bitrate index */
    cfg->samplerate_index = smp_frq_index(cfg->samplerate_out, &cfg->version);
    if (cfg->samplerate_index < 0)
        return CT_EINVAL;

    if (cfg->vbr == CT_MP3_VBR_OFF) {
        gfp->brate = find_nearest_bitrate(gfp->brate, cfg->version, cfg->samplerate_out);
        gfc->ov_enc.bitrate_index =
            ct_mp3_bitrate_index(gfp->brate, cfg->version, cfg->samplerate_out);
        if (gfc->ov_enc.bitrate_index <= 0)
            return CT_EINVAL;
    }
    else {
        gfc->ov_enc.bitrate_index = 1;
    }

    ct_mp3_init_bit_stream_w(gfc);
    ct_mp3_music_crc_init(gfc->music_crc_slices);

    j = cfg->samplerate_index + (3 * cfg->version) + 6 * (cfg->samplerate_out < 16000);
    for (i = 0; i < SBMAX_l + 1; i++)
        gfc->scalefac_band.l[i] = ct_mp3_sfb_band_index[j].l[i];

    for (i = 0; i < PSFB21 + 1; i++) {
        int const size = (gfc->scalefac_band.l[22] - gfc->scalefac_band.l[21]) / PSFB21;
        int const start = gfc->scalefac_band.l[21] + i * size;
        gfc->scalefac_band.psfb21[i] = start;
    }
    gfc->scalefac_band.psfb21[PSFB21] = 576;

    for (i = 0; i < SBMAX_s + 1; i++)
        gfc->scalefac_band.s[i] = ct_mp3_sfb_band_index[j].s[i];

    for (i = 0; i < PSFB12 + 1; i++) {
        int const size = (gfc->scalefac_band.s[13] - gfc->scalefac_band.s[12]) / PSFB12;
        int const start = gfc->scalefac_band.s[12] + i * size;
        gfc->scalefac_band.psfb12[i] = start;
    }
    gfc->scalefac_band.psfb12[PSFB12] = 192;

    /* determine the mean bitrate for main data */
    if (cfg->mode_gr == 2) /* MPEG 1 */
        cfg->sideinfo_len = (cfg->channels_out == 1) ? 4 + 17 : 4 + 32;
    else /* MPEG 2 */
        cfg->sideinfo_len = (cfg->channels_out == 1) ? 4 + 9 : 4 + 17;

    if (cfg->error_protection)
        cfg->sideinfo_len += 2;

    for (i = 0; i < 19; i++)
        gfc->sv_enc.pefirbuf[i] = 700 * cfg->mode_gr * cfg->channels_out;

    if (gfp->ATHtype == -1)
        gfp->ATHtype = 4;

    if (cfg->vbr == CT_MP3_VBR_MT || cfg->vbr == CT_MP3_VBR_MTRH) {
        if (gfp->useTemporal < 0) {
            gfp->useTemporal = 0; /* off by default for this VBR mode */
        }

        apply_preset(gfc, 500 - (gfp->VBR_q * 10));
        /* The newer VBR code supports only a limited subset of quality
         * levels: 9-5=5 are the same, uses x^3/4 quantization; 4-0=0 are
         * the same, 5 plus best huffman divide code */
        if (gfp->quality < 0)
            gfp->quality = LAME_DEFAULT_QUALITY;
        if (gfp->quality < 5)
            gfp->quality = 0;
        if (gfp->quality > 7)
            gfp->quality = 7;

        /* sfb21 extra only with MPEG-1 at higher sampling rates */
        if (gfp->experimentalY)
            gfc->sv_qnt.sfb21_extra = 0;
        else
            gfc->sv_qnt.sfb21_extra = (cfg->samplerate_out > 44000);
    }
    else { /* cbr/abr */
        /* no sfb21 extra with CBR code */
        gfc->sv_qnt.sfb21_extra = 0;

        if (gfp->quality < 0)
            gfp->quality = LAME_DEFAULT_QUALITY;

        if (cfg->vbr == CT_MP3_VBR_OFF)
            gfp->VBR_mean_bitrate_kbps = gfp->brate;
        /* second, set parameters depending on bitrate */
        apply_preset(gfc, gfp->VBR_mean_bitrate_kbps);
        gfp->VBR = cfg->vbr;
    }

    /* initialize default values common for all modes */
    gfc->sv_qnt.mask_adjust = gfp->maskingadjust;
    gfc->sv_qnt.mask_adjust_short = gfp->maskingadjust_short;

    if (cfg->vbr != CT_MP3_VBR_OFF) { /* choose a min/max bitrate for VBR */
        cfg->vbr_min_bitrate_index = 1;  /* 8 kbps (MPEG-2) or 32 kbps (MPEG-1) */
        cfg->vbr_max_bitrate_index = 14; /* 160 kbps (MPEG-2) or 320 kbps (MPEG-1) */
        if (cfg->samplerate_out < 16000)
            cfg->vbr_max_bitrate_index = 8; /* 64 kbps (MPEG-2.5) */
        gfp->VBR_mean_bitrate_kbps =
            Min(ct_mp3_bitrate_table[cfg->version][cfg->vbr_max_bitrate_index],
                gfp->VBR_mean_bitrate_kbps);
        gfp->VBR_mean_bitrate_kbps =
            Max(ct_mp3_bitrate_table[cfg->version][cfg->vbr_min_bitrate_index],
                gfp->VBR_mean_bitrate_kbps);
    }

    cfg->preset = gfp->preset;
    cfg->write_lame_tag = gfp->write_lame_tag;
    gfc->sv_qnt.substep_shaping = gfp->substep_shaping;
    cfg->noise_shaping = gfp->noise_shaping;
    cfg->subblock_gain = gfp->subblock_gain;
    cfg->use_best_huffman = gfp->use_best_huffman;
    cfg->avg_bitrate = gfp->brate;
    cfg->vbr_avg_bitrate_kbps = gfp->VBR_mean_bitrate_kbps;
    cfg->compression_ratio = gfp->compression_ratio;

    /* initialize internal qval settings */
    init_qval(gfc);

    /* automatic ATH adjustment on */
    if (gfp->athaa_type < 0)
        gfc->ATH.use_adjust = 3;
    else
        gfc->ATH.use_adjust = gfp->athaa_type;

    /* initialize internal adaptive ATH settings  -jd */
    gfc->ATH.aa_sensitivity_p = pow(10.0, gfp->athaa_sensitivity / -10.0);

    if (gfp->short_blocks == CT_MP3_SHORT_BLOCK_NOT_SET) {
        gfp->short_blocks = CT_MP3_SHORT_BLOCK_ALLOWED;
    }

    /* many hardware decoders cannot handle uncoupled short blocks in
     * stereo; coupling makes no sense for mono */
    if (gfp->short_blocks == CT_MP3_SHORT_BLOCK_ALLOWED
        && (cfg->mode == CT_MP3_JOINT_STEREO || cfg->mode == CT_MP3_STEREO)) {
        gfp->short_blocks = CT_MP3_SHORT_BLOCK_COUPLED;
    }

    cfg->short_blocks = gfp->short_blocks;

    if (gfp->msfix < 0)
        gfp->msfix = 0;

    /* select psychoacoustic model */
    gfp->exp_nspsytune = gfp->exp_nspsytune | 1;

    if (gfp->ATHtype < 0)
        gfp->ATHtype = 4;

    if (gfp->ATHcurve < 0)
        gfp->ATHcurve = 4;

    if (gfp->useTemporal < 0)
        gfp->useTemporal = 1; /* on by default */

    cfg->msfix = gfp->msfix;
    cfg->ATH_offset_db = 0 - gfp->ATH_lower_db;
    cfg->ATH_offset_factor = powf(10.f, cfg->ATH_offset_db * 0.1f);
    cfg->ATHcurve = gfp->ATHcurve;
    cfg->ATHtype = gfp->ATHtype;
    cfg->ATHonly = gfp->ATHonly;
    cfg->noATH = gfp->noATH;

    cfg->use_temporal_masking_effect = gfp->useTemporal;
    if (cfg->mode == CT_MP3_JOINT_STEREO) {
        cfg->use_safe_joint_stereo = gfp->exp_nspsytune & 2;
    }
    else {
        cfg->use_safe_joint_stereo = 0;
    }
    cfg->adjust_bass_db = nspsytune_db(gfp->exp_nspsytune >> 2);
    cfg->adjust_alto_db = nspsytune_db(gfp->exp_nspsytune >> 8);
    cfg->adjust_treble_db = nspsytune_db(gfp->exp_nspsytune >> 14);
    /* to be compatible with Naoki's original code, the next 6 bits define
     * only the amount of changing treble for sfb21 */
    cfg->adjust_sfb21_db = nspsytune_db(gfp->exp_nspsytune >> 20);
    cfg->adjust_sfb21_db += cfg->adjust_treble_db;

    /* the PCM input transform: user scaling and two-to-one downmix */
    {
        float m[2][2] = { {1.0f, 0.0f}, {0.0f, 1.0f} };

        m[0][0] *= gfp->scale;
        m[0][1] *= gfp->scale;
        m[1][0] *= gfp->scale;
        m[1][1] *= gfp->scale;
        m[0][0] *= gfp->scale_left;
        m[0][1] *= gfp->scale_left;
        m[1][0] *= gfp->scale_right;
        m[1][1] *= gfp->scale_right;
        if (cfg->channels_in == 2 && cfg->channels_out == 1) {
            m[0][0] = 0.5f * (m[0][0] + m[1][0]);
            m[0][1] = 0.5f * (m[0][1] + m[1][1]);
            m[1][0] = 0;
            m[1][1] = 0;
        }
        cfg->pcm_transform[0][0] = m[0][0];
        cfg->pcm_transform[0][1] = m[0][1];
        cfg->pcm_transform[1][0] = m[1][0];
        cfg->pcm_transform[1][1] = m[1][1];
    }

    /* padding method as described in "MPEG-Layer3 / Bitstream Syntax and
     * Decoding" by Martin Sieler, Ralph Sperschneider; no padding for the
     * very first frame */
    gfc->sv_enc.slot_lag = gfc->sv_enc.frac_SpF = 0;
    if (cfg->vbr == CT_MP3_VBR_OFF)
        gfc->sv_enc.slot_lag = gfc->sv_enc.frac_SpF
            = ((cfg->version + 1) * 72000L * cfg->avg_bitrate) % cfg->samplerate_out;

    /* lame_init_bitstream (no ID3 tag: the CLI writes its tags itself; no
     * bitrate and block type histograms: only LAME's frontend reads them) */
    gfc->ov_enc.frame_number = 0;
    if (gfc->cfg.write_lame_tag)
        ct_mp3_init_vbr_tag(gfc);

    ct_mp3_iteration_init(gfc);
    ct_mp3_psy_init(gfc);

    cfg->buffer_constraint = ct_mp3_get_max_frame_buffer_size_by_constraint(cfg, gfp->strict_ISO);

    cfg->findReplayGain = gfp->findReplayGain;
    if (cfg->findReplayGain) {
        if (!ct_mp3_init_gain_analysis(&gfc->sv_rpg.rgdata, cfg->samplerate_out))
            cfg->findReplayGain = 0;
    }
    return CT_OK;
}

int ct_mp3_config_init(ct_mp3_state *gfc, const ct_mp3_settings *settings)
{
    int ret;
    init_defaults(gfc);
    ct_mp3_dsp_init(&gfc->dsp, ct_cpu_flags_for(settings->simd));
    ret = apply_settings(&gfc->flags, settings);
    if (ret != CT_OK)
        return ret;
    return init_params(gfc);
}
