/*
 * The CPU feature detector (common/cpu.h) and the arithmetic target
 * CT_SIMD_AUTO resolves to (ctcore.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "common/cpu.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0 via XGETBV, spelled as an instruction so no -mxsave is needed. */
static unsigned long long read_xcr0(void)
{
    unsigned int eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

static unsigned detect_flags(void)
{
    unsigned int eax, ebx, ecx, edx;
    unsigned flags = 0;
    if (!__get_cpuid_count(1, 0, &eax, &ebx, &ecx, &edx))
        return 0;
    if ((edx >> 26) & 1)
        flags |= CT_CPU_FLAG_SSE2;
    if ((ecx >> 19) & 1)
        flags |= CT_CPU_FLAG_SSE41;
    const int fma = (ecx >> 12) & 1;
    const int osxsave = (ecx >> 27) & 1;
    const int avx = (ecx >> 28) & 1;
    /* XMM (bit 1) and YMM (bit 2) state enabled by the OS. */
    if (!fma || !osxsave || !avx || (read_xcr0() & 6) != 6)
        return flags;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return flags;
    if ((ebx >> 5) & 1)
        flags |= CT_CPU_FLAG_AVX2;
    return flags;
}
#else
static unsigned detect_flags(void)
{
    return 0;
}
#endif

/* The flags of the levels up to `simd` (CT_SIMD_AUTO: all). */
static unsigned flags_up_to(ct_simd simd)
{
    switch (simd) {
    case CT_SIMD_C:
        return 0;
    case CT_SIMD_SSE2:
        return CT_CPU_FLAG_SSE2;
    case CT_SIMD_AVX2:
    case CT_SIMD_AUTO:
        break;
    }
    return CT_CPU_FLAG_SSE2 | CT_CPU_FLAG_AVX2;
}

/* CT_SIMD=c|sse2|avx2, or CT_SIMD_AUTO when unset or unrecognized. */
static ct_simd simd_from_environment(void)
{
    const char *value = getenv("CT_SIMD");
    if (value == NULL)
        return CT_SIMD_AUTO;
    if (strcmp(value, "c") == 0)
        return CT_SIMD_C;
    if (strcmp(value, "sse2") == 0)
        return CT_SIMD_SSE2;
    if (strcmp(value, "avx2") == 0)
        return CT_SIMD_AVX2;
    return CT_SIMD_AUTO;
}

unsigned ct_cpu_flags(void)
{
    return detect_flags() & flags_up_to(simd_from_environment());
}

unsigned ct_cpu_flags_detected(void)
{
    return detect_flags();
}

unsigned ct_cpu_flags_for(ct_simd simd)
{
    return ct_cpu_flags() & flags_up_to(simd);
}

ct_simd ct_simd_resolve(ct_simd requested)
{
    if (requested != CT_SIMD_AUTO)
        return requested;
    return (ct_cpu_flags() & CT_CPU_FLAG_AVX2) ? CT_SIMD_AVX2 : CT_SIMD_SSE2;
}

const char *ct_simd_name(ct_simd simd)
{
    switch (simd) {
    case CT_SIMD_AUTO:
        return "auto";
    case CT_SIMD_C:
        return "c";
    case CT_SIMD_SSE2:
        return "sse2";
    case CT_SIMD_AVX2:
        return "avx2";
    }
    return "unknown";
}
