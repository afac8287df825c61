/*
 * The entropy coder's stages (entropy_stages.h), run without threads, job
 * by job, in order, in reverse and shuffled where a stage allows: with
 * every split (whole scans; bands of one MCU row; 9 bands per AC scan;
 * bands sized for several workers; chunks of one band each, or whole
 * scans) the file must be exactly ct_jpeg_write_file's, and the stitched
 * tokens of every scan exactly the sequential tokenizer's. One more run
 * puts the jobs on a pool of four threads, as the graph does.
 *
 * Inputs: rows of the golden set (every input but the photos with every
 * flag set, a sample of the photo rows), and synthetic coefficients that
 * push the stitch to its limits: EOB runs over 32767 blocks across many
 * bands, refinement runs whose correction bits split their tokens, sparse
 * newly nonzero coefficients, random DC.
 *
 * usage: entropy_split GOLDEN_DIR
 *        entropy_split --bench PHOTO.ppm [FLAGS]   single-thread timings
 * Exits 0 when all are identical, 1 on any difference; without the golden
 * set only the synthetic cases run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cjpegli_flags.h"
#include "ctcore/jpeg.h"
#include "golden_manifest.h"
#include "jpeg/coeffs.h"
#include "jpeg/entropy.h"
#include "jpeg/entropy_internal.h"
#include "jpeg/entropy_stages.h"
#include "jpeg/frame.h"
#include "jpeg/pixels.h"
#include "jpeg/token_bands.h"
#include "jpeg/xyb.h"
#include "pnm.h"
#include "runtime/stage.h"

#define MAX_LISTED_FAILURES 20

typedef enum job_order { FORWARD, REVERSE, SHUFFLED } job_order;

/* A split, the order its jobs run in (or on a pool of threads), and
 * whether the stitched tokens are compared with the sequential
 * tokenizer's. */
typedef struct split_run {
    const char *name;
    ct_jpeg_entropy_split split;
    job_order order;
    int check_tokens;
    int threaded;
} split_run;

static const split_run split_runs[] = {
    {"one worker", {1, 0, 0, 0}, FORWARD, 0, 0},
    {"16 workers", {16, 0, 0, 0}, SHUFFLED, 1, 0},
    {"bands of one row, chunk per band", {1, 1, 0, 1}, REVERSE, 1, 0},
    {"whole scans", {4, INT_MAX, 0, UINT64_MAX}, SHUFFLED, 0, 0},
    {"9 AC bands, chunk per band", {3, 0, 9, 1}, SHUFFLED, 1, 0},
    {"9 AC bands, 7 workers", {7, 0, 9, 0}, REVERSE, 0, 0},
    {"bands of 3 rows, 1000-bit chunks", {2, 3, 0, 1000}, SHUFFLED, 0, 0},
    /* And once on threads, as the graph runs them. */
    {"4 threads, split for 8 workers", {8, 0, 0, 0}, FORWARD, 0, 1},
};
#define NUM_SPLIT_RUNS (sizeof(split_runs) / sizeof(split_runs[0]))

static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static double ms_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double now_ms(void)
{
    return ms_of(CLOCK_MONOTONIC);
}

/* The timings count the CPU time of this thread: other processes on the
 * machine do not add to them. */
static double cpu_ms(void)
{
    return ms_of(CLOCK_THREAD_CPUTIME_ID);
}

/* The order in which a stage's n jobs run. */
static size_t *job_list(size_t n, job_order order, uint32_t *state)
{
    size_t *jobs = malloc((n > 0 ? n : 1) * sizeof(*jobs));
    if (jobs == NULL)
        return NULL;
    for (size_t i = 0; i < n; ++i)
        jobs[i] = order == REVERSE ? n - 1 - i : i;
    if (order == SHUFFLED) {
        for (size_t i = n; i > 1; --i) {
            const size_t j = next_random(state) % i;
            const size_t t = jobs[i - 1];
            jobs[i - 1] = jobs[j];
            jobs[j] = t;
        }
    }
    return jobs;
}

