/*
 * The Opus frame ring (ctcore/opus/graph.c) against the sequential path:
 * every case of the oracle matrix (each corpus clip under each row of
 * opus_corpus_flags, the synthetic and the derived WAVs) encoded on the
 * ring at 1 to 7 and 16 threads, at extreme ring sizes (1, 2, 16 and 128
 * slots besides the default) and with the optional nodes forced off
 * (resampling, tonality analysis, both, neither), must give the Ogg bytes
 * of the sequential path (ct_opus_encoder_new on a NULL pool with no
 * ring), which the oracle tests prove identical to Debian's opusenc. On
 * one thread (or a NULL pool) the ring runs every frame through its nodes
 * at its push (no concurrency: the decomposition alone); on more, the
 * nodes run on the pool's workers.
 *
 * The forced nodes rotate with the case, so that every configuration runs
 * under each of them across the matrix. The input goes in pieces of 1, 7,
 * 960, 4096, 333 and 48000 frames (from a point of that cycle that varies
 * with the run) or in one piece; some runs receive after each piece,
 * others only after the drain. Per case, one run resets the encoder in the
 * middle of a first stream and encodes the case again, and one writes
 * packets (CT_OPUS_OUTPUT_PACKETS) to compare with the sequential path's.
 *
 * usage: opus_graph [--quick | --theta | --speculate] [--filter TEXT]
 *                   CORPUS_DIR
 * --quick: a small matrix (what `meson test` runs, and under
 *          ThreadSanitizer without the corpus): the synthetic WAVs, and
 *          where the corpus is, the first 10 s of three clips under a few
 *          settings and a 5.1 WAV, on fewer configurations.
 * --theta: the Theta node (CELT's theta trials on a helper) forced on at
 *          2, 3 and 4 threads and on one, without rotation, for the first
 *          10 s of the stereo clips at complexity 10 and 8 and at 24 kb/s
 *          (Hybrid); the helper must have run some of the trials. Without
 *          the corpus (77, skipped), unless with --quick.
 * --speculate: the Speculate node (frame N + 1's bands on a helper) forced
 *          on at 2, 3, 4 and 7 threads and on one, and with its estimates
 *          forced wrong at 2 and 4, without rotation, for the first 10 s of
 *          three clips at the default settings, complexity 5, 10 ms frames
 *          and 24 kb/s (Hybrid: never speculated); Encode must have taken
 *          some of the bands over. Without the corpus (77, skipped).
 * Exits 0 when all are identical, 1 on any difference, 77 (skipped) when
 * CORPUS_DIR is absent (not with --quick, which runs without it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "ctcore/opus.h"
#include "ctcore/runtime.h"
#include "opus/encoder.h"

#include "cases.h"

#define EXIT_SKIP   77
#define MAX_THREADS 16
#define MAX_CLIPS   64
#define MAX_CONFIGS 32

enum {
    R = CT_OPUS_GRAPH_RESAMPLE_INLINE,
    A = CT_OPUS_GRAPH_ANALYSIS_INLINE,
    RA = R | A,
    S = CT_OPUS_GRAPH_SIGNAL_INLINE,
    W = CT_OPUS_GRAPH_SIGNAL_WRONG,
    T = CT_OPUS_GRAPH_THETA_HELPER,
    P = CT_OPUS_GRAPH_SPECULATE,
    PW = CT_OPUS_GRAPH_SPECULATE | CT_OPUS_GRAPH_SPECULATE_WRONG,
};

/* The forced nodes a case's runs rotate through: a configuration's own
 * (one of the first four) moved on by the case's number. */
static const unsigned force_rotation[] = {0, R, A, RA, S, W | R, T, P, PW | R};
#define NUM_FORCES (sizeof(force_rotation) / sizeof(force_rotation[0]))

static unsigned rotated_force(unsigned own, int i)
{
    size_t k = 0;
    while (k < NUM_FORCES && force_rotation[k] != own)
        k++;
    return force_rotation[(k + (size_t)i) % NUM_FORCES];
}

/* A run: threads of the pool (0: a NULL pool), frames in flight (0: the
 * default, which on one worker is the sequential path, so these have
 * more), the forced nodes of the case numbered 0 (rotated by the case). */
typedef struct config {
    int threads;
    int ring;
    unsigned force;
} config;

