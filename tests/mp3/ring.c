/*
 * The MP3 frame ring (ctcore/mp3/graph.c) against the sequential chain:
 * every corpus clip and synthetic signal, under every lame setting of the
 * oracle matrices (main and --extra), encoded on the ring at 1 to 7 threads
 * and at extreme ring sizes (1, 2 and 128 slots besides the default of 4
 * per thread, 16..128), must give the bytes of the sequential chain
 * (ct_mp3_encoder_new on a NULL pool), which the oracle tests prove
 * identical to Debian's lame. On one thread the ring runs every frame
 * through its nodes at dispatch (no concurrency: the decomposition alone);
 * on more, the nodes run on the pool's threads.
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
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "mp3/encoder.h"
#include "mp3/graph.h"
#include "common/clock.h"

#define EXIT_SKIP 77
#define MAX_THREADS 7

typedef struct setting {
    const char *name; /* as on lame's command line */
    ct_mp3_rate_control rc;
    float vbr_quality;
    int bitrate;
    int quality;
    ct_mp3_channel_mode mode;
    int no_replaygain;
    int no_tag;
} setting;

/* tests/mp3/oracle.c's main and --extra matrices. */
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
#define NUM_SETTINGS ((int) (sizeof(settings) / sizeof(settings[0])))

/* --quick: VBR, CBR, ABR, mono, resampled MPEG-2 and MPEG-2.5. */
static const char *const quick_settings[] = {
    "-V 2", "-b 128", "--abr 160", "-m m", "-b 32", "-V 9.999",
};

/* A run: threads of the pool (0: NULL pool), ring slots (0: the default;
 * with one thread, 0 is the sequential chain). */
typedef struct config {
    int threads;
    size_t ring;
} config;

static const config configs[] = {
    {1, 1}, {1, 2}, {1, 16},
    {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, 0},
    {2, 1}, {2, 2}, {2, 128}, {3, 2}, {7, 2}, {7, 128},
};
#define NUM_CONFIGS ((int) (sizeof(configs) / sizeof(configs[0])))

static const config quick_configs[] = {
    {1, 2}, {2, 0}, {3, 2}, {4, 1}, {7, 0}, {2, 128},
};
#define NUM_QUICK_CONFIGS ((int) (sizeof(quick_configs) / sizeof(quick_configs[0])))

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

/* ---- input (as tests/mp3/oracle.c) -------------------------------------- */

static uint32_t rd32(const unsigned char *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t) p[3] << 24;
}

static uint16_t rd16(const unsigned char *p)
{
    return (uint16_t) (p[0] | p[1] << 8);
}

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

#define NUM_SYNTHETIC 7

