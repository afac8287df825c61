/*
 * The Layer III bitstream writer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/bitstream.c (Mark Taylor, Takehiro
 * Tominaga) (LGPL-2.0-or-later, the LAME project).
 */
#include "bitstream.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "lametag.h"
#include "tables.h"
#include "common/intmath.h"

/* LAME's BUFFER_SIZE (LAME_MAXMP3BUFFER) */
#define BUFFER_SIZE CT_MP3_BUFFER_SIZE

/* We work with ints, so when doing bit manipulation, we limit ourselves to
 * MAX_LENGTH - 2 just to be on the safe side. */
#define MAX_LENGTH 32

/* get_lame_short_version() of LAME 3.100, written into ancillary data. */
static const char lame_short_version[] = "3.100";

static int calc_frame_length(const ct_mp3_config *cfg, int kbps, int pad)
{
    return 8 * ((cfg->version + 1) * 72000 * kbps / cfg->samplerate_out + pad);
}

int ct_mp3_getframebits(const ct_mp3_state *gfc)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    const ct_mp3_enc_result *const eov = &gfc->ov_enc;
    int bit_rate;

    /* bitrate in kbps */
    if (eov->bitrate_index)
        bit_rate = ct_mp3_bitrate_table[cfg->version][eov->bitrate_index];
    else
        bit_rate = cfg->avg_bitrate;
    assert(8 <= bit_rate && bit_rate <= 640);

    /* the main encoding routine toggles padding on and off; one Layer III
     * slot is 8 bits */
    return calc_frame_length(cfg, bit_rate, eov->padding);
}

int ct_mp3_get_max_frame_buffer_size_by_constraint(const ct_mp3_config *cfg,
                                                   int constraint)
{
    int maxmp3buf = 0;
    if (cfg->avg_bitrate > 320) {
        /* in free format the buffer is constant */
        if (constraint == CT_MP3_MDB_STRICT_ISO)
            maxmp3buf = calc_frame_length(cfg, cfg->avg_bitrate, 0);
        else
            maxmp3buf = 7680 * (cfg->version + 1); /* 7680 bits per granule at most */
    } else {
        int max_kbps;
        if (cfg->samplerate_out < 16000)
            max_kbps = ct_mp3_bitrate_table[cfg->version][8]; /* 64 kbps (MPEG-2.5) */
        else
            max_kbps = ct_mp3_bitrate_table[cfg->version][14];
        switch (constraint) {
        default:
        case CT_MP3_MDB_DEFAULT:
            /* Bouvigne's more lax reading of the ISO text instead of 8*960:
             * the size of a 320 kbps 32 kHz frame, which every decoder
             * should buffer */
            maxmp3buf = 8 * 1440;
            break;
        case CT_MP3_MDB_STRICT_ISO:
            maxmp3buf = calc_frame_length(cfg, max_kbps, 0);
            break;
        case CT_MP3_MDB_MAXIMUM:
            maxmp3buf = 7680 * (cfg->version + 1);
            break;
        }
    }
    return maxmp3buf;
}

static void putheader_bits(ct_mp3_state *gfc)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    ct_mp3_bit_stream *const bs = &gfc->bs;

    memcpy(&bs->buf[bs->buf_byte_idx], esv->header[esv->w_ptr].buf,
           (size_t)cfg->sideinfo_len);
    bs->buf_byte_idx += cfg->sideinfo_len;
    bs->totbit += cfg->sideinfo_len * 8;
    esv->w_ptr = (esv->w_ptr + 1) & (MAX_HEADER_BUF - 1);
}

/* Writes the low j bits of val into the stream, inserting the next pending
 * header and side info where its frame starts. */
static void putbits2(ct_mp3_state *gfc, int val, int j)
{
    const ct_mp3_enc_state *const esv = &gfc->sv_enc;
    ct_mp3_bit_stream *const bs = &gfc->bs;

    assert(j < MAX_LENGTH - 2);

    while (j > 0) {
        int k;
        if (bs->buf_bit_idx == 0) {
            bs->buf_bit_idx = 8;
            bs->buf_byte_idx++;
            assert(bs->buf_byte_idx < BUFFER_SIZE);
            assert(esv->header[esv->w_ptr].write_timing >= bs->totbit);
            if (esv->header[esv->w_ptr].write_timing == bs->totbit)
                putheader_bits(gfc);
            bs->buf[bs->buf_byte_idx] = 0;
        }

        k = ct_min_int(j, bs->buf_bit_idx);
        j -= k;

        bs->buf_bit_idx -= k;

        assert(j < MAX_LENGTH);
        assert(bs->buf_bit_idx < MAX_LENGTH);

        bs->buf[bs->buf_byte_idx] |= ((val >> j) << bs->buf_bit_idx);
        bs->totbit += k;
    }
}