static const config configs[] = {
    {1, 1, 0},  {1, 2, R},    {1, 16, A},  {1, 128, RA}, {2, 0, 0},
    {3, 0, R},  {4, 0, A},    {5, 0, RA},  {6, 0, 0},    {7, 0, R},
    {16, 0, A}, {2, 1, A},    {2, 2, RA},  {2, 128, R},  {3, 2, A},
    {7, 2, A},  {7, 128, RA}, {16, 1, RA}, {0, 2, R},
};

static const config quick_configs[] = {
    {1, 2, R}, {2, 0, 0}, {2, 128, A}, {3, 2, RA},
    {4, 1, R}, {7, 0, A}, {0, 1, RA},
};

/* --theta: forced as they are, not rotated */
static const config theta_configs[] = {
    {2, 0, T}, {3, 0, T}, {4, 0, T}, {1, 2, T}};
/* --theta: the settings and clips (the theta search: stereo, complexity 8
 * or more; CELT-only and Hybrid) */
static const char *const theta_flags[] = {
    "--comp 10",
    "--comp 8",
    "--bitrate 24",
};
static const char *const theta_clips[] = {
    "metal_muldjord_44k1_stereo.wav",
    "soundtrack_warzone_48k_stereo.wav",
};

/* --speculate: forced as they are, not rotated; the settings and clips */
static const config speculate_configs[] = {{2, 0, P}, {3, 0, P},  {4, 0, P},
                                           {7, 0, P}, {2, 0, PW}, {4, 2, PW},
                                           {1, 2, P}};
static const char *const speculate_flags[] = {
    "",
    "--comp 5",
    "--framesize 10",
    "--bitrate 24",
};
static const char *const speculate_clips[] = {
    "metal_muldjord_44k1_stereo.wav",
    "soundtrack_warzone_48k_stereo.wav",
    "speech_nl_32k_mono.wav",
};

/* The theta trials of the runs with the Theta node forced on: run by the
 * helper, taken back by Encode; the speculations of the runs with the
 * Speculate node forced on: posted, run to their end, offered and taken
 * over, and with the estimates forced wrong, taken over. */
static uint64_t theta_helper_trials, theta_taken_back;
static uint64_t spec_posted, spec_run, spec_offered, spec_taken,
    spec_wrong_taken;

/* --quick: the settings for the corpus excerpts (default, the fastest
 * CELT, the shortest and longest frames, SILK, Hybrid), the clips and the
 * excerpts' length. */
static const char *const quick_flags[] = {
    "",
    "--comp 0",
    "--framesize 2.5",
    "--framesize 60",
    "--bitrate 12",
    "--bitrate 32",
};
static const char *const quick_clips[] = {
    "metal_muldjord_44k1_stereo.wav",
    "speech_nl_32k_mono.wav",
    "soundtrack_warzone_48k_stereo.wav",
};
#define QUICK_SECONDS 10

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- output ------------------------------------------------------------- */

/* A page or packet as ct_opus_receive gave it. */
typedef struct record {
    size_t offset, size; /* in the output's data */
    int64_t granule;
    int duration, header, eos;
} record;

/* Everything a stream gave: the bytes one after the other (the Ogg file
 * for pages), and what ct_opus_receive said of each piece. */
typedef struct output {
    uint8_t *data;
    size_t size, cap;
    record *records;
    size_t count, records_cap;
} output;

static void output_free(output *o)
{
    free(o->data);
    free(o->records);
    memset(o, 0, sizeof(*o));
}

static int output_add(output *o, const ct_opus_packet *p)
{
    if (o->size + p->size > o->cap) {
        size_t cap = o->cap ? o->cap : 1 << 16;
        while (o->size + p->size > cap)
            cap *= 2;
        uint8_t *d = realloc(o->data, cap);
        if (!d)
            return CT_ENOMEM;
        o->data = d;
        o->cap = cap;
    }
    if (o->count == o->records_cap) {
        size_t cap = o->records_cap ? 2 * o->records_cap : 256;
        record *r = realloc(o->records, cap * sizeof(*r));
        if (!r)
            return CT_ENOMEM;
        o->records = r;
        o->records_cap = cap;
    }
    memcpy(o->data + o->size, p->data, p->size);
    o->records[o->count++] =
        (record){o->size, p->size, p->granule, p->duration, p->header, p->eos};
    o->size += p->size;
    return CT_OK;
}

