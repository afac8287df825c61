/*
 * The speex resampler as libopusenc builds it: float samples, the full
 * sinc table (RESAMPLE_FULL_SINC_TABLE), resampler_basic_direct_single
 * (quality 5 < 9 never takes the double-precision filter), the dot
 * product from the kernel table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopusenc 0.2.1 src/resample.c (BSD-3-Clause, Jean-Marc
 * Valin, Thorvald Natvig, Xiph.Org Foundation and contributors)
 */
#include "opus/resampler.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* resample.c's tables, transcribed. */
static const double kaiser12_table[68] = {
    0.99859849, 1.00000000, 0.99859849, 0.99440475, 0.98745105, 0.97779076,
    0.96549770, 0.95066529, 0.93340547, 0.91384741, 0.89213598, 0.86843014,
    0.84290116, 0.81573067, 0.78710866, 0.75723148, 0.72629970, 0.69451601,
    0.66208321, 0.62920216, 0.59606986, 0.56287762, 0.52980938, 0.49704014,
    0.46473455, 0.43304576, 0.40211431, 0.37206735, 0.34301800, 0.31506490,
    0.28829195, 0.26276832, 0.23854851, 0.21567274, 0.19416736, 0.17404546,
    0.15530766, 0.13794294, 0.12192957, 0.10723616, 0.09382272, 0.08164178,
    0.07063950, 0.06075685, 0.05193064, 0.04409466, 0.03718069, 0.03111947,
    0.02584161, 0.02127838, 0.01736250, 0.01402878, 0.01121463, 0.00886058,
    0.00691064, 0.00531256, 0.00401805, 0.00298291, 0.00216702, 0.00153438,
    0.00105297, 0.00069463, 0.00043489, 0.00025272, 0.00013031, 0.0000527734,
    0.00001000, 0.00000000};

static const double kaiser10_table[36] = {
    0.99537781, 1.00000000, 0.99537781, 0.98162644, 0.95908712, 0.92831446,
    0.89005583, 0.84522401, 0.79486424, 0.74011713, 0.68217934, 0.62226347,
    0.56155915, 0.50119680, 0.44221549, 0.38553619, 0.33194107, 0.28205962,
    0.23636152, 0.19515633, 0.15859932, 0.12670280, 0.09935205, 0.07632451,
    0.05731132, 0.04193980, 0.02979584, 0.02044510, 0.01345224, 0.00839739,
    0.00488951, 0.00257636, 0.00115101, 0.00035515, 0.00000000, 0.00000000};

static const double kaiser8_table[36] = {
    0.99635258, 1.00000000, 0.99635258, 0.98548012, 0.96759014, 0.94302200,
    0.91223751, 0.87580811, 0.83439927, 0.78875245, 0.73966538, 0.68797126,
    0.63451750, 0.58014482, 0.52566725, 0.47185369, 0.41941150, 0.36897272,
    0.32108304, 0.27619388, 0.23465776, 0.19672670, 0.16255380, 0.13219758,
    0.10562887, 0.08273982, 0.06335451, 0.04724088, 0.03412321, 0.02369490,
    0.01563093, 0.00959968, 0.00527363, 0.00233883, 0.00050000, 0.00000000};

static const double kaiser6_table[36] = {
    0.99733006, 1.00000000, 0.99733006, 0.98935595, 0.97618418, 0.95799003,
    0.93501423, 0.90755855, 0.87598009, 0.84068475, 0.80211977, 0.76076565,
    0.71712752, 0.67172623, 0.62508937, 0.57774224, 0.53019925, 0.48295561,
    0.43647969, 0.39120616, 0.34752997, 0.30580127, 0.26632152, 0.22934058,
    0.19505503, 0.16360756, 0.13508755, 0.10953262, 0.08693120, 0.06722600,
    0.05031820, 0.03607231, 0.02432151, 0.01487334, 0.00752000, 0.00000000};

struct FuncDef {
    const double *table;
    int oversample;
};

static const struct FuncDef kaiser12_funcdef = {kaiser12_table, 64};
static const struct FuncDef kaiser10_funcdef = {kaiser10_table, 32};
static const struct FuncDef kaiser8_funcdef = {kaiser8_table, 32};
static const struct FuncDef kaiser6_funcdef = {kaiser6_table, 32};

