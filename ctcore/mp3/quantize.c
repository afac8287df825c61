/*
 * The iteration loops of one frame: CBR, ABR and VBR ("new", vbr_mt and
 * vbr_mtrh), with the bit allocation between granules and channels (on_pe,
 * reduce_side, the ABR targets), the bitrate choice and the bit reservoir
 * updates. See quantize.h for what depends on the reservoir.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/quantize.c and quantize_pvt.c
 * (LGPL-2.0-or-later, the LAME project).
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "bitstream.h"
#include "quantize.h"
#include "reservoir.h"
#include "util.h"

/* convert from L/R <-> Mid/Side */
static void ms_convert(ct_mp3_side_info *l3_side, int gr)
{
    int i;
    for (i = 0; i < 576; ++i) {
        float l, r;
        l = l3_side->tt[gr][0].xr[i];
        r = l3_side->tt[gr][1].xr[i];
        l3_side->tt[gr][0].xr[i] = (l + r) * (float) (SQRT2 * 0.5);
        l3_side->tt[gr][1].xr[i] = (l - r) * (float) (SQRT2 * 0.5);
    }
}

/* on_pe: allocates the granule's bits among the channels by perceptual
 * entropy; returns the granule's maximum. */
static int on_pe(ct_mp3_state *gfc, const float pe[][2], int targ_bits[2], int mean_bits,
                 int gr, int cbr)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int extra_bits = 0, tbits, bits;
    int add_bits[2] = {0, 0};
    int max_bits; /* maximum allowed bits for this granule */
    int ch;

    /* allocate targ_bits for granule */
    ct_mp3_resv_max_bits(gfc, mean_bits, &tbits, &extra_bits, cbr);
    max_bits = tbits + extra_bits;
    if (max_bits > MAX_BITS_PER_GRANULE) /* hard limit per granule */
        max_bits = MAX_BITS_PER_GRANULE;

    for (bits = 0, ch = 0; ch < cfg->channels_out; ++ch) {
        /* allocate bits for each channel */
        targ_bits[ch] = tbits / cfg->channels_out;
        if (targ_bits[ch] > MAX_BITS_PER_CHANNEL)
            targ_bits[ch] = MAX_BITS_PER_CHANNEL;

        add_bits[ch] = targ_bits[ch] * pe[gr][ch] / 700.0 - targ_bits[ch];

        /* at most increase bits by 1.5*average */
        if (add_bits[ch] > mean_bits * 3 / 4)
            add_bits[ch] = mean_bits * 3 / 4;
        if (add_bits[ch] < 0)
            add_bits[ch] = 0;

        if (add_bits[ch] + targ_bits[ch] > MAX_BITS_PER_CHANNEL) {
            add_bits[ch] = MAX_BITS_PER_CHANNEL - targ_bits[ch];
            if (add_bits[ch] < 0)
                add_bits[ch] = 0;
        }

        bits += add_bits[ch];
    }
    if (bits > extra_bits && bits > 0) {
        for (ch = 0; ch < cfg->channels_out; ++ch)
            add_bits[ch] = extra_bits * add_bits[ch] / bits;
    }

    for (ch = 0; ch < cfg->channels_out; ++ch) {
        targ_bits[ch] += add_bits[ch];
        extra_bits -= add_bits[ch];
    }

    for (bits = 0, ch = 0; ch < cfg->channels_out; ++ch)
        bits += targ_bits[ch];
    if (bits > MAX_BITS_PER_GRANULE) {
        for (ch = 0; ch < cfg->channels_out; ++ch) {
            targ_bits[ch] *= MAX_BITS_PER_GRANULE;
            targ_bits[ch] /= bits;
        }
    }

    return max_bits;
}

/* reduce_side: moves bits from the side to the mid channel by the energy
 * ratio ms_ener_ratio (0: 66/33 mid/side, .5: 50/50). */
static void reduce_side(int targ_bits[2], float ms_ener_ratio, int mean_bits, int max_bits)
{
    int move_bits;
    float fac;

    fac = .33 * (.5 - ms_ener_ratio) / .5;
    if (fac < 0)
        fac = 0;
    if (fac > .5)
        fac = .5;

    /* number of bits to move from side channel to mid channel */
    move_bits = fac * .5 * (targ_bits[0] + targ_bits[1]);

    if (move_bits > MAX_BITS_PER_CHANNEL - targ_bits[0])
        move_bits = MAX_BITS_PER_CHANNEL - targ_bits[0];
    if (move_bits < 0)
        move_bits = 0;

    if (targ_bits[1] >= 125) {
        /* dont reduce side channel below 125 bits */
        if (targ_bits[1] - move_bits > 125) {
            /* if mid channel already has 2x more than average, dont bother;
             * mean_bits = bits per granule (for both channels) */
            if (targ_bits[0] < mean_bits)
                targ_bits[0] += move_bits;
            targ_bits[1] -= move_bits;
        } else {
            targ_bits[0] += targ_bits[1] - 125;
            targ_bits[1] = 125;
        }
    }

    move_bits = targ_bits[0] + targ_bits[1];
    if (move_bits > max_bits) {
        targ_bits[0] = (max_bits * targ_bits[0]) / move_bits;
        targ_bits[1] = (max_bits * targ_bits[1]) / move_bits;
    }
}

