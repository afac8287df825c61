/*
 * The Opus oracle matrix and what the oracle tests share (cases.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PI 3.14159265358979323846

const char *const opus_corpus_flags[] = {
    "",
    "--comp 0",
    "--comp 5",
    "--comp 8",
    "--bitrate 64",
    "--bitrate 128",
    "--bitrate 256",
    "--cvbr",
    "--bitrate 96 --hard-cbr",
    "--framesize 2.5",
    "--framesize 10",
    "--framesize 40",
    "--framesize 60",
    "--expect-loss 10",
    "--bitrate 6",
    "--bitrate 12",
    "--bitrate 16",
    "--bitrate 24",
    "--bitrate 32",
    "--bitrate 48",
    "--speech",
    "--music",
    "--bitrate 20 --speech --framesize 10",
    "--bitrate 24 --comp 0",
    "--bitrate 24 --comp 1",
    "--bitrate 24 --comp 2",
    "--bitrate 24 --comp 3",
    "--bitrate 24 --comp 4",
    "--bitrate 24 --comp 5",
    "--bitrate 24 --comp 6",
    "--bitrate 24 --comp 7",
    "--bitrate 24 --comp 8",
    "--bitrate 24 --comp 9",
    "--bitrate 24 --comp 10",
    "--bitrate 32 --cvbr",
    "--bitrate 24 --hard-cbr",
};
const size_t opus_corpus_flags_count = sizeof(opus_corpus_flags) / sizeof(opus_corpus_flags[0]);

const opus_synthetic opus_synthetic_cases[] = {
    {"silence", 48000, 2, CT_OPUS_S16, 96000, ""},
    {"square", 48000, 2, CT_OPUS_S16, 72000, ""},
    {"sweep", 44100, 2, CT_OPUS_S16, 88200, "--bitrate 128"},
    {"clipped_noise", 48000, 1, CT_OPUS_S16, 48000, "--bitrate 96"},
    {"one_sample", 48000, 2, CT_OPUS_S16, 1, ""},
    {"n959", 48000, 2, CT_OPUS_S16, 959, ""},
    {"n960", 48000, 2, CT_OPUS_S16, 960, ""},
    {"n961", 48000, 2, CT_OPUS_S16, 961, ""},
    {"rate8000", 8000, 1, CT_OPUS_S16, 16000, "--bitrate 64"},
    {"rate22050", 22050, 2, CT_OPUS_S16, 44100, "--bitrate 96"},
    {"rate96000", 96000, 2, CT_OPUS_S16, 96000, ""},
    {"rate192000", 192000, 2, CT_OPUS_S16, 192000, ""},
    {"u8", 32000, 1, CT_OPUS_U8, 32000, "--bitrate 64"},
    {"s24", 44100, 2, CT_OPUS_S24, 44100, ""},
    {"s32", 48000, 2, CT_OPUS_S32, 48000, ""},
    {"f32", 48000, 2, CT_OPUS_F32, 48000, ""},
};
const size_t opus_synthetic_count = sizeof(opus_synthetic_cases) / sizeof(opus_synthetic_cases[0]);

const opus_derived opus_derived_cases[] = {
    {"speech_8k", ""},
    {"speech_12k", ""},
    {"speech_16k", ""},
    {"speech_24k", ""},
    {"surround51", ""},
    {"surround51", "--bitrate 256"},
    {"surround71", ""},
    {"surround71", "--bitrate 256"},
};
const size_t opus_derived_count = sizeof(opus_derived_cases) / sizeof(opus_derived_cases[0]);

static int format_bytes(ct_opus_format format)
{
    switch (format) {
    case CT_OPUS_U8:
        return 1;
    case CT_OPUS_S24:
        return 3;
    case CT_OPUS_S32:
    case CT_OPUS_F32:
        return 4;
    default:
        return 2;
    }
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}

/* The signal of a case at sample i of channel c, in [-1.6, 1.6]. */
static double signal_at(const opus_synthetic *s, long i, int c, uint32_t *seed)
{
    double t = (double)i / s->rate, len = (double)s->frames / s->rate;

    *seed = *seed * 1664525u + 1013904223u;
    double noise = (double)(*seed >> 8) / (1 << 24) - 0.5;
    if (!strcmp(s->name, "silence"))
        return 0.0;
    if (!strcmp(s->name, "square"))
        return fmod(t * (220.0 + 110 * c), 1.0) < 0.5 ? 1.0 : -1.0;
    if (!strcmp(s->name, "sweep"))
        return 0.5 * sin(2 * PI * (20 * t + (s->rate / 2.0 - 20) * t * t / (2 * len)) + c);
    if (!strcmp(s->name, "clipped_noise"))
        return 3.2 * noise;
    return 0.3 * sin(2 * PI * (440 + 110 * c) * t) + 0.2 * sin(2 * PI * 1250 * t) + 0.1 * noise;
}

