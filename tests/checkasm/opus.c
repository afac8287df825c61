/*
 * checkasm for the Opus encoder's kernels (opus/dsp.h). The SSE kernels
 * reproduce Debian's libopus and libopusenc, whose lane sums differ from
 * their C code, so no kernel here is checked against its C twin:
 *
 *  - opus_<kernel> (the level's table, the SSE versions on x86-64) against
 *    a scalar model of its own lanes: each lane's running sum, the
 *    horizontal add in the instructions' order, rcpss/rsqrtss where the
 *    kernel has rcpps/rsqrtps (the same approximation, lane by lane);
 *  - opus_<kernel>_c (the C table) against a plain transcription of
 *    libopus' C code, once, at the first level.
 *
 * --bench times each SSE kernel against its C twin. Inputs are random and
 * edge values in the ranges the encoder feeds each kernel (signals at
 * 32768 scale, normalised bands), with lengths that are not multiples of
 * 4 where the kernel allows them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "common/cpu.h"
#include "opus/dsp.h"
#include "opus/mode.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#define ITERATIONS 400
/* The longest kernel input (comb_filter_const reads 1024 + 2 back) and a
 * margin for the SSE kernels' loads past the end. */
#define MAX_LEN 2400
#define MARGIN  16
/* celt/vq.c: the widest band and its K */
#define PVQ_MAX_N 176
#define PVQ_MAX_K 128

typedef struct opus_buffers {
    float x[MAX_LEN + MARGIN];
    float y[MAX_LEN + MARGIN];
    float z[MAX_LEN + MARGIN];
    float out_ref[MAX_LEN + MARGIN];
    float out_opt[MAX_LEN + MARGIN];
} opus_buffers;

/* Signal-like values: uniform at a random scale, sparse, a noisy sine,
 * tiny values, or full 16-bit scale. */
static void fill(float *a, int n)
{
    const int mode = checkasm_rand_int(0, 4);
    const float scale = ldexpf(1.0f, checkasm_rand_int(-20, 16));
    const float f = checkasm_rand_float(0.0f, 0.3f);
    for (int i = 0; i < n; i++) {
        float v;
        switch (mode) {
        case 0:
            v = scale * checkasm_rand_float(-1.0f, 1.0f);
            break;
        case 1:
            v = (checkasm_rand() & 3)
                    ? 0.0f
                    : scale * checkasm_rand_float(-1.0f, 1.0f);
            break;
        case 2:
            v = scale *
                (sinf(f * (float)i) + 0.05f * checkasm_rand_float(-1.0f, 1.0f));
            break;
        case 3:
            v = ldexpf(checkasm_rand_float(-1.0f, 1.0f),
                       -checkasm_rand_int(0, 40));
            break;
        default:
            v = 32768.0f * checkasm_rand_float(-1.0f, 1.0f);
            break;
        }
        a[i] = v;
    }
}

/* ---- plain transcriptions of libopus' C (celt/pitch.h, celt/celt.c,
 * celt/vq.c) and libopusenc's (resample.c) ---- */

static void c_xcorr_kernel(const float *x, const float *y, float sum[4],
                           int len)
{
    for (int j = 0; j < len; j++)
        for (int k = 0; k < 4; k++)
            sum[k] = sum[k] + x[j] * y[j + k];
}

static void c_xcorr_kernel8(const float *x, const float *y, float sum[8],
                            int len)
{
    c_xcorr_kernel(x, y, sum, len);
    c_xcorr_kernel(x, y + 4, sum + 4, len);
}

static float c_inner_prod(const float *x, const float *y, int n)
{
    float xy = 0;
    for (int i = 0; i < n; i++)
        xy = xy + x[i] * y[i];
    return xy;
}

/* celt/mathops.h celt_maxabs16 (float) */
static float c_maxabs(const float *x, int len)
{
    float maxval = 0;
    float minval = 0;
    for (int i = 0; i < len; i++) {
        maxval = maxval > x[i] ? maxval : x[i];
        minval = minval < x[i] ? minval : x[i];
    }
    return maxval > -minval ? maxval : -minval;
}

/* silk/float/warped_autocorrelation_FLP.c */
static void c_warped_autocorrelation(float *corr, const float *input,
                                     float warping, int length, int order)
{
    double state[24 + 1] = {0};
    double C[24 + 1] = {0};
    for (int n = 0; n < length; n++) {
        double tmp1 = input[n], tmp2;
        for (int i = 0; i < order; i += 2) {
            tmp2 = state[i] + warping * (state[i + 1] - tmp1);
            state[i] = tmp1;
            C[i] += state[0] * tmp1;
            tmp1 = state[i + 1] + warping * (state[i + 2] - tmp2);
            state[i + 1] = tmp2;
            C[i + 1] += state[0] * tmp2;
        }
        state[order] = tmp1;
        C[order] += state[0] * tmp1;
    }
    for (int i = 0; i < order + 1; i++)
        corr[i] = (float)C[i];
}