/* iteration_finish_one: the final scalefactor storage and region division
 * of a granule, and its bits out of the reservoir. divided: the region
 * division was done before the storage (the speculative loop's granules);
 * the two commute, as neither reads a field the other writes. */
static void iteration_finish_one(ct_mp3_state *gfc, int gr, int ch, int divided)
{
    ct_mp3_side_info *const l3_side = &gfc->l3_side;
    ct_mp3_gr_info *const cod_info = &l3_side->tt[gr][ch];

    ct_mp3_best_scalefac_store(gfc, gr, ch, l3_side);

    if (gfc->cfg.use_best_huffman == 1 && !divided)
        ct_mp3_best_huffman_divide(gfc, cod_info);

    ct_mp3_resv_adjust(gfc, cod_info);
}

/* get_framebits: the frame bits each bitrate index would give (with the
 * reservoir). Leaves ResvMax at the value of vbr_max_bitrate_index. */
static void get_framebits(ct_mp3_state *gfc, int frameBits[15])
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_result *const eov = &gfc->ov_enc;
    int bitsPerFrame, i;

    for (i = 1; i <= cfg->vbr_max_bitrate_index; i++) {
        eov->bitrate_index = i;
        frameBits[i] = ct_mp3_resv_frame_begin(gfc, &bitsPerFrame);
    }
}

void ct_mp3_vbr_prepare(const ct_mp3_state *gfc, float ath_adjust_factor, int mode_ext,
                        ct_mp3_side_info *l3_side, const ct_mp3_psy_ratio ratio[2][2],
                        ct_mp3_vbr_work *work)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int gr, ch;

    work->analog_silence = 1;
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        if (mode_ext == MPG_MD_MS_LR)
            ms_convert(l3_side, gr);
        for (ch = 0; ch < cfg->channels_out; ++ch) {
            ct_mp3_gr_info *const cod_info = &l3_side->tt[gr][ch];

            ct_mp3_init_outer_loop(gfc, cod_info);
            if (0 != ct_mp3_calc_xmin(gfc, ath_adjust_factor, &ratio[gr][ch], cod_info,
                                      work->l3_xmin[gr][ch]))
                work->analog_silence = 0;
        }
    }
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            ct_mp3_gr_info *const cod_info = &l3_side->tt[gr][ch];
            /* init_outer_loop sets up cod_info, scalefac and xrpow */
            work->active[gr][ch] =
                ct_mp3_init_xrpow(&gfc->dsp.quantize, cod_info, work->xrpow[gr][ch]);
        }
    }
}

/*
 * VBR_new_prepare's reservoir part (the bit budget of each granule, as
 * on_pe allots it within the largest frame) and the rest of
 * VBR_new_iteration_loop: fitting the frame, the smallest bitrate that
 * holds it (or, with a reservoir to fill, the largest whose unused bits fit
 * into it), the reservoir update.
 */
