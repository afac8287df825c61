/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/encoder.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#include "frame.h"

#include <math.h>
#include <string.h>

#include "bitstream.h"
#include "lametag.h"
#include "mdct.h"
#include "psy.h"
#include "quantize.h"

/* adjust_ATH: auto-adjust of the ATH for low volume (Gabriel Bouvigne,
 * 2001), from the loudness of the granule pair the psychoacoustic model
 * measured. */
void ct_mp3_adjust_ath(ct_mp3_state *gfc)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_ath *const ATH = &gfc->ATH;
    float gr2_max, max_pow;

    if (ATH->use_adjust == 0) {
        ATH->adjust_factor = 1.0; /* no adjustment */
        return;
    }

    /* loudness based on equal loudness curve; use granule with maximum
     * combined loudness */
    max_pow = gfc->ov_psy.loudness_sq[0][0];
    gr2_max = gfc->ov_psy.loudness_sq[1][0];
    if (cfg->channels_out == 2) {
        max_pow += gfc->ov_psy.loudness_sq[0][1];
        gr2_max += gfc->ov_psy.loudness_sq[1][1];
    }
    else {
        max_pow += max_pow;
        gr2_max += gr2_max;
    }
    if (cfg->mode_gr == 2) {
        max_pow = max_pow > gr2_max ? max_pow : gr2_max;
    }
    max_pow *= 0.5; /* max_pow approaches 1.0 for full band noise */

    /* user tuning of ATH adjustment region */
    max_pow *= ATH->aa_sensitivity_p;

    /* For an increase in approximate loudness, set ATH adjust to
     * adjust_limit immediately after a delay of one frame. For a loudness
     * decrease, reduce ATH adjust towards adjust_limit gradually. max_pow
     * is a loudness squared or a power. */
    if (max_pow > 0.03125) { /* ((1 - 0.000625)/ 31.98) from curve below */
        if (ATH->adjust_factor >= 1.0) {
            ATH->adjust_factor = 1.0;
        }
        else {
            /* preceding frame has lower ATH adjust; ascend only to the
             * preceding adjust_limit in case there is leading low volume */
            if (ATH->adjust_factor < ATH->adjust_limit) {
                ATH->adjust_factor = ATH->adjust_limit;
            }
        }
        ATH->adjust_limit = 1.0;
    }
    else { /* adjustment curve: about 32 dB maximum adjust (0.000625) */
        float const adj_lim_new = 31.98 * max_pow + 0.000625;
        if (ATH->adjust_factor >= adj_lim_new) { /* descend gradually */
            ATH->adjust_factor *= adj_lim_new * 0.075 + 0.925;
            if (ATH->adjust_factor < adj_lim_new) { /* stop descent */
                ATH->adjust_factor = adj_lim_new;
            }
        }
        else { /* ascend */
            if (ATH->adjust_limit >= adj_lim_new) {
                ATH->adjust_factor = adj_lim_new;
            }
            else { /* preceding frame has lower ATH adjust; ascend only to
                      the preceding adjust_limit */
                if (ATH->adjust_factor < ATH->adjust_limit) {
                    ATH->adjust_factor = ATH->adjust_limit;
                }
            }
        }
        ATH->adjust_limit = adj_lim_new;
    }
}

/* lame_encode_frame_init's input: a frame of zeros, then the first samples
 * of the frame at inbuf. */
static void prime_buffers(const ct_mp3_config *cfg, const float *const inbuf[2],
                          float primebuff0[286 + 1152 + 576],
                          float primebuff1[286 + 1152 + 576])
{
    int const framesize = 576 * cfg->mode_gr;
    int i, j;

    memset(primebuff0, 0, sizeof(float) * (286 + 1152 + 576));
    memset(primebuff1, 0, sizeof(float) * (286 + 1152 + 576));
    for (i = 0, j = 0; i < 286 + 576 * (1 + cfg->mode_gr); ++i) {
        if (i < framesize) {
            primebuff0[i] = 0;
            if (cfg->channels_out == 2)
                primebuff1[i] = 0;
        }
        else {
            primebuff0[i] = inbuf[0][j];
            if (cfg->channels_out == 2)
                primebuff1[i] = inbuf[1][j];
            ++j;
        }
    }
}

