/*
 * CELT's band processing, encoder side (see bands.h), with the float
 * build's macros written out as mathops.h lists them. The reference's
 * `encode` is 1 throughout: its decoder branches are gone, its encoder
 * branches stay unconditional.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 celt/bands.c (BSD-3-Clause, Xiph.Org
 * Foundation and contributors).
 */
#include "bands.h"

#include <string.h>

#include "celt_spec.h"
#include "mathops.h"
#include "rate.h"
#include "vq.h"

/* The widest band: 22 bins of band 20 at LM 3 */
#define BANDS_MAX_N 176
/* The folding memory: M * eBands[nbEBands - 1] bins for each channel */
#define BANDS_NORM_SIZE (2 * 8 * 78)
/* The largest packet (celt_encoder.c: 1275 bytes) */
#define BANDS_MAX_BYTES 1275

int ct_celt_hysteresis_decision(float val, const float *thresholds,
                                const float *hysteresis, int N, int prev)
{
    int i;
    for (i = 0; i < N; i++) {
        if (val < thresholds[i])
            break;
    }
    if (i > prev && val < thresholds[prev] + hysteresis[prev])
        i = prev;
    if (i < prev && val > thresholds[prev - 1] - hysteresis[prev - 1])
        i = prev;
    return i;
}

static uint32_t celt_lcg_rand(uint32_t seed)
{
    return 1664525 * seed + 1013904223;
}

/* This is a cos() approximation designed to be bit-exact on any platform.
   Bit exactness with this approximation is important because it has an
   impact on the bit allocation */
static int16_t bitexact_cos(int16_t x)
{
    int32_t tmp;
    int16_t x2;
    tmp = (4096 + ((int32_t)(x) * (x))) >> 13;
    x2 = (int16_t)tmp;
    x2 = (int16_t)((32767 - x2) +
                   CT_FRAC_MUL16(x2, (-7651 + CT_FRAC_MUL16(x2, (8277 + CT_FRAC_MUL16(-626,
                                                                                      x2))))));
    return (int16_t)(1 + x2);
}

static int bitexact_log2tan(int isin, int icos)
{
    int lc;
    int ls;
    lc = ct_ec_ilog((uint32_t)icos);
    ls = ct_ec_ilog((uint32_t)isin);
    icos <<= 15 - lc;
    isin <<= 15 - ls;
    return (ls - lc) * (1 << 11) + CT_FRAC_MUL16(isin, CT_FRAC_MUL16(isin, -2597) + 7932) -
           CT_FRAC_MUL16(icos, CT_FRAC_MUL16(icos, -2597) + 7932);
}

void ct_celt_compute_band_energies(const ct_celt_mode *m, const float *X,
                                   float *bandE, int end, int C, int LM,
                                   const ct_opus_dsp *dsp)
{
    int i, c, N;
    const int16_t *eBands = m->eBands;
    N = m->shortMdctSize << LM;
    c = 0;
    do {
        for (i = 0; i < end; i++) {
            float sum;
            sum = 1e-27f + dsp->inner_prod(&X[c * N + (eBands[i] << LM)],
                                           &X[c * N + (eBands[i] << LM)],
                                           (eBands[i + 1] - eBands[i]) << LM);
            bandE[i + c * m->nbEBands] = ct_celt_sqrt(sum);
        }
    } while (++c < C);
}

void ct_celt_normalise_bands(const ct_celt_mode *m, const float *restrict freq,
                             float *restrict X, const float *bandE, int end,
                             int C, int M)
{
    int i, c, N;
    const int16_t *eBands = m->eBands;
    N = M * m->shortMdctSize;
    c = 0;
    do {
        for (i = 0; i < end; i++) {
            int j;
            float g = 1.f / (1e-27f + bandE[i + c * m->nbEBands]);
            for (j = M * eBands[i]; j < M * eBands[i + 1]; j++)
                X[j + c * N] = freq[j + c * N] * g;
        }
    } while (++c < C);
}

/* Compute the weights to use for optimizing normalized distortion across
   channels. We use the amplitude to weight square distortion, which means
   that we use the square root of the value we would have been using if we
   wanted to minimize the MSE in the non-normalized domain. This roughly
   corresponds to some quick-and-dirty perceptual experiments I ran to
   measure inter-aural masking (there doesn't seem to be any published data
   on the topic). */
static void compute_channel_weights(float Ex, float Ey, float w[2])
{
    float minE;
    minE = CT_MIN32(Ex, Ey);
    /* Adjustment to make the weights a bit more conservative. */
    Ex = Ex + minE / 3;
    Ey = Ey + minE / 3;
    w[0] = Ex;
    w[1] = Ey;
}

static void intensity_stereo(const ct_celt_mode *m, float *restrict X,
                             const float *restrict Y, const float *bandE,
                             int bandID, int N)
{
    int i = bandID;
    int j;
    float a1, a2;
    float left, right;
    float norm;
    left = bandE[i];
    right = bandE[i + m->nbEBands];
    norm = CT_EPSILON + ct_celt_sqrt(CT_EPSILON + left * left + right * right);
    a1 = left / norm;
    a2 = right / norm;
    for (j = 0; j < N; j++) {
        float r, l;
        l = X[j];
        r = Y[j];
        X[j] = a1 * l + a2 * r;
        /* Side is not encoded, no need to calculate */
    }
}

static void stereo_split(float *restrict X, float *restrict Y, int N)
{
    int j;
    for (j = 0; j < N; j++) {
        float r, l;
        l = .70710678f * X[j];
        r = .70710678f * Y[j];
        X[j] = l + r;
        Y[j] = r - l;
    }
}

static void stereo_merge(float *restrict X, float *restrict Y, float mid,
                         int N, const ct_opus_dsp *dsp)
{
    int j;
    float xp = 0, side = 0;
    float El, Er;
    float mid2;
    float t, lgain, rgain;

    /* Compute the norm of X+Y and X-Y as |X|^2 + |Y|^2 +/- sum(xy) */
    dsp->dual_inner_prod(Y, X, Y, N, &xp, &side);
    /* Compensating for the mid normalization */
    xp = mid * xp;
    /* mid and side are in Q15, not Q14 like X and Y */
    mid2 = mid;
    El = mid2 * mid2 + side - 2 * xp;
    Er = mid2 * mid2 + side + 2 * xp;
    if (Er < 6e-4f || El < 6e-4f) {
        memcpy(Y, X, (size_t)N * sizeof(*Y));
        return;
    }

    t = El;
    lgain = ct_celt_rsqrt_norm(t);
    t = Er;
    rgain = ct_celt_rsqrt_norm(t);

    for (j = 0; j < N; j++) {
        float r, l;
        /* Apply mid scaling (side is already scaled) */
        l = mid * X[j];
        r = Y[j];
        X[j] = lgain * (l - r);
        Y[j] = rgain * (l + r);
    }
}