void ct_mp3_vbr_commit_frame(ct_mp3_state *gfc, const float pe[2][2], ct_mp3_vbr_work *work)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_result *const eov = &gfc->ov_enc;
    ct_mp3_side_info *const l3_side = &gfc->l3_side;
    int frameBits[15];
    int used_bits;
    int max_bits[2][2];
    int ch, gr, pad;
    int avg, bits = 0;
    int maximum_framebits;
    int i, j;

    eov->bitrate_index = cfg->vbr_max_bitrate_index;
    (void) ct_mp3_resv_frame_begin(gfc, &avg);
    pad = gfc->sv_enc.ResvMax;

    get_framebits(gfc, frameBits);
    maximum_framebits = frameBits[cfg->vbr_max_bitrate_index];

    for (gr = 0; gr < cfg->mode_gr; gr++) {
        int targ_bits[2] = {0, 0};
        (void) on_pe(gfc, pe, targ_bits, avg, gr, 0);
        for (ch = 0; ch < cfg->channels_out; ++ch) {
            max_bits[gr][ch] = targ_bits[ch];
            bits += max_bits[gr][ch];
        }
    }
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            if (bits > maximum_framebits && bits > 0) {
                max_bits[gr][ch] *= maximum_framebits;
                max_bits[gr][ch] /= bits;
            }
            if (!work->active[gr][ch])
                max_bits[gr][ch] = 0; /* silent granule needs no bits */
        }
    }
    if (work->analog_silence)
        pad = 0;

    used_bits = ct_mp3_vbr_fit_frame(gfc, l3_side, work, (const int (*)[2]) max_bits);

    /* find lowest bitrate able to hold used bits */
    if (work->analog_silence && !cfg->enforce_min_bitrate) {
        /* we detected analog silence and the user did not specify any hard
         * framesize limit, so start with smallest possible frame */
        i = 1;
    } else {
        i = cfg->vbr_min_bitrate_index;
    }

    for (; i < cfg->vbr_max_bitrate_index; i++) {
        if (used_bits <= frameBits[i])
            break;
    }
    if (i > cfg->vbr_max_bitrate_index)
        i = cfg->vbr_max_bitrate_index;
    if (pad > 0) {
        for (j = cfg->vbr_max_bitrate_index; j > i; --j) {
            int const unused = frameBits[j] - used_bits;
            if (unused <= pad)
                break;
        }
        eov->bitrate_index = j;
    } else {
        eov->bitrate_index = i;
    }

    /* update Reservoir status (LAME stops with an internal error if the
     * bits do not fit frameBits[bitrate_index], which cannot happen) */
    {
        int mean_bits;
        (void) ct_mp3_resv_frame_begin(gfc, &mean_bits);
        for (gr = 0; gr < cfg->mode_gr; gr++) {
            for (ch = 0; ch < cfg->channels_out; ch++)
                ct_mp3_resv_adjust(gfc, &l3_side->tt[gr][ch]);
        }
        ct_mp3_resv_frame_end(gfc, mean_bits);
    }
}

void ct_mp3_vbr_new_iteration_loop(ct_mp3_state *gfc, const float pe[2][2],
                                   const float ms_ener_ratio[2],
                                   const ct_mp3_psy_ratio ratio[2][2])
{
    ct_mp3_vbr_work work;

    (void) ms_ener_ratio; /* not used */

    memset(&work, 0, sizeof(work));
    ct_mp3_vbr_prepare(gfc, gfc->ATH.adjust_factor, gfc->ov_enc.mode_ext, &gfc->l3_side, ratio,
                       &work);
    ct_mp3_vbr_search_frame(gfc, &gfc->l3_side, &work);
    ct_mp3_vbr_commit_frame(gfc, pe, &work);
}

/* calc_target_bits: the target bits of each granule for ABR, and the bits
 * of an analog silent granule. */
