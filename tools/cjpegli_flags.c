/*
 * cjpegli's encoder flags -> ct_jpeg_settings. Flag names, value ranges and
 * the cross-flag checks follow cjpegli (tools/cjpegli.cc in jpegli).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cjpegli_flags.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"

void ct_cjpegli_flags_init(ct_cjpegli_flags *flags)
{
    memset(flags, 0, sizeof(*flags));
    ct_jpeg_settings_default(&flags->settings);
}

/*
 * Matches argv[*i] against a flag with a short name (or 0) and a long name.
 * Flags with a value take it from "--long=value" or from the next argument.
 * Returns 1 on a match (*value set for value flags), 0 on no match, -1 when
 * the value is missing or a boolean flag is given one.
 */
static int match(int argc, char **argv, int *i, char short_name,
                 const char *long_name, const char **value,
                 char *errbuf, size_t errbuf_size)
{
    const char *arg = argv[*i];
    size_t long_len = strlen(long_name);
    int is_short = short_name && arg[0] == '-' && arg[1] == short_name &&
                   arg[2] == '\0';
    int is_long = strncmp(arg, "--", 2) == 0 &&
                  strncmp(arg + 2, long_name, long_len) == 0 &&
                  (arg[2 + long_len] == '\0' || arg[2 + long_len] == '=');
    if (!is_short && !is_long)
        return 0;
    const char *inline_value = is_long && arg[2 + long_len] == '=' ?
                               arg + 3 + long_len : NULL;
    if (!value) {
        if (inline_value)
            return ct_errbuf_set(errbuf, errbuf_size, -1, "--%s takes no value", long_name);
        return 1;
    }
    if (inline_value) {
        *value = inline_value;
    } else if (*i + 1 < argc) {
        *value = argv[++*i];
    } else {
        return ct_errbuf_set(errbuf, errbuf_size, -1, "%s needs a value", arg);
    }
    return 1;
}

static int parse_int(const char *name, const char *text, int min, int max,
                     int *out, char *errbuf, size_t errbuf_size)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || end == text || *end || value < min || value > max)
        return ct_errbuf_set(errbuf, errbuf_size, -1,
                    "invalid --%s '%s' (an integer %d..%d)", name, text, min, max);
    *out = (int)value;
    return 0;
}

static int parse_float(const char *name, const char *text, float min,
                       float max, float *out, char *errbuf, size_t errbuf_size)
{
    char *end;
    errno = 0;
    float value = strtof(text, &end);
    if (errno || end == text || *end || !(value >= min && value <= max))
        return ct_errbuf_set(errbuf, errbuf_size, -1, "invalid --%s '%s' (a number %g..%g)",
                    name, text, min, max);
    *out = value;
    return 0;
}