struct QualityMapping {
    int base_length;
    int oversample;
    float downsample_bandwidth;
    float upsample_bandwidth;
    const struct FuncDef *window_func;
};

static const struct QualityMapping quality_map[11] = {
    {8, 4, 0.830f, 0.860f, &kaiser6_funcdef},      /* Q0 */
    {16, 4, 0.850f, 0.880f, &kaiser6_funcdef},     /* Q1 */
    {32, 4, 0.882f, 0.910f, &kaiser6_funcdef},     /* Q2 */
    {48, 8, 0.895f, 0.917f, &kaiser8_funcdef},     /* Q3 */
    {64, 8, 0.921f, 0.940f, &kaiser8_funcdef},     /* Q4 */
    {80, 16, 0.922f, 0.940f, &kaiser10_funcdef},   /* Q5 */
    {96, 16, 0.940f, 0.945f, &kaiser10_funcdef},   /* Q6 */
    {128, 16, 0.950f, 0.950f, &kaiser10_funcdef},  /* Q7 */
    {160, 16, 0.960f, 0.960f, &kaiser10_funcdef},  /* Q8 */
    {192, 32, 0.968f, 0.968f, &kaiser12_funcdef},  /* Q9 */
    {256, 32, 0.975f, 0.975f, &kaiser12_funcdef},  /* Q10 */
};

static double compute_func(float x, const struct FuncDef *func)
{
    float y, frac;
    double interp[4];
    int ind;
    y = x * func->oversample;
    ind = (int)floor(y);
    frac = (y - ind);
    interp[3] = -0.1666666667 * frac + 0.1666666667 * (frac * frac * frac);
    interp[2] = frac + 0.5 * (frac * frac) - 0.5 * (frac * frac * frac);
    interp[0] = -0.3333333333 * frac + 0.5 * (frac * frac) - 0.1666666667 * (frac * frac * frac);
    /* Just to make sure we don't have rounding problems */
    interp[1] = 1.f - interp[3] - interp[2] - interp[0];

    return interp[0] * func->table[ind] + interp[1] * func->table[ind + 1] +
           interp[2] * func->table[ind + 2] + interp[3] * func->table[ind + 3];
}

/* The slow way of computing a sinc for the table. */
static float sinc(float cutoff, float x, int N, const struct FuncDef *window_func)
{
    float xx = x * cutoff;
    if (fabs(x) < 1e-6)
        return cutoff;
    else if (fabs(x) > .5 * N)
        return 0;
    return cutoff * sin(M_PI * xx) / (M_PI * xx) * compute_func(fabs(2. * x / N), window_func);
}

float ct_opus_resampler_inner_product_c(const float *a, const float *b, unsigned len)
{
    unsigned j;
    float sum = 0;
    for (j = 0; j < len; j++)
        sum += a[j] * b[j];
    return sum;
}

static int resampler_basic_direct_single(ct_resampler *st, uint32_t channel_index,
                                         const float *in, uint32_t *in_len, float *out,
                                         uint32_t *out_len)
{
    const int N = st->filt_len;
    int out_sample = 0;
    int last_sample = st->last_sample[channel_index];
    uint32_t samp_frac_num = st->samp_frac_num[channel_index];
    const float *sinc_table = st->sinc_table;
    const int out_stride = st->out_stride;
    const int int_advance = st->int_advance;
    const int frac_advance = st->frac_advance;
    const uint32_t den_rate = st->den_rate;
    float sum;

    while (!(last_sample >= (int32_t)*in_len || out_sample >= (int32_t)*out_len)) {
        const float *sinct = &sinc_table[samp_frac_num * N];
        const float *iptr = &in[last_sample];

        sum = st->dsp->resampler_inner_product(sinct, iptr, N);

        out[out_stride * out_sample++] = sum;
        last_sample += int_advance;
        samp_frac_num += frac_advance;
        if (samp_frac_num >= den_rate) {
            samp_frac_num -= den_rate;
            last_sample++;
        }
    }

    st->last_sample[channel_index] = last_sample;
    st->samp_frac_num[channel_index] = samp_frac_num;
    return out_sample;
}

