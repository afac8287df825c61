/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cases.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wav.h"

const mp3_setting mp3_settings_main[] = {
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
const int mp3_num_settings_main =
    (int)(sizeof(mp3_settings_main) / sizeof(mp3_settings_main[0]));

const mp3_setting mp3_settings_extra[] = {
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
const int mp3_num_settings_extra =
    (int)(sizeof(mp3_settings_extra) / sizeof(mp3_settings_extra[0]));

const mp3_setting mp3_settings_rates[] = {
    {"-V 2", CT_MP3_VBR, 2, 0, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"-b 64", CT_MP3_CBR, 0, 64, -1, CT_MP3_MODE_DEFAULT, 0, 0},
    {"--abr 96", CT_MP3_ABR, 0, 96, -1, CT_MP3_MODE_DEFAULT, 0, 0},
};
const int mp3_num_settings_rates =
    (int)(sizeof(mp3_settings_rates) / sizeof(mp3_settings_rates[0]));

const int mp3_mpeg_rates[9] = {8000,  11025, 12000, 16000, 22050,
                               24000, 32000, 44100, 48000};

void mp3_rate_signal(int which, double seconds, mp3_pcm *out)
{
    int const rate = mp3_mpeg_rates[which / 2];
    long const frames = (long)(seconds * rate);
    double const pi = 3.14159265358979323846;
    uint32_t seed = 777u + (uint32_t)which;
    long i;
    int c;

    out->rate = rate;
    out->channels = 1 + which % 2;
    out->frames = frames;
    snprintf(out->name, sizeof(out->name), "rates_%d_%s", rate,
             out->channels == 2 ? "stereo" : "mono");
    out->samples = calloc((size_t)(frames * out->channels) + 1, sizeof(int16_t));
    if (out->samples == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (i = 0; i < frames; i++) {
        double const t = (double)i / rate;
        /* a linear sweep from 50 Hz to the Nyquist frequency */
        double const sweep = 2 * pi * (50 * t + (rate / 2.0 - 50) * t * t / (2 * seconds));
        for (c = 0; c < out->channels; c++) {
            double v = 9000 * sin(2 * pi * (330 + 220 * c) * t) + 6000 * sin(sweep + c) +
                       (double)((int)(mp3_lcg(&seed) >> 20) - 2048);
            out->samples[i * out->channels + c] = (int16_t)lrint(v);
        }
    }
}

void mp3_buf_put(mp3_buf *b, const void *p, size_t n)
{
    if (n == 0)
        return; /* b->data may still be NULL, memcpy's arguments may not */
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

size_t mp3_first_difference(const mp3_buf *a, const mp3_buf *b)
{
    size_t k = 0, n = a->size < b->size ? a->size : b->size;
    while (k < n && a->data[k] == b->data[k])
        k++;
    return k;
}

uint32_t mp3_lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

void mp3_synthetic(int which, double seconds, mp3_pcm *out)
{
    int rate = 44100;
    long i, frames;
    uint32_t seed = 12345;
    out->channels = 2;
    switch (which) {
    case 0:
        frames = (long)(seconds * rate);
        snprintf(out->name, sizeof(out->name), "synthetic_silence_44k1_stereo");
        break;
    case 1:
        rate = 48000;
        frames = (long)(seconds * rate);
        snprintf(out->name, sizeof(out->name), "synthetic_square_48k_stereo");
        break;
    case 2:
        rate = 32000;
        frames = (long)(2 * seconds * rate);
        snprintf(out->name, sizeof(out->name), "synthetic_sweep_32k_stereo");
        break;
    case 3:
        rate = 48000;
        frames = (long)(seconds * rate);
        out->channels = 1;
        snprintf(out->name, sizeof(out->name),
                 "synthetic_clipped_noise_48k_mono");
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
    out->samples = calloc((size_t)(frames * 2), sizeof(int16_t));
    if (out->samples == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (i = 0; i < frames; i++) {
        int16_t l = 0, r = 0;
        switch (which) {
        case 0:
            break;
        case 1: /* full-scale 441 Hz square, right channel inverted */
            l = (i / 50) % 2 ? 32767 : -32768;
            r = (int16_t)(l == 32767 ? -32768 : 32767);
            break;
        case 2: { /* 20 Hz .. 20 kHz exponential sweep, -1 dBFS */
            double const t = (double)i / rate, T = (double)frames / rate;
            double const k = log(1000.0);
            double const phase =
                2 * 3.14159265358979323846 * 20 * T / k * (exp(t / T * k) - 1);
            l = (int16_t)lrint(29204 * sin(phase));
            r = (int16_t)lrint(29204 * sin(phase * 0.5));
            break;
        }
        case 3: { /* white noise at +6 dB, clipped */
            int a = (int)(mp3_lcg(&seed) >> 16) - 32768;
            int b = (int)(mp3_lcg(&seed) >> 16) - 32768;
            a *= 2;
            b *= 2;
            l = (int16_t)(a > 32767 ? 32767 : a < -32768 ? -32768 : a);
            r = (int16_t)(b > 32767 ? 32767 : b < -32768 ? -32768 : b);
            break;
        }
        default: /* short files: a 1 kHz tone */
            l = (int16_t)lrint(
                16000 * sin(2 * 3.14159265358979323846 * 1000 * i / rate));
            r = (int16_t)-l;
            break;
        }
        if (out->channels == 2) {
            out->samples[2 * i] = l;
            out->samples[2 * i + 1] = r;
        } else {
            out->samples[i] = l;
        }
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int mp3_corpus_list(const char *dir, char ***names)
{
    DIR *d = dir != NULL ? opendir(dir) : NULL;
    struct dirent *e;
    int n = 0, cap = 0;

    *names = NULL;
    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".wav") != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            *names = realloc(*names, sizeof(**names) * (size_t)cap);
        }
        if (*names == NULL || ((*names)[n] = strdup(e->d_name)) == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        n++;
    }
    closedir(d);
    if (n > 0)
        qsort(*names, (size_t)n, sizeof(**names), cmp_str);
    return n;
}

int mp3_read_clip(const char *dir, const char *file, mp3_pcm *out)
{
    ct_wav_reader wav;
    char path[1024], err[256];

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    if (ct_wav_read_all(&wav, path, &out->samples, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    out->frames = (long)wav.frames;
    out->channels = wav.channels;
    out->rate = wav.sample_rate;
    snprintf(out->name, sizeof(out->name), "%.*s", (int)strlen(file) - 4, file);
    return 0;
}

void mp3_case_name(char *dst, size_t size, const mp3_pcm *in,
                   const mp3_setting *s)
{
    char setname[64];
    const char *p;
    size_t n = 0;

    for (p = s->name; *p && n + 1 < sizeof(setname); p++)
        if (*p != ' ' && *p != '-')
            setname[n++] = *p;
    setname[n] = 0;
    snprintf(dst, size, "%s__%s", in->name, setname);
}

void mp3_to_settings(const mp3_pcm *in, const mp3_setting *s,
                     ct_mp3_settings *cs)
{
    ct_mp3_settings_default(cs);
    cs->sample_rate = in->rate;
    cs->channels = in->channels;
    cs->rate_control = s->rc;
    cs->vbr_quality = s->vbr_quality;
    if (s->bitrate)
        cs->bitrate = s->bitrate;
    cs->quality = s->quality;
    cs->mode = s->mode;
    cs->replaygain = !s->no_replaygain;
    cs->lametag = !s->no_tag;
}

static int receive_all(ct_mp3_encoder *enc, mp3_buf *out)
{
    ct_mp3_packet pkt;
    int ret;
    while ((ret = ct_mp3_receive_packet(enc, &pkt)) == CT_OK)
        mp3_buf_put(out, pkt.data, pkt.size);
    return ret;
}

int mp3_encode_stream(ct_mp3_encoder *enc, const mp3_pcm *in,
                      const mp3_feed *fd, long stop, mp3_buf *out)
{
    uint32_t seed = fd->seed;
    long pos = 0, end = stop > 0 && stop < in->frames ? stop : in->frames;
    ct_mp3_packet tag;
    int ret = CT_OK;

    while (pos < end) {
        long n = 1000;
        if (seed != 0)
            n = 1 + (long)(mp3_lcg(&seed) >> 8) % 5000;
        if (n > end - pos)
            n = end - pos;
        ret = ct_mp3_send_samples(enc, in->samples + pos * in->channels,
                                  (size_t)n);
        if (ret != CT_OK)
            return ret;
        pos += n;
        if (!fd->receive_late) {
            ret = receive_all(enc, out);
            if (ret != CT_EAGAIN)
                return ret;
            ret = CT_OK;
        }
    }
    if (stop > 0)
        return CT_OK; /* cut off: the caller resets */
    ret = ct_mp3_drain(enc);
    if (ret == CT_OK) {
        ret = receive_all(enc, out);
        if (ret == CT_EOF)
            ret = CT_OK;
    }
    if (ret == CT_OK && ct_mp3_lametag(enc, &tag) == CT_OK &&
        tag.size <= out->size)
        memcpy(out->data, tag.data, tag.size);
    return ret;
}