static void calc_target_bits(ct_mp3_state *gfc, const float pe[2][2],
                             const float ms_ener_ratio[2], int targ_bits[2][2],
                             int *analog_silence_bits, int *max_frame_bits)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_result *const eov = &gfc->ov_enc;
    const ct_mp3_side_info *const l3_side = &gfc->l3_side;
    float res_factor;
    int gr, ch, totbits, mean_bits;
    int framesize = 576 * cfg->mode_gr;

    eov->bitrate_index = cfg->vbr_max_bitrate_index;
    *max_frame_bits = ct_mp3_resv_frame_begin(gfc, &mean_bits);

    eov->bitrate_index = 1;
    mean_bits = ct_mp3_getframebits(gfc) - cfg->sideinfo_len * 8;
    *analog_silence_bits = mean_bits / (cfg->mode_gr * cfg->channels_out);

    mean_bits = cfg->vbr_avg_bitrate_kbps * framesize * 1000;
    mean_bits /= cfg->samplerate_out;
    mean_bits -= cfg->sideinfo_len * 8;
    mean_bits /= (cfg->mode_gr * cfg->channels_out);

    /*
     * res_factor is the percentage of the target bitrate that should be
     * used on average; the rest is added to the reservoir for difficult
     * frames:
     *   compression ratio    res_factor
     *   5.5  (256kbps)         1.0      no need for bitreservoir
     *   11   (128kbps)         .93      7% held for reservoir
     * with linear interpolation for other values.
     */
    res_factor = .93 + .07 * (11.0 - cfg->compression_ratio) / (11.0 - 5.5);
    if (res_factor < .90)
        res_factor = .90;
    if (res_factor > 1.00)
        res_factor = 1.00;

    for (gr = 0; gr < cfg->mode_gr; gr++) {
        int sum = 0;
        for (ch = 0; ch < cfg->channels_out; ch++) {
            targ_bits[gr][ch] = res_factor * mean_bits;

            if (pe[gr][ch] > 700) {
                int add_bits = (pe[gr][ch] - 700) / 1.4;

                const ct_mp3_gr_info *const cod_info = &l3_side->tt[gr][ch];
                targ_bits[gr][ch] = res_factor * mean_bits;

                /* short blocks use a little extra, no matter what the pe */
                if (cod_info->block_type == SHORT_TYPE) {
                    if (add_bits < mean_bits / 2)
                        add_bits = mean_bits / 2;
                }
                /* at most increase bits by 1.5*average */
                if (add_bits > mean_bits * 3 / 2)
                    add_bits = mean_bits * 3 / 2;
                else if (add_bits < 0)
                    add_bits = 0;

                targ_bits[gr][ch] += add_bits;
            }
            if (targ_bits[gr][ch] > MAX_BITS_PER_CHANNEL)
                targ_bits[gr][ch] = MAX_BITS_PER_CHANNEL;
            sum += targ_bits[gr][ch];
        }
        if (sum > MAX_BITS_PER_GRANULE) {
            for (ch = 0; ch < cfg->channels_out; ++ch) {
                targ_bits[gr][ch] *= MAX_BITS_PER_GRANULE;
                targ_bits[gr][ch] /= sum;
            }
        }
    }

    if (gfc->ov_enc.mode_ext == MPG_MD_MS_LR) {
        for (gr = 0; gr < cfg->mode_gr; gr++) {
            reduce_side(targ_bits[gr], ms_ener_ratio[gr], mean_bits * cfg->channels_out,
                        MAX_BITS_PER_GRANULE);
        }
    }

    /* sum target bits */
    totbits = 0;
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            if (targ_bits[gr][ch] > MAX_BITS_PER_CHANNEL)
                targ_bits[gr][ch] = MAX_BITS_PER_CHANNEL;
            totbits += targ_bits[gr][ch];
        }
    }

    /* repartion target bits if needed */
    if (totbits > *max_frame_bits && totbits > 0) {
        for (gr = 0; gr < cfg->mode_gr; gr++) {
            for (ch = 0; ch < cfg->channels_out; ch++) {
                targ_bits[gr][ch] *= *max_frame_bits;
                targ_bits[gr][ch] /= totbits;
            }
        }
    }
}

/* A granule's inputs to outer_loop in the plain chain: fresh side info,
 * xrpow and, if it has energy, the allowed distortion; returns the latter's
 * bands above the ATH (-1: no energy to quantize). The order is the loop's:
 * init_xrpow reads the max_nonzero_coeff of init_outer_loop, not
 * calc_xmin's. */
static int granule_prepare(const ct_mp3_state *gfc, const ct_mp3_psy_ratio *ratio,
                           ct_mp3_gr_info *cod_info, float xrpow[576], float l3_xmin[SFBMAX])
{
    ct_mp3_init_outer_loop(gfc, cod_info);
    if (!ct_mp3_init_xrpow(&gfc->dsp.quantize, cod_info, xrpow))
        return -1;
    return ct_mp3_calc_xmin(gfc, gfc->ATH.adjust_factor, ratio, cod_info, l3_xmin);
}

/* A speculation's targets before it runs: none. */
static const ct_mp3_targ_range targ_none = {1, 0};

void ct_mp3_loop_prepare(const ct_mp3_state *gfc, int mode_ext, ct_mp3_side_info *l3_side,
                         const ct_mp3_psy_ratio ratio[2][2], ct_mp3_loop_work *work)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int gr, ch;

    for (gr = 0; gr < 2; gr++)
        for (ch = 0; ch < 2; ch++)
            work->spec_start_targ[gr][ch] = work->spec_shape_targ[gr][ch] = targ_none;
    for (ch = 0; ch < 2; ch++)
        work->spec_second_targ[ch] = targ_none;
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        if (mode_ext == MPG_MD_MS_LR)
            ms_convert(l3_side, gr);
        for (ch = 0; ch < cfg->channels_out; ch++) {
            int ath_over = granule_prepare(gfc, &ratio[gr][ch], &l3_side->tt[gr][ch],
                                           work->xrpow[gr][ch], work->l3_xmin[gr][ch]);
            work->active[gr][ch] = ath_over >= 0;
            work->ath_over[gr][ch] = ath_over;
        }
    }
}

/* How a loop runs: the plain chain (granules prepared in the loop), the
 * speculative run or the commit (granules prepared in a ct_mp3_loop_work). */
typedef enum loop_run {
    LOOP_PLAIN,
    LOOP_SPECULATE,
    LOOP_COMMIT
} loop_run;

/* A granule's prepared inputs: in the plain chain computed here (NULL
 * ratio: none), else the work's; the speculative run quantizes a copy of
 * xrpow, which outer_loop changes, so that the commit finds it as
 * prepared. Returns the bands above the ATH, -1 if nothing to quantize. */