int ct_celt_spreading_hf_sum(const ct_celt_mode *m, const float *X, int end,
                             int C, int M)
{
    int i, c;
    int hf_sum = 0;
    const int16_t *restrict eBands = m->eBands;
    const int N0 = M * m->shortMdctSize;
    c = 0;
    do {
        /* Only include four last bands (8 kHz and up) */
        for (i = m->nbEBands - 3; i < end; i++) {
            int j, N;
            int tcount[2] = {0, 0};
            const float *restrict x = X + M * eBands[i] + c * N0;
            N = M * (eBands[i + 1] - eBands[i]);
            if (N <= 8)
                continue;
            for (j = 0; j < N; j++) {
                float x2N;

                x2N = (x[j] * x[j]) * (float)N;
                if (x2N < 0.25f)
                    tcount[0]++;
                if (x2N < 0.0625f)
                    tcount[1]++;
            }
            hf_sum += (int)ct_celt_udiv(32 * (tcount[1] + tcount[0]), N);
        }
    } while (++c < C);
    return hf_sum;
}

void ct_celt_tapset_update(int hf_sum, int C, int end, int nbEBands,
                           int *hf_average, int *tapset_decision)
{
    if (hf_sum)
        hf_sum = (int)ct_celt_udiv(hf_sum, C * (4 - nbEBands + end));
    *hf_average = (*hf_average + hf_sum) >> 1;
    hf_sum = *hf_average;
    if (*tapset_decision == 2)
        hf_sum += 4;
    else if (*tapset_decision == 0)
        hf_sum -= 4;
    if (hf_sum > 22)
        *tapset_decision = 2;
    else if (hf_sum > 18)
        *tapset_decision = 1;
    else
        *tapset_decision = 0;
}

int ct_celt_spreading_decision(const ct_celt_mode *m, const float *X,
                               int *average, int last_decision,
                               int *hf_average, int *tapset_decision,
                               int update_hf, int end, int C, int M,
                               const int *spread_weight)
{
    int i, c, N0;
    int sum = 0, nbBands = 0;
    const int16_t *restrict eBands = m->eBands;
    int decision;

    N0 = M * m->shortMdctSize;

    if (M * (eBands[end] - eBands[end - 1]) <= 8)
        return SPREAD_NONE;
    c = 0;
    do {
        for (i = 0; i < end; i++) {
            int j, N, tmp = 0;
            int tcount[3] = {0, 0, 0};
            const float *restrict x = X + M * eBands[i] + c * N0;
            N = M * (eBands[i + 1] - eBands[i]);
            if (N <= 8)
                continue;
            /* Compute rough CDF of |x[j]| */
            for (j = 0; j < N; j++) {
                float x2N;

                x2N = (x[j] * x[j]) * (float)N;
                if (x2N < 0.25f)
                    tcount[0]++;
                if (x2N < 0.0625f)
                    tcount[1]++;
                if (x2N < 0.015625f)
                    tcount[2]++;
            }

            tmp = (2 * tcount[2] >= N) + (2 * tcount[1] >= N) + (2 * tcount[0] >= N);
            sum += tmp * spread_weight[i];
            nbBands += spread_weight[i];
        }
    } while (++c < C);

    /* ct: the high bands' sum counted apart (the frame ring's Signal node
       predicts the tapset with it) */
    if (update_hf)
        ct_celt_tapset_update(ct_celt_spreading_hf_sum(m, X, end, C, M), C, end,
                              m->nbEBands, hf_average, tapset_decision);
    sum = (int)ct_celt_udiv((uint32_t)((int32_t)sum << 8), nbBands);
    /* Recursive averaging */
    sum = (sum + *average) >> 1;
    *average = sum;
    /* Hysteresis */
    sum = (3 * sum + (((3 - last_decision) << 7) + 64) + 2) >> 2;
    if (sum < 80) {
        decision = SPREAD_AGGRESSIVE;
    } else if (sum < 256) {
        decision = SPREAD_NORMAL;
    } else if (sum < 384) {
        decision = SPREAD_LIGHT;
    } else {
        decision = SPREAD_NONE;
    }
    return decision;
}

/* Indexing table for converting from natural Hadamard to ordery Hadamard
   This is essentially a bit-reversed Gray, on top of which we've added
   an inversion of the order because we want the DC at the end rather than
   the beginning. The lines are for N=2, 4, 8, 16 */
static const int ordery_table[] = {
    1,  0,
    3,  0, 2, 1,
    7,  0, 4, 3, 6, 1, 5, 2,
    15, 0, 8, 7, 12, 3, 11, 4, 14, 1, 9, 6, 13, 2, 10, 5,
};

static void deinterleave_hadamard(float *X, int N0, int stride, int hadamard)
{
    int i, j;
    float tmp[BANDS_MAX_N];
    int N;
    N = N0 * stride;
    if (hadamard) {
        const int *ordery = ordery_table + stride - 2;
        for (i = 0; i < stride; i++) {
            for (j = 0; j < N0; j++)
                tmp[ordery[i] * N0 + j] = X[j * stride + i];
        }
    } else {
        for (i = 0; i < stride; i++)
            for (j = 0; j < N0; j++)
                tmp[i * N0 + j] = X[j * stride + i];
    }
    memcpy(X, tmp, (size_t)N * sizeof(*X));
}

static void interleave_hadamard(float *X, int N0, int stride, int hadamard)
{
    int i, j;
    float tmp[BANDS_MAX_N];
    int N;
    N = N0 * stride;
    if (hadamard) {
        const int *ordery = ordery_table + stride - 2;
        for (i = 0; i < stride; i++)
            for (j = 0; j < N0; j++)
                tmp[j * stride + i] = X[ordery[i] * N0 + j];
    } else {
        for (i = 0; i < stride; i++)
            for (j = 0; j < N0; j++)
                tmp[j * stride + i] = X[i * N0 + j];
    }
    memcpy(X, tmp, (size_t)N * sizeof(*X));
}

/* ct: every pair is independent, so with a stride the pairs of a row (the
 * stride's i) go innermost, where they are contiguous and vectorise */
void ct_celt_haar1(float *X, int N0, int stride)
{
    int i, j;
    N0 >>= 1;
    if (stride == 1) {
        for (j = 0; j < N0; j++) {
            float tmp1, tmp2;
            tmp1 = .70710678f * X[2 * j];
            tmp2 = .70710678f * X[2 * j + 1];
            X[2 * j] = tmp1 + tmp2;
            X[2 * j + 1] = tmp1 - tmp2;
        }
        return;
    }
    for (j = 0; j < N0; j++) {
        float *restrict a = X + stride * 2 * j;
        float *restrict b = X + stride * (2 * j + 1);
        for (i = 0; i < stride; i++) {
            float tmp1, tmp2;
            tmp1 = .70710678f * a[i];
            tmp2 = .70710678f * b[i];
            a[i] = tmp1 + tmp2;
            b[i] = tmp1 - tmp2;
        }
    }
}