/* lame_encode_frame_init: primes the polyphase filterbank and MDCT with a
 * short block of the first samples. */
static void encode_frame_init(ct_mp3_state *gfc, const float *const inbuf[2])
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    int ch, gr;
    float primebuff0[286 + 1152 + 576];
    float primebuff1[286 + 1152 + 576];

    gfc->lame_encode_frame_init = 1;
    prime_buffers(cfg, inbuf, primebuff0, primebuff1);
    /* polyphase filtering / mdct */
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            gfc->l3_side.tt[gr][ch].block_type = SHORT_TYPE;
        }
    }
    ct_mp3_mdct_sub48(gfc, primebuff0, primebuff1);
}

void ct_mp3_prime_filterbank(const ct_mp3_config *cfg, const ct_mp3_mdct_dsp *dsp,
                             const float amp_filter[SBLIMIT], const float *const inbuf[2],
                             float carry[2][18][SBLIMIT])
{
    float primebuff[2][286 + 1152 + 576];
    int ch;

    prime_buffers(cfg, inbuf, primebuff[0], primebuff[1]);
    /* mdct_sub48 of the priming leaves the subband samples of its last
     * granule; the lines it computes are overwritten by the first frame's */
    for (ch = 0; ch < cfg->channels_out; ch++)
        ct_mp3_polyphase(dsp, amp_filter, primebuff[ch] + 286 + 576 * (cfg->mode_gr - 1),
                         carry[ch]);
}

/* The FFT window of granule gr in the frame's input: one granule of
 * look-ahead (mt 6/99), the FFT centered over the next granule. */
static void psy_buffers(const ct_mp3_config *cfg, const float *const inbuf[2], int gr,
                        const float *bufp[2])
{
    int ch;
    bufp[0] = bufp[1] = 0;
    for (ch = 0; ch < cfg->channels_out; ch++) {
        bufp[ch] = &inbuf[ch][576 + gr * 576 - FFTOFFSET];
    }
}

/* After the model of granule gr: the M/S energy ratio and the block type
 * flags of the side info. */
static void granule_flags(const ct_mp3_config *cfg, ct_mp3_frame *fr, int gr,
                          ct_mp3_side_info *l3_side)
{
    int ch;

    if (cfg->mode == CT_MP3_JOINT_STEREO) {
        fr->ms_ener_ratio[gr] = fr->tot_ener[gr][2] + fr->tot_ener[gr][3];
        if (fr->ms_ener_ratio[gr] > 0)
            fr->ms_ener_ratio[gr] = fr->tot_ener[gr][3] / fr->ms_ener_ratio[gr];
    }

    /* block type flags */
    for (ch = 0; ch < cfg->channels_out; ch++) {
        ct_mp3_gr_info *const cod_info = &l3_side->tt[gr][ch];
        cod_info->block_type = fr->blocktype[gr][ch];
        cod_info->mixed_block_flag = 0;
    }
}

/* Stage 1: the psychoacoustic model. */
static int psychoacoustics(ct_mp3_state *gfc, const float *const inbuf[2],
                           ct_mp3_frame *fr)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    int gr;

    for (gr = 0; gr < cfg->mode_gr; gr++) {
        const float *bufp[2];
        psy_buffers(cfg, inbuf, gr, bufp);
        if (ct_mp3_psy_anal(gfc, bufp, gr, fr->masking_LR, fr->masking_MS,
                            fr->pe[gr], fr->pe_MS[gr], fr->tot_ener[gr],
                            fr->blocktype[gr]) != 0)
            return -4;
        granule_flags(cfg, fr, gr, &gfc->l3_side);
    }
    return 0;
}

