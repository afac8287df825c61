/*
 * The MP3 oracle test: every clip of the corpus and a set of synthetic
 * signals, under each of a matrix of lame settings, encoded with ctcore and
 * with Debian's libmp3lame (the API sequence that writes the lame CLI's
 * bytes: see shared/oracles/lame.md), must give the same bytes. The main
 * matrix adds the rate matrix: every MPEG audio rate, mono and stereo,
 * under -V 2, -b 64 and --abr 96, on generated signals.
 *
 * usage: oracle [--extra] [--filter TEXT] [--save-failures DIR]
 *               [--no-synthetic] [--no-corpus] [CORPUS_DIR]
 * --extra runs a second matrix of settings instead of the main one.
 * --filter keeps the cases whose name ("clip__setting") contains TEXT.
 * Without the corpus (CORPUS_DIR absent) its rows are left out, said so
 * on stdout; the generated signals need none. Exits 0 when all are
 * identical, 1 on any difference.
 *
 * The test links libmp3lame; ctcore never does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <lame/lame.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctcore/mp3.h"
#include "common/clock.h"

#include "cases.h"

/* ---- the two encoders -------------------------------------------------- */

static void quiet(const char *fmt, va_list ap)
{
    (void) fmt;
    (void) ap;
}

/* libmp3lame, as the lame CLI drives it: framesize samples per call. */
static int encode_reference(const mp3_pcm *in, const mp3_setting *s, mp3_buf *out)
{
    lame_t gf = lame_init();
    static unsigned char mp3[LAME_MAXMP3BUFFER];
    int framesize, r;
    long pos;
    size_t t;

    lame_set_errorf(gf, quiet);
    lame_set_msgf(gf, quiet);
    lame_set_debugf(gf, quiet);
    lame_set_num_channels(gf, in->channels);
    lame_set_in_samplerate(gf, in->rate);
    switch (s->rc) {
    case CT_MP3_VBR:
        lame_set_VBR(gf, vbr_mtrh);
        lame_set_VBR_quality(gf, s->vbr_quality);
        break;
    case CT_MP3_CBR:
        lame_set_brate(gf, s->bitrate);
        lame_set_VBR_min_bitrate_kbps(gf, s->bitrate);
        break;
    case CT_MP3_ABR:
        lame_set_VBR(gf, vbr_abr);
        lame_set_VBR_mean_bitrate_kbps(gf, s->bitrate);
        break;
    }
    if (s->mode == CT_MP3_MODE_MONO)
        lame_set_mode(gf, MONO);
    if (s->mode == CT_MP3_MODE_STEREO)
        lame_set_mode(gf, STEREO);
    if (s->mode == CT_MP3_MODE_JOINT_STEREO) {
        lame_set_force_ms(gf, 0);
        lame_set_mode(gf, JOINT_STEREO);
    }
    if (s->quality >= 0)
        lame_set_quality(gf, s->quality);
    lame_set_findReplayGain(gf, !s->no_replaygain);
    if (s->no_tag)
        lame_set_bWriteVbrTag(gf, 0);
    lame_set_write_id3tag_automatic(gf, 0);
    if (lame_init_params(gf) < 0) {
        lame_close(gf);
        return -1;
    }
    framesize = lame_get_framesize(gf);
    for (pos = 0; pos < in->frames; pos += framesize) {
        int n = in->frames - pos < framesize ? (int) (in->frames - pos) : framesize;
        if (in->channels == 2)
            r = lame_encode_buffer_interleaved(gf, in->samples + pos * 2, n, mp3, sizeof(mp3));
        else
            r = lame_encode_buffer(gf, in->samples + pos, NULL, n, mp3, sizeof(mp3));
        if (r < 0) {
            lame_close(gf);
            return -1;
        }
        mp3_buf_put(out, mp3, (size_t) r);
    }
    r = lame_encode_flush(gf, mp3, sizeof(mp3));
    if (r < 0) {
        lame_close(gf);
        return -1;
    }
    mp3_buf_put(out, mp3, (size_t) r);
    t = lame_get_lametag_frame(gf, mp3, sizeof(mp3));
    if (t > 0 && t <= out->size)
        memcpy(out->data, mp3, t);
    lame_close(gf);
    return 0;
}