static int compute_qn(int N, int b, int offset, int pulse_cap, int stereo)
{
    static const int16_t exp2_table8[8] = {16384, 17866, 19483, 21247,
                                           23170, 25267, 27554, 30048};
    int qn, qb;
    int N2 = 2 * N - 1;
    if (stereo && N == 2)
        N2--;
    /* The upper limit ensures that in a stereo split with itheta==16384,
       we'll always have enough bits left over to code at least one pulse in
       the side; otherwise it would collapse, since it doesn't get folded. */
    qb = ct_celt_sudiv(b + N2 * offset, N2);
    qb = CT_IMIN(b - pulse_cap - (4 << CT_BITRES), qb);

    qb = CT_IMIN(8 << CT_BITRES, qb);

    if (qb < (1 << CT_BITRES >> 1)) {
        qn = 1;
    } else {
        qn = exp2_table8[qb & 0x7] >> (14 - (qb >> CT_BITRES));
        qn = (qn + 1) >> 1 << 1;
    }
    return qn;
}

struct band_ctx {
    int resynth;
    const ct_celt_mode *m;
    int i;
    int intensity;
    int spread;
    int tf_change;
    ct_ec_enc *ec;
    int32_t remaining_bits;
    const float *bandE;
    uint32_t seed;
    /* ct: where the seed is not known yet (a speculation), whence it
       comes at its first use; seed_known says whether seed holds it */
    struct ct_celt_seed_use *seed_use;
    int seed_known;
    const ct_opus_dsp *dsp;
    int theta_round;
    int disable_inv;
    int avoid_split_noise;
};

/* ct: the seed at its first use, where a speculation starts without it
   (a trial's restore of ctx forgets it was known: taken again, the same) */
static void resolve_seed(struct band_ctx *ctx)
{
    struct ct_celt_seed_use *u = ctx->seed_use;
    if (ctx->seed_known)
        return;
    if (!u->used) {
        u->used = 1;
        if (!ct_celt_seed_cell_wait(u->cell, &u->value)) {
            u->failed = 1;
            u->value = 0;
        }
    }
    ctx->seed = u->value;
    ctx->seed_known = 1;
}

struct split_ctx {
    int inv;
    int imid;
    int iside;
    int delta;
    int itheta;
    int qalloc;
};

static void compute_theta(struct band_ctx *ctx, struct split_ctx *sctx,
                          float *X, float *Y, int N, int *b, int B, int B0,
                          int LM, int stereo, int *fill)
{
    int qn;
    int itheta = 0;
    int delta;
    int imid, iside;
    int qalloc;
    int pulse_cap;
    int offset;
    int32_t tell;
    int inv = 0;
    const ct_celt_mode *m;
    int i;
    int intensity;
    ct_ec_enc *ec;
    const float *bandE;

    m = ctx->m;
    i = ctx->i;
    intensity = ctx->intensity;
    ec = ctx->ec;
    bandE = ctx->bandE;

    /* Decide on the resolution to give to the split parameter theta */
    pulse_cap = m->logN[i] + LM * (1 << CT_BITRES);
    offset = (pulse_cap >> 1) - (stereo && N == 2 ? CT_CELT_QTHETA_OFFSET_TWOPHASE
                                                  : CT_CELT_QTHETA_OFFSET);
    qn = compute_qn(N, *b, offset, pulse_cap, stereo);
    if (stereo && i >= intensity)
        qn = 1;
    /* theta is the atan() of the ratio between the (normalized) side and
       mid. With just that parameter, we can re-scale both mid and side
       because we know that 1) they have unit norm and 2) they are
       orthogonal. */
    itheta = ct_celt_stereo_itheta(X, Y, stereo, N, ctx->dsp);
    tell = (int32_t)ct_ec_tell_frac(ec);
    if (qn != 1) {
        if (!stereo || ctx->theta_round == 0) {
            itheta = (itheta * (int32_t)qn + 8192) >> 14;
            if (!stereo && ctx->avoid_split_noise && itheta > 0 && itheta < qn) {
                /* Check if the selected value of theta will cause the bit
                   allocation to inject noise on one side. If so, make sure
                   the energy of that side is zero. */
                int unquantized = (int)ct_celt_udiv((int32_t)itheta * 16384, qn);
                imid = bitexact_cos((int16_t)unquantized);
                iside = bitexact_cos((int16_t)(16384 - unquantized));
                delta = CT_FRAC_MUL16((N - 1) << 7, bitexact_log2tan(iside, imid));
                if (delta > *b)
                    itheta = qn;
                else if (delta < -*b)
                    itheta = 0;
            }
        } else {
            int down;
            /* Bias quantization towards itheta=0 and itheta=16384. */
            int bias = itheta > 8192 ? 32767 / qn : -32767 / qn;
            down = CT_IMIN(qn - 1, CT_IMAX(0, (itheta * (int32_t)qn + bias) >> 14));
            if (ctx->theta_round < 0)
                itheta = down;
            else
                itheta = down + 1;
        }
        /* Entropy coding of the angle. We use a uniform pdf for the time
           split, a step for stereo, and a triangular one for the rest. */
        if (stereo && N > 2) {
            int p0 = 3;
            int x = itheta;
            int x0 = qn / 2;
            int ft = p0 * (x0 + 1) + x0;
            /* Use a probability of p0 up to itheta=8192 and then use 1
               after */
            ct_ec_encode(ec, x <= x0 ? p0 * x : (x - 1 - x0) + (x0 + 1) * p0,
                         x <= x0 ? p0 * (x + 1) : (x - x0) + (x0 + 1) * p0, ft);
        } else if (B0 > 1 || stereo) {
            /* Uniform pdf */
            ct_ec_enc_uint(ec, itheta, qn + 1);
        } else {
            int fs = 1, ft;
            int fl;
            ft = ((qn >> 1) + 1) * ((qn >> 1) + 1);
            fs = itheta <= (qn >> 1) ? itheta + 1 : qn + 1 - itheta;
            fl = itheta <= (qn >> 1) ? itheta * (itheta + 1) >> 1
                                     : ft - ((qn + 1 - itheta) * (qn + 2 - itheta) >> 1);

            ct_ec_encode(ec, fl, fl + fs, ft);
        }
        itheta = (int)ct_celt_udiv((int32_t)itheta * 16384, qn);
        if (stereo) {
            if (itheta == 0)
                intensity_stereo(m, X, Y, bandE, i, N);
            else
                stereo_split(X, Y, N);
        }
    } else if (stereo) {
        inv = itheta > 8192 && !ctx->disable_inv;
        if (inv) {
            int j;
            for (j = 0; j < N; j++)
                Y[j] = -Y[j];
        }
        intensity_stereo(m, X, Y, bandE, i, N);
        if (*b > 2 << CT_BITRES && ctx->remaining_bits > 2 << CT_BITRES) {
            ct_ec_enc_bit_logp(ec, inv, 2);
        } else
            inv = 0;
        /* inv flag override to avoid problems with downmixing. */
        if (ctx->disable_inv)
            inv = 0;
        itheta = 0;
    }
    qalloc = (int)ct_ec_tell_frac(ec) - tell;
    *b -= qalloc;

    if (itheta == 0) {
        imid = 32767;
        iside = 0;
        *fill &= (1 << B) - 1;
        delta = -16384;
    } else if (itheta == 16384) {
        imid = 0;
        iside = 32767;
        *fill &= ((1 << B) - 1) << B;
        delta = 16384;
    } else {
        imid = bitexact_cos((int16_t)itheta);
        iside = bitexact_cos((int16_t)(16384 - itheta));
        /* This is the mid vs side allocation that minimizes squared error
           in that band. */
        delta = CT_FRAC_MUL16((N - 1) << 7, bitexact_log2tan(iside, imid));
    }

    sctx->inv = inv;
    sctx->imid = imid;
    sctx->iside = iside;
    sctx->delta = delta;
    sctx->itheta = itheta;
    sctx->qalloc = qalloc;
}

