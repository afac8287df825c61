/*
 * The bit reservoir.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/reservoir.c (LGPL-2.0-or-later, the LAME
 * project).
 */
#include "reservoir.h"

#include <assert.h>

#include "bitstream.h"

/*
 *  Background information:
 *
 *  This is the original text from the ISO standard. Because of
 *  sooo many bugs and irritations correcting comments are added
 *  in brackets []. A '^W' means you should remove the last word.
 *
 *  1) The following rule can be used to calculate the maximum
 *     number of bits used for one granule [^W frame]:
 *     At the highest possible bitrate of Layer III (320 kbps
 *     per stereo signal [^W^W^W], 48 kHz) the frames must be of
 *     [^W^W^W are designed to have] constant length, i.e.
 *     one buffer [^W^W the frame] length is:
 *
 *         320 kbps * 1152/48 kHz = 7680 bit = 960 byte
 *
 *     This value is used as the maximum buffer per channel [^W^W] at
 *     lower bitrates [than 320 kbps]. At 64 kbps mono or 128 kbps
 *     stereo the main granule length is 64 kbps * 576/48 kHz = 768 bit
 *     [per granule and channel] at 48 kHz sampling frequency.
 *     This means that there is a maximum deviation (short time buffer
 *     [= reservoir]) of 7680 - 2*2*768 = 4608 bits is allowed at 64 kbps.
 *     The actual deviation is equal to the number of bytes [with the
 *     meaning of octets] denoted by the main_data_end offset pointer.
 *     The actual maximum deviation is (2^9-1)*8 bit = 4088 bits
 *     [for MPEG-1 and (2^8-1)*8 bit for MPEG-2, both are hard limits].
 *     ... The xchange of buffer bits between the left and right channel
 *     is allowed without restrictions [exception: dual channel].
 *     Because of the [constructed] constraint on the buffer size
 *     main_data_end is always set to 0 in the case of bit_rate_index==14,
 *     i.e. data rate 320 kbps per stereo signal [^W^W^W]. In this case
 *     all data are allocated between adjacent header [^W sync] words
 *     [, i.e. there is no buffering at all].
 */

int ct_mp3_resv_frame_begin(ct_mp3_state *gfc, int *mean_bits)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    ct_mp3_side_info *const l3_side = &gfc->l3_side;
    int fullFrameBits;
    int resvLimit;
    int maxmp3buf;
    int frameLength;
    int meanBits;

    frameLength = ct_mp3_getframebits(gfc);
    meanBits = (frameLength - cfg->sideinfo_len * 8) / cfg->mode_gr;

    /*
     * resvLimit: (0, 8, ..., 8*255 (MPEG-2), 8*511 (MPEG-1)): the bits the
     *     previous frame(s) can hold, by the size of main_data_begin.
     * maxmp3buf: (... 8*1951 (MPEG-1 and 2), 8*2047 (MPEG-2.5)): the bits
     *     allowed to encode one frame (8*511 bits from the reservoir and at
     *     most 8*1440 bits of the current frame (320 kbps, 32 kHz)); the
     *     maximum granule/channel size times 4 = 8*2047 bits is the absolute
     *     maximum of the format.
     * fullFrameBits: the most bits for encoding the current frame.
     * mean_bits: the target bits per granule.
     * ResvMax: the largest reservoir allowed; ResvSize: the current one.
     * l3_side->resvDrain_pre: ancillary data to add to the previous frame
     *     (2010-02-13, Robert Hegemann: enabled also for CBR, as one -b320
     *     CBR file did not decode with the FhG decoder without it).
     * l3_side->resvDrain_post: ancillary data to add to this frame.
     */

    /* main_data_begin has 9 bits in MPEG-1, 8 bits in MPEG-2 */
    resvLimit = (8 * 256) * cfg->mode_gr - 8;

    /* maximum allowed frame size: don't use more than this number of bits,
     * even if the frame has the space for them */
    maxmp3buf = cfg->buffer_constraint;
    esv->ResvMax = maxmp3buf - frameLength;
    if (esv->ResvMax > resvLimit)
        esv->ResvMax = resvLimit;
    if (esv->ResvMax < 0 || cfg->disable_reservoir)
        esv->ResvMax = 0;

    fullFrameBits = meanBits * cfg->mode_gr +
                    (esv->ResvSize < esv->ResvMax ? esv->ResvSize : esv->ResvMax);

    if (fullFrameBits > maxmp3buf)
        fullFrameBits = maxmp3buf;

    assert(0 == esv->ResvMax % 8);
    assert(esv->ResvMax >= 0);

    l3_side->resvDrain_pre = 0;

    *mean_bits = meanBits;
    return fullFrameBits;
}

