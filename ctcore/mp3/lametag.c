/*
 * The Xing/Info frame with the LAME extension.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/VbrTag.c (LGPL-2.0-or-later, the LAME
 * project).
 */
#include "lametag.h"

#include <math.h>
#include <string.h>

#include "bitstream.h"
#include "tables.h"
#include "util.h"

#define FRAMES_FLAG 0x0001
#define BYTES_FLAG 0x0002
#define TOC_FLAG 0x0004
#define VBR_SCALE_FLAG 0x0008

#define NUMTOCENTRIES 100

/*
 *    4 bytes for Header Tag
 *    4 bytes for Header Flags
 *  100 bytes for entry (NUMTOCENTRIES)
 *    4 bytes for FRAME SIZE
 *    4 bytes for STREAM_SIZE
 *    4 bytes for VBR SCALE. a VBR quality indicator: 0=best 100=worst
 *   20 bytes for LAME tag.  for example, "LAME3.12 (beta 6)"
 * ___________
 *  140 bytes
 */
#define VBRHEADERSIZE (NUMTOCENTRIES + 4 + 4 + 4 + 4 + 4)

#define LAMEHEADERSIZE (VBRHEADERSIZE + 9 + 1 + 1 + 8 + 1 + 1 + 3 + 1 + 1 + 2 + 4 + 2 + 2)

/* the bitrate of the tag frame, in kbps (MPEG-1, MPEG-2, MPEG-2.5) */
#define XING_BITRATE1 128
#define XING_BITRATE2 64
#define XING_BITRATE25 32

#define MAXFRAMESIZE 2880 /* or 0xB40, the max freeformat 640 32kHz framesize */

/* get_lame_tag_encoder_short_version() of LAME 3.100: "LAME" "3.100" " ",
 * of which the tag keeps 9 characters. */
static const char lame_tag_encoder_short_version[] = "LAME3.100 ";

static const char VBRTag0[] = "Xing";
static const char VBRTag1[] = "Info";

/* Lookup table for fast CRC computation (CRC_update_lookup), with the
 * polynomial x^16+x^15+x^2+1. */