void ct_mp3_frame_record_init(ct_mp3_frame *fr)
{
    memset(fr, 0, sizeof(*fr));
    fr->ms_ener_ratio[0] = .5;
    fr->ms_ener_ratio[1] = .5;
}

void ct_mp3_frame_prepare(const ct_mp3_state *gfc, const float *const inbuf[2],
                          int with_short, ct_mp3_psy_granule pg[2],
                          float sb[2][2][18][SBLIMIT])
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    int gr, ch;

    for (gr = 0; gr < cfg->mode_gr; gr++) {
        const float *bufp[2];
        psy_buffers(cfg, inbuf, gr, bufp);
        ct_mp3_psy_prepare(gfc, bufp, with_short, &pg[gr]);
    }
    /* mdct_sub48's windows: granule gr of channel ch from inbuf[ch] + 286 +
     * 576 * gr */
    for (ch = 0; ch < cfg->channels_out; ch++)
        for (gr = 0; gr < cfg->mode_gr; gr++)
            ct_mp3_polyphase(&gfc->dsp.mdct, gfc->sv_enc.amp_filter, inbuf[ch] + 286 + 576 * gr,
                             sb[gr][ch]);
}

void ct_mp3_frame_psy_decide(ct_mp3_state *gfc, const ct_mp3_psy_granule pg[2],
                             ct_mp3_frame *fr, ct_mp3_psy_decision dec[2],
                             ct_mp3_side_info *l3_side)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    int gr;

    for (gr = 0; gr < cfg->mode_gr; gr++) {
        ct_mp3_psy_decide(gfc, &pg[gr], gr, fr->tot_ener[gr], fr->blocktype[gr], &dec[gr]);
        granule_flags(cfg, fr, gr, l3_side);
    }
}

void ct_mp3_frame_psy_mask(const ct_mp3_state *gfc, const float *const inbuf[2],
                           ct_mp3_psy_granule pg[2], const ct_mp3_psy_decision dec[2],
                           ct_mp3_psy_ratio mask[2][4])
{
    int gr;

    for (gr = 0; gr < gfc->cfg.mode_gr; gr++) {
        const float *bufp[2];
        psy_buffers(&gfc->cfg, inbuf, gr, bufp);
        ct_mp3_psy_mask(gfc, &pg[gr], bufp, &dec[gr], mask[gr]);
    }
}

void ct_mp3_frame_psy_finish(ct_mp3_state *gfc, const ct_mp3_psy_granule pg[2],
                             const ct_mp3_psy_decision dec[2],
                             const ct_mp3_psy_ratio mask[2][4], ct_mp3_frame *fr)
{
    int gr;

    for (gr = 0; gr < gfc->cfg.mode_gr; gr++)
        ct_mp3_psy_finish(gfc, &pg[gr], &dec[gr], mask[gr], gr, fr->masking_LR, fr->masking_MS,
                          fr->pe[gr], fr->pe_MS[gr], fr->blocktype[gr]);
}

void ct_mp3_frame_mdct(const ct_mp3_config *cfg, const float amp_filter[SBLIMIT],
                       const float carry[2][18][SBLIMIT], const float sb[2][2][18][SBLIMIT],
                       ct_mp3_side_info *l3_side)
{
    int gr, ch;

    for (ch = 0; ch < cfg->channels_out; ch++) {
        ct_mp3_mdct_granule(amp_filter, carry[ch], sb[0][ch], l3_side->tt[0][ch].block_type,
                            l3_side->tt[0][ch].xr);
        for (gr = 1; gr < cfg->mode_gr; gr++) {
            ct_mp3_gr_info *const gi = &l3_side->tt[gr][ch];
            ct_mp3_mdct_granule(amp_filter, sb[gr - 1][ch], sb[gr][ch], gi->block_type, gi->xr);
        }
    }
}