/* The reference's b parameter is dropped: its only use was an update
   nothing reads. */
static unsigned quant_band_n1(struct band_ctx *ctx, float *X, float *Y,
                              float *lowband_out)
{
    int c;
    int stereo;
    float *x = X;
    ct_ec_enc *ec;

    ec = ctx->ec;

    stereo = Y != NULL;
    c = 0;
    do {
        int sign = 0;
        if (ctx->remaining_bits >= 1 << CT_BITRES) {
            sign = x[0] < 0;
            ct_ec_enc_bits(ec, sign, 1);
            ctx->remaining_bits -= 1 << CT_BITRES;
        }
        if (ctx->resynth)
            x[0] = sign ? -CT_NORM_SCALING : CT_NORM_SCALING;
        x = Y;
    } while (++c < 1 + stereo);
    if (lowband_out)
        lowband_out[0] = X[0];
    return 1;
}

/* This function is responsible for encoding a mono partition. It can split
   the band in two and transmit the energy difference with the two
   half-bands. It can be called recursively so bands can end up being split
   in 8 parts. */
static unsigned quant_partition(struct band_ctx *ctx, float *X, int N, int b,
                                int B, float *lowband, int LM, float gain,
                                int fill)
{
    const unsigned char *cache;
    int q;
    int curr_bits;
    int imid = 0, iside = 0;
    int B0 = B;
    float mid = 0, side = 0;
    unsigned cm = 0;
    float *Y = NULL;
    const ct_celt_mode *m;
    int i;
    int spread;
    ct_ec_enc *ec;

    m = ctx->m;
    i = ctx->i;
    spread = ctx->spread;
    ec = ctx->ec;

    /* If we need 1.5 more bit than we can produce, split the band in two. */
    cache = m->cache.bits + m->cache.index[(LM + 1) * m->nbEBands + i];
    if (LM != -1 && b > cache[cache[0]] + 12 && N > 2) {
        int mbits, sbits, delta;
        int itheta;
        int qalloc;
        struct split_ctx sctx;
        float *next_lowband2 = NULL;
        int32_t rebalance;

        N >>= 1;
        Y = X + N;
        LM -= 1;
        if (B == 1)
            fill = (fill & 1) | (fill << 1);
        B = (B + 1) >> 1;

        compute_theta(ctx, &sctx, X, Y, N, &b, B, B0, LM, 0, &fill);
        imid = sctx.imid;
        iside = sctx.iside;
        delta = sctx.delta;
        itheta = sctx.itheta;
        qalloc = sctx.qalloc;
        mid = (1.f / 32768) * imid;
        side = (1.f / 32768) * iside;

        /* Give more bits to low-energy MDCTs than they would otherwise
           deserve */
        if (B0 > 1 && (itheta & 0x3fff)) {
            if (itheta > 8192)
                /* Rough approximation for pre-echo masking */
                delta -= delta >> (4 - LM);
            else
                /* Corresponds to a forward-masking slope of 1.5 dB per 10
                   ms */
                delta = CT_IMIN(0, delta + (N << CT_BITRES >> (5 - LM)));
        }
        mbits = CT_IMAX(0, CT_IMIN(b, (b - delta) / 2));
        sbits = b - mbits;
        ctx->remaining_bits -= qalloc;

        if (lowband)
            next_lowband2 = lowband + N; /* >32-bit split case */

        rebalance = ctx->remaining_bits;
        if (mbits >= sbits) {
            cm = quant_partition(ctx, X, N, mbits, B, lowband, LM, gain * mid, fill);
            rebalance = mbits - (rebalance - ctx->remaining_bits);
            if (rebalance > 3 << CT_BITRES && itheta != 0)
                sbits += rebalance - (3 << CT_BITRES);
            cm |= quant_partition(ctx, Y, N, sbits, B, next_lowband2, LM,
                                  gain * side, fill >> B)
                  << (B0 >> 1);
        } else {
            cm = quant_partition(ctx, Y, N, sbits, B, next_lowband2, LM,
                                 gain * side, fill >> B)
                 << (B0 >> 1);
            rebalance = sbits - (rebalance - ctx->remaining_bits);
            if (rebalance > 3 << CT_BITRES && itheta != 16384)
                mbits += rebalance - (3 << CT_BITRES);
            cm |= quant_partition(ctx, X, N, mbits, B, lowband, LM, gain * mid, fill);
        }
    } else {
        /* This is the basic no-split case */
        q = ct_celt_bits2pulses(m, i, LM, b);
        curr_bits = ct_celt_pulses2bits(m, i, LM, q);
        ctx->remaining_bits -= curr_bits;

        /* Ensures we can never bust the budget */
        while (ctx->remaining_bits < 0 && q > 0) {
            ctx->remaining_bits += curr_bits;
            q--;
            curr_bits = ct_celt_pulses2bits(m, i, LM, q);
            ctx->remaining_bits -= curr_bits;
        }

        if (q != 0) {
            int K = ct_celt_get_pulses(q);

            /* Finally do the actual quantization */
            cm = ct_celt_alg_quant(X, N, K, spread, B, ec, gain, ctx->resynth,
                                   ctx->dsp);
        } else {
            /* If there's no pulse, fill the band anyway */
            int j;
            if (ctx->resynth) {
                unsigned cm_mask;
                /* B can be as large as 16, so this shift might overflow an
                   int on a 16-bit platform; use a long to get defined
                   behavior.*/
                cm_mask = (unsigned)(1UL << B) - 1;
                fill &= cm_mask;
                if (!fill) {
                    memset(X, 0, (size_t)N * sizeof(*X));
                } else {
                    resolve_seed(ctx);
                    if (lowband == NULL) {
                        /* Noise */
                        for (j = 0; j < N; j++) {
                            ctx->seed = celt_lcg_rand(ctx->seed);
                            X[j] = (float)((int32_t)ctx->seed >> 20);
                        }
                        cm = cm_mask;
                    } else {
                        /* Folded spectrum */
                        for (j = 0; j < N; j++) {
                            float tmp;
                            ctx->seed = celt_lcg_rand(ctx->seed);
                            /* About 48 dB below the "normal" folding
                               level */
                            tmp = 1.0f / 256;
                            tmp = (ctx->seed) & 0x8000 ? tmp : -tmp;
                            X[j] = lowband[j] + tmp;
                        }
                        cm = fill;
                    }
                    ct_celt_renormalise_vector(X, N, gain, ctx->dsp);
                }
            }
        }
    }

    return cm;
}