/* Writes the low j bits of val, ignoring frame headers. */
static void putbits_noheaders(ct_mp3_state *gfc, int val, int j)
{
    ct_mp3_bit_stream *const bs = &gfc->bs;

    assert(j < MAX_LENGTH - 2);

    while (j > 0) {
        int k;
        if (bs->buf_bit_idx == 0) {
            bs->buf_bit_idx = 8;
            bs->buf_byte_idx++;
            assert(bs->buf_byte_idx < BUFFER_SIZE);
            bs->buf[bs->buf_byte_idx] = 0;
        }

        k = ct_min_int(j, bs->buf_bit_idx);
        j -= k;

        bs->buf_bit_idx -= k;

        assert(j < MAX_LENGTH);
        assert(bs->buf_bit_idx < MAX_LENGTH);

        bs->buf[bs->buf_byte_idx] |= ((val >> j) << bs->buf_bit_idx);
        bs->totbit += k;
    }
}

/*
 * Some combinations of bitrate, Fs, and stereo make it impossible to stuff
 * out a frame using just main_data, due to the limited number of bits to
 * indicate main_data_length. In these situations, we put stuffing bits into
 * the ancillary data...
 */
static void drain_into_ancillary(ct_mp3_state *gfc, int remainingBits)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int i;
    assert(remainingBits >= 0);

    if (remainingBits >= 8) {
        putbits2(gfc, 0x4c, 8);
        remainingBits -= 8;
    }
    if (remainingBits >= 8) {
        putbits2(gfc, 0x41, 8);
        remainingBits -= 8;
    }
    if (remainingBits >= 8) {
        putbits2(gfc, 0x4d, 8);
        remainingBits -= 8;
    }
    if (remainingBits >= 8) {
        putbits2(gfc, 0x45, 8);
        remainingBits -= 8;
    }

    if (remainingBits >= 32) {
        for (i = 0; i < (int)strlen(lame_short_version) && remainingBits >= 8; ++i) {
            remainingBits -= 8;
            putbits2(gfc, lame_short_version[i], 8);
        }
    }

    for (; remainingBits >= 1; remainingBits -= 1) {
        putbits2(gfc, esv->ancillary_flag, 1);
        esv->ancillary_flag ^= !cfg->disable_reservoir;
    }

    assert(remainingBits == 0);
}

/* Writes j bits into the header being built (h_ptr). */
static void writeheader(ct_mp3_enc_state *esv, int val, int j)
{
    int ptr = esv->header[esv->h_ptr].ptr;

    while (j > 0) {
        int const k = ct_min_int(j, 8 - (ptr & 7));
        j -= k;
        assert(j < MAX_LENGTH);
        esv->header[esv->h_ptr].buf[ptr >> 3] |= ((val >> j)) << (8 - (ptr & 7) - k);
        ptr += k;
    }
    esv->header[esv->h_ptr].ptr = ptr;
}

/* LAME writes table 14 (counted as table 16 with one linbit) as 16. */
static int table_select_written(int table_select)
{
    return table_select == 14 ? 16 : table_select;
}

/* The region fields of a granule's side info. */
static void encode_table_select(ct_mp3_enc_state *esv, const ct_mp3_gr_info *gi)
{
    if (gi->block_type != NORM_TYPE) {
        writeheader(esv, 1, 1); /* window_switching_flag */
        writeheader(esv, gi->block_type, 2);
        writeheader(esv, gi->mixed_block_flag, 1);

        writeheader(esv, table_select_written(gi->table_select[0]), 5);
        writeheader(esv, table_select_written(gi->table_select[1]), 5);

        writeheader(esv, gi->subblock_gain[0], 3);
        writeheader(esv, gi->subblock_gain[1], 3);
        writeheader(esv, gi->subblock_gain[2], 3);
    } else {
        writeheader(esv, 0, 1); /* window_switching_flag */
        writeheader(esv, table_select_written(gi->table_select[0]), 5);
        writeheader(esv, table_select_written(gi->table_select[1]), 5);
        writeheader(esv, table_select_written(gi->table_select[2]), 5);

        assert(0 <= gi->region0_count && gi->region0_count < 16);
        assert(0 <= gi->region1_count && gi->region1_count < 8);
        writeheader(esv, gi->region0_count, 4);
        writeheader(esv, gi->region1_count, 3);
    }
}