/* Stage 3: M/S or L/R coding of the two stereo channels. */
int ct_mp3_ms_decision(const ct_mp3_config *cfg, const ct_mp3_frame *fr,
                       const ct_mp3_side_info *l3_side)
{
    int gr, ch;
    int mode_ext = MPG_MD_LR_LR;

    if (cfg->force_ms) {
        mode_ext = MPG_MD_MS_LR;
    }
    else if (cfg->mode == CT_MP3_JOINT_STEREO) {
        float sum_pe_MS = 0;
        float sum_pe_LR = 0;
        for (gr = 0; gr < cfg->mode_gr; gr++) {
            for (ch = 0; ch < cfg->channels_out; ch++) {
                sum_pe_MS += fr->pe_MS[gr][ch];
                sum_pe_LR += fr->pe[gr][ch];
            }
        }

        /* based on PE: M/S coding would not use much more bits than L/R */
        if (sum_pe_MS <= 1.00 * sum_pe_LR) {
            ct_mp3_gr_info const *const gi0 = &l3_side->tt[0][0];
            ct_mp3_gr_info const *const gi1 = &l3_side->tt[cfg->mode_gr - 1][0];

            if (gi0[0].block_type == gi0[1].block_type
                && gi1[0].block_type == gi1[1].block_type) {
                mode_ext = MPG_MD_MS_LR;
            }
        }
    }
    return mode_ext;
}

/* CBR and ABR: the pe, smoothed over 19 frames by a FIR filter, scales the
 * frame's pe. */
static void smooth_pe(ct_mp3_state *gfc, float pe_use[2][2])
{
    static const float fircoef[9] = {
        -0.0207887 * 5, -0.0378413 * 5, -0.0432472 * 5, -0.031183 * 5,
        7.79609e-18 * 5, 0.0467745 * 5, 0.10091 * 5, 0.151365 * 5,
        0.187098 * 5
    };
    ct_mp3_config const *const cfg = &gfc->cfg;
    float *const pefirbuf = gfc->sv_enc.pefirbuf;
    int i, gr, ch;
    float f;

    for (i = 0; i < 18; i++)
        pefirbuf[i] = pefirbuf[i + 1];

    f = 0.0;
    for (gr = 0; gr < cfg->mode_gr; gr++)
        for (ch = 0; ch < cfg->channels_out; ch++)
            f += pe_use[gr][ch];
    pefirbuf[18] = f;

    f = pefirbuf[9];
    for (i = 0; i < 9; i++)
        f += (pefirbuf[i] + pefirbuf[18 - i]) * fircoef[i];

    f = (670 * 5 * cfg->mode_gr * cfg->channels_out) / f;
    for (gr = 0; gr < cfg->mode_gr; gr++) {
        for (ch = 0; ch < cfg->channels_out; ch++) {
            pe_use[gr][ch] *= f;
        }
    }
}

/* sv_qnt.masking_lower as LAME's iteration loops leave it (they set it
 * before each granule and channel, and only the next frame's psychoacoustic
 * model reads it): CBR and ABR from the block type of the last granule and
 * channel, VBR from mask_adjust alone. */
void ct_mp3_set_masking_lower(ct_mp3_state *gfc, const ct_mp3_side_info *l3_side)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    float masking_lower_db = gfc->sv_qnt.mask_adjust;

    if (cfg->vbr == CT_MP3_VBR_OFF || cfg->vbr == CT_MP3_VBR_ABR) {
        ct_mp3_gr_info const *const cod_info =
            &l3_side->tt[cfg->mode_gr - 1][cfg->channels_out - 1];
        if (cod_info->block_type == SHORT_TYPE)
            masking_lower_db = gfc->sv_qnt.mask_adjust_short;
    }
    gfc->sv_qnt.masking_lower = pow(10.0, masking_lower_db * 0.1);
}

/* The masking and pe that quantization uses: M/S or L/R. */
static const ct_mp3_psy_ratio (*frame_masking(const ct_mp3_frame *fr, int mode_ext))[2]
{
    return mode_ext == MPG_MD_MS_LR ? (const ct_mp3_psy_ratio (*)[2]) fr->masking_MS
                                    : (const ct_mp3_psy_ratio (*)[2]) fr->masking_LR;
}