static const unsigned int crc16_lookup[256] = {
    0x0000, 0xC0C1, 0xC181, 0x0140, 0xC301, 0x03C0, 0x0280, 0xC241,
    0xC601, 0x06C0, 0x0780, 0xC741, 0x0500, 0xC5C1, 0xC481, 0x0440,
    0xCC01, 0x0CC0, 0x0D80, 0xCD41, 0x0F00, 0xCFC1, 0xCE81, 0x0E40,
    0x0A00, 0xCAC1, 0xCB81, 0x0B40, 0xC901, 0x09C0, 0x0880, 0xC841,
    0xD801, 0x18C0, 0x1980, 0xD941, 0x1B00, 0xDBC1, 0xDA81, 0x1A40,
    0x1E00, 0xDEC1, 0xDF81, 0x1F40, 0xDD01, 0x1DC0, 0x1C80, 0xDC41,
    0x1400, 0xD4C1, 0xD581, 0x1540, 0xD701, 0x17C0, 0x1680, 0xD641,
    0xD201, 0x12C0, 0x1380, 0xD341, 0x1100, 0xD1C1, 0xD081, 0x1040,
    0xF001, 0x30C0, 0x3180, 0xF141, 0x3300, 0xF3C1, 0xF281, 0x3240,
    0x3600, 0xF6C1, 0xF781, 0x3740, 0xF501, 0x35C0, 0x3480, 0xF441,
    0x3C00, 0xFCC1, 0xFD81, 0x3D40, 0xFF01, 0x3FC0, 0x3E80, 0xFE41,
    0xFA01, 0x3AC0, 0x3B80, 0xFB41, 0x3900, 0xF9C1, 0xF881, 0x3840,
    0x2800, 0xE8C1, 0xE981, 0x2940, 0xEB01, 0x2BC0, 0x2A80, 0xEA41,
    0xEE01, 0x2EC0, 0x2F80, 0xEF41, 0x2D00, 0xEDC1, 0xEC81, 0x2C40,
    0xE401, 0x24C0, 0x2580, 0xE541, 0x2700, 0xE7C1, 0xE681, 0x2640,
    0x2200, 0xE2C1, 0xE381, 0x2340, 0xE101, 0x21C0, 0x2080, 0xE041,
    0xA001, 0x60C0, 0x6180, 0xA141, 0x6300, 0xA3C1, 0xA281, 0x6240,
    0x6600, 0xA6C1, 0xA781, 0x6740, 0xA501, 0x65C0, 0x6480, 0xA441,
    0x6C00, 0xACC1, 0xAD81, 0x6D40, 0xAF01, 0x6FC0, 0x6E80, 0xAE41,
    0xAA01, 0x6AC0, 0x6B80, 0xAB41, 0x6900, 0xA9C1, 0xA881, 0x6840,
    0x7800, 0xB8C1, 0xB981, 0x7940, 0xBB01, 0x7BC0, 0x7A80, 0xBA41,
    0xBE01, 0x7EC0, 0x7F80, 0xBF41, 0x7D00, 0xBDC1, 0xBC81, 0x7C40,
    0xB401, 0x74C0, 0x7580, 0xB541, 0x7700, 0xB7C1, 0xB681, 0x7640,
    0x7200, 0xB2C1, 0xB381, 0x7340, 0xB101, 0x71C0, 0x7080, 0xB041,
    0x5000, 0x90C1, 0x9181, 0x5140, 0x9301, 0x53C0, 0x5280, 0x9241,
    0x9601, 0x56C0, 0x5780, 0x9741, 0x5500, 0x95C1, 0x9481, 0x5440,
    0x9C01, 0x5CC0, 0x5D80, 0x9D41, 0x5F00, 0x9FC1, 0x9E81, 0x5E40,
    0x5A00, 0x9AC1, 0x9B81, 0x5B40, 0x9901, 0x59C0, 0x5880, 0x9841,
    0x8801, 0x48C0, 0x4980, 0x8941, 0x4B00, 0x8BC1, 0x8A81, 0x4A40,
    0x4E00, 0x8EC1, 0x8F81, 0x4F40, 0x8D01, 0x4DC0, 0x4C80, 0x8C41,
    0x4400, 0x84C1, 0x8581, 0x4540, 0x8701, 0x47C0, 0x4680, 0x8641,
    0x8201, 0x42C0, 0x4380, 0x8341, 0x4100, 0x81C1, 0x8081, 0x4040,
};

/* addVbr (Robert Hegemann 2001-01-17): the bag holds the running bitrate
 * sum after every want-th frame; when full, every other entry is dropped
 * and want doubles. */
static void add_vbr(ct_mp3_vbr_seek_info *v, int bitrate)
{
    int i;

    v->nVbrNumFrames++;
    v->sum += bitrate;
    v->seen++;

    if (v->seen < v->want)
        return;

    if (v->pos < v->size) {
        v->bag[v->pos] = v->sum;
        v->pos++;
        v->seen = 0;
    }
    if (v->pos == v->size) {
        for (i = 1; i < v->size; i += 2)
            v->bag[i / 2] = v->bag[i];
        v->want *= 2;
        v->pos /= 2;
    }
}

static void xing_seek_table(const ct_mp3_vbr_seek_info *v, unsigned char *t)
{
    int i, indx;
    int seek_point;

    if (v->pos <= 0)
        return;

    for (i = 1; i < NUMTOCENTRIES; ++i) {
        float j = i / (float)NUMTOCENTRIES, act, sum;
        indx = (int)(floor(j * v->pos));
        if (indx > v->pos - 1)
            indx = v->pos - 1;
        act = (float)v->bag[indx];
        sum = (float)v->sum;
        seek_point = (int)(256. * act / sum);
        if (seek_point > 255)
            seek_point = 255;
        t[i] = (unsigned char)seek_point;
    }
}

void ct_mp3_add_vbr_frame(ct_mp3_state *gfc)
{
    int kbps = ct_mp3_bitrate_table[gfc->cfg.version][gfc->ov_enc.bitrate_index];
    add_vbr(&gfc->VBR_seek_table, kbps);
}

