/*
 * CELT's math helpers in the float build: celt/mathops.h (float
 * branch, FLOAT_APPROX not defined) and the float constants and min/max
 * macros of celt/arch.h.
 *
 * How libopus' fixed-point macros expand in the float build (celt/arch.h,
 * the `#else` of FIXED_POINT); port a call by writing out its expansion:
 *   QCONST16(x,b), QCONST32(x,b)            -> x  (the float literal as is)
 *   EXTRACT16, EXTEND32, SHR16, SHL16, SHR32, SHL32, PSHR32, VSHR32, PSHR,
 *   SHR, SHL, SATURATE, SATURATE16, ROUND16, SROUND16, SIG2WORD16 -> (a)
 *   NEG16, NEG32, NEG32_ovflw               -> (-(x))
 *   HALF16(x), HALF32(x)                     -> (.5f*(x))
 *   ADD16, ADD32, ADD32_ovflw, UADD32        -> ((a)+(b))
 *   SUB16, SUB32, SUB32_ovflw, USUB32        -> ((a)-(b))
 *   MULT16_16_16(a,b)                        -> ((a)*(b))
 *   MULT16_16(a,b)         -> ((opus_val32)(a)*(opus_val32)(b)), i.e. both
 *                             operands converted to float first
 *   MAC16_16(c,a,b)        -> ((c)+(opus_val32)(a)*(opus_val32)(b))
 *   MULT16_32_Q15, MULT16_32_Q16, MULT32_32_Q31, MULT16_16_Q11_32,
 *   MULT16_16_Q11, MULT16_16_Q13, MULT16_16_Q14, MULT16_16_Q15,
 *   MULT16_16_P13, MULT16_16_P14, MULT16_16_P15, MULT16_32_P16,
 *   IMUL32                                   -> ((a)*(b))
 *   MAC16_32_Q15(c,a,b), MAC16_32_Q16(c,a,b) -> ((c)+(a)*(b))
 *   DIV32_16(a,b)          -> (((opus_val32)(a))/(opus_val16)(b))
 *   DIV32(a,b)             -> (((opus_val32)(a))/(opus_val32)(b))
 *   SCALEIN(a)             -> ((a)*CELT_SIG_SCALE)
 *   SCALEOUT(a)            -> ((a)*(1/CELT_SIG_SCALE))
 *   ABS16(x), ABS32(x)     -> ((float)fabs(x))     (CT_ABS16, CT_ABS32)
 *   celt_isnan(x)          -> ((x)!=(x))
 * (opus_val16/opus_val32/celt_sig/celt_norm are float.) Mind C's
 * promotions when writing them out: an int operand stays int until it
 * meets a float, and a double literal (1e-15 without f) turns the
 * expression into double. The functions below keep the reference macros'
 * promotions: those whose libm call takes a double (sqrt, log, exp) take a
 * double, so that an int or double argument is converted as the macro
 * converts it; the others are only called with float (or int) arguments.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#ifndef CTCORE_OPUS_MATHOPS_H
#define CTCORE_OPUS_MATHOPS_H

#include <math.h>
#include <stdint.h>

/* celt/arch.h, float build */
#define CT_CELT_SIG_SCALE 32768.f
#define CT_Q15ONE         1.0f
#define CT_Q15_ONE        1.0f
#define CT_NORM_SCALING   1.f
#define CT_EPSILON        1e-15f
#define CT_VERY_SMALL     1e-30f
#define CT_VERY_LARGE16   1e15f
/* celt/mathops.h */
#define CT_PI 3.141592653f

#define CT_MIN16(a, b) ((a) < (b) ? (a) : (b))
#define CT_MAX16(a, b) ((a) > (b) ? (a) : (b))
#define CT_MIN32(a, b) ((a) < (b) ? (a) : (b))
#define CT_MAX32(a, b) ((a) > (b) ? (a) : (b))
#define CT_IMIN(a, b)  ((a) < (b) ? (a) : (b))
#define CT_IMAX(a, b)  ((a) > (b) ? (a) : (b))
#define CT_ABS16(x)    ((float)fabs(x))
#define CT_ABS32(x)    ((float)fabs(x))

/* celt/mathops.h FRAC_MUL16: the 16-bit fractional product that the float
 * build still uses (bands.c bitexact_cos, bitexact_log2tan) */
#define CT_FRAC_MUL16(a, b)                                                    \
    ((16384 + ((int32_t)(int16_t)(a) * (int16_t)(b))) >> 15)

static inline int ct_celt_isnan(float x)
{
    return x != x;
}

static inline float ct_celt_sqrt(double x)
{
    return (float)sqrt(x);
}

static inline float ct_celt_rsqrt_norm(double x)
{
    return 1.f / (float)sqrt(x);
}

/* ((float)cos((.5f*PI)*(x))): the product is a float product */
static inline float ct_celt_cos_norm(float x)
{
    return (float)cos((.5f * CT_PI) * x);
}

static inline float ct_celt_rcp(float x)
{
    return 1.f / x;
}

static inline float ct_celt_frac_div32(float a, float b)
{
    return a / b;
}

static inline float ct_celt_log2(double x)
{
    return (float)(1.442695040888963387 * log(x));
}

static inline float ct_celt_exp2(double x)
{
    return (float)exp(0.6931471805599453094 * x);
}

/* celt/mathops.h fast_atan2f */
static inline float ct_celt_fast_atan2f(float y, float x)
{
    const float cA = 0.43157974f;
    const float cB = 0.67848403f;
    const float cC = 0.08595542f;
    const float cE = (float)CT_PI / 2;
    float x2, y2;
    x2 = x * x;
    y2 = y * y;
    /* For very small values, we don't care about the answer, so we can
     * just return 0. */
    if (x2 + y2 < 1e-18f)
        return 0;
    if (x2 < y2) {
        float den = (y2 + cB * x2) * (y2 + cC * x2);
        return -x * y * (y2 + cA * x2) / den + (y < 0 ? -cE : cE);
    } else {
        float den = (x2 + cB * y2) * (x2 + cC * y2);
        return x * y * (x2 + cA * y2) / den + (y < 0 ? -cE : cE) -
               (x * y < 0 ? -cE : cE);
    }
}

#endif