/* 1 when identical; else 0 and where they first differ in why. */
static int same_output(const output *got, const output *ref, const char *unit,
                       char *why, size_t size)
{
    size_t at = 0, k = 0;

    while (at < got->size && at < ref->size && got->data[at] == ref->data[at])
        at++;
    if (at < got->size || at < ref->size) {
        while (k + 1 < ref->count && ref->records[k + 1].offset <= at)
            k++;
        snprintf(why, size,
                 "%zu bytes (%zu %ss) vs %zu (%zu), first difference at "
                 "byte %zu (%s %zu, from 0, of the reference, byte %zu of "
                 "it, granule %lld)",
                 got->size, got->count, unit, ref->size, ref->count, at, unit,
                 k, ref->count ? at - ref->records[k].offset : 0,
                 ref->count ? (long long)ref->records[k].granule : -1LL);
        return 0;
    }
    for (k = 0; k < got->count || k < ref->count; k++) {
        const record *g = k < got->count ? &got->records[k] : NULL;
        const record *r = k < ref->count ? &ref->records[k] : NULL;
        if (!g || !r || g->size != r->size || g->granule != r->granule ||
            g->duration != r->duration || g->header != r->header ||
            g->eos != r->eos) {
            snprintf(why, size,
                     "the same bytes, but %s %zu differs: size %lld vs %lld, "
                     "granule %lld vs %lld, duration %d vs %d, header %d vs "
                     "%d, eos %d vs %d",
                     unit, k, g ? (long long)g->size : -1LL,
                     r ? (long long)r->size : -1LL,
                     g ? (long long)g->granule : 0,
                     r ? (long long)r->granule : 0, g ? g->duration : 0,
                     r ? r->duration : 0, g ? g->header : 0, r ? r->header : 0,
                     g ? g->eos : 0, r ? r->eos : 0);
            return 0;
        }
    }
    return 1;
}

/* ---- encoding ----------------------------------------------------------- */

/* A case: its samples (in libopusenc's channel order) and settings. */
typedef struct input {
    char name[300];
    opus_wav wav;
    ct_opus_settings settings;
    char options[256];
} input;

/* How a run feeds the encoder. */
typedef struct feed {
    int first_piece;  /* where in the cycle of piece sizes it starts;
                         -1: the whole input in one piece */
    int receive_late; /* receive only after the drain */
    long stop_at;     /* > 0: a first stream of that many frames, cut off
                         by ct_opus_reset, before the whole */
} feed;

static int receive_all(ct_opus_encoder *enc, output *out)
{
    ct_opus_packet p;
    int r;
    while ((r = ct_opus_receive(enc, &p)) == CT_OK)
        if (out && (r = output_add(out, &p)) != CT_OK)
            return r;
    return r;
}

/* One stream: its first `stop` frames and no drain (all and the drain
 * when 0). out may be NULL (output thrown away). CT_OK or the failure. */
static int encode_stream(ct_opus_encoder *enc, const input *in, const feed *fd,
                         long stop, output *out)
{
    static const long pieces[] = {1, 7, 960, 4096, 333, 48000};
    const opus_wav *w = &in->wav;
    long at = 0, end = stop > 0 && stop < w->frames ? stop : w->frames;
    int k = fd->first_piece, r;

    while (at < end) {
        long n = k < 0 ? end - at : pieces[k++ % (int)COUNT(pieces)];
        if (n > end - at)
            n = end - at;
        r = ct_opus_send_samples(enc,
                                 w->data + (size_t)at * (size_t)w->channels *
                                               (size_t)w->sample_bytes,
                                 w->format, (size_t)n);
        if (r != CT_OK)
            return r;
        at += n;
        if (!fd->receive_late && (r = receive_all(enc, out)) != CT_EAGAIN)
            return r == CT_OK || r == CT_EOF ? CT_ESTATE : r;
    }
    if (stop > 0)
        return CT_OK; /* cut off: the caller resets */
    if ((r = ct_opus_drain(enc)) != CT_OK)
        return r;
    r = receive_all(enc, out);
    return r == CT_EOF ? CT_OK : r == CT_OK || r == CT_EAGAIN ? CT_ESTATE : r;
}