static void create_i4(unsigned char *buf, uint32_t nValue)
{
    /* big endian */
    buf[0] = (nValue >> 24) & 0xff;
    buf[1] = (nValue >> 16) & 0xff;
    buf[2] = (nValue >> 8) & 0xff;
    buf[3] = (nValue) & 0xff;
}

static void create_i2(unsigned char *buf, int nValue)
{
    /* big endian */
    buf[0] = (nValue >> 8) & 0xff;
    buf[1] = (nValue) & 0xff;
}

/* SHIFT_IN_BITS_VALUE(x, n, v): x = x << n | the low n bits of v */
static unsigned char shift_in_bits_value(unsigned char x, unsigned int n, int v)
{
    return (unsigned char)((x << n) | (v & ((1 << n) - 1)));
}

/* The tag frame's header: the stream's sample rate, mode and flags, the
 * bitrate of XING_BITRATE* (CBR: the stream's), no padding, no CRC. */
static void set_lame_tag_frame_header(const ct_mp3_state *gfc, unsigned char *buffer)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    const ct_mp3_enc_result *const eov = &gfc->ov_enc;
    unsigned char abyte, bbyte;

    buffer[0] = shift_in_bits_value(buffer[0], 8u, 0xff);

    buffer[1] = shift_in_bits_value(buffer[1], 3u, 7);
    buffer[1] = shift_in_bits_value(buffer[1], 1u, (cfg->samplerate_out < 16000) ? 0 : 1);
    buffer[1] = shift_in_bits_value(buffer[1], 1u, cfg->version);
    buffer[1] = shift_in_bits_value(buffer[1], 2u, 4 - 3);
    buffer[1] = shift_in_bits_value(buffer[1], 1u, (!cfg->error_protection) ? 1 : 0);

    buffer[2] = shift_in_bits_value(buffer[2], 4u, eov->bitrate_index);
    buffer[2] = shift_in_bits_value(buffer[2], 2u, cfg->samplerate_index);
    buffer[2] = shift_in_bits_value(buffer[2], 1u, 0);
    buffer[2] = shift_in_bits_value(buffer[2], 1u, cfg->extension);

    buffer[3] = shift_in_bits_value(buffer[3], 2u, cfg->mode);
    buffer[3] = shift_in_bits_value(buffer[3], 2u, eov->mode_ext);
    buffer[3] = shift_in_bits_value(buffer[3], 1u, cfg->copyright);
    buffer[3] = shift_in_bits_value(buffer[3], 1u, cfg->original);
    buffer[3] = shift_in_bits_value(buffer[3], 2u, cfg->emphasis);

    /* the default VBR header: 48 kbps layer III, no padding, no crc, but
     * sampling freq, mode and copyright/copy protection taken from the
     * first valid frame */
    buffer[0] = 0xff;
    abyte = (unsigned char)(buffer[1] & 0xf1);
    {
        int bitrate;
        if (1 == cfg->version) {
            bitrate = XING_BITRATE1;
        } else {
            if (cfg->samplerate_out < 16000)
                bitrate = XING_BITRATE25;
            else
                bitrate = XING_BITRATE2;
        }

        if (cfg->vbr == CT_MP3_VBR_OFF)
            bitrate = cfg->avg_bitrate;

        bbyte = (unsigned char)(16 * ct_mp3_bitrate_index(bitrate, cfg->version,
                                                          cfg->samplerate_out));
    }

    /* use as much of the info from the real frames in the Xing header:
     * samplerate, channels, crc, etc... */
    if (cfg->version == 1) {
        /* MPEG-1 */
        buffer[1] = abyte | 0x0a; /* was 0x0b; */
        abyte = buffer[2] & 0x0d; /* AF keep also private bit */
        buffer[2] = bbyte | abyte; /* 64kbs MPEG1 frame */
    } else {
        /* MPEG-2 */
        buffer[1] = abyte | 0x02; /* was 0x03; */
        abyte = buffer[2] & 0x0d; /* AF keep also private bit */
        buffer[2] = bbyte | abyte; /* 64kbs MPEG2 frame */
    }
}

