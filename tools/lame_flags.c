/*
 * lame's encoder flags -> ct_mp3_settings. Flag names, value forms and
 * clamps follow lame 3.100's frontend (parse.c) and lame_set_*.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "lame_flags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"

void ct_lame_flags_init(ct_lame_flags *flags)
{
    ct_mp3_settings_default(&flags->settings);
    flags->rate_flag = NULL;
}

/*
 * The value of a flag that takes one, written either attached ("-V2") or as
 * the next argument ("-V 2"), as lame accepts them. NULL when missing.
 */
static const char *flag_value(const char *arg, size_t flag_len, int argc,
                              char **argv, int *i)
{
    if (arg[flag_len] != '\0')
        return arg + flag_len;
    return *i < argc ? argv[(*i)++] : NULL;
}

static int parse_int(const char *flag, const char *value, int *out,
                     char *errbuf, size_t errbuf_size)
{
    char *end;
    long v = value ? strtol(value, &end, 10) : 0;
    if (!value || end == value || *end != '\0' || v < -1000000 ||
        v > 1000000)
        return ct_errbuf_set(errbuf, errbuf_size, -1, "%s needs an integer, not '%s'",
                    flag, value ? value : "");
    *out = (int)v;
    return 0;
}

static int parse_float(const char *flag, const char *value, float *out,
                       char *errbuf, size_t errbuf_size)
{
    char *end;
    double v = value ? strtod(value, &end) : 0;
    if (!value || end == value || *end != '\0')
        return ct_errbuf_set(errbuf, errbuf_size, -1, "%s needs a number, not '%s'", flag,
                    value ? value : "");
    *out = (float)v;
    return 0;
}

int ct_lame_flags_parse(ct_lame_flags *flags, int argc, char **argv, int *i,
                        char *errbuf, size_t errbuf_size)
{
    ct_mp3_settings *settings = &flags->settings;
    const char *arg = argv[*i];
    const char *rate_flag = NULL;

    if (strcmp(arg, "--noreplaygain") == 0) {
        (*i)++;
        settings->replaygain = 0;
    } else if (strcmp(arg, "-t") == 0) {
        (*i)++;
        settings->lametag = 0;
    } else if (strncmp(arg, "-V", 2) == 0) {
        (*i)++;
        if (parse_float("-V", flag_value(arg, 2, argc, argv, i),
                        &settings->vbr_quality, errbuf, errbuf_size) < 0)
            return -1;
        /* lame_set_VBR_quality clamps to its range. */
        if (settings->vbr_quality < 0.0f)
            settings->vbr_quality = 0.0f;
        if (settings->vbr_quality > 9.999f)
            settings->vbr_quality = 9.999f;
        settings->rate_control = CT_MP3_VBR;
        rate_flag = "-V";
    } else if (strncmp(arg, "-b", 2) == 0) {
        (*i)++;
        if (parse_int("-b", flag_value(arg, 2, argc, argv, i),
                      &settings->bitrate, errbuf, errbuf_size) < 0)
            return -1;
        settings->rate_control = CT_MP3_CBR;
        rate_flag = "-b";
    } else if (strcmp(arg, "--abr") == 0) {
        (*i)++;
        if (parse_int("--abr", *i < argc ? argv[(*i)++] : NULL,
                      &settings->bitrate, errbuf, errbuf_size) < 0)
            return -1;
        /* lame's parser: 8000 and up are bit/s, and it clamps to
         * 8..320 kbit/s. */
        if (settings->bitrate >= 8000)
            settings->bitrate = (settings->bitrate + 500) / 1000;
        if (settings->bitrate > 320)
            settings->bitrate = 320;
        if (settings->bitrate < 8)
            settings->bitrate = 8;
        settings->rate_control = CT_MP3_ABR;
        rate_flag = "--abr";
    } else if (strncmp(arg, "-q", 2) == 0) {
        (*i)++;
        if (parse_int("-q", flag_value(arg, 2, argc, argv, i),
                      &settings->quality, errbuf, errbuf_size) < 0)
            return -1;
        /* lame_set_quality clamps to 0..9. */
        if (settings->quality < 0)
            settings->quality = 0;
        if (settings->quality > 9)
            settings->quality = 9;
    } else if (strncmp(arg, "-m", 2) == 0) {
        (*i)++;
        const char *mode = flag_value(arg, 2, argc, argv, i);
        if (mode && strcmp(mode, "j") == 0)
            settings->mode = CT_MP3_MODE_JOINT_STEREO;
        else if (mode && strcmp(mode, "s") == 0)
            settings->mode = CT_MP3_MODE_STEREO;
        else if (mode && strcmp(mode, "m") == 0)
            settings->mode = CT_MP3_MODE_MONO;
        else
            return ct_errbuf_set(errbuf, errbuf_size, -1, "-m takes j, s or m, not '%s'",
                        mode ? mode : "");
    } else if (strncmp(arg, "--simd", 6) == 0 &&
               (arg[6] == '=' || arg[6] == '\0')) {
        /* not lame's: the kernel level, which never changes the bytes */
        (*i)++;
        const char *level =
            arg[6] == '=' ? arg + 7 : (*i < argc ? argv[(*i)++] : NULL);
        if (level && strcmp(level, "auto") == 0)
            settings->simd = CT_SIMD_AUTO;
        else if (level && strcmp(level, "c") == 0)
            settings->simd = CT_SIMD_C;
        else if (level && strcmp(level, "sse2") == 0)
            settings->simd = CT_SIMD_SSE2;
        else if (level && strcmp(level, "avx2") == 0)
            settings->simd = CT_SIMD_AVX2;
        else
            return ct_errbuf_set(errbuf, errbuf_size, -1,
                                 "--simd takes auto, c, sse2 or avx2, not '%s'",
                                 level ? level : "");
    } else {
        return 0;
    }

    /* lame combines them (-b with -V sets a minimum bitrate, -V after
     * --abr only sets a quality), which ct_mp3_settings cannot say. */
    if (rate_flag) {
        if (flags->rate_flag && strcmp(flags->rate_flag, rate_flag) != 0)
            return ct_errbuf_set(errbuf, errbuf_size, -1, "use only one of -V, -b and "
                        "--abr (got %s and %s)", flags->rate_flag, rate_flag);
        flags->rate_flag = rate_flag;
    }
    return 1;
}

void ct_lame_flags_finish(ct_lame_flags *flags, int sample_rate, int channels)
{
    ct_mp3_settings *settings = &flags->settings;

    settings->sample_rate = sample_rate;
    settings->channels = channels;
    /* lame without -V, -b or --abr: CBR at the bitrate lame_init_params
     * picks (a compression ratio of 11.025 at the output rate) */
    if (!flags->rate_flag) {
        settings->rate_control = CT_MP3_CBR;
        settings->bitrate = 0;
    }
}
