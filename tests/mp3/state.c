/*
 * The nodes' own copies of the MP3 encoder's state (ctcore/mp3/graph.c,
 * state.h's parts): the Encode state copies the bit stream part and the
 * quantization part of the encoder's, each CBR/ABR Search worker's scratch
 * state and node Split's state the quantization part. Here every byte of
 * those states outside
 * what they copy is garbage (ct_mp3_graph_poison: 0xA5 and 0xFF bytes, the
 * latter a NaN in every float), on a ring that speculates on every frame
 * (on one worker, and on two with Split on, so that Split runs jobs on its
 * state), and the bytes must still be the sequential chain's, for every setting
 * of the oracle matrices on the synthetic signals and the start of each corpus
 * clip: a field the loops, the bit stream or the LAME tag read and that lies
 * outside its part fails here.
 *
 * usage: state [CORPUS_DIR]
 * Exits 0 when all are identical, 1 on any difference.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "common/clock.h"
#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "mp3/encoder.h"
#include "mp3/graph.h"

/* The corpus clips' first seconds. */
#define CLIP_SECONDS 2
/* On one worker, a ring of 2 slots speculates on every CBR/ABR frame (a
 * quarter of the ring: none ahead of Encode needed). */
#define RING 2

static const int poisons[] = {0xA5, 0xFF};
#define NUM_POISONS ((int)(sizeof(poisons) / sizeof(poisons[0])))

/* What the poisoned runs did: the frames whose Search speculated, the
 * granules Split ran. */
typedef struct ran {
    uint64_t speculated, split;
} ran;

/* poison < 0: the sequential chain (pool and split unused). */
static int encode(ct_pool *pool, int poison, bool split, const mp3_pcm *in,
                  const mp3_setting *s, mp3_buf *out, ran *r)
{
    ct_mp3_settings cs;
    ct_mp3_encoder *enc;
    const mp3_feed pieces = {0, 0};
    double seconds[CT_MP3_NUM_NODES];
    char err[256];
    int ret;

    mp3_to_settings(in, s, &cs);
    ret = ct_mp3_encoder_new_ring(pool, &cs, poison < 0 ? 0 : RING, &enc, err,
                                  sizeof(err));
    if (ret != CT_OK) {
        fprintf(stderr, "ct_mp3_encoder_new_ring: %s\n", err);
        return ret;
    }
    if (poison >= 0) {
        ct_mp3_graph_poison(ct_mp3_encoder_graph(enc), poison);
        ct_mp3_graph_split_channels(ct_mp3_encoder_graph(enc), split);
        ret = ct_mp3_graph_trace(ct_mp3_encoder_graph(enc), true);
    }
    if (ret == CT_OK)
        ret = mp3_encode_stream(enc, in, &pieces, 0, out);
    if (poison >= 0) {
        ct_mp3_graph_speculation speculation;
        ct_mp3_graph_trace_read(ct_mp3_encoder_graph(enc), seconds,
                                &speculation);
        r->speculated += speculation.frames;
        r->split += speculation.split_served;
    }
    ct_mp3_encoder_free(enc);
    return ret;
}

typedef struct counts {
    int run, identical;
    ran ran;
} counts;

/* The pools: one worker, Split off; two, Split on. */
static ct_pool *pools[2];

static void run_input(const mp3_pcm *in, const mp3_setting *settings,
                      int num_settings, counts *c)
{
    for (int i = 0; i < num_settings; i++) {
        char name[512];
        mp3_buf ref = {0};
        mp3_case_name(name, sizeof(name), in, &settings[i]);
        for (int p = 0; p < 2 * NUM_POISONS; p++) {
            mp3_buf ours = {0};
            const int poison = poisons[p / 2];
            const bool split = p % 2 == 1;
            int ret;
            if (p == 0 && encode(NULL, -1, false, in, &settings[i], &ref,
                                 NULL) != CT_OK) {
                printf("FAIL %s: the sequential chain failed\n", name);
                c->run++;
                break;
            }
            ret = encode(pools[split], poison, split, in, &settings[i], &ours,
                         &c->ran);
            c->run++;
            if (ret == CT_OK && ours.size == ref.size &&
                memcmp(ours.data, ref.data, ref.size) == 0)
                c->identical++;
            else
                printf("FAIL %s poison 0x%02X%s: %s, %zu vs %zu bytes, first "
                       "difference at byte %zu\n",
                       name, poison, split ? ", Split on" : "",
                       ret == CT_OK ? "ok" : ct_strerror(ret), ours.size,
                       ref.size, mp3_first_difference(&ours, &ref));
            free(ours.data);
        }
        free(ref.data);
    }
    fflush(stdout);
}

static void run_all(const mp3_pcm *in, counts *c)
{
    run_input(in, mp3_settings_main, mp3_num_settings_main, c);
    run_input(in, mp3_settings_extra, mp3_num_settings_extra, c);
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : NULL;
    counts c = {0};
    double const t0 = ct_clock_seconds();
    char **names;
    int n;

    pools[0] = ct_pool_new(1);
    pools[1] = ct_pool_new(2);
    if (pools[0] == NULL || pools[1] == NULL) {
        fprintf(stderr, "no pool\n");
        return 2;
    }
    n = mp3_corpus_list(corpus, &names);
    for (int k = 0; k < n; k++) {
        mp3_pcm in = {0};
        if (mp3_read_clip(corpus, names[k], &in) != 0) {
            printf("FAIL %s: unreadable\n", names[k]);
            c.run++;
        } else {
            if (in.frames > (long)CLIP_SECONDS * in.rate)
                in.frames = (long)CLIP_SECONDS * in.rate;
            run_all(&in, &c);
            free(in.samples);
        }
        free(names[k]);
    }
    free(names);
    for (int i = 0; i < MP3_NUM_SYNTHETIC; i++) {
        mp3_pcm in = {0};
        mp3_synthetic(i, 1.0, &in);
        run_all(&in, &c);
        free(in.samples);
    }
    ct_pool_unref(pools[0]);
    ct_pool_unref(pools[1]);
    printf("%llu CBR/ABR frames speculated on the poisoned scratch states, "
           "%llu granules run on Split's\n",
           (unsigned long long)c.ran.speculated,
           (unsigned long long)c.ran.split);
    printf("%d of %d identical (%.1f s)\n", c.identical, c.run,
           ct_clock_seconds() - t0);
    return c.identical == c.run && c.run > 0 && c.ran.speculated > 0 &&
                   c.ran.split > 0
               ? 0
               : 1;
}
