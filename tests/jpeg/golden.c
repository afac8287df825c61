/*
 * The golden test: every row of the jpegli golden set, encoded with ctcore
 * for the row's SIMD target, must give exactly cjpegli's bytes. The same
 * for the YCbCr golden set (a manifest with a format column: jpegli's
 * raw-data mode), where each row is encoded from its planes in the planar
 * layout and in every other layout of its sampling (NV12 and NV21 for
 * I420; YUYV, UYVY and YVYU for Y42B), with padded rows, and every one
 * must give the golden bytes.
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
#include "yuv_planes.h"

static int cpu_has_avx2_fma(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

/* Row padding of the YCbCr layouts: odd, so that no row is aligned. */
#define YUV_ROW_PAD 7

/* The last input read: rows come grouped by input. */
typedef struct input_cache {
    char path[4096];
    ct_pnm_image image;
    ct_yuv_planes planes;
    int loaded;
} input_cache;

static void free_input(input_cache *cache)
{
    if (cache->loaded && cache->planes.data)
        ct_yuv_planes_free(&cache->planes);
    else if (cache->loaded)
        ct_pnm_free(&cache->image);
    cache->loaded = 0;
}

/* Reads the row's input (a PNM file, or the planes of a YCbCr row) unless
 * it is the cached one. 0, or -1 with a message in err. */
static int load_input(input_cache *cache, const ct_golden_row *row,
                      const char *path, char *err, size_t err_size)
{
    if (cache->loaded && strcmp(cache->path, path) == 0)
        return 0;
    free_input(cache);
    if (row->format) {
        const ct_pixel_format format = ct_yuv_format_from_name(row->format);
        if (!format || !row->width || !row->height) {
            snprintf(err, err_size, "unknown format %s", row->format);
            return -1;
        }
        if (ct_yuv_planes_read(path, format,
                               (uint32_t)strtoul(row->width, NULL, 10),
                               (uint32_t)strtoul(row->height, NULL, 10),
                               &cache->planes, err, err_size) < 0)
            return -1;
    } else if (ct_pnm_read(path, &cache->image, err, err_size) < 0) {
        return -1;
    }
    snprintf(cache->path, sizeof(cache->path), "%s", path);
    cache->loaded = 1;
    return 0;
}

/* Encodes image and compares with the expected file: 1 when identical,
 * else 0 with the reason in why (and the file in save_dir). */
static int check_image(const ct_jpeg_settings *settings,
                       const ct_jpeg_image *image, const uint8_t *expected,
                       size_t expected_size, const char *save_path, char *why,
                       size_t why_size)
{
    char err[512] = "";
    ct_jpeg_output out = {0};
    int ret = ct_jpeg_encode(NULL, settings, image, &out, err, sizeof(err));
    if (ret < 0) {
        snprintf(why, why_size, "encode failed: %s",
                 err[0] ? err : ct_strerror(ret));
        return 0;
    }
    int identical = 1;
    if (expected_size != out.size ||
        memcmp(expected, out.data, out.size) != 0) {
        size_t first = 0;
        while (first < out.size && first < expected_size &&
               expected[first] == out.data[first])
            first++;
        snprintf(why, why_size,
                 "%zu bytes, expected %zu; first difference "
                 "at byte %zu",
                 out.size, expected_size, first);
        identical = 0;
    }
    if (!identical && save_path) {
        FILE *f = fopen(save_path, "wb");
        if (f) {
            fwrite(out.data, 1, out.size, f);
            fclose(f);
        }
    }
    ct_jpeg_output_free(&out);
    return identical;
}

/* A YCbCr row: its planes in each layout of their sampling. */
static int check_yuv_layouts(const ct_jpeg_settings *settings,
                             const ct_yuv_planes *planes,
                             const uint8_t *expected, size_t expected_size,
                             const char *save_path, char *why, size_t why_size)
{
    ct_pixel_format layouts[5];
    const int n = ct_yuv_layouts(planes->format, layouts);
    for (int i = 0; i < n; i++) {
        ct_jpeg_image image;
        uint8_t *memory = NULL;
        if (ct_yuv_image(planes, layouts[i], i == 0 ? 0 : YUV_ROW_PAD, &image,
                         &memory) < 0) {
            snprintf(why, why_size, "out of memory");
            return 0;
        }
        char reason[1024] = "";
        const int identical =
            check_image(settings, &image, expected, expected_size, save_path,
                        reason, sizeof(reason));
        free(memory);
        if (!identical) {
            snprintf(why, why_size, "layout %d of %d: %s", i + 1, n, reason);
            return 0;
        }
    }
    return 1;
}

/* Encodes one row and compares: 1 when identical, else 0 with the reason
 * in why. */
static int check_row(const char *dir, const ct_golden_row *row,
                            ct_simd simd, input_cache *cache,
                            const char *save_dir, char *why, size_t why_size)
{
    char path[4096], save_path[4096], err[512] = "";
    ct_jpeg_settings settings;
    if (ct_cjpegli_flags_from_string(row->flags, &settings, err,
                                     sizeof(err)) < 0) {
        snprintf(why, why_size, "flags: %s", err);
        return 0;
    }
    settings.simd = simd;

    snprintf(path, sizeof(path), "%s/%s", dir, row->input);
    if (load_input(cache, row, path, err, sizeof(err)) < 0) {
        snprintf(why, why_size, "input: %s", err);
        return 0;
    }
    snprintf(path, sizeof(path), "%s/%s", dir, row->output);
    size_t expected_size;
    uint8_t *expected = ct_read_file(path, &expected_size);
    if (!expected) {
        snprintf(why, why_size, "cannot read %s", row->output);
        return 0;
    }
    const char *name = strrchr(row->output, '/');
    snprintf(save_path, sizeof(save_path), "%s/%s-%s",
             save_dir ? save_dir : ".", ct_simd_name(simd),
             name ? name + 1 : row->output);
    int identical;
    if (row->format) {
        identical = check_yuv_layouts(
            &settings, &cache->planes, expected, expected_size,
            save_dir ? save_path : NULL, why, why_size);
    } else {
        const ct_jpeg_image image = ct_pnm_jpeg_image(&cache->image);
        identical = check_image(&settings, &image, expected, expected_size,
                                save_dir ? save_path : NULL, why, why_size);
    }
    free(expected);
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
    free_input(&run.cache);
    if (total == 0) {
        printf("%s: no rows%s%s\n", target, filter ? " match " : "",
               filter ? filter : "");
        return 1;
    }
    return failures;
}

int main(int argc, char **argv)
{
    ct_golden_args args;
    if (ct_golden_parse_args(argc, argv,
                             "usage: golden [--target sse2|avx2] "
                             "[--filter TEXT] [--save-failures DIR] "
                             "GOLDEN_DIR",
                             1, &args) != 0)
        return 2;
    const char *dir = args.dir;

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
    for (int t = 0; t < args.num_targets; t++) {
        if (args.targets[t] == CT_SIMD_AVX2 && !has_avx2)
            printf("avx2: this CPU lacks AVX2+FMA, so the avx2 arithmetic "
                   "runs on the portable kernels\n");
        failures += run_target(dir, &manifest, args.targets[t], args.filter,
                               args.save_dir);
    }
    ct_golden_manifest_free(&manifest);
    return failures ? 1 : 0;
}
