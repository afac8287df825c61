/*
 * ctlame against the installed lame on every WAV lame reads: 8-, 16-, 24-
 * and 32-bit PCM and 32-bit float (plain, WAVE_FORMAT_EXTENSIBLE, an odd
 * 17-byte "fmt " chunk, a float file louder than full scale), at several
 * rates, each encoded by both from the file and from stdin, and by
 * ctcore's ct_mp3_send_samples_s32 / _f32 on the same samples: every
 * output must be lame's bytes (from a file lame reads through libsndfile,
 * which scales a float file to its peak; from stdin with its own reader,
 * which the _f32 function follows). And ctlame's habits against lame's:
 * --version, the exit statuses, in.wav -> in.mp3.
 *
 * usage: wav_oracle CTLAME [LAME]
 * LAME defaults to "lame" on PATH. Exits 0 when all are identical, 1 on
 * any difference, 77 (skipped, with the reason) without lame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctcore/mp3.h"

#include "cases.h"

#define EXIT_SKIP 77

typedef struct wav_format {
    const char *name;
    int bits;
    int is_float;
    int extensible;
    int fmt_size;   /* of a plain header: 16, or 17 (odd, padded) */
    double peak;    /* of the signal, 1 = full scale */
} wav_format;

static const wav_format formats[] = {
    {"u8", 8, 0, 0, 16, 0.7},
    {"s16", 16, 0, 0, 16, 0.7},
    {"s24", 24, 0, 0, 16, 0.7},
    {"s32", 32, 0, 0, 16, 0.7},
    {"f32", 32, 1, 0, 16, 0.7},
    {"f32_loud", 32, 1, 0, 16, 1.6},
    {"s24_extensible", 24, 0, 1, 16, 0.7},
    {"f32_extensible", 32, 1, 1, 16, 0.5},
    {"s16_fmt17", 16, 0, 0, 17, 0.7},
};

static const struct {
    int rate, channels;
} layouts[] = {{8000, 1}, {11025, 2}, {22050, 1}, {24000, 2}, {44100, 2}, {48000, 1}};

static const char *const settings[] = {"-V 2", "-b 64", "--abr 96"};

static int identical, total;

/* The signal as floats (interleaved), full scale 1. */
static float *make_signal(int rate, int channels, long frames, double peak, uint32_t seed)
{
    float *x = malloc(sizeof(float) * (size_t) (frames * channels + 1));
    double const pi = 3.14159265358979323846;
    if (x == NULL)
        exit(2);
    for (long i = 0; i < frames; i++) {
        double const t = (double) i / rate;
        for (int c = 0; c < channels; c++) {
            double const noise = (double) (mp3_lcg(&seed) >> 8) / (1 << 24) - 0.5;
            double const v = 0.55 * sin(2 * pi * (440 + 110 * c) * t) +
                             0.35 * sin(2 * pi * 300 * t * (1 + 4 * t)) + 0.1 * noise;
            x[i * channels + c] = (float) (peak * v);
        }
    }
    return x;
}

static int32_t quantize(double v, int bits)
{
    double const top = ldexp(1.0, bits - 1);
    double q = floor(v * top + 0.5);
    if (q > top - 1)
        q = top - 1;
    if (q < -top)
        q = -top;
    return (int32_t) q;
}

static void put16(FILE *f, unsigned v)
{
    fputc((int) (v & 0xff), f);
    fputc((int) (v >> 8 & 0xff), f);
}

static void put32(FILE *f, uint32_t v)
{
    put16(f, v & 0xffff);
    put16(f, v >> 16);
}

/* Writes the WAV; *s32 gets the 32-bit samples lame makes of an integer
 * file (the sample in the top bits). */