/* The tokens of scan s, part after part, against ct_jpeg_tokenize_scan's.
 * Returns 1 when equal. */
static int same_tokens(const ct_jpeg_frame *frame,
                       const ct_jpeg_coeffs *coeffs,
                       const ct_jpeg_scan_bands *sb, char *why,
                       size_t why_size)
{
    ct_jpeg_scan_tokens seq;
    memset(&seq, 0, sizeof(seq));
    if (ct_jpeg_tokenize_scan(frame, coeffs, sb->scan_index, sb->ac_context,
                              sb->padding, &seq) != CT_OK) {
        snprintf(why, why_size, "out of memory");
        return 0;
    }
    size_t tokens = 0, ref_tokens = 0, refbits = 0, eobruns = 0;
    int same = 1;
    for (int b = 0; b < sb->num_bands && same; ++b) {
        const ct_jpeg_scan_tokens *parts[3];
        const int num_parts = ct_jpeg_band_parts(sb, b, parts);
        for (int p = 0; p < num_parts && same; ++p) {
            const ct_jpeg_scan_tokens *part = parts[p];
            same = tokens + part->num_tokens <= seq.num_tokens &&
                   ref_tokens + part->num_ref_tokens <= seq.num_ref_tokens &&
                   refbits + part->num_refbits <= seq.num_refbits &&
                   eobruns + part->num_eobruns <= seq.num_eobruns &&
                   (part->num_tokens == 0 ||
                    memcmp(seq.tokens + tokens, part->tokens,
                           part->num_tokens * sizeof(*part->tokens)) == 0) &&
                   (part->num_ref_tokens == 0 ||
                    memcmp(seq.ref_tokens + ref_tokens, part->ref_tokens,
                           part->num_ref_tokens *
                               sizeof(*part->ref_tokens)) == 0) &&
                   (part->num_refbits == 0 ||
                    memcmp(seq.refbits + refbits, part->refbits,
                           part->num_refbits) == 0) &&
                   (part->num_eobruns == 0 ||
                    memcmp(seq.eobruns + eobruns, part->eobruns,
                           part->num_eobruns * sizeof(*part->eobruns)) == 0);
            if (!same)
                snprintf(why, why_size,
                         "scan %d: tokens differ in band %d part %d "
                         "(after %zu tokens, %zu ref tokens, %zu bits)",
                         sb->scan_index, b, p, tokens, ref_tokens, refbits);
            tokens += part->num_tokens;
            ref_tokens += part->num_ref_tokens;
            refbits += part->num_refbits;
            eobruns += part->num_eobruns;
        }
    }
    if (same &&
        (tokens != seq.num_tokens || ref_tokens != seq.num_ref_tokens ||
         refbits != seq.num_refbits || eobruns != seq.num_eobruns)) {
        snprintf(why, why_size,
                 "scan %d: %zu/%zu/%zu/%zu tokens/ref tokens/bits/runs, "
                 "sequentially %zu/%zu/%zu/%zu",
                 sb->scan_index, tokens, ref_tokens, refbits, eobruns,
                 seq.num_tokens, seq.num_ref_tokens, seq.num_refbits,
                 seq.num_eobruns);
        same = 0;
    }
    ct_jpeg_scan_tokens_free(&seq);
    return same;
}

/* What the jobs of a stage read. */
typedef struct stage_input {
    ct_jpeg_entropy *e;
    const ct_jpeg_coeffs *coeffs;
} stage_input;

typedef int (*stage_job)(const stage_input *in, size_t job);

static int tokenize_job(const stage_input *in, size_t job)
{
    return ct_jpeg_entropy_tokenize(in->e, in->coeffs, job);
}

static int stitch_job(const stage_input *in, size_t job)
{
    return ct_jpeg_entropy_stitch(in->e, job);
}

static int count_job(const stage_input *in, size_t job)
{
    ct_jpeg_entropy_count(in->e, job);
    return CT_OK;
}

static int write_job(const stage_input *in, size_t job)
{
    return ct_jpeg_entropy_write(in->e, job);
}

static int splice_job(const stage_input *in, size_t job)
{
    ct_jpeg_entropy_splice(in->e, job);
    return CT_OK;
}

