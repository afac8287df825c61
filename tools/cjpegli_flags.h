/*
 * cjpegli's encoder flags -> ct_jpeg_settings, shared by ctjpeg and by the
 * tests that replay the golden set's flag strings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_CJPEGLI_FLAGS_H
#define CT_TOOLS_CJPEGLI_FLAGS_H

#include <stddef.h>

#include "ctcore/jpeg.h"

typedef struct ct_cjpegli_flags {
    ct_jpeg_settings settings;
    int quality_set;   /* cjpegli allows only one of -q and -d */
    int distance_set;
} ct_cjpegli_flags;

/* cjpegli's defaults; simd is CT_SIMD_AUTO. */
void ct_cjpegli_flags_init(ct_cjpegli_flags *flags);

/*
 * If argv[*i] is one of the settings flags
 *   -q N | --quality N, -d F | --distance F, -p N | --progressive_level N,
 *   --chroma_subsampling 444|440|422|420, --xyb, --std_quant,
 *   --noadaptive_quantization, --fixed_code
 * or ctjpeg's own --simd auto|sse2|avx2 (long flags also as --flag=value),
 * applies it, advances *i past its value and returns 1. Returns 0 when
 * argv[*i] is some other argument, -1 with a message in errbuf when the
 * flag or its value is invalid.
 */
int ct_cjpegli_flags_parse(ct_cjpegli_flags *flags, int argc, char **argv,
                           int *i, char *errbuf, size_t errbuf_size);

/* The checks cjpegli makes once all flags are read. Returns 0 or -1 with a
 * message in errbuf. */
int ct_cjpegli_flags_finish(const ct_cjpegli_flags *flags,
                            char *errbuf, size_t errbuf_size);

/* Parses a space-separated flag string (the golden MANIFEST's flags
 * column) into settings. Returns 0 or -1 with a message in errbuf. */
int ct_cjpegli_flags_from_string(const char *string, ct_jpeg_settings *settings,
                                 char *errbuf, size_t errbuf_size);

#endif