static int granule_inputs(ct_mp3_state *gfc, int gr, int ch, const ct_mp3_psy_ratio *ratio,
                          ct_mp3_loop_work *work, loop_run run, float xrpow_buf[576],
                          float xmin_buf[SFBMAX], float **xrpow, const float **l3_xmin)
{
    if (run == LOOP_PLAIN) {
        *xrpow = xrpow_buf;
        *l3_xmin = xmin_buf;
        return granule_prepare(gfc, ratio, &gfc->l3_side.tt[gr][ch], xrpow_buf, xmin_buf);
    }
    *l3_xmin = work->l3_xmin[gr][ch];
    if (run == LOOP_SPECULATE) {
        memcpy(xrpow_buf, work->xrpow[gr][ch], sizeof(work->xrpow[gr][ch]));
        *xrpow = xrpow_buf;
    } else {
        *xrpow = work->xrpow[gr][ch];
    }
    return work->active[gr][ch] ? work->ath_over[gr][ch] : -1;
}

/* Whether two granules leave outer_loop's start alike: xr aside (the
 * start does not change it), every field, as the binary search leaves
 * stale what its last bit count does not set (the table of an empty
 * region, say). */
static int start_equal(const ct_mp3_gr_info *a, const ct_mp3_gr_info *b)
{
    size_t const from = offsetof(ct_mp3_gr_info, l3_enc);
    size_t const to = offsetof(ct_mp3_gr_info, energy_above_cutoff) + sizeof(a->energy_above_cutoff);

    return memcmp((const char *) a + from, (const char *) b + from, to - from) == 0;
}

static const ct_mp3_targ_range targ_all = {INT_MIN, INT_MAX};

static int targ_in(const ct_mp3_targ_range *range, int targ_bits)
{
    return range->lo <= targ_bits && targ_bits <= range->hi;
}

/* Whether the commit's granule takes the speculation's result as it is:
 * its step size search would start, and so run, as the speculation's (or
 * as the second start's of the first granule), and its target is one the
 * speculation's search and shaping ran for (sv_qnt.pseudohalf, which the
 * search's start also sets, is the scratch of one granule's search).
 * Returns the search's start and end that hold, or NULL. */
static const int *spec_holds(const ct_mp3_qnt_state *qnt, const ct_mp3_loop_work *work, int gr,
                             int ch, int targ_bits)
{
    const int *const second = work->spec_second_search[ch];

    if (!targ_in(&work->spec_shape_targ[gr][ch], targ_bits))
        return NULL;
    if (qnt->OldValue[ch] == work->spec_search[gr][ch][0]
        && qnt->CurrentStep[ch] == work->spec_search[gr][ch][1]
        && targ_in(&work->spec_start_targ[gr][ch], targ_bits))
        return work->spec_search[gr][ch];
    if (gr == 0 && qnt->OldValue[ch] == second[0] && qnt->CurrentStep[ch] == second[1]
        && targ_in(&work->spec_second_targ[ch], targ_bits))
        return second;
    return NULL;
}

/* outer_loop of one granule (cod_info, of the frame's granule gr, ch)
 * with its target bits on gfc's tables and step size search; the commit
 * takes the speculative result where the start agrees with the
 * speculation's and the target is one the speculation's shaping ran for.
 * The speculation and the commit divide the regions of their result ahead
 * of iteration_finish_one and code its lines (work->part3): what
 * iteration_finish_one's best_scalefac_store leaves of them is this,
 * whatever it does to the scalefactors, and a channel shaped on the
 * split's helper is coded there. Returns whether the granule's regions
 * are divided. */