/* The case on the pool with `ring` frames in flight and the nodes of
 * `force` forced off: the sequential path where ct_opus_graph_ring_for
 * gives no ring (it must then have none; every other run must have one).
 * With `trace`, the ring times its nodes (as for the bench). *frames: the
 * frames the ring encoded in the last stream (0 without a ring). The
 * Signal node's counters must add up: nothing computed with it forced
 * inline, nothing taken over with its assumptions forced wrong, never
 * more taken than needed. */
static int encode(ct_pool *pool, int ring, unsigned force, int trace,
                  ct_opus_output mode, const input *in, const feed *fd,
                  output *out, uint64_t *frames, char *why, size_t why_size)
{
    ct_opus_settings s = in->settings;
    ct_opus_encoder *enc;
    ct_opus_graph *graph;
    int r;

    *frames = 0;
    s.frames_in_flight = ring;
    s.output = mode;
    r = ct_opus_encoder_new(pool, &s, &enc, why, why_size);
    if (r != CT_OK)
        return r;
    graph = ct_opus_encoder_graph(enc);
    if ((graph != NULL) != (ct_opus_graph_ring_for(pool, ring) > 0)) {
        snprintf(why, why_size,
                 graph ? "a ring on the sequential path" : "no ring");
        ct_opus_encoder_free(enc);
        return CT_ESTATE;
    }
    if (graph) {
        ct_opus_graph_force(graph, force);
        if (trace && (r = ct_opus_graph_trace(graph, true)) != CT_OK) {
            snprintf(why, why_size, "ct_opus_graph_trace: %s", ct_strerror(r));
            ct_opus_encoder_free(enc);
            return r;
        }
    }
    if (fd->stop_at > 0) {
        r = encode_stream(enc, in, fd, fd->stop_at, NULL);
        ct_opus_reset(enc);
    }
    if (r == CT_OK)
        r = encode_stream(enc, in, fd, 0, out);
    if (r != CT_OK)
        snprintf(why, why_size, "%s: %s", ct_strerror(r),
                 ct_opus_encoder_error(enc));
    else if (graph) {
        double seconds[CT_OPUS_NUM_NODES];
        ct_opus_graph_trace_read(graph, seconds, frames);
        for (int k = 0; k < CT_OPUS_NUM_HIT_KINDS && r == CT_OK; k++) {
            uint64_t computed, needed, taken;
            ct_opus_graph_hits(graph, (ct_opus_graph_hit_kind)k, &computed,
                               &needed, &taken);
            if (taken > needed || ((force & S) && computed + needed > 0) ||
                ((force & W) && taken > 0)) {
                snprintf(why, why_size,
                         "signal %s: %llu computed, %llu needed, %llu taken",
                         ct_opus_graph_hit_name((ct_opus_graph_hit_kind)k),
                         (unsigned long long)computed,
                         (unsigned long long)needed, (unsigned long long)taken);
                r = CT_ESTATE;
            }
        }
        if (force & P) {
            uint64_t posted, run, offered, taken;
            ct_opus_graph_speculations(graph, &posted, &run, &offered, &taken);
            if (run > posted || offered > run || taken > offered) {
                snprintf(why, why_size,
                         "speculations: %llu posted, %llu run, %llu offered, "
                         "%llu taken",
                         (unsigned long long)posted, (unsigned long long)run,
                         (unsigned long long)offered,
                         (unsigned long long)taken);
                r = CT_ESTATE;
            }
            spec_posted += posted;
            spec_run += run;
            spec_offered += offered;
            spec_taken += taken;
            if (force & CT_OPUS_GRAPH_SPECULATE_WRONG)
                spec_wrong_taken += taken;
        }
        if (force & T) {
            uint64_t helper, taken_back;
            ct_opus_graph_theta_trials(graph, &helper, &taken_back);
            theta_helper_trials += helper;
            theta_taken_back += taken_back;
        }
    }
    ct_opus_encoder_free(enc);
    return r;
}

/* ---- the matrix --------------------------------------------------------- */

typedef struct matrix {
    const config *configs;
    int num_configs;
    ct_pool *pools[MAX_THREADS + 1];
    int run[MAX_CONFIGS], identical[MAX_CONFIGS];
    int index; /* of the next case in the whole matrix, run or filtered
                  out: a filtered run repeats the full one's runs */
    int cases, failures;
    const char *filter;
    int rotate; /* the configurations' forced nodes rotate with the case */
} matrix;