int ct_mp3_init_vbr_tag(ct_mp3_state *gfc)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    int kbps_header;

    /*
     * Xing VBR pretends to be a 48kbs layer III frame.  (at 44.1kHz).
     * (at 48kHz they use 56kbs since 48kbs frame not big enough for
     * table of contents)
     * let's always embed Xing header inside a 64kbs layer III frame.
     * this gives us enough room for a LAME version string too.
     * size determined by sampling frequency (MPEG1)
     * 32kHz:    216 bytes@48kbs    288bytes@ 64kbs
     * 44.1kHz:  156 bytes          208bytes@64kbs     (+1 if padding = 1)
     * 48kHz:    144 bytes          192
     *
     * MPEG 2 values are the same since the framesize and samplerate
     * are each reduced by a factor of 2.
     */
    if (1 == cfg->version) {
        kbps_header = XING_BITRATE1;
    } else {
        if (cfg->samplerate_out < 16000)
            kbps_header = XING_BITRATE25;
        else
            kbps_header = XING_BITRATE2;
    }

    if (cfg->vbr == CT_MP3_VBR_OFF)
        kbps_header = cfg->avg_bitrate;

    /* make sure the LAME header fits into the frame */
    {
        int total_frame_size =
            ((cfg->version + 1) * 72000 * kbps_header) / cfg->samplerate_out;
        int header_size = (cfg->sideinfo_len + LAMEHEADERSIZE);
        gfc->VBR_seek_table.TotalFrameSize = (unsigned int)total_frame_size;
        if (total_frame_size < header_size || total_frame_size > MAXFRAMESIZE) {
            /* disable tag, it wont fit */
            gfc->cfg.write_lame_tag = 0;
            return 0;
        }
    }

    gfc->VBR_seek_table.nVbrNumFrames = 0;
    gfc->VBR_seek_table.nBytesWritten = 0;
    gfc->VBR_seek_table.sum = 0;

    gfc->VBR_seek_table.seen = 0;
    gfc->VBR_seek_table.want = 1;
    gfc->VBR_seek_table.pos = 0;
    gfc->VBR_seek_table.size = CT_MP3_VBR_SEEK_SIZE;

    /* write a dummy VBR tag of all 0's into the bitstream */
    {
        unsigned char buffer[MAXFRAMESIZE];
        size_t i, n;

        memset(buffer, 0, sizeof(buffer));
        set_lame_tag_frame_header(gfc, buffer);
        n = gfc->VBR_seek_table.TotalFrameSize;
        for (i = 0; i < n; ++i)
            ct_mp3_add_dummy_byte(gfc, buffer[i], 1);
    }
    return 0;
}

/* fast CRC-16 computation, with crc16_lookup */
static uint16_t crc_update_lookup(uint16_t value, uint16_t crc)
{
    uint16_t tmp;
    tmp = crc ^ value;
    crc = (uint16_t)((crc >> 8) ^ crc16_lookup[tmp & 0xff]);
    return crc;
}

void ct_mp3_music_crc_init(uint16_t slices[8][256])
{
    int i, k;
    for (i = 0; i < 256; ++i)
        slices[0][i] = (uint16_t)crc16_lookup[i];
    for (k = 1; k < 8; ++k)
        for (i = 0; i < 256; ++i)
            slices[k][i] = crc_update_lookup(0, slices[k - 1][i]);
}

void ct_mp3_update_music_crc(const uint16_t slices[8][256], uint16_t *crc,
                             const unsigned char *buffer, int size)
{
    uint16_t c = *crc;
    int i = 0;
    /* a byte followed by k more bytes of the step enters through
       slices[k]; the CRC's two bytes enter with the step's first two */
    for (; i + 8 <= size; i += 8) {
        const unsigned char *const b = buffer + i;
        unsigned int const x = c ^ (unsigned int)(b[0] | b[1] << 8);
        c = (uint16_t)(slices[7][x & 0xff] ^ slices[6][x >> 8] ^ slices[5][b[2]] ^
                       slices[4][b[3]] ^ slices[3][b[4]] ^ slices[2][b[5]] ^
                       slices[1][b[6]] ^ slices[0][b[7]]);
    }
    for (; i < size; ++i)
        c = crc_update_lookup(buffer[i], c);
    *crc = c;
}