static float (*frame_pe(ct_mp3_frame *fr, int mode_ext))[2]
{
    return mode_ext == MPG_MD_MS_LR ? fr->pe_MS : fr->pe;
}

void ct_mp3_frame_vbr_prepare(const ct_mp3_state *gfc, const ct_mp3_frame *fr, int mode_ext,
                              float ath_adjust_factor, ct_mp3_side_info *l3_side,
                              ct_mp3_vbr_work *work)
{
    memset(work, 0, sizeof(*work));
    ct_mp3_vbr_prepare(gfc, ath_adjust_factor, mode_ext, l3_side, frame_masking(fr, mode_ext),
                       work);
}

/* padding method as described in "MPEG-Layer3 / Bitstream Syntax and
 * Decoding" by Martin Sieler, Ralph Sperschneider; no padding for the very
 * first frame (Robert Hegemann 2000-06-22) */
static void frame_padding(ct_mp3_state *gfc)
{
    gfc->ov_enc.padding = 0;
    if ((gfc->sv_enc.slot_lag -= gfc->sv_enc.frac_SpF) < 0) {
        gfc->sv_enc.slot_lag += gfc->cfg.samplerate_out;
        gfc->ov_enc.padding = 1;
    }
}

int ct_mp3_frame_loop_resolve(ct_mp3_state *gfc, ct_mp3_frame *fr, int mode_ext)
{
    frame_padding(gfc);
    smooth_pe(gfc, frame_pe(fr, mode_ext));
    return gfc->ov_enc.padding;
}

void ct_mp3_frame_loop_search(ct_mp3_state *scratch, ct_mp3_frame *fr, int mode_ext,
                              int padding, float ath_adjust_factor, int speculate,
                              int search[2][2], ct_mp3_side_info *l3_side,
                              ct_mp3_loop_work *work)
{
    scratch->ATH.adjust_factor = ath_adjust_factor;
    ct_mp3_loop_prepare(scratch, mode_ext, l3_side, frame_masking(fr, mode_ext), work);
    if (!speculate)
        return;
    scratch->l3_side = *l3_side;
    scratch->ov_enc.mode_ext = mode_ext;
    scratch->ov_enc.padding = padding;
    ct_mp3_loop_speculate(scratch, (const float (*)[2]) frame_pe(fr, mode_ext),
                          fr->ms_ener_ratio, search, work);
}

/* Stage 4: the quantization loop of the rate control, on gfc->l3_side with
 * mode_ext in gfc->ov_enc. VBR: the whole loop, or, with the frame's
 * prepared and searched work, only its reservoir step. CBR/ABR: the whole
 * loop, or, with the frame's prepared and speculated loop work (its pe
 * smoothed already), the commit. */
static void quantize(ct_mp3_state *gfc, ct_mp3_frame *fr, ct_mp3_vbr_work *work,
                     ct_mp3_loop_work *loop, const ct_mp3_loop_split *split)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    int const mode_ext = gfc->ov_enc.mode_ext;
    const ct_mp3_psy_ratio (*const masking)[2] = frame_masking(fr, mode_ext);
    float (*const pe_use)[2] = frame_pe(fr, mode_ext);

    switch (cfg->vbr) {
    default:
    case CT_MP3_VBR_OFF:
    case CT_MP3_VBR_ABR:
        if (loop != NULL) {
            ct_mp3_loop_commit(gfc, (const float (*)[2]) pe_use, fr->ms_ener_ratio, loop, split);
            break;
        }
        smooth_pe(gfc, pe_use);
        if (cfg->vbr == CT_MP3_VBR_ABR)
            ct_mp3_abr_iteration_loop(gfc, (const float (*)[2]) pe_use, fr->ms_ener_ratio,
                                      masking);
        else
            ct_mp3_cbr_iteration_loop(gfc, (const float (*)[2]) pe_use, fr->ms_ener_ratio,
                                      masking);
        break;
    case CT_MP3_VBR_MT:
    case CT_MP3_VBR_MTRH:
        if (work != NULL)
            ct_mp3_vbr_commit_frame(gfc, (const float (*)[2]) pe_use, work);
        else
            ct_mp3_vbr_new_iteration_loop(gfc, (const float (*)[2]) pe_use, fr->ms_ener_ratio,
                                          masking);
        break;
    }
}

