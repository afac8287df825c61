/*
 * ReplayGain analysis, as LAME runs it on the encoder's input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/gain_analysis.c (Glen Sawyer, David
 * Robinson) (LGPL-2.0-or-later, the LAME project).
 */
#include "replaygain.h"

#include <math.h>
#include <string.h>

#include "common/cpu.h"
#include "replaygain_dsp.h"

#define MAX_ORDER CT_MP3_RG_MAX_ORDER
#define PINK_REF 64.82 /* calibration value for 89 dB */
#define RMS_PERCENTILE 0.95 /* percentile which is louder than the proposed level */
#define RMS_WINDOW_TIME_NUMERATOR 1L
#define RMS_WINDOW_TIME_DENOMINATOR 20L /* numerator / denominator = block length in s */
#define STEPS_per_dB CT_MP3_RG_STEPS_PER_DB

/* Filter coefficients per rate, [0] 48 kHz, [1] 44.1 kHz, [2] 32 kHz,
 * [3] 24 kHz, [4] 22050 Hz, [5] 16 kHz, [6] 12 kHz, [7] 11025 Hz, [8] 8 kHz.
 * Float literals rounded to float, as LAME's Float_t tables. */
static const float ABYule[9][2 * CT_MP3_RG_YULE_ORDER + 1] = {
    /* b[10], b[9], ..., b[0] (input taps from the oldest), then a[10], ..., a[1] */
    { /* 48 kHz */
        0.00288463683916, 0.00012025322027, 0.00306428023191, 0.00594298065125,
        -0.02074045215285, 0.02161526843274, -0.01655260341619, -0.00009291677959,
        -0.00123395316851, -0.02160367184185, 0.03857599435200, 0.13919314567432,
        -0.86984376593551, 2.75465861874613, -5.87257861775999, 9.48293806319790,
        -12.28759895145294, 13.05504219327545, -11.34170355132042, 7.81501653005538,
        -3.84664617118067,
    },
    { /* 44.1 kHz */
        -0.00187763777362, 0.00674613682247, -0.00240879051584, 0.01624864962975,
        -0.02596338512915, 0.02245293253339, -0.00834990904936, -0.00851165645469,
        -0.00848709379851, -0.02911007808948, 0.05418656406430, 0.13149317958808,
        -0.75104302451432, 2.19611684890774, -4.39470996079559, 6.85401540936998,
        -8.81498681370155, 9.47693607801280, -8.54751527471874, 6.36317777566148,
        -3.47845948550071,
    },
    { /* 32 kHz */
        -0.00881362733839, 0.00651420667831, -0.01390589421898, 0.03174092540049,
        0.00222312597743, 0.04781476674921, -0.05588393329856, 0.02163541888798,
        -0.06247880153653, -0.09331049056315, 0.15457299681924, 0.02347897407020,
        -0.05032077717131, 0.16378164858596, -0.45953458054983, 1.00595954808547,
        -1.67148153367602, 2.23697657451713, -2.64577170229825, 2.84868151156327,
        -2.37898834973084,
    },
    { /* 24 kHz */
        -0.02950134983287, 0.00205861885564, -0.00000828086748, 0.06276101321749,
        -0.00584456039913, -0.02364141202522, -0.00915702933434, 0.03282930172664,
        -0.08587323730772, -0.22613988682123, 0.30296907319327, 0.00302439095741,
        0.02005851806501, 0.04500235387352, -0.22138138954925, 0.39120800788284,
        -0.22638893773906, -0.16276719120440, -0.25656257754070, 1.07977492259970,
        -1.61273165137247,
    },
    { /* 22050 Hz */
        -0.01760176568150, -0.01635381384540, 0.00832043980773, 0.05724228140351,
        -0.00589500224440, -0.00469977914380, -0.07834489609479, 0.11921148675203,
        -0.11828570177555, -0.25572241425570, 0.33642304856132, 0.02977207319925,
        -0.04237348025746, 0.08333755284107, -0.04067510197014, -0.12453458140019,
        0.47854794562326, -0.80774944671438, 0.12205022308084, 0.87350271418188,
        -1.49858979367799,
    },
    { /* 16 kHz */
        0.00541907748707, -0.03193428438915, -0.01863887810927, 0.10478503600251,
        0.04097565135648, -0.12398163381748, 0.04078262797139, -0.01419140100551,
        -0.22784394429749, -0.14351757464547, 0.44915256608450, 0.03222754072173,
        0.05784820375801, 0.06747620744683, 0.00613424350682, 0.22199650564824,
        -0.42029820170918, 0.00213767857124, -0.37256372942400, 0.29661783706366,
        -0.62820619233671,
    },
    { /* 12 kHz */
        -0.00588215443421, -0.03788984554840, 0.08647503780351, 0.00647310677246,
        -0.27562961986224, 0.30931782841830, -0.18901604199609, 0.16744243493672,
        0.16242137742230, -0.75464456939302, 0.56619470757641, 0.01807364323573,
        0.01639907836189, -0.04784254229033, 0.06739368333110, -0.33032403314006,
        0.45054734505008, 0.00819999645858, -0.26806001042947, 0.29156311971249,
        -1.04800335126349,
    },
    { /* 11025 Hz */
        -0.00749618797172, -0.03721611395801, 0.06920467763959, 0.01628462406333,
        -0.25344790059353, 0.15558449135573, 0.02377945217615, 0.17520704835522,
        -0.14289799034253, -0.53174909058578, 0.58100494960553, 0.01818801111503,
        0.02442357316099, -0.02505961724053, -0.05246019024463, -0.23313271880868,
        0.38952639978999, 0.14728154134330, -0.20256413484477, -0.31863563325245,
        -0.51035327095184,
    },
    { /* 8 kHz */
        -0.02217936801134, 0.04788665548180, -0.04060034127000, -0.11202315195388,
        -0.02459864859345, 0.14590772289388, -0.10214864179676, 0.04267842219415,
        -0.00275953611929, -0.42163034350696, 0.53648789255105, 0.04704409688120,
        0.05477720428674, -0.18823009262115, -0.17556493366449, 0.15113130533216,
        0.26408300200955, -0.04678328784242, -0.03424681017675, -0.43193942311114,
        -0.25049871956020,
    },
};