static int release_job(const stage_input *in, size_t job)
{
    ct_jpeg_entropy_release(in->e, job);
    return CT_OK;
}

typedef struct pool_stage {
    const stage_input *in;
    stage_job job;
} pool_stage;

static int run_pool_job(void *ctx, size_t job, int worker)
{
    (void)worker;
    const pool_stage *stage = ctx;
    return stage->job(stage->in, job);
}

/* The n jobs of a stage on the pool, or without one in the run's order. */
static int run_jobs(const stage_input *in, size_t n, stage_job job,
                    ct_pool *pool, job_order order, uint32_t *state)
{
    if (pool != NULL) {
        pool_stage stage = {in, job};
        return ct_stage_run(pool, n, run_pool_job, &stage);
    }
    size_t *jobs = job_list(n, order, state);
    if (jobs == NULL)
        return CT_ENOMEM;
    int rc = CT_OK;
    for (size_t i = 0; i < n && rc == CT_OK; ++i)
        rc = job(in, jobs[i]);
    free(jobs);
    return rc;
}

/* Every stage of entropy_stages.h with the run's split and order (on pool
 * when the run is threaded). Returns CT_OK, an error of the stages, or 1
 * when tokens differ (why says how). */
static int run_stages(const ct_jpeg_frame *frame, const ct_jpeg_coeffs *coeffs,
                      const uint8_t *icc, size_t icc_size,
                      const split_run *run, ct_pool *pool,
                      ct_jpeg_output *out, char *why, size_t why_size)
{
    uint32_t state = 0x9e3779b9u;
    const job_order order = run->order;
    if (!run->threaded)
        pool = NULL;
    stage_input in = {NULL, coeffs};
    int rc = ct_jpeg_entropy_new(&in.e, frame, &run->split);
    const size_t num_scans = rc == CT_OK ? ct_jpeg_entropy_num_scans(in.e)
                                         : 0;
    if (rc == CT_OK)
        rc = run_jobs(&in, ct_jpeg_entropy_tokenize_jobs(in.e), tokenize_job,
                      pool, order, &state);
    if (rc == CT_OK)
        rc = run_jobs(&in, num_scans, stitch_job, pool, order, &state);
    for (size_t s = 0; s < num_scans && rc == CT_OK && run->check_tokens; ++s)
        if (!same_tokens(frame, coeffs, ct_jpeg_entropy_scan_bands(in.e, s),
                         why, why_size))
            rc = 1;
    if (rc == CT_OK)
        rc = ct_jpeg_entropy_huffman(in.e);
    if (rc == CT_OK)
        rc = run_jobs(&in, num_scans, count_job, pool, order, &state);
    if (rc == CT_OK)
        rc = ct_jpeg_entropy_place_cursors(in.e);
    if (rc == CT_OK)
        rc = run_jobs(&in, ct_jpeg_entropy_write_jobs(in.e), write_job, pool,
                      order, &state);
    if (rc == CT_OK)
        rc = run_jobs(&in, num_scans, splice_job, pool, order, &state);
    if (rc == CT_OK)
        rc = ct_jpeg_entropy_assemble(in.e, icc, icc_size, out);
    if (rc == CT_OK)
        rc = run_jobs(&in, num_scans, release_job, pool, order, &state);
    ct_jpeg_entropy_free(in.e);
    return rc;
}

/* Runs every split on the coefficients (the threaded ones only with a
 * pool: fork-join costs more than the small images take); returns the
 * number that differ from the sequential file and adds the runs to
 * *total. */