/* Stage 5: bitstream formatting, the bytes out, the tag's accounting; the
 * frame's main data coded already (coded), or NULL: coded here. */
static int write_frame(ct_mp3_state *gfc, const ct_mp3_main_data *coded,
                       const ct_mp3_loop_work *loop, unsigned char *mp3buf, int mp3buf_size)
{
    ct_mp3_config const *const cfg = &gfc->cfg;
    ct_mp3_main_data md;
    int mp3count;

    if (coded == NULL) {
        /* CBR/ABR: the granules the commit quantized come coded */
        const ct_mp3_main_data *part3[2][2] = {{NULL, NULL}, {NULL, NULL}};
        int gr, ch;
        if (loop != NULL)
            for (gr = 0; gr < 2; gr++)
                for (ch = 0; ch < 2; ch++)
                    if (loop->coded[gr][ch])
                        part3[gr][ch] = &loop->part3[gr][ch];
        ct_mp3_encode_main_data(cfg, &gfc->scalefac_band, &gfc->l3_side,
                                (const ct_mp3_main_data *const(*)[2]) part3, &md);
        coded = &md;
    }
    ct_mp3_format_bitstream(gfc, coded);

    /* copy mp3 bit buffer into array */
    mp3count = ct_mp3_copy_buffer(gfc, mp3buf, mp3buf_size, 1);

    if (cfg->write_lame_tag) {
        ct_mp3_add_vbr_frame(gfc);
    }

    ++gfc->ov_enc.frame_number;

    return mp3count;
}

int ct_mp3_encode_frame(ct_mp3_state *gfc, const float *inbuf_l,
                        const float *inbuf_r, unsigned char *mp3buf,
                        int mp3buf_size)
{
    ct_mp3_frame fr;
    const float *inbuf[2];

    ct_mp3_frame_record_init(&fr);

    inbuf[0] = inbuf_l;
    inbuf[1] = inbuf_r;

    if (gfc->lame_encode_frame_init == 0) {
        /* first run? */
        encode_frame_init(gfc, inbuf);
    }

    frame_padding(gfc);

    /* Stage 1: psychoacoustic model */
    if (psychoacoustics(gfc, inbuf, &fr) != 0)
        return -4;

    /* auto-adjust of ATH, useful for low volume */
    ct_mp3_adjust_ath(gfc);

    /* Stage 2: polyphase filtering / MDCT */
    ct_mp3_mdct_sub48(gfc, inbuf[0], inbuf[1]);

    /* Stage 3: MS/LR decision */
    gfc->ov_enc.mode_ext = ct_mp3_ms_decision(&gfc->cfg, &fr, &gfc->l3_side);

    /* Stage 4: quantization loop */
    quantize(gfc, &fr, NULL, NULL, NULL);

    ct_mp3_set_masking_lower(gfc, &gfc->l3_side);

    /* Stage 5: bitstream formatting */
    return write_frame(gfc, NULL, NULL, mp3buf, mp3buf_size);
}

int ct_mp3_frame_encode(ct_mp3_state *gfc, ct_mp3_frame *fr, int mode_ext,
                        ct_mp3_vbr_work *work, const ct_mp3_main_data *searched,
                        ct_mp3_loop_work *loop, const ct_mp3_loop_split *split,
                        unsigned char *mp3buf, int mp3buf_size)
{
    frame_padding(gfc);
    gfc->ov_enc.mode_ext = mode_ext;
    quantize(gfc, fr, work, loop, split);
    /* the main data of the frame as searched holds unless the commit
       requantized granules to fit the bit budget */
    if (work == NULL || work->refit)
        searched = NULL;
    return write_frame(gfc, searched, loop, mp3buf, mp3buf_size);
}