static const float ABButter[9][2 * 2 + 1] = {
    /* b[2], a[2], b[1], a[1], b[0] */
    { /* 48 kHz */
        0.98621192462708, 0.97261396931306, -1.97242384925416, -1.97223372919527,
        0.98621192462708,
    },
    { /* 44.1 kHz */
        0.98500175787242, 0.97022847566350, -1.97000351574484, -1.96977855582618,
        0.98500175787242,
    },
    { /* 32 kHz */
        0.97938932735214, 0.95920349965459, -1.95877865470428, -1.95835380975398,
        0.97938932735214,
    },
    { /* 24 kHz */
        0.97531843204928, 0.95124613669835, -1.95063686409857, -1.95002759149878,
        0.97531843204928,
    },
    { /* 22050 Hz */
        0.97316523498161, 0.94705070426118, -1.94633046996323, -1.94561023566527,
        0.97316523498161,
    },
    { /* 16 kHz */
        0.96454515552826, 0.93034775234268, -1.92909031105652, -1.92783286977036,
        0.96454515552826,
    },
    { /* 12 kHz */
        0.96009142950541, 0.92177618768381, -1.92018285901082, -1.91858953033784,
        0.96009142950541,
    },
    { /* 11025 Hz */
        0.95856916599601, 0.91885558323625, -1.91713833199203, -1.91542108074780,
        0.95856916599601,
    },
    { /* 8 kHz */
        0.94597685600279, 0.89487434461664, -1.89195371200558, -1.88903307939452,
        0.94597685600279,
    },
};

