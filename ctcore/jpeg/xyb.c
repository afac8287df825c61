/*
 * XYB mode (cjpegli --xyb): one 8-bit sRGB or gray image row -> the scaled
 * XYB planes that jpegli's input buffer holds.
 *
 * cjpegli (EncodeJpeg) converts each row to floats (ToFloatRow), to linear
 * sRGB with its color management, to XYB (LinearRGBRowToXYB), scales it to
 * about [0, 1] (ScaleXYBRow) and hands jpegli float rows, which jpegli reads
 * back multiplied by 255 (ReadFloatRowInterleaved3).
 *
 * The linear step is what JpegliCms does for these inputs:
 * - sRGB: it skips Little-CMS and applies jpegli's rational-polynomial
 *   approximation of the sRGB transfer function (TF_SRGB);
 * - gray: gray has no special case; Little-CMS runs its float pipeline from
 *   jpegli's gray sRGB profile to its linear sRGB profile. That pipeline is
 *   reproduced below with Little-CMS's arithmetic.
 *
 * Highway's MulAdd/NegMulAdd in the transfer function and the cube root are
 * fused on AVX2 and a multiply then an add on SSE2, so the floats depend on
 * the target.
 *
 * Ported from jpegli lib/extras/enc/jpegli.cc, lib/cms/jpegli_cms.cc,
 * lib/cms/transfer_functions-inl.h, lib/base/rational_polynomial-inl.h,
 * lib/base/fast_math-inl.h, lib/extras/xyb_transform.cc and
 * lib/jpegli/input.cc (BSD-3-Clause, Copyright the JPEG XL Project Authors),
 * and from Little-CMS 2.17 src/cmsio1.c, src/cmsmtrx.c, src/cmsgamma.c and
 * src/cmslut.c (MIT, Copyright Marti Maria Saguer).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>

#include "pixel_math.h"
#include "xyb.h"
#include "xyb_params.h"

/*
 * TF_SRGB::DisplayFromEncoded for x in [0, 1] (the sign handling of the
 * reference is a no-op there): linear segment below 0.04045, else a 4/4
 * rational polynomial evaluated with Horner's scheme.
 */
static float srgb_to_linear(float x, int fused)
{
    static const float p[5] = {
        2.200248328e-04f, 1.043637593e-02f, 1.624820318e-01f,
        7.961564959e-01f, 8.210152774e-01f,
    };
    static const float q[5] = {
        2.631846970e-01f, 1.076976492e+00f, 4.987528350e-01f,
        -5.512498495e-02f, 6.521209011e-03f,
    };
    if (!(x > 0.04045f))
        return x * (1.0f / 12.92f);
    float yp = p[4];
    float yq = q[4];
    for (int i = 3; i >= 0; i--) {
        yp = ct_pix_muladd(yp, x, p[i], fused);
        yq = ct_pix_muladd(yq, x, q[i], fused);
    }
    return yp / yq;
}

/*
 * CubeRootAndAdd: cbrt(x) + add. The initial guess divides the exponent by
 * three on the bits; three Newton-Raphson steps and a final one refine it.
 * x is a mixed opsin value, at least CT_XYB_BIAS, so the reference's
 * special case for x == 0 never applies.
 */
static float cube_root_and_add(float x, float add, int fused)
{
    const float k1_3 = 1.0f / 3;
    const float k4_3 = 4.0f / 3;
    const float xa_3 = k1_3 * x;
    const uint32_t bits =
        0x54800000u - ((uint32_t)ct_pix_float_bits(x) >> 23) * 0x002AAAAAu;
    float r = ct_pix_bits_float((int32_t)bits);
    for (int i = 0; i < 3; i++) {
        const float r2 = r * r;
        r = ct_pix_negmuladd(xa_3, r2 * r2, k4_3 * r, fused);
    }
    float r2 = r * r;
    r = ct_pix_muladd(k1_3, ct_pix_negmuladd(x, r2 * r2, r, fused), r, fused);
    r2 = r * r;
    return ct_pix_muladd(r2, x, add, fused);
}

/* One row of the opsin absorbance matrix applied to linear r, g, b, plus
 * the bias: MulAdds from the last column to the first. */
static float opsin_mix(float m0, float m1, float m2, float r, float g,
                       float b, int fused)
{
    return ct_pix_muladd(
        m0, r,
        ct_pix_muladd(m1, g, ct_pix_muladd(m2, b, CT_XYB_BIAS, fused), fused),
        fused);
}

