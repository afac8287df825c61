/*
 * The MP3 oracle test: every clip of the corpus and a set of synthetic
 * signals, under each of a matrix of lame settings, encoded with ctcore and
 * with Debian's libmp3lame (the API sequence that writes the lame CLI's
 * bytes: see shared/oracles/lame.md), must give the same bytes.
 *
 * usage: oracle [--extra] [--filter TEXT] [--save-failures DIR]
 *               [--no-synthetic] [--no-corpus] CORPUS_DIR
 * --extra runs a second matrix of settings instead of the main one.
 * --filter keeps the cases whose name ("clip__setting") contains TEXT.
 * Exits 0 when all are identical, 1 on any difference, 77 (skipped) when
 * CORPUS_DIR is absent and --no-corpus is not given.
 *
 * The test links libmp3lame; ctcore never does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <lame/lame.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ctcore/mp3.h"
#include "common/clock.h"

#define EXIT_SKIP 77

typedef struct setting {
    const char *name; /* as on lame's command line */
    ct_mp3_rate_control rc;
    float vbr_quality;
    int bitrate;
    int quality;
    ct_mp3_channel_mode mode;
    int no_replaygain; /* --noreplaygain */
    int no_tag;        /* -t */
} setting;

static const setting settings[] = {
    {"-V 0", CT_MP3_VBR, 0, 0, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-V 2", CT_MP3_VBR, 2, 0, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-V 4", CT_MP3_VBR, 4, 0, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-V 6.5", CT_MP3_VBR, 6.5f, 0, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-V 9", CT_MP3_VBR, 9, 0, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-b 128", CT_MP3_CBR, 0, 128, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-b 320", CT_MP3_CBR, 0, 320, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"--abr 160", CT_MP3_ABR, 0, 160, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-m m", CT_MP3_VBR, 4, 0, -1, CT_MP3_MODE_MONO, 0, 0},
    {"-q 0", CT_MP3_VBR, 4, 0, 0, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-q 7", CT_MP3_VBR, 4, 0, 7, CT_MP3_MODE_DEFAULT, 0, 0},
};

/* --extra: more of what the API reaches (CBR quality levels, LSF and
 * MPEG-2.5 output, stereo mode, no ReplayGain, no tag). */
static const setting extra_settings[] = {
    {"-b 128 -q 0", CT_MP3_CBR, 0, 128, 0, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-b 128 -q 9", CT_MP3_CBR, 0, 128, 9, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-b 96", CT_MP3_CBR, 0, 96, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-b 32", CT_MP3_CBR, 0, 32, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"--abr 96", CT_MP3_ABR, 0, 96, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-V 9.999", CT_MP3_VBR, 9.999f, 0, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-V 2 -m s", CT_MP3_VBR, 2, 0, -1, CT_MP3_MODE_STEREO, 0, 0},
    {"-b 192 -m j", CT_MP3_CBR, 0, 192, -1, CT_MP3_MODE_JOINT_STEREO, 0, 0},
    {"-V 2 --noreplaygain", CT_MP3_VBR, 2, 0, -1, CT_MP3_MODE_DEFAULT, 1, 0},
    {"-b 128 -t", CT_MP3_CBR, 0, 128, -1, CT_MP3_MODE_DEFAULT, 0, 1},
};

typedef struct pcm {
    char name[256];
    int16_t *samples; /* interleaved */
    long frames;
    int channels, rate;
} pcm;

typedef struct buf {
    unsigned char *data;
    size_t size, cap;
} buf;

static void buf_put(buf *b, const void *p, size_t n)
{
    if (b->size + n > b->cap) {
        b->cap = (b->size + n) * 2;
        b->data = realloc(b->data, b->cap);
        if (b->data == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

/* ---- input ------------------------------------------------------------- */

static uint32_t rd32(const unsigned char *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t) p[3] << 24;
}

static uint16_t rd16(const unsigned char *p)
{
    return (uint16_t) (p[0] | p[1] << 8);
}

/* RIFF/WAVE, 16-bit PCM only. */
static int read_wav(const char *path, pcm *out)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b;
    long n, off = 12;
    int bits = 0;
    if (f == NULL)
        return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = malloc((size_t) n);
    if (b == NULL || fread(b, 1, (size_t) n, f) != (size_t) n) {
        fclose(f);
        free(b);
        return -1;
    }
    fclose(f);
    out->channels = 0;
    if (n < 12 || memcmp(b, "RIFF", 4) || memcmp(b + 8, "WAVE", 4)) {
        free(b);
        return -1;
    }
    while (off + 8 <= n) {
        uint32_t sz = rd32(b + off + 4);
        if (!memcmp(b + off, "fmt ", 4)) {
            out->channels = rd16(b + off + 10);
            out->rate = (int) rd32(b + off + 12);
            bits = rd16(b + off + 22);
        }
        else if (!memcmp(b + off, "data", 4)) {
            long i;
            if (bits != 16 || out->channels < 1) {
                free(b);
                return -1;
            }
            if (off + 8 + (long) sz > n)
                sz = (uint32_t) (n - off - 8);
            out->frames = sz / (2 * out->channels);
            out->samples = malloc(sizeof(int16_t) * (size_t) (out->frames * out->channels + 1));
            for (i = 0; i < out->frames * out->channels; i++)
                out->samples[i] = (int16_t) rd16(b + off + 8 + 2 * i);
            free(b);
            return 0;
        }
        off += 8 + sz + (sz & 1);
    }
    free(b);
    return -1;
}

static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

/* The synthetic signals, in the rates and channel counts the corpus lacks
 * (stereo at 32 and 48 kHz, mono at 48 kHz) and at 44.1 kHz stereo. */
static void make_synthetic(int which, pcm *out)
{
    int rate = 44100;
    long i, frames;
    uint32_t seed = 12345;
    out->channels = 2;
    switch (which) {
    case 0:
        frames = 2 * rate;
        snprintf(out->name, sizeof(out->name), "synthetic_silence_44k1_stereo");
        break;
    case 1:
        rate = 48000;
        frames = 2 * rate;
        snprintf(out->name, sizeof(out->name), "synthetic_square_48k_stereo");
        break;
    case 2:
        rate = 32000;
        frames = 4 * rate;
        snprintf(out->name, sizeof(out->name), "synthetic_sweep_32k_stereo");
        break;
    case 3:
        rate = 48000;
        frames = 2 * rate;
        out->channels = 1;
        snprintf(out->name, sizeof(out->name), "synthetic_clipped_noise_48k_mono");
        break;
    case 4:
        frames = 1;
        snprintf(out->name, sizeof(out->name), "synthetic_one_sample");
        break;
    case 5:
        frames = 1151;
        snprintf(out->name, sizeof(out->name), "synthetic_frame_minus_one");
        break;
    default:
        frames = 1153;
        snprintf(out->name, sizeof(out->name), "synthetic_frame_plus_one");
        break;
    }
    out->rate = rate;
    out->frames = frames;
    out->samples = calloc((size_t) (frames * 2), sizeof(int16_t));
    for (i = 0; i < frames; i++) {
        int16_t l = 0, r = 0;
        switch (which) {
        case 0:
            break;
        case 1: /* full-scale 441 Hz square, right channel inverted */
            l = (i / 50) % 2 ? 32767 : -32768;
            r = (int16_t) (l == 32767 ? -32768 : 32767);
            break;
        case 2: { /* 20 Hz .. 20 kHz exponential sweep, -1 dBFS */
            double const t = (double) i / rate, T = (double) frames / rate;
            double const k = log(1000.0);
            double const phase = 2 * 3.14159265358979323846 * 20 * T / k * (exp(t / T * k) - 1);
            l = (int16_t) lrint(29204 * sin(phase));
            r = (int16_t) lrint(29204 * sin(phase * 0.5));
            break;
        }
        case 3: { /* white noise at +6 dB, clipped */
            int a = (int) (lcg(&seed) >> 16) - 32768;
            int b = (int) (lcg(&seed) >> 16) - 32768;
            a *= 2;
            b *= 2;
            l = (int16_t) (a > 32767 ? 32767 : a < -32768 ? -32768 : a);
            r = (int16_t) (b > 32767 ? 32767 : b < -32768 ? -32768 : b);
            break;
        }
        default: /* short files: a 1 kHz tone */
            l = (int16_t) lrint(16000 * sin(2 * 3.14159265358979323846 * 1000 * i / rate));
            r = (int16_t) -l;
            break;
        }
        if (out->channels == 2) {
            out->samples[2 * i] = l;
            out->samples[2 * i + 1] = r;
        }
        else {
            out->samples[i] = l;
        }
    }
}

/* ---- the two encoders -------------------------------------------------- */

static void quiet(const char *fmt, va_list ap)
{
    (void) fmt;
    (void) ap;
}

/* libmp3lame, as the lame CLI drives it: framesize samples per call. */
static int encode_reference(const pcm *in, const setting *s, buf *out)
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
        buf_put(out, mp3, (size_t) r);
    }
    r = lame_encode_flush(gf, mp3, sizeof(mp3));
    if (r < 0) {
        lame_close(gf);
        return -1;
    }
    buf_put(out, mp3, (size_t) r);
    t = lame_get_lametag_frame(gf, mp3, sizeof(mp3));
    if (t > 0 && t <= out->size)
        memcpy(out->data, mp3, t);
    lame_close(gf);
    return 0;
}

static int drain_packets(ct_mp3_encoder *enc, buf *out)
{
    ct_mp3_packet pkt;
    int ret;
    while ((ret = ct_mp3_receive_packet(enc, &pkt)) == CT_OK)
        buf_put(out, pkt.data, pkt.size);
    return ret;
}

/* ctcore, with input pieces of an odd size to exercise the re-chunking. */
static int encode_ours(const pcm *in, const setting *s, buf *out)
{
    ct_mp3_settings cs;
    ct_mp3_encoder *enc;
    ct_mp3_packet tag;
    char err[256];
    long pos;
    const long piece = 1000;
    int ret;

    ct_mp3_settings_default(&cs);
    cs.sample_rate = in->rate;
    cs.channels = in->channels;
    cs.rate_control = s->rc;
    cs.vbr_quality = s->vbr_quality;
    if (s->bitrate)
        cs.bitrate = s->bitrate;
    cs.quality = s->quality;
    cs.mode = s->mode;
    cs.replaygain = !s->no_replaygain;
    cs.lametag = !s->no_tag;
    ret = ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err));
    if (ret != CT_OK) {
        fprintf(stderr, "ct_mp3_encoder_new: %s\n", err);
        return -1;
    }
    for (pos = 0; pos < in->frames; pos += piece) {
        long n = in->frames - pos < piece ? in->frames - pos : piece;
        ret = ct_mp3_send_samples(enc, in->samples + pos * in->channels, (size_t) n);
        if (ret != CT_OK)
            break;
        ret = drain_packets(enc, out);
        if (ret != CT_EAGAIN)
            break;
        ret = CT_OK;
    }
    if (ret == CT_OK)
        ret = ct_mp3_drain(enc);
    if (ret == CT_OK) {
        ret = drain_packets(enc, out);
        if (ret == CT_EOF)
            ret = CT_OK;
    }
    if (ret == CT_OK && ct_mp3_lametag(enc, &tag) == CT_OK && tag.size <= out->size)
        memcpy(out->data, tag.data, tag.size);
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
    const setting *settings;
    int num_settings;
} options;