/* The frame header and side info into the header ring, to be written when
 * the stream reaches the frame's start (write_timing). cfg.error_protection
 * is always 0 here (no CRC). */
static void encode_side_info2(ct_mp3_state *gfc, int bitsPerFrame)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    const ct_mp3_enc_result *const eov = &gfc->ov_enc;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    const ct_mp3_side_info *const l3_side = &gfc->l3_side;
    int gr, ch;

    esv->header[esv->h_ptr].ptr = 0;
    memset(esv->header[esv->h_ptr].buf, 0, (size_t)cfg->sideinfo_len);
    if (cfg->samplerate_out < 16000)
        writeheader(esv, 0xffe, 12);
    else
        writeheader(esv, 0xfff, 12);
    writeheader(esv, (cfg->version), 1);
    writeheader(esv, 4 - 3, 2);
    writeheader(esv, (!cfg->error_protection), 1);
    writeheader(esv, (eov->bitrate_index), 4);
    writeheader(esv, (cfg->samplerate_index), 2);
    writeheader(esv, (eov->padding), 1);
    writeheader(esv, (cfg->extension), 1);
    writeheader(esv, (cfg->mode), 2);
    writeheader(esv, (eov->mode_ext), 2);
    writeheader(esv, (cfg->copyright), 1);
    writeheader(esv, (cfg->original), 1);
    writeheader(esv, (cfg->emphasis), 2);

    if (cfg->version == 1) {
        /* MPEG-1 */
        assert(l3_side->main_data_begin >= 0);
        writeheader(esv, (l3_side->main_data_begin), 9);

        if (cfg->channels_out == 2)
            writeheader(esv, l3_side->private_bits, 3);
        else
            writeheader(esv, l3_side->private_bits, 5);

        for (ch = 0; ch < cfg->channels_out; ch++) {
            int band;
            for (band = 0; band < 4; band++)
                writeheader(esv, l3_side->scfsi[ch][band], 1);
        }

        for (gr = 0; gr < 2; gr++) {
            for (ch = 0; ch < cfg->channels_out; ch++) {
                const ct_mp3_gr_info *const gi = &l3_side->tt[gr][ch];
                writeheader(esv, gi->part2_3_length + gi->part2_length, 12);
                writeheader(esv, gi->big_values / 2, 9);
                writeheader(esv, gi->global_gain, 8);
                writeheader(esv, gi->scalefac_compress, 4);
                encode_table_select(esv, gi);
                writeheader(esv, gi->preflag, 1);
                writeheader(esv, gi->scalefac_scale, 1);
                writeheader(esv, gi->count1table_select, 1);
            }
        }
    } else {
        /* MPEG-2 LSF */
        assert(l3_side->main_data_begin >= 0);
        writeheader(esv, (l3_side->main_data_begin), 8);
        writeheader(esv, l3_side->private_bits, cfg->channels_out);

        gr = 0;
        for (ch = 0; ch < cfg->channels_out; ch++) {
            const ct_mp3_gr_info *const gi = &l3_side->tt[gr][ch];
            writeheader(esv, gi->part2_3_length + gi->part2_length, 12);
            writeheader(esv, gi->big_values / 2, 9);
            writeheader(esv, gi->global_gain, 8);
            writeheader(esv, gi->scalefac_compress, 9);
            encode_table_select(esv, gi);
            writeheader(esv, gi->scalefac_scale, 1);
            writeheader(esv, gi->count1table_select, 1);
        }
    }

    {
        int const old = esv->h_ptr;
        assert(esv->header[old].ptr == cfg->sideinfo_len * 8);

        esv->h_ptr = (old + 1) & (MAX_HEADER_BUF - 1);
        esv->header[esv->h_ptr].write_timing =
            esv->header[old].write_timing + bitsPerFrame;

        /* MAX_HEADER_BUF is large enough for every frame size */
        assert(esv->h_ptr != esv->w_ptr);
    }
}

/* ---- main data: a frame's own bit string, byte aligned like its place in
 * the stream. */