/* This function is responsible for encoding a band for the mono case. */
static unsigned quant_band(struct band_ctx *ctx, float *X, int N, int b, int B,
                           float *lowband, int LM, float *lowband_out,
                           float gain, float *lowband_scratch, int fill)
{
    int N0 = N;
    int N_B = N;
    int N_B0;
    int B0 = B;
    int time_divide = 0;
    int recombine = 0;
    int longBlocks;
    unsigned cm = 0;
    int k;
    int tf_change;

    tf_change = ctx->tf_change;

    longBlocks = B0 == 1;

    N_B = (int)ct_celt_udiv(N_B, B);

    /* Special case for one sample */
    if (N == 1) {
        return quant_band_n1(ctx, X, NULL, lowband_out);
    }

    if (tf_change > 0)
        recombine = tf_change;
    /* Band recombining to increase frequency resolution */

    if (lowband_scratch && lowband &&
        (recombine || ((N_B & 1) == 0 && tf_change < 0) || B0 > 1)) {
        memcpy(lowband_scratch, lowband, (size_t)N * sizeof(*lowband));
        lowband = lowband_scratch;
    }

    for (k = 0; k < recombine; k++) {
        static const unsigned char bit_interleave_table[16] = {
            0, 1, 1, 1, 2, 3, 3, 3, 2, 3, 3, 3, 2, 3, 3, 3};
        ct_celt_haar1(X, N >> k, 1 << k);
        if (lowband)
            ct_celt_haar1(lowband, N >> k, 1 << k);
        fill = bit_interleave_table[fill & 0xF] | bit_interleave_table[fill >> 4] << 2;
    }
    B >>= recombine;
    N_B <<= recombine;

    /* Increasing the time resolution */
    while ((N_B & 1) == 0 && tf_change < 0) {
        ct_celt_haar1(X, N_B, B);
        if (lowband)
            ct_celt_haar1(lowband, N_B, B);
        fill |= fill << B;
        B <<= 1;
        N_B >>= 1;
        time_divide++;
        tf_change++;
    }
    B0 = B;
    N_B0 = N_B;

    /* Reorganize the samples in time order instead of frequency order */
    if (B0 > 1) {
        deinterleave_hadamard(X, N_B >> recombine, B0 << recombine, longBlocks);
        if (lowband)
            deinterleave_hadamard(lowband, N_B >> recombine, B0 << recombine,
                                  longBlocks);
    }

    cm = quant_partition(ctx, X, N, b, B, lowband, LM, gain, fill);

    /* The resynthesis that the theta rate-distortion search needs */
    if (ctx->resynth) {
        /* Undo the sample reorganization going from time order to frequency
           order */
        if (B0 > 1)
            interleave_hadamard(X, N_B >> recombine, B0 << recombine, longBlocks);

        /* Undo time-freq changes that we did earlier */
        N_B = N_B0;
        B = B0;
        for (k = 0; k < time_divide; k++) {
            B >>= 1;
            N_B <<= 1;
            cm |= cm >> B;
            ct_celt_haar1(X, N_B, B);
        }

        for (k = 0; k < recombine; k++) {
            static const unsigned char bit_deinterleave_table[16] = {
                0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F,
                0xC0, 0xC3, 0xCC, 0xCF, 0xF0, 0xF3, 0xFC, 0xFF};
            cm = bit_deinterleave_table[cm];
            ct_celt_haar1(X, N0 >> k, 1 << k);
        }
        B <<= recombine;

        /* Scale output for later folding */
        if (lowband_out) {
            int j;
            float n;
            n = ct_celt_sqrt(N0);
            for (j = 0; j < N0; j++)
                lowband_out[j] = n * X[j];
        }
        cm &= (1 << B) - 1;
    }
    return cm;
}

