/*
 * Where the time of the Opus frame ring goes: encodes one WAV file (read
 * as ctopus reads it) or --generate SECONDS of a generated stereo signal
 * on the ring (ctcore/opus/graph.c) with its trace on, and prints each
 * node's busy time (its runs' wall times summed over the workers; the
 * median over the reps), its share of all nodes' and its time per frame,
 * the wall time of the whole encode, and the bound of the serial chain:
 * frames pass the serial nodes one at a time, in order, as a pipeline, so
 * the busiest of them (S per frame) paces the stream whatever the number
 * of cores, and all nodes together (W per frame) can at best run W / S
 * times as fast as on one. Then the peak RSS: a 3 min and a 3 h
 * --generate should need the same memory, since the rings bound it.
 *
 * usage: opus_stages [--threads N] [--reps N] [--ring N] [--force WHAT]
 *                    (FILE.wav | --generate SECONDS [--rate R])
 *                    [opusenc flags]
 *   --threads   the pool's workers (default 0: one per online CPU)
 *   --reps      encodes (default 3)
 *   --ring      frames_in_flight (default 0: the encoder's, 4 per worker,
 *               16..128); on one worker 0 means 16, since there the
 *               encoder would take the sequential path, which has no nodes
 *               (the nodes then run one after the other at each frame's
 *               push: the decomposition alone)
 *   --force     resample-inline, analysis-inline, signal-inline,
 *               signal-wrong, theta-helper, speculate or speculate-wrong
 *               (ct_opus_graph_force; may be given more than once). With
 *               the Theta node (the helper of CELT's theta trials, beside
 *               Encode), its row counts all its time as busy, its waits
 *               for Encode's trials included (it holds a worker), and a
 *               line says how many trials it ran and how many Encode took
 *               back; with the Speculate node (frame N + 1's bands beside
 *               Encode) likewise, and a line counts the speculations
 *               posted, run to their end, offered and taken over
 *   --generate  SECONDS of a generated signal (a slow sine sweep, tones
 *               and noise under slow envelopes), made block by block, at
 *               --rate R Hz (default 48000), 32-bit float stereo
 *   opusenc flags: --bitrate KBPS, --vbr, --cvbr, --hard-cbr, --music,
 *               --speech, --comp N, --framesize MS, --expect-loss N
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "common/clock.h"
#include "ctcore/opus.h"
#include "ctcore/runtime.h"
#include "opus/encoder.h"
#include "opus/graph.h"
#include "wav.h"

/* Frames per channel sent at a time: the size of a typical stream buffer. */
#define CHUNK_FRAMES 4096
/* The ring on one worker, where the encoder's own choice is no ring. */
#define ONE_WORKER_RING 16
#define TWO_PI          6.283185307179586

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), compare_doubles);
    return v[n / 2];
}

/* The opusenc flags the bench takes, parsed as ctopus parses them (atof,
 * atoi), into the settings; ct_opus_encoder_new checks their ranges. A
 * ct_cli_encoder_flag_fn. */