/* Writes the case's WAV, its S32 samples as floats when s32_as_float. */
static int write_wav(const opus_synthetic *s, const char *path, int s32_as_float)
{
    int bytes = format_bytes(s->format);
    int is_float = s->format == CT_OPUS_F32 || (s->format == CT_OPUS_S32 && s32_as_float);
    size_t data = (size_t)s->frames * s->channels * bytes;
    uint8_t *b = malloc(44 + data);
    uint32_t seed = (uint32_t)s->rate * 31 + (uint32_t)s->frames;
    FILE *f;

    if (!b)
        return -1;
    memcpy(b, "RIFF", 4);
    put32(b + 4, (uint32_t)(36 + data));
    memcpy(b + 8, "WAVEfmt ", 8);
    put32(b + 16, 16);
    put16(b + 20, is_float ? 3 : 1);
    put16(b + 22, (unsigned)s->channels);
    put32(b + 24, (uint32_t)s->rate);
    put32(b + 28, (uint32_t)(s->rate * s->channels * bytes));
    put16(b + 32, (unsigned)(s->channels * bytes));
    put16(b + 34, (unsigned)(bytes * 8));
    memcpy(b + 36, "data", 4);
    put32(b + 40, (uint32_t)data);
    uint8_t *p = b + 44;
    for (long i = 0; i < s->frames; i++) {
        for (int c = 0; c < s->channels; c++) {
            double v = signal_at(s, i, c, &seed);
            double clipped = v > 1.0 ? 1.0 : v < -1.0 ? -1.0 : v;
            switch (s->format) {
            case CT_OPUS_U8:
                *p = (uint8_t)lrint(128 + clipped * 127);
                break;
            case CT_OPUS_S24: {
                int32_t x = (int32_t)lrint(clipped * 8388607.0);
                p[0] = (uint8_t)x;
                p[1] = (uint8_t)(x >> 8);
                p[2] = (uint8_t)(x >> 16);
                break;
            }
            case CT_OPUS_S32: {
                int32_t x = (int32_t)lrint(clipped * 2147483647.0);
                float f = (float)x / 2147483648.0f;
                if (s32_as_float)
                    memcpy(p, &f, 4);
                else
                    put32(p, (uint32_t)x);
                break;
            }
            case CT_OPUS_F32: {
                float x = (float)v;
                memcpy(p, &x, 4);
                break;
            }
            default:
                put16(p, (uint16_t)(int16_t)lrint(clipped * 32767.0));
                break;
            }
            p += bytes;
        }
    }
    f = fopen(path, "wb");
    int ok = f && fwrite(b, 1, 44 + data, f) == 44 + data;
    if (f)
        ok &= fclose(f) == 0;
    free(b);
    return ok ? 0 : -1;
}

int opus_write_synthetic(const opus_synthetic *s, const char *path)
{
    return write_wav(s, path, 0);
}

int opus_write_synthetic_reference(const opus_synthetic *s, const char *path)
{
    return write_wav(s, path, 1);
}