/* This function is responsible for encoding a band for the stereo case. */
static unsigned quant_band_stereo(struct band_ctx *ctx, float *X, float *Y,
                                  int N, int b, int B, float *lowband, int LM,
                                  float *lowband_out, float *lowband_scratch,
                                  int fill)
{
    int imid = 0, iside = 0;
    int inv = 0;
    float mid = 0, side = 0;
    unsigned cm = 0;
    int mbits, sbits, delta;
    int itheta;
    int qalloc;
    struct split_ctx sctx;
    int orig_fill;
    ct_ec_enc *ec;

    ec = ctx->ec;

    /* Special case for one sample */
    if (N == 1) {
        return quant_band_n1(ctx, X, Y, lowband_out);
    }

    orig_fill = fill;

    compute_theta(ctx, &sctx, X, Y, N, &b, B, B, LM, 1, &fill);
    inv = sctx.inv;
    imid = sctx.imid;
    iside = sctx.iside;
    delta = sctx.delta;
    itheta = sctx.itheta;
    qalloc = sctx.qalloc;
    mid = (1.f / 32768) * imid;
    side = (1.f / 32768) * iside;

    /* This is a special case for N=2 that only works for stereo and takes
       advantage of the fact that mid and side are orthogonal to encode the
       side with just one bit. */
    if (N == 2) {
        int c;
        int sign = 0;
        float *x2, *y2;
        mbits = b;
        sbits = 0;
        /* Only need one bit for the side. */
        if (itheta != 0 && itheta != 16384)
            sbits = 1 << CT_BITRES;
        mbits -= sbits;
        c = itheta > 8192;
        ctx->remaining_bits -= qalloc + sbits;

        x2 = c ? Y : X;
        y2 = c ? X : Y;
        if (sbits) {
            /* Here we only need to encode a sign for the side. */
            sign = x2[0] * y2[1] - x2[1] * y2[0] < 0;
            ct_ec_enc_bits(ec, sign, 1);
        }
        sign = 1 - 2 * sign;
        /* We use orig_fill here because we want to fold the side, but if
           itheta==16384, we'll have cleared the low bits of fill. */
        cm = quant_band(ctx, x2, N, mbits, B, lowband, LM, lowband_out,
                        CT_Q15ONE, lowband_scratch, orig_fill);
        /* We don't split N=2 bands, so cm is either 1 or 0 (for a
           fold-collapse), and there's no need to worry about mixing with
           the other channel. */
        y2[0] = -sign * x2[1];
        y2[1] = sign * x2[0];
        if (ctx->resynth) {
            float tmp;
            X[0] = mid * X[0];
            X[1] = mid * X[1];
            Y[0] = side * Y[0];
            Y[1] = side * Y[1];
            tmp = X[0];
            X[0] = tmp - Y[0];
            Y[0] = tmp + Y[0];
            tmp = X[1];
            X[1] = tmp - Y[1];
            Y[1] = tmp + Y[1];
        }
    } else {
        /* "Normal" split code */
        int32_t rebalance;

        mbits = CT_IMAX(0, CT_IMIN(b, (b - delta) / 2));
        sbits = b - mbits;
        ctx->remaining_bits -= qalloc;

        rebalance = ctx->remaining_bits;
        if (mbits >= sbits) {
            /* In stereo mode, we do not apply a scaling to the mid because
               we need the normalized mid for folding later. */
            cm = quant_band(ctx, X, N, mbits, B, lowband, LM, lowband_out,
                            CT_Q15ONE, lowband_scratch, fill);
            rebalance = mbits - (rebalance - ctx->remaining_bits);
            if (rebalance > 3 << CT_BITRES && itheta != 0)
                sbits += rebalance - (3 << CT_BITRES);

            /* For a stereo split, the high bits of fill are always zero,
               so no folding will be done to the side. */
            cm |= quant_band(ctx, Y, N, sbits, B, NULL, LM, NULL, side, NULL,
                             fill >> B);
        } else {
            /* For a stereo split, the high bits of fill are always zero,
               so no folding will be done to the side. */
            cm = quant_band(ctx, Y, N, sbits, B, NULL, LM, NULL, side, NULL,
                            fill >> B);
            rebalance = sbits - (rebalance - ctx->remaining_bits);
            if (rebalance > 3 << CT_BITRES && itheta != 16384)
                mbits += rebalance - (3 << CT_BITRES);
            /* In stereo mode, we do not apply a scaling to the mid because
               we need the normalized mid for folding later. */
            cm |= quant_band(ctx, X, N, mbits, B, lowband, LM, lowband_out,
                             CT_Q15ONE, lowband_scratch, fill);
        }
    }

    /* The resynthesis that the theta rate-distortion search needs */
    if (ctx->resynth) {
        if (N != 2)
            stereo_merge(X, Y, mid, N, ctx->dsp);
        if (inv) {
            int j;
            for (j = 0; j < N; j++)
                Y[j] = -Y[j];
        }
    }
    return cm;
}

/*
 * The round-up half of the theta search, split off (ct): a job on the
 * theta trial lane, with copies of everything the reference's second
 * trial reads (the state saved before the first, the lowband it folds
 * from, which the first overwrites where they overlap, then restores) and
 * room for all it writes. Its coder writes its own buffer, at the real
 * one's offsets: the range coder never reads its bytes, so they need no
 * copy in, and where this trial wins only the bytes it wrote are copied
 * out (the others keep the first trial's, as the reference's buffer does).
 */
struct theta_trial {
    struct band_ctx ctx; /* ctx.ec is &ec */
    ct_ec_enc ec;        /* ec.buf is bytes */
    int N, b, B, LM;
    unsigned fill;
    float w[2];
    int has_lowband, has_lowband_out;
    float X_save[BANDS_MAX_N], Y_save[BANDS_MAX_N]; /* the band's input */
    float X[BANDS_MAX_N], Y[BANDS_MAX_N];           /* the helper's copy */
    float lowband[BANDS_MAX_N];
    float lowband_out[BANDS_MAX_N];
    float lowband_scratch[BANDS_MAX_N];
    unsigned char bytes[BANDS_MAX_BYTES];
    /* The results: the collapse mask, dist1 */
    unsigned cm;
    float dist;
};

/* The reference's second trial and its dist1, on the job's copies. */
static void theta_trial_round_up(void *job)
{
    struct theta_trial *t = job;
    /* Copied here, so that the input crosses from Encode's cache once. */
    memcpy(t->X, t->X_save, (size_t)t->N * sizeof(*t->X));
    memcpy(t->Y, t->Y_save, (size_t)t->N * sizeof(*t->Y));
    t->cm = quant_band_stereo(&t->ctx, t->X, t->Y, t->N, t->b, t->B,
                              t->has_lowband ? t->lowband : NULL, t->LM,
                              t->has_lowband_out ? t->lowband_out : NULL,
                              t->lowband_scratch, t->fill);
    t->dist = t->w[0] * t->ctx.dsp->inner_prod(t->X_save, t->X, t->N) +
              t->w[1] * t->ctx.dsp->inner_prod(t->Y_save, t->Y, t->N);
}

static void special_hybrid_folding(const ct_celt_mode *m, float *norm,
                                   float *norm2, int start, int M,
                                   int dual_stereo)
{
    int n1, n2;
    const int16_t *restrict eBands = m->eBands;
    n1 = M * (eBands[start + 1] - eBands[start]);
    n2 = M * (eBands[start + 2] - eBands[start + 1]);
    /* Duplicate enough of the first band folding data to be able to fold
       the second band. Copies no data for CELT-only mode (the band widths
       never decrease, so n2 - n1 >= 0). */
    memcpy(&norm[n1], &norm[2 * n1 - n2], (size_t)(n2 - n1) * sizeof(*norm));
    if (dual_stereo)
        memcpy(&norm2[n1], &norm2[2 * n1 - n2], (size_t)(n2 - n1) * sizeof(*norm2));
}

