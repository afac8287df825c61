/*
 * Scalar float helpers that reproduce single Highway operations exactly, for
 * the scalar code of the pixel phase. Each reference kernel is written
 * once as an always-inlined function of `fma` (Highway's MulAdd fused: the
 * avx2 target; a multiply then an add: the sse2 target) and instantiated
 * per target with a constant, so the test disappears at compile time; the
 * XYB conversion (xyb.c), which has no SIMD twin, passes the target's flag.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_PIXEL_MATH_H
#define CTCORE_JPEG_PIXEL_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define CT_PIX_INLINE static inline __attribute__((always_inline))

/* Highway MulAdd(mul, x, add). The project builds with -ffp-contract=off,
 * so the unfused form keeps its two roundings. */
CT_PIX_INLINE float ct_pix_muladd(float mul, float x, float add, int fma)
{
    return fma ? fmaf(mul, x, add) : mul * x + add;
}

/* Highway NegMulAdd(mul, x, add): add - mul * x. */
CT_PIX_INLINE float ct_pix_negmuladd(float mul, float x, float add, int fma)
{
    return fma ? fmaf(-mul, x, add) : add - mul * x;
}

/* Highway Min/Max on x86 (minps/maxps): the second operand unless the
 * comparison holds, which fixes the result for equal and signed zeros. */
CT_PIX_INLINE float ct_pix_min(float a, float b)
{
    return a < b ? a : b;
}

CT_PIX_INLINE float ct_pix_max(float a, float b)
{
    return a > b ? a : b;
}

CT_PIX_INLINE int32_t ct_pix_float_bits(float f)
{
    int32_t i;
    memcpy(&i, &f, sizeof(i));
    return i;
}

CT_PIX_INLINE float ct_pix_bits_float(int32_t i)
{
    float f;
    memcpy(&f, &i, sizeof(f));
    return f;
}

#endif