static int granule_quantize(ct_mp3_state *gfc, ct_mp3_gr_info *cod_info, int gr, int ch,
                            const float *l3_xmin, float xrpow[576], int targ_bits,
                            ct_mp3_loop_work *work, loop_run run)
{
    ct_mp3_qnt_state *const qnt = &gfc->sv_qnt;
    ct_mp3_targ_range *start_targ = NULL, *shape_targ = NULL;

    if (run == LOOP_COMMIT && targ_in(&work->spec_shape_targ[gr][ch], targ_bits)) {
        const int *const search = spec_holds(qnt, work, gr, ch, targ_bits);
        if (search != NULL) {
            *cod_info = work->spec[gr][ch];
            qnt->OldValue[ch] = search[2];
            qnt->CurrentStep[ch] = search[3];
            work->took[gr][ch] = work->coded[gr][ch] = 1;
            return 1;
        }
        ct_mp3_outer_loop_start(gfc, cod_info, xrpow, ch, targ_bits, NULL);
        if (start_equal(cod_info, &work->spec_start[gr][ch])) {
            *cod_info = work->spec[gr][ch];
            work->took[gr][ch] = work->coded[gr][ch] = 1;
            return 1;
        }
    } else {
        if (run == LOOP_SPECULATE) {
            work->spec_search[gr][ch][0] = qnt->OldValue[ch];
            work->spec_search[gr][ch][1] = qnt->CurrentStep[ch];
            work->spec_targ[gr][ch] = targ_bits;
            start_targ = &work->spec_start_targ[gr][ch];
            shape_targ = &work->spec_shape_targ[gr][ch];
            *start_targ = *shape_targ = targ_all;
        }
        ct_mp3_outer_loop_start(gfc, cod_info, xrpow, ch, targ_bits, start_targ);
    }
    if (run == LOOP_SPECULATE) {
        work->spec_search[gr][ch][2] = qnt->OldValue[ch];
        work->spec_search[gr][ch][3] = qnt->CurrentStep[ch];
        work->spec_start[gr][ch] = *cod_info;
    }
    (void) ct_mp3_outer_loop_shape(gfc, cod_info, l3_xmin, xrpow, targ_bits, shape_targ);
    if (run == LOOP_PLAIN)
        return 0;
    if (gfc->cfg.use_best_huffman == 1)
        ct_mp3_best_huffman_divide(gfc, cod_info);
    ct_mp3_encode_part3(&gfc->scalefac_band, cod_info, &work->part3[gr][ch]);
    if (run == LOOP_SPECULATE) {
        work->spec[gr][ch] = *cod_info;
        work->speculated++;
    } else {
        work->coded[gr][ch] = 1;
    }
    return 1;
}

/* Channel 1's outer_loop of the commit on the split's helper state. */
typedef struct channel_job {
    ct_mp3_state *helper;
    ct_mp3_gr_info *cod_info;
    const float *l3_xmin;
    float *xrpow;
    int gr, targ_bits;
    ct_mp3_loop_work *work;
    int divided; /* granule_quantize's result */
} channel_job;

static void channel_job_run(void *arg)
{
    channel_job *const job = arg;

    job->divided = granule_quantize(job->helper, job->cod_info, job->gr, 1, job->l3_xmin,
                                    job->xrpow, job->targ_bits, job->work, LOOP_COMMIT);
}

/* A stereo granule of the commit with its target bits per channel:
 * where neither channel takes the speculation's result as it is, channel
 * 1's outer_loop goes to the split's helper (quantize.h) while channel 0's
 * runs here. */
static void granule_commit_split(ct_mp3_state *gfc, int gr, const int targ_bits[2],
                                 ct_mp3_loop_work *work, const ct_mp3_loop_split *split)
{
    ct_mp3_qnt_state *const qnt = &gfc->sv_qnt;
    ct_mp3_qnt_state *const helper_qnt = &split->helper->sv_qnt;
    ct_mp3_gr_info *const tt = gfc->l3_side.tt[gr];
    int const posted = work->active[gr][0] && work->active[gr][1]
                       && !spec_holds(qnt, work, gr, 0, targ_bits[0])
                       && !spec_holds(qnt, work, gr, 1, targ_bits[1]);
    channel_job job = {split->helper, &tt[1], work->l3_xmin[gr][1], work->xrpow[gr][1],
                       gr, targ_bits[1], work, 0};
    int divided[2] = {0, 0};

    if (posted) {
        helper_qnt->OldValue[1] = qnt->OldValue[1];
        helper_qnt->CurrentStep[1] = qnt->CurrentStep[1];
        ct_lane_post(split->lane, channel_job_run, &job);
    }
    if (work->active[gr][0])
        divided[0] = granule_quantize(gfc, &tt[0], gr, 0, work->l3_xmin[gr][0],
                                      work->xrpow[gr][0], targ_bits[0], work, LOOP_COMMIT);
    iteration_finish_one(gfc, gr, 0, divided[0]);
    if (posted) {
        (void) ct_lane_complete(split->lane);
        qnt->OldValue[1] = helper_qnt->OldValue[1];
        qnt->CurrentStep[1] = helper_qnt->CurrentStep[1];
        divided[1] = job.divided;
    } else if (work->active[gr][1]) {
        divided[1] = granule_quantize(gfc, &tt[1], gr, 1, work->l3_xmin[gr][1],
                                      work->xrpow[gr][1], targ_bits[1], work, LOOP_COMMIT);
    }
    iteration_finish_one(gfc, gr, 1, divided[1]);
}

