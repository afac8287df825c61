/*
 * The MP3 frame ring (ctcore/mp3/graph.c) against the sequential chain:
 * every corpus clip and synthetic signal, under every lame setting of the
 * oracle matrices (main and --extra), encoded on the ring at 1 to 7 threads
 * and 16, and at extreme ring sizes (1, 2 and 128 slots besides the
 * default of 4 per thread, 16..128), must give the bytes of the sequential chain
 * (ct_mp3_encoder_new on a NULL pool), which the oracle tests prove
 * identical to Debian's lame. On one thread the ring runs every frame
 * through its nodes at dispatch (no concurrency: the decomposition alone);
 * on more, the nodes run on the pool's threads. Some configurations also
 * speculate CBR/ABR on every frame (ct_mp3_graph_speculate_every_frame),
 * as the ring does on many cores, and some put node Split beside Encode
 * (ct_mp3_graph_split_channels) at thread counts its rule leaves it off,
 * or leave it off where the rule puts it on.
 *
 * The input goes in pieces of varying sizes; some runs receive after each
 * piece, others only after the drain; one run per case resets the encoder
 * in the middle of a first stream and encodes the case again.
 *
 * usage: ring [--quick] [--filter TEXT] CORPUS_DIR
 * --quick: a small matrix for ThreadSanitizer builds (synthetic signals,
 *          a few settings and configurations).
 * Exits 0 when all are identical, 1 on any difference, 77 (skipped) when
 * CORPUS_DIR is absent (not with --quick, which needs no corpus).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "mp3/encoder.h"
#include "mp3/graph.h"
#include "common/clock.h"
#include "cases.h"

#define EXIT_SKIP 77
#define MAX_THREADS 16
#define MAX_SETTINGS 64

/* --quick: VBR, CBR, ABR, mono, resampled MPEG-2 and MPEG-2.5. */
static const char *const quick_settings[] = {
    "-V 2", "-b 128", "--abr 160", "-m m", "-b 32", "-V 9.999",
};

/* Node Split: as the thread count chooses, forced on, forced off. */
enum { SPLIT_RULE, SPLIT_ON, SPLIT_OFF };

/* A run: threads of the pool (0: NULL pool), ring slots (0: the default;
 * with one thread, 0 is the sequential chain), CBR/ABR's speculation on
 * every frame (ct_mp3_graph_speculate_every_frame), node Split. */
typedef struct config {
    int threads;
    size_t ring;
    bool speculate_all;
    int split;
} config;

static const config configs[] = {
    {1, 1, false, SPLIT_RULE}, {1, 2, false, SPLIT_RULE}, {1, 16, false, SPLIT_RULE},
    {2, 0, false, SPLIT_RULE}, {3, 0, false, SPLIT_RULE}, {4, 0, false, SPLIT_RULE},
    {5, 0, false, SPLIT_RULE}, {6, 0, false, SPLIT_RULE}, {7, 0, false, SPLIT_RULE},
    {2, 1, false, SPLIT_RULE}, {2, 2, false, SPLIT_RULE}, {2, 128, false, SPLIT_RULE},
    {3, 2, false, SPLIT_RULE}, {7, 2, false, SPLIT_RULE}, {7, 128, false, SPLIT_RULE},
    {2, 0, true, SPLIT_RULE}, {4, 2, true, SPLIT_RULE}, {7, 0, true, SPLIT_RULE},
    {16, 0, false, SPLIT_RULE}, {16, 2, false, SPLIT_RULE}, {16, 0, true, SPLIT_RULE},
    {1, 2, false, SPLIT_ON}, {2, 0, false, SPLIT_ON}, {3, 2, true, SPLIT_ON},
    {4, 128, false, SPLIT_ON}, {7, 0, false, SPLIT_OFF}, {16, 0, true, SPLIT_OFF},
};
#define NUM_CONFIGS ((int) (sizeof(configs) / sizeof(configs[0])))