static void c_dual_inner_prod(const float *x, const float *y01,
                              const float *y02, int n, float *xy1, float *xy2)
{
    float a = 0, b = 0;
    for (int i = 0; i < n; i++) {
        a = a + x[i] * y01[i];
        b = b + x[i] * y02[i];
    }
    *xy1 = a;
    *xy2 = b;
}

static void c_comb_filter_const(float *y, const float *x, int t, int n, float g10,
                                float g11, float g12)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] + g10 * x[i - t] + g11 * (x[i - t + 1] + x[i - t - 1]) +
               g12 * (x[i - t + 2] + x[i - t - 2]);
}

static float c_pvq_search(float *x, int *iy, int k, int n)
{
    float y[PVQ_MAX_N];
    int signx[PVQ_MAX_N];
    float sum = 0, xy = 0, yy = 0;
    int pulses_left = k;
    for (int j = 0; j < n; j++) {
        signx[j] = x[j] < 0;
        x[j] = (float)fabs(x[j]);
        iy[j] = 0;
        y[j] = 0;
    }
    if (k > (n >> 1)) {
        for (int j = 0; j < n; j++)
            sum += x[j];
        if (!(sum > 1e-15f && sum < 64)) {
            x[0] = 1.0f;
            for (int j = 1; j < n; j++)
                x[j] = 0;
            sum = 1.0f;
        }
        const float rcp = (k + 0.8f) * (1.f / sum);
        for (int j = 0; j < n; j++) {
            iy[j] = (int)floor(rcp * x[j]);
            y[j] = (float)iy[j];
            yy = yy + y[j] * y[j];
            xy = xy + x[j] * y[j];
            y[j] *= 2;
            pulses_left -= iy[j];
        }
    }
    if (pulses_left > n + 3) {
        const float tmp = (float)pulses_left;
        yy = yy + tmp * tmp;
        yy = yy + tmp * y[0];
        iy[0] += pulses_left;
        pulses_left = 0;
    }
    for (int i = 0; i < pulses_left; i++) {
        int best_id = 0;
        yy = yy + 1;
        float rxy = xy + x[0];
        float ryy = yy + y[0];
        rxy = rxy * rxy;
        float best_den = ryy, best_num = rxy;
        for (int j = 1; j < n; j++) {
            rxy = xy + x[j];
            ryy = yy + y[j];
            rxy = rxy * rxy;
            if (best_den * rxy > ryy * best_num) {
                best_den = ryy;
                best_num = rxy;
                best_id = j;
            }
        }
        xy = xy + x[best_id];
        yy = yy + y[best_id];
        y[best_id] += 2;
        iy[best_id]++;
    }
    for (int j = 0; j < n; j++)
        iy[j] = (iy[j] ^ -signx[j]) + signx[j];
    return yy;
}

static float c_resampler_inner_product(const float *a, const float *b,
                                       unsigned len)
{
    float sum = 0;
    for (unsigned j = 0; j < len; j++)
        sum += a[j] * b[j];
    return sum;
}

#if defined(__x86_64__)
/* ---- scalar models of the SSE kernels' lanes (celt/x86/pitch_sse.c,
 * celt/x86/vq_sse2.c, libopusenc resample_sse.h) ---- */

/* _mm_movehl_ps then _mm_add_ss of lane 1: (l0 + l2) + (l1 + l3) */
static float hsum(const float l[4])
{
    return (l[0] + l[2]) + (l[1] + l[3]);
}

/* Two accumulators: x[j], x[j + 2] into the first (which starts from
 * sum), x[j + 1], x[j + 3] into the second; the tail's first and third
 * sample into the first, its second into the second. */
static void sse_xcorr_kernel(const float *x, const float *y, float sum[4],
                             int len)
{
    float s1[4], s2[4] = {0, 0, 0, 0};
    int j;
    memcpy(s1, sum, sizeof(s1));
    for (j = 0; j < len - 3; j += 4) {
        for (int k = 0; k < 4; k++) {
            s1[k] = s1[k] + x[j] * y[j + k];
            s2[k] = s2[k] + x[j + 1] * y[j + 1 + k];
            s1[k] = s1[k] + x[j + 2] * y[j + 2 + k];
            s2[k] = s2[k] + x[j + 3] * y[j + 3 + k];
        }
    }
    for (int t = 0; j < len; j++, t++)
        for (int k = 0; k < 4; k++) {
            if (t == 1)
                s2[k] = s2[k] + x[j] * y[j + k];
            else
                s1[k] = s1[k] + x[j] * y[j + k];
        }
    for (int k = 0; k < 4; k++)
        sum[k] = s1[k] + s2[k];
}

