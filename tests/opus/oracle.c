/*
 * The library against the reference: every WAV of the audio corpus under
 * each row of opus_corpus_flags, and the WAVs opus_synthetic_cases
 * describe, through ct_opus_* (in pieces of varying size) and through
 * Debian's opusenc run here (libopus' SSE approximations differ between
 * CPU vendors, so nothing is stored); the files must be identical. Each
 * row prints the census of its reference (CELT, SILK and Hybrid packets,
 * mode switches), the end the totals.
 *
 * usage: opus_oracle CORPUS_DIR [FILTER]
 * Without the corpus, the synthetic WAVs only. Exits 0 when every row
 * holds, 1 otherwise, 77 (skipped, "SKIP:" and the reason) without
 * opusenc.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctcore/opus.h"

#include "cases.h"

#define EXIT_SKIP 77

static int identical, rows, failures;
static opus_census total; /* of the reference files */

/* Encodes the WAV with the settings into a malloc'd buffer, in pieces of
 * 1, 7, 960, 4096... frames; returns the ct code of the first failure. */
static int encode(const opus_wav *wav, const ct_opus_settings *s, uint8_t **out, size_t *size,
                  char *why, size_t why_size)
{
    static const long pieces[] = {1, 7, 960, 4096, 333, 48000};
    ct_opus_encoder *enc = NULL;
    ct_opus_packet p;
    size_t cap = 1 << 16;
    long at = 0;
    int r, k = 0;

    *size = 0;
    *out = malloc(cap);
    r = ct_opus_encoder_new(NULL, s, &enc, why, why_size);
    if (r < 0)
        return r;
    for (;;) {
        long n = 0;
        if (at < wav->frames) {
            n = pieces[k++ % 6];
            if (n > wav->frames - at)
                n = wav->frames - at;
            r = ct_opus_send_samples(enc, wav->data + (size_t)at * wav->channels * wav->sample_bytes,
                                     wav->format, (size_t)n);
            at += n;
        } else {
            r = ct_opus_drain(enc);
        }
        while (r >= 0 && (r = ct_opus_receive(enc, &p)) == CT_OK) {
            while (*size + p.size > cap)
                *out = realloc(*out, cap *= 2);
            memcpy(*out + *size, p.data, p.size);
            *size += p.size;
        }
        if (r == CT_EOF) {
            r = CT_OK;
            break;
        }
        if (r != CT_EAGAIN) {
            snprintf(why, why_size, "%s", ct_opus_encoder_error(enc));
            break;
        }
        if (at >= wav->frames && n == 0) {
            snprintf(why, why_size, "no CT_EOF after the drain");
            r = CT_ESTATE;
            break;
        }
    }
    ct_opus_encoder_free(enc);
    return r;
}

/* path: the WAV ctcore encodes; ref_path: the one opusenc reads (the same
 * samples). */