/*
 * PutLameVBR (Jonathan Dee 2001/08/31): the LAME extension, the mini
 * version and the settings used, then its CRC, which continues crc (of the
 * tag frame so far, from the frame sync).
 */
static void put_lame_vbr(const ct_mp3_state *gfc, size_t nMusicLength,
                         uint8_t *pbtStreamBuffer, uint16_t crc)
{
    const ct_mp3_global_flags *const gfp = &gfc->flags;
    const ct_mp3_config *const cfg = &gfc->cfg;

    int nBytesWritten = 0;
    int i;

    int enc_delay = gfc->ov_enc.encoder_delay;     /* encoder delay */
    int enc_padding = gfc->ov_enc.encoder_padding; /* encoder padding */

    /* VBR_q is set by -V, quality by -q */
    int nQuality = (100 - 10 * gfp->VBR_q - gfp->quality);

    /* Many decoders use the tag only if the encoder version starts with
     * LAME: any encoder writes a LAME version string. */
    const char *szVersion = lame_tag_encoder_short_version;
    uint8_t nVBR;
    uint8_t nRevision = 0x00;
    uint8_t nRevMethod;
    /* numbering different in vbr_mode vs. LAME tag */
    static const uint8_t vbr_type_translator[] = { 1, 5, 3, 2, 4, 0, 3 };

    uint8_t nLowpass = (uint8_t)(((cfg->lowpassfreq / 100.0) + .5) > 255
                                     ? 255
                                     : (cfg->lowpassfreq / 100.0) + .5);

    /* the peak sample needs decoding on the fly (never here) */
    uint32_t nPeakSignalAmplitude = 0;

    uint16_t nRadioReplayGain = 0;
    uint16_t nAudiophileReplayGain = 0;

    uint8_t nNoiseShaping = (uint8_t)cfg->noise_shaping;
    uint8_t nStereoMode = 0;
    int bNonOptimal = 0;
    uint8_t nSourceFreq = 0;
    uint8_t nMisc = 0;
    uint16_t nMusicCRC = 0;

    /* psy model type: Gpsycho or NsPsytune */
    unsigned char bExpNPsyTune = 1; /* only NsPsytune */
    unsigned char bSafeJoint = (cfg->use_safe_joint_stereo) != 0;

    /* nogap (lame --nogap, which the port has not): neither flag */
    unsigned char const bNoGapMore = 0;
    unsigned char const bNoGapPrevious = 0;

    uint8_t nAthType = (uint8_t)cfg->ATHtype; /* 4 bits */

    uint8_t nFlags = 0;

    /* ABR: the bitrate (<= 255); CBR: -b; VBR: the minimum bitrate */
    int nABRBitrate;
    switch (cfg->vbr) {
    case CT_MP3_VBR_ABR:
        nABRBitrate = cfg->vbr_avg_bitrate_kbps;
        break;
    case CT_MP3_VBR_OFF:
        nABRBitrate = cfg->avg_bitrate;
        break;
    default: /* VBR modes */
        nABRBitrate = ct_mp3_bitrate_table[cfg->version][cfg->vbr_min_bitrate_index];
        break;
    }

    /* revision and vbr method */
    if ((unsigned int)cfg->vbr < sizeof(vbr_type_translator))
        nVBR = vbr_type_translator[cfg->vbr];
    else
        nVBR = 0x00; /* unknown */

    nRevMethod = (uint8_t)(0x10 * nRevision + nVBR);

    /* ReplayGain */
    if (cfg->findReplayGain) {
        int RadioGain = gfc->ov_rpg.RadioGain;
        if (RadioGain > 0x1FE)
            RadioGain = 0x1FE;
        if (RadioGain < -0x1FE)
            RadioGain = -0x1FE;

        nRadioReplayGain = 0x2000;  /* set name code */
        nRadioReplayGain |= 0xC00; /* set originator code to `determined automatically' */

        if (RadioGain >= 0) {
            nRadioReplayGain |= RadioGain; /* set gain adjustment */
        } else {
            nRadioReplayGain |= 0x200;        /* set the sign bit */
            nRadioReplayGain |= -RadioGain; /* set gain adjustment */
        }
    }

    /* flags */
    nFlags = (uint8_t)(nAthType + (bExpNPsyTune << 4) + (bSafeJoint << 5) +
                       (bNoGapMore << 6) + (bNoGapPrevious << 7));

    if (nQuality < 0)
        nQuality = 0;

    /* stereo mode field... a bit ugly. Intensity stereo (6) is not
     * implemented. */
    switch (cfg->mode) {
    case CT_MP3_MONO:
        nStereoMode = 0;
        break;
    case CT_MP3_STEREO:
        nStereoMode = 1;
        break;
    case CT_MP3_DUAL_CHANNEL:
        nStereoMode = 2;
        break;
    case CT_MP3_JOINT_STEREO:
        if (cfg->force_ms)
            nStereoMode = 4;
        else
            nStereoMode = 3;
        break;
    case CT_MP3_NOT_SET:
    default:
        nStereoMode = 7;
        break;
    }

    if (cfg->samplerate_in <= 32000)
        nSourceFreq = 0x00;
    else if (cfg->samplerate_in == 48000)
        nSourceFreq = 0x02;
    else if (cfg->samplerate_in > 48000)
        nSourceFreq = 0x03;
    else
        nSourceFreq = 0x01; /* default is 44100Hz */

    /* did the user override the default LAME behaviour with some nasty
     * options? ("-k": no lowpass and no highpass) */
    if (cfg->short_blocks == CT_MP3_SHORT_BLOCK_FORCED ||
        cfg->short_blocks == CT_MP3_SHORT_BLOCK_DISPENSED ||
        ((cfg->lowpassfreq == -1) && (cfg->highpassfreq == -1)) ||
        (cfg->disable_reservoir && cfg->avg_bitrate < 320) || cfg->noATH ||
        cfg->ATHonly || (nAthType == 0) || cfg->samplerate_in <= 32000)
        bNonOptimal = 1;

    nMisc = (uint8_t)(nNoiseShaping + (nStereoMode << 2) + (bNonOptimal << 5) +
                      (nSourceFreq << 6));

    nMusicCRC = gfc->nMusicCRC;

    /* write all this information into the stream */
    create_i4(&pbtStreamBuffer[nBytesWritten], (uint32_t)nQuality);
    nBytesWritten += 4;

    memcpy(&pbtStreamBuffer[nBytesWritten], szVersion, 9); /* strncpy of 9 */
    nBytesWritten += 9;

    pbtStreamBuffer[nBytesWritten] = nRevMethod;
    nBytesWritten++;

    pbtStreamBuffer[nBytesWritten] = nLowpass;
    nBytesWritten++;

    create_i4(&pbtStreamBuffer[nBytesWritten], nPeakSignalAmplitude);
    nBytesWritten += 4;

    create_i2(&pbtStreamBuffer[nBytesWritten], nRadioReplayGain);
    nBytesWritten += 2;

    create_i2(&pbtStreamBuffer[nBytesWritten], nAudiophileReplayGain);
    nBytesWritten += 2;

    pbtStreamBuffer[nBytesWritten] = nFlags;
    nBytesWritten++;

    if (nABRBitrate >= 255)
        pbtStreamBuffer[nBytesWritten] = 0xFF;
    else
        pbtStreamBuffer[nBytesWritten] = (uint8_t)nABRBitrate;
    nBytesWritten++;

    pbtStreamBuffer[nBytesWritten] = (uint8_t)(enc_delay >> 4);
    pbtStreamBuffer[nBytesWritten + 1] = (uint8_t)((enc_delay << 4) + (enc_padding >> 8));
    pbtStreamBuffer[nBytesWritten + 2] = (uint8_t)enc_padding;

    nBytesWritten += 3;

    pbtStreamBuffer[nBytesWritten] = nMisc;
    nBytesWritten++;

    pbtStreamBuffer[nBytesWritten++] = 0; /* unused in rev0 */

    create_i2(&pbtStreamBuffer[nBytesWritten], cfg->preset);
    nBytesWritten += 2;

    create_i4(&pbtStreamBuffer[nBytesWritten], (uint32_t)(int)nMusicLength);
    nBytesWritten += 4;

    create_i2(&pbtStreamBuffer[nBytesWritten], nMusicCRC);
    nBytesWritten += 2;

    /* the tag CRC, over everything before it */
    for (i = 0; i < nBytesWritten; i++)
        crc = crc_update_lookup(pbtStreamBuffer[i], crc);

    create_i2(&pbtStreamBuffer[nBytesWritten], crc);
}

