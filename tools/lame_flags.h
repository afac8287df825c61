/*
 * lame's encoder flags -> ct_mp3_settings, shared by ctlame and
 * bench/mp3_stages.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_LAME_FLAGS_H
#define CT_TOOLS_LAME_FLAGS_H

#include <stddef.h>

#include "ctcore/mp3.h"

typedef struct ct_lame_flags {
    ct_mp3_settings settings;
    /* the one of -V, -b and --abr given, or NULL: ct_mp3_settings cannot
     * say what lame makes of them combined */
    const char *rate_flag;
} ct_lame_flags;

/* ct_mp3_settings_default, no rate flag yet. */
void ct_lame_flags_init(ct_lame_flags *flags);

/*
 * If argv[*i] is one of lame's flags
 *   -V Q, -b N, --abr N, -q N, -m j|s|m, --noreplaygain, -t
 * (the values of -V, -b, -q and -m also attached: "-V2"), or our
 * --simd=auto|c|sse2|avx2 (also "--simd c"; settings.simd), applies it as
 * lame does (clamping where lame clamps), advances *i past it and its
 * value and returns 1. Returns 0 when argv[*i] is some other argument, -1
 * with a message in errbuf when the value is invalid or a second rate
 * control flag follows the first.
 */
int ct_lame_flags_parse(ct_lame_flags *flags, int argc, char **argv, int *i,
                        char *errbuf, size_t errbuf_size);

/* Once all flags are read: the input's rate and channels into the
 * settings, and without -V, -b or --abr lame's default, CBR at the bitrate
 * lame picks (settings.bitrate 0). */
void ct_lame_flags_finish(ct_lame_flags *flags, int sample_rate, int channels);

#endif
