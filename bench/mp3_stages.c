/*
 * Where the time of the MP3 frame ring goes: encodes one WAV file on the
 * ring (ctcore/mp3/graph.c) with its trace on and prints each node's busy
 * time (its runs' wall times summed over the workers; the median over the
 * reps), its share of all nodes' and its time per frame, the wall time of
 * the whole encode, CBR/ABR how many frames Search speculated on, and last
 * the serial chain: the serial nodes' busy time per frame (Dispatch,
 * Resolve, Encode) against all nodes', and their ratio, the bound on the
 * speed-up that no number of cores passes. The
 * caller's thread runs the input side (encoder.c: transform, resampling,
 * ReplayGain) besides Dispatch; that part is in the wall time only.
 *
 * usage: mp3_stages [--threads N] [--reps N] [--ring N] [--speculate-all]
 *                   [--split on|off] FILE.wav [lame flags]
 *   --threads  the pool's workers (default 0: one per online CPU)
 *   --reps     encodes of the file (default 3)
 *   --ring     the ring's slots (default 0: the encoder's, 4 per worker,
 *              16..128); on one worker the ring runs every frame's nodes at
 *              its dispatch (the encoder would run the sequential chain)
 *   --speculate-all  CBR/ABR: Search speculates on every frame, as it would
 *              on many cores (ct_mp3_graph_speculate_every_frame)
 *   --split    CBR/ABR stereo: node Split beside Encode on or off, whatever
 *              the thread count chooses (ct_mp3_graph_split_channels);
 *              Split's busy time is the time it runs jobs, not its waits
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "lame_flags.h"
#include "mp3/encoder.h"
#include "mp3/graph.h"
#include "runtime/pipeline.h"
#include "wav.h"
#include "common/clock.h"

/* Frames per channel sent at a time: the size of a typical stream buffer. */
#define CHUNK_FRAMES 4096

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Dispatch, Decide, Resolve and Encode take the frames one at a time, in
 * order. */
static bool is_serial_node(ct_mp3_graph_node node)
{
    return node == CT_MP3_NODE_DISPATCH || node == CT_MP3_NODE_DECIDE ||
           node == CT_MP3_NODE_RESOLVE || node == CT_MP3_NODE_ENCODE;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), compare_doubles);
    return v[n / 2];
}

/* Takes every packet the encoder has ready. Returns CT_OK or a CT_E* code. */
static int receive_all(ct_mp3_encoder *encoder)
{
    ct_mp3_packet packet;
    int r;

    while ((r = ct_mp3_receive_packet(encoder, &packet)) == CT_OK)
        ;
    return r == CT_EAGAIN || r == CT_EOF ? CT_OK : r;
}

/* One encode of the whole input with the trace on: its wall time, the
 * trace, the frames. Returns CT_OK or a CT_E* code. */
static int encode(ct_pool *pool, const ct_mp3_settings *settings, size_t ring,
                  bool speculate_all, int split, const int16_t *pcm, uint64_t frames, double *wall,
                  double seconds[CT_MP3_NUM_NODES], ct_mp3_graph_speculation *speculation,
                  uint64_t *mp3_frames)
{
    char err[256] = "";
    ct_mp3_encoder *encoder;
    int r = ct_mp3_encoder_new_ring(pool, settings, ring, &encoder, err,
                                    sizeof(err));
    if (r != CT_OK) {
        fprintf(stderr, "cannot set up the encoder: %s\n",
                err[0] ? err : ct_strerror(r));
        return r;
    }
    ct_mp3_graph *graph = ct_mp3_encoder_graph(encoder);
    r = ct_mp3_graph_trace(graph, true);
    ct_mp3_graph_speculate_every_frame(graph, speculate_all);
    if (split >= 0)
        ct_mp3_graph_split_channels(graph, split == 1);
    const double start = ct_clock_seconds();
    for (uint64_t done = 0; r == CT_OK && done < frames;) {
        const uint64_t n = frames - done < CHUNK_FRAMES ? frames - done :
                                                          CHUNK_FRAMES;
        r = ct_mp3_send_samples(encoder, pcm + done * (uint64_t)settings->channels,
                                (size_t)n);
        if (r == CT_OK)
            r = receive_all(encoder);
        done += n;
    }
    if (r == CT_OK)
        r = ct_mp3_drain(encoder);
    if (r == CT_OK)
        r = receive_all(encoder);
    *wall = ct_clock_seconds() - start;
    if (r == CT_OK) {
        ct_mp3_graph_trace_read(graph, seconds, speculation);
        *mp3_frames = ct_mp3_graph_frames(graph);
    } else {
        fprintf(stderr, "encoding failed: %s\n", ct_strerror(r));
    }
    ct_mp3_encoder_free(encoder);
    return r;
}

