/*
 * The constants that define jpegli's XYB color space, shared by the row
 * conversion (xyb.c) and the ICC profile that undoes it (xyb_icc.c).
 *
 * Ported from jpegli lib/cms/opsin_params.h (BSD-3-Clause, Copyright the
 * JPEG XL Project Authors).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_JPEG_XYB_PARAMS_H
#define CTCORE_JPEG_XYB_PARAMS_H

/* Opsin absorbance matrix (rows: mixed0..2, columns: linear R, G, B). The
 * third entry of each row makes the row sum 1 in float arithmetic, as
 * jpegli's constexpr floats do. */
#define CT_XYB_M00 0.30f
#define CT_XYB_M02 0.078f
#define CT_XYB_M01 (1.0f - CT_XYB_M02 - CT_XYB_M00)
#define CT_XYB_M10 0.23f
#define CT_XYB_M12 0.078f
#define CT_XYB_M11 (1.0f - CT_XYB_M12 - CT_XYB_M10)
#define CT_XYB_M20 0.24342268924547819f
#define CT_XYB_M21 0.20476744424496821f
#define CT_XYB_M22 (1.0f - CT_XYB_M20 - CT_XYB_M21)

/* Opsin absorbance bias, the same for the three rows. */
#define CT_XYB_BIAS 0.0037930732552754493f
/* cbrtf(CT_XYB_BIAS). jpegli calls cbrtf at run time; this is its correctly
 * rounded value (glibc's too; the exact cube root is 0.32 ulp above it, far
 * from a tie), spelled out so the result does not depend on the libm. */
#define CT_XYB_BIAS_CBRT 0x1.3f64eap-3f

/* ScaleXYBRow maps X, Y and B-Y to about [0, 1]: (v + offset) * scale. */
#define CT_XYB_SCALED_OFFSET0 0.015386134f
#define CT_XYB_SCALED_OFFSET1 0.0f
#define CT_XYB_SCALED_OFFSET2 0.27770459f
#define CT_XYB_SCALED_SCALE0 22.995788804f
#define CT_XYB_SCALED_SCALE1 1.183000077f
#define CT_XYB_SCALED_SCALE2 1.502141333f

#endif