static int check_coefficients(const char *name, const ct_jpeg_frame *frame,
                              const ct_jpeg_coeffs *coeffs,
                              const uint8_t *icc, size_t icc_size,
                              const ct_jpeg_output *expected, ct_pool *pool,
                              int *total, int *listed)
{
    int failures = 0;
    for (size_t r = 0; r < NUM_SPLIT_RUNS; ++r) {
        if (split_runs[r].threaded && pool == NULL)
            continue;
        char why[512] = "";
        ct_jpeg_output out = {0};
        const int rc = run_stages(frame, coeffs, icc, icc_size,
                                  &split_runs[r], pool, &out, why,
                                  sizeof(why));
        ++*total;
        if (rc == CT_OK &&
            (out.size != expected->size ||
             memcmp(out.data, expected->data, out.size) != 0)) {
            size_t first = 0;
            while (first < out.size && first < expected->size &&
                   out.data[first] == expected->data[first])
                ++first;
            snprintf(why, sizeof(why),
                     "%zu bytes, sequentially %zu; first difference at "
                     "byte %zu",
                     out.size, expected->size, first);
        } else if (rc != CT_OK && rc != 1) {
            snprintf(why, sizeof(why), "stages failed: %s", ct_strerror(rc));
        }
        if (why[0] != '\0') {
            if (++*listed <= MAX_LISTED_FAILURES)
                printf("  FAIL %s [%s]: %s\n", name, split_runs[r].name, why);
            ++failures;
        }
        ct_jpeg_output_free(&out);
    }
    return failures;
}

/* The pixel phase over the whole image, then the DC chain. */
static int compute_coefficients(const ct_jpeg_frame *frame,
                                const ct_jpeg_image *image,
                                ct_jpeg_coeffs *coeffs)
{
    if (ct_jpeg_coeffs_alloc(coeffs, frame) != CT_OK ||
        ct_jpeg_pixel_image(frame, image, coeffs) != CT_OK)
        return CT_ENOMEM;
    ct_jpeg_resolve_dc(frame, coeffs);
    return CT_OK;
}

/* An encoder input: frame, coefficients, ICC profile and the sequential
 * file. */
typedef struct encoded {
    ct_jpeg_frame frame;
    ct_jpeg_coeffs coeffs;
    uint8_t *icc;
    size_t icc_size;
    ct_jpeg_output file;
} encoded;

static void encoded_free(encoded *enc)
{
    ct_jpeg_coeffs_free(&enc->coeffs);
    free(enc->icc);
    ct_jpeg_output_free(&enc->file);
}

/* Setup, pixel phase and the sequential file of an image. Returns CT_OK
 * or an error with a message in err. */
static int encode_image(const ct_jpeg_settings *settings,
                        const ct_pnm_image *pnm, encoded *enc, char *err,
                        size_t err_size)
{
    memset(enc, 0, sizeof(*enc));
    const ct_jpeg_image image = ct_pnm_jpeg_image(pnm);
    int rc = ct_jpeg_setup(&enc->frame, settings, image.width, image.height,
                           image.format, err, err_size);
    if (rc != CT_OK)
        return rc;
    rc = compute_coefficients(&enc->frame, &image, &enc->coeffs);
    if (rc == CT_OK && enc->frame.xyb)
        rc = ct_jpeg_xyb_icc(&enc->icc, &enc->icc_size);
    if (rc == CT_OK)
        rc = ct_jpeg_write_file(&enc->frame, &enc->coeffs, enc->icc,
                                enc->icc_size, &enc->file);
    if (rc != CT_OK)
        snprintf(err, err_size, "%s", ct_strerror(rc));
    return rc;
}

/* ------------------------------------------------------------------ */
/* Golden rows                                                         */

/* The photos are large: a sample of their flag sets. */
static const struct {
    const char *input;
    const char *flags;
} photo_rows[] = {
    {"photo-elephants", ""},
    {"photo-elephants", "--chroma_subsampling=420"},
    {"photo-elephants", "-p 1"},
    {"photo-elephants", "-p 0"},
    {"photo-eveningglow", "-d 25"},
    {"photo-grey", ""},
    {"photo-raindrops-gray", "-p 1 --std_quant --noadaptive_quantization"},
    {"photo-storm", "--chroma_subsampling=422"},
};

