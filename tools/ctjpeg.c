/*
 * ctjpeg: encodes a PPM/PGM file (or, with --yuv, raw planar YCbCr) to
 * JPEG with ctcore, taking cjpegli's flags, so that the two can be
 * compared byte for byte and timed side by side, on a worker pool or as
 * the plain sequential chain. As cjpegli: "-"
 * for standard input and output, exit status 1 on any error; quiet unless
 * asked (--verbose, or --num_reps for the timing).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cjpegli_flags.h"
#include "cli.h"
#include "common/clock.h"
#include "ctcore/jpeg.h"
#include "ctcore/runtime.h"
#include "pnm.h"
#include "yuv.h"

/* The most workers --threads accepts, as ctjpegenc's threads property. */
#define MAX_THREADS 1024

static void usage(FILE *f)
{
    fputs(
        "usage: ctjpeg INPUT.ppm|pgm OUTPUT.jpg [flags]\n"
        "       ctjpeg --yuv=420|422|444 --size WxH INPUT.yuv OUTPUT.jpg "
        "[flags]\n"
        "Encodes a binary 8-bit PPM (P6) or PGM (P5) like cjpegli does;\n"
        "INPUT - reads standard input, OUTPUT - writes standard output.\n"
        "With --yuv, INPUT is raw planar 8-bit YCbCr (full range): the Y\n"
        "plane, then Cb, then Cr, each tightly packed at its own size\n"
        "(420: chroma ceil(W/2) x ceil(H/2); 422: ceil(W/2) x H; 444: W x H),\n"
        "encoded as jpegli's raw-data mode encodes planes, in their own\n"
        "sampling (--chroma_subsampling must agree or be left out; no --xyb).\n"
        "  -q, --quality N           quality 1..100 (default 90)\n"
        "  -d, --distance F          butteraugli distance 0..25 (default "
        "1.0);\n"
        "                            only one of -q and -d\n"
        "  -p, --progressive_level N 0 (sequential) .. 2 (default 2)\n"
        "  --chroma_subsampling=444|440|422|420\n"
        "                            (default 4:4:4, or jpegli's XYB layout)\n"
        "  --xyb                     XYB color space with an ICC profile\n"
        "  --std_quant               Annex K quantization tables\n"
        "  --noadaptive_quantization\n"
        "  --fixed_code              Annex K Huffman codes (needs -p 0)\n"
        "  --simd=auto|sse2|avx2     which reference arithmetic to reproduce\n"
        "                            (default auto: avx2 on CPUs with AVX2 "
        "and\n"
        "                            FMA, else sse2; or the CT_SIMD variable)\n"
        "  --threads N               worker threads, 0 = one per online CPU\n"
        "                            (default 0); the bytes do not depend on "
        "it\n"
        "  --sequential              the plain sequential chain, no pool\n"
        "  --yuv=420|422|444         INPUT is raw planar YCbCr (above)\n"
        "  --size WxH                its width and height (needs --yuv)\n"
        "  --num_reps N              encode N times (on one pool) and print\n"
        "                            the timing\n"
        "  -v, --verbose             print the image, the settings, the size\n"
        "                            and the timing\n"
        "  --quiet                   print nothing but errors (the default\n"
        "                            unless --verbose or --num_reps)\n"
        "  --version                 print ctjpeg's version\n"
        "Exit status: 0 on success (and with no arguments: this usage), 1\n"
        "on any error.\n",
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

/* Writes data to the file at path, or to standard output when path is
 * "-". Returns 0 or -1 with errno set. */
static int write_file(const char *path, const uint8_t *data, size_t size)
{
    const int to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f)
        return -1;
    const size_t written = fwrite(data, 1, size, f);
    const int failed = to_stdout ? fflush(f) != 0 || ferror(f) : fclose(f);
    return failed || written != size ? -1 : 0;
}

/* What ctjpeg reads from its command line. */
typedef struct ctjpeg_flags {
    ct_cli_args args;
    ct_cjpegli_flags cjpegli;
    unsigned long num_reps;
    int num_reps_set;
    int verbose;
    long threads;
    int threads_set;
    int sequential;
    ct_pixel_format yuv; /* 0: a PNM file */
    unsigned long width, height;
} ctjpeg_flags;

static int parse_tool_flag(void *tool_flags, const char *arg, int argc,
                           char **argv, int *i)
{
    ctjpeg_flags *f = tool_flags;
    const char *value;
    char *end;
    if (strcmp(arg, "--sequential") == 0) {
        f->sequential = 1;
    } else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
        f->verbose = 1;
    } else if ((value = flag_value("--threads", arg, argc, argv, i))) {
        errno = 0;
        f->threads = strtol(value, &end, 10);
        if (errno || end == value || *end || f->threads < 0 ||
            f->threads > MAX_THREADS) {
            fprintf(stderr, "ctjpeg: invalid --threads '%s' (0..%d)\n",
                    value, MAX_THREADS);
            return -1;
        }
        f->threads_set = 1;
    } else if ((value = flag_value("--yuv", arg, argc, argv, i))) {
        f->yuv = strcmp(value, "420") == 0   ? CT_PIXEL_I420
                 : strcmp(value, "422") == 0 ? CT_PIXEL_I422
                 : strcmp(value, "444") == 0 ? CT_PIXEL_I444
                                             : (ct_pixel_format)0;
        if (!f->yuv) {
            fprintf(stderr, "ctjpeg: invalid --yuv '%s' (420, 422 or 444)\n",
                    value);
            return -1;
        }
    } else if ((value = flag_value("--size", arg, argc, argv, i))) {
        errno = 0;
        f->width = strtoul(value, &end, 10);
        if (!errno && end != value && *end == 'x') {
            const char *h = end + 1;
            f->height = strtoul(h, &end, 10);
            if (end == h)
                f->height = 0;
        }
        if (errno || *end || f->width < 1 || f->height < 1 ||
            f->width > CT_JPEG_MAX_DIMENSION ||
            f->height > CT_JPEG_MAX_DIMENSION) {
            fprintf(stderr, "ctjpeg: invalid --size '%s' (WxH, 1..%d each)\n",
                    value, CT_JPEG_MAX_DIMENSION);
            return -1;
        }
    } else if ((value = flag_value("--num_reps", arg, argc, argv, i))) {
        f->num_reps = strtoul(value, &end, 10);
        if (end == value || *end || f->num_reps < 1 ||
            f->num_reps > 1000000) {
            fprintf(stderr, "ctjpeg: invalid --num_reps '%s'\n", value);
            return -1;
        }
        f->num_reps_set = 1;
    } else {
        return 0;
    }
    return 1;
}