static const config quick_configs[] = {
    {1, 2, false, SPLIT_RULE}, {2, 0, false, SPLIT_RULE}, {3, 2, false, SPLIT_RULE},
    {4, 1, false, SPLIT_RULE}, {7, 0, false, SPLIT_RULE}, {2, 128, false, SPLIT_RULE},
    {3, 0, true, SPLIT_RULE}, {2, 0, false, SPLIT_ON}, {3, 2, true, SPLIT_ON},
};
#define NUM_QUICK_CONFIGS ((int) (sizeof(quick_configs) / sizeof(quick_configs[0])))

/* The reference: the sequential chain on a NULL pool. */
static const config sequential = {0, 0, false, SPLIT_RULE};

/* ---- encoding ----------------------------------------------------------- */

/* How a run feeds the encoder. */
typedef struct feed {
    mp3_feed pieces;
    long stop_at; /* > 0: stop the stream there, reset, start again */
} feed;

/* threads 0: the sequential chain on a NULL pool. */
static int encode(ct_pool *pool, const config *cf, const mp3_pcm *in, const mp3_setting *s,
                  const feed *fd, mp3_buf *out)
{
    ct_mp3_settings cs;
    ct_mp3_encoder *enc;
    char err[256];
    int ret;

    mp3_to_settings(in, s, &cs);
    ret = ct_mp3_encoder_new_ring(pool, &cs, cf->ring, &enc, err, sizeof(err));
    if (ret != CT_OK) {
        fprintf(stderr, "ct_mp3_encoder_new_ring: %s\n", err);
        return ret;
    }
    if (cf->speculate_all && ct_mp3_encoder_graph(enc) != NULL)
        ct_mp3_graph_speculate_every_frame(ct_mp3_encoder_graph(enc), true);
    if (cf->split != SPLIT_RULE && ct_mp3_encoder_graph(enc) != NULL)
        ct_mp3_graph_split_channels(ct_mp3_encoder_graph(enc), cf->split == SPLIT_ON);
    if (fd->stop_at > 0) {
        mp3_buf junk = {0};
        ret = mp3_encode_stream(enc, in, &fd->pieces, fd->stop_at, &junk);
        free(junk.data);
        ct_mp3_reset(enc);
    }
    if (ret == CT_OK)
        ret = mp3_encode_stream(enc, in, &fd->pieces, 0, out);
    ct_mp3_encoder_free(enc);
    return ret;
}

/* ---- the matrix --------------------------------------------------------- */

typedef struct matrix {
    const config *configs;
    int num_configs;
    ct_pool *pools[MAX_THREADS + 1];
    int run[64], identical[64]; /* per config */
    /* the oracle's main and --extra matrices */
    const mp3_setting *settings[MAX_SETTINGS];
    int settings_on[MAX_SETTINGS];
    int num_settings;
    const char *filter;
} matrix;

static void run_input(matrix *m, const mp3_pcm *in)
{
    for (int i = 0; i < m->num_settings; i++) {
        char name[512];
        mp3_buf ref = {0};
        const feed plain = {{0, 0}, 0};
        if (!m->settings_on[i])
            continue;
        mp3_case_name(name, sizeof(name), in, m->settings[i]);
        if (m->filter && !strstr(name, m->filter))
            continue;
        if (encode(NULL, &sequential, in, m->settings[i], &plain, &ref) != CT_OK) {
            printf("FAIL %s: the sequential chain failed\n", name);
            for (int c = 0; c < m->num_configs; c++)
                m->run[c]++;
            continue;
        }
        for (int c = 0; c < m->num_configs; c++) {
            const config *cf = &m->configs[c];
            mp3_buf ours = {0};
            feed fd;
            /* vary the feeding with the configuration */
            fd.pieces.seed = c % 3 == 0 ? 0 : 0x9e3779b9u * (uint32_t) (c + 1) + (uint32_t) i;
            fd.pieces.receive_late = c % 4 == 3;
            fd.stop_at = c % 5 == 2 ? in->frames / 3 : 0;
            m->run[c]++;
            int ret = encode(m->pools[cf->threads], cf, in, m->settings[i], &fd, &ours);
            if (ret == CT_OK && ours.size == ref.size && memcmp(ours.data, ref.data, ref.size) == 0) {
                m->identical[c]++;
            }
            else {
                printf("FAIL %s threads %d ring %zu: %s, %zu vs %zu bytes, first difference "
                       "at byte %zu\n", name, cf->threads, cf->ring,
                       ret == CT_OK ? "ok" : ct_strerror(ret), ours.size, ref.size,
                       mp3_first_difference(&ours, &ref));
            }
            free(ours.data);
        }
        printf("done %s (%zu bytes)\n", name, ref.size);
        fflush(stdout);
        free(ref.data);
    }
}