static const char *force_name(unsigned force)
{
    static const char *const names[] = {"none", "resample", "analysis",
                                        "resample+analysis"};
    if (force & T)
        return force == T ? "theta helper on" : "theta helper on and more";
    if (force & CT_OPUS_GRAPH_SPECULATE_WRONG)
        return force & R ? "resample, speculation wrong" : "speculation wrong";
    if (force & P)
        return "speculation on";
    if (force & S)
        return "signal";
    if (force & W)
        return force & R ? "resample, signal wrong" : "signal wrong";
    return names[force & 3];
}

static void run_case(matrix *m, input *in, int i)
{
    const feed plain = {0, 0, 0};
    output ref = {0}, ref_packets = {0};
    char why[512];
    double t0 = ct_clock_seconds();
    int const reset_config = i % m->num_configs;
    int const packets_config = (i + m->num_configs / 2) % m->num_configs;
    uint64_t frames;
    size_t audio_packets = 0;
    int ok = 1;

    m->cases++;
    if (encode(NULL, 0, 0, 0, CT_OPUS_OUTPUT_OGG, in, &plain, &ref, &frames,
               why, sizeof(why)) != CT_OK ||
        encode(NULL, 0, 0, 0, CT_OPUS_OUTPUT_PACKETS, in, &plain, &ref_packets,
               &frames, why, sizeof(why)) != CT_OK) {
        printf("FAIL %s: the sequential path failed: %s\n", in->name, why);
        for (int c = 0; c < m->num_configs; c++)
            m->run[c]++;
        m->failures++;
        output_free(&ref);
        output_free(&ref_packets);
        return;
    }
    for (size_t k = 0; k < ref_packets.count; k++)
        audio_packets += !ref_packets.records[k].header;
    for (int c = 0; c < m->num_configs; c++) {
        const config *cf = &m->configs[c];
        const int packets = c == packets_config;
        const unsigned force =
            m->rotate ? rotated_force(cf->force, i) : cf->force;
        output got = {0};
        const int trace = (c + i) % 3 == 1;
        uint64_t frames;
        feed fd;
        int r;

        /* vary the feeding with the run */
        fd.first_piece = (c + i) % 7 == 6 ? -1 : (c + i) % 6;
        fd.receive_late = (c + 2 * i) % 4 == 3;
        fd.stop_at = c == reset_config ? in->wav.frames / 3 + 1 : 0;
        m->run[c]++;
        r = encode(m->pools[cf->threads], cf->ring, force, trace,
                   packets ? CT_OPUS_OUTPUT_PACKETS : CT_OPUS_OUTPUT_OGG, in,
                   &fd, &got, &frames, why, sizeof(why));
        if (r == CT_OK && frames != audio_packets) {
            /* the ring must have coded every frame itself */
            snprintf(why, sizeof(why),
                     "the ring encoded %llu frames of the stream's %zu",
                     (unsigned long long)frames, audio_packets);
            r = CT_ESTATE;
        }
        if (r == CT_OK &&
            same_output(&got, packets ? &ref_packets : &ref,
                        packets ? "packet" : "page", why, sizeof(why))) {
            m->identical[c]++;
        } else {
            ok = 0;
            char pieces[32];
            if (fd.first_piece < 0)
                snprintf(pieces, sizeof(pieces), "in one piece");
            else
                snprintf(pieces, sizeof(pieces), "in pieces from %d",
                         fd.first_piece);
            printf("FAIL %s: threads %d, frames_in_flight %d, forced %s, %s, "
                   "%s, receive %s%s%s: %s\n",
                   in->name, cf->threads, cf->ring, force_name(force),
                   packets ? "packets" : "Ogg", pieces,
                   fd.receive_late ? "after the drain" : "after each piece",
                   fd.stop_at ? ", reset in the middle" : "",
                   trace ? ", traced" : "", why);
        }
        output_free(&got);
    }
    if (!ok)
        m->failures++;
    printf("%s %s: %zu bytes, %zu packets (%.1f s)\n", ok ? "ok" : "FAIL",
           in->name, ref.size, ref_packets.count, ct_clock_seconds() - t0);
    fflush(stdout);
    output_free(&ref);
    output_free(&ref_packets);
}

