/*
 * CELT's forward complex FFT in the float build. Ports celt/kiss_fft.c
 * (kf_bfly2/3/4/5, opus_fft_impl, opus_fft_c) with the float complex
 * macros of celt/_kiss_fft_guts.h. kf_bfly2 has only its m == 4 case: a
 * radix 2 follows a radix 4 in every standard-mode factorisation (the
 * m == 1 case is CUSTOM_MODES').
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "fft.h"

#include <stddef.h>

/* celt/_kiss_fft_guts.h, float build */
#define C_MUL(m, a, b)                                                         \
    do {                                                                       \
        (m).r = (a).r * (b).r - (a).i * (b).i;                                 \
        (m).i = (a).r * (b).i + (a).i * (b).r;                                 \
    } while (0)
#define C_MULBYSCALAR(c, s)                                                    \
    do {                                                                       \
        (c).r *= (s);                                                          \
        (c).i *= (s);                                                          \
    } while (0)
#define C_ADD(res, a, b)                                                       \
    do {                                                                       \
        (res).r = (a).r + (b).r;                                               \
        (res).i = (a).i + (b).i;                                               \
    } while (0)
#define C_SUB(res, a, b)                                                       \
    do {                                                                       \
        (res).r = (a).r - (b).r;                                               \
        (res).i = (a).i - (b).i;                                               \
    } while (0)
#define C_ADDTO(res, a)                                                        \
    do {                                                                       \
        (res).r += (a).r;                                                      \
        (res).i += (a).i;                                                      \
    } while (0)
#define HALF_OF(x) ((x) * .5f)

void ct_opus_fft_bfly2(ct_fft_cpx *Fout, int m, int N)
{
    ct_fft_cpx *Fout2;
    int i;
    float tw;
    (void)m;
    tw = 0.7071067812f;
    /* m == 4 here because the radix-2 is just after a radix-4 */
    for (i = 0; i < N; i++) {
        ct_fft_cpx t;
        Fout2 = Fout + 4;
        t = Fout2[0];
        C_SUB(Fout2[0], Fout[0], t);
        C_ADDTO(Fout[0], t);

        t.r = (Fout2[1].r + Fout2[1].i) * tw;
        t.i = (Fout2[1].i - Fout2[1].r) * tw;
        C_SUB(Fout2[1], Fout[1], t);
        C_ADDTO(Fout[1], t);

        t.r = Fout2[2].i;
        t.i = -Fout2[2].r;
        C_SUB(Fout2[2], Fout[2], t);
        C_ADDTO(Fout[2], t);

        t.r = (Fout2[3].i - Fout2[3].r) * tw;
        t.i = (-(Fout2[3].i + Fout2[3].r)) * tw;
        C_SUB(Fout2[3], Fout[3], t);
        C_ADDTO(Fout[3], t);
        Fout += 8;
    }
}

