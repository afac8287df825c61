/*
 * The CELT range encoder: the entropy coder context, its encoding calls and
 * the bit accounting (ec_tell, ec_tell_frac). Ports celt/entcode.{c,h},
 * celt/entenc.{c,h}, celt/mfrngcod.h and celt/ecintrin.h, encoder side.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_RANGE_ENC_H
#define CTCORE_OPUS_RANGE_ENC_H

#include <limits.h>
#include <stdint.h>

/* celt/entcode.h: ec_window, EC_WINDOW_SIZE, EC_UINT_BITS, BITRES */
typedef uint32_t ct_ec_window;
#define CT_EC_WINDOW_SIZE ((int)sizeof(ct_ec_window) * CHAR_BIT)
/* The number of bits of the range-coded part of ct_ec_enc_uint's integers */
#define CT_EC_UINT_BITS 8
/* The resolution of ct_ec_tell_frac: 3 => 1/8th bits */
#define CT_BITRES 3

/* celt/ecintrin.h EC_MINI: the branchless min of unsigned values */
#define CT_EC_MINI(_a, _b) ((_a) + (((_b) - (_a)) & -((_b) < (_a))))

/* celt/entcode.h struct ec_ctx, encoder side */
typedef struct ct_ec_enc {
    /* Buffered output */
    unsigned char *buf;
    /* The size of the buffer */
    uint32_t storage;
    /* The offset at which the last byte containing raw bits was written */
    uint32_t end_offs;
    /* Bits that will be written at the end */
    ct_ec_window end_window;
    /* Number of valid bits in end_window */
    int nend_bits;
    /* The total number of whole bits written (not counting the partial
     * bits in the range coder) */
    int nbits_total;
    /* The offset at which the next range coder byte will be written */
    uint32_t offs;
    /* The number of values in the current range */
    uint32_t rng;
    /* The low end of the current range */
    uint32_t val;
    /* The number of outstanding carry propagating symbols */
    uint32_t ext;
    /* A buffered output symbol, awaiting carry propagation */
    int rem;
    /* Nonzero if an error occurred */
    int error;
} ct_ec_enc;

/* EC_ILOG (ecintrin.h, the clz version libopus' gcc build uses): the
 * number of bits of _v, 0 for 0 (ec_ilog's value there) */
static inline int ct_ec_ilog(uint32_t _v)
{
    return _v ? (int)(sizeof(unsigned) * CHAR_BIT) - __builtin_clz(_v) : 0;
}

static inline uint32_t ct_ec_range_bytes(const ct_ec_enc *_this)
{
    return _this->offs;
}

static inline unsigned char *ct_ec_get_buffer(const ct_ec_enc *_this)
{
    return _this->buf;
}

static inline int ct_ec_get_error(const ct_ec_enc *_this)
{
    return _this->error;
}

/* The number of whole bits used so far (rounded up) */
static inline int ct_ec_tell(const ct_ec_enc *_this)
{
    return _this->nbits_total - ct_ec_ilog(_this->rng);
}

/* The number of bits used so far, scaled by 2**CT_BITRES (rounded up) */
uint32_t ct_ec_tell_frac(const ct_ec_enc *_this);

/* celt/entcode.h celt_udiv/celt_sudiv: the x86 build has no
 * USE_SMALL_DIV_TABLE, so these are C's division */
static inline uint32_t ct_celt_udiv(uint32_t n, uint32_t d)
{
    return n / d;
}

static inline int32_t ct_celt_sudiv(int32_t n, int32_t d)
{
    return n / d;
}

void ct_ec_enc_init(ct_ec_enc *_this, unsigned char *_buf, uint32_t _size);
/* The symbol [_fl,_fh) of a distribution of total frequency _ft */
void ct_ec_encode(ct_ec_enc *_this, unsigned _fl, unsigned _fh, unsigned _ft);
/* ct_ec_encode with _ft == 1 << _bits */
void ct_ec_encode_bin(ct_ec_enc *_this, unsigned _fl, unsigned _fh,
                      unsigned _bits);
/* A bit that is one with probability 1/(1 << _logp) */
void ct_ec_enc_bit_logp(ct_ec_enc *_this, int _val, unsigned _logp);
/* Symbol _s of the "inverse" CDF _icdf of precision _ftb bits */
void ct_ec_enc_icdf(ct_ec_enc *_this, int _s, const unsigned char *_icdf,
                    unsigned _ftb);
/* A raw unsigned integer _fl < _ft, 2 <= _ft <= 2**32-1 */
void ct_ec_enc_uint(ct_ec_enc *_this, uint32_t _fl, uint32_t _ft);
/* _ftb (1..25) raw bits, written at the end of the buffer */
void ct_ec_enc_bits(ct_ec_enc *_this, uint32_t _fl, unsigned _ftb);
/* Overwrites the first _nbits (<= 8) bits of the stream with _val */
void ct_ec_enc_patch_initial_bits(ct_ec_enc *_this, unsigned _val,
                                  unsigned _nbits);
/* Moves the raw bits at the end of the buffer to the end of _size bytes */
void ct_ec_enc_shrink(ct_ec_enc *_this, uint32_t _size);
/* Flushes the remaining bytes to the buffer */
void ct_ec_enc_done(ct_ec_enc *_this);

#endif
