/*
 * CPU features, detected once by CPUID and the OS's saved register state,
 * and capped by the environment variable CT_SIMD: the one detector every
 * encoder's *_dsp_init takes its flags from.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_COMMON_CPU_H
#define CTCORE_COMMON_CPU_H

#include "ctcore/ctcore.h"

enum {
    CT_CPU_FLAG_SSE2 = 1 << 0,
    CT_CPU_FLAG_AVX2 = 1 << 1, /* AVX2 and FMA, with YMM state saved by the OS */
    CT_CPU_FLAG_SSE41 = 1 << 2, /* only in ct_cpu_flags_detected() */
};

/*
 * The flags of this CPU, less those above the level CT_SIMD names:
 * CT_SIMD=c keeps none, sse2 keeps SSE2, avx2 (or unset, or any other
 * value) keeps all. Kernels of a level are used only where its flag is set.
 */
unsigned ct_cpu_flags(void);

/* The flags a `simd` setting allows on this CPU: CT_SIMD_AUTO all of
 * ct_cpu_flags(), CT_SIMD_C none, CT_SIMD_SSE2 at most SSE2, CT_SIMD_AVX2
 * at most AVX2. */
unsigned ct_cpu_flags_for(ct_simd simd);

/* What the CPU has, CT_SIMD ignored: for the few results that follow the
 * CPU the reference runs on rather than a SIMD level of ours (libopus
 * picks its SILK VAD by the CPU's SSE4.1 at run time). */
unsigned ct_cpu_flags_detected(void);

#endif
