/*
 * The golden test: every row of the jpegli golden set, encoded with ctcore
 * for the row's SIMD target, must give exactly cjpegli's bytes.
 *
 * usage: golden [--target sse2|avx2] [--filter TEXT] [--save-failures DIR]
 *               GOLDEN_DIR
 * Without --target both targets run. --filter keeps the rows whose output
 * path contains TEXT (e.g. "raindrops-x624", "__q100"). Exits 0 when all are
 * identical, 1 on any difference, 77 (skipped) when GOLDEN_DIR is absent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cjpegli_flags.h"
#include "ctcore/jpeg.h"
#include "golden_manifest.h"
#include "pnm.h"

static int cpu_has_avx2_fma(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

/* The last input read: rows come grouped by input. */
typedef struct input_cache {
    char path[4096];
    ct_pnm_image image;
    int loaded;
} input_cache;

static const ct_pnm_image *load_input(input_cache *cache, const char *path,
                                      char *err, size_t err_size)
{
    if (cache->loaded && strcmp(cache->path, path) == 0)
        return &cache->image;
    if (cache->loaded)
        ct_pnm_free(&cache->image);
    cache->loaded = 0;
    if (ct_pnm_read(path, &cache->image, err, err_size) < 0)
        return NULL;
    snprintf(cache->path, sizeof(cache->path), "%s", path);
    cache->loaded = 1;
    return &cache->image;
}

/* Encodes one row and compares: 1 when identical, else 0 with the reason
 * in why. */
static int check_row(const char *dir, const ct_golden_row *row,
                            ct_simd simd, input_cache *cache,
                            const char *save_dir, char *why, size_t why_size)
{
    char path[4096], err[512] = "";
    ct_jpeg_settings settings;
    if (ct_cjpegli_flags_from_string(row->flags, &settings, err,
                                     sizeof(err)) < 0) {
        snprintf(why, why_size, "flags: %s", err);
        return 0;
    }
    settings.simd = simd;

    snprintf(path, sizeof(path), "%s/%s", dir, row->input);
    const ct_pnm_image *pnm = load_input(cache, path, err, sizeof(err));
    if (!pnm) {
        snprintf(why, why_size, "input: %s", err);
        return 0;
    }
    const ct_jpeg_image image = ct_pnm_jpeg_image(pnm);
    ct_jpeg_output out = { 0 };
    int ret = ct_jpeg_encode(NULL, &settings, &image, &out, err, sizeof(err));
    if (ret < 0) {
        snprintf(why, why_size, "encode failed: %s",
                 err[0] ? err : ct_strerror(ret));
        return 0;
    }

    snprintf(path, sizeof(path), "%s/%s", dir, row->output);
    size_t expected_size;
    uint8_t *expected = ct_read_file(path, &expected_size);
    int identical = 1;
    if (!expected) {
        snprintf(why, why_size, "cannot read %s", row->output);
        identical = 0;
    } else if (expected_size != out.size ||
               memcmp(expected, out.data, out.size) != 0) {
        size_t first = 0;
        while (first < out.size && first < expected_size &&
               expected[first] == out.data[first])
            first++;
        snprintf(why, why_size, "%zu bytes, expected %zu; first difference "
                 "at byte %zu", out.size, expected_size, first);
        identical = 0;
    }
    if (!identical && save_dir) {
        const char *name = strrchr(row->output, '/');
        snprintf(path, sizeof(path), "%s/%s-%s", save_dir,
                 ct_simd_name(simd), name ? name + 1 : row->output);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(out.data, 1, out.size, f);
            fclose(f);
        }
    }
    free(expected);
    ct_jpeg_output_free(&out);
    return identical;
}

/* What check_target_row needs besides the row. */
typedef struct target_run {
    const char *dir;
    ct_simd simd;
    input_cache cache;
    const char *save_dir;
} target_run;

static int check_target_row(void *ctx, const ct_golden_row *row, char *why,
                            size_t why_size)
{
    target_run *run = ctx;
    return check_row(run->dir, row, run->simd, &run->cache, run->save_dir,
                     why, why_size);
}

/* Runs every row of one target; returns the number of failures. */
static int run_target(const char *dir, const ct_golden_manifest *manifest,
                      ct_simd simd, const char *filter, const char *save_dir)
{
    const char *target = ct_simd_name(simd);
    target_run run = { .dir = dir, .simd = simd, .save_dir = save_dir };
    int failures;
    const int total = ct_golden_check_rows(manifest, target, filter, target,
                                           check_target_row, &run, &failures);
    if (run.cache.loaded)
        ct_pnm_free(&run.cache.image);
    if (total == 0) {
        printf("%s: no rows%s%s\n", target, filter ? " match " : "",
               filter ? filter : "");
        return 1;
    }
    return failures;
}

static void usage(void)
{
    fprintf(stderr, "usage: golden [--target sse2|avx2] [--filter TEXT] "
                    "[--save-failures DIR] GOLDEN_DIR\n");
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *filter = NULL, *save_dir = NULL;
    ct_simd targets[2] = { CT_SIMD_SSE2, CT_SIMD_AVX2 };
    int num_targets = 2;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            if (strcmp(t, "sse2") == 0) {
                targets[0] = CT_SIMD_SSE2;
            } else if (strcmp(t, "avx2") == 0) {
                targets[0] = CT_SIMD_AVX2;
            } else {
                usage();
                return 2;
            }
            num_targets = 1;
        } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            filter = argv[++i];
        } else if (strcmp(argv[i], "--save-failures") == 0 && i + 1 < argc) {
            save_dir = argv[++i];
        } else if (argv[i][0] != '-' && !dir) {
            dir = argv[i];
        } else {
            usage();
            return 2;
        }
    }
    if (!dir) {
        usage();
        return 2;
    }

    ct_golden_manifest manifest;
    const int status = ct_golden_open(dir, &manifest);
    if (status != 0)
        return status;

    int has_avx2 = cpu_has_avx2_fma();
    printf("golden set: %s (%zu rows; avx2-gcc-contract rows are informative "
           "and not run)\n", dir, manifest.count);
    printf("CPU has AVX2+FMA: %s; auto resolves to %s\n",
           has_avx2 ? "yes" : "no", ct_simd_name(ct_simd_resolve(CT_SIMD_AUTO)));
    int failures = 0;
    for (int t = 0; t < num_targets; t++) {
        if (targets[t] == CT_SIMD_AVX2 && !has_avx2)
            printf("avx2: this CPU lacks AVX2+FMA, so the avx2 arithmetic "
                   "runs on the portable kernels\n");
        failures += run_target(dir, &manifest, targets[t], filter, save_dir);
    }
    ct_golden_manifest_free(&manifest);
    return failures ? 1 : 0;
}