/* Zeros where memory for the filter could not be allocated: the expected
   numbers of input and output samples are still consumed. */
static int resampler_basic_zero(ct_resampler *st, uint32_t channel_index, uint32_t *in_len,
                                float *out, uint32_t *out_len)
{
    int out_sample = 0;
    int last_sample = st->last_sample[channel_index];
    uint32_t samp_frac_num = st->samp_frac_num[channel_index];
    const int out_stride = st->out_stride;
    const int int_advance = st->int_advance;
    const int frac_advance = st->frac_advance;
    const uint32_t den_rate = st->den_rate;

    while (!(last_sample >= (int32_t)*in_len || out_sample >= (int32_t)*out_len)) {
        out[out_stride * out_sample++] = 0;
        last_sample += int_advance;
        samp_frac_num += frac_advance;
        if (samp_frac_num >= den_rate) {
            samp_frac_num -= den_rate;
            last_sample++;
        }
    }

    st->last_sample[channel_index] = last_sample;
    st->samp_frac_num[channel_index] = samp_frac_num;
    return out_sample;
}

static int multiply_frac(uint32_t *result, uint32_t value, uint32_t num, uint32_t den)
{
    uint32_t major = value / den;
    uint32_t remain = value % den;
    if (remain > UINT32_MAX / num || major > UINT32_MAX / num ||
        major * num > UINT32_MAX - remain * num / den)
        return CT_RESAMPLER_ERR_OVERFLOW;
    *result = remain * num / den + major * num;
    return CT_RESAMPLER_ERR_SUCCESS;
}

