/*
 * checkasm: every SIMD kernel against its scalar twin, bit for bit, at
 * every SIMD level this CPU has (each level tested with the levels above it
 * masked off), with --bench timing each kernel against its twin. dav1d's
 * tests/checkasm is the model: one file per codec (jpeg.c, mp3.c, ...)
 * with one entry function each, listed in checkasm.c.
 *
 * A codec's entry function runs once per level. It fills its kernel tables
 * twice: the reference with no CPU flags (the scalar twins) and the one
 * under test with checkasm_cpu_flags(). For each kernel it asks
 * checkasm_check_func() whether to test it now, runs both on the same
 * random and edge inputs, compares, reports a difference with
 * checkasm_fail() (or checkasm_check_bits()) and times both with
 * CHECKASM_BENCH.
 *
 *   if (checkasm_check_func(opt.fht, ref.fht, "mp3_fht")) {
 *       for (int it = 0; it < ITERATIONS; it++) {
 *           ... ref.fht(a, n); opt.fht(b, n);
 *           if (checkasm_check_bits("lines", a, b, sizeof(a), it))
 *               break;
 *       }
 *       CHECKASM_BENCH(ref.fht(a, 512), opt.fht(b, 512));
 *   }
 *   checkasm_report("mp3_fht");
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_CHECKASM_H
#define CT_TESTS_CHECKASM_H

#include <stddef.h>
#include <stdint.h>

/* The codecs' entry functions (one per file). */
void checkasm_check_jpeg(void);
void checkasm_check_mp3(void);
void checkasm_check_opus(void);
void checkasm_check_silk_vad(void);
/* SILK's kernels of the Opus table, called by checkasm_check_opus with
 * its tables (the C one and the one under test). */
struct ct_opus_dsp;
void checkasm_check_silk_nsq(const struct ct_opus_dsp *c,
                             const struct ct_opus_dsp *opt);

/* The CPU flags (common/cpu.h) of the level under test: the CPU's own up to
 * that level. */
unsigned checkasm_cpu_flags(void);
/* "sse2", "avx2": the level under test. */
const char *checkasm_level_name(void);

/*
 * Whether to test kernel `opt` (named by the format) now: 1 when the name
 * matches --filter, opt is not its scalar twin ref, and opt was not already
 * tested under this name at a lower level (a kernel that a level does not
 * upgrade is tested once). It becomes the current kernel, whose failures
 * checkasm_fail() records and whose time CHECKASM_BENCH records, and the
 * random generator restarts from --seed and the name, so that a kernel
 * gets the same inputs whatever --filter leaves out. Under --list it prints
 * the name and returns 0.
 */
int checkasm_check_func(const void *opt, const void *ref, const char *name, ...)
    __attribute__((format(printf, 3, 4)));
/* The current kernel differs from its twin: prints the message (with the
 * kernel's name and level) and marks the run failed (the exit code is then
 * 1). */
void checkasm_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Compares the bytes of the twin's output ref and the kernel's opt; when
 * they differ, checkasm_fail()s with `what`, the iteration and the first
 * byte that differs, and returns 1. */
int checkasm_check_bits(const char *what, const void *ref, const void *opt,
                        size_t bytes, int iteration);
/* Prints "group: OK" or "group: FAILED" (under the level's heading) for the
 * kernels checked since the last report, nothing when none was. */
void checkasm_report(const char *group);

/* Random inputs from --seed (xorshift; the same seed, the same inputs). */
uint32_t checkasm_rand(void);
/* Uniform in [lo, hi]. */
int checkasm_rand_int(int lo, int hi);
/* Uniform in [lo, hi). */
float checkasm_rand_float(float lo, float hi);

/* --bench: whether timings are wanted, and the harness's timer. */
int checkasm_bench_enabled(void);
/* Records the fastest round of CHECKASM_BENCH for the current kernel: the
 * twin's and the kernel's time for `iters` calls. The harness prints the
 * table (ns per call and the ratio) after the last level. */
void checkasm_bench_print(double ref_seconds, double opt_seconds, int iters);
double checkasm_bench_now(void);
/* The calls per round (--bench-iters, 1000 by default). */
int checkasm_bench_iters(void);

/* --exhaustive: whether sweeps over every input value are wanted where a
 * check samples them by default. */
int checkasm_exhaustive(void);

/* Times ref_call and opt_call, `iters` calls each per round, five rounds
 * taking turns, and records the fastest round of each. The calls must leave
 * their inputs as valid as they found them (no growth to overflow or
 * denormals over thousands of calls). */
#define CHECKASM_BENCH(ref_call, opt_call)                                     \
    do {                                                                       \
        if (checkasm_bench_enabled()) {                                        \
            const int iters_ = checkasm_bench_iters();                         \
            double best_ref_ = 1e30, best_opt_ = 1e30;                         \
            for (int round_ = 0; round_ < 5; round_++) {                       \
                double t_ = checkasm_bench_now();                              \
                for (int i_ = 0; i_ < iters_; i_++) {                          \
                    ref_call;                                                  \
                }                                                              \
                double r_ = checkasm_bench_now() - t_;                         \
                t_ = checkasm_bench_now();                                     \
                for (int i_ = 0; i_ < iters_; i_++) {                          \
                    opt_call;                                                  \
                }                                                              \
                double o_ = checkasm_bench_now() - t_;                         \
                best_ref_ = r_ < best_ref_ ? r_ : best_ref_;                   \
                best_opt_ = o_ < best_opt_ ? o_ : best_opt_;                   \
            }                                                                  \
            checkasm_bench_print(best_ref_, best_opt_, iters_);                \
        }                                                                      \
    } while (0)

#endif