static void run_row(const char *label, const char *path, const char *ref_path, const char *flags,
                    uint32_t serial, const char *tmp)
{
    char ref[4200], why[512] = "", options[256];
    opus_wav wav;
    ct_opus_settings s;
    opus_census census;
    uint8_t *got = NULL, *expected = NULL;
    size_t got_size = 0, expected_size = 0;

    snprintf(ref, sizeof(ref), "%s/ref.opus", tmp);
    if (opus_read_wav(path, &wav) < 0 || opus_settings_from_flags(flags, &wav, serial, &s, options) < 0 ||
        opus_run_opusenc(flags, serial, ref_path, ref) < 0 || opus_census_file(ref, &census) < 0) {
        printf("FAIL %s [%s]: cannot set up the row\n", label, flags);
        failures++;
        opus_wav_free(&wav);
        return;
    }
    opus_wav_to_vorbis_order(&wav);
    total.celt += census.celt;
    total.silk += census.silk;
    total.hybrid += census.hybrid;
    total.switches += census.switches;
    int r = encode(&wav, &s, &got, &got_size, why, sizeof(why));
    rows++;
    expected = opus_read_file(ref, &expected_size);
    if (r == CT_OK && expected && got_size == expected_size && !memcmp(got, expected, got_size)) {
        identical++;
        printf("ok %s [%s]: %zu bytes; CELT %ld, SILK %ld, Hybrid %ld packets, %ld switches\n", label,
               flags, got_size, census.celt, census.silk, census.hybrid, census.switches);
    } else {
        size_t at = 0;
        while (r == CT_OK && at < got_size && at < expected_size && got[at] == expected[at])
            at++;
        failures++;
        printf("FAIL %s [%s]: %s; opusenc %zu bytes, ctcore %zu, first difference at %zu\n", label,
               flags, r == CT_OK ? "differ" : why, expected_size, got_size, at);
    }
    free(got);
    free(expected);
    opus_wav_free(&wav);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : "";
    const char *filter = argc > 2 ? argv[2] : NULL;
    char why[256], tmp[] = "/tmp/ct_opus_oracle_XXXXXX", path[4200];
    char *names[64];
    int count = 0;
    uint32_t serial = 1;

    if (!opus_have_opusenc(why, sizeof(why))) {
        printf("SKIP: %s\n", why);
        return EXIT_SKIP;
    }
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    DIR *dir = *corpus ? opendir(corpus) : NULL;
    if (dir) {
        for (struct dirent *e; (e = readdir(dir)) && count < 64;) {
            size_t n = strlen(e->d_name);
            if (n > 4 && !strcmp(e->d_name + n - 4, ".wav"))
                names[count++] = strdup(e->d_name);
        }
        closedir(dir);
        qsort(names, (size_t)count, sizeof(names[0]), compare_names);
    } else {
        printf("no corpus at '%s': the synthetic WAVs only\n", corpus);
    }
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof(path), "%s/%s", corpus, names[i]);
        for (size_t f = 0; f < opus_corpus_flags_count; f++)
            if (!filter || strstr(names[i], filter))
                run_row(names[i], path, path, opus_corpus_flags[f], serial++, tmp);
        free(names[i]);
    }
    for (size_t i = 0; i < opus_synthetic_count; i++) {
        const opus_synthetic *c = &opus_synthetic_cases[i];
        if (filter && !strstr(c->name, filter))
            continue;
        char ref_path[4200];
        snprintf(path, sizeof(path), "%s/%s.wav", tmp, c->name);
        snprintf(ref_path, sizeof(ref_path), "%s/%s_reference.wav", tmp, c->name);
        if (opus_write_synthetic(c, path) < 0 || opus_write_synthetic_reference(c, ref_path) < 0) {
            printf("FAIL %s: cannot write the WAV\n", c->name);
            failures++;
        } else {
            run_row(c->name, path, ref_path, c->flags, serial++, tmp);
        }
        unlink(path);
        unlink(ref_path);
    }
    for (size_t i = 0; count > 0 && i < opus_derived_count; i++) {
        const opus_derived *c = &opus_derived_cases[i];
        if (filter && !strstr(c->name, filter))
            continue;
        snprintf(path, sizeof(path), "%s/%s.wav", tmp, c->name);
        if (opus_write_derived(c, corpus, path) < 0) {
            printf("FAIL %s: cannot make the WAV from the corpus\n", c->name);
            failures++;
        } else {
            run_row(c->name, path, path, c->flags, serial++, tmp);
        }
        unlink(path);
    }
    snprintf(path, sizeof(path), "%s/ref.opus", tmp);
    unlink(path);
    rmdir(tmp);
    printf("the references hold %ld CELT, %ld SILK and %ld Hybrid packets, %ld mode switches\n",
           total.celt, total.silk, total.hybrid, total.switches);
    printf("%d of %d identical\n", identical, rows);
    return failures || rows == 0 ? 1 : 0;
}