/* ABR_iteration_loop: encode a frame with a desired average bitrate. */
static void abr_loop(ct_mp3_state *gfc, const float pe[2][2], const float ms_ener_ratio[2],
                     const ct_mp3_psy_ratio ratio[2][2], ct_mp3_loop_work *work, loop_run run,
                     const ct_mp3_loop_split *split)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_result *const eov = &gfc->ov_enc;
    float l3_xmin_buf[SFBMAX];
    float xrpow_buf[576];
    int targ_bits[2][2];
    int mean_bits, max_frame_bits;
    int ch, gr, ath_over;
    int analog_silence_bits;

    mean_bits = 0;

    calc_target_bits(gfc, pe, ms_ener_ratio, targ_bits, &analog_silence_bits, &max_frame_bits);

    /* encode granules */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        if (run == LOOP_PLAIN && gfc->ov_enc.mode_ext == MPG_MD_MS_LR)
            ms_convert(&gfc->l3_side, gr);
        if (split != NULL && ct_lane_has_helper(split->lane)) {
            for (ch = 0; ch < 2; ch++)
                if (work->active[gr][ch] && work->ath_over[gr][ch] == 0)
                    targ_bits[gr][ch] = analog_silence_bits;
            granule_commit_split(gfc, gr, targ_bits[gr], work, split);
            continue;
        }
        for (ch = 0; ch < cfg->channels_out; ch++) {
            float *xrpow;
            const float *l3_xmin;
            int divided = 0;

            /* cod_info, scalefac and xrpow get initialized in
             * init_outer_loop; if xr contains energy we will have to
             * encode: calculate the masking abilities, find some good
             * quantization in outer_loop */
            ath_over = granule_inputs(gfc, gr, ch, run == LOOP_PLAIN ? &ratio[gr][ch] : NULL,
                                      work, run, xrpow_buf, l3_xmin_buf, &xrpow, &l3_xmin);
            if (ath_over >= 0) {
                if (0 == ath_over) /* analog silence */
                    targ_bits[gr][ch] = analog_silence_bits;

                divided = granule_quantize(gfc, &gfc->l3_side.tt[gr][ch], gr, ch, l3_xmin,
                                           xrpow, targ_bits[gr][ch], work, run);
            }
            iteration_finish_one(gfc, gr, ch, divided);
        }
    }

    /* find a bitrate which can refill the reservoir to positive size */
    for (eov->bitrate_index = cfg->vbr_min_bitrate_index;
         eov->bitrate_index <= cfg->vbr_max_bitrate_index; eov->bitrate_index++) {
        if (ct_mp3_resv_frame_begin(gfc, &mean_bits) >= 0)
            break;
    }

    ct_mp3_resv_frame_end(gfc, mean_bits);
}

/* CBR_iteration_loop: encodes one frame with constant bitrate. */
static void cbr_loop(ct_mp3_state *gfc, const float pe[2][2], const float ms_ener_ratio[2],
                     const ct_mp3_psy_ratio ratio[2][2], ct_mp3_loop_work *work, loop_run run,
                     const ct_mp3_loop_split *split)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    float l3_xmin_buf[SFBMAX];
    float xrpow_buf[576];
    int targ_bits[2];
    int mean_bits, max_bits;
    int gr, ch;

    (void) ct_mp3_resv_frame_begin(gfc, &mean_bits);

    /* quantize! */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        /* calculate needed bits */
        max_bits = on_pe(gfc, pe, targ_bits, mean_bits, gr, gr);

        if (gfc->ov_enc.mode_ext == MPG_MD_MS_LR) {
            if (run == LOOP_PLAIN)
                ms_convert(&gfc->l3_side, gr);
            reduce_side(targ_bits, ms_ener_ratio[gr], mean_bits, max_bits);
        }

        if (split != NULL && ct_lane_has_helper(split->lane)) {
            granule_commit_split(gfc, gr, targ_bits, work, split);
            continue;
        }
        for (ch = 0; ch < cfg->channels_out; ch++) {
            float *xrpow;
            const float *l3_xmin;
            int divided = 0;

            /* init_outer_loop sets up cod_info, scalefac and xrpow; if xr
             * contains energy we will have to encode: calculate the
             * masking abilities, find some good quantization in
             * outer_loop */
            if (granule_inputs(gfc, gr, ch, run == LOOP_PLAIN ? &ratio[gr][ch] : NULL, work,
                               run, xrpow_buf, l3_xmin_buf, &xrpow, &l3_xmin)
                >= 0)
                divided = granule_quantize(gfc, &gfc->l3_side.tt[gr][ch], gr, ch, l3_xmin,
                                           xrpow, targ_bits[ch], work, run);

            iteration_finish_one(gfc, gr, ch, divided);
        }
    }

    ct_mp3_resv_frame_end(gfc, mean_bits);
}