uint8_t *opus_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *b = NULL;
    long n;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        b = malloc((size_t)n + 1);
        if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
            free(b);
            b = NULL;
        }
        *size = (size_t)n;
    }
    fclose(f);
    return b;
}

static unsigned get16(const uint8_t *p)
{
    return p[0] | (unsigned)p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
    return get16(p) | (uint32_t)get16(p + 2) << 16;
}

int opus_read_wav(const char *path, opus_wav *wav)
{
    size_t size, at = 12;
    uint8_t *b = opus_read_file(path, &size);
    int bits = 0, tag = 0;

    memset(wav, 0, sizeof(*wav));
    if (!b || size < 12 || memcmp(b, "RIFF", 4) || memcmp(b + 8, "WAVE", 4)) {
        fprintf(stderr, "%s: not a WAV file\n", path);
        free(b);
        return -1;
    }
    while (at + 8 <= size) {
        uint32_t n = get32(b + at + 4);
        if (!memcmp(b + at, "fmt ", 4) && n >= 16) {
            tag = (int)get16(b + at + 8);
            wav->channels = (int)get16(b + at + 10);
            wav->rate = (int)get32(b + at + 12);
            bits = (int)get16(b + at + 22);
        } else if (!memcmp(b + at, "data", 4)) {
            size_t len = n < size - at - 8 ? n : size - at - 8;
            wav->format = tag == 3 ? CT_OPUS_F32 : bits == 8 ? CT_OPUS_U8 : bits == 24 ? CT_OPUS_S24
                          : bits == 32 ? CT_OPUS_S32 : CT_OPUS_S16;
            wav->sample_bytes = bits / 8;
            if (!wav->channels || !wav->sample_bytes) {
                fprintf(stderr, "%s: no usable fmt chunk\n", path);
                break;
            }
            wav->frames = (long)(len / ((size_t)wav->sample_bytes * wav->channels));
            wav->data = malloc(len + 1);
            memcpy(wav->data, b + at + 8, len);
            free(b);
            return 0;
        }
        at += 8 + n + (n & 1);
    }
    fprintf(stderr, "%s: no data chunk\n", path);
    free(b);
    return -1;
}

void opus_wav_to_vorbis_order(opus_wav *wav)
{
    static const int permute[8][8] = {
        {0}, {0, 1}, {0, 2, 1}, {0, 1, 2, 3}, {0, 2, 1, 3, 4}, {0, 2, 1, 4, 5, 3},
        {0, 2, 1, 5, 6, 4, 3}, {0, 2, 1, 6, 7, 4, 5, 3},
    };
    int ch = wav->channels, bytes = wav->sample_bytes;
    uint8_t frame[8 * 4];

    if (ch < 3 || ch > 8)
        return;
    for (long i = 0; i < wav->frames; i++) {
        uint8_t *p = wav->data + (size_t)i * ch * bytes;
        memcpy(frame, p, (size_t)ch * bytes);
        for (int j = 0; j < ch; j++)
            memcpy(p + j * bytes, frame + permute[ch - 1][j] * bytes, (size_t)bytes);
    }
}

/* Writes a 16-bit WAV of the interleaved samples. */
static int write_s16_wav(const char *path, int rate, int channels, const int16_t *pcm, long frames)
{
    size_t data = (size_t)frames * channels * 2;
    uint8_t header[44];
    FILE *f = fopen(path, "wb");
    int ok;

    memcpy(header, "RIFF", 4);
    put32(header + 4, (uint32_t)(36 + data));
    memcpy(header + 8, "WAVEfmt ", 8);
    put32(header + 16, 16);
    put16(header + 20, 1);
    put16(header + 22, (unsigned)channels);
    put32(header + 24, (uint32_t)rate);
    put32(header + 28, (uint32_t)(rate * channels * 2));
    put16(header + 32, (unsigned)(channels * 2));
    put16(header + 34, 16);
    memcpy(header + 36, "data", 4);
    put32(header + 40, (uint32_t)data);
    ok = f && fwrite(header, 1, 44, f) == 44;
    for (size_t i = 0; ok && i < (size_t)frames * channels; i++) {
        uint8_t b[2];
        put16(b, (uint16_t)pcm[i]);
        ok = fwrite(b, 1, 2, f) == 2;
    }
    if (f)
        ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}

