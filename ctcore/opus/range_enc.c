/*
 * The CELT range encoder. Ports celt/entenc.c and ec_tell_frac of
 * celt/entcode.c (its table version, the one libopus builds); the
 * constants are celt/mfrngcod.h's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "range_enc.h"

#include <string.h>

/* celt/mfrngcod.h */
#define EC_SYM_BITS   (8)
#define EC_CODE_BITS  (32)
#define EC_SYM_MAX    ((1U << EC_SYM_BITS) - 1)
#define EC_CODE_SHIFT (EC_CODE_BITS - EC_SYM_BITS - 1)
#define EC_CODE_TOP   (((uint32_t)1U) << (EC_CODE_BITS - 1))
#define EC_CODE_BOT   (EC_CODE_TOP >> EC_SYM_BITS)

/* A faster version of ec_tell_frac that uses the low (1/8 bit) resolution:
 * a linear function, then a lookup for the exact transition thresholds. */
uint32_t ct_ec_tell_frac(const ct_ec_enc *_this)
{
    static const unsigned correction[8] = {35733, 38967, 42495, 46340,
                                           50535, 55109, 60097, 65535};
    uint32_t nbits;
    uint32_t r;
    int l;
    unsigned b;
    nbits = _this->nbits_total << CT_BITRES;
    l = ct_ec_ilog(_this->rng);
    r = _this->rng >> (l - 16);
    b = (r >> 12) - 8;
    b += r > correction[b];
    l = (l << 3) + b;
    return nbits - l;
}

static int ec_write_byte(ct_ec_enc *_this, unsigned _value)
{
    if (_this->offs + _this->end_offs >= _this->storage)
        return -1;
    _this->buf[_this->offs++] = (unsigned char)_value;
    return 0;
}

static int ec_write_byte_at_end(ct_ec_enc *_this, unsigned _value)
{
    if (_this->offs + _this->end_offs >= _this->storage)
        return -1;
    _this->buf[_this->storage - ++(_this->end_offs)] = (unsigned char)_value;
    return 0;
}

/* Outputs a symbol, with a carry bit. Symbols that a carry may still
 * propagate through are counted in ext until it is known whether a carry
 * occurs. */
static void ec_enc_carry_out(ct_ec_enc *_this, int _c)
{
    if (_c != EC_SYM_MAX) {
        /* No further carry propagation possible, flush buffer. */
        int carry;
        carry = _c >> EC_SYM_BITS;
        /* Don't output a byte on the first write. */
        if (_this->rem >= 0)
            _this->error |= ec_write_byte(_this, _this->rem + carry);
        if (_this->ext > 0) {
            unsigned sym;
            sym = (EC_SYM_MAX + carry) & EC_SYM_MAX;
            do
                _this->error |= ec_write_byte(_this, sym);
            while (--(_this->ext) > 0);
        }
        _this->rem = _c & EC_SYM_MAX;
    } else
        _this->ext++;
}

static inline void ec_enc_normalize(ct_ec_enc *_this)
{
    /* If the range is too small, output some bits and rescale it. */
    while (_this->rng <= EC_CODE_BOT) {
        ec_enc_carry_out(_this, (int)(_this->val >> EC_CODE_SHIFT));
        /* Move the next-to-high-order symbol into the high-order position. */
        _this->val = (_this->val << EC_SYM_BITS) & (EC_CODE_TOP - 1);
        _this->rng <<= EC_SYM_BITS;
        _this->nbits_total += EC_SYM_BITS;
    }
}

void ct_ec_enc_init(ct_ec_enc *_this, unsigned char *_buf, uint32_t _size)
{
    _this->buf = _buf;
    _this->end_offs = 0;
    _this->end_window = 0;
    _this->nend_bits = 0;
    /* This is the offset from which ct_ec_tell subtracts partial bits. */
    _this->nbits_total = EC_CODE_BITS + 1;
    _this->offs = 0;
    _this->rng = EC_CODE_TOP;
    _this->rem = -1;
    _this->val = 0;
    _this->ext = 0;
    _this->storage = _size;
    _this->error = 0;
}

void ct_ec_encode(ct_ec_enc *_this, unsigned _fl, unsigned _fh, unsigned _ft)
{
    uint32_t r;
    r = ct_celt_udiv(_this->rng, _ft);
    if (_fl > 0) {
        _this->val += _this->rng - r * (_ft - _fl);
        _this->rng = r * (_fh - _fl);
    } else
        _this->rng -= r * (_ft - _fh);
    ec_enc_normalize(_this);
}

void ct_ec_encode_bin(ct_ec_enc *_this, unsigned _fl, unsigned _fh,
                      unsigned _bits)
{
    uint32_t r;
    r = _this->rng >> _bits;
    if (_fl > 0) {
        _this->val += _this->rng - r * ((1U << _bits) - _fl);
        _this->rng = r * (_fh - _fl);
    } else
        _this->rng -= r * ((1U << _bits) - _fh);
    ec_enc_normalize(_this);
}

/* The probability of having a "one" is 1/(1<<_logp). */
void ct_ec_enc_bit_logp(ct_ec_enc *_this, int _val, unsigned _logp)
{
    uint32_t r;
    uint32_t s;
    uint32_t l;
    r = _this->rng;
    l = _this->val;
    s = r >> _logp;
    r -= s;
    if (_val)
        _this->val = l + r;
    _this->rng = _val ? s : r;
    ec_enc_normalize(_this);
}