void ct_mp3_abr_iteration_loop(ct_mp3_state *gfc, const float pe[2][2],
                               const float ms_ener_ratio[2],
                               const ct_mp3_psy_ratio ratio[2][2])
{
    abr_loop(gfc, pe, ms_ener_ratio, ratio, NULL, LOOP_PLAIN, NULL);
}

void ct_mp3_cbr_iteration_loop(ct_mp3_state *gfc, const float pe[2][2],
                               const float ms_ener_ratio[2],
                               const ct_mp3_psy_ratio ratio[2][2])
{
    cbr_loop(gfc, pe, ms_ener_ratio, ratio, NULL, LOOP_PLAIN, NULL);
}

/* The guesses: CBR's reservoir three quarters full, where the target bits
 * of a granule whose pe asks for no more than the mean do not depend on
 * its exact size (ResvMaxBits gives 0.9 * mean_bits and 0.6 * ResvMax to
 * share); ABR's empty, whose largest frame holds the targets of all but
 * the loudest frames. A granule's result holds for a range of targets
 * (ct_mp3_targ_range) and so of reservoirs around the guess. The binary search starts where the caller
 * says: its result rarely depends on where it starts, but where it starts
 * as in the commit, the commit need not run it. */
void ct_mp3_loop_speculate(ct_mp3_state *scratch, const float pe[2][2],
                           const float ms_ener_ratio[2], int search[2][2],
                           ct_mp3_loop_work *work)
{
    int ch, mean_bits;

    for (ch = 0; ch < 2; ch++) {
        scratch->sv_qnt.OldValue[ch] = search[ch][0];
        scratch->sv_qnt.CurrentStep[ch] = search[ch][1];
    }
    work->speculated = 0;
    if (scratch->cfg.vbr == CT_MP3_VBR_ABR) {
        scratch->sv_enc.ResvSize = 0;
        abr_loop(scratch, pe, ms_ener_ratio, NULL, work, LOOP_SPECULATE, NULL);
    } else {
        (void) ct_mp3_resv_frame_begin(scratch, &mean_bits);
        scratch->sv_enc.ResvSize = scratch->sv_enc.ResvMax / 32 * 24;
        cbr_loop(scratch, pe, ms_ener_ratio, NULL, work, LOOP_SPECULATE, NULL);
    }
    for (ch = 0; ch < 2; ch++) {
        search[ch][0] = scratch->sv_qnt.OldValue[ch];
        search[ch][1] = scratch->sv_qnt.CurrentStep[ch];
    }
}

void ct_mp3_loop_second_start(ct_mp3_state *scratch, const ct_mp3_side_info *l3_side,
                              const int start[2][2], ct_mp3_loop_work *work)
{
    ct_mp3_qnt_state *const qnt = &scratch->sv_qnt;
    int ch;

    for (ch = 0; ch < scratch->cfg.channels_out; ch++) {
        const int *const spec = work->spec_search[0][ch];
        int *const second = work->spec_second_search[ch];
        ct_mp3_targ_range range = targ_all;
        ct_mp3_gr_info gi;

        if (work->spec_start_targ[0][ch].lo > work->spec_start_targ[0][ch].hi
            || (start[ch][0] == spec[0] && start[ch][1] == spec[1]))
            continue;
        gi = l3_side->tt[0][ch];
        qnt->OldValue[ch] = start[ch][0];
        qnt->CurrentStep[ch] = start[ch][1];
        ct_mp3_outer_loop_start(scratch, &gi, work->xrpow[0][ch], ch, work->spec_targ[0][ch],
                                &range);
        if (!start_equal(&gi, &work->spec_start[0][ch]))
            continue;
        second[0] = start[ch][0];
        second[1] = start[ch][1];
        second[2] = qnt->OldValue[ch];
        second[3] = qnt->CurrentStep[ch];
        work->spec_second_targ[ch] = range;
    }
}

void ct_mp3_loop_commit(ct_mp3_state *gfc, const float pe[2][2], const float ms_ener_ratio[2],
                        ct_mp3_loop_work *work, const ct_mp3_loop_split *split)
{
    if (gfc->cfg.channels_out != 2)
        split = NULL;
    memset(work->took, 0, sizeof(work->took));
    memset(work->coded, 0, sizeof(work->coded));
    if (gfc->cfg.vbr == CT_MP3_VBR_ABR)
        abr_loop(gfc, pe, ms_ener_ratio, NULL, work, LOOP_COMMIT, split);
    else
        cbr_loop(gfc, pe, ms_ener_ratio, NULL, work, LOOP_COMMIT, split);
    work->taken = work->took[0][0] + work->took[0][1] + work->took[1][0] + work->took[1][1];
}