/* ResvMaxBits (Mark Taylor 4/99): targ_bits, the target number of bits for
 * one granule; extra_bits, the amount extra available from the
 * reservoir. */
void ct_mp3_resv_max_bits(ct_mp3_state *gfc, int mean_bits, int *targ_bits,
                          int *extra_bits, int cbr)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int add_bits, targBits, extraBits;
    int ResvSize = esv->ResvSize, ResvMax = esv->ResvMax;

    /* compensate the saved bits used in the 1st granule */
    if (cbr)
        ResvSize += mean_bits;

    if (gfc->sv_qnt.substep_shaping & 1)
        ResvMax = (int)(ResvMax * 0.9);

    targBits = mean_bits;

    /* extra bits if the reservoir is almost full */
    if (ResvSize * 10 > ResvMax * 9) {
        add_bits = ResvSize - (ResvMax * 9) / 10;
        targBits += add_bits;
        gfc->sv_qnt.substep_shaping |= 0x80;
    } else {
        add_bits = 0;
        gfc->sv_qnt.substep_shaping &= 0x7f;
        /* build up the reservoir. This builds the reservoir a little slower
         * than FhG. It could simply be mean_bits/15, but this was rigged to
         * always produce 100 (the old value) at 128 kbps. */
        if (!cfg->disable_reservoir && !(gfc->sv_qnt.substep_shaping & 1))
            targBits = (int)(targBits - .1 * mean_bits);
    }

    /* amount from the reservoir we are allowed to use. ISO says 6/10 */
    extraBits = (ResvSize < (esv->ResvMax * 6) / 10 ? ResvSize : (esv->ResvMax * 6) / 10);
    extraBits -= add_bits;

    if (extraBits < 0)
        extraBits = 0;

    *targ_bits = targBits;
    *extra_bits = extraBits;
}

/* ResvAdjust: called after a granule's bit allocation. Readjusts the size of
 * the reservoir to reflect the granule's usage. */
void ct_mp3_resv_adjust(ct_mp3_state *gfc, const ct_mp3_gr_info *gi)
{
    gfc->sv_enc.ResvSize -= gi->part2_3_length + gi->part2_length;
}

/* ResvFrameEnd: called after all granules in a frame have been allocated.
 * Makes sure that the reservoir size is within limits, possibly by adding
 * stuffing bits. */
void ct_mp3_resv_frame_end(ct_mp3_state *gfc, int mean_bits)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    ct_mp3_side_info *const l3_side = &gfc->l3_side;
    int stuffingBits;
    int over_bits;

    esv->ResvSize += mean_bits * cfg->mode_gr;
    stuffingBits = 0;
    l3_side->resvDrain_post = 0;
    l3_side->resvDrain_pre = 0;

    /* we must be byte aligned */
    if ((over_bits = esv->ResvSize % 8) != 0)
        stuffingBits += over_bits;

    over_bits = (esv->ResvSize - stuffingBits) - esv->ResvMax;
    if (over_bits > 0) {
        assert(0 == over_bits % 8);
        assert(over_bits >= 0);
        stuffingBits += over_bits;
    }

    /* Drain as many bits as possible into the previous frame's ancillary
     * data (NEW_DRAIN; it fixes some problems with the FhG decoder of MS
     * Windows). In particular, in VBR mode ResvMax may have changed, and
     * main_data_begin must not create a reservoir bigger than ResvMax. */
    {
        int mdb_bytes = (l3_side->main_data_begin * 8 < stuffingBits
                             ? l3_side->main_data_begin * 8
                             : stuffingBits) / 8;
        l3_side->resvDrain_pre += 8 * mdb_bytes;
        stuffingBits -= 8 * mdb_bytes;
        esv->ResvSize -= 8 * mdb_bytes;
        l3_side->main_data_begin -= mdb_bytes;
    }
    /* drain the rest into this frame's ancillary data */
    l3_side->resvDrain_post += stuffingBits;
    esv->ResvSize -= stuffingBits;
}