size_t ct_mp3_get_lametag_frame(const ct_mp3_state *gfc, unsigned char *buffer,
                                size_t size)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    unsigned long stream_size;
    unsigned int nStreamIndex;
    uint8_t btToc[NUMTOCENTRIES];

    if (cfg->write_lame_tag == 0)
        return 0;
    if (gfc->VBR_seek_table.pos <= 0)
        return 0;
    if (size < gfc->VBR_seek_table.TotalFrameSize)
        return gfc->VBR_seek_table.TotalFrameSize;
    if (buffer == NULL)
        return 0;

    memset(buffer, 0, gfc->VBR_seek_table.TotalFrameSize);

    /* 4 bytes frame header */
    set_lame_tag_frame_header(gfc, buffer);

    /* clear all TOC entries */
    memset(btToc, 0, sizeof(btToc));
    xing_seek_table(&gfc->VBR_seek_table, btToc);

    /* start writing the tag after the zero side info (no error protection
     * here, so no CRC either) */
    nStreamIndex = (unsigned int)cfg->sideinfo_len;

    /* Put Vbr tag */
    if (cfg->vbr == CT_MP3_VBR_OFF) {
        buffer[nStreamIndex++] = (unsigned char)VBRTag1[0];
        buffer[nStreamIndex++] = (unsigned char)VBRTag1[1];
        buffer[nStreamIndex++] = (unsigned char)VBRTag1[2];
        buffer[nStreamIndex++] = (unsigned char)VBRTag1[3];
    } else {
        buffer[nStreamIndex++] = (unsigned char)VBRTag0[0];
        buffer[nStreamIndex++] = (unsigned char)VBRTag0[1];
        buffer[nStreamIndex++] = (unsigned char)VBRTag0[2];
        buffer[nStreamIndex++] = (unsigned char)VBRTag0[3];
    }

    /* header flags */
    create_i4(&buffer[nStreamIndex],
              FRAMES_FLAG + BYTES_FLAG + TOC_FLAG + VBR_SCALE_FLAG);
    nStreamIndex += 4;

    /* total number of frames */
    create_i4(&buffer[nStreamIndex], gfc->VBR_seek_table.nVbrNumFrames);
    nStreamIndex += 4;

    /* total audio stream size, including the Xing/LAME header */
    stream_size = gfc->VBR_seek_table.nBytesWritten + gfc->VBR_seek_table.TotalFrameSize;
    create_i4(&buffer[nStreamIndex], (uint32_t)stream_size);
    nStreamIndex += 4;

    /* TOC */
    memcpy(&buffer[nStreamIndex], btToc, sizeof(btToc));
    nStreamIndex += sizeof(btToc);

    {
        /* the CRC so far, starting from 0 */
        uint16_t crc = 0x00;
        unsigned int i;
        for (i = 0; i < nStreamIndex; i++)
            crc = crc_update_lookup(buffer[i], crc);
        /* the LAME extension */
        put_lame_vbr(gfc, stream_size, buffer + nStreamIndex, crc);
    }

    return gfc->VBR_seek_table.TotalFrameSize;
}
