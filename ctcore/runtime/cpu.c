/*
 * Which SIMD target's arithmetic to reproduce: CPUID and the OS's saved
 * register state decide, the environment variable CT_SIMD overrides.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "ctcore/ctcore.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0 via XGETBV, spelled as an instruction so no -mxsave is needed. */
static unsigned long long read_xcr0(void)
{
    unsigned int eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

/* AVX2 and FMA in the CPU, and the OS saves the YMM registers. */
static int cpu_has_avx2_fma(void)
{
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid_count(1, 0, &eax, &ebx, &ecx, &edx))
        return 0;
    const int fma = (ecx >> 12) & 1;
    const int osxsave = (ecx >> 27) & 1;
    const int avx = (ecx >> 28) & 1;
    if (!fma || !osxsave || !avx)
        return 0;
    /* XMM (bit 1) and YMM (bit 2) state enabled by the OS. */
    if ((read_xcr0() & 6) != 6)
        return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return 0;
    return (ebx >> 5) & 1;
}
#else
static int cpu_has_avx2_fma(void)
{
    return 0;
}
#endif

/* CT_SIMD=sse2|avx2, or CT_SIMD_AUTO when unset or unrecognized. */
static ct_simd simd_from_environment(void)
{
    const char *value = getenv("CT_SIMD");
    if (value == NULL)
        return CT_SIMD_AUTO;
    if (strcmp(value, "sse2") == 0)
        return CT_SIMD_SSE2;
    if (strcmp(value, "avx2") == 0)
        return CT_SIMD_AVX2;
    return CT_SIMD_AUTO;
}

/* An explicit request is honored even without AVX2 hardware: the scalar
 * kernels reproduce the avx2 arithmetic (fmaf) anyway. */
ct_simd ct_simd_resolve(ct_simd requested)
{
    if (requested == CT_SIMD_SSE2 || requested == CT_SIMD_AVX2)
        return requested;
    const ct_simd from_env = simd_from_environment();
    if (from_env != CT_SIMD_AUTO)
        return from_env;
    return cpu_has_avx2_fma() ? CT_SIMD_AVX2 : CT_SIMD_SSE2;
}

const char *ct_simd_name(ct_simd simd)
{
    switch (simd) {
    case CT_SIMD_SSE2:
        return "sse2";
    case CT_SIMD_AVX2:
        return "avx2";
    case CT_SIMD_AUTO:
        return "auto";
    }
    return "unknown";
}