void ct_celt_quant_all_bands(const ct_celt_mode *m, int start, int end,
                             float *X_, float *Y_, unsigned char *collapse_masks,
                             const float *bandE, int *pulses, int shortBlocks,
                             int spread, int dual_stereo, int intensity,
                             int *tf_res, int32_t total_bits, int32_t balance,
                             ct_ec_enc *ec, int LM, int codedBands,
                             uint32_t *seed, int complexity,
                             const ct_opus_dsp *dsp, int disable_inv,
                             ct_lane *lane,
                             struct ct_celt_seed_use *seed_use)
{
    int i;
    int32_t remaining_bits;
    const int16_t *restrict eBands = m->eBands;
    float *restrict norm, *restrict norm2;
    float _norm[BANDS_NORM_SIZE];
    float _lowband_scratch[BANDS_MAX_N];
    float X_save[BANDS_MAX_N];
    float Y_save[BANDS_MAX_N];
    float X_save2[BANDS_MAX_N];
    float Y_save2[BANDS_MAX_N];
    float norm_save2[BANDS_MAX_N];
    struct theta_trial trial;
    float *lowband_scratch;
    int B;
    int M;
    int lowband_offset;
    int update_lowband = 1;
    int C = Y_ != NULL ? 2 : 1;
    int norm_offset;
    int theta_rdo = Y_ != NULL && !dual_stereo && complexity >= 8;
    /* The encoder resynthesises only for the theta rate-distortion search */
    int resynth = theta_rdo;
    struct band_ctx ctx;

    M = 1 << LM;
    B = shortBlocks ? M : 1;
    norm_offset = M * eBands[start];
    /* No need to allocate norm for the last band because we don't need an
       output in that band. */
    norm = _norm;
    norm2 = norm + M * eBands[m->nbEBands - 1] - norm_offset;

    if (resynth)
        lowband_scratch = _lowband_scratch;
    else
        lowband_scratch = X_ + M * eBands[m->nbEBands - 1];