int main(int argc, char **argv)
{
    int threads = 0, reps = 3, ring = 0, i = 1;
    bool speculate_all = false;
    int split = -1; /* the thread count's choice */
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--speculate-all") == 0) {
            speculate_all = true;
            i--;
        } else if (strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--reps") == 0)
            reps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--ring") == 0)
            ring = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--split") == 0 && strcmp(argv[i + 1], "on") == 0)
            split = 1;
        else if (strcmp(argv[i], "--split") == 0 && strcmp(argv[i + 1], "off") == 0)
            split = 0;
        else
            break;
    }
    if (i >= argc || reps < 1 || threads < 0 || ring < 0) {
        fprintf(stderr, "usage: %s [--threads N] [--reps N] [--ring N] [--speculate-all] "
                        "[--split on|off] FILE.wav [lame flags]\n", argv[0]);
        return 2;
    }
    const char *path = argv[i];
    char err[256] = "";
    ct_lame_flags flags;
    ct_lame_flags_init(&flags);
    if (ct_cli_parse_encoder_flags(ct_cli_lame_flag, &flags, i + 1, argc,
                                   argv) < 0)
        return 2;

    ct_wav_reader wav;
    if (ct_wav_open(&wav, path, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (wav.frames == 0) {
        fprintf(stderr, "%s: no samples\n", path);
        return 1;
    }
    ct_lame_flags_finish(&flags, wav.sample_rate, wav.channels);
    /* all of it in memory: the reads stay out of the times */
    const uint64_t frames = wav.frames;
    int16_t *pcm = malloc((size_t)frames * (size_t)wav.channels * sizeof(*pcm));
    ct_pool *pool = ct_pool_new(threads);
    double *runs = calloc((size_t)reps * CT_MP3_NUM_NODES, sizeof(double));
    double *walls = calloc((size_t)reps, sizeof(double));
    double *busy = calloc((size_t)reps, sizeof(double));
    double *spec = calloc((size_t)reps, sizeof(double));
    double *taken = calloc((size_t)reps, sizeof(double));
    double *split_posted = calloc((size_t)reps, sizeof(double));
    double *split_served = calloc((size_t)reps, sizeof(double));
    double *node = calloc((size_t)reps, sizeof(double));
    if (pcm == NULL || pool == NULL || runs == NULL || walls == NULL ||
        busy == NULL || spec == NULL || taken == NULL || node == NULL ||
        split_posted == NULL || split_served == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (uint64_t done = 0; done < frames;) {
        const long n = ct_wav_read(&wav, pcm + done * (uint64_t)wav.channels,
                                   (size_t)(frames - done), err, sizeof(err));
        if (n <= 0) {
            fprintf(stderr, "%s: %s\n", path,
                    n < 0 ? err : "fewer samples than its header says");
            return 1;
        }
        done += (uint64_t)n;
    }
    ct_wav_close(&wav);

    /* the encoder's own ring, but on one worker too */
    const size_t slots = ring > 0 ? (size_t)ring : ct_pipeline_ring_size(pool);
    uint64_t mp3_frames = 0;
    for (int r = 0; r < reps; ++r) {
        double *seconds = runs + (size_t)r * CT_MP3_NUM_NODES;
        ct_mp3_graph_speculation speculation;
        if (encode(pool, &flags.settings, slots, speculate_all, split, pcm, frames, &walls[r],
                   seconds, &speculation, &mp3_frames) != CT_OK)
            return 1;
        for (int n = 0; n < CT_MP3_NUM_NODES; ++n)
            busy[r] += seconds[n];
        spec[r] = mp3_frames > 0 ? (double)speculation.frames / (double)mp3_frames : 0;
        taken[r] = speculation.granules > 0 ?
                       (double)speculation.taken / (double)speculation.granules : 0;
        split_posted[r] = (double)speculation.split_posted;
        split_served[r] = speculation.split_posted > 0 ?
                              (double)speculation.split_served / (double)speculation.split_posted :
                              0;
    }

    printf("%s", path);
    for (int a = i + 1; a < argc; ++a)
        printf(" %s", argv[a]);
    printf(": %llu frames, %d workers, ring %zu, median of %d runs\n",
           (unsigned long long)mp3_frames, ct_pool_threads(pool), slots, reps);
    const double total = median(busy, reps);
    const double per_frame = 1e6 / (double)mp3_frames;
    double serial = 0;
    printf("  %-10s %-7s %9s %7s %9s\n", "node", "kind", "busy ms", "share", "us/frame");
    for (int n = 0; n < CT_MP3_NUM_NODES; ++n) {
        for (int r = 0; r < reps; ++r)
            node[r] = runs[(size_t)r * CT_MP3_NUM_NODES + (size_t)n];
        const double t = median(node, reps);
        const bool is_serial = is_serial_node((ct_mp3_graph_node)n);
        if (is_serial)
            serial += t;
        printf("  %-10s %-7s %9.1f %6.1f%% %9.1f\n",
               ct_mp3_graph_node_name((ct_mp3_graph_node)n), is_serial ? "serial" : "xN",
               1e3 * t, 100.0 * t / total, t * per_frame);
    }
    const double wall = median(walls, reps);
    printf("  %-10s %-7s %9.1f %7s %9.1f\n", "all nodes", "", 1e3 * total, "",
           total * per_frame);
    printf("  %-10s %-7s %9.1f          (nodes busy / wall: %.2f workers)\n",
           "wall", "", 1e3 * wall, total / wall);
    if (flags.settings.rate_control != CT_MP3_VBR)
        printf("  speculated: %.1f %% of the frames; Encode took %.1f %% of their "
               "granules\n",
               100.0 * median(spec, reps), 100.0 * median(taken, reps));
    if (median(split_posted, reps) > 0)
        printf("  split: %.0f granules posted to Split (%.2f per frame), %.1f %% of them run "
               "there\n",
               median(split_posted, reps), median(split_posted, reps) / (double)mp3_frames,
               100.0 * median(split_served, reps));
    /* the serial nodes run one after the other on every frame: their sum
       per frame is the chain no number of cores shortens */
    printf("serial chain: %.1f us/frame of %.1f us/frame: bound %.1fx\n", serial * per_frame,
           total * per_frame, serial > 0 ? total / serial : 0.0);

    free(split_served);
    free(split_posted);
    free(node);
    free(spec);
    free(taken);
    free(busy);
    free(walls);
    free(runs);
    free(pcm);
    ct_pool_unref(pool);
    return 0;
}