/* ctcore, with input pieces of an odd size to exercise the re-chunking. */
static int encode_ours(const mp3_pcm *in, const mp3_setting *s, mp3_buf *out)
{
    ct_mp3_settings cs;
    ct_mp3_encoder *enc;
    const mp3_feed pieces = {0, 0};
    char err[256];
    int ret;

    mp3_to_settings(in, s, &cs);
    ret = ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err));
    if (ret != CT_OK) {
        fprintf(stderr, "ct_mp3_encoder_new: %s\n", err);
        return -1;
    }
    ret = mp3_encode_stream(enc, in, &pieces, 0, out);
    ct_mp3_encoder_free(enc);
    if (ret != CT_OK) {
        fprintf(stderr, "ctcore: %s\n", ct_strerror(ret));
        return -1;
    }
    return 0;
}

/* ---- the matrix -------------------------------------------------------- */

typedef struct options {
    const char *filter;
    const char *save_dir;
    const mp3_setting *settings;
    int num_settings;
} options;

static void save(const options *o, const char *name, const char *kind, const mp3_buf *b)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s.%s.mp3", o->save_dir, name, kind);
    f = fopen(path, "wb");
    if (f) {
        fwrite(b->data, 1, b->size, f);
        fclose(f);
    }
}

/* Runs every setting on one input; returns the number of identical cases
 * and adds the number run to *total. */
static int run_input(const options *o, const mp3_pcm *in, int *total)
{
    int identical = 0, i;
    for (i = 0; i < o->num_settings; i++) {
        char name[512];
        mp3_buf ref = {0}, ours = {0};
        int ok;
        mp3_case_name(name, sizeof(name), in, &o->settings[i]);
        if (o->filter && !strstr(name, o->filter))
            continue;
        ++*total;
        if (encode_reference(in, &o->settings[i], &ref) != 0) {
            printf("FAIL %s: reference encoder failed\n", name);
            continue;
        }
        ok = encode_ours(in, &o->settings[i], &ours) == 0 && ours.size == ref.size
            && memcmp(ours.data, ref.data, ref.size) == 0;
        if (ok) {
            identical++;
            printf("ok   %s (%zu bytes)\n", name, ref.size);
        }
        else {
            printf("FAIL %s: %zu vs %zu bytes, first difference at byte %zu\n", name,
                   ours.size, ref.size, mp3_first_difference(&ours, &ref));
            if (o->save_dir) {
                save(o, name, "ours", &ours);
                save(o, name, "lame", &ref);
            }
        }
        fflush(stdout);
        free(ref.data);
        free(ours.data);
    }
    return identical;
}

int main(int argc, char **argv)
{
    options o = {0};
    const char *corpus = NULL;
    int synthetic = 1, use_corpus = 1, extra = 0, identical = 0, total = 0, i;
    double t0;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            o.filter = argv[++i];
        else if (!strcmp(argv[i], "--save-failures") && i + 1 < argc)
            o.save_dir = argv[++i];
        else if (!strcmp(argv[i], "--extra"))
            extra = 1;
        else if (!strcmp(argv[i], "--no-synthetic"))
            synthetic = 0;
        else if (!strcmp(argv[i], "--no-corpus"))
            use_corpus = 0;
        else
            corpus = argv[i];
    }
    o.settings = extra ? mp3_settings_extra : mp3_settings_main;
    o.num_settings = extra ? mp3_num_settings_extra : mp3_num_settings_main;
    t0 = ct_clock_seconds();

    if (use_corpus) {
        char **names;
        int const n = mp3_corpus_list(corpus, &names);
        if (n < 0)
            printf("corpus %s not found: its rows left out, the generated signals "
                   "only\n", corpus ? corpus : "(none)");
        for (i = 0; i < n; i++) {
            mp3_pcm in = {0};
            if (mp3_read_clip(corpus, names[i], &in) != 0) {
                printf("FAIL %s: unreadable\n", names[i]);
                total++;
            }
            else {
                identical += run_input(&o, &in, &total);
                free(in.samples);
            }
            free(names[i]);
        }
        free(names);
    }
    if (synthetic) {
        for (i = 0; i < MP3_NUM_SYNTHETIC; i++) {
            mp3_pcm in = {0};
            mp3_synthetic(i, 2.0, &in);
            identical += run_input(&o, &in, &total);
            free(in.samples);
        }
    }
    if (synthetic && !extra) {
        options rates = o;
        rates.settings = mp3_settings_rates;
        rates.num_settings = mp3_num_settings_rates;
        for (i = 0; i < MP3_NUM_RATE_SIGNALS; i++) {
            mp3_pcm in = {0};
            mp3_rate_signal(i, 1.0, &in);
            identical += run_input(&rates, &in, &total);
            free(in.samples);
        }
    }
    printf("%d of %d identical (%.1f s)\n", identical, total,
           ct_clock_seconds() - t0);
    return identical == total ? 0 : 1;
}