/*
 * LinearRGBToXYB (premultiplied absorbance matrix of ComputePremulAbsorb
 * with intensity target 255, i.e. the opsin matrix itself), ScaleXYBRow and
 * jpegli's * 255 on reading float input, for one pixel.
 * The mixed values are at least the bias for non-negative linear input, so
 * the reference's clamp of negative mixed values to zero never applies.
 */
static void linear_to_scaled_xyb(float r, float g, float b, int fused,
                                 float *out0, float *out1, float *out2)
{
    float mixed0 =
        opsin_mix(CT_XYB_M00, CT_XYB_M01, CT_XYB_M02, r, g, b, fused);
    float mixed1 =
        opsin_mix(CT_XYB_M10, CT_XYB_M11, CT_XYB_M12, r, g, b, fused);
    float mixed2 =
        opsin_mix(CT_XYB_M20, CT_XYB_M21, CT_XYB_M22, r, g, b, fused);
    mixed0 = cube_root_and_add(mixed0, -CT_XYB_BIAS_CBRT, fused);
    mixed1 = cube_root_and_add(mixed1, -CT_XYB_BIAS_CBRT, fused);
    mixed2 = cube_root_and_add(mixed2, -CT_XYB_BIAS_CBRT, fused);
    const float x = 0.5f * (mixed0 - mixed1);
    const float y = 0.5f * (mixed0 + mixed1);
    const float b_minus_y = mixed2 - y;
    *out0 = 255.0f * ((x + CT_XYB_SCALED_OFFSET0) * CT_XYB_SCALED_SCALE0);
    *out1 = 255.0f * ((y + CT_XYB_SCALED_OFFSET1) * CT_XYB_SCALED_SCALE1);
    *out2 = 255.0f *
            ((b_minus_y + CT_XYB_SCALED_OFFSET2) * CT_XYB_SCALED_SCALE2);
}

/* ToFloatRow: the sample times 1/255 in double, rounded to float. */
static inline float sample_to_float(uint8_t v)
{
    return (float)(v * (1.0 / 255.0));
}

static void rgb_row(const uint8_t *in, size_t xsize, int fused, float *out[3])
{
    /* The transfer function sees 256 distinct inputs: tabulate it once the
     * row has more samples than that. */
    float linear[256];
    const int tabulate = 3 * xsize > 256;
    if (tabulate)
        for (int v = 0; v < 256; v++)
            linear[v] = srgb_to_linear(sample_to_float((uint8_t)v), fused);
    for (size_t x = 0; x < xsize; x++) {
        float rgb[3];
        for (int c = 0; c < 3; c++) {
            const uint8_t v = in[3 * x + c];
            rgb[c] = tabulate ? linear[v]
                              : srgb_to_linear(sample_to_float(v), fused);
        }
        linear_to_scaled_xyb(rgb[0], rgb[1], rgb[2], fused, &out[0][x],
                             &out[1][x], &out[2][x]);
    }
}

/*
 * Little-CMS's optimized float pipeline from jpegli's gray sRGB profile to
 * its linear sRGB profile (relative colorimetric, the intent of the linear
 * profile; black point compensation adds no stage, both black points being
 * zero):
 *   1. the gray TRC, a parametric curve (type 4 in Little-CMS), in double;
 *   2. gray -> PCS XYZ: D50 scaled by Little-CMS's XYZ encoding, 1/(2 - 2^-15);
 *   3. PCS XYZ -> linear RGB: the inverse of the RGB colorant matrix, scaled
 *      back by 2 - 2^-15;
 *   4. the inverse of the linear TRCs: (x^(1/1) - 0) / 1, which returns x.
 * Each stage works on doubles and stores floats.
 */
typedef struct gray_to_linear {
    double trc[5];          /* g, a, b, c, d: (a x + b)^g if x >= d, else c x */
    double gray_to_xyz[3];
    double xyz_to_rgb[3][3];
} gray_to_linear;

/* Little-CMS's _cms15Fixed16toDouble, exact for every s15Fixed16Number. */
static double s15fixed16_to_double(int32_t v)
{
    return v / 65536.0;
}