void ct_ec_enc_icdf(ct_ec_enc *_this, int _s, const unsigned char *_icdf,
                    unsigned _ftb)
{
    uint32_t r;
    r = _this->rng >> _ftb;
    if (_s > 0) {
        _this->val += _this->rng - r * _icdf[_s - 1];
        _this->rng = r * (uint32_t)(_icdf[_s - 1] - _icdf[_s]);
    } else
        _this->rng -= r * _icdf[_s];
    ec_enc_normalize(_this);
}

void ct_ec_enc_uint(ct_ec_enc *_this, uint32_t _fl, uint32_t _ft)
{
    unsigned ft;
    unsigned fl;
    int ftb;
    /* _ft > 1: ct_ec_ilog of 0 is not wanted here */
    _ft--;
    ftb = ct_ec_ilog(_ft);
    if (ftb > CT_EC_UINT_BITS) {
        ftb -= CT_EC_UINT_BITS;
        ft = (_ft >> ftb) + 1;
        fl = (unsigned)(_fl >> ftb);
        ct_ec_encode(_this, fl, fl + 1, ft);
        ct_ec_enc_bits(_this, _fl & (((uint32_t)1 << ftb) - 1U), ftb);
    } else
        ct_ec_encode(_this, _fl, _fl + 1, _ft + 1);
}

void ct_ec_enc_bits(ct_ec_enc *_this, uint32_t _fl, unsigned _bits)
{
    ct_ec_window window;
    int used;
    window = _this->end_window;
    used = _this->nend_bits;
    if (used + _bits > CT_EC_WINDOW_SIZE) {
        do {
            _this->error |=
                ec_write_byte_at_end(_this, (unsigned)window & EC_SYM_MAX);
            window >>= EC_SYM_BITS;
            used -= EC_SYM_BITS;
        } while (used >= EC_SYM_BITS);
    }
    window |= (ct_ec_window)_fl << used;
    used += _bits;
    _this->end_window = window;
    _this->nend_bits = used;
    _this->nbits_total += _bits;
}

void ct_ec_enc_patch_initial_bits(ct_ec_enc *_this, unsigned _val,
                                  unsigned _nbits)
{
    int shift;
    unsigned mask;
    shift = EC_SYM_BITS - _nbits;
    mask = ((1 << _nbits) - 1) << shift;
    if (_this->offs > 0) {
        /* The first byte has been finalized. */
        _this->buf[0] = (unsigned char)((_this->buf[0] & ~mask) | _val << shift);
    } else if (_this->rem >= 0) {
        /* The first byte is still awaiting carry propagation. */
        _this->rem = (_this->rem & ~mask) | _val << shift;
    } else if (_this->rng <= (EC_CODE_TOP >> _nbits)) {
        /* The renormalization loop has never been run. */
        _this->val = (_this->val & ~((uint32_t)mask << EC_CODE_SHIFT)) |
                     (uint32_t)_val << (EC_CODE_SHIFT + shift);
    } else
        /* The encoder hasn't even encoded _nbits of data yet. */
        _this->error = -1;
}

void ct_ec_enc_shrink(ct_ec_enc *_this, uint32_t _size)
{
    memmove(_this->buf + _size - _this->end_offs,
            _this->buf + _this->storage - _this->end_offs,
            _this->end_offs * sizeof(*_this->buf));
    _this->storage = _size;
}

void ct_ec_enc_done(ct_ec_enc *_this)
{
    ct_ec_window window;
    int used;
    uint32_t msk;
    uint32_t end;
    int l;
    /* Output the minimum number of bits that ensures that the symbols
     * encoded so far decode correctly whatever bits follow. */
    l = EC_CODE_BITS - ct_ec_ilog(_this->rng);
    msk = (EC_CODE_TOP - 1) >> l;
    end = (_this->val + msk) & ~msk;
    if ((end | msk) >= _this->val + _this->rng) {
        l++;
        msk >>= 1;
        end = (_this->val + msk) & ~msk;
    }
    while (l > 0) {
        ec_enc_carry_out(_this, (int)(end >> EC_CODE_SHIFT));
        end = (end << EC_SYM_BITS) & (EC_CODE_TOP - 1);
        l -= EC_SYM_BITS;
    }
    /* If we have a buffered byte flush it into the output buffer. */
    if (_this->rem >= 0 || _this->ext > 0)
        ec_enc_carry_out(_this, 0);
    /* If we have buffered extra bits, flush them as well. */
    window = _this->end_window;
    used = _this->nend_bits;
    while (used >= EC_SYM_BITS) {
        _this->error |=
            ec_write_byte_at_end(_this, (unsigned)window & EC_SYM_MAX);
        window >>= EC_SYM_BITS;
        used -= EC_SYM_BITS;
    }
    /* Clear any excess space and add any remaining extra bits to the last
     * byte. */
    if (!_this->error) {
        memset(_this->buf + _this->offs, 0,
               (_this->storage - _this->offs - _this->end_offs) *
                   sizeof(*_this->buf));
        if (used > 0) {
            /* If there's no range coder data at all, give up. */
            if (_this->end_offs >= _this->storage)
                _this->error = -1;
            else {
                l = -l;
                /* If we've busted, don't add too many extra bits to the last
                 * byte; it would corrupt the range coder data, and that's
                 * more important. */
                if (_this->offs + _this->end_offs >= _this->storage &&
                    l < used) {
                    window &= (1 << l) - 1;
                    _this->error = -1;
                }
                _this->buf[_this->storage - _this->end_offs - 1] |=
                    (unsigned char)window;
            }
        }
    }
}