static int is_sampled(const ct_golden_row *row)
{
    if (strcmp(row->target, "sse2") != 0)
        return 0;
    if (strstr(row->input, "inputs/photo-") == NULL)
        return 1;
    for (size_t i = 0; i < sizeof(photo_rows) / sizeof(photo_rows[0]); ++i) {
        const char *name = strstr(row->input, photo_rows[i].input);
        /* "photo-raindrops" must not take "photo-raindrops-gray". */
        if (name != NULL && name[strlen(photo_rows[i].input)] == '-' &&
            (name[strlen(photo_rows[i].input) + 1] >= '0' &&
             name[strlen(photo_rows[i].input) + 1] <= '9') &&
            strcmp(row->flags, photo_rows[i].flags) == 0)
            return 1;
    }
    return 0;
}

static int run_golden(const char *dir, ct_pool *pool, int *total,
                      int *failures, int *listed)
{
    ct_golden_manifest manifest;
    char err[512];
    if (ct_golden_manifest_read(dir, &manifest, err, sizeof(err)) < 0) {
        printf("golden set broken: %s\n", err);
        return -1;
    }
    char input_path[4096] = "";
    ct_pnm_image pnm;
    int loaded = 0;
    int rows = 0;
    for (size_t i = 0; i < manifest.count; ++i) {
        const ct_golden_row *row = &manifest.rows[i];
        if (!is_sampled(row))
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, row->input);
        if (!loaded || strcmp(path, input_path) != 0) {
            if (loaded)
                ct_pnm_free(&pnm);
            loaded = ct_pnm_read(path, &pnm, err, sizeof(err)) == 0;
            if (!loaded) {
                printf("  FAIL %s: %s\n", row->input, err);
                ++*failures;
                continue;
            }
            snprintf(input_path, sizeof(input_path), "%s", path);
        }
        ct_jpeg_settings settings;
        if (ct_cjpegli_flags_from_string(row->flags, &settings, err,
                                         sizeof(err)) < 0) {
            printf("  FAIL %s [%s]: flags: %s\n", row->output, row->flags,
                   err);
            ++*failures;
            continue;
        }
        settings.simd = CT_SIMD_SSE2;
        encoded enc;
        const int rc = encode_image(&settings, &pnm, &enc, err, sizeof(err));
        char name[1024];
        snprintf(name, sizeof(name), "%s [%s]", row->output, row->flags);
        if (rc != CT_OK) {
            printf("  FAIL %s: %s\n", name, err);
            ++*failures;
        } else {
            const int is_photo = strstr(row->input, "photo-") != NULL;
            *failures += check_coefficients(name, &enc.frame, &enc.coeffs,
                                            enc.icc, enc.icc_size, &enc.file,
                                            is_photo ? pool : NULL, total,
                                            listed);
            ++rows;
        }
        encoded_free(&enc);
    }
    if (loaded)
        ct_pnm_free(&pnm);
    ct_golden_manifest_free(&manifest);
    return rows;
}

/* ------------------------------------------------------------------ */
/* Synthetic coefficients                                              */

/*
 * Block rows in stripes of kinds, chosen per stripe: all zero (long EOB
 * runs); every AC coefficient large (every refinement block a full set of
 * correction bits, so the 255-bit limit splits the runs); sparse small
 * coefficients (newly nonzero ones in the refinement scans); dense random
 * ones. DC random throughout. A component of more than 40000 blocks has an
 * all-zero stripe of 40000 blocks or more from a quarter of its height: a
 * run over 32767 blocks, across many bands.
 */
#define LONG_RUN_BLOCKS 40000

