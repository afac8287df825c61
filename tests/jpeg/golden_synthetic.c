/*
 * The golden set's synthetic rows, without the golden set: every syn-*
 * input made by its formula, encoded with ctcore for both targets, and the
 * file's sha256 and size compared with those kept in HASH_DIR/MANIFEST.tsv
 * (the golden manifest's syn-* rows for sse2 and avx2, as they are there).
 * Where the golden set is found, the inputs made are compared with its
 * files and the kept rows with its manifest first.
 *
 * usage: golden_synthetic [--filter TEXT] HASH_DIR [GOLDEN_DIR]
 * Exits 0 when every row is identical, 1 on any difference.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cjpegli_flags.h"
#include "ctcore/jpeg.h"
#include "golden_manifest.h"
#include "pnm.h"
#include "synthetic.h"

/* Each input made against the golden set's file; returns the failures. */
static int compare_inputs(const char *golden_dir)
{
    int identical = 0;
    for (int i = 0; i < CT_SYNTHETIC_COUNT; i++) {
        char name[64], path[4096], err[512];
        ct_synthetic_name(i, name, sizeof(name));
        snprintf(path, sizeof(path), "%s/inputs/%s", golden_dir, name);
        ct_synthetic_image made;
        ct_pnm_image file;
        if (ct_synthetic_make(name, &made) < 0) {
            printf("  FAIL %s: cannot make it\n", name);
            continue;
        }
        if (ct_pnm_read(path, &file, err, sizeof(err)) < 0) {
            printf("  FAIL %s: %s\n", name, err);
            ct_synthetic_free(&made);
            continue;
        }
        const size_t size = (size_t)made.width * made.height * made.channels;
        if (file.width != made.width || file.height != made.height ||
            file.channels != made.channels ||
            memcmp(file.pixels, made.pixels, size) != 0)
            printf("  FAIL %s: the pixels made differ from the file's\n",
                   name);
        else
            identical++;
        ct_pnm_free(&file);
        ct_synthetic_free(&made);
    }
    printf("inputs: %d of %d made identical to %s/inputs\n", identical,
           CT_SYNTHETIC_COUNT, golden_dir);
    return CT_SYNTHETIC_COUNT - identical;
}

/* Whether a golden manifest row is one the kept manifest must hold. */
static int is_kept(const ct_golden_row *row)
{
    return strncmp(row->input, "inputs/syn-", 11) == 0 &&
           (strcmp(row->target, "sse2") == 0 ||
            strcmp(row->target, "avx2") == 0);
}

static int same_field(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* The kept rows against the golden manifest's; returns the failures. */
static int compare_rows(const ct_golden_manifest *kept,
                        const ct_golden_manifest *golden,
                        const char *golden_dir)
{
    size_t k = 0, matching = 0, expected = 0;
    for (size_t i = 0; i < golden->count; i++) {
        const ct_golden_row *g = &golden->rows[i];
        if (!is_kept(g))
            continue;
        expected++;
        const ct_golden_row *r = k < kept->count ? &kept->rows[k++] : NULL;
        if (r && same_field(r->input, g->input) &&
            same_field(r->flags, g->flags) &&
            same_field(r->target, g->target) &&
            same_field(r->output, g->output) &&
            same_field(r->sha256, g->sha256) && same_field(r->bytes, g->bytes))
            matching++;
        else if (expected - matching <= 20)
            printf("  FAIL kept row %zu differs from %s [%s] %s\n", k,
                   g->output, g->flags, g->target);
    }
    printf("hashes: %zu of %zu kept rows as in %s/MANIFEST.tsv (which has "
           "%zu such rows)\n", matching, kept->count, golden_dir, expected);
    return matching == expected && matching == kept->count ? 0 : 1;
}

/* Encodes one row and compares: 1 when identical, else 0 with the reason
 * in why. */
static int check_row(void *ctx, const ct_golden_row *row, char *why,
                     size_t why_size)
{
    const ct_simd simd = *(const ct_simd *)ctx;
    char err[512] = "";
    ct_jpeg_settings settings;
    if (ct_cjpegli_flags_from_string(row->flags, &settings, err,
                                     sizeof(err)) < 0) {
        snprintf(why, why_size, "flags: %s", err);
        return 0;
    }
    settings.simd = simd;

    ct_synthetic_image input;
    if (ct_synthetic_make(row->input, &input) < 0) {
        snprintf(why, why_size, "%s is no synthetic input", row->input);
        return 0;
    }
    const ct_jpeg_image image = ct_synthetic_jpeg_image(&input);
    ct_jpeg_output out = { 0 };
    const int ret =
        ct_jpeg_encode(NULL, &settings, &image, &out, err, sizeof(err));
    ct_synthetic_free(&input);
    if (ret < 0) {
        snprintf(why, why_size, "encode failed: %s",
                 err[0] ? err : ct_strerror(ret));
        return 0;
    }
    const int identical =
        ct_synthetic_check_output(row, out.data, out.size, why, why_size);
    ct_jpeg_output_free(&out);
    return identical;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void usage(void)
{
    fprintf(stderr, "usage: golden_synthetic [--filter TEXT] HASH_DIR "
                    "[GOLDEN_DIR]\n");
}

int main(int argc, char **argv)
{
    const char *hash_dir = NULL, *golden_dir = NULL, *filter = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            filter = argv[++i];
        } else if (argv[i][0] != '-' && !hash_dir) {
            hash_dir = argv[i];
        } else if (argv[i][0] != '-' && !golden_dir) {
            golden_dir = argv[i];
        } else {
            usage();
            return 2;
        }
    }
    if (!hash_dir) {
        usage();
        return 2;
    }

    char err[512];
    ct_golden_manifest kept;
    if (ct_golden_manifest_read(hash_dir, &kept, err, sizeof(err)) < 0) {
        printf("kept hashes broken: %s\n", err);
        return 1;
    }
    int failures = 0;
    if (golden_dir && is_directory(golden_dir)) {
        ct_golden_manifest golden;
        const int status = ct_golden_open(golden_dir, &golden);
        if (status != 0) {
            ct_golden_manifest_free(&kept);
            return 1;
        }
        failures += compare_inputs(golden_dir);
        failures += compare_rows(&kept, &golden, golden_dir);
        ct_golden_manifest_free(&golden);
    } else {
        printf("golden set not found%s%s: the inputs made and the kept "
               "hashes are not compared with it\n", golden_dir ? " at " : "",
               golden_dir ? golden_dir : "");
    }

    const ct_simd targets[] = { CT_SIMD_SSE2, CT_SIMD_AVX2 };
    for (int t = 0; t < 2; t++) {
        ct_simd simd = targets[t];
        char label[64];
        snprintf(label, sizeof(label), "%s (synthetic, no golden set)",
                 ct_simd_name(simd));
        int target_failures;
        const int total =
            ct_golden_check_rows(&kept, ct_simd_name(simd), filter, label,
                                 check_row, &simd, &target_failures);
        if (total == 0) {
            printf("%s: no rows\n", ct_simd_name(simd));
            target_failures++;
        }
        failures += target_failures;
    }
    ct_golden_manifest_free(&kept);
    return failures ? 1 : 0;
}