static int parse_opus_flag(void *flags, int argc, char **argv, int *i,
                           char *errbuf, size_t errbuf_size)
{
    ct_opus_settings *s = flags;
    const char *arg = argv[*i];
    static const char *const with_value[] = {
        "--bitrate", "--comp", "--complexity", "--framesize", "--expect-loss"};
    const char *value = NULL;
    for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) {
        if (strcmp(arg, with_value[k]) != 0)
            continue;
        if (*i + 1 >= argc) {
            snprintf(errbuf, errbuf_size, "%s needs a value", arg);
            return -1;
        }
        value = argv[*i + 1];
    }

    if (strcmp(arg, "--bitrate") == 0) {
        const double b = atof(value) * 1000.;
        s->bitrate = b > 2e9 ? 2000000000 : b < -2e9 ? -2000000000 : (int)b;
    } else if (strcmp(arg, "--comp") == 0 || strcmp(arg, "--complexity") == 0) {
        s->complexity = atoi(value);
    } else if (strcmp(arg, "--framesize") == 0) {
        static const char *const ms[] = {"2.5", "5", "10", "20", "40", "60"};
        static const int samples[] = {120, 240, 480, 960, 1920, 2880};
        int k = 0;
        while (k < 6 && strcmp(value, ms[k]) != 0)
            k++;
        if (k == 6) {
            snprintf(errbuf, errbuf_size,
                     "--framesize %s: not 2.5, 5, 10, 20, 40 or 60", value);
            return -1;
        }
        s->frame_size = samples[k];
    } else if (strcmp(arg, "--expect-loss") == 0) {
        s->packet_loss_percentage = atoi(value);
    } else if (strcmp(arg, "--vbr") == 0) {
        s->bitrate_type = CT_OPUS_VBR;
    } else if (strcmp(arg, "--cvbr") == 0) {
        s->bitrate_type = CT_OPUS_CVBR;
    } else if (strcmp(arg, "--hard-cbr") == 0) {
        s->bitrate_type = CT_OPUS_CBR;
    } else if (strcmp(arg, "--music") == 0) {
        s->signal = CT_OPUS_SIGNAL_MUSIC;
    } else if (strcmp(arg, "--speech") == 0) {
        s->signal = CT_OPUS_SIGNAL_VOICE;
    } else {
        return 0;
    }
    *i += value ? 2 : 1;
    return 1;
}

/* The samples as the WAV file holds them (ctopus' choice). */
static ct_opus_format wav_format(const ct_wav_reader *wav)
{
    if (wav->is_float)
        return CT_OPUS_F32;
    switch (wav->bits) {
    case 8:
        return CT_OPUS_U8;
    case 24:
        return CT_OPUS_S24;
    case 32:
        return CT_OPUS_S32;
    default:
        return CT_OPUS_S16;
    }
}

/* The three tones of each channel, in Hz: integers, so that a tone's
 * phase at any frame is exact ((frame * f) mod rate). */
#define GEN_TONES 3
static const int tone_hz[2][GEN_TONES] = {{220, 1375, 3520}, {330, 1380, 5000}};

/* A generated stereo signal, made block by block: no more of it is ever in
 * memory than one block. Every oscillator turns by a rotation within a
 * block and restarts from its exact phase at the next, so that hours of it
 * neither drift nor cost a sin() per sample. */
typedef struct generator {
    int rate;
    uint64_t made, total; /* frames */
    uint32_t lcg;
    double sweep_turns; /* the sweep's phase, in turns */
    float pcm[CHUNK_FRAMES * 2];
} generator;

static void generator_init(generator *g, int rate, uint64_t frames)
{
    g->rate = rate;
    g->made = 0;
    g->total = frames;
    g->lcg = 1;
    g->sweep_turns = 0;
}

/* Numerical Recipes' LCG: a value in [-1, 1). */
static double noise(uint32_t *lcg)
{
    *lcg = *lcg * 1664525u + 1013904223u;
    return (double)(int32_t)*lcg / 2147483648.0;
}

/* The slow envelopes at time t (seconds): the level, the tones' and the
 * noise's shares, each between 0 and 1 with periods prime to each other,
 * so that the mix keeps changing (the tonality analysis and the mode
 * decisions see music, noise and everything between). */
static void envelopes(double t, double e[3])
{
    e[0] = 0.55 + 0.35 * sin(TWO_PI * t / 11.0);
    e[1] = 0.5 + 0.5 * cos(TWO_PI * t / 5.0);
    const double n = 0.5 + 0.5 * sin(TWO_PI * t / 7.0 + 1.0);
    e[2] = n * n;
}

