/*
 * The Opus oracle matrix, shared by the library's and the element's
 * oracle tests: opusenc's flags per row, the WAVs the tests write, and
 * what they need to run Debian's opusenc and read its output.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_OPUS_CASES_H
#define CT_TESTS_OPUS_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/opus.h"

/* opusenc's flags for each row of the corpus matrix, in the order and
 * spelling ct_opus_encoder_options writes them (so that ENCODER_OPTIONS
 * match). */
extern const char *const opus_corpus_flags[];
extern const size_t opus_corpus_flags_count;

/* WAVs the tests make from corpus clips: speech at other rates, 5.1 and
 * 7.1 from several clips. */
typedef struct opus_derived {
    const char *name;
    const char *flags; /* opusenc flags for it */
} opus_derived;

extern const opus_derived opus_derived_cases[];
extern const size_t opus_derived_count;

/* Writes the derived WAV from the corpus clips; 0 on success, -1 (with a
 * message) when a clip it needs is missing. */
int opus_write_derived(const opus_derived *c, const char *corpus, const char *path);


/* A WAV the tests write: a name, a rate, channels, a format, a length. */
typedef struct opus_synthetic {
    const char *name;
    int rate;
    int channels;
    ct_opus_format format;
    long frames;
    const char *flags; /* opusenc flags for it */
} opus_synthetic;

extern const opus_synthetic opus_synthetic_cases[];
extern const size_t opus_synthetic_count;

/* Writes the synthetic WAV to path; 0 on success. */
int opus_write_synthetic(const opus_synthetic *c, const char *path);
/* The WAV opusenc reads for the case: opusenc reads no 32-bit integer
 * PCM, so for CT_OPUS_S32 a float WAV of the samples as ctcore converts
 * them ((float)x / 2^31); for the others the same as
 * opus_write_synthetic. */
int opus_write_synthetic_reference(const opus_synthetic *c, const char *path);

/* A WAV file's samples as they are (PCM 8/16/24/32 or float 32). */
typedef struct opus_wav {
    int rate, channels;
    ct_opus_format format;
    int sample_bytes;
    long frames;
    uint8_t *data;
} opus_wav;

/* 0 on success; a message on stderr otherwise. */
int opus_read_wav(const char *path, opus_wav *wav);
void opus_wav_free(opus_wav *wav);
/* opusenc's reader takes a WAV's channels in WAV order and hands them to
 * libopusenc in Vorbis order (opus-tools' wav_permute_matrix, 3 to 8
 * channels): the same reordering, in place. */
void opus_wav_to_vorbis_order(opus_wav *wav);

/* Fills settings from opusenc flags (--bitrate, --cvbr, --hard-cbr,
 * --music, --speech, --comp, --framesize, --expect-loss, --max-delay) for
 * the WAV, with the serial given and encoder_options = flags + " --serial
 * N"; options must hold 256 bytes. 0 on success, -1 for a flag it does
 * not know. */
int opus_settings_from_flags(const char *flags, const opus_wav *wav, uint32_t serial,
                             ct_opus_settings *settings, char *options);

/* Runs /usr/bin/opusenc (or the OPUSENC environment variable) --quiet
 * FLAGS --serial N in out; 0 on success. */
int opus_run_opusenc(const char *flags, uint32_t serial, const char *in, const char *out);
/* Whether an opusenc binary is there; the reason in why otherwise. */
int opus_have_opusenc(char *why, size_t size);

/* The audio packets' modes in an Ogg Opus file (from the TOC bytes). */
typedef struct opus_census {
    long celt, silk, hybrid;
    long switches; /* packets whose mode differs from the one before */
} opus_census;
int opus_census_file(const char *path, opus_census *census);

/* Reads a whole file; NULL on failure. */
uint8_t *opus_read_file(const char *path, size_t *size);

#endif
