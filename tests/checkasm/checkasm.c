/*
 * The checkasm harness (checkasm.h): the options, the loop over the SIMD
 * levels and the codecs, the record of what was tested, the random
 * generator and the bench table.
 *
 * Usage: checkasm [--filter NAME] [--seed N] [--bench] [--bench-iters N]
 *                 [--exhaustive] [--list]
 * NAME is a substring of the kernels' names, or a glob when it holds * ? or
 * [. Without --seed the seed comes from the clock; it is printed first, so
 * that --seed reruns a failure with the same inputs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "checkasm.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/cpu.h"

/* The levels, lowest first. A level runs with its own flag and those of the
 * levels below it. */
static const struct {
    const char *name;
    unsigned flag;
} levels[] = {
    {"sse2", CT_CPU_FLAG_SSE2},
    {"avx2", CT_CPU_FLAG_AVX2},
};

/* The codecs' entry functions, run in turn at each level. */
static void (*const codecs[])(void) = {
    checkasm_check_jpeg,
    checkasm_check_mp3,
    checkasm_check_opus,
    checkasm_check_silk_vad,
};

/* A kernel tested under a name (tested once however many levels keep it). */
typedef struct tested_kernel {
    char name[64];
    const void *func;
} tested_kernel;

/* One row of the bench table. */
typedef struct bench_row {
    char name[64];
    const char *level;
    double ref_ns;
    double opt_ns;
} bench_row;

/* The state of the run. The harness is one program testing one kernel at a
 * time, so the state the codec files reach through the checkasm_* calls is
 * this one static struct (as in dav1d's checkasm). */
static struct {
    uint32_t seed;
    const char *filter;
    int bench;
    int bench_iters;
    int exhaustive;
    int list;

    int level;           /* index into levels[] */
    unsigned cpu_flags;  /* of the level under test */
    int level_announced; /* its heading printed */
    int levels_tested;   /* levels where a kernel was tested */
    uint32_t rng;

    char current[64]; /* the kernel under test */
    int current_failed;
    int group_kernels; /* checked since the last report */
    int group_failed;

    tested_kernel *tested;
    size_t num_tested;
    size_t num_failed;
    bench_row *bench_rows;
    size_t num_bench_rows;
} state;

static void *grow(void *array, size_t count, size_t size)
{
    void *p = realloc(array, (count + 1) * size);
    if (p == NULL) {
        fprintf(stderr, "checkasm: out of memory\n");
        exit(1);
    }
    return p;
}

unsigned checkasm_cpu_flags(void)
{
    return state.cpu_flags;
}

const char *checkasm_level_name(void)
{
    return levels[state.level].name;
}

static int name_matches(const char *name)
{
    if (state.filter == NULL)
        return 1;
    if (strpbrk(state.filter, "*?[") != NULL)
        return fnmatch(state.filter, name, 0) == 0;
    return strstr(name, state.filter) != NULL;
}

/* FNV-1a of the name, mixed with the seed: each kernel its own inputs. */
static uint32_t kernel_seed(const char *name)
{
    uint32_t h = 2166136261u ^ state.seed;
    for (const char *c = name; *c != '\0'; c++)
        h = (h ^ (uint8_t)*c) * 16777619u;
    /* xorshift never leaves state 0. */
    return h != 0 ? h : 1;
}

int checkasm_check_func(const void *opt, const void *ref, const char *name, ...)
{
    char buf[sizeof(state.current)];
    va_list args;
    va_start(args, name);
    vsnprintf(buf, sizeof(buf), name, args);
    va_end(args);

    if (opt == NULL || opt == ref || !name_matches(buf))
        return 0;
    for (size_t i = 0; i < state.num_tested; i++) {
        if (state.tested[i].func == opt &&
            strcmp(state.tested[i].name, buf) == 0)
            return 0;
    }
    state.tested = grow(state.tested, state.num_tested, sizeof(*state.tested));
    tested_kernel *k = &state.tested[state.num_tested++];
    memcpy(k->name, buf, sizeof(buf));
    k->func = opt;
    if (state.list) {
        printf("%-40s %s\n", buf, checkasm_level_name());
        return 0;
    }
    memcpy(state.current, buf, sizeof(buf));
    state.current_failed = 0;
    if (state.group_kernels++ == 0 && !state.level_announced) {
        printf("%s:\n", checkasm_level_name());
        state.level_announced = 1;
        state.levels_tested++;
    }
    state.rng = kernel_seed(buf);
    return 1;
}

void checkasm_fail(const char *fmt, ...)
{
    if (!state.current_failed) {
        state.current_failed = 1;
        state.group_failed++;
        state.num_failed++;
    }
    printf("   FAIL %s (%s): ", state.current, checkasm_level_name());
    va_list args;
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    printf("\n");
}

int checkasm_check_bits(const char *what, const void *ref, const void *opt,
                        size_t bytes, int iteration)
{
    if (memcmp(ref, opt, bytes) == 0)
        return 0;
    const uint8_t *a = ref;
    const uint8_t *b = opt;
    size_t i = 0;
    while (a[i] == b[i])
        i++;
    checkasm_fail("%s: iteration %d, first difference at byte %zu", what,
                  iteration, i);
    return 1;
}