/* The next block: its frames (0 at the end), interleaved in g->pcm. */
static size_t generator_next(generator *g)
{
    const uint64_t left = g->total - g->made;
    const size_t n = left < CHUNK_FRAMES ? (size_t)left : CHUNK_FRAMES;
    if (n == 0)
        return 0;
    const double rate = g->rate;
    double e0[3], e1[3];
    envelopes((double)g->made / rate, e0);
    envelopes((double)(g->made + n) / rate, e1);

    /* the sweep: 60 Hz to 12 kHz, logarithmic, every 30 s, its frequency
     * fixed within a block; the right channel takes its cosine */
    const double cycle = fmod((double)g->made / rate / 30.0, 1.0);
    const double sweep_hz = 60.0 * pow(200.0, cycle);
    double sw_c = cos(TWO_PI * g->sweep_turns);
    double sw_s = sin(TWO_PI * g->sweep_turns);
    const double sw_rc = cos(TWO_PI * sweep_hz / rate);
    const double sw_rs = sin(TWO_PI * sweep_hz / rate);
    g->sweep_turns = fmod(g->sweep_turns + sweep_hz * (double)n / rate, 1.0);

    double c[2][GEN_TONES], s[2][GEN_TONES], rc[2][GEN_TONES], rs[2][GEN_TONES];
    for (int ch = 0; ch < 2; ch++) {
        for (int k = 0; k < GEN_TONES; k++) {
            const uint64_t f = (uint64_t)tone_hz[ch][k];
            const double turns =
                (double)(g->made * f % (uint64_t)g->rate) / rate;
            c[ch][k] = cos(TWO_PI * turns);
            s[ch][k] = sin(TWO_PI * turns);
            rc[ch][k] = cos(TWO_PI * (double)f / rate);
            rs[ch][k] = sin(TWO_PI * (double)f / rate);
        }
    }

    for (size_t i = 0; i < n; i++) {
        const double x = (double)i / (double)n;
        const double level = e0[0] + (e1[0] - e0[0]) * x;
        const double tones = e0[1] + (e1[1] - e0[1]) * x;
        const double noisy = e0[2] + (e1[2] - e0[2]) * x;
        const double a = noise(&g->lcg), b = noise(&g->lcg);
        const double sweep[2] = {sw_s, sw_c};
        const double hiss[2] = {0.7 * a + 0.3 * b, 0.7 * a - 0.3 * b};
        for (int ch = 0; ch < 2; ch++) {
            double sum = 0;
            for (int k = 0; k < GEN_TONES; k++) {
                sum += s[ch][k];
                const double t = c[ch][k] * rc[ch][k] - s[ch][k] * rs[ch][k];
                s[ch][k] = s[ch][k] * rc[ch][k] + c[ch][k] * rs[ch][k];
                c[ch][k] = t;
            }
            g->pcm[2 * i + (size_t)ch] =
                (float)(level * (0.3 * sweep[ch] + 0.2 * tones * sum / 3.0 +
                                 0.3 * noisy * hiss[ch]));
        }
        const double t = sw_c * sw_rc - sw_s * sw_rs;
        sw_s = sw_s * sw_rc + sw_c * sw_rs;
        sw_c = t;
    }
    g->made += n;
    return n;
}

/* What one encode sends: a WAV file's samples in memory (as the file has
 * them, put into Vorbis order), or a generator. */
typedef struct source {
    ct_opus_format format;
    const uint8_t *bytes; /* NULL: the generator */
    size_t frame_bytes;
    uint64_t frames, sent;
    generator *gen;
    uint64_t gen_frames;
    int gen_rate;
} source;

static void source_rewind(source *src)
{
    src->sent = 0;
    if (src->bytes == NULL)
        generator_init(src->gen, src->gen_rate, src->gen_frames);
}

/* The next piece: its frames (0 at the end) and *pcm. */
static size_t source_next(source *src, const void **pcm)
{
    if (src->bytes == NULL) {
        *pcm = src->gen->pcm;
        return generator_next(src->gen);
    }
    const uint64_t left = src->frames - src->sent;
    const size_t n = left < CHUNK_FRAMES ? (size_t)left : CHUNK_FRAMES;
    *pcm = src->bytes + src->sent * src->frame_bytes;
    src->sent += n;
    return n;
}