    lowband_offset = 0;
    ctx.bandE = bandE;
    ctx.ec = ec;
    ctx.intensity = intensity;
    ctx.m = m;
    ctx.seed = *seed;
    ctx.seed_use = seed_use;
    ctx.seed_known = seed_use == NULL;
    ctx.spread = spread;
    ctx.dsp = dsp;
    ctx.disable_inv = disable_inv;
    ctx.resynth = resynth;
    ctx.theta_round = 0;
    /* Avoid injecting noise in the first band on transients. */
    ctx.avoid_split_noise = B > 1;
    /* The helper, where asleep, wakes while the first bands are coded. */
    if (lane != NULL && theta_rdo)
        ct_lane_wake(lane);
    for (i = start; i < end; i++) {
        int32_t tell;
        int b;
        int N;
        int32_t curr_balance;
        int effective_lowband = -1;
        float *restrict X, *restrict Y;
        int tf_change = 0;
        unsigned x_cm;
        unsigned y_cm;
        int last;

        ctx.i = i;
        last = (i == end - 1);
        /* ct: no theta trial from the intensity band on, and no byte the
           encoder writes reads the resynthesis: it serves the trials'
           distortions and the folding of the bands they code (X and the
           collapse masks are not read after this function), so it stops
           here */
        if (resynth && i >= intensity) {
            resynth = 0;
            ctx.resynth = 0;
        }

        X = X_ + M * eBands[i];
        if (Y_ != NULL)
            Y = Y_ + M * eBands[i];
        else
            Y = NULL;
        N = M * eBands[i + 1] - M * eBands[i];
        tell = (int32_t)ct_ec_tell_frac(ec);

        /* Compute how many bits we want to allocate to this band */
        if (i != start)
            balance -= tell;
        remaining_bits = total_bits - tell - 1;
        ctx.remaining_bits = remaining_bits;
        if (i <= codedBands - 1) {
            curr_balance = ct_celt_sudiv(balance, CT_IMIN(3, codedBands - i));
            b = CT_IMAX(0, CT_IMIN(16383, CT_IMIN(remaining_bits + 1, pulses[i] + curr_balance)));
        } else {
            b = 0;
        }

        if (resynth && (M * eBands[i] - N >= M * eBands[start] || i == start + 1) &&
            (update_lowband || lowband_offset == 0))
            lowband_offset = i;
        if (i == start + 1)
            special_hybrid_folding(m, norm, norm2, start, M, dual_stereo);

        tf_change = tf_res[i];
        ctx.tf_change = tf_change;
        if (i >= m->effEBands) {
            X = norm;
            if (Y_ != NULL)
                Y = norm;
            lowband_scratch = NULL;
        }
        if (last && !theta_rdo)
            lowband_scratch = NULL;

        /* Get a conservative estimate of the collapse_mask's for the bands
           we're going to be folding from. */
        if (lowband_offset != 0 && (spread != SPREAD_AGGRESSIVE || B > 1 || tf_change < 0)) {
            int fold_start;
            int fold_end;
            int fold_i;
            /* This ensures we never repeat spectral content within one
               band */
            effective_lowband = CT_IMAX(0, M * eBands[lowband_offset] - norm_offset - N);
            fold_start = lowband_offset;
            while (M * eBands[--fold_start] > effective_lowband + norm_offset)
                ;
            fold_end = lowband_offset - 1;
            while (++fold_end < i && M * eBands[fold_end] < effective_lowband + norm_offset + N)
                ;
            x_cm = y_cm = 0;
            fold_i = fold_start;
            do {
                x_cm |= collapse_masks[fold_i * C + 0];
                y_cm |= collapse_masks[fold_i * C + C - 1];
            } while (++fold_i < fold_end);
        }
        /* Otherwise, we'll be using the LCG to fold, so all blocks will
           (almost always) be non-zero. */
        else
            x_cm = y_cm = (1 << B) - 1;

        if (dual_stereo && i == intensity) {
            int j;

            /* Switch off dual stereo to do intensity. */
            dual_stereo = 0;
            if (resynth)
                for (j = 0; j < M * eBands[i] - norm_offset; j++)
                    norm[j] = .5f * (norm[j] + norm2[j]);
        }
        if (dual_stereo) {
            x_cm = quant_band(&ctx, X, N, b / 2, B,
                              effective_lowband != -1 ? norm + effective_lowband : NULL, LM,
                              last ? NULL : norm + M * eBands[i] - norm_offset, CT_Q15ONE,
                              lowband_scratch, x_cm);
            y_cm = quant_band(&ctx, Y, N, b / 2, B,
                              effective_lowband != -1 ? norm2 + effective_lowband : NULL, LM,
                              last ? NULL : norm2 + M * eBands[i] - norm_offset, CT_Q15ONE,
                              lowband_scratch, y_cm);
        } else {
            if (Y != NULL) {
                if (theta_rdo && i < intensity && lane != NULL &&
                    i < m->effEBands && ct_lane_has_helper(lane)) {
                    /* The search split (ct): the second trial on the lane,
                       posted before the first runs here on the real
                       state; then the reference's decision, and the
                       second's result copied in where it wins. */
                    struct theta_trial *t = &trial;
                    unsigned char *buf = ec->buf;
                    uint32_t offs0 = ec->offs, end_offs0 = ec->end_offs;
                    uint32_t storage = ec->storage;
                    float dist0;
                    unsigned cm;
                    compute_channel_weights(bandE[i], bandE[i + m->nbEBands], t->w);
                    cm = x_cm | y_cm;
                    t->ec = *ec;
                    t->ec.buf = t->bytes;
                    t->ctx = ctx;
                    t->ctx.ec = &t->ec;
                    t->ctx.theta_round = 1;
                    t->N = N;
                    t->b = b;
                    t->B = B;
                    t->LM = LM;
                    t->fill = cm;
                    memcpy(t->X_save, X, (size_t)N * sizeof(*X));
                    memcpy(t->Y_save, Y, (size_t)N * sizeof(*Y));
                    t->has_lowband = effective_lowband != -1;
                    if (t->has_lowband)
                        memcpy(t->lowband, norm + effective_lowband,
                               (size_t)N * sizeof(*norm));
                    t->has_lowband_out = !last;
                    ct_lane_post(lane, theta_trial_round_up, t);

                    /* Encode and round down. */
                    ctx.theta_round = -1;
                    x_cm = quant_band_stereo(
                        &ctx, X, Y, N, b, B,
                        effective_lowband != -1 ? norm + effective_lowband : NULL, LM,
                        last ? NULL : norm + M * eBands[i] - norm_offset, lowband_scratch, cm);
                    dist0 = t->w[0] * dsp->inner_prod(t->X_save, X, N) +
                            t->w[1] * dsp->inner_prod(t->Y_save, Y, N);

                    ct_lane_complete(lane);
                    if (!(dist0 >= t->dist)) {
                        /* The reference keeps the second result. */
                        x_cm = t->cm;
                        *ec = t->ec;
                        ec->buf = buf;
                        /* its range coder's bytes and its raw bits' */
                        memcpy(buf + offs0, t->bytes + offs0, ec->offs - offs0);
                        memcpy(buf + storage - ec->end_offs,
                               t->bytes + storage - ec->end_offs,
                               ec->end_offs - end_offs0);
                        ctx = t->ctx;
                        ctx.ec = ec;
                        memcpy(X, t->X, (size_t)N * sizeof(*X));
                        memcpy(Y, t->Y, (size_t)N * sizeof(*Y));
                        if (!last)
                            memcpy(norm + M * eBands[i] - norm_offset, t->lowband_out,
                                   (size_t)N * sizeof(*norm));
                    }
                } else if (theta_rdo && i < intensity) {
                    ct_ec_enc ec_save, ec_save2;
                    struct band_ctx ctx_save, ctx_save2;
                    float dist0, dist1;
                    unsigned cm, cm2;
                    int nstart_bytes, nend_bytes, save_bytes;
                    unsigned char *bytes_buf;
                    unsigned char bytes_save[BANDS_MAX_BYTES];
                    float w[2];
                    compute_channel_weights(bandE[i], bandE[i + m->nbEBands], w);
                    /* Make a copy. */
                    cm = x_cm | y_cm;
                    ec_save = *ec;
                    ctx_save = ctx;
                    memcpy(X_save, X, (size_t)N * sizeof(*X));
                    memcpy(Y_save, Y, (size_t)N * sizeof(*Y));
                    /* Encode and round down. */
                    ctx.theta_round = -1;
                    x_cm = quant_band_stereo(
                        &ctx, X, Y, N, b, B,
                        effective_lowband != -1 ? norm + effective_lowband : NULL, LM,
                        last ? NULL : norm + M * eBands[i] - norm_offset, lowband_scratch, cm);
                    dist0 = w[0] * dsp->inner_prod(X_save, X, N) +
                            w[1] * dsp->inner_prod(Y_save, Y, N);

                    /* Save first result. */
                    cm2 = x_cm;
                    ec_save2 = *ec;
                    ctx_save2 = ctx;
                    memcpy(X_save2, X, (size_t)N * sizeof(*X));
                    memcpy(Y_save2, Y, (size_t)N * sizeof(*Y));
                    if (!last)
                        memcpy(norm_save2, norm + M * eBands[i] - norm_offset,
                               (size_t)N * sizeof(*norm));
                    nstart_bytes = (int)ec_save.offs;
                    nend_bytes = (int)ec_save.storage;
                    bytes_buf = ec_save.buf + nstart_bytes;
                    save_bytes = nend_bytes - nstart_bytes;
                    memcpy(bytes_save, bytes_buf, (size_t)save_bytes);

                    /* Restore */
                    *ec = ec_save;
                    ctx = ctx_save;
                    memcpy(X, X_save, (size_t)N * sizeof(*X));
                    memcpy(Y, Y_save, (size_t)N * sizeof(*Y));
                    if (i == start + 1)
                        special_hybrid_folding(m, norm, norm2, start, M, dual_stereo);
                    /* Encode and round up. */
                    ctx.theta_round = 1;
                    x_cm = quant_band_stereo(
                        &ctx, X, Y, N, b, B,
                        effective_lowband != -1 ? norm + effective_lowband : NULL, LM,
                        last ? NULL : norm + M * eBands[i] - norm_offset, lowband_scratch, cm);
                    dist1 = w[0] * dsp->inner_prod(X_save, X, N) +
                            w[1] * dsp->inner_prod(Y_save, Y, N);
                    if (dist0 >= dist1) {
                        x_cm = cm2;
                        *ec = ec_save2;
                        ctx = ctx_save2;
                        memcpy(X, X_save2, (size_t)N * sizeof(*X));
                        memcpy(Y, Y_save2, (size_t)N * sizeof(*Y));
                        if (!last)
                            memcpy(norm + M * eBands[i] - norm_offset, norm_save2,
                                   (size_t)N * sizeof(*norm));
                        memcpy(bytes_buf, bytes_save, (size_t)save_bytes);
                    }
                } else {
                    ctx.theta_round = 0;
                    x_cm = quant_band_stereo(
                        &ctx, X, Y, N, b, B,
                        effective_lowband != -1 ? norm + effective_lowband : NULL, LM,
                        last ? NULL : norm + M * eBands[i] - norm_offset, lowband_scratch,
                        x_cm | y_cm);
                }
            } else {
                x_cm = quant_band(&ctx, X, N, b, B,
                                  effective_lowband != -1 ? norm + effective_lowband : NULL, LM,
                                  last ? NULL : norm + M * eBands[i] - norm_offset, CT_Q15ONE,
                                  lowband_scratch, x_cm | y_cm);
            }
            y_cm = x_cm;
        }
        collapse_masks[i * C + 0] = (unsigned char)x_cm;
        collapse_masks[i * C + C - 1] = (unsigned char)y_cm;
        balance += pulses[i] + tell;

        /* Update the folding position only as long as we have 1 bit/sample
           depth. */
        update_lowband = b > (N << CT_BITRES);
        /* We only need to avoid noise on a split for the first band. After
           that, we have folding. */
        ctx.avoid_split_noise = 0;
    }
    *seed = ctx.seed;
}