static void gray_to_linear_init(gray_to_linear *t)
{
    /* The kTRC of jpegli's gray sRGB profile: {2.4, 1/1.055, 0.055/1.055,
     * 1/12.92, 0.04045} as s15Fixed16 (CreateICCCurvParaTag). */
    static const int32_t kGrayTrc[5] = {
        0x26666, 0xf2a7, 0xd59, 0x13d0, 0xa5b,
    };
    /* rXYZ, gXYZ, bXYZ of jpegli's linear sRGB profile: the sRGB primaries
     * with D65 white adapted to D50 (CreateICCRGBMatrix), as s15Fixed16;
     * columns are the colorants. */
    static const int32_t kColorants[3][3] = {
        {0x6f9f, 0x6296, 0x24a2},
        {0x38f5, 0xb787, 0xf85},
        {0x390, 0x18db, 0xb6d6},
    };
    /* MAX_ENCODEABLE_XYZ: Little-CMS encodes XYZ as value / (2 - 2^-15). */
    const double max_encodeable_xyz = 1.0 + 32767.0 / 32768.0;
    const double inp_adj = 1.0 / max_encodeable_xyz;
    /* cmsD50X, cmsD50Y, cmsD50Z */
    const double d50[3] = {0.9642, 1.0, 0.8249};
    double a[3][3];

    for (int i = 0; i < 5; i++)
        t->trc[i] = s15fixed16_to_double(kGrayTrc[i]);
    for (int i = 0; i < 3; i++)
        t->gray_to_xyz[i] = inp_adj * d50[i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            a[i][j] = s15fixed16_to_double(kColorants[i][j]);

    /* _cmsMAT3inverse (the colorant matrix is far from singular) */
    const double c0 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    const double c1 = -a[1][0] * a[2][2] + a[1][2] * a[2][0];
    const double c2 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    const double det = a[0][0] * c0 + a[0][1] * c1 + a[0][2] * c2;
    double inv[3][3];
    inv[0][0] = c0 / det;
    inv[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
    inv[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
    inv[1][0] = c1 / det;
    inv[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
    inv[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
    inv[2][0] = c2 / det;
    inv[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
    inv[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;

    /* BuildRGBOutputMatrixShaper */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t->xyz_to_rgb[i][j] = inv[i][j] * max_encodeable_xyz;
}

/*
 * One gray sample in [0, 1] -> linear R, G, B, all non-negative. The three
 * differ slightly: the colorants are rounded to s15Fixed16 and Little-CMS's
 * D50 is not the colorants' white. For every 8-bit input the exact power is
 * more than 10^6 double ulps away from a float rounding boundary, so pow's
 * last-bit error, whatever the libm, cannot change the float.
 */
static void gray_sample_to_linear(const gray_to_linear *t, float v,
                                  float rgb[3])
{
    /* DefaultEvalParametricFn, type 4. a v + b > 0 whenever v >= d > 0. */
    const double vd = v;
    const double y = vd >= t->trc[4] ? pow(t->trc[1] * vd + t->trc[2], t->trc[0])
                                     : vd * t->trc[3];
    const float gray = (float)y;

    /* EvaluateMatrix: accumulate from 0 in double, store float. */
    float xyz[3];
    for (int i = 0; i < 3; i++) {
        double acc = 0.0;
        acc += gray * t->gray_to_xyz[i];
        xyz[i] = (float)acc;
    }
    for (int i = 0; i < 3; i++) {
        double acc = 0.0;
        for (int j = 0; j < 3; j++)
            acc += xyz[j] * t->xyz_to_rgb[i][j];
        rgb[i] = (float)acc;
    }
}

static void gray_sample_to_xyb(const gray_to_linear *t, uint8_t v, int fused,
                               float xyb[3])
{
    float rgb[3];
    gray_sample_to_linear(t, sample_to_float(v), rgb);
    linear_to_scaled_xyb(rgb[0], rgb[1], rgb[2], fused, &xyb[0], &xyb[1],
                         &xyb[2]);
}

static void gray_row(const uint8_t *in, size_t xsize, int fused,
                     float *out[3])
{
    gray_to_linear t;
    gray_to_linear_init(&t);
    /* A pixel's XYB depends on its sample alone: tabulate the 256 of them
     * once the row has more pixels than that. */
    float table[256][3];
    const int tabulate = xsize > 256;
    if (tabulate)
        for (int v = 0; v < 256; v++)
            gray_sample_to_xyb(&t, (uint8_t)v, fused, table[v]);
    for (size_t x = 0; x < xsize; x++) {
        float computed[3];
        const float *xyb = computed;
        if (tabulate)
            xyb = table[in[x]];
        else
            gray_sample_to_xyb(&t, in[x], fused, computed);
        out[0][x] = xyb[0];
        out[1][x] = xyb[1];
        out[2][x] = xyb[2];
    }
}

void ct_jpeg_xyb_row(const uint8_t *in, ct_pixel_format format, size_t xsize,
                     ct_simd simd, float *out[3])
{
    const int fused = simd == CT_SIMD_AVX2;
    if (format == CT_PIXEL_GRAY8)
        gray_row(in, xsize, fused, out);
    else
        rgb_row(in, xsize, fused, out);
}
