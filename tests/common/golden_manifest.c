/*
 * MANIFEST.tsv reader.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "golden_manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/clock.h"

#define MAX_LISTED_FAILURES 20

uint8_t *ct_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    size_t used = 0, capacity = 0;
    for (;;) {
        if (used == capacity) {
            capacity = capacity ? capacity * 2 : 1 << 16;
            uint8_t *grown = realloc(data, capacity);
            if (!grown) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        size_t got = fread(data + used, 1, capacity - used, f);
        used += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(data);
        return NULL;
    }
    *size = used;
    return data;
}

/* Splits off the next tab-separated field of a line. */
static char *next_field(char **cursor)
{
    char *field = *cursor;
    if (!field)
        return NULL;
    char *tab = strchr(field, '\t');
    if (tab) {
        *tab = '\0';
        *cursor = tab + 1;
    } else {
        *cursor = NULL;
    }
    return field;
}

int ct_golden_manifest_read(const char *dir, ct_golden_manifest *manifest,
                            char *errbuf, size_t errbuf_size)
{
    memset(manifest, 0, sizeof(*manifest));
    char path[4096];
    snprintf(path, sizeof(path), "%s/MANIFEST.tsv", dir);
    size_t size;
    uint8_t *data = ct_read_file(path, &size);
    if (!data) {
        snprintf(errbuf, errbuf_size, "%s: %s", path, strerror(errno));
        return -1;
    }
    char *text = realloc(data, size + 1);
    if (!text) {
        free(data);
        snprintf(errbuf, errbuf_size, "%s: out of memory", path);
        return -1;
    }
    text[size] = '\0';
    manifest->text = text;

    size_t lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    manifest->rows = calloc(lines + 1, sizeof(*manifest->rows));
    if (!manifest->rows) {
        snprintf(errbuf, errbuf_size, "%s: out of memory", path);
        ct_golden_manifest_free(manifest);
        return -1;
    }

    /* The columns, by the header's names, in ct_golden_row's order. */
    static const char *const names[] = {"input",  "format", "width",
                                        "height", "flags",  "target",
                                        "output", "sha256", "bytes"};
    enum { NUM_COLUMNS = sizeof(names) / sizeof(names[0]) };
    int column_of[NUM_COLUMNS];
    for (int k = 0; k < NUM_COLUMNS; k++)
        column_of[k] = -1;
    int line_number = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        line_number++;
        char *cursor = line;
        const char *fields[NUM_COLUMNS + 1];
        int n = 0;
        for (char *field; n <= NUM_COLUMNS && (field = next_field(&cursor));)
            fields[n++] = field;
        if (line_number == 1) {
            for (int i = 0; i < n; i++)
                for (int k = 0; k < NUM_COLUMNS; k++)
                    if (strcmp(fields[i], names[k]) == 0)
                        column_of[k] = i;
            /* input, flags, target, output */
            if (column_of[0] < 0 || column_of[4] < 0 || column_of[5] < 0 ||
                column_of[6] < 0) {
                snprintf(errbuf, errbuf_size,
                         "%s: header lacks input, flags, target or output",
                         path);
                ct_golden_manifest_free(manifest);
                return -1;
            }
            continue;
        }
        const char *value[NUM_COLUMNS];
        for (int k = 0; k < NUM_COLUMNS; k++)
            value[k] = column_of[k] >= 0 && column_of[k] < n
                           ? fields[column_of[k]]
                           : NULL;
        if (!value[0] || !value[4] || !value[5] || !value[6]) {
            snprintf(errbuf, errbuf_size, "%s:%d: missing columns", path,
                     line_number);
            ct_golden_manifest_free(manifest);
            return -1;
        }
        manifest->rows[manifest->count++] = (ct_golden_row){
            .input = value[0],
            .format = value[1],
            .width = value[2],
            .height = value[3],
            .flags = value[4],
            .target = value[5],
            .output = value[6],
            .sha256 = value[7],
            .bytes = value[8],
        };
    }
    return 0;
}

void ct_golden_manifest_free(ct_golden_manifest *manifest)
{
    free(manifest->rows);
    free(manifest->text);
    memset(manifest, 0, sizeof(*manifest));
}

int ct_golden_parse_args(int argc, char **argv, const char *usage,
                         int allow_save, ct_golden_args *args)
{
    *args = (ct_golden_args){
        .targets = {CT_SIMD_SSE2, CT_SIMD_AVX2},
        .num_targets = 2,
    };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--target") == 0 && i + 1 < argc &&
            (strcmp(argv[i + 1], "sse2") == 0 ||
             strcmp(argv[i + 1], "avx2") == 0)) {
            args->targets[0] =
                strcmp(argv[++i], "avx2") == 0 ? CT_SIMD_AVX2 : CT_SIMD_SSE2;
            args->num_targets = 1;
        } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            args->filter = argv[++i];
        } else if (allow_save && strcmp(argv[i], "--save-failures") == 0 &&
                   i + 1 < argc) {
            args->save_dir = argv[++i];
        } else if (argv[i][0] != '-' && !args->dir) {
            args->dir = argv[i];
        } else {
            args->dir = NULL;
            break;
        }
    }
    if (!args->dir) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }
    return 0;
}

int ct_golden_open(const char *dir, ct_golden_manifest *manifest)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("SKIP: golden set not found at %s (configure with "
               "-Dgolden_dir=PATH, or -Dgolden_yuv_dir=PATH for the YCbCr "
               "set)\n",
               dir);
        return CT_GOLDEN_EXIT_SKIP;
    }
    char err[512];
    if (ct_golden_manifest_read(dir, manifest, err, sizeof(err)) < 0) {
        printf("golden set broken: %s\n", err);
        return 1;
    }
    return 0;
}

int ct_golden_check_rows(const ct_golden_manifest *manifest,
                         const char *target, const char *filter,
                         const char *label, ct_golden_check_fn check,
                         void *ctx, int *failures)
{
    int total = 0, identical = 0;
    const double t0 = ct_clock_seconds();
    *failures = 0;
    for (size_t i = 0; i < manifest->count; i++) {
        const ct_golden_row *row = &manifest->rows[i];
        if (strcmp(row->target, target) != 0 ||
            (filter && !strstr(row->output, filter)))
            continue;
        char why[4096] = "";
        total++;
        if (check(ctx, row, why, sizeof(why))) {
            identical++;
        } else {
            if (*failures < MAX_LISTED_FAILURES)
                printf("  FAIL %s %s [%s]: %s\n", target, row->output,
                       row->flags, why);
            (*failures)++;
        }
        fflush(stdout);
    }
    if (*failures > MAX_LISTED_FAILURES)
        printf("  ... and %d more failures\n",
               *failures - MAX_LISTED_FAILURES);
    printf("%s: %d of %d identical [%.1f s]\n", label, identical, total,
           ct_clock_seconds() - t0);
    return total;
}