/* putbits_noheaders into md: the low j bits of val. */
static void md_putbits(ct_mp3_main_data *md, int val, int j)
{
    assert(j < MAX_LENGTH - 2);

    if (j > 0 && val >= 0 && (val >> j) == 0) {
        /* val fits in j bits: the j bits after the nbits written, big
         * endian, 8 bytes at a time (the written bits of the current byte,
         * then val, then zeros: the bytes LAME's loop leaves) */
        int const byte = md->nbits >> 3;
        int const off = md->nbits & 7;
        uint64_t const acc = (off ? (uint64_t) md->buf[byte] << 56 : 0)
                             | (uint64_t) (unsigned int) val << (64 - off - j);
        assert(byte + 8 <= (int) sizeof(md->buf));
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        {
            uint64_t const be = __builtin_bswap64(acc);
            memcpy(&md->buf[byte], &be, sizeof(be));
        }
#else
        {
            int k;
            for (k = 0; k < 8; k++)
                md->buf[byte + k] = (unsigned char) (acc >> (56 - 8 * k));
        }
#endif
        md->nbits += j;
        return;
    }
    while (j > 0) {
        int const byte = md->nbits >> 3;
        int const free_bits = 8 - (md->nbits & 7);
        int const k = ct_min_int(j, free_bits);
        assert(byte < CT_MP3_MAIN_DATA_MAX_BYTES);
        if (free_bits == 8)
            md->buf[byte] = 0;
        j -= k;
        md->buf[byte] |= ((val >> j) << (free_bits - k));
        md->nbits += k;
    }
}

/* md_putbits for a run of codes: the bits not yet stored kept in a
 * register (the low n bits of acc), stored 32 at a time from byte pos of
 * md->buf on; md->nbits is set again by md_writer_close. */
typedef struct md_writer {
    ct_mp3_main_data *md;
    uint64_t acc;
    int n;
    int pos;
} md_writer;

static void store_be(unsigned char *p, uint64_t v, int bytes)
{
    int k;
    for (k = 0; k < bytes; k++)
        p[k] = (unsigned char) (v >> (8 * (bytes - 1 - k)));
}

static void md_writer_open(md_writer *w, ct_mp3_main_data *md)
{
    int const off = md->nbits & 7;

    w->md = md;
    w->pos = md->nbits >> 3;
    w->n = off;
    w->acc = off ? (uint64_t) (md->buf[w->pos] >> (8 - off)) : 0;
}

/* As md_putbits' stores: the written bits, then zeros to 8 bytes on. */
static void md_writer_close(md_writer *w)
{
    assert(w->pos + 8 <= (int) sizeof(w->md->buf));
    store_be(&w->md->buf[w->pos], w->n ? w->acc << (64 - w->n) : 0, 8);
    w->md->nbits = w->pos * 8 + w->n;
}

/* md_putbits(md, val, j), j <= 32. */
static void md_writer_put(md_writer *w, unsigned int val, int j)
{
    if (j < 32 && (val >> j) != 0) {
        /* a value wider than its length: md_putbits' own way */
        md_writer_close(w);
        md_putbits(w->md, (int) val, j);
        md_writer_open(w, w->md);
        return;
    }
    w->acc = w->acc << j | val;
    w->n += j;
    if (w->n >= 32) {
        w->n -= 32;
        assert(w->pos + 4 <= CT_MP3_MAIN_DATA_MAX_BYTES);
        store_be(&w->md->buf[w->pos], (uint32_t) (w->acc >> w->n), 4);
        w->pos += 4;
    }
}

static int huffman_coder_count1(md_writer *w, const ct_mp3_gr_info *gi)
{
    /* the count1 area */
    const ct_mp3_huffcodetab *const h = &ct_mp3_ht[gi->count1table_select + 32];
    int i, bits = 0;

    const int *ix = &gi->l3_enc[gi->big_values];
    const float *xr = &gi->xr[gi->big_values];
    assert(gi->count1table_select < 2);

    for (i = (gi->count1 - gi->big_values) / 4; i > 0; --i) {
        int huffbits = 0;
        int p = 0, v;

        v = ix[0];
        if (v) {
            p += 8;
            if (xr[0] < 0.0f)
                huffbits++;
            assert(v <= 1);
        }

        v = ix[1];
        if (v) {
            p += 4;
            huffbits *= 2;
            if (xr[1] < 0.0f)
                huffbits++;
            assert(v <= 1);
        }

        v = ix[2];
        if (v) {
            p += 2;
            huffbits *= 2;
            if (xr[2] < 0.0f)
                huffbits++;
            assert(v <= 1);
        }

        v = ix[3];
        if (v) {
            p++;
            huffbits *= 2;
            if (xr[3] < 0.0f)
                huffbits++;
            assert(v <= 1);
        }

        ix += 4;
        xr += 4;
        md_writer_put(w, (unsigned int) (huffbits + h->table[p]), h->hlen[p]);
        bits += h->hlen[p];
    }
    return bits;
}