static const ct_cli ctjpeg_cli = {"ctjpeg", usage, ct_cli_cjpegli_flag,
                                 parse_tool_flag};

int main(int argc, char **argv)
{
    char err[256];
    /* As cjpegli: a bare command asks what the tool does. */
    if (argc < 2) {
        usage(stdout);
        return 0;
    }
    ctjpeg_flags tool = {.num_reps = 1};
    ct_cjpegli_flags_init(&tool.cjpegli);
    int status =
        ct_cli_parse(&ctjpeg_cli, &tool.cjpegli, &tool, &tool.args, argc, argv);
    if (status != CT_CLI_RUN)
        return status;
    if (tool.sequential && tool.threads_set) {
        fprintf(stderr, "ctjpeg: only one of --threads and --sequential\n");
        return 1;
    }
    if (ct_cjpegli_flags_finish(&tool.cjpegli, err, sizeof(err)) < 0) {
        fprintf(stderr, "ctjpeg: %s\n", err);
        return 1;
    }

    if (!tool.yuv != !tool.width) {
        fprintf(stderr, "ctjpeg: --yuv and --size go together\n");
        return 1;
    }

    ct_pnm_image pnm = {0};
    ct_yuv_planes planes = {0};
    const int read = tool.yuv
                         ? ct_yuv_planes_read(
                               tool.args.input, tool.yuv, (uint32_t)tool.width,
                               (uint32_t)tool.height, &planes, err, sizeof(err))
                         : ct_pnm_read(tool.args.input, &pnm, err, sizeof(err));
    if (read < 0) {
        fprintf(stderr, "ctjpeg: %s\n", err);
        return 1;
    }
    const ct_jpeg_image image =
        tool.yuv ? ct_yuv_jpeg_image(&planes) : ct_pnm_jpeg_image(&pnm);
    const int verbose = tool.verbose && !tool.args.quiet;
    const int print_timing = verbose || (tool.num_reps_set && !tool.args.quiet);

    /* One pool for every repetition: its threads start once, as in an
     * element that encodes a stream. */
    ct_pool *pool = NULL;
    double *times = malloc(tool.num_reps * sizeof(*times));
    ct_jpeg_output out = { 0 };
    status = 1;
    if (!tool.sequential && (pool = ct_pool_new((int)tool.threads)) == NULL) {
        fprintf(stderr, "ctjpeg: out of memory for the worker pool\n");
        goto done;
    }
    if (!times) {
        fprintf(stderr, "ctjpeg: out of memory\n");
        goto done;
    }
    if (verbose) {
        char workers[32] = "sequential";
        if (!tool.sequential)
            snprintf(workers, sizeof(workers), "%d thread%s",
                     ct_pool_threads(pool),
                     ct_pool_threads(pool) == 1 ? "" : "s");
        fprintf(stderr, "Read %ux%u %s image; encoding for %s, %s.\n",
                image.width, image.height,
                tool.yuv == CT_PIXEL_I420   ? "YCbCr 4:2:0"
                : tool.yuv == CT_PIXEL_I422 ? "YCbCr 4:2:2"
                : tool.yuv == CT_PIXEL_I444 ? "YCbCr 4:4:4"
                : pnm.channels == 3         ? "RGB"
                                            : "gray",
                ct_simd_name(ct_simd_resolve(tool.cjpegli.settings.simd)),
                workers);
    }
    for (unsigned long rep = 0; rep < tool.num_reps; rep++) {
        ct_jpeg_output_free(&out);
        err[0] = '\0';
        double t0 = ct_clock_seconds();
        int r = ct_jpeg_encode(pool, &tool.cjpegli.settings, &image, &out,
                               err, sizeof(err));
        times[rep] = ct_clock_seconds() - t0;
        if (r < 0) {
            /* ctcore's message says what failed; a bare code does not. */
            if (err[0])
                fprintf(stderr, "ctjpeg: %s\n", err);
            else
                fprintf(stderr, "ctjpeg: encoding failed: %s\n",
                        ct_strerror(r));
            goto done;
        }
    }
    if (write_file(tool.args.output, out.data, out.size) < 0) {
        const int to_stdout = strcmp(tool.args.output, "-") == 0;
        fprintf(stderr, "ctjpeg: could not write %s: %s\n",
                to_stdout ? "<stdout>" : tool.args.output, strerror(errno));
        goto done;
    }
    const double pixels = (double)image.width * (double)image.height;
    if (verbose)
        fprintf(stderr, "Compressed to %zu bytes (%.3f bpp).\n", out.size,
                (double)out.size * 8.0 / pixels);
    if (print_timing) {
        qsort(times, tool.num_reps, sizeof(*times), compare_doubles);
        const unsigned long half = tool.num_reps / 2;
        double median = tool.num_reps % 2 ? times[half] :
                        (times[half - 1] + times[half]) / 2;
        fprintf(stderr, "%ux%u, median %.3f ms, %.3f MP/s over %lu reps\n",
                image.width, image.height, median * 1e3, pixels * 1e-6 / median,
                tool.num_reps);
    }
    status = 0;
done:
    ct_jpeg_output_free(&out);
    free(times);
    ct_pool_unref(pool);
    ct_pnm_free(&pnm);
    ct_yuv_planes_free(&planes);
    return status;
}
