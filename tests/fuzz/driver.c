/*
 * The fuzz targets as plain programs, where libFuzzer is not linked in:
 * each argument, a file or a directory of files, is run through the target
 * once, so that the seed corpus is a regression test of the normal build.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(data);
                fclose(f);
                return -1;
            }
            data = grown;
        }
        const size_t got = fread(data + size, 1, cap - size, f);
        if (got == 0)
            break;
        size += got;
    }
    const int read_error = ferror(f);
    fclose(f);
    if (read_error) {
        fprintf(stderr, "%s: read error\n", path);
        free(data);
        return -1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a directory in name order, so that a failure reproduces. */
static int run_directory(const char *path, int *runs)
{
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    int status = 0;
    for (struct dirent *entry; (entry = readdir(dir));) {
        if (entry->d_name[0] == '.')
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (!grown) {
                status = -1;
                break;
            }
            names = grown;
        }
        const size_t length = strlen(path) + strlen(entry->d_name) + 2;
        if (!(names[count] = malloc(length))) {
            status = -1;
            break;
        }
        snprintf(names[count++], length, "%s/%s", path, entry->d_name);
    }
    closedir(dir);
    if (count)
        qsort(names, count, sizeof(*names), compare_names);
    for (size_t i = 0; i < count; i++) {
        if (status == 0 && run_file(names[i]) == 0)
            ++*runs;
        else
            status = -1;
        free(names[i]);
    }
    free(names);
    return status;
}

int main(int argc, char **argv)
{
    int runs = 0, status = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: not found\n", argv[i]);
            status = -1;
        } else if (S_ISDIR(st.st_mode)) {
            status |= run_directory(argv[i], &runs);
        } else if (run_file(argv[i]) == 0) {
            runs++;
        } else {
            status = -1;
        }
    }
    printf("%d inputs run\n", runs);
    return status ? 1 : 0;
}