/* One encode's figures. */
typedef struct run {
    double wall;      /* first samples to the last page */
    double generated; /* of the wall: making the signal */
    double seconds[CT_OPUS_NUM_NODES];
    uint64_t frames;
    /* the Signal node's take-overs per kind: computed, needed, taken */
    uint64_t hits[CT_OPUS_NUM_HIT_KINDS][3];
    /* the theta trials: run by the Theta node, taken back by Encode */
    uint64_t theta_helper, theta_taken_back;
    /* the speculations: posted, run, offered, taken over */
    uint64_t spec[4];
} run;

/* Takes every page the encoder has ready. Returns CT_OK or a CT_E* code. */
static int receive_all(ct_opus_encoder *encoder)
{
    ct_opus_packet page;
    int r;

    while ((r = ct_opus_receive(encoder, &page)) == CT_OK)
        ;
    return r == CT_EAGAIN || r == CT_EOF ? CT_OK : r;
}

/* One encode of the whole source with the trace on. Returns CT_OK or a
 * CT_E* code. */
static int encode(ct_pool *pool, const ct_opus_settings *settings,
                  unsigned force, source *src, run *out)
{
    char err[256] = "";
    ct_opus_encoder *encoder;
    int r = ct_opus_encoder_new(pool, settings, &encoder, err, sizeof(err));
    if (r != CT_OK) {
        fprintf(stderr, "cannot set up the encoder: %s\n",
                err[0] ? err : ct_strerror(r));
        return r;
    }
    ct_opus_graph *graph = ct_opus_encoder_graph(encoder);
    if (graph == NULL) {
        fprintf(stderr, "the encoder took the sequential path: no nodes\n");
        ct_opus_encoder_free(encoder);
        return CT_ESTATE;
    }
    ct_opus_graph_force(graph, force);
    r = ct_opus_graph_trace(graph, true);
    source_rewind(src);
    out->generated = 0;
    const double start = ct_clock_seconds();
    while (r == CT_OK) {
        const void *pcm;
        const double t = ct_clock_seconds();
        const size_t n = source_next(src, &pcm);
        out->generated += ct_clock_seconds() - t;
        if (n == 0)
            break;
        r = ct_opus_send_samples(encoder, pcm, src->format, n);
        if (r == CT_OK)
            r = receive_all(encoder);
    }
    if (r == CT_OK)
        r = ct_opus_drain(encoder);
    if (r == CT_OK)
        r = receive_all(encoder);
    out->wall = ct_clock_seconds() - start;
    if (r == CT_OK) {
        ct_opus_graph_trace_read(graph, out->seconds, &out->frames);
        for (int k = 0; k < CT_OPUS_NUM_HIT_KINDS; ++k)
            ct_opus_graph_hits(graph, (ct_opus_graph_hit_kind)k,
                               &out->hits[k][0], &out->hits[k][1],
                               &out->hits[k][2]);
        ct_opus_graph_theta_trials(graph, &out->theta_helper,
                                   &out->theta_taken_back);
        ct_opus_graph_speculations(graph, &out->spec[0], &out->spec[1],
                                   &out->spec[2], &out->spec[3]);
    } else
        fprintf(stderr, "encoding failed: %s\n",
                ct_opus_encoder_error(encoder));
    ct_opus_encoder_free(encoder);
    return r;
}

/* A WAV file's samples, all of them in memory (the reads stay out of the
 * times), as ctopus sends them. Returns 0, or -1 after a message. */