int ct_cjpegli_flags_parse(ct_cjpegli_flags *flags, int argc, char **argv,
                           int *i, char *errbuf, size_t errbuf_size)
{
    ct_jpeg_settings *s = &flags->settings;
    const char *value = NULL;
    int m;

#define MATCH(short_name, long_name, value_ptr)                              \
    ((m = match(argc, argv, i, short_name, long_name, value_ptr, errbuf,     \
                errbuf_size)) != 0)

    if (MATCH('q', "quality", &value)) {
        if (m < 0 || parse_int("quality", value, 1, 100, &s->quality, errbuf,
                               errbuf_size) < 0)
            return -1;
        flags->quality_set = 1;
    } else if (MATCH('d', "distance", &value)) {
        if (m < 0 || parse_float("distance", value, 0.0f, 25.0f, &s->distance,
                                 errbuf, errbuf_size) < 0)
            return -1;
        flags->distance_set = 1;
    } else if (MATCH('p', "progressive_level", &value)) {
        if (m < 0 || parse_int("progressive_level", value, 0, 2,
                               &s->progressive_level, errbuf, errbuf_size) < 0)
            return -1;
    } else if (MATCH(0, "chroma_subsampling", &value)) {
        if (m < 0)
            return -1;
        if (strcmp(value, "444") == 0)
            s->chroma_subsampling = CT_JPEG_SUBSAMPLING_444;
        else if (strcmp(value, "440") == 0)
            s->chroma_subsampling = CT_JPEG_SUBSAMPLING_440;
        else if (strcmp(value, "422") == 0)
            s->chroma_subsampling = CT_JPEG_SUBSAMPLING_422;
        else if (strcmp(value, "420") == 0)
            s->chroma_subsampling = CT_JPEG_SUBSAMPLING_420;
        else
            return ct_errbuf_set(errbuf, errbuf_size, -1,
                        "invalid --chroma_subsampling '%s' (444, 440, 422 or 420)",
                        value);
    } else if (MATCH(0, "xyb", NULL)) {
        if (m < 0)
            return -1;
        s->xyb = 1;
    } else if (MATCH(0, "std_quant", NULL)) {
        if (m < 0)
            return -1;
        s->std_quant = 1;
    } else if (MATCH(0, "noadaptive_quantization", NULL)) {
        if (m < 0)
            return -1;
        s->adaptive_quantization = 0;
    } else if (MATCH(0, "fixed_code", NULL)) {
        if (m < 0)
            return -1;
        s->fixed_code = 1;
    } else if (MATCH(0, "simd", &value)) {
        if (m < 0)
            return -1;
        if (strcmp(value, "auto") == 0)
            s->simd = CT_SIMD_AUTO;
        else if (strcmp(value, "sse2") == 0)
            s->simd = CT_SIMD_SSE2;
        else if (strcmp(value, "avx2") == 0)
            s->simd = CT_SIMD_AVX2;
        else
            return ct_errbuf_set(errbuf, errbuf_size, -1,
                        "invalid --simd '%s' (auto, sse2 or avx2)", value);
    } else {
        return 0;
    }
#undef MATCH
    ++*i;
    return 1;
}

int ct_cjpegli_flags_finish(const ct_cjpegli_flags *flags,
                            char *errbuf, size_t errbuf_size)
{
    if (flags->quality_set && flags->distance_set)
        return ct_errbuf_set(errbuf, errbuf_size, -1,
                    "only one of --distance and --quality can be set");
    if (flags->settings.fixed_code && flags->settings.progressive_level > 0)
        return ct_errbuf_set(errbuf, errbuf_size, -1,
                    "--fixed_code must be used together with -p 0");
    return 0;
}

int ct_cjpegli_flags_from_string(const char *string, ct_jpeg_settings *settings,
                                 char *errbuf, size_t errbuf_size)
{
    enum { MAX_WORDS = 32 };
    char copy[512];
    if (strlen(string) >= sizeof(copy))
        return ct_errbuf_set(errbuf, errbuf_size, -1, "flag string too long: %s", string);
    strcpy(copy, string);

    char *words[MAX_WORDS];
    int count = 0;
    char *save = NULL;
    for (char *word = strtok_r(copy, " \t", &save); word;
         word = strtok_r(NULL, " \t", &save)) {
        if (count == MAX_WORDS)
            return ct_errbuf_set(errbuf, errbuf_size, -1, "too many flags: %s", string);
        words[count++] = word;
    }

    ct_cjpegli_flags flags;
    ct_cjpegli_flags_init(&flags);
    for (int i = 0; i < count;) {
        int r = ct_cjpegli_flags_parse(&flags, count, words, &i, errbuf,
                                       errbuf_size);
        if (r < 0)
            return -1;
        if (r == 0)
            return ct_errbuf_set(errbuf, errbuf_size, -1, "unknown flag '%s'", words[i]);
    }
    if (ct_cjpegli_flags_finish(&flags, errbuf, errbuf_size) < 0)
        return -1;
    *settings = flags.settings;
    return 0;
}