/* ---- the equal loudness filter ------------------------------------------ */

/* filterYule: input[-10..0] and output[-10..-1] must be valid. */
static void filter_yule(const float *input, float *output, size_t nSamples,
                        const float *const kernel)
{
    while (nSamples--) {
        float y0 = input[-10] * kernel[0];
        float y2 = input[-9] * kernel[1];
        float y4 = input[-8] * kernel[2];
        float y6 = input[-7] * kernel[3];
        float s00 = y0 + y2 + y4 + y6;
        float y8 = input[-6] * kernel[4];
        float yA = input[-5] * kernel[5];
        float yC = input[-4] * kernel[6];
        float yE = input[-3] * kernel[7];
        float s01 = y8 + yA + yC + yE;
        float yG = input[-2] * kernel[8] + input[-1] * kernel[9];
        float yK = input[0] * kernel[10];

        float s1 = s00 + s01 + yG + yK;

        float x1 = output[-10] * kernel[11] + output[-9] * kernel[12];
        float x5 = output[-8] * kernel[13] + output[-7] * kernel[14];
        float x9 = output[-6] * kernel[15] + output[-5] * kernel[16];
        float xD = output[-4] * kernel[17] + output[-3] * kernel[18];
        float xH = output[-2] * kernel[19] + output[-1] * kernel[20];

        float s2 = x1 + x5 + x9 + xD + xH;

        output[0] = (float)(s1 - s2);

        ++output;
        ++input;
    }
}

static void filter_butter(const float *input, float *output, size_t nSamples,
                          const float *const kernel)
{
    while (nSamples--) {
        float s1 = input[-2] * kernel[0] + input[-1] * kernel[2] + input[0] * kernel[4];
        float s2 = output[-2] * kernel[1] + output[-1] * kernel[3];
        output[0] = (float)(s1 - s2);
        ++output;
        ++input;
    }
}

void ct_mp3_rg_filter_c(const float *in_l, const float *in_r, float *step_l, float *step_r,
                        float *out_l, float *out_r, size_t n, const float *yule,
                        const float *butter)
{
    filter_yule(in_l, step_l, n, yule);
    filter_yule(in_r, step_r, n, yule);
    filter_butter(step_l, out_l, n, butter);
    filter_butter(step_r, out_r, n, butter);
}

void ct_mp3_replaygain_dsp_init(ct_mp3_replaygain_dsp *dsp, unsigned cpu_flags)
{
    dsp->rg_filter = ct_mp3_rg_filter_c;
#if defined(__x86_64__)
    if (cpu_flags & CT_CPU_FLAG_SSE2)
        dsp->rg_filter = ct_mp3_rg_filter_sse2;
#else
    (void)cpu_flags;
#endif
}

int ct_mp3_init_gain_analysis(ct_mp3_replaygain *rgData, long samplefreq)
{
    memset(rgData->linprebuf, 0, MAX_ORDER * sizeof(*rgData->linprebuf));
    memset(rgData->rinprebuf, 0, MAX_ORDER * sizeof(*rgData->rinprebuf));
    memset(rgData->lstepbuf, 0, MAX_ORDER * sizeof(*rgData->lstepbuf));
    memset(rgData->rstepbuf, 0, MAX_ORDER * sizeof(*rgData->rstepbuf));
    memset(rgData->loutbuf, 0, MAX_ORDER * sizeof(*rgData->loutbuf));
    memset(rgData->routbuf, 0, MAX_ORDER * sizeof(*rgData->routbuf));

    switch ((int)samplefreq) {
    case 48000: rgData->freqindex = 0; break;
    case 44100: rgData->freqindex = 1; break;
    case 32000: rgData->freqindex = 2; break;
    case 24000: rgData->freqindex = 3; break;
    case 22050: rgData->freqindex = 4; break;
    case 16000: rgData->freqindex = 5; break;
    case 12000: rgData->freqindex = 6; break;
    case 11025: rgData->freqindex = 7; break;
    case 8000: rgData->freqindex = 8; break;
    default: return 0;
    }

    rgData->sampleWindow = (samplefreq * RMS_WINDOW_TIME_NUMERATOR +
                        RMS_WINDOW_TIME_DENOMINATOR - 1) /
                       RMS_WINDOW_TIME_DENOMINATOR;

    rgData->lsum = 0.;
    rgData->rsum = 0.;
    rgData->totsamp = 0;

    memset(rgData->A, 0, sizeof(rgData->A));
    return 1;
}

