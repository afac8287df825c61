/*
 * The jpegli golden sets' MANIFEST.tsv: one row per (input, cjpegli flags,
 * target) with the expected JPEG. See the golden sets' README.md. The
 * columns are found by the header's names: input, flags, target and output
 * in every set; the YCbCr set's format, width and height besides.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_GOLDEN_MANIFEST_H
#define CT_TESTS_GOLDEN_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/ctcore.h"

typedef struct ct_golden_row {
    const char *input;   /* relative to the golden directory */
    const char *format;  /* I420, Y42B, Y444; NULL without the column */
    const char *width;   /* the image's size; NULL without the columns */
    const char *height;
    const char *flags;   /* cjpegli flags, may be empty */
    const char *target;  /* "sse2", "avx2" or "avx2-gcc-contract" */
    const char *output;  /* expected JPEG, relative to the golden directory */
    const char *sha256;  /* its SHA-256 in hex, NULL without the column */
    const char *bytes;   /* its size, NULL without the column */
} ct_golden_row;

typedef struct ct_golden_manifest {
    char *text;          /* the file; rows point into it */
    ct_golden_row *rows;
    size_t count;
} ct_golden_manifest;

/* Reads the whole file at path. Returns its bytes (free()) and sets *size,
 * or NULL. */
uint8_t *ct_read_file(const char *path, size_t *size);

/*
 * Reads dir/MANIFEST.tsv. Returns 0, or -1 with a message in errbuf (the
 * caller tells "absent" from "broken" by checking the directory first).
 */
int ct_golden_manifest_read(const char *dir, ct_golden_manifest *manifest,
                            char *errbuf, size_t errbuf_size);
void ct_golden_manifest_free(ct_golden_manifest *manifest);

/* The golden tests' command line: [--target sse2|avx2] [--filter TEXT]
 * [--save-failures DIR] GOLDEN_DIR. */
typedef struct ct_golden_args {
    const char *dir;
    const char *filter;   /* NULL: every row */
    const char *save_dir; /* NULL: none */
    ct_simd targets[2];   /* both unless --target */
    int num_targets;
} ct_golden_args;

/* Reads argv into args (--save-failures only where allow_save). 0, or 2
 * after printing `usage` on stderr. */
int ct_golden_parse_args(int argc, char **argv, const char *usage,
                         int allow_save, ct_golden_args *args);

/* Exit status of a golden test without its golden set: skipped. */
#define CT_GOLDEN_EXIT_SKIP 77

/* The golden tests' start: 0 with the manifest of dir read;
 * CT_GOLDEN_EXIT_SKIP after "SKIP: golden set not found" when dir is no
 * directory; 1 after "golden set broken: ..." when its manifest is. */
int ct_golden_open(const char *dir, ct_golden_manifest *manifest);

/* Checks one row: 1 when its bytes are the expected ones, else 0 with the
 * reason in why. */
typedef int (*ct_golden_check_fn)(void *ctx, const ct_golden_row *row,
                                  char *why, size_t why_size);

/*
 * Checks every row of `target` whose output path contains filter (every
 * row without one), printing the first 20 failures and then
 * "<label>: N of M identical [T s]". Returns M, the rows checked, and sets
 * *failures.
 */
int ct_golden_check_rows(const ct_golden_manifest *manifest,
                         const char *target, const char *filter,
                         const char *label, ct_golden_check_fn check,
                         void *ctx, int *failures);

#endif