void checkasm_report(const char *group)
{
    if (state.group_kernels == 0)
        return;
    if (state.group_failed != 0)
        printf(" - %-32s FAILED (%d of %d kernels)\n", group,
               state.group_failed, state.group_kernels);
    else
        printf(" - %-32s OK (%d kernel%s)\n", group, state.group_kernels,
               state.group_kernels == 1 ? "" : "s");
    state.group_kernels = 0;
    state.group_failed = 0;
}

uint32_t checkasm_rand(void)
{
    state.rng ^= state.rng << 13;
    state.rng ^= state.rng >> 17;
    state.rng ^= state.rng << 5;
    return state.rng;
}

int checkasm_rand_int(int lo, int hi)
{
    return lo + (int)(checkasm_rand() % (uint32_t)(hi - lo + 1));
}

float checkasm_rand_float(float lo, float hi)
{
    return lo +
           (hi - lo) * (float)(checkasm_rand() >> 8) * (1.0f / 16777216.0f);
}

int checkasm_bench_enabled(void)
{
    return state.bench;
}

int checkasm_exhaustive(void)
{
    return state.exhaustive;
}

void checkasm_bench_print(double ref_seconds, double opt_seconds, int iters)
{
    state.bench_rows =
        grow(state.bench_rows, state.num_bench_rows, sizeof(*state.bench_rows));
    bench_row *row = &state.bench_rows[state.num_bench_rows++];
    memcpy(row->name, state.current, sizeof(row->name));
    row->level = checkasm_level_name();
    row->ref_ns = 1e9 * ref_seconds / iters;
    row->opt_ns = 1e9 * opt_seconds / iters;
}

double checkasm_bench_now(void)
{
    return ct_clock_seconds();
}

int checkasm_bench_iters(void)
{
    return state.bench_iters;
}

static void print_bench_table(void)
{
    printf("\nns per call (the fastest of 5 rounds of %d calls):\n",
           state.bench_iters);
    printf("%-40s %-5s %10s %10s %8s\n", "kernel", "level", "scalar", "simd",
           "speedup");
    for (size_t i = 0; i < state.num_bench_rows; i++) {
        const bench_row *row = &state.bench_rows[i];
        printf("%-40s %-5s %10.1f %10.1f %7.2fx\n", row->name, row->level,
               row->ref_ns, row->opt_ns, row->ref_ns / row->opt_ns);
    }
}

static void print_summary(void)
{
    if (state.num_tested == 0 && state.filter != NULL)
        printf("checkasm: no kernel matches --filter %s\n", state.filter);
    else if (state.num_tested == 0)
        printf("checkasm: no SIMD kernel at these levels\n");
    else if (state.num_failed != 0)
        printf("checkasm: %zu of %zu kernels FAILED (rerun: --seed %" PRIu32
               ")\n",
               state.num_failed, state.num_tested, state.seed);
    else
        printf("checkasm: all %zu kernels OK at %d level%s\n", state.num_tested,
               state.levels_tested, state.levels_tested == 1 ? "" : "s");
}

static int usage(void)
{
    fprintf(stderr, "usage: checkasm [--filter NAME] [--seed N] [--bench] "
                    "[--bench-iters N] [--exhaustive] [--list]\n");
    return 2;
}

/* A number option's value: digits only, within [0, max]. */
static int parse_number(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    if (s == NULL || *s < '0' || *s > '9')
        return 0;
    *out = strtoul(s, &end, 0);
    return *end == '\0' && *out <= max;
}

int main(int argc, char **argv)
{
    unsigned long value;
    /* through 64 bits: the clock in microseconds passes 32 (a float to
     * unsigned conversion out of range is undefined) */
    state.seed = (uint32_t)(uint64_t)(ct_clock_seconds() * 1e6);
    state.bench_iters = 1000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            state.filter = argv[++i];
        } else if (strcmp(argv[i], "--seed") == 0) {
            if (!parse_number(argv[++i], UINT32_MAX, &value))
                return usage();
            state.seed = (uint32_t)value;
        } else if (strcmp(argv[i], "--bench") == 0) {
            state.bench = 1;
        } else if (strcmp(argv[i], "--bench-iters") == 0) {
            if (!parse_number(argv[++i], 1 << 24, &value) || value == 0)
                return usage();
            state.bench_iters = (int)value;
        } else if (strcmp(argv[i], "--exhaustive") == 0) {
            state.exhaustive = 1;
        } else if (strcmp(argv[i], "--list") == 0) {
            state.list = 1;
        } else {
            return usage();
        }
    }

    const unsigned cpu = ct_cpu_flags();
    if (!state.list)
        printf("checkasm: seed %" PRIu32 " (--seed %" PRIu32
               " reruns these inputs)\n",
               state.seed, state.seed);
    unsigned up_to = 0;
    int num_levels = 0;
    for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
        up_to |= levels[l].flag;
        if (!(cpu & levels[l].flag))
            continue;
        num_levels++;
        state.level = (int)l;
        state.cpu_flags = cpu & up_to;
        state.level_announced = 0;
        for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++)
            codecs[c]();
    }

    if (num_levels == 0) {
        const char *cap = getenv("CT_SIMD");
        printf("checkasm: no SIMD level on this CPU%s%s: nothing to test\n",
               cap != NULL ? " under CT_SIMD=" : "", cap != NULL ? cap : "");
    } else if (!state.list) {
        print_summary();
    }
    if (state.bench && state.num_bench_rows != 0)
        print_bench_table();
    free(state.tested);
    free(state.bench_rows);
    return state.num_failed != 0;
}