static int update_filter(ct_resampler *st)
{
    uint32_t old_length = st->filt_len;
    uint32_t old_alloc_size = st->mem_alloc_size;
    uint32_t min_sinc_table_length;
    uint32_t min_alloc_size;

    st->int_advance = st->num_rate / st->den_rate;
    st->frac_advance = st->num_rate % st->den_rate;
    st->oversample = quality_map[st->quality].oversample;
    st->filt_len = quality_map[st->quality].base_length;

    if (st->num_rate > st->den_rate) {
        /* down-sampling */
        st->cutoff = quality_map[st->quality].downsample_bandwidth * st->den_rate / st->num_rate;
        if (multiply_frac(&st->filt_len, st->filt_len, st->num_rate, st->den_rate) !=
            CT_RESAMPLER_ERR_SUCCESS)
            goto fail;
        /* Round up to make sure we have a multiple of 8 for SSE */
        st->filt_len = ((st->filt_len - 1) & (~0x7)) + 8;
        if (2 * st->den_rate < st->num_rate)
            st->oversample >>= 1;
        if (4 * st->den_rate < st->num_rate)
            st->oversample >>= 1;
        if (8 * st->den_rate < st->num_rate)
            st->oversample >>= 1;
        if (16 * st->den_rate < st->num_rate)
            st->oversample >>= 1;
        if (st->oversample < 1)
            st->oversample = 1;
    } else {
        /* up-sampling */
        st->cutoff = quality_map[st->quality].upsample_bandwidth;
    }

    /* RESAMPLE_FULL_SINC_TABLE: always the direct table */
    if (INT_MAX / sizeof(float) / st->den_rate < st->filt_len)
        goto fail;
    min_sinc_table_length = st->filt_len * st->den_rate;
    if (st->sinc_table_length < min_sinc_table_length) {
        float *sinc_table = realloc(st->sinc_table, min_sinc_table_length * sizeof(float));
        if (!sinc_table)
            goto fail;

        st->sinc_table = sinc_table;
        st->sinc_table_length = min_sinc_table_length;
    }
    {
        uint32_t i;
        for (i = 0; i < st->den_rate; i++) {
            int32_t j;
            for (j = 0; j < (int32_t)st->filt_len; j++) {
                st->sinc_table[i * st->filt_len + j] =
                    sinc(st->cutoff,
                         ((j - (int32_t)st->filt_len / 2 + 1) - ((float)i) / st->den_rate),
                         st->filt_len, quality_map[st->quality].window_func);
            }
        }
        st->filter_ok = 1;
    }

    /* Update the filter memory to take into account the change in filter
       length (only a rate or quality change after init gets here with
       started set). */
    min_alloc_size = st->filt_len - 1 + st->buffer_size;
    if (min_alloc_size > st->mem_alloc_size) {
        float *mem;
        if (INT_MAX / sizeof(float) / st->nb_channels < min_alloc_size)
            goto fail;
        else if (!(mem = realloc(st->mem, st->nb_channels * min_alloc_size * sizeof(*mem))))
            goto fail;

        st->mem = mem;
        st->mem_alloc_size = min_alloc_size;
    }
    if (!st->started) {
        uint32_t i;
        for (i = 0; i < st->nb_channels * st->mem_alloc_size; i++)
            st->mem[i] = 0;
    } else if (st->filt_len > old_length) {
        uint32_t i;
        /* Increase the filter length */
        for (i = st->nb_channels; i--;) {
            uint32_t j;
            uint32_t olen = old_length;
            {
                /* Try and remove the magic samples as if nothing had happened */
                olen = old_length + 2 * st->magic_samples[i];
                for (j = old_length - 1 + st->magic_samples[i]; j--;)
                    st->mem[i * st->mem_alloc_size + j + st->magic_samples[i]] =
                        st->mem[i * old_alloc_size + j];
                for (j = 0; j < st->magic_samples[i]; j++)
                    st->mem[i * st->mem_alloc_size + j] = 0;
                st->magic_samples[i] = 0;
            }
            if (st->filt_len > olen) {
                /* Copy data going backward */
                for (j = 0; j < olen - 1; j++)
                    st->mem[i * st->mem_alloc_size + (st->filt_len - 2 - j)] =
                        st->mem[i * st->mem_alloc_size + (olen - 2 - j)];
                /* Then put zeros for lack of anything better */
                for (; j < st->filt_len - 1; j++)
                    st->mem[i * st->mem_alloc_size + (st->filt_len - 2 - j)] = 0;
                /* Adjust last_sample */
                st->last_sample[i] += (st->filt_len - olen) / 2;
            } else {
                /* Put back some of the magic! */
                st->magic_samples[i] = (olen - st->filt_len) / 2;
                for (j = 0; j < st->filt_len - 1 + st->magic_samples[i]; j++)
                    st->mem[i * st->mem_alloc_size + j] =
                        st->mem[i * st->mem_alloc_size + j + st->magic_samples[i]];
            }
        }
    } else if (st->filt_len < old_length) {
        uint32_t i;
        /* Reduce filter length: keep some of the memory as "magic" samples
           to be used directly as input the next time(s) */
        for (i = 0; i < st->nb_channels; i++) {
            uint32_t j;
            uint32_t old_magic = st->magic_samples[i];
            st->magic_samples[i] = (old_length - st->filt_len) / 2;
            for (j = 0; j < st->filt_len - 1 + st->magic_samples[i] + old_magic; j++)
                st->mem[i * st->mem_alloc_size + j] =
                    st->mem[i * st->mem_alloc_size + j + st->magic_samples[i]];
            st->magic_samples[i] += old_magic;
        }
    }
    return CT_RESAMPLER_ERR_SUCCESS;

fail:
    st->filter_ok = 0;
    /* st->mem may still hold consumed input samples for the filter: filt_len
       - 1 must still point past the last of them. */
    st->filt_len = old_length;
    return CT_RESAMPLER_ERR_ALLOC_FAILED;
}

static uint32_t compute_gcd(uint32_t a, uint32_t b)
{
    while (b != 0) {
        uint32_t temp = a;

        a = b;
        b = temp % b;
    }
    return a;
}

/* speex_resampler_set_rate_frac before the filter exists (init only). */
static void set_rate_frac(ct_resampler *st, uint32_t ratio_num, uint32_t ratio_den,
                          uint32_t in_rate, uint32_t out_rate)
{
    uint32_t fact;

    st->in_rate = in_rate;
    st->out_rate = out_rate;
    st->num_rate = ratio_num;
    st->den_rate = ratio_den;

    fact = compute_gcd(st->num_rate, st->den_rate);

    st->num_rate /= fact;
    st->den_rate /= fact;
}