/* Implements the pseudocode of page 98 of the IS. */
static int huffmancode(md_writer *w, unsigned int tableindex, int start,
                       int end, const ct_mp3_gr_info *gi)
{
    const ct_mp3_huffcodetab *const h = &ct_mp3_ht[tableindex];
    unsigned int const linbits = h->xlen;
    int i, bits = 0;

    assert(tableindex < 32u);
    if (!tableindex)
        return bits;

    for (i = start; i < end; i += 2) {
        int16_t cbits = 0;
        uint16_t xbits = 0;
        unsigned int xlen = h->xlen;
        unsigned int ext = 0;
        unsigned int x1 = (unsigned int)gi->l3_enc[i];
        unsigned int x2 = (unsigned int)gi->l3_enc[i + 1];

        assert(gi->l3_enc[i] >= 0);
        assert(gi->l3_enc[i + 1] >= 0);

        if (x1 != 0u) {
            if (gi->xr[i] < 0.0f)
                ext++;
            cbits--;
        }

        if (tableindex > 15u) {
            /* ESC words */
            if (x1 >= 15u) {
                uint16_t const linbits_x1 = (uint16_t)(x1 - 15u);
                assert(linbits_x1 <= h->linmax);
                ext |= (unsigned int)linbits_x1 << 1u;
                xbits = (uint16_t)linbits;
                x1 = 15u;
            }

            if (x2 >= 15u) {
                uint16_t const linbits_x2 = (uint16_t)(x2 - 15u);
                assert(linbits_x2 <= h->linmax);
                ext <<= linbits;
                ext |= linbits_x2;
                xbits = (uint16_t)(xbits + linbits);
                x2 = 15u;
            }
            xlen = 16;
        }

        if (x2 != 0u) {
            ext <<= 1;
            if (gi->xr[i + 1] < 0.0f)
                ext++;
            cbits--;
        }

        assert((x1 | x2) < 16u);

        x1 = x1 * xlen + x2;
        xbits = (uint16_t)(xbits - cbits);
        cbits = (int16_t)(cbits + h->hlen[x1]);

        assert(cbits <= MAX_LENGTH);
        assert(xbits <= MAX_LENGTH);

        md_writer_put(w, h->table[x1], cbits);
        md_writer_put(w, ext, xbits);
        bits += cbits + xbits;
    }
    return bits;
}

/* Note the discussion of huffmancodebits() on pages 28 and 29 of the IS, as
 * well as the definitions of the side information on pages 26 and 27. */
static int short_huffmancodebits(md_writer *w, const ct_mp3_scalefac *sfb,
                                 const ct_mp3_gr_info *gi)
{
    int bits;
    int region1Start;

    region1Start = 3 * sfb->s[3];
    if (region1Start > gi->big_values)
        region1Start = gi->big_values;

    /* short blocks do not have a region2 */
    bits = huffmancode(w, (unsigned int)table_select_written(gi->table_select[0]), 0,
                       region1Start, gi);
    bits += huffmancode(w, (unsigned int)table_select_written(gi->table_select[1]),
                        region1Start, gi->big_values, gi);
    return bits;
}

static int long_huffmancodebits(md_writer *w, const ct_mp3_scalefac *sfb,
                                const ct_mp3_gr_info *gi)
{
    unsigned int i;
    int bigvalues, bits;
    int region1Start, region2Start;

    bigvalues = gi->big_values;
    assert(0 <= bigvalues && bigvalues <= 576);

    assert(gi->region0_count >= -1);
    assert(gi->region1_count >= -1);
    i = (unsigned int)(gi->region0_count + 1);
    assert(i < sizeof(sfb->l) / sizeof(sfb->l[0]));
    region1Start = sfb->l[i];
    i += (unsigned int)(gi->region1_count + 1);
    assert(i < sizeof(sfb->l) / sizeof(sfb->l[0]));
    region2Start = sfb->l[i];

    if (region1Start > bigvalues)
        region1Start = bigvalues;

    if (region2Start > bigvalues)
        region2Start = bigvalues;

    bits = huffmancode(w, (unsigned int)table_select_written(gi->table_select[0]), 0,
                       region1Start, gi);
    bits += huffmancode(w, (unsigned int)table_select_written(gi->table_select[1]),
                        region1Start, region2Start, gi);
    bits += huffmancode(w, (unsigned int)table_select_written(gi->table_select[2]),
                        region2Start, bigvalues, gi);
    return bits;
}