/* The case of the WAV under the flags; the WAV stays the caller's. */
static void run_wav(matrix *m, const char *label, opus_wav *wav,
                    const char *flags)
{
    input in;
    int const i = m->index++;

    snprintf(in.name, sizeof(in.name), "%s [%s]", label, flags);
    if (m->filter && !strstr(in.name, m->filter))
        return;
    in.wav = *wav;
    if (opus_settings_from_flags(flags, wav, (uint32_t)i + 1, &in.settings,
                                 in.options) < 0) {
        printf("FAIL %s: flags unknown\n", in.name);
        m->failures++;
        return;
    }
    run_case(m, &in, i);
}

static int read_input(const char *path, opus_wav *wav, long max_frames)
{
    if (opus_read_wav(path, wav) < 0)
        return -1;
    if (max_frames > 0 && wav->frames > max_frames)
        wav->frames = max_frames;
    opus_wav_to_vorbis_order(wav);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The corpus' WAVs, sorted; -1 when there is no such directory. */
static int list_corpus(const char *corpus, char **names)
{
    DIR *dir = corpus ? opendir(corpus) : NULL;
    int count = 0;

    if (!dir)
        return -1;
    for (struct dirent *e; (e = readdir(dir)) && count < MAX_CLIPS;) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".wav"))
            names[count++] = strdup(e->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)count, sizeof(names[0]), compare_names);
    return count;
}

/* --theta, --speculate: the clips' excerpts under the flags. */
static void run_excerpts(matrix *m, const char *corpus,
                         const char *const *clips, size_t num_clips,
                         const char *const *flags, size_t num_flags)
{
    char path[4200], label[200];

    for (size_t k = 0; k < num_clips; k++) {
        opus_wav wav;
        snprintf(path, sizeof(path), "%s/%s", corpus, clips[k]);
        if (read_input(path, &wav, 0) < 0) {
            printf("FAIL %s: unreadable\n", path);
            m->failures++;
            continue;
        }
        if (wav.frames > (long)QUICK_SECONDS * wav.rate)
            wav.frames = (long)QUICK_SECONDS * wav.rate;
        snprintf(label, sizeof(label), "%s (%d s)", clips[k], QUICK_SECONDS);
        for (size_t f = 0; f < num_flags; f++)
            run_wav(m, label, &wav, flags[f]);
        opus_wav_free(&wav);
    }
}

static void run_corpus(matrix *m, const char *corpus, int quick)
{
    char *names[MAX_CLIPS], path[4200];
    int const count = list_corpus(corpus, names);

    for (int k = 0; k < count; k++) {
        opus_wav wav;
        int wanted = !quick;
        for (size_t q = 0; q < COUNT(quick_clips); q++)
            wanted |= !strcmp(names[k], quick_clips[q]);
        snprintf(path, sizeof(path), "%s/%s", corpus, names[k]);
        if (wanted && read_input(path, &wav, 0) == 0) {
            char label[300];
            if (quick) {
                if (wav.frames > (long)QUICK_SECONDS * wav.rate)
                    wav.frames = (long)QUICK_SECONDS * wav.rate;
                snprintf(label, sizeof(label), "%s (%d s)", names[k],
                         QUICK_SECONDS);
                for (size_t f = 0; f < COUNT(quick_flags); f++)
                    run_wav(m, label, &wav, quick_flags[f]);
            } else {
                snprintf(label, sizeof(label), "%s", names[k]);
                for (size_t f = 0; f < opus_corpus_flags_count; f++)
                    run_wav(m, label, &wav, opus_corpus_flags[f]);
            }
            opus_wav_free(&wav);
        } else if (wanted) {
            printf("FAIL %s: unreadable\n", path);
            m->failures++;
        }
        free(names[k]);
    }
}

static void run_written(matrix *m, const char *corpus, int quick,
                        const char *tmp)
{
    char path[4200];

    for (size_t i = 0; i < opus_synthetic_count; i++) {
        const opus_synthetic *c = &opus_synthetic_cases[i];
        opus_wav wav;
        snprintf(path, sizeof(path), "%s/%s.wav", tmp, c->name);
        if (opus_write_synthetic(c, path) < 0 ||
            read_input(path, &wav, 0) < 0) {
            printf("FAIL %s: cannot write the WAV\n", c->name);
            m->failures++;
        } else {
            run_wav(m, c->name, &wav, c->flags);
            opus_wav_free(&wav);
        }
        unlink(path);
    }
    for (size_t i = 0; corpus && i < opus_derived_count; i++) {
        const opus_derived *c = &opus_derived_cases[i];
        opus_wav wav;
        /* --quick: one 5.1 case (6 channels, 4 streams, 2 coupled) */
        if (quick && (strcmp(c->name, "surround51") || *c->flags))
            continue;
        snprintf(path, sizeof(path), "%s/%s.wav", tmp, c->name);
        if (opus_write_derived(c, corpus, path) < 0 ||
            read_input(path, &wav, 0) < 0) {
            printf("FAIL %s: cannot make the WAV from the corpus\n", c->name);
            m->failures++;
        } else {
            run_wav(m, c->name, &wav, c->flags);
            opus_wav_free(&wav);
        }
        unlink(path);
    }
}