int ct_mp3_analyze_samples(ct_mp3_replaygain *rgData, const ct_mp3_replaygain_dsp *dsp,
                           const float *left_samples, const float *right_samples,
                           size_t num_samples, int num_channels)
{
    const float *curleft;
    const float *curright;
    long batchsamples;
    long cursamples;
    long cursamplepos;
    int i;
    float sum_l, sum_r;

    if (num_samples == 0)
        return 1;

    cursamplepos = 0;
    batchsamples = (long)num_samples;

    switch (num_channels) {
    case 1: right_samples = left_samples; break;
    case 2: break;
    default: return 0;
    }

    if (num_samples < MAX_ORDER) {
        memcpy(rgData->linprebuf + MAX_ORDER, left_samples, num_samples * sizeof(float));
        memcpy(rgData->rinprebuf + MAX_ORDER, right_samples, num_samples * sizeof(float));
    } else {
        memcpy(rgData->linprebuf + MAX_ORDER, left_samples, MAX_ORDER * sizeof(float));
        memcpy(rgData->rinprebuf + MAX_ORDER, right_samples, MAX_ORDER * sizeof(float));
    }

    while (batchsamples > 0) {
        float *const lstep = rgData->lstepbuf + MAX_ORDER + rgData->totsamp;
        float *const rstep = rgData->rstepbuf + MAX_ORDER + rgData->totsamp;
        float *const lout = rgData->loutbuf + MAX_ORDER + rgData->totsamp;
        float *const rout = rgData->routbuf + MAX_ORDER + rgData->totsamp;

        cursamples = batchsamples > rgData->sampleWindow - rgData->totsamp
                         ? rgData->sampleWindow - rgData->totsamp
                         : batchsamples;
        if (cursamplepos < MAX_ORDER) {
            curleft = rgData->linprebuf + MAX_ORDER + cursamplepos;
            curright = rgData->rinprebuf + MAX_ORDER + cursamplepos;
            if (cursamples > MAX_ORDER - cursamplepos)
                cursamples = MAX_ORDER - cursamplepos;
        } else {
            curleft = left_samples + cursamplepos;
            curright = right_samples + cursamplepos;
        }

        /* filterYule and filterButter of both channels (replaygain_dsp.h: rg_filter) */
        dsp->rg_filter(curleft, curright, lstep, rstep, lout, rout, (size_t)cursamples,
                       ABYule[rgData->freqindex], ABButter[rgData->freqindex]);

        /* the squared values */
        curleft = lout;
        curright = rout;

        sum_l = 0;
        sum_r = 0;
        i = cursamples & 0x03;
        while (i--) {
            float const l = *curleft++;
            float const r = *curright++;
            sum_l += l * l;
            sum_r += r * r;
        }
        i = cursamples / 4;
        while (i--) {
            float l0 = curleft[0] * curleft[0];
            float l1 = curleft[1] * curleft[1];
            float l2 = curleft[2] * curleft[2];
            float l3 = curleft[3] * curleft[3];
            float sl = l0 + l1 + l2 + l3;
            float r0 = curright[0] * curright[0];
            float r1 = curright[1] * curright[1];
            float r2 = curright[2] * curright[2];
            float r3 = curright[3] * curright[3];
            float sr = r0 + r1 + r2 + r3;
            sum_l += sl;
            curleft += 4;
            sum_r += sr;
            curright += 4;
        }
        rgData->lsum += sum_l;
        rgData->rsum += sum_r;

        batchsamples -= cursamples;
        cursamplepos += cursamples;
        rgData->totsamp += cursamples;
        if (rgData->totsamp == rgData->sampleWindow) {
            /* the root mean square of this block */
            double const val =
                STEPS_per_dB * 10. *
                log10((rgData->lsum + rgData->rsum) / rgData->totsamp * 0.5 + 1.e-37);
            size_t ival = (val <= 0) ? 0 : (size_t)val;
            if (ival >= sizeof(rgData->A) / sizeof(*(rgData->A)))
                ival = sizeof(rgData->A) / sizeof(*(rgData->A)) - 1;
            rgData->A[ival]++;
            rgData->lsum = rgData->rsum = 0.;
            memmove(rgData->loutbuf, rgData->loutbuf + rgData->totsamp,
                    MAX_ORDER * sizeof(float));
            memmove(rgData->routbuf, rgData->routbuf + rgData->totsamp,
                    MAX_ORDER * sizeof(float));
            memmove(rgData->lstepbuf, rgData->lstepbuf + rgData->totsamp,
                    MAX_ORDER * sizeof(float));
            memmove(rgData->rstepbuf, rgData->rstepbuf + rgData->totsamp,
                    MAX_ORDER * sizeof(float));
            rgData->totsamp = 0;
        }
        if (rgData->totsamp > rgData->sampleWindow)
            return 0;
    }
    if (num_samples < MAX_ORDER) {
        memmove(rgData->linprebuf, rgData->linprebuf + num_samples,
                (MAX_ORDER - num_samples) * sizeof(float));
        memmove(rgData->rinprebuf, rgData->rinprebuf + num_samples,
                (MAX_ORDER - num_samples) * sizeof(float));
        memcpy(rgData->linprebuf + MAX_ORDER - num_samples, left_samples,
               num_samples * sizeof(float));
        memcpy(rgData->rinprebuf + MAX_ORDER - num_samples, right_samples,
               num_samples * sizeof(float));
    } else {
        memcpy(rgData->linprebuf, left_samples + num_samples - MAX_ORDER,
               MAX_ORDER * sizeof(float));
        memcpy(rgData->rinprebuf, right_samples + num_samples - MAX_ORDER,
               MAX_ORDER * sizeof(float));
    }
    return 1;
}