static int write_wav(const char *path, const wav_format *fm, int rate, int channels,
                     const float *x, long frames, int32_t *s32)
{
    FILE *f = fopen(path, "wb");
    long const samples = frames * channels;
    uint32_t const bytes = (uint32_t) (fm->bits / 8);
    uint32_t const data = (uint32_t) samples * bytes;
    uint32_t const fmt = fm->extensible ? 40 : (uint32_t) fm->fmt_size;
    uint32_t const fmt_padded = fmt + (fmt & 1);

    if (f == NULL)
        return -1;
    fwrite("RIFF", 1, 4, f);
    put32(f, 4 + 8 + fmt_padded + 8 + data);
    fwrite("WAVEfmt ", 1, 8, f);
    put32(f, fmt);
    put16(f, fm->extensible ? 0xfffe : fm->is_float ? 3 : 1);
    put16(f, (unsigned) channels);
    put32(f, (uint32_t) rate);
    put32(f, (uint32_t) rate * (uint32_t) channels * bytes);
    put16(f, (unsigned) channels * bytes);
    put16(f, (unsigned) fm->bits);
    if (fm->extensible) {
        static const unsigned char guid_tail[14] = {0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80,
                                                    0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71};
        put16(f, 22);
        put16(f, (unsigned) fm->bits);
        put32(f, channels == 2 ? 3 : 4);
        put16(f, fm->is_float ? 3 : 1);
        fwrite(guid_tail, 1, sizeof(guid_tail), f);
    }
    for (uint32_t k = fm->extensible ? 40 : 16; k < fmt_padded; k++)
        fputc(0, f);
    fwrite("data", 1, 4, f);
    put32(f, data);
    for (long i = 0; i < samples; i++) {
        if (fm->is_float) {
            uint32_t u;
            memcpy(&u, &x[i], 4);
            put32(f, u);
            continue;
        }
        int32_t const q = quantize(x[i], fm->bits);
        if (fm->bits == 8)
            fputc(q + 128, f);
        else
            for (int b = 0; b < fm->bits; b += 8)
                fputc((int) ((uint32_t) q >> b & 0xff), f);
        s32[i] = (int32_t) ((uint32_t) q << (32 - fm->bits));
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int read_file(const char *path, mp3_buf *out)
{
    FILE *f = fopen(path, "rb");
    unsigned char buf[65536];
    size_t n;
    out->size = 0;
    if (f == NULL)
        return -1;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        mp3_buf_put(out, buf, n);
    fclose(f);
    return 0;
}

static int run(const char *command)
{
    int const r = system(command);
    return r == 0 ? 0 : -1;
}

/* The exit status of a command, -1 if it did not exit. */
static int exit_status(const char *command)
{
    int const r = system(command);
    return r != -1 && WIFEXITED(r) ? WEXITSTATUS(r) : -1;
}

/* ctlame's habits, lame's: --version, the exit statuses, the output name
 * without one (in.wav -> in.mp3, the same bytes as lame's in.mp3). */
static void check_habits(const char *ctlame, const char *lame, const char *dir)
{
    static const struct {
        const char *args;
        int status;
    } statuses[] = {
        {"--version", 0},          {"--help", 0},
        {"--bogus x.wav", 1},      {"", 1},
        {"/nonexistent.wav", 255}, {"-V 2 %s/in.wav /nonexistent/out.mp3", 255},
    };
    char cmd[4096], args[1200], path[1200];
    mp3_buf ref = {0}, ours = {0};
    int ok;

    for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
        int got;
        snprintf(args, sizeof(args), statuses[i].args, dir);
        snprintf(cmd, sizeof(cmd), "'%s' %s >/dev/null 2>&1", ctlame, args);
        got = exit_status(cmd);
        snprintf(cmd, sizeof(cmd), "'%s' --quiet %s >/dev/null 2>&1", lame, args);
        total++;
        if (got == statuses[i].status && exit_status(cmd) == got) {
            identical++;
            printf("ok   ctlame %s: status %d, as lame\n", args, got);
        }
        else {
            printf("FAIL ctlame %s: status %d, not %d\n", args, got, statuses[i].status);
        }
    }
    snprintf(path, sizeof(path), "%s/in.mp3", dir);
    snprintf(cmd, sizeof(cmd), "'%s' --quiet -V 5 '%s/in.wav'", lame, dir);
    ok = run(cmd) == 0 && read_file(path, &ref) == 0;
    unlink(path);
    snprintf(cmd, sizeof(cmd), "'%s' -V 5 '%s/in.wav'", ctlame, dir);
    ok = ok && run(cmd) == 0 && read_file(path, &ours) == 0;
    unlink(path);
    total++;
    ok = ok && ours.size == ref.size && memcmp(ours.data, ref.data, ref.size) == 0;
    identical += ok;
    printf("%s ctlame in.wav: in.mp3, lame's bytes\n", ok ? "ok  " : "FAIL");
    free(ref.data);
    free(ours.data);
}

/* ctcore's API on the samples, as s32 or f32, with the settings of flags. */
static int encode_api(const char *flags, int rate, int channels, const void *pcm, long frames,
                      int is_float, mp3_buf *out)
{
    ct_mp3_settings cs;
    ct_mp3_encoder *enc;
    ct_mp3_packet p;
    char err[256];
    long pos;
    int ret;

    ct_mp3_settings_default(&cs);
    cs.sample_rate = rate;
    cs.channels = channels;
    if (!strncmp(flags, "-V ", 3)) {
        cs.rate_control = CT_MP3_VBR;
        cs.vbr_quality = (float) atof(flags + 3);
    }
    else {
        cs.rate_control = !strncmp(flags, "-b ", 3) ? CT_MP3_CBR : CT_MP3_ABR;
        cs.bitrate = atoi(strchr(flags, ' ') + 1);
    }
    out->size = 0;
    if (ct_mp3_encoder_new(NULL, &cs, &enc, err, sizeof(err)) != CT_OK)
        return -1;
    for (pos = 0; pos < frames; pos += 999) {
        size_t const n = (size_t) (frames - pos < 999 ? frames - pos : 999);
        ret = is_float ? ct_mp3_send_samples_f32(enc, (const float *) pcm + pos * channels, n)
                       : ct_mp3_send_samples_s32(enc, (const int32_t *) pcm + pos * channels,
                                                 n);
        while (ret == CT_OK && (ret = ct_mp3_receive_packet(enc, &p)) == CT_OK)
            mp3_buf_put(out, p.data, p.size);
        if (ret != CT_EAGAIN)
            break;
    }
    ret = ct_mp3_drain(enc);
    while (ret == CT_OK && (ret = ct_mp3_receive_packet(enc, &p)) == CT_OK)
        mp3_buf_put(out, p.data, p.size);
    if (ret == CT_EOF && ct_mp3_lametag(enc, &p) == CT_OK && p.size <= out->size)
        memcpy(out->data, p.data, p.size);
    ct_mp3_encoder_free(enc);
    return ret == CT_EOF ? 0 : -1;
}

static void compare(const char *name, const char *how, int ok, const mp3_buf *ours,
                    const mp3_buf *lame)
{
    total++;
    ok = ok && ours->size == lame->size && memcmp(ours->data, lame->data, lame->size) == 0;
    if (ok) {
        identical++;
        printf("ok   %s %s (%zu bytes)\n", name, how, lame->size);
    }
    else {
        printf("FAIL %s %s: %zu vs %zu bytes, first difference at byte %zu\n", name, how,
               ours->size, lame->size, mp3_first_difference(ours, lame));
    }
}

int main(int argc, char **argv)
{
    const char *ctlame = argc > 1 ? argv[1] : NULL;
    const char *lame = argc > 2 ? argv[2] : "lame";
    char dir[] = "/tmp/ct_wav_oracle_XXXXXX";
    char cmd[4096], wav[1200], out_lame[1200], out_ours[1200];
    mp3_buf ref = {0}, ours = {0};
    int case_index = 0;

    if (ctlame == NULL) {
        fprintf(stderr, "usage: wav_oracle CTLAME [LAME]\n");
        return 2;
    }
    snprintf(cmd, sizeof(cmd), "'%s' --version >/dev/null 2>&1", lame);
    if (run(cmd) != 0) {
        printf("SKIP: no %s to run (install Debian's lame)\n", lame);
        return EXIT_SKIP;
    }
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(wav, sizeof(wav), "%s/in.wav", dir);
    snprintf(out_lame, sizeof(out_lame), "%s/lame.mp3", dir);
    snprintf(out_ours, sizeof(out_ours), "%s/ours.mp3", dir);

    for (size_t fi = 0; fi < sizeof(formats) / sizeof(formats[0]); fi++) {
        for (size_t li = 0; li < sizeof(layouts) / sizeof(layouts[0]); li++) {
            const wav_format *fm = &formats[fi];
            int const rate = layouts[li].rate, channels = layouts[li].channels;
            long const frames = rate * 3 / 4;
            const char *flags = settings[case_index++ % 3];
            float *x = make_signal(rate, channels, frames, fm->peak, (uint32_t) case_index);
            int32_t *s32 = calloc((size_t) (frames * channels + 1), sizeof(int32_t));
            char name[128];
            int ok;

            snprintf(name, sizeof(name), "%s_%d_%s %s", fm->name, rate,
                     channels == 2 ? "stereo" : "mono", flags);
            if (s32 == NULL || write_wav(wav, fm, rate, channels, x, frames, s32) != 0) {
                printf("FAIL %s: cannot write %s\n", name, wav);
                total++;
                free(x);
                free(s32);
                continue;
            }
            /* from the file */
            snprintf(cmd, sizeof(cmd), "'%s' --quiet %s '%s' '%s'", lame, flags, wav, out_lame);
            ok = run(cmd) == 0 && read_file(out_lame, &ref) == 0;
            snprintf(cmd, sizeof(cmd), "'%s' %s '%s' '%s'", ctlame, flags, wav, out_ours);
            ok = ok && run(cmd) == 0 && read_file(out_ours, &ours) == 0;
            compare(name, "file", ok, &ours, &ref);
            if (!fm->is_float) {
                ok = encode_api(flags, rate, channels, s32, frames, 0, &ours) == 0;
                compare(name, "ct_mp3_send_samples_s32", ok, &ours, &ref);
            }
            /* from stdin, to a file; stdin to stdout for the 16-bit files */
            if (strcmp(fm->name, "s16") == 0) {
                snprintf(cmd, sizeof(cmd), "cat '%s' | '%s' --quiet %s - - > '%s'", wav, lame,
                         flags, out_lame);
                ok = run(cmd) == 0 && read_file(out_lame, &ref) == 0;
                snprintf(cmd, sizeof(cmd), "cat '%s' | '%s' %s - - > '%s'", wav, ctlame, flags,
                         out_ours);
                ok = ok && run(cmd) == 0 && read_file(out_ours, &ours) == 0;
                compare(name, "pipe - -", ok, &ours, &ref);
            }
            else {
                snprintf(cmd, sizeof(cmd), "'%s' --quiet %s - '%s' < '%s'", lame, flags,
                         out_lame, wav);
                ok = run(cmd) == 0 && read_file(out_lame, &ref) == 0;
                snprintf(cmd, sizeof(cmd), "'%s' %s - '%s' < '%s'", ctlame, flags, out_ours,
                         wav);
                ok = ok && run(cmd) == 0 && read_file(out_ours, &ours) == 0;
                compare(name, "stdin", ok, &ours, &ref);
                if (fm->is_float) {
                    ok = encode_api(flags, rate, channels, x, frames, 1, &ours) == 0;
                    compare(name, "ct_mp3_send_samples_f32 (lame's stdin)", ok, &ours, &ref);
                }
            }
            fflush(stdout);
            free(x);
            free(s32);
        }
    }
    check_habits(ctlame, lame, dir);
    unlink(wav);
    unlink(out_lame);
    unlink(out_ours);
    rmdir(dir);
    free(ref.data);
    free(ours.data);
    printf("%d of %d identical\n", identical, total);
    return identical == total ? 0 : 1;
}