int main(int argc, char **argv)
{
    matrix m;
    const char *corpus = NULL;
    char tmp[] = "/tmp/ct_opus_graph_XXXXXX";
    int quick = 0, theta = 0, speculate = 0, total = 0, identical = 0;
    double t0;

    memset(&m, 0, sizeof(m));
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--theta"))
            theta = 1;
        else if (!strcmp(argv[i], "--speculate"))
            speculate = 1;
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            m.filter = argv[++i];
        else
            corpus = argv[i];
    }
    m.configs = theta       ? theta_configs
                : speculate ? speculate_configs
                : quick     ? quick_configs
                            : configs;
    m.num_configs = theta       ? (int)COUNT(theta_configs)
                    : speculate ? (int)COUNT(speculate_configs)
                    : quick     ? (int)COUNT(quick_configs)
                                : (int)COUNT(configs);
    m.rotate = !theta && !speculate;
    if (corpus) {
        DIR *dir = opendir(corpus);
        if (dir)
            closedir(dir);
        else
            corpus = NULL;
    }
    if (!corpus && (theta || speculate || !quick)) {
        printf("SKIP: no corpus directory given or found\n");
        return EXIT_SKIP;
    }
    if (!corpus)
        printf("no corpus: the synthetic WAVs only\n");
    for (int c = 0; c < m.num_configs; c++) {
        int const t = m.configs[c].threads;
        if (t > 0 && !m.pools[t] && !(m.pools[t] = ct_pool_new(t))) {
            fprintf(stderr, "no pool of %d threads\n", t);
            return 2;
        }
    }
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 2;
    }
    t0 = ct_clock_seconds();

    if (theta)
        run_excerpts(&m, corpus, theta_clips, COUNT(theta_clips), theta_flags,
                     COUNT(theta_flags));
    else if (speculate)
        run_excerpts(&m, corpus, speculate_clips, COUNT(speculate_clips),
                     speculate_flags, COUNT(speculate_flags));
    else if (corpus)
        run_corpus(&m, corpus, quick);
    if (!theta && !speculate)
        run_written(&m, corpus, quick, tmp);
    rmdir(tmp);

    for (int c = 0; c < m.num_configs; c++) {
        const config *cf = &m.configs[c];
        printf("threads %d, ring %zu%s: %d of %d identical\n", cf->threads,
               ct_opus_graph_ring_for(m.pools[cf->threads], cf->ring),
               cf->ring == 0 ? " (default)" : "", m.identical[c], m.run[c]);
        total += m.run[c];
        identical += m.identical[c];
    }
    printf("%d cases, %d of %d identical (%.1f s)\n", m.cases, identical, total,
           ct_clock_seconds() - t0);
    printf("theta trials with the helper forced on: %llu run by the helper, "
           "%llu taken back by Encode\n",
           (unsigned long long)theta_helper_trials,
           (unsigned long long)theta_taken_back);
    if (theta && theta_helper_trials == 0) {
        printf("FAIL: the helper ran no theta trial\n");
        m.failures++;
    }
    printf("speculations with the node forced on: %llu posted, %llu run, "
           "%llu offered, %llu taken over (%llu with the estimates wrong)\n",
           (unsigned long long)spec_posted, (unsigned long long)spec_run,
           (unsigned long long)spec_offered, (unsigned long long)spec_taken,
           (unsigned long long)spec_wrong_taken);
    if (speculate && spec_taken == 0) {
        printf("FAIL: Encode took no speculation over\n");
        m.failures++;
    }
    for (int t = 0; t <= MAX_THREADS; t++)
        ct_pool_unref(m.pools[t]);
    return m.failures == 0 && identical == total && total > 0 ? 0 : 1;
}
