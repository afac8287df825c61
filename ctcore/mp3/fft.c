/*
 * FFT and FHT routines. Copyright 1988, 1993 Ron Mayer; 1999-2000 Takehiro
 * Tominaga. The FHT algorithm is R. Bracewell's, the trigonometric
 * generator O. Buneman's (both Stanford University); Mather's lookup table
 * and Takehiro's speed-ups.
 *
 * Debian's build runs the C fht (no NASM, no SSE variant on amd64); it is
 * ct_mp3_fht_c here, fft_dsp.h's reference (x86/fft_*.c: vector versions of
 * the same arithmetic).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/fft.c (LGPL-2.0-or-later, the LAME
 * project)
 */
#include "fft.h"

#include <math.h>

#include "common/cpu.h"
#include "util.h"

/* 8-bit bit reversal. */
static const unsigned char rv_tbl[] = {
    0x00, 0x80, 0x40, 0xc0, 0x20, 0xa0, 0x60, 0xe0,
    0x10, 0x90, 0x50, 0xd0, 0x30, 0xb0, 0x70, 0xf0,
    0x08, 0x88, 0x48, 0xc8, 0x28, 0xa8, 0x68, 0xe8,
    0x18, 0x98, 0x58, 0xd8, 0x38, 0xb8, 0x78, 0xf8,
    0x04, 0x84, 0x44, 0xc4, 0x24, 0xa4, 0x64, 0xe4,
    0x14, 0x94, 0x54, 0xd4, 0x34, 0xb4, 0x74, 0xf4,
    0x0c, 0x8c, 0x4c, 0xcc, 0x2c, 0xac, 0x6c, 0xec,
    0x1c, 0x9c, 0x5c, 0xdc, 0x3c, 0xbc, 0x7c, 0xfc,
    0x02, 0x82, 0x42, 0xc2, 0x22, 0xa2, 0x62, 0xe2,
    0x12, 0x92, 0x52, 0xd2, 0x32, 0xb2, 0x72, 0xf2,
    0x0a, 0x8a, 0x4a, 0xca, 0x2a, 0xaa, 0x6a, 0xea,
    0x1a, 0x9a, 0x5a, 0xda, 0x3a, 0xba, 0x7a, 0xfa,
    0x06, 0x86, 0x46, 0xc6, 0x26, 0xa6, 0x66, 0xe6,
    0x16, 0x96, 0x56, 0xd6, 0x36, 0xb6, 0x76, 0xf6,
    0x0e, 0x8e, 0x4e, 0xce, 0x2e, 0xae, 0x6e, 0xee,
    0x1e, 0x9e, 0x5e, 0xde, 0x3e, 0xbe, 0x7e, 0xfe
};

/* costab: cos and sin of the first twiddle of each stage */
static const float costab[4 * 2] = {
    9.238795325112867e-01, 3.826834323650898e-01,
    9.951847266721969e-01, 9.801714032956060e-02,
    9.996988186962042e-01, 2.454122852291229e-02,
    9.999811752826011e-01, 6.135884649154475e-03
};

/* fht: Hartley transform of 2 * n points of fz, in place. */
void ct_mp3_fht_c(float *fz, int n)
{
    const float *tri = costab;
    int k4;
    float *fi, *gi;
    float const *fn;

    n <<= 1; /* to get BLKSIZE: LAME's 3DNow! routine took n / 2 */
    fn = fz + n;
    k4 = 4;
    do {
        float s1, c1;
        int i, k1, k2, k3, kx;
        kx = k4 >> 1;
        k1 = k4;
        k2 = k4 << 1;
        k3 = k2 + k1;
        k4 = k2 << 1;
        fi = fz;
        gi = fi + kx;
        do {
            float f0, f1, f2, f3;
            f1 = fi[0] - fi[k1];
            f0 = fi[0] + fi[k1];
            f3 = fi[k2] - fi[k3];
            f2 = fi[k2] + fi[k3];
            fi[k2] = f0 - f2;
            fi[0] = f0 + f2;
            fi[k3] = f1 - f3;
            fi[k1] = f1 + f3;
            f1 = gi[0] - gi[k1];
            f0 = gi[0] + gi[k1];
            f3 = SQRT2 * gi[k3];
            f2 = SQRT2 * gi[k2];
            gi[k2] = f0 - f2;
            gi[0] = f0 + f2;
            gi[k3] = f1 - f3;
            gi[k1] = f1 + f3;
            gi += k4;
            fi += k4;
        } while (fi < fn);
        c1 = tri[0];
        s1 = tri[1];
        for (i = 1; i < kx; i++) {
            float c2, s2;
            c2 = 1 - (2 * s1) * s1;
            s2 = (2 * s1) * c1;
            fi = fz + i;
            gi = fz + k1 - i;
            do {
                float a, b, g0, f0, f1, g1, f2, g2, f3, g3;
                b = s2 * fi[k1] - c2 * gi[k1];
                a = c2 * fi[k1] + s2 * gi[k1];
                f1 = fi[0] - a;
                f0 = fi[0] + a;
                g1 = gi[0] - b;
                g0 = gi[0] + b;
                b = s2 * fi[k3] - c2 * gi[k3];
                a = c2 * fi[k3] + s2 * gi[k3];
                f3 = fi[k2] - a;
                f2 = fi[k2] + a;
                g3 = gi[k2] - b;
                g2 = gi[k2] + b;
                b = s1 * f2 - c1 * g3;
                a = c1 * f2 + s1 * g3;
                fi[k2] = f0 - a;
                fi[0] = f0 + a;
                gi[k3] = g1 - b;
                gi[k1] = g1 + b;
                b = c1 * g2 - s1 * f3;
                a = s1 * g2 + c1 * f3;
                gi[k2] = g0 - a;
                gi[0] = g0 + a;
                fi[k3] = f1 - b;
                fi[k1] = f1 + b;
                gi += k4;
                fi += k4;
            } while (fi < fn);
            c2 = c1;
            c1 = c2 * tri[0] - s1 * tri[1];
            s1 = c2 * tri[1] + s1 * tri[0];
        }
        tri += 2;
    } while (k4 < n);
}