int main(int argc, char **argv)
{
    matrix m;
    const char *corpus = NULL;
    int quick = 0, total = 0, identical = 0;
    double t0;

    memset(&m, 0, sizeof(m));
    for (int i = 0; i < mp3_num_settings_main; i++)
        m.settings[m.num_settings++] = &mp3_settings_main[i];
    for (int i = 0; i < mp3_num_settings_extra; i++)
        m.settings[m.num_settings++] = &mp3_settings_extra[i];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            m.filter = argv[++i];
        else
            corpus = argv[i];
    }
    if (quick) {
        m.configs = quick_configs;
        m.num_configs = NUM_QUICK_CONFIGS;
        for (int i = 0; i < m.num_settings; i++)
            for (size_t q = 0; q < sizeof(quick_settings) / sizeof(*quick_settings); q++)
                if (!strcmp(m.settings[i]->name, quick_settings[q]))
                    m.settings_on[i] = 1;
    }
    else {
        m.configs = configs;
        m.num_configs = NUM_CONFIGS;
        for (int i = 0; i < m.num_settings; i++)
            m.settings_on[i] = 1;
    }
    for (int c = 0; c < m.num_configs; c++) {
        int const t = m.configs[c].threads;
        if (m.pools[t] != NULL)
            continue;
        m.pools[t] = ct_pool_new(t);
        if (m.pools[t] == NULL) {
            fprintf(stderr, "no pool of %d threads\n", t);
            return 2;
        }
    }
    t0 = ct_clock_seconds();

    if (!quick) {
        char **names;
        int const n = mp3_corpus_list(corpus, &names);
        if (n < 0) {
            fprintf(stderr, "corpus %s not found: skipped\n", corpus ? corpus : "(none)");
            return EXIT_SKIP;
        }
        for (int k = 0; k < n; k++) {
            mp3_pcm in = {0};
            if (mp3_read_clip(corpus, names[k], &in) != 0) {
                printf("FAIL %s: unreadable\n", names[k]);
                return 1;
            }
            run_input(&m, &in);
            free(in.samples);
            free(names[k]);
        }
        free(names);
    }
    for (int i = 0; i < MP3_NUM_SYNTHETIC; i++) {
        mp3_pcm in = {0};
        mp3_synthetic(i, quick ? 1.0 : 2.0, &in);
        run_input(&m, &in);
        free(in.samples);
    }

    for (int c = 0; c < m.num_configs; c++) {
        const config *cf = &m.configs[c];
        const ct_pool *pool = m.pools[cf->threads];
        size_t ring = cf->ring > 0 ? cf->ring : (size_t) 4 * (size_t) ct_pool_threads(pool);
        if (cf->ring == 0)
            ring = ring < 16 ? 16 : ring > 128 ? 128 : ring;
        printf("threads %d, ring %zu%s%s%s: %d of %d identical\n", cf->threads, ring,
               cf->ring == 0 ? " (default)" : "",
               cf->speculate_all ? ", speculation on every frame" : "",
               cf->split == SPLIT_ON ? ", Split on" : cf->split == SPLIT_OFF ? ", Split off" : "",
               m.identical[c], m.run[c]);
        total += m.run[c];
        identical += m.identical[c];
    }
    printf("%d of %d identical (%.1f s)\n", identical, total,
           ct_clock_seconds() - t0);
    for (int t = 1; t <= MAX_THREADS; t++)
        ct_pool_unref(m.pools[t]);
    return identical == total && total > 0 ? 0 : 1;
}