static void sse_xcorr_kernel8(const float *x, const float *y, float sum[8],
                              int len)
{
    sse_xcorr_kernel(x, y, sum, len);
    sse_xcorr_kernel(x, y + 4, sum + 4, len);
}

static float sse_inner_prod(const float *x, const float *y, int n)
{
    float l[4] = {0, 0, 0, 0};
    int i;
    for (i = 0; i < n - 3; i += 4)
        for (int k = 0; k < 4; k++)
            l[k] = l[k] + x[i + k] * y[i + k];
    float xy = hsum(l);
    for (; i < n; i++)
        xy = xy + x[i] * y[i];
    return xy;
}

static void sse_dual_inner_prod(const float *x, const float *y01,
                                const float *y02, int n, float *xy1, float *xy2)
{
    float a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0};
    int i;
    for (i = 0; i < n - 3; i += 4)
        for (int k = 0; k < 4; k++) {
            a[k] = a[k] + x[i + k] * y01[i + k];
            b[k] = b[k] + x[i + k] * y02[i + k];
        }
    float s1 = hsum(a), s2 = hsum(b);
    for (; i < n; i++) {
        s1 = s1 + x[i] * y01[i];
        s2 = s2 + x[i] * y02[i];
    }
    *xy1 = s1;
    *xy2 = s2;
}

/* Per lane: (x + g10 x[-t]) + (g11 (x[-t+1] + x[-t-1]) + g12 (x[-t+2] +
 * x[-t-2])); the tail (CUSTOM_MODES) as the C code. */
static void sse_comb_filter_const(float *y, const float *x, int t, int n, float g10,
                                  float g11, float g12)
{
    int i;
    for (i = 0; i < n - 3; i += 4)
        for (int k = 0; k < 4; k++) {
            const int m = i + k;
            y[m] =
                (x[m] + g10 * x[m - t]) + (g11 * (x[m - t + 1] + x[m - t - 1]) +
                                           g12 * (x[m - t + 2] + x[m - t - 2]));
        }
    for (; i < n; i++)
        y[i] = x[i] + g10 * x[i - t] + g11 * (x[i - t + 1] + x[i - t - 1]) +
               g12 * (x[i - t + 2] + x[i - t - 2]);
}

static float rcp_ss(float v)
{
    return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(v)));
}

static float rsqrt_ss(float v)
{
    return _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(v)));
}

/* maxps(a, b): a when a > b, else b (so b on NaN) */
static float maxps(float a, float b)
{
    return a > b ? a : b;
}

/* cvttps2dq: toward zero, 0x80000000 out of range */
static int cvtt(float v)
{
    if (!(v > -2147483648.0f && v < 2147483648.0f))
        return INT32_MIN;
    return (int)v;
}

/* op_pvq_search_sse2 on a copy of x (x itself unchanged): four lanes of
 * |x| sums, the pre-projection by (K + .8) * rcp(sum), the search's
 * scores (x + xy) * rsqrt(y + yy) with each lane's first best index, the
 * highest index among the lanes holding the overall best. */
static float sse_pvq_search(float *x_in, int *iy, int k, int n)
{
    float x[PVQ_MAX_N + 3], y[PVQ_MAX_N + 3];
    int neg[PVQ_MAX_N + 3];
    const int n4 = (n + 3) & ~3;
    float sums[4] = {0, 0, 0, 0};
    float xy = 0, yy = 0;
    int pulses_left = k;
    for (int j = 0; j < n4; j++) {
        const float v = j < n ? x_in[j] : 0.0f;
        neg[j] = v < 0;
        x[j] = fabsf(v);
        sums[j & 3] = sums[j & 3] + x[j];
        y[j] = 0;
        iy[j] = 0;
    }
    if (k > (n >> 1)) {
        float sum = (sums[0] + sums[2]) + (sums[1] + sums[3]);
        if (!(sum > 1e-15f && sum < 64)) {
            x[0] = 1.0f;
            for (int j = 1; j < n; j++)
                x[j] = 0;
            sum = 1.0f;
        }
        const float rcp = (float)(k + .8) * rcp_ss(sum);
        float xy4[4] = {0, 0, 0, 0}, yy4[4] = {0, 0, 0, 0};
        int pulses = 0;
        for (int j = 0; j < n4; j++) {
            iy[j] = cvtt(x[j] * rcp);
            pulses += iy[j];
            const float y4 = (float)iy[j];
            xy4[j & 3] = xy4[j & 3] + x[j] * y4;
            yy4[j & 3] = yy4[j & 3] + y4 * y4;
            y[j] = y4 + y4;
        }
        pulses_left -= pulses;
        xy = (xy4[0] + xy4[2]) + (xy4[1] + xy4[3]);
        yy = (yy4[0] + yy4[2]) + (yy4[1] + yy4[3]);
    }
    for (int j = n; j < n + 3; j++) {
        x[j] = -100;
        y[j] = 100;
    }
    if (pulses_left > n + 3) {
        const float tmp = (float)pulses_left;
        yy = yy + tmp * tmp;
        yy = yy + tmp * y[0];
        iy[0] += pulses_left;
        pulses_left = 0;
    }
    for (int i = 0; i < pulses_left; i++) {
        float m[4] = {0, 0, 0, 0};
        int pos[4] = {0, 0, 0, 0};
        yy = yy + 1;
        for (int j = 0; j < n4; j++) {
            const float r = (x[j] + xy) * rsqrt_ss(y[j] + yy);
            if (r > m[j & 3])
                pos[j & 3] = j;
            m[j & 3] = maxps(m[j & 3], r);
        }
        /* the horizontal max, lane by lane as the shuffles pair them */
        float m2[4];
        for (int l = 0; l < 4; l++)
            m2[l] = maxps(m[l], m[l ^ 2]);
        float m3[4];
        for (int l = 0; l < 4; l++)
            m3[l] = maxps(m2[l], m2[l ^ 1]);
        int best_id = 0;
        for (int l = 0; l < 4; l++)
            if (m[l] == m3[l] && pos[l] > best_id)
                best_id = pos[l];
        xy = xy + x[best_id];
        yy = yy + y[best_id];
        y[best_id] += 2;
        iy[best_id]++;
    }
    for (int j = 0; j < n4; j++)
        iy[j] = neg[j] ? -iy[j] : iy[j];
    return yy;
}