static void fill_synthetic(const ct_jpeg_frame *frame, ct_jpeg_coeffs *coeffs,
                           uint32_t seed)
{
    uint32_t state = seed;
    for (int c = 0; c < frame->num_components; ++c) {
        const ct_jpeg_component *comp = &frame->comp[c];
        const int width = comp->width_in_blocks;
        const int height = comp->height_in_blocks;
        const int long_run_row =
            (int64_t)width * height > LONG_RUN_BLOCKS ? height / 4 : -1;
        int kind = 0, stripe_left = 0;
        for (int by = 0; by < height; ++by) {
            if (by == long_run_row) {
                kind = 0;
                stripe_left = (LONG_RUN_BLOCKS + width - 1) / width;
            } else if (stripe_left == 0) {
                kind = (int)(next_random(&state) % 4);
                stripe_left = 1 + (int)(next_random(&state) % 40);
            }
            --stripe_left;
            for (int bx = 0; bx < width; ++bx) {
                int16_t *block = ct_jpeg_block(coeffs, frame, c, by, bx);
                block[0] = (int16_t)((int)(next_random(&state) % 1001) - 500);
                for (int k = 1; k < CT_DCTSIZE2; ++k) {
                    const uint32_t r = next_random(&state);
                    int v = 0;
                    switch (kind) {
                    case 1:
                        v = 2 + (int)(r % 60);
                        break;
                    case 2:
                        v = r % 97 == 0 ? 1 + (int)(r >> 8) % 4 : 0;
                        break;
                    case 3:
                        v = r % 3 == 0 ? (int)(r >> 8) % 200 : 0;
                        break;
                    }
                    block[k] = (int16_t)((r >> 31) ? -v : v);
                }
            }
        }
    }
}

static const struct {
    uint32_t width, height;
    int gray;
    ct_jpeg_subsampling subsampling;
    int progressive_level;
} synthetic_cases[] = {
    {2048, 2048, 1, CT_JPEG_SUBSAMPLING_DEFAULT, 2},
    {2048, 2048, 1, CT_JPEG_SUBSAMPLING_DEFAULT, 1},
    {2048, 1536, 0, CT_JPEG_SUBSAMPLING_420, 2},
    {1000, 1000, 0, CT_JPEG_SUBSAMPLING_444, 1},
    {999, 777, 0, CT_JPEG_SUBSAMPLING_420, 0},
    {333, 2100, 1, CT_JPEG_SUBSAMPLING_DEFAULT, 0},
    {1, 1, 1, CT_JPEG_SUBSAMPLING_DEFAULT, 2},
    {1, 1, 0, CT_JPEG_SUBSAMPLING_420, 2},
    {17, 23, 0, CT_JPEG_SUBSAMPLING_420, 1},
    {9, 301, 0, CT_JPEG_SUBSAMPLING_422, 2},
    {301, 9, 0, CT_JPEG_SUBSAMPLING_440, 0},
};

static const char *const subsampling_names[] = {"", " 444", " 440", " 422",
                                                " 420"};

static int run_synthetic(ct_pool *pool, int *total, int *failures,
                         int *listed)
{
    const size_t n = sizeof(synthetic_cases) / sizeof(synthetic_cases[0]);
    for (size_t i = 0; i < n; ++i) {
        ct_jpeg_settings settings;
        ct_jpeg_settings_default(&settings);
        settings.chroma_subsampling = synthetic_cases[i].subsampling;
        settings.progressive_level = synthetic_cases[i].progressive_level;
        settings.simd = CT_SIMD_SSE2;
        char name[256], err[512];
        snprintf(name, sizeof(name), "synthetic %ux%u %s%s -p %d",
                 (unsigned)synthetic_cases[i].width,
                 (unsigned)synthetic_cases[i].height,
                 synthetic_cases[i].gray ? "gray" : "color",
                 subsampling_names[synthetic_cases[i].subsampling],
                 synthetic_cases[i].progressive_level);
        encoded enc;
        memset(&enc, 0, sizeof(enc));
        int rc = ct_jpeg_setup(&enc.frame, &settings, synthetic_cases[i].width,
                               synthetic_cases[i].height,
                               synthetic_cases[i].gray ? CT_PIXEL_GRAY8
                                                       : CT_PIXEL_RGB8,
                               err, sizeof(err));
        if (rc == CT_OK)
            rc = ct_jpeg_coeffs_alloc(&enc.coeffs, &enc.frame);
        if (rc == CT_OK) {
            fill_synthetic(&enc.frame, &enc.coeffs, 1234567u + (uint32_t)i);
            rc = ct_jpeg_write_file(&enc.frame, &enc.coeffs, NULL, 0,
                                    &enc.file);
        }
        if (rc != CT_OK) {
            printf("  FAIL %s: %s\n", name, ct_strerror(rc));
            ++*failures;
        } else {
            *failures += check_coefficients(name, &enc.frame, &enc.coeffs,
                                            NULL, 0, &enc.file, pool, total,
                                            listed);
        }
        encoded_free(&enc);
    }
    return (int)n;
}