static int read_clip(const char *corpus, const char *name, opus_wav *wav)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", corpus, name);
    if (opus_read_wav(path, wav) < 0 || wav->format != CT_OPUS_S16) {
        fprintf(stderr, "%s: a 16-bit WAV is needed\n", path);
        opus_wav_free(wav);
        return -1;
    }
    return 0;
}

static int16_t clip_sample(const opus_wav *w, long i, int c)
{
    if (i >= w->frames)
        return 0;
    return ((const int16_t *)w->data)[(size_t)i * w->channels + (size_t)(c % w->channels)];
}

int opus_write_derived(const opus_derived *c, const char *corpus, const char *path)
{
    if (!strncmp(c->name, "speech_", 7)) {
        /* The speech clip at rate/1000 kHz, by linear interpolation. */
        int rate = atoi(c->name + 7) * 1000;
        opus_wav in;
        if (read_clip(corpus, "speech_nl_32k_mono.wav", &in) < 0)
            return -1;
        long frames = (long)((double)in.frames * rate / in.rate);
        int16_t *out = malloc((size_t)frames * sizeof(*out) + 1);
        for (long i = 0; i < frames; i++) {
            double x = (double)i * in.rate / rate;
            long k = (long)x;
            double f = x - k;
            double v = (1 - f) * clip_sample(&in, k, 0) + f * clip_sample(&in, k + 1, 0);
            out[i] = (int16_t)lrint(v);
        }
        int r = write_s16_wav(path, rate, 1, out, frames);
        free(out);
        opus_wav_free(&in);
        return r;
    }
    /* 5.1 or 7.1 from the 44.1 kHz clips, 10 s, one clip's channel per
     * output channel (WAV order: FL FR FC LFE BL BR [SL SR]). */
    static const char *const clips[] = {"metal_muldjord_44k1_stereo.wav",
                                        "orchestral_wesnoth_44k1_stereo.wav",
                                        "rock_sectoid_44k1_stereo.wav",
                                        "adventure_drascula_44k1_mono.wav"};
    int channels = !strcmp(c->name, "surround71") ? 8 : 6;
    opus_wav in[4];
    long frames = 441000;
    for (int k = 0; k < 4; k++) {
        if (read_clip(corpus, clips[k], &in[k]) < 0) {
            while (k--)
                opus_wav_free(&in[k]);
            return -1;
        }
    }
    int16_t *out = malloc((size_t)frames * channels * sizeof(*out));
    for (long i = 0; i < frames; i++)
        for (int ch = 0; ch < channels; ch++)
            out[(size_t)i * channels + ch] = clip_sample(&in[ch / 2], i, ch % 2);
    int r = write_s16_wav(path, 44100, channels, out, frames);
    free(out);
    for (int k = 0; k < 4; k++)
        opus_wav_free(&in[k]);
    return r;
}

void opus_wav_free(opus_wav *wav)
{
    free(wav->data);
    wav->data = NULL;
}