/* Appends the bits of seg, 32 at a time; returns their count. */
static int md_append(md_writer *w, const ct_mp3_main_data *seg)
{
    int pos;

    for (pos = 0; pos + 32 <= seg->nbits; pos += 32) {
        const unsigned char *const b = &seg->buf[pos >> 3];
        md_writer_put(w, (unsigned int) b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3], 32);
    }
    if (pos < seg->nbits) {
        /* the bytes past nbits are zeros (the writer stores 8 bytes) */
        const unsigned char *const b = &seg->buf[pos >> 3];
        int const rest = seg->nbits - pos;
        md_writer_put(w, ((unsigned int) b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]) >> (32 - rest),
                      rest);
    }
    return seg->nbits;
}

/* A granule's big values and count1: coded here, or appended from coded
 * (ct_mp3_encode_part3). */
static int granule_part3(ct_mp3_main_data *md, const ct_mp3_scalefac *scalefac_band,
                         const ct_mp3_gr_info *gi, const ct_mp3_main_data *coded)
{
    md_writer w;
    int bits;

    md_writer_open(&w, md);
    if (coded != NULL)
        bits = md_append(&w, coded);
    else if (gi->block_type == SHORT_TYPE)
        bits = short_huffmancodebits(&w, scalefac_band, gi);
    else
        bits = long_huffmancodebits(&w, scalefac_band, gi);
    if (coded == NULL)
        bits += huffman_coder_count1(&w, gi);
    md_writer_close(&w);
    return bits;
}

void ct_mp3_encode_part3(const ct_mp3_scalefac *scalefac_band, const ct_mp3_gr_info *gi,
                         ct_mp3_main_data *md)
{
    md->nbits = 0;
    (void) granule_part3(md, scalefac_band, gi, NULL);
}

void ct_mp3_encode_main_data(const ct_mp3_config *cfg,
                             const ct_mp3_scalefac *scalefac_band,
                             const ct_mp3_side_info *l3_side,
                             const ct_mp3_main_data *const part3[2][2],
                             ct_mp3_main_data *md)
{
    int gr, ch, sfb, data_bits;

    md->nbits = 0;
    if (cfg->version == 1) {
        /* MPEG-1 */
        for (gr = 0; gr < 2; gr++) {
            for (ch = 0; ch < cfg->channels_out; ch++) {
                const ct_mp3_gr_info *const gi = &l3_side->tt[gr][ch];
                int const slen1 = ct_mp3_slen1_tab[gi->scalefac_compress];
                int const slen2 = ct_mp3_slen2_tab[gi->scalefac_compress];
                data_bits = 0;
                for (sfb = 0; sfb < gi->sfbdivide; sfb++) {
                    if (gi->scalefac[sfb] == -1)
                        continue; /* scfsi is used */
                    md_putbits(md, gi->scalefac[sfb], slen1);
                    data_bits += slen1;
                }
                for (; sfb < gi->sfbmax; sfb++) {
                    if (gi->scalefac[sfb] == -1)
                        continue; /* scfsi is used */
                    md_putbits(md, gi->scalefac[sfb], slen2);
                    data_bits += slen2;
                }
                assert(data_bits == gi->part2_length);

                data_bits += granule_part3(md, scalefac_band, gi,
                                           part3 != NULL ? part3[gr][ch] : NULL);
                /* does the bit count of the quantization agree? */
                assert(data_bits == gi->part2_3_length + gi->part2_length);
            }
        }
    } else {
        /* MPEG-2 LSF */
        gr = 0;
        for (ch = 0; ch < cfg->channels_out; ch++) {
            const ct_mp3_gr_info *const gi = &l3_side->tt[gr][ch];
            int i, sfb_partition, scale_bits = 0;
            assert(gi->sfb_partition_table);
            data_bits = 0;
            sfb = 0;
            sfb_partition = 0;

            if (gi->block_type == SHORT_TYPE) {
                for (; sfb_partition < 4; sfb_partition++) {
                    int const sfbs = gi->sfb_partition_table[sfb_partition] / 3;
                    int const slen = gi->slen[sfb_partition];
                    for (i = 0; i < sfbs; i++, sfb++) {
                        md_putbits(md, ct_max_int(gi->scalefac[sfb * 3 + 0], 0), slen);
                        md_putbits(md, ct_max_int(gi->scalefac[sfb * 3 + 1], 0), slen);
                        md_putbits(md, ct_max_int(gi->scalefac[sfb * 3 + 2], 0), slen);
                        scale_bits += 3 * slen;
                    }
                }
            } else {
                for (; sfb_partition < 4; sfb_partition++) {
                    int const sfbs = gi->sfb_partition_table[sfb_partition];
                    int const slen = gi->slen[sfb_partition];
                    for (i = 0; i < sfbs; i++, sfb++) {
                        md_putbits(md, ct_max_int(gi->scalefac[sfb], 0), slen);
                        scale_bits += slen;
                    }
                }
            }
            data_bits += granule_part3(md, scalefac_band, gi,
                                       part3 != NULL ? part3[gr][ch] : NULL);
            /* does the bit count of the quantization agree? */
            assert(data_bits == gi->part2_3_length);
            assert(scale_bits == gi->part2_length);
            (void)scale_bits;
        }
    }
    (void)data_bits;
}