static int load_wav(const char *path, ct_opus_settings *settings, source *src,
                    uint8_t **bytes)
{
    char err[256] = "";
    ct_wav_reader wav;
    if (ct_wav_open_flags(&wav, path, CT_WAV_OPUSENC, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    settings->sample_rate = wav.sample_rate;
    settings->channels = wav.channels;
    /* opusenc: IMAX(8, IMIN(24, samplesize)) */
    settings->lsb_depth = wav.valid_bits < 8    ? 8
                          : wav.valid_bits > 24 ? 24
                                                : wav.valid_bits;
    src->format = wav_format(&wav);
    src->frame_bytes = (size_t)wav.channels * (size_t)(wav.bits / 8);
    src->frames = 0;
    /* opusenc's reader may run past the header's length, to the end of the
     * file: the buffer grows */
    size_t cap = 0;
    *bytes = NULL;
    for (;;) {
        const long n = ct_wav_read_raw(&wav, 65536, err, sizeof(err));
        if (n < 0) {
            fprintf(stderr, "%s: %s\n", path, err);
            ct_wav_close(&wav);
            return -1;
        }
        if (n == 0)
            break;
        ct_wav_opusenc_reorder(&wav, n);
        const size_t size = (size_t)n * src->frame_bytes;
        const size_t have = (size_t)src->frames * src->frame_bytes;
        if (have + size > cap) {
            cap = 2 * (have + size);
            uint8_t *grown = realloc(*bytes, cap);
            if (grown == NULL) {
                fprintf(stderr, "out of memory\n");
                ct_wav_close(&wav);
                return -1;
            }
            *bytes = grown;
        }
        memcpy(*bytes + have, wav.bytes, size);
        src->frames += (uint64_t)n;
    }
    ct_wav_close(&wav);
    if (src->frames == 0) {
        fprintf(stderr, "%s: no samples\n", path);
        return -1;
    }
    src->bytes = *bytes;
    return 0;
}

static int usage(const char *name)
{
    fprintf(stderr,
            "usage: %s [--threads N] [--reps N] [--ring N] "
            "[--force resample-inline|analysis-inline|signal-inline|"
            "signal-wrong|theta-helper|speculate|speculate-wrong]\n"
            "       (FILE.wav | --generate SECONDS [--rate R]) "
            "[opusenc flags]\n",
            name);
    return 2;
}

int main(int argc, char **argv)
{
    int threads = 0, reps = 3, ring = 0, rate = 48000, i = 1;
    unsigned force = 0;
    double generate = 0;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        const char *value = argv[i + 1];
        if (strcmp(argv[i], "--threads") == 0) {
            threads = atoi(value);
        } else if (strcmp(argv[i], "--reps") == 0) {
            reps = atoi(value);
        } else if (strcmp(argv[i], "--ring") == 0) {
            ring = atoi(value);
        } else if (strcmp(argv[i], "--rate") == 0) {
            rate = atoi(value);
        } else if (strcmp(argv[i], "--generate") == 0) {
            generate = atof(value);
            if (!(generate > 0))
                return usage(argv[0]);
        } else if (strcmp(argv[i], "--force") == 0) {
            if (strcmp(value, "resample-inline") == 0)
                force |= CT_OPUS_GRAPH_RESAMPLE_INLINE;
            else if (strcmp(value, "analysis-inline") == 0)
                force |= CT_OPUS_GRAPH_ANALYSIS_INLINE;
            else if (strcmp(value, "signal-inline") == 0)
                force |= CT_OPUS_GRAPH_SIGNAL_INLINE;
            else if (strcmp(value, "signal-wrong") == 0)
                force |= CT_OPUS_GRAPH_SIGNAL_WRONG;
            else if (strcmp(value, "theta-helper") == 0)
                force |= CT_OPUS_GRAPH_THETA_HELPER;
            else if (strcmp(value, "speculate") == 0)
                force |= CT_OPUS_GRAPH_SPECULATE;
            else if (strcmp(value, "speculate-wrong") == 0)
                force |=
                    CT_OPUS_GRAPH_SPECULATE | CT_OPUS_GRAPH_SPECULATE_WRONG;
            else
                return usage(argv[0]);
        } else {
            break;
        }
    }
    if ((generate == 0 && i >= argc) || reps < 1 || threads < 0 || ring < 0 ||
        ring > CT_OPUS_MAX_FRAMES_IN_FLIGHT || rate <= 0)
        return usage(argv[0]);
    const char *path = generate > 0 ? NULL : argv[i++];

    ct_opus_settings settings;
    ct_opus_settings_default(&settings);
    settings.serial = 1;
    if (ct_cli_parse_encoder_flags(parse_opus_flag, &settings, i, argc, argv) <
        0)
        return 2;

    source src = {0};
    uint8_t *bytes = NULL;
    generator *gen = NULL;
    if (path != NULL) {
        if (load_wav(path, &settings, &src, &bytes) < 0)
            return 1;
    } else {
        gen = malloc(sizeof(*gen));
        if (gen == NULL) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        settings.sample_rate = rate;
        settings.channels = 2;
        settings.lsb_depth = 24; /* opusenc's for float input */
        src.format = CT_OPUS_F32;
        src.gen = gen;
        src.gen_rate = rate;
        src.gen_frames = (uint64_t)(generate * rate);
    }

    ct_pool *pool = ct_pool_new(threads);
    run *runs = calloc((size_t)reps, sizeof(*runs));
    double *v = calloc((size_t)reps, sizeof(double));
    if (pool == NULL || runs == NULL || v == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    const int workers = ct_pool_threads(pool);
    const int alone = workers == 1 && ring == 0;
    settings.frames_in_flight = alone ? ONE_WORKER_RING : ring;
    for (int r = 0; r < reps; ++r)
        if (encode(pool, &settings, force, &src, &runs[r]) != CT_OK)
            return 1;

    if (path != NULL)
        printf("%s", path);
    else
        printf("generated %g s at %d Hz, stereo float", generate, rate);
    for (int a = i; a < argc; ++a)
        printf(" %s", argv[a]);
    const uint64_t frames = runs[reps - 1].frames;
    printf(
        ": %llu frames of %g ms, %d workers, ring %zu%s%s%s%s%s%s, median of "
        "%d runs\n",
        (unsigned long long)frames, settings.frame_size / 48.0, workers,
        ct_opus_graph_ring_for(pool, settings.frames_in_flight),
        force & CT_OPUS_GRAPH_RESAMPLE_INLINE ? ", resample inline" : "",
        force & CT_OPUS_GRAPH_ANALYSIS_INLINE ? ", analysis inline" : "",
        force & CT_OPUS_GRAPH_SIGNAL_INLINE ? ", signal inline" : "",
        force & CT_OPUS_GRAPH_SIGNAL_WRONG ? ", signal wrong" : "",
        force & CT_OPUS_GRAPH_THETA_HELPER ? ", theta helper" : "",
        force & CT_OPUS_GRAPH_SPECULATE_WRONG ? ", speculation wrong"
        : force & CT_OPUS_GRAPH_SPECULATE     ? ", speculation"
                                              : "",
        reps);
    if (alone)
        printf("  one worker: no ring in the encoder (the sequential path); "
               "frames_in_flight %d on one thread instead, so that the nodes "
               "run: the decomposition alone, no parallelism\n",
               ONE_WORKER_RING);

    double total_node[CT_OPUS_NUM_NODES], total = 0;
    for (int n = 0; n < CT_OPUS_NUM_NODES; ++n) {
        for (int r = 0; r < reps; ++r)
            v[r] = runs[r].seconds[n];
        total_node[n] = median(v, reps);
    }
    for (int r = 0; r < reps; ++r) {
        v[r] = 0;
        for (int n = 0; n < CT_OPUS_NUM_NODES; ++n)
            v[r] += runs[r].seconds[n];
    }
    total = median(v, reps);
    const double per_frame = frames > 0 ? 1e6 / (double)frames : 0;
    printf("  %-10s %-7s %9s %7s %9s\n", "node", "kind", "busy ms", "share",
           "us/frame");
    int busiest = -1;
    for (int n = 0; n < CT_OPUS_NUM_NODES; ++n) {
        const ct_opus_graph_node node = (ct_opus_graph_node)n;
        const int serial = ct_opus_graph_node_serial(node);
        const int companion = ct_opus_graph_node_companion(node);
        char kind[16];
        /* "×" is two bytes in one column: the padding by hand */
        if (companion)
            snprintf(kind, sizeof(kind), "beside");
        else if (serial)
            snprintf(kind, sizeof(kind), "serial");
        else
            snprintf(kind, sizeof(kind), "\u00d7%d", workers);
        const int width = (int)strlen(kind) - (serial || companion ? 0 : 1);
        const double t = total_node[n];
        printf("  %-10s %s%*s %9.1f %6.1f%% %9.1f\n",
               ct_opus_graph_node_name(node), kind, 7 - width, "", 1e3 * t,
               total > 0 ? 100.0 * t / total : 0, t * per_frame);
        /* a companion runs beside its partner: it paces nothing itself */
        if (serial && !companion && (busiest < 0 || t > total_node[busiest]))
            busiest = n;
    }
    for (int r = 0; r < reps; ++r)
        v[r] = runs[r].wall;
    const double wall = median(v, reps);
    printf("  %-10s %-7s %9.1f %7s %9.1f\n", "all nodes", "", 1e3 * total, "",
           total * per_frame);
    printf("  %-10s %-7s %9.1f %7s %9.1f  (nodes busy / wall: %.2f "
           "workers)\n",
           "wall", "", 1e3 * wall, "", wall * per_frame,
           wall > 0 ? total / wall : 0);
    /* the Signal node's take-overs (the last run's: every run codes the
       same frames) */
    for (int k = 0; k < CT_OPUS_NUM_HIT_KINDS; ++k) {
        const uint64_t *h = runs[reps - 1].hits[k];
        printf("  signal %-9s computed %llu calls ahead, %llu of "
               "Encode's calls ran it, %llu taken over (%.1f%%)\n",
               ct_opus_graph_hit_name((ct_opus_graph_hit_kind)k),
               (unsigned long long)h[0], (unsigned long long)h[1],
               (unsigned long long)h[2],
               h[1] > 0 ? 100.0 * (double)h[2] / (double)h[1] : 0);
    }
    const run *last = &runs[reps - 1];
    const uint64_t trials = last->theta_helper + last->theta_taken_back;
    if (trials > 0 || (force & CT_OPUS_GRAPH_THETA_HELPER)) {
        printf("  theta trials: %llu, %llu run by the Theta node (%.1f%%), "
               "%llu taken back by Encode (its Theta row: busy includes "
               "waiting for trials)\n",
               (unsigned long long)trials,
               (unsigned long long)last->theta_helper,
               trials > 0 ? 100.0 * (double)last->theta_helper / (double)trials
                          : 0,
               (unsigned long long)last->theta_taken_back);
    }
    if (last->spec[0] > 0 || (force & CT_OPUS_GRAPH_SPECULATE)) {
        printf("  speculations: %llu posted, %llu run to their end, %llu "
               "offered, %llu taken over (%.1f%% of the frames; its "
               "Speculate row: busy includes waiting for posts)\n",
               (unsigned long long)last->spec[0],
               (unsigned long long)last->spec[1],
               (unsigned long long)last->spec[2],
               (unsigned long long)last->spec[3],
               frames > 0 ? 100.0 * (double)last->spec[3] / (double)frames : 0);
    }
    if (gen != NULL) {
        for (int r = 0; r < reps; ++r)
            v[r] = runs[r].generated;
        printf("  of the wall, making the signal (the caller's thread): %.1f "
               "ms\n",
               1e3 * median(v, reps));
    }
    struct rusage usage_self;
    getrusage(RUSAGE_SELF, &usage_self);
    printf("  peak RSS: %.1f MiB%s\n", (double)usage_self.ru_maxrss / 1024.0,
           path != NULL ? " (the file's samples in memory included)" : "");

    const double serial_us = busiest >= 0 ? total_node[busiest] * per_frame : 0;
    const double all_us = total * per_frame;
    if (busiest >= 0)
        printf("  the busiest serial node, which no number of cores passes: "
               "%s\n",
               ct_opus_graph_node_name((ct_opus_graph_node)busiest));
    printf("serial chain: %.1f us/frame of %.1f us/frame: bound %.1fx\n",
           serial_us, all_us, serial_us > 0 ? all_us / serial_us : 0);

    free(v);
    free(runs);
    free(gen);
    free(bytes);
    ct_pool_unref(pool);
    return 0;
}
