/*
 * The cases of the MP3 byte tests (oracle.c, ring.c, state.c): lame's
 * settings of the oracle matrices, the synthetic signals, the corpus'
 * clips (read with tools/wav.h) and a stream through ctcore's API.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_MP3_CASES_H
#define CT_TESTS_MP3_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "ctcore/mp3.h"

typedef struct mp3_setting {
    const char *name; /* as on lame's command line */
    ct_mp3_rate_control rc;
    float vbr_quality;
    int bitrate;
    int quality;
    ct_mp3_channel_mode mode;
    int no_replaygain; /* --noreplaygain */
    int no_tag;        /* -t */
} mp3_setting;

/* The oracle's main matrix, and --extra: more of what the API reaches
 * (CBR quality levels, LSF and MPEG-2.5 output, stereo mode, no
 * ReplayGain, no tag). */
extern const mp3_setting mp3_settings_main[];
extern const int mp3_num_settings_main;
extern const mp3_setting mp3_settings_extra[];
extern const int mp3_num_settings_extra;

/* The rate matrix: -V 2, -b 64 and --abr 96 on every MPEG rate, mono and
 * stereo (mp3_rate_signal). */
extern const mp3_setting mp3_settings_rates[];
extern const int mp3_num_settings_rates;

typedef struct mp3_pcm {
    char name[256];
    int16_t *samples; /* interleaved */
    long frames;
    int channels, rate;
} mp3_pcm;

typedef struct mp3_buf {
    unsigned char *data;
    size_t size, cap;
} mp3_buf;

/* Appends n bytes; exits the test when out of memory. */
void mp3_buf_put(mp3_buf *b, const void *p, size_t n);
/* The index of the first byte where a and b differ (the shorter's size if
 * one is the start of the other). */
size_t mp3_first_difference(const mp3_buf *a, const mp3_buf *b);

uint32_t mp3_lcg(uint32_t *state);

/* The synthetic signals, in the rates and channel counts the corpus lacks
 * (stereo at 32 and 48 kHz, mono at 48 kHz) and at 44.1 kHz stereo, and
 * three short ones; `seconds` scales the long ones (the oracle: 2). */
#define MP3_NUM_SYNTHETIC 7
void mp3_synthetic(int which, double seconds, mp3_pcm *out);

/* The rate matrix' signals: MP3_NUM_RATE_SIGNALS of them, one per MPEG
 * audio rate (8 to 48 kHz) and channel count, `seconds` long: tones, a
 * sweep up to the rate's Nyquist frequency and noise. */
#define MP3_NUM_RATE_SIGNALS 18
extern const int mp3_mpeg_rates[9];
void mp3_rate_signal(int which, double seconds, mp3_pcm *out);

/* The names of the .wav files in dir, sorted (*names and each name
 * malloc()ed); -1 when dir cannot be read. */
int mp3_corpus_list(const char *dir, char ***names);
/* A corpus clip: dir/file, named after file without ".wav". Returns 0,
 * or -1 with a message on stderr. */
int mp3_read_clip(const char *dir, const char *file, mp3_pcm *out);

/* "clip__setting" with the setting's spaces and dashes left out:
 * "speech_nl_32k_mono__abr160". */
void mp3_case_name(char *dst, size_t size, const mp3_pcm *in,
                   const mp3_setting *s);

/* The input's format and the setting, as ct_mp3_settings. */
void mp3_to_settings(const mp3_pcm *in, const mp3_setting *s,
                     ct_mp3_settings *cs);

/* How a stream is fed to the encoder. */
typedef struct mp3_feed {
    uint32_t seed;    /* piece sizes: 0 = 1000 samples each, else random */
    int receive_late; /* receive only after the drain */
} mp3_feed;

/* One stream (up to `stop` samples and no drain; all and the drain if 0)
 * into out, the LAME tag written over its placeholder. Returns CT_OK or
 * an error. */
int mp3_encode_stream(ct_mp3_encoder *enc, const mp3_pcm *in,
                      const mp3_feed *fd, long stop, mp3_buf *out);

#endif