int opus_settings_from_flags(const char *flags, const opus_wav *wav, uint32_t serial,
                             ct_opus_settings *s, char *options)
{
    char copy[256], *save = NULL;

    ct_opus_settings_default(s);
    s->sample_rate = wav->rate;
    s->channels = wav->channels;
    s->serial = serial;
    s->lsb_depth = wav->format == CT_OPUS_U8 ? 8 : wav->format == CT_OPUS_S16 ? 16 : 24;
    snprintf(copy, sizeof(copy), "%s", flags);
    for (char *f = strtok_r(copy, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        if (!strcmp(f, "--cvbr")) {
            s->bitrate_type = CT_OPUS_CVBR;
        } else if (!strcmp(f, "--hard-cbr")) {
            s->bitrate_type = CT_OPUS_CBR;
        } else if (!strcmp(f, "--music")) {
            s->signal = CT_OPUS_SIGNAL_MUSIC;
        } else if (!strcmp(f, "--speech")) {
            s->signal = CT_OPUS_SIGNAL_VOICE;
        } else {
            char *v = strtok_r(NULL, " ", &save);
            if (!v)
                return -1;
            if (!strcmp(f, "--bitrate"))
                s->bitrate = (int)(atof(v) * 1000.);
            else if (!strcmp(f, "--comp"))
                s->complexity = atoi(v);
            else if (!strcmp(f, "--framesize"))
                s->frame_size = (int)(atof(v) * 48);
            else if (!strcmp(f, "--expect-loss"))
                s->packet_loss_percentage = atoi(v);
            else if (!strcmp(f, "--max-delay"))
                s->max_delay_ms = atoi(v);
            else
                return -1;
        }
    }
    snprintf(options, 256, "%s%s--serial %u", flags, *flags ? " " : "", (unsigned)serial);
    s->encoder_options = options;
    return 0;
}

static const char *opusenc_path(void)
{
    const char *env = getenv("OPUSENC");
    return env && *env ? env : "/usr/bin/opusenc";
}

int opus_have_opusenc(char *why, size_t size)
{
    if (access(opusenc_path(), X_OK) == 0)
        return 1;
    snprintf(why, size, "no %s (Debian: opus-tools)", opusenc_path());
    return 0;
}

int opus_run_opusenc(const char *flags, uint32_t serial, const char *in, const char *out)
{
    char copy[256], serial_arg[16], *argv[32], *save = NULL;
    int argc = 0, status;
    pid_t pid;

    snprintf(copy, sizeof(copy), "%s", flags);
    snprintf(serial_arg, sizeof(serial_arg), "%u", (unsigned)serial);
    argv[argc++] = (char *)opusenc_path();
    argv[argc++] = (char *)"--quiet";
    for (char *f = strtok_r(copy, " ", &save); f && argc < 24; f = strtok_r(NULL, " ", &save))
        argv[argc++] = f;
    argv[argc++] = (char *)"--serial";
    argv[argc++] = serial_arg;
    argv[argc++] = (char *)in;
    argv[argc++] = (char *)out;
    argv[argc] = NULL;
    pid = fork();
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int opus_census_file(const char *path, opus_census *census)
{
    size_t size, pos = 0, packet_len = 0;
    uint8_t *b = opus_read_file(path, &size);
    long packets = 0;
    int first_byte = -1, last_mode = -1;

    memset(census, 0, sizeof(*census));
    if (!b)
        return -1;
    while (pos + 27 <= size && !memcmp(b + pos, "OggS", 4)) {
        int segments = b[pos + 26];
        size_t body = pos + 27 + (size_t)segments;
        for (int i = 0; i < segments && body <= size; i++) {
            int len = b[pos + 27 + i];
            if (packet_len == 0 && len > 0 && body < size)
                first_byte = b[body];
            packet_len += (size_t)len;
            body += (size_t)len;
            if (len < 255) {
                if (packets >= 2 && first_byte >= 0) {
                    int config = first_byte >> 3;
                    int mode = config < 12 ? 0 : config < 16 ? 1 : 2;
                    if (mode == 0)
                        census->silk++;
                    else if (mode == 1)
                        census->hybrid++;
                    else
                        census->celt++;
                    if (last_mode >= 0 && mode != last_mode)
                        census->switches++;
                    last_mode = mode;
                }
                packets++;
                packet_len = 0;
                first_byte = -1;
            }
        }
        pos = body;
    }
    free(b);
    return 0;
}
