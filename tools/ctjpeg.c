/*
 * ctjpeg: encodes a PPM/PGM file to JPEG with ctcore, taking cjpegli's
 * flags, so that the two can be compared byte for byte and timed side by
 * side, on a worker pool or as the plain sequential chain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cjpegli_flags.h"
#include "ctcore/jpeg.h"
#include "ctcore/runtime.h"
#include "pnm.h"
#include "common/clock.h"

/* The most workers --threads accepts, as ctjpegenc's threads property. */
#define MAX_THREADS 1024

static void usage(FILE *f)
{
    fputs(
        "usage: ctjpeg INPUT.ppm|pgm OUTPUT.jpg [flags]\n"
        "Encodes a binary 8-bit PPM (P6) or PGM (P5) like cjpegli does.\n"
        "  -q, --quality N           quality 1..100 (default 90)\n"
        "  -d, --distance F          butteraugli distance 0..25 (default 1.0);\n"
        "                            only one of -q and -d\n"
        "  -p, --progressive_level N 0 (sequential) .. 2 (default 2)\n"
        "  --chroma_subsampling=444|440|422|420\n"
        "                            (default 4:4:4, or jpegli's XYB layout)\n"
        "  --xyb                     XYB color space with an ICC profile\n"
        "  --std_quant               Annex K quantization tables\n"
        "  --noadaptive_quantization\n"
        "  --fixed_code              Annex K Huffman codes (needs -p 0)\n"
        "  --simd=auto|sse2|avx2     which reference arithmetic to reproduce\n"
        "                            (default auto: avx2 on CPUs with AVX2 and\n"
        "                            FMA, else sse2; or the CT_SIMD variable)\n"
        "  --threads N               worker threads, 0 = one per online CPU\n"
        "                            (default 0); the bytes do not depend on it\n"
        "  --sequential              the plain sequential chain, no pool\n"
        "  --num_reps N              encode N times (on one pool) and report\n"
        "                            the timing\n"
        "  --quiet                   print nothing but errors\n",
        f);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The value of "--name=value" or "--name value"; NULL when arg is some
 * other flag. An absent value reads as "". */
static const char *flag_value(const char *name, const char *arg, int argc,
                              char **argv, int *i)
{
    size_t length = strlen(name);
    if (strncmp(arg, name, length) != 0)
        return NULL;
    if (arg[length] == '=')
        return arg + length + 1;
    if (arg[length] != '\0')
        return NULL;
    return *i < argc ? argv[(*i)++] : "";
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t written = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || written != size)
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *positional[2];
    int num_positional = 0;
    unsigned long num_reps = 1;
    long threads = 0;
    int threads_set = 0, sequential = 0;
    int quiet = 0;
    char err[256];
    ct_cjpegli_flags flags;
    ct_cjpegli_flags_init(&flags);

    for (int i = 1; i < argc;) {
        int r = ct_cjpegli_flags_parse(&flags, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "ctjpeg: %s\n", err);
            return 1;
        }
        if (r > 0)
            continue;
        const char *arg = argv[i++];
        const char *value;
        char *end;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(arg, "--sequential") == 0) {
            sequential = 1;
        } else if ((value = flag_value("--threads", arg, argc, argv, &i))) {
            errno = 0;
            threads = strtol(value, &end, 10);
            if (errno || end == value || *end || threads < 0 ||
                threads > MAX_THREADS) {
                fprintf(stderr, "ctjpeg: invalid --threads '%s' (0..%d)\n",
                        value, MAX_THREADS);
                return 1;
            }
            threads_set = 1;
        } else if ((value = flag_value("--num_reps", arg, argc, argv, &i))) {
            num_reps = strtoul(value, &end, 10);
            if (end == value || *end || num_reps < 1 || num_reps > 1000000) {
                fprintf(stderr, "ctjpeg: invalid --num_reps '%s'\n", value);
                return 1;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "ctjpeg: unknown flag '%s'\n", arg);
            usage(stderr);
            return 1;
        } else if (num_positional < 2) {
            positional[num_positional++] = arg;
        } else {
            fprintf(stderr, "ctjpeg: unexpected argument '%s'\n", arg);
            return 1;
        }
    }
    if (num_positional != 2) {
        usage(stderr);
        return 1;
    }
    if (sequential && threads_set) {
        fprintf(stderr, "ctjpeg: only one of --threads and --sequential\n");
        return 1;
    }
    if (ct_cjpegli_flags_finish(&flags, err, sizeof(err)) < 0) {
        fprintf(stderr, "ctjpeg: %s\n", err);
        return 1;
    }

    ct_pnm_image pnm;
    if (ct_pnm_read(positional[0], &pnm, err, sizeof(err)) < 0) {
        fprintf(stderr, "ctjpeg: %s\n", err);
        return 1;
    }
    const ct_jpeg_image image = ct_pnm_jpeg_image(&pnm);

    /* One pool for every repetition: its threads start once, as in an
     * element that encodes a stream. */
    ct_pool *pool = NULL;
    double *times = malloc(num_reps * sizeof(*times));
    ct_jpeg_output out = { 0 };
    int status = 1;
    if (!sequential && (pool = ct_pool_new((int)threads)) == NULL) {
        fprintf(stderr, "ctjpeg: out of memory for the worker pool\n");
        goto done;
    }
    if (!times) {
        fprintf(stderr, "ctjpeg: out of memory\n");
        goto done;
    }
    if (!quiet) {
        char workers[32] = "sequential";
        if (!sequential)
            snprintf(workers, sizeof(workers), "%d thread%s",
                     ct_pool_threads(pool),
                     ct_pool_threads(pool) == 1 ? "" : "s");
        fprintf(stderr, "Read %ux%u %s image; encoding for %s, %s.\n",
                pnm.width, pnm.height, pnm.channels == 3 ? "RGB" : "gray",
                ct_simd_name(ct_simd_resolve(flags.settings.simd)), workers);
    }
    for (unsigned long rep = 0; rep < num_reps; rep++) {
        ct_jpeg_output_free(&out);
        err[0] = '\0';
        double t0 = ct_clock_seconds();
        int r = ct_jpeg_encode(pool, &flags.settings, &image, &out, err,
                               sizeof(err));
        times[rep] = ct_clock_seconds() - t0;
        if (r < 0) {
            fprintf(stderr, "ctjpeg: encoding failed: %s\n",
                    err[0] ? err : ct_strerror(r));
            goto done;
        }
    }
    if (write_file(positional[1], out.data, out.size) < 0) {
        fprintf(stderr, "ctjpeg: could not write %s\n", positional[1]);
        goto done;
    }
    if (!quiet) {
        double pixels = (double)pnm.width * (double)pnm.height;
        qsort(times, num_reps, sizeof(*times), compare_doubles);
        double median = num_reps % 2 ? times[num_reps / 2] :
                        (times[num_reps / 2 - 1] + times[num_reps / 2]) / 2;
        fprintf(stderr, "Compressed to %zu bytes (%.3f bpp).\n", out.size,
                (double)out.size * 8.0 / pixels);
        fprintf(stderr, "%ux%u, median %.3f ms, %.3f MP/s over %lu reps\n",
                pnm.width, pnm.height, median * 1e3, pixels * 1e-6 / median,
                num_reps);
    }
    status = 0;
done:
    ct_jpeg_output_free(&out);
    free(times);
    ct_pool_unref(pool);
    ct_pnm_free(&pnm);
    return status;
}