void ct_opus_fft_bfly4(ct_fft_cpx *Fout, const size_t fstride,
                     const ct_fft_state *st, int m, int N, int mm)
{
    int i;

    if (m == 1) {
        /* Degenerate case where all the twiddles are 1. */
        for (i = 0; i < N; i++) {
            ct_fft_cpx scratch0, scratch1;

            C_SUB(scratch0, *Fout, Fout[2]);
            C_ADDTO(*Fout, Fout[2]);
            C_ADD(scratch1, Fout[1], Fout[3]);
            C_SUB(Fout[2], *Fout, scratch1);
            C_ADDTO(*Fout, scratch1);
            C_SUB(scratch1, Fout[1], Fout[3]);

            Fout[1].r = scratch0.r + scratch1.i;
            Fout[1].i = scratch0.i - scratch1.r;
            Fout[3].r = scratch0.r - scratch1.i;
            Fout[3].i = scratch0.i + scratch1.r;
            Fout += 4;
        }
    } else {
        int j;
        ct_fft_cpx scratch[6];
        const ct_fft_cpx *tw1, *tw2, *tw3;
        const int m2 = 2 * m;
        const int m3 = 3 * m;
        ct_fft_cpx *Fout_beg = Fout;
        for (i = 0; i < N; i++) {
            Fout = Fout_beg + i * mm;
            tw3 = tw2 = tw1 = st->twiddles;
            /* m is guaranteed to be a multiple of 4. */
            for (j = 0; j < m; j++) {
                C_MUL(scratch[0], Fout[m], *tw1);
                C_MUL(scratch[1], Fout[m2], *tw2);
                C_MUL(scratch[2], Fout[m3], *tw3);

                C_SUB(scratch[5], *Fout, scratch[1]);
                C_ADDTO(*Fout, scratch[1]);
                C_ADD(scratch[3], scratch[0], scratch[2]);
                C_SUB(scratch[4], scratch[0], scratch[2]);
                C_SUB(Fout[m2], *Fout, scratch[3]);
                tw1 += fstride;
                tw2 += fstride * 2;
                tw3 += fstride * 3;
                C_ADDTO(*Fout, scratch[3]);

                Fout[m].r = scratch[5].r + scratch[4].i;
                Fout[m].i = scratch[5].i - scratch[4].r;
                Fout[m3].r = scratch[5].r - scratch[4].i;
                Fout[m3].i = scratch[5].i + scratch[4].r;
                ++Fout;
            }
        }
    }
}

void ct_opus_fft_bfly3(ct_fft_cpx *Fout, const size_t fstride,
                     const ct_fft_state *st, int m, int N, int mm)
{
    int i;
    size_t k;
    const size_t m2 = 2 * m;
    const ct_fft_cpx *tw1, *tw2;
    ct_fft_cpx scratch[5];
    ct_fft_cpx epi3;

    ct_fft_cpx *Fout_beg = Fout;
    epi3 = st->twiddles[fstride * m];
    for (i = 0; i < N; i++) {
        Fout = Fout_beg + i * mm;
        tw1 = tw2 = st->twiddles;
        /* m is a multiple of 4 in the standard mode. */
        k = m;
        do {
            C_MUL(scratch[1], Fout[m], *tw1);
            C_MUL(scratch[2], Fout[m2], *tw2);

            C_ADD(scratch[3], scratch[1], scratch[2]);
            C_SUB(scratch[0], scratch[1], scratch[2]);
            tw1 += fstride;
            tw2 += fstride * 2;

            Fout[m].r = Fout->r - HALF_OF(scratch[3].r);
            Fout[m].i = Fout->i - HALF_OF(scratch[3].i);

            C_MULBYSCALAR(scratch[0], epi3.i);

            C_ADDTO(*Fout, scratch[3]);

            Fout[m2].r = Fout[m].r + scratch[0].i;
            Fout[m2].i = Fout[m].i - scratch[0].r;

            Fout[m].r = Fout[m].r - scratch[0].i;
            Fout[m].i = Fout[m].i + scratch[0].r;

            ++Fout;
        } while (--k);
    }
}