/* ------------------------------------------------------------------ */
/* Timings                                                             */

static double best_of(int reps, const encoded *enc, const split_run *run)
{
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        ct_jpeg_output out = {0};
        char why[256];
        const double t0 = cpu_ms();
        const int rc =
            run == NULL
                ? ct_jpeg_write_file(&enc->frame, &enc->coeffs, enc->icc,
                                     enc->icc_size, &out)
                : run_stages(&enc->frame, &enc->coeffs, enc->icc,
                             enc->icc_size, run, NULL, &out, why,
                             sizeof(why));
        const double t = cpu_ms() - t0;
        if (rc != CT_OK || out.size != enc->file.size ||
            memcmp(out.data, enc->file.data, out.size) != 0) {
            printf("bench: the bytes differ\n");
            exit(1);
        }
        ct_jpeg_output_free(&out);
        if (t < best)
            best = t;
    }
    return best;
}

static int bench(const char *path, const char *flags)
{
    char err[512];
    ct_pnm_image pnm;
    ct_jpeg_settings settings;
    if (ct_pnm_read(path, &pnm, err, sizeof(err)) < 0 ||
        ct_cjpegli_flags_from_string(flags, &settings, err, sizeof(err)) < 0) {
        printf("bench: %s\n", err);
        return 1;
    }
    encoded enc;
    if (encode_image(&settings, &pnm, &enc, err, sizeof(err)) != CT_OK) {
        printf("bench: %s\n", err);
        return 1;
    }
    const int reps = 7;
    printf("%s [%s], %zu bytes, best of %d, CPU time of one thread:\n",
           path, flags,
           enc.file.size, reps);
    printf("  ct_jpeg_write_file (sequential)   %8.2f ms\n",
           best_of(reps, &enc, NULL));
    static const split_run runs[] = {
        {"stages, split for 1 worker", {1, 0, 0, 0}, FORWARD, 0, 0},
        {"stages, split for 16 workers", {16, 0, 0, 0}, FORWARD, 0, 0},
        {"stages, bands of one row", {1, 1, 0, 1}, FORWARD, 0, 0},
    };
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); ++i)
        printf("  %-32s  %8.2f ms\n", runs[i].name,
               best_of(reps, &enc, &runs[i]));
    encoded_free(&enc);
    ct_pnm_free(&pnm);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--bench") == 0)
        return bench(argv[2], argc >= 4 ? argv[3] : "");
    if (argc != 2) {
        fprintf(stderr, "usage: entropy_split GOLDEN_DIR\n"
                        "       entropy_split --bench PHOTO.ppm [FLAGS]\n");
        return 2;
    }
    const double t0 = now_ms();
    ct_pool *pool = ct_pool_new(4);
    if (pool == NULL) {
        printf("out of memory\n");
        return 1;
    }
    int total = 0, failures = 0, listed = 0;
    const int synthetic = run_synthetic(pool, &total, &failures, &listed);
    printf("synthetic coefficients: %d cases\n", synthetic);
    struct stat st;
    if (stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode)) {
        const int rows =
            run_golden(argv[1], pool, &total, &failures, &listed);
        if (rows < 0)
            ++failures;
        else
            printf("golden set: %d rows (all but the photos, and %zu photo "
                   "rows)\n",
                   rows, sizeof(photo_rows) / sizeof(photo_rows[0]));
    } else {
        printf("golden set not found at %s: synthetic cases only\n",
               argv[1]);
    }
    ct_pool_unref(pool);
    if (listed > MAX_LISTED_FAILURES)
        printf("  ... and %d more failures\n", listed - MAX_LISTED_FAILURES);
    printf("%d of %d identical [%.1f s]\n", total - failures, total,
           (now_ms() - t0) * 1e-3);
    return failures ? 1 : 0;
}