/* Four lanes, two products per lane per 8 taps. */
static float sse_resampler_inner_product(const float *a, const float *b,
                                         unsigned len)
{
    float l[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < len; i += 8)
        for (int k = 0; k < 4; k++) {
            l[k] = l[k] + a[i + k] * b[i + k];
            l[k] = l[k] + a[i + 4 + k] * b[i + 4 + k];
        }
    return hsum(l);
}
#endif

/* The models a level's kernels are checked against. */
typedef struct opus_models {
    ct_opus_dsp lanes; /* of the level's table */
    ct_opus_dsp c;     /* of the C table */
} opus_models;

typedef void (*xcorr_fn)(const float *x, const float *y, float *sum, int len);

/* xcorr_kernel (lags 4) or xcorr_kernel8 (lags 8): opt against model, ref
 * its pointer twin and, unless it is the model, the bench's twin */
static void check_xcorr(xcorr_fn ref, xcorr_fn opt, xcorr_fn model, int lags,
                        int bench, const char *name, opus_buffers *t)
{
    if (!checkasm_check_func(opt, ref, "%s", name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const int len = it < 32 ? 3 + it : checkasm_rand_int(3, 1024);
        const int ox = checkasm_rand_int(0, 7), oy = checkasm_rand_int(0, 7);
        float a[8], b[8];
        fill(t->x, len + 8);
        fill(t->y, len + 16);
        for (int k = 0; k < lags; k++)
            a[k] =
                (checkasm_rand() & 1) ? 0.0f : checkasm_rand_float(-1e6f, 1e6f);
        memcpy(b, a, sizeof(b));
        model(t->x + ox, t->y + oy, a, len);
        opt(t->x + ox, t->y + oy, b, len);
        if (checkasm_check_bits("sum", a, b, (size_t)lags * sizeof(float), it))
            break;
    }
    if (bench) {
        float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        fill(t->x, 256);
        fill(t->y, 264);
        CHECKASM_BENCH(ref(t->x, t->y, s, 240), opt(t->x, t->y, s, 240));
    }
}

static void check_inner_prod(const ct_opus_dsp *ref, const ct_opus_dsp *opt,
                             const ct_opus_dsp *model, const char *name,
                             opus_buffers *t)
{
    if (!checkasm_check_func(opt->inner_prod, ref->inner_prod, "%s", name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = it < 32 ? it : checkasm_rand_int(0, 1984);
        const int ox = checkasm_rand_int(0, 7), oy = checkasm_rand_int(0, 7);
        fill(t->x, n + 8);
        fill(t->y, n + 8);
        const float a = model->inner_prod(t->x + ox, t->y + oy, n);
        const float b = opt->inner_prod(t->x + ox, t->y + oy, n);
        if (checkasm_check_bits("xy", &a, &b, sizeof(a), it))
            break;
    }
    if (ref != model) {
        fill(t->x, 960);
        fill(t->y, 960);
        CHECKASM_BENCH(ref->inner_prod(t->x, t->y, 960),
                       opt->inner_prod(t->x, t->y, 960));
    }
}

static void check_dual_inner_prod(const ct_opus_dsp *ref,
                                  const ct_opus_dsp *opt,
                                  const ct_opus_dsp *model, const char *name,
                                  opus_buffers *t)
{
    if (!checkasm_check_func(opt->dual_inner_prod, ref->dual_inner_prod, "%s",
                             name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = it < 32 ? it : checkasm_rand_int(0, 1024);
        fill(t->x, n + 8);
        fill(t->y, n + 8);
        fill(t->z, n + 8);
        const int o = checkasm_rand_int(0, 7);
        float a[2], b[2];
        model->dual_inner_prod(t->x, t->y + o, t->z, n, &a[0], &a[1]);
        opt->dual_inner_prod(t->x, t->y + o, t->z, n, &b[0], &b[1]);
        if (checkasm_check_bits("xy", a, b, sizeof(a), it))
            break;
    }
    if (ref != model) {
        float s1, s2;
        fill(t->x, 480);
        fill(t->y, 480);
        fill(t->z, 480);
        CHECKASM_BENCH(ref->dual_inner_prod(t->x, t->y, t->z, 480, &s1, &s2),
                       opt->dual_inner_prod(t->x, t->y, t->z, 480, &s1, &s2));
    }
}

/* Out of place and in place (y == x), T from COMBFILTER_MINPERIOD (15) to
 * COMBFILTER_MAXPERIOD (1024), the gains of comb_filter's taps. */
static void check_comb_filter_const(const ct_opus_dsp *ref,
                                    const ct_opus_dsp *opt,
                                    const ct_opus_dsp *model, const char *name,
                                    opus_buffers *t)
{
    if (!checkasm_check_func(opt->comb_filter_const, ref->comb_filter_const,
                             "%s", name))
        return;
    const int base = 1024 + 2;
    for (int it = 0; it < ITERATIONS; it++) {
        const int T = checkasm_rand_int(15, 1024);
        const int n = (checkasm_rand() & 1) ? 4 * checkasm_rand_int(0, 240)
                                            : checkasm_rand_int(0, 960);
        const float g1 = -0.09375f * (float)checkasm_rand_int(1, 8);
        const float g10 = g1 * 0.3066406250f, g11 = g1 * 0.2170410156f,
                    g12 = g1 * 0.1296386719f;
        fill(t->x, base + n + 2);
        fill(t->y, base + n + 2);
        const int in_place = it & 1;
        memcpy(t->out_ref, in_place ? t->x : t->y, sizeof(t->out_ref));
        memcpy(t->out_opt, in_place ? t->x : t->y, sizeof(t->out_opt));
        model->comb_filter_const(t->out_ref + base,
                                 in_place ? t->out_ref + base : t->x + base, T,
                                 n, g10, g11, g12);
        opt->comb_filter_const(t->out_opt + base,
                               in_place ? t->out_opt + base : t->x + base, T, n,
                               g10, g11, g12);
        if (checkasm_check_bits(in_place ? "y (in place)" : "y", t->out_ref,
                                t->out_opt, sizeof(t->out_ref), it))
            break;
    }
    if (ref != model) {
        fill(t->x, base + 960);
        CHECKASM_BENCH(ref->comb_filter_const(t->out_ref + base, t->x + base,
                                              500, 840, -0.1f, -0.07f, -0.04f),
                       opt->comb_filter_const(t->out_opt + base, t->x + base,
                                              500, 840, -0.1f, -0.07f, -0.04f));
    }
}

/* Normalised band shapes (and some not: silence, huge values) with the K
 * a band gets; iy and the returned yy compared, and the shape after. */
static void check_pvq_search(const ct_opus_dsp *ref, const ct_opus_dsp *opt,
                             const ct_opus_dsp *model, const char *name,
                             opus_buffers *t)
{
    if (!checkasm_check_func(opt->pvq_search, ref->pvq_search, "%s", name))
        return;
    int iy_ref[PVQ_MAX_N + 4], iy_opt[PVQ_MAX_N + 4];
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = checkasm_rand_int(2, PVQ_MAX_N);
        const int k =
            checkasm_rand_int(1, (checkasm_rand() & 1) ? n + 8 : PVQ_MAX_K);
        const int mode = checkasm_rand_int(0, 9);
        float e = 0;
        for (int j = 0; j < n; j++) {
            t->x[j] = checkasm_rand_float(-1.0f, 1.0f);
            if (mode == 1 && (checkasm_rand() & 3))
                t->x[j] = 0;
            e += t->x[j] * t->x[j];
        }
        if (mode == 2)
            memset(t->x, 0, (size_t)n * sizeof(float));
        else if (mode == 3)
            t->x[0] = 1e30f;
        else if (e > 0)
            for (int j = 0; j < n; j++)
                t->x[j] *= 1.0f / sqrtf(e);
        memcpy(t->z, t->x, (size_t)n * sizeof(float));
        memset(iy_ref, 0, sizeof(iy_ref));
        memset(iy_opt, 0, sizeof(iy_opt));
        const float a = model->pvq_search(t->z, iy_ref, k, n);
        const float b = opt->pvq_search(t->x, iy_opt, k, n);
        if (checkasm_check_bits("iy", iy_ref, iy_opt, (size_t)n * sizeof(int),
                                it) ||
            checkasm_check_bits("yy", &a, &b, sizeof(a), it) ||
            checkasm_check_bits("x after", t->z, t->x,
                                (size_t)n * sizeof(float), it))
            break;
    }
    if (ref != model) {
        for (int j = 0; j < 16; j++)
            t->y[j] = checkasm_rand_float(-0.25f, 0.25f);
        CHECKASM_BENCH((memcpy(t->x, t->y, 16 * sizeof(float)),
                        ref->pvq_search(t->x, iy_ref, 10, 16)),
                       (memcpy(t->x, t->y, 16 * sizeof(float)),
                        opt->pvq_search(t->x, iy_opt, 10, 16)));
    }
}

/* The sinc table's rows against the input, len a multiple of 8 (the
 * filter lengths update_filter makes). */
static void check_resampler_inner_product(const ct_opus_dsp *ref,
                                          const ct_opus_dsp *opt,
                                          const ct_opus_dsp *model,
                                          const char *name, opus_buffers *t)
{
    if (!checkasm_check_func(opt->resampler_inner_product,
                             ref->resampler_inner_product, "%s", name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const unsigned len = 8u * (unsigned)checkasm_rand_int(0, 64);
        for (unsigned j = 0; j < len; j++)
            t->x[j] = checkasm_rand_float(-1.0f, 1.0f);
        fill(t->y, (int)len + 8);
        const int o = checkasm_rand_int(0, 7);
        const float a = model->resampler_inner_product(t->x, t->y + o, len);
        const float b = opt->resampler_inner_product(t->x, t->y + o, len);
        if (checkasm_check_bits("sum", &a, &b, sizeof(a), it))
            break;
    }
    if (ref != model) {
        for (int j = 0; j < 128; j++)
            t->x[j] = checkasm_rand_float(-1.0f, 1.0f);
        fill(t->y, 128);
        CHECKASM_BENCH(ref->resampler_inner_product(t->x, t->y, 128),
                       opt->resampler_inner_product(t->x, t->y, 128));
    }
}

/* The samples of fill(), and the cases where the order of the C loop
 * shows: all zeros of either sign, NaN and infinities among them. */
static void fill_maxabs(float *a, int n)
{
    const int mode = checkasm_rand_int(0, 5);
    fill(a, n);
    if (mode == 0) {
        for (int i = 0; i < n; i++)
            a[i] = (checkasm_rand() & 1) ? 0.0f : -0.0f;
    } else if (mode == 1 && n > 0) {
        a[checkasm_rand_int(0, n - 1)] = NAN;
    } else if (mode == 2 && n > 0) {
        a[checkasm_rand_int(0, n - 1)] =
            (checkasm_rand() & 1) ? INFINITY : -INFINITY;
    }
}

static void check_maxabs(const ct_opus_dsp *ref, const ct_opus_dsp *opt,
                         const ct_opus_dsp *model, const char *name,
                         opus_buffers *t)
{
    if (!checkasm_check_func(opt->maxabs, ref->maxabs, "%s", name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const int n = it < 32 ? it : checkasm_rand_int(0, 2 * 1920);
        const int o = checkasm_rand_int(0, 7);
        fill_maxabs(t->x + o, n);
        const float a = model->maxabs(t->x + o, n);
        const float b = opt->maxabs(t->x + o, n);
        if (checkasm_check_bits("maxabs", &a, &b, sizeof(a), it))
            break;
    }
    if (ref != model) {
        fill(t->x, 1920);
        CHECKASM_BENCH(ref->maxabs(t->x, 1920), opt->maxabs(t->x, 1920));
    }
}

static void check_warped_autocorrelation(const ct_opus_dsp *ref,
                                         const ct_opus_dsp *opt,
                                         const ct_opus_dsp *model,
                                         const char *name, opus_buffers *t)
{
    if (!checkasm_check_func(opt->warped_autocorrelation,
                             ref->warped_autocorrelation, "%s", name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        /* noise_shape_analysis_FLP: shapeWinLength (up to 240 at 16 kHz),
           shapingLPCOrder 12..24, even; warping below 1 */
        const int length = it < 16 ? it : checkasm_rand_int(0, 240);
        const int order = 2 * checkasm_rand_int(0, 12);
        const float warping = checkasm_rand_float(0.0f, 0.99f);
        fill_maxabs(t->x, length);
        model->warped_autocorrelation(t->out_ref, t->x, warping, length,
                                      order);
        opt->warped_autocorrelation(t->out_opt, t->x, warping, length, order);
        if (checkasm_check_bits("corr", t->out_ref, t->out_opt,
                                (size_t)(order + 1) * sizeof(float), it))
            break;
    }
    if (ref != model) {
        fill(t->x, 240);
        CHECKASM_BENCH(ref->warped_autocorrelation(t->out_ref, t->x, 0.23f,
                                                   240, 24),
                       opt->warped_autocorrelation(t->out_opt, t->x, 0.23f,
                                                   240, 24));
    }
}

/* The FFT of the standard mode's four sizes (480 .. 60) against
 * ct_opus_fft_impl, the port, on bit-reversed random input. */
static void check_fft_impl(const ct_opus_dsp *ref, const ct_opus_dsp *opt,
                           const ct_opus_dsp *model, const char *name,
                           opus_buffers *t)
{
    const ct_mdct_lookup *mdct = &ct_celt_mode_get()->mdct;
    if (!checkasm_check_func(opt->fft_impl, ref->fft_impl, "%s", name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        const ct_fft_state *st = mdct->kfft[it % 4];
        const int n = 2 * st->nfft;
        /* finite values: which NaN a sum of two NaNs gives depends on the
           order of its operands, which a compiler may swap in any build */
        fill(t->x, n);
        memcpy(t->out_ref, t->x, (size_t)n * sizeof(float));
        memcpy(t->out_opt, t->x, (size_t)n * sizeof(float));
        model->fft_impl(st, (ct_fft_cpx *)t->out_ref);
        opt->fft_impl(st, (ct_fft_cpx *)t->out_opt);
        if (checkasm_check_bits("fout", t->out_ref, t->out_opt,
                                (size_t)n * sizeof(float), it))
            break;
    }
    if (ref != model) {
        fill(t->x, 960);
        CHECKASM_BENCH(ref->fft_impl(mdct->kfft[0], (ct_fft_cpx *)t->x),
                       opt->fft_impl(mdct->kfft[0], (ct_fft_cpx *)t->x));
    }
}

/* The tonality analysis' bins of random FFT outputs (tiny ones among
 * them, for fast_atan2f's early return) and a random history of phases. */
static void check_tonality_bins(const ct_opus_dsp *ref, const ct_opus_dsp *opt,
                                const ct_opus_dsp *model, const char *name,
                                opus_buffers *t)
{
    enum { N = 480, N2 = 240 };
    if (!checkasm_check_func(opt->tonality_bins, ref->tonality_bins, "%s",
                             name))
        return;
    for (int it = 0; it < ITERATIONS; it++) {
        float hist[2][3][N2], outs[2][3][N2];
        const int first = it < 16 ? 1 + it % 9 : 1;
        const int end = it < 16 ? N2 - it % 11 : N2;
        fill(t->x, 2 * N);
        if (it % 4 == 1)
            for (int i = 0; i < 2 * N; i++)
                t->x[i] *= 1e-10f;
        for (int i = 0; i < N2; i++) {
            hist[0][0][i] = checkasm_rand_float(-0.5f, 0.5f);
            hist[0][1][i] = checkasm_rand_float(-0.5f, 0.5f);
            hist[0][2][i] = checkasm_rand_float(0.0f, 0.0625f);
        }
        memcpy(hist[1], hist[0], sizeof(hist[0]));
        memset(outs, 0, sizeof(outs));
        model->tonality_bins((const ct_fft_cpx *)t->x, N, first, end,
                             hist[0][0], hist[0][1], hist[0][2], outs[0][0],
                             outs[0][1], outs[0][2]);
        opt->tonality_bins((const ct_fft_cpx *)t->x, N, first, end,
                           hist[1][0], hist[1][1], hist[1][2], outs[1][0],
                           outs[1][1], outs[1][2]);
        if (checkasm_check_bits("history", hist[0], hist[1], sizeof(hist[0]),
                                it) ||
            checkasm_check_bits("tonality", outs[0], outs[1], sizeof(outs[0]),
                                it))
            break;
    }
    if (ref != model) {
        float hist[3][N2] = {{0}}, outs[3][N2];
        fill(t->x, 2 * N);
        CHECKASM_BENCH(ref->tonality_bins((const ct_fft_cpx *)t->x, N, 1, N2,
                                          hist[0], hist[1], hist[2], outs[0],
                                          outs[1], outs[2]),
                       opt->tonality_bins((const ct_fft_cpx *)t->x, N, 1, N2,
                                          hist[0], hist[1], hist[2], outs[0],
                                          outs[1], outs[2]));
    }
}

/* One table's eleven kernels against their models, suffix "" or "_c". ref
 * is the pointer twin checkasm_check_func compares with and, unless it is
 * the model itself, the bench's twin. */
static void check_table(const ct_opus_dsp *ref, const ct_opus_dsp *opt,
                        const ct_opus_dsp *model, const char *suffix,
                        opus_buffers *t)
{
    char name[64];
    snprintf(name, sizeof(name), "opus_xcorr_kernel%s", suffix);
    check_xcorr(ref->xcorr_kernel, opt->xcorr_kernel, model->xcorr_kernel, 4,
                ref != model, name, t);
    snprintf(name, sizeof(name), "opus_xcorr_kernel8%s", suffix);
    check_xcorr(ref->xcorr_kernel8, opt->xcorr_kernel8, model->xcorr_kernel8, 8,
                ref != model, name, t);
    snprintf(name, sizeof(name), "opus_inner_prod%s", suffix);
    check_inner_prod(ref, opt, model, name, t);
    snprintf(name, sizeof(name), "opus_dual_inner_prod%s", suffix);
    check_dual_inner_prod(ref, opt, model, name, t);
    snprintf(name, sizeof(name), "opus_comb_filter_const%s", suffix);
    check_comb_filter_const(ref, opt, model, name, t);
    checkasm_report(suffix[0] != '\0' ? "opus_pitch_c" : "opus_pitch");
    snprintf(name, sizeof(name), "opus_pvq_search%s", suffix);
    check_pvq_search(ref, opt, model, name, t);
    checkasm_report(suffix[0] != '\0' ? "opus_vq_c" : "opus_vq");
    snprintf(name, sizeof(name), "opus_resampler_inner_product%s", suffix);
    check_resampler_inner_product(ref, opt, model, name, t);
    checkasm_report(suffix[0] != '\0' ? "opus_resampler_c" : "opus_resampler");
    snprintf(name, sizeof(name), "opus_maxabs%s", suffix);
    check_maxabs(ref, opt, model, name, t);
    checkasm_report(suffix[0] != '\0' ? "opus_mathops_c" : "opus_mathops");
    snprintf(name, sizeof(name), "opus_fft_impl%s", suffix);
    check_fft_impl(ref, opt, model, name, t);
    checkasm_report(suffix[0] != '\0' ? "opus_fft_c" : "opus_fft");
    snprintf(name, sizeof(name), "opus_tonality_bins%s", suffix);
    check_tonality_bins(ref, opt, model, name, t);
    checkasm_report(suffix[0] != '\0' ? "opus_analysis_c" : "opus_analysis");
    snprintf(name, sizeof(name), "silk_warped_autocorrelation%s", suffix);
    check_warped_autocorrelation(ref, opt, model, name, t);
    checkasm_report(suffix[0] != '\0' ? "silk_shape_c" : "silk_shape");
}

void checkasm_check_opus(void)
{
    const unsigned flags = checkasm_cpu_flags();
    const ct_simd simd =
        (flags & CT_CPU_FLAG_AVX2) ? CT_SIMD_AVX2 : CT_SIMD_SSE2;
    ct_opus_dsp c, opt;
    ct_opus_dsp_init(&c, CT_SIMD_C);
    ct_opus_dsp_init(&opt, simd);
    const ct_opus_dsp c_model = {
        .xcorr_kernel = c_xcorr_kernel,
        .xcorr_kernel8 = c_xcorr_kernel8,
        .inner_prod = c_inner_prod,
        .dual_inner_prod = c_dual_inner_prod,
        .comb_filter_const = c_comb_filter_const,
        .pvq_search = c_pvq_search,
        .resampler_inner_product = c_resampler_inner_product,
        .maxabs = c_maxabs,
        .warped_autocorrelation = c_warped_autocorrelation,
        /* the FFT and the tonality bins are the port's own; the VAD is
           checked on its own, it has no lanes */
        .fft_impl = ct_opus_fft_impl,
        .tonality_bins = ct_opus_tonality_bins_c,
    };
    opus_buffers *t = calloc(1, sizeof(*t));
    if (t == NULL) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(1);
    }
    /* The C kernels against libopus' C: a table whose entries are the
     * models is the "twin" that checkasm_check_func compares pointers
     * with, so each C kernel is tested (once, at the first level). */
    check_table(&c_model, &c, &c_model, "_c", t);
#if defined(__x86_64__)
    /* maxabs and the warped autocorrelation have no lanes of the
     * reference: our versions give the C loop's bits */
    const ct_opus_dsp lanes_model = {
        .xcorr_kernel = sse_xcorr_kernel,
        .xcorr_kernel8 = sse_xcorr_kernel8,
        .inner_prod = sse_inner_prod,
        .dual_inner_prod = sse_dual_inner_prod,
        .comb_filter_const = sse_comb_filter_const,
        .pvq_search = sse_pvq_search,
        .resampler_inner_product = sse_resampler_inner_product,
        .maxabs = c_maxabs,
        .warped_autocorrelation = c_warped_autocorrelation,
        .fft_impl = ct_opus_fft_impl,
        .tonality_bins = ct_opus_tonality_bins_c,
    };
    check_table(&c, &opt, &lanes_model, "", t);
#endif
    checkasm_check_silk_nsq(&c, &opt);
    free(t);
}