/* Appends md to the stream, which is byte aligned here as in LAME: the
 * bytes up to the next pending header's position at once, the header where
 * putbits2 would put it (at the start of the byte at its write_timing). */
static void put_main_data(ct_mp3_state *gfc, const ct_mp3_main_data *md)
{
    ct_mp3_bit_stream *const bs = &gfc->bs;
    int const full_bytes = md->nbits >> 3;
    int const rest = md->nbits & 7;
    int i = 0;

    assert(gfc->bs.totbit % 8 == 0);
    while (i < full_bytes) {
        int const timing = gfc->sv_enc.header[gfc->sv_enc.w_ptr].write_timing;
        int n;
        if (bs->buf_bit_idx != 0 || timing <= bs->totbit || (timing - bs->totbit) % 8 != 0) {
            putbits2(gfc, md->buf[i], 8);
            i++;
            continue;
        }
        n = (timing - bs->totbit) / 8;
        if (n > full_bytes - i)
            n = full_bytes - i;
        assert(bs->buf_byte_idx + n < BUFFER_SIZE);
        memcpy(&bs->buf[bs->buf_byte_idx + 1], &md->buf[i], (size_t) n);
        bs->buf_byte_idx += n;
        bs->totbit += 8 * n;
        i += n;
    }
    if (rest)
        putbits2(gfc, md->buf[full_bytes] >> (8 - rest), rest);
}

/*
 * Compute the number of bits required to flush all mp3 frames currently in
 * the buffer. This should be the same as the reservoir size. Only call this
 * routine between frames, i.e. only after all headers and data have been
 * added to the buffer by format_bitstream().
 *
 * Also compute total_bytes_output: the size of the mp3 output buffer if
 * lame_encode_flush_nogap() was called right now.
 */
int ct_mp3_compute_flushbits(const ct_mp3_state *gfc, int *total_bytes_output)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    const ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int flushbits, remaining_headers;
    int bitsPerFrame;
    int last_ptr, first_ptr;
    first_ptr = esv->w_ptr;    /* first header to add to bitstream */
    last_ptr = esv->h_ptr - 1; /* last header to add to bitstream */
    if (last_ptr == -1)
        last_ptr = MAX_HEADER_BUF - 1;

    /* add this many bits to bitstream so we can flush all headers */
    flushbits = esv->header[last_ptr].write_timing - gfc->bs.totbit;
    *total_bytes_output = flushbits;

    if (flushbits >= 0) {
        /* some headers have not yet been written: reduce flushbits by the
         * size of the headers */
        remaining_headers = 1 + last_ptr - first_ptr;
        if (last_ptr < first_ptr)
            remaining_headers = 1 + last_ptr - first_ptr + MAX_HEADER_BUF;
        flushbits -= remaining_headers * 8 * cfg->sideinfo_len;
    }

    /* finally, add some bits so that the last frame is complete: they are
     * not necessary to decode the last frame, but some decoders ignore the
     * last frame if they are missing */
    bitsPerFrame = ct_mp3_getframebits(gfc);
    flushbits += bitsPerFrame;
    *total_bytes_output += bitsPerFrame;
    /* round up */
    if (*total_bytes_output % 8)
        *total_bytes_output = 1 + (*total_bytes_output / 8);
    else
        *total_bytes_output = (*total_bytes_output / 8);
    *total_bytes_output += gfc->bs.buf_byte_idx + 1;

    return flushbits;
}