int ct_resampler_init(ct_resampler *st, uint32_t nb_channels, uint32_t in_rate,
                      uint32_t out_rate, int quality, const ct_opus_dsp *dsp)
{
    int filter_err;

    memset(st, 0, sizeof(*st));
    if (nb_channels == 0 || nb_channels > CT_RESAMPLER_MAX_CHANNELS || in_rate == 0 ||
        out_rate == 0 || quality > 10 || quality < 0)
        return CT_RESAMPLER_ERR_INVALID_ARG;
    st->dsp = dsp;
    st->cutoff = 1.f;
    st->nb_channels = nb_channels;
    st->in_stride = 1;
    st->out_stride = 1;
    st->buffer_size = 160;
    st->quality = quality;
    set_rate_frac(st, in_rate, out_rate, in_rate, out_rate);

    filter_err = update_filter(st);
    if (filter_err == CT_RESAMPLER_ERR_SUCCESS)
        st->initialised = 1;
    else
        ct_resampler_destroy(st);
    return filter_err;
}

void ct_resampler_destroy(ct_resampler *st)
{
    free(st->mem);
    free(st->sinc_table);
    st->mem = NULL;
    st->sinc_table = NULL;
    st->sinc_table_length = 0;
    st->mem_alloc_size = 0;
}

static int resampler_run(ct_resampler *st, uint32_t channel_index, const float *in,
                         uint32_t *in_len, float *out, uint32_t *out_len)
{
    if (st->filter_ok)
        return resampler_basic_direct_single(st, channel_index, in, in_len, out, out_len);
    return resampler_basic_zero(st, channel_index, in_len, out, out_len);
}

static int speex_resampler_process_native(ct_resampler *st, uint32_t channel_index,
                                          uint32_t *in_len, float *out, uint32_t *out_len)
{
    int j = 0;
    const int N = st->filt_len;
    int out_sample = 0;
    float *mem = st->mem + channel_index * st->mem_alloc_size;
    uint32_t ilen;

    st->started = 1;

    out_sample = resampler_run(st, channel_index, mem, in_len, out, out_len);

    if (st->last_sample[channel_index] < (int32_t)*in_len)
        *in_len = st->last_sample[channel_index];
    *out_len = out_sample;
    st->last_sample[channel_index] -= *in_len;

    ilen = *in_len;

    for (j = 0; j < N - 1; ++j)
        mem[j] = mem[j + ilen];

    return CT_RESAMPLER_ERR_SUCCESS;
}

static int speex_resampler_magic(ct_resampler *st, uint32_t channel_index, float **out,
                                 uint32_t out_len)
{
    uint32_t tmp_in_len = st->magic_samples[channel_index];
    float *mem = st->mem + channel_index * st->mem_alloc_size;
    const int N = st->filt_len;

    speex_resampler_process_native(st, channel_index, &tmp_in_len, *out, &out_len);

    st->magic_samples[channel_index] -= tmp_in_len;

    /* If we couldn't process all "magic" input samples, save the rest for next time */
    if (st->magic_samples[channel_index]) {
        uint32_t i;
        for (i = 0; i < st->magic_samples[channel_index]; i++)
            mem[N - 1 + i] = mem[N - 1 + i + tmp_in_len];
    }
    *out += out_len * st->out_stride;
    return out_len;
}