static float analyze_result(uint32_t const *Array, size_t len)
{
    uint32_t elems;
    uint32_t upper;
    uint32_t sum;
    size_t i;

    elems = 0;
    for (i = 0; i < len; i++)
        elems += Array[i];
    if (elems == 0)
        return CT_MP3_GAIN_NOT_ENOUGH_SAMPLES;

    upper = (uint32_t)ceil(elems * (1. - RMS_PERCENTILE));
    sum = 0;
    for (i = len; i-- > 0;) {
        sum += Array[i];
        if (sum >= upper)
            break;
    }

    return (float)((float)PINK_REF - (float)i / (float)STEPS_per_dB);
}

float ct_mp3_get_title_gain(ct_mp3_replaygain *rgData)
{
    float retval;
    unsigned int i;

    retval = analyze_result(rgData->A, sizeof(rgData->A) / sizeof(*(rgData->A)));

    memset(rgData->A, 0, sizeof(rgData->A));
    for (i = 0; i < MAX_ORDER; i++)
        rgData->linprebuf[i] = rgData->lstepbuf[i] = rgData->loutbuf[i] =
            rgData->rinprebuf[i] = rgData->rstepbuf[i] = rgData->routbuf[i] = 0.f;

    rgData->totsamp = 0;
    rgData->lsum = rgData->rsum = 0.;
    return retval;
}