void ct_mp3_fft_short(const ct_mp3_fft_dsp *dsp, const ct_mp3_psy_const *gd,
                      float x_real[3][BLKSIZE_s], const float *buffer)
{
    const float *const window_s = gd->window_s;
    int i, j, b;

    for (b = 0; b < 3; b++) {
        float *x = &x_real[b][BLKSIZE_s / 2];
        const float *const buf = buffer + (576 / 3) * (b + 1);
        j = BLKSIZE_s / 8 - 1;
        do {
            float f0, f1, f2, f3, w;

            i = rv_tbl[j << 2];

            f0 = window_s[i] * buf[i];
            w = window_s[0x7f - i] * buf[i + 0x80];
            f1 = f0 - w;
            f0 = f0 + w;
            f2 = window_s[i + 0x40] * buf[i + 0x40];
            w = window_s[0x3f - i] * buf[i + 0xc0];
            f3 = f2 - w;
            f2 = f2 + w;

            x -= 4;
            x[0] = f0 + f2;
            x[2] = f0 - f2;
            x[1] = f1 + f3;
            x[3] = f1 - f3;

            f0 = window_s[i + 0x01] * buf[i + 0x01];
            w = window_s[0x7e - i] * buf[i + 0x81];
            f1 = f0 - w;
            f0 = f0 + w;
            f2 = window_s[i + 0x41] * buf[i + 0x41];
            w = window_s[0x3e - i] * buf[i + 0xc1];
            f3 = f2 - w;
            f2 = f2 + w;

            x[BLKSIZE_s / 2 + 0] = f0 + f2;
            x[BLKSIZE_s / 2 + 2] = f0 - f2;
            x[BLKSIZE_s / 2 + 1] = f1 + f3;
            x[BLKSIZE_s / 2 + 3] = f1 - f3;
        } while (--j >= 0);

        dsp->fht(x, BLKSIZE_s / 2);
    }
}

void ct_mp3_fft_long(const ct_mp3_fft_dsp *dsp, const ct_mp3_psy_const *gd, float x[BLKSIZE],
                     const float *buffer)
{
    const float *const window = gd->window;
    int i;
    int jj = BLKSIZE / 8 - 1;
    x += BLKSIZE / 2;

    do {
        float f0, f1, f2, f3, w;

        i = rv_tbl[jj];
        f0 = window[i] * buffer[i];
        w = window[i + 0x200] * buffer[i + 0x200];
        f1 = f0 - w;
        f0 = f0 + w;
        f2 = window[i + 0x100] * buffer[i + 0x100];
        w = window[i + 0x300] * buffer[i + 0x300];
        f3 = f2 - w;
        f2 = f2 + w;

        x -= 4;
        x[0] = f0 + f2;
        x[2] = f0 - f2;
        x[1] = f1 + f3;
        x[3] = f1 - f3;

        f0 = window[i + 0x001] * buffer[i + 0x001];
        w = window[i + 0x201] * buffer[i + 0x201];
        f1 = f0 - w;
        f0 = f0 + w;
        f2 = window[i + 0x101] * buffer[i + 0x101];
        w = window[i + 0x301] * buffer[i + 0x301];
        f3 = f2 - w;
        f2 = f2 + w;

        x[BLKSIZE / 2 + 0] = f0 + f2;
        x[BLKSIZE / 2 + 2] = f0 - f2;
        x[BLKSIZE / 2 + 1] = f1 + f3;
        x[BLKSIZE / 2 + 3] = f1 - f3;
    } while (--jj >= 0);

    dsp->fht(x, BLKSIZE / 2);
}

void ct_mp3_fft_init(ct_mp3_psy_const *gd)
{
    int i;

    /* The type of window used here will make no real difference, but in
     * the interest of merging nspsytune stuff: a Blackman window. */
    for (i = 0; i < BLKSIZE; i++)
        gd->window[i] = 0.42 - 0.5 * cos(2 * PI * (i + .5) / BLKSIZE)
            + 0.08 * cos(4 * PI * (i + .5) / BLKSIZE);

    for (i = 0; i < BLKSIZE_s / 2; i++)
        gd->window_s[i] = 0.5 * (1.0 - cos(2.0 * PI * (i + 0.5) / BLKSIZE_s));
}

void ct_mp3_fft_dsp_init(ct_mp3_fft_dsp *dsp, unsigned cpu_flags)
{
    dsp->fht = ct_mp3_fht_c;
#if defined(__x86_64__)
    if (cpu_flags & CT_CPU_FLAG_SSE2)
        dsp->fht = ct_mp3_fht_sse2;
    if (cpu_flags & CT_CPU_FLAG_AVX2)
        dsp->fht = ct_mp3_fht_avx2;
#else
    (void)cpu_flags;
#endif
}