int ct_resampler_process_float(ct_resampler *st, uint32_t channel_index, const float *in,
                               uint32_t *in_len, float *out, uint32_t *out_len)
{
    uint32_t j;
    uint32_t ilen = *in_len;
    uint32_t olen = *out_len;
    float *x = st->mem + channel_index * st->mem_alloc_size;
    const int filt_offs = st->filt_len - 1;
    const uint32_t xlen = st->mem_alloc_size - filt_offs;
    const int istride = st->in_stride;

    if (st->magic_samples[channel_index])
        olen -= speex_resampler_magic(st, channel_index, &out, olen);
    if (!st->magic_samples[channel_index]) {
        while (ilen && olen) {
            uint32_t ichunk = (ilen > xlen) ? xlen : ilen;
            uint32_t ochunk = olen;

            if (in) {
                for (j = 0; j < ichunk; ++j)
                    x[j + filt_offs] = in[j * istride];
            } else {
                for (j = 0; j < ichunk; ++j)
                    x[j + filt_offs] = 0;
            }
            speex_resampler_process_native(st, channel_index, &ichunk, out, &ochunk);
            ilen -= ichunk;
            olen -= ochunk;
            out += ochunk * st->out_stride;
            if (in)
                in += ichunk * istride;
        }
    }
    *in_len -= ilen;
    *out_len -= olen;
    return st->filter_ok ? CT_RESAMPLER_ERR_SUCCESS : CT_RESAMPLER_ERR_ALLOC_FAILED;
}

int ct_resampler_process_interleaved_float(ct_resampler *st, const float *in, uint32_t *in_len,
                                           float *out, uint32_t *out_len)
{
    uint32_t i;
    int istride_save, ostride_save;
    uint32_t bak_out_len = *out_len;
    uint32_t bak_in_len = *in_len;
    istride_save = st->in_stride;
    ostride_save = st->out_stride;
    st->in_stride = st->out_stride = st->nb_channels;
    for (i = 0; i < st->nb_channels; i++) {
        *out_len = bak_out_len;
        *in_len = bak_in_len;
        if (in != NULL)
            ct_resampler_process_float(st, i, in + i, in_len, out + i, out_len);
        else
            ct_resampler_process_float(st, i, NULL, in_len, out + i, out_len);
    }
    st->in_stride = istride_save;
    st->out_stride = ostride_save;
    return st->filter_ok ? CT_RESAMPLER_ERR_SUCCESS : CT_RESAMPLER_ERR_ALLOC_FAILED;
}

/* resampler_basic_direct_single's walk, from output 0 to j in one step:
 * after j outputs it has advanced j * num_rate / den_rate input samples
 * (int_advance and frac_advance with their carries) from skip_zeros'
 * filt_len / 2. */
int64_t ct_resampler_input_start(const ct_resampler *st, int64_t j)
{
    return (int64_t)(st->filt_len / 2) + j * st->num_rate / st->den_rate;
}

int64_t ct_resampler_outputs(const ct_resampler *st, int64_t n_in)
{
    /* output j is given once input_start(j) < n_in (the loop's
       last_sample < in_len) */
    int64_t span = n_in - (int64_t)(st->filt_len / 2);
    if (span <= 0)
        return 0;
    return (span * st->den_rate + st->num_rate - 1) / st->num_rate;
}

void ct_resampler_block(const ct_resampler *st, const float *ext_ring, size_t ring_len,
                        int64_t first, int count, float *out, int out_stride)
{
    const int N = st->filt_len;
    /* the ring's index of last_sample, kept by the walk's steps (each
       shorter than the ring) */
    size_t index = (size_t)(ct_resampler_input_start(st, first) % (int64_t)ring_len);
    uint32_t samp_frac_num = (uint32_t)(first * st->num_rate % st->den_rate);
    int i;

    for (i = 0; i < count; i++) {
        const float *sinct = &st->sinc_table[samp_frac_num * N];
        out[out_stride * i] = st->dsp->resampler_inner_product(sinct, &ext_ring[index], N);
        index += st->int_advance;
        samp_frac_num += st->frac_advance;
        if (samp_frac_num >= st->den_rate) {
            samp_frac_num -= st->den_rate;
            index++;
        }
        if (index >= ring_len)
            index -= ring_len;
    }
}

int ct_resampler_get_input_latency(const ct_resampler *st)
{
    return st->filt_len / 2;
}

int ct_resampler_get_output_latency(const ct_resampler *st)
{
    return ((st->filt_len / 2) * st->den_rate + (st->num_rate >> 1)) / st->num_rate;
}

int ct_resampler_skip_zeros(ct_resampler *st)
{
    uint32_t i;
    for (i = 0; i < st->nb_channels; i++)
        st->last_sample[i] = st->filt_len / 2;
    return CT_RESAMPLER_ERR_SUCCESS;
}