/* "--abr 160" -> "abr160", "-V 6.5" -> "V6.5" */
static void sanitize(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    for (; *src && n + 1 < size; src++)
        if (*src != ' ' && *src != '-')
            dst[n++] = *src;
    dst[n] = 0;
}

static void save(const options *o, const char *name, const char *kind, const buf *b)
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
static int run_input(const options *o, const pcm *in, int *total)
{
    int identical = 0, i;
    for (i = 0; i < o->num_settings; i++) {
        char setname[64], name[512];
        buf ref = {0}, ours = {0};
        int ok;
        sanitize(setname, sizeof(setname), o->settings[i].name);
        snprintf(name, sizeof(name), "%s__%s", in->name, setname);
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
            size_t k = 0, n = ours.size < ref.size ? ours.size : ref.size;
            while (k < n && ours.data[k] == ref.data[k])
                k++;
            printf("FAIL %s: %zu vs %zu bytes, first difference at byte %zu\n", name,
                   ours.size, ref.size, k);
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

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
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
    o.settings = extra ? extra_settings : settings;
    o.num_settings = extra ? (int) (sizeof(extra_settings) / sizeof(extra_settings[0]))
                           : (int) (sizeof(settings) / sizeof(settings[0]));
    t0 = ct_clock_seconds();

    if (use_corpus) {
        DIR *d = corpus ? opendir(corpus) : NULL;
        struct dirent *e;
        char *names[256];
        int n = 0, k;
        if (d == NULL) {
            fprintf(stderr, "corpus %s not found: skipped\n", corpus ? corpus : "(none)");
            return EXIT_SKIP;
        }
        while ((e = readdir(d)) != NULL && n < 256) {
            size_t len = strlen(e->d_name);
            if (len > 4 && !strcmp(e->d_name + len - 4, ".wav"))
                names[n++] = strdup(e->d_name);
        }
        closedir(d);
        qsort(names, (size_t) n, sizeof(names[0]), cmp_str);
        for (k = 0; k < n; k++) {
            pcm in = {0};
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s", corpus, names[k]);
            if (read_wav(path, &in) != 0) {
                printf("FAIL %s: unreadable\n", names[k]);
                total++;
            }
            else {
                snprintf(in.name, sizeof(in.name), "%.*s", (int) strlen(names[k]) - 4, names[k]);
                identical += run_input(&o, &in, &total);
                free(in.samples);
            }
            free(names[k]);
        }
    }
    if (synthetic) {
        for (i = 0; i < 7; i++) {
            pcm in = {0};
            make_synthetic(i, &in);
            identical += run_input(&o, &in, &total);
            free(in.samples);
        }
    }
    printf("%d of %d identical (%.1f s)\n", identical, total,
           ct_clock_seconds() - t0);
    return identical == total ? 0 : 1;
}