void ct_mp3_flush_bitstream(ct_mp3_state *gfc)
{
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int nbytes;
    int flushbits;
    int last_ptr = esv->h_ptr - 1; /* last header to add to bitstream */
    if (last_ptr == -1)
        last_ptr = MAX_HEADER_BUF - 1;

    if ((flushbits = ct_mp3_compute_flushbits(gfc, &nbytes)) < 0)
        return;
    drain_into_ancillary(gfc, flushbits);

    /* all of the last frame has been written to the bitstream */
    assert(esv->header[last_ptr].write_timing + ct_mp3_getframebits(gfc) ==
           gfc->bs.totbit);
    (void)last_ptr;

    /* we have padded out all frames with ancillary data, which is the same
     * as filling the bit reservoir with ancillary data, so: */
    esv->ResvSize = 0;
    gfc->l3_side.main_data_begin = 0;
}

void ct_mp3_add_dummy_byte(ct_mp3_state *gfc, unsigned char val, unsigned int n)
{
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    int i;

    while (n-- > 0u) {
        putbits_noheaders(gfc, val, 8);

        for (i = 0; i < MAX_HEADER_BUF; ++i)
            esv->header[i].write_timing += 8;
    }
}

/*
 * format_bitstream(): called after a frame of audio has been quantized and
 * coded. From a Layer III encoder's perspective the bit stream is primarily
 * a series of main_data() blocks, with header and side information inserted
 * at the proper locations to maintain framing (see Figure A.7 in the IS).
 */
void ct_mp3_format_bitstream(ct_mp3_state *gfc, const ct_mp3_main_data *md)
{
    const ct_mp3_config *const cfg = &gfc->cfg;
    ct_mp3_enc_state *const esv = &gfc->sv_enc;
    ct_mp3_side_info *const l3_side = &gfc->l3_side;
    int bits;
    int bitsPerFrame;

    bitsPerFrame = ct_mp3_getframebits(gfc);
    drain_into_ancillary(gfc, l3_side->resvDrain_pre);

    encode_side_info2(gfc, bitsPerFrame);
    bits = 8 * cfg->sideinfo_len;
    put_main_data(gfc, md);
    bits += md->nbits;
    drain_into_ancillary(gfc, l3_side->resvDrain_post);
    bits += l3_side->resvDrain_post;

    l3_side->main_data_begin += (bitsPerFrame - bits) / 8;

    /* the bits that would flush the stream, and main_data_begin for the
     * next frame, agree with the reservoir */
    assert(l3_side->main_data_begin * 8 == esv->ResvSize);
    assert(gfc->bs.totbit % 8 == 0);

    if (gfc->bs.totbit > 1000000000) {
        /* to avoid totbit overflow (after 8 h at 128 kbit/s), reset the bit
         * counter */
        int i;
        for (i = 0; i < MAX_HEADER_BUF; ++i)
            esv->header[i].write_timing -= gfc->bs.totbit;
        gfc->bs.totbit = 0;
    }
}

/* do_copy_buffer */
static int do_copy_buffer(ct_mp3_state *gfc, unsigned char *buffer, int size)
{
    ct_mp3_bit_stream *const bs = &gfc->bs;
    int const minimum = bs->buf_byte_idx + 1;
    if (minimum <= 0)
        return 0;
    if (minimum > size)
        return -1; /* buffer is too small */
    memcpy(buffer, bs->buf, (size_t)minimum);
    bs->buf_byte_idx = -1;
    bs->buf_bit_idx = 0;
    return minimum;
}

int ct_mp3_copy_buffer(ct_mp3_state *gfc, unsigned char *buffer, int size,
                       int mp3data)
{
    int const minimum = do_copy_buffer(gfc, buffer, size);
    if (minimum > 0 && mp3data) {
        ct_mp3_update_music_crc((const uint16_t (*)[256]) gfc->music_crc_slices, &gfc->nMusicCRC,
                                buffer, minimum);

        /* the bytes of the mp3 stream, for the Xing/LAME header */
        gfc->VBR_seek_table.nBytesWritten += (unsigned long)minimum;
        /* LAME's do_gain_analysis follows: ReplayGain of the decoded frame,
         * only with decode_on_the_fly, which our settings never set */
    }
    return minimum;
}

void ct_mp3_init_bit_stream_w(ct_mp3_state *gfc)
{
    ct_mp3_enc_state *const esv = &gfc->sv_enc;

    esv->h_ptr = esv->w_ptr = 0;
    esv->header[esv->h_ptr].write_timing = 0;

    gfc->bs.buf_size = BUFFER_SIZE;
    gfc->bs.buf_byte_idx = -1;
    gfc->bs.buf_bit_idx = 0;
    gfc->bs.totbit = 0;
}