void ct_opus_fft_bfly5(ct_fft_cpx *Fout, const size_t fstride,
                     const ct_fft_state *st, int m, int N, int mm)
{
    ct_fft_cpx *Fout0, *Fout1, *Fout2, *Fout3, *Fout4;
    int i, u;
    ct_fft_cpx scratch[13];
    const ct_fft_cpx *tw;
    ct_fft_cpx ya, yb;
    ct_fft_cpx *Fout_beg = Fout;

    ya = st->twiddles[fstride * m];
    yb = st->twiddles[fstride * 2 * m];
    tw = st->twiddles;

    for (i = 0; i < N; i++) {
        Fout = Fout_beg + i * mm;
        Fout0 = Fout;
        Fout1 = Fout0 + m;
        Fout2 = Fout0 + 2 * m;
        Fout3 = Fout0 + 3 * m;
        Fout4 = Fout0 + 4 * m;

        /* m is a multiple of 4 in the standard mode. */
        for (u = 0; u < m; ++u) {
            scratch[0] = *Fout0;

            C_MUL(scratch[1], *Fout1, tw[u * fstride]);
            C_MUL(scratch[2], *Fout2, tw[2 * u * fstride]);
            C_MUL(scratch[3], *Fout3, tw[3 * u * fstride]);
            C_MUL(scratch[4], *Fout4, tw[4 * u * fstride]);

            C_ADD(scratch[7], scratch[1], scratch[4]);
            C_SUB(scratch[10], scratch[1], scratch[4]);
            C_ADD(scratch[8], scratch[2], scratch[3]);
            C_SUB(scratch[9], scratch[2], scratch[3]);

            Fout0->r = Fout0->r + (scratch[7].r + scratch[8].r);
            Fout0->i = Fout0->i + (scratch[7].i + scratch[8].i);

            scratch[5].r = scratch[0].r +
                           (scratch[7].r * ya.r + scratch[8].r * yb.r);
            scratch[5].i = scratch[0].i +
                           (scratch[7].i * ya.r + scratch[8].i * yb.r);

            scratch[6].r = scratch[10].i * ya.i + scratch[9].i * yb.i;
            scratch[6].i = -(scratch[10].r * ya.i + scratch[9].r * yb.i);

            C_SUB(*Fout1, scratch[5], scratch[6]);
            C_ADD(*Fout4, scratch[5], scratch[6]);

            scratch[11].r = scratch[0].r +
                            (scratch[7].r * yb.r + scratch[8].r * ya.r);
            scratch[11].i = scratch[0].i +
                            (scratch[7].i * yb.r + scratch[8].i * ya.r);
            scratch[12].r = scratch[9].i * ya.i - scratch[10].i * yb.i;
            scratch[12].i = scratch[10].r * yb.i - scratch[9].r * ya.i;

            C_ADD(*Fout2, scratch[11], scratch[12]);
            C_SUB(*Fout3, scratch[11], scratch[12]);

            ++Fout0;
            ++Fout1;
            ++Fout2;
            ++Fout3;
            ++Fout4;
        }
    }
}

void ct_opus_fft_stages(const ct_fft_state *st, ct_fft_cpx *fout,
                        ct_fft_bfly *bfly3, ct_fft_bfly *bfly4,
                        ct_fft_bfly *bfly5)
{
    int m2, m;
    int p;
    int L;
    int fstride[CT_MAXFACTORS];
    int i;
    int shift;

    /* st->shift can be -1 */
    shift = st->shift > 0 ? st->shift : 0;

    fstride[0] = 1;
    L = 0;
    do {
        p = st->factors[2 * L];
        m = st->factors[2 * L + 1];
        fstride[L + 1] = fstride[L] * p;
        L++;
    } while (m != 1);
    m = st->factors[2 * L - 1];
    for (i = L - 1; i >= 0; i--) {
        if (i != 0)
            m2 = st->factors[2 * i - 1];
        else
            m2 = 1;
        switch (st->factors[2 * i]) {
        case 2:
            ct_opus_fft_bfly2(fout, m, fstride[i]);
            break;
        case 4:
            bfly4(fout, fstride[i] << shift, st, m, fstride[i], m2);
            break;
        case 3:
            bfly3(fout, fstride[i] << shift, st, m, fstride[i], m2);
            break;
        case 5:
            bfly5(fout, fstride[i] << shift, st, m, fstride[i], m2);
            break;
        }
        m = m2;
    }
}

void ct_opus_fft_impl(const ct_fft_state *st, ct_fft_cpx *fout)
{
    ct_opus_fft_stages(st, fout, ct_opus_fft_bfly3, ct_opus_fft_bfly4,
                       ct_opus_fft_bfly5);
}

void ct_opus_fft(const ct_fft_state *cfg, const ct_fft_cpx *fin,
                 ct_fft_cpx *fout,
                 void (*impl)(const ct_fft_state *st, ct_fft_cpx *fout))
{
    int i;
    float scale;
    scale = cfg->scale;

    /* Bit-reverse the input */
    for (i = 0; i < cfg->nfft; i++) {
        ct_fft_cpx x = fin[i];
        fout[cfg->bitrev[i]].r = scale * x.r;
        fout[cfg->bitrev[i]].i = scale * x.i;
    }
    impl(cfg, fout);
}