/* tests/mp3/oracle.c's synthetic signals; `seconds` scales the long ones. */
static void make_synthetic(int which, double seconds, pcm *out)
{
    int rate = 44100;
    long i, frames;
    uint32_t seed = 12345;
    out->channels = 2;
    switch (which) {
    case 0:
        frames = (long) (seconds * rate);
        snprintf(out->name, sizeof(out->name), "synthetic_silence_44k1_stereo");
        break;
    case 1:
        rate = 48000;
        frames = (long) (seconds * rate);
        snprintf(out->name, sizeof(out->name), "synthetic_square_48k_stereo");
        break;
    case 2:
        rate = 32000;
        frames = (long) (2 * seconds * rate);
        snprintf(out->name, sizeof(out->name), "synthetic_sweep_32k_stereo");
        break;
    case 3:
        rate = 48000;
        frames = (long) (seconds * rate);
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
        case 1:
            l = (i / 50) % 2 ? 32767 : -32768;
            r = (int16_t) (l == 32767 ? -32768 : 32767);
            break;
        case 2: {
            double const t = (double) i / rate, T = (double) frames / rate;
            double const k = log(1000.0);
            double const phase = 2 * 3.14159265358979323846 * 20 * T / k * (exp(t / T * k) - 1);
            l = (int16_t) lrint(29204 * sin(phase));
            r = (int16_t) lrint(29204 * sin(phase * 0.5));
            break;
        }
        case 3: {
            int a = (int) (lcg(&seed) >> 16) - 32768;
            int b = (int) (lcg(&seed) >> 16) - 32768;
            a *= 2;
            b *= 2;
            l = (int16_t) (a > 32767 ? 32767 : a < -32768 ? -32768 : a);
            r = (int16_t) (b > 32767 ? 32767 : b < -32768 ? -32768 : b);
            break;
        }
        default:
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

/* ---- encoding ----------------------------------------------------------- */

static void to_settings(const pcm *in, const setting *s, ct_mp3_settings *cs)
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

static int receive_all(ct_mp3_encoder *enc, buf *out)
{
    ct_mp3_packet pkt;
    int ret;
    while ((ret = ct_mp3_receive_packet(enc, &pkt)) == CT_OK)
        buf_put(out, pkt.data, pkt.size);
    return ret;
}

/* How a run feeds the encoder. */
typedef struct feed {
    uint32_t seed;      /* piece sizes: 0 = 1000 samples each, else random */
    int receive_late;   /* receive only after the drain */
    long stop_at;       /* > 0: stop the stream there, reset, start again */
} feed;

/* One stream (up to `stop` samples, all if 0). Returns CT_OK or an error. */
static int encode_stream(ct_mp3_encoder *enc, const pcm *in, const feed *fd, long stop,
                         buf *out)
{
    uint32_t seed = fd->seed;
    long pos = 0, end = stop > 0 && stop < in->frames ? stop : in->frames;
    ct_mp3_packet tag;
    int ret = CT_OK;

    while (pos < end) {
        long n = 1000;
        if (seed != 0)
            n = 1 + (long) (lcg(&seed) >> 8) % 5000;
        if (n > end - pos)
            n = end - pos;
        ret = ct_mp3_send_samples(enc, in->samples + pos * in->channels, (size_t) n);
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
    if (ret == CT_OK && ct_mp3_lametag(enc, &tag) == CT_OK && tag.size <= out->size)
        memcpy(out->data, tag.data, tag.size);
    return ret;
}

/* threads 0: the sequential chain on a NULL pool. */
static int encode(ct_pool *pool, size_t ring, const pcm *in, const setting *s,
                  const feed *fd, buf *out)
{
    ct_mp3_settings cs;
    ct_mp3_encoder *enc;
    char err[256];
    int ret;

    to_settings(in, s, &cs);
    ret = ct_mp3_encoder_new_ring(pool, &cs, ring, &enc, err, sizeof(err));
    if (ret != CT_OK) {
        fprintf(stderr, "ct_mp3_encoder_new_ring: %s\n", err);
        return ret;
    }
    if (fd->stop_at > 0) {
        buf junk = {0};
        ret = encode_stream(enc, in, fd, fd->stop_at, &junk);
        free(junk.data);
        ct_mp3_reset(enc);
    }
    if (ret == CT_OK)
        ret = encode_stream(enc, in, fd, 0, out);
    ct_mp3_encoder_free(enc);
    return ret;
}

/* ---- the matrix --------------------------------------------------------- */

typedef struct matrix {
    const config *configs;
    int num_configs;
    ct_pool *pools[MAX_THREADS + 1];
    int run[64], identical[64]; /* per config */
    int settings_on[NUM_SETTINGS];
    const char *filter;
} matrix;

/* "--abr 160" -> "abr160" */
static void sanitize(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    for (; *src && n + 1 < size; src++)
        if (*src != ' ' && *src != '-')
            dst[n++] = *src;
    dst[n] = 0;
}

static void run_input(matrix *m, const pcm *in)
{
    for (int i = 0; i < NUM_SETTINGS; i++) {
        char setname[64], name[512];
        buf ref = {0};
        const feed plain = {0, 0, 0};
        if (!m->settings_on[i])
            continue;
        sanitize(setname, sizeof(setname), settings[i].name);
        snprintf(name, sizeof(name), "%s__%s", in->name, setname);
        if (m->filter && !strstr(name, m->filter))
            continue;
        if (encode(NULL, 0, in, &settings[i], &plain, &ref) != CT_OK) {
            printf("FAIL %s: the sequential chain failed\n", name);
            for (int c = 0; c < m->num_configs; c++)
                m->run[c]++;
            continue;
        }
        for (int c = 0; c < m->num_configs; c++) {
            const config *cf = &m->configs[c];
            buf ours = {0};
            feed fd;
            /* vary the feeding with the configuration */
            fd.seed = c % 3 == 0 ? 0 : 0x9e3779b9u * (uint32_t) (c + 1) + (uint32_t) i;
            fd.receive_late = c % 4 == 3;
            fd.stop_at = c % 5 == 2 ? in->frames / 3 : 0;
            m->run[c]++;
            int ret = encode(m->pools[cf->threads], cf->ring, in, &settings[i], &fd, &ours);
            if (ret == CT_OK && ours.size == ref.size && memcmp(ours.data, ref.data, ref.size) == 0) {
                m->identical[c]++;
            }
            else {
                size_t k = 0, n = ours.size < ref.size ? ours.size : ref.size;
                while (k < n && ours.data[k] == ref.data[k])
                    k++;
                printf("FAIL %s threads %d ring %zu: %s, %zu vs %zu bytes, first difference "
                       "at byte %zu\n", name, cf->threads, cf->ring,
                       ret == CT_OK ? "ok" : ct_strerror(ret), ours.size, ref.size, k);
            }
            free(ours.data);
        }
        printf("done %s (%zu bytes)\n", name, ref.size);
        fflush(stdout);
        free(ref.data);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
}

int main(int argc, char **argv)
{
    matrix m;
    const char *corpus = NULL;
    int quick = 0, total = 0, identical = 0;
    double t0;

    memset(&m, 0, sizeof(m));
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
        for (int i = 0; i < NUM_SETTINGS; i++)
            for (size_t q = 0; q < sizeof(quick_settings) / sizeof(*quick_settings); q++)
                if (!strcmp(settings[i].name, quick_settings[q]))
                    m.settings_on[i] = 1;
    }
    else {
        m.configs = configs;
        m.num_configs = NUM_CONFIGS;
        for (int i = 0; i < NUM_SETTINGS; i++)
            m.settings_on[i] = 1;
    }
    for (int t = 1; t <= MAX_THREADS; t++) {
        m.pools[t] = ct_pool_new(t);
        if (m.pools[t] == NULL) {
            fprintf(stderr, "no pool of %d threads\n", t);
            return 2;
        }
    }
    t0 = ct_clock_seconds();

    if (!quick) {
        DIR *d = corpus ? opendir(corpus) : NULL;
        struct dirent *e;
        char *names[256];
        int n = 0;
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
        for (int k = 0; k < n; k++) {
            pcm in = {0};
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s", corpus, names[k]);
            if (read_wav(path, &in) != 0) {
                printf("FAIL %s: unreadable\n", names[k]);
                return 1;
            }
            snprintf(in.name, sizeof(in.name), "%.*s", (int) strlen(names[k]) - 4, names[k]);
            run_input(&m, &in);
            free(in.samples);
            free(names[k]);
        }
    }
    for (int i = 0; i < NUM_SYNTHETIC; i++) {
        pcm in = {0};
        make_synthetic(i, quick ? 1.0 : 2.0, &in);
        run_input(&m, &in);
        free(in.samples);
    }

    for (int c = 0; c < m.num_configs; c++) {
        const config *cf = &m.configs[c];
        const ct_pool *pool = m.pools[cf->threads];
        size_t ring = cf->ring > 0 ? cf->ring : (size_t) 4 * (size_t) ct_pool_threads(pool);
        if (cf->ring == 0)
            ring = ring < 16 ? 16 : ring > 128 ? 128 : ring;
        printf("threads %d, ring %zu%s: %d of %d identical\n", cf->threads, ring,
               cf->ring == 0 ? " (default)" : "", m.identical[c], m.run[c]);
        total += m.run[c];
        identical += m.identical[c];
    }
    printf("%d of %d identical (%.1f s)\n", identical, total,
           ct_clock_seconds() - t0);
    for (int t = 1; t <= MAX_THREADS; t++)
        ct_pool_unref(m.pools[t]);
    return identical == total && total > 0 ? 0 : 1;
}
