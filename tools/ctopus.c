/*
 * ctopus: encodes a WAV file to Ogg Opus with ctcore, taking opusenc's
 * flags (opus-tools 0.2) and writing what `opusenc --serial N` writes:
 * the same OpusTags (ENCODER_OPTIONS made of the flags in argv order as
 * opusenc saves them), the same pages. "-" is stdin or stdout.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ctcore/opus.h"
#include "ctcore/runtime.h"
#include "wav.h"

/* opusenc's ENCODER_string: 1024 bytes */
#define OPTIONS_SIZE 1024
#define MAX_COMMENTS 256

static void usage(FILE *f)
{
    fputs(
        "usage: ctopus [flags] INPUT.wav OUTPUT.opus\n"
        "Encodes a WAV file (8, 16 or 24-bit PCM or 32-bit float, 1 to 255\n"
        "channels, 100 Hz .. 768 kHz) like opusenc (opus-tools 0.2) does.\n"
        "\"-\" is stdin or stdout.\n"
        "  --bitrate n.nnn  target bitrate in kbit/s (6-256/channel)\n"
        "  --vbr            variable bitrate (default)\n"
        "  --cvbr           constrained variable bitrate\n"
        "  --hard-cbr       hard constant bitrate\n"
        "  --music, --speech  the signal type (default: detected)\n"
        "  --comp n         complexity 0 (fastest) .. 10 (default)\n"
        "  --framesize n    2.5, 5, 10, 20 (default), 40 or 60 ms\n"
        "  --expect-loss n  expected packet loss in percent (default 0)\n"
        "  --max-delay n    the longest span of a page in ms (default 1000)\n"
        "  --serial n       the Ogg serial number (default: random)\n"
        "  --padding n      bytes of padding after the comments (default 512)\n"
        "  --title, --artist, --album, --tracknumber, --date, --genre s\n"
        "                   the comments of the same names\n"
        "  --comment tag=val  a comment\n"
        "  --threads N      encode on N threads (0: one per online CPU)\n"
        "  --sequential     on the calling thread (--threads 1)\n"
        "  --quiet          print nothing but errors\n"
        "  --version        print ctopus' version\n",
        f);
}

/* What ctopus reads from its command line. */
typedef struct ctopus_flags {
    ct_cli_args args;
    double bitrate_kbps; /* < 0: opusenc's default */
    int have_bitrate;
    ct_opus_bitrate_type bitrate_type;
    ct_opus_signal signal;
    int complexity;
    int frame_size;
    int expect_loss;
    int max_delay_48k; /* 48 kHz samples: opusenc's max_ogg_delay */
    int have_serial;
    int serial;
    int padding;
    const char *comments[MAX_COMMENTS];
    char *comment_storage[MAX_COMMENTS];
    int num_comments;
    char options[OPTIONS_SIZE];
    int options_len; /* opusenc's cline_size */
    int threads;
} ctopus_flags;

/* opusenc's save_cmd: "--name value" appended to ENCODER_OPTIONS. */
static void save_cmd(ctopus_flags *f, const char *name, const char *value)
{
    int const size = (int)sizeof(f->options);
    int ret;
    if (f->options_len >= size)
        return;
    ret = snprintf(&f->options[f->options_len], (size_t)(size - f->options_len),
                   "%s--%s", f->options_len == 0 ? "" : " ", name);
    if (ret < 0 || ret >= size - f->options_len) {
        f->options_len = size;
        return;
    }
    f->options_len += ret;
    if (value) {
        ret = snprintf(&f->options[f->options_len],
                       (size_t)(size - f->options_len), " %s", value);
        if (ret < 0 || ret >= size - f->options_len)
            f->options_len = size;
        else
            f->options_len += ret;
    }
}

static int add_comment(ctopus_flags *f, const char *tag, const char *value,
                       char *errbuf, size_t errbuf_size)
{
    size_t n = (tag ? strlen(tag) + 1 : 0) + strlen(value) + 1;
    char *c;
    if (f->num_comments == MAX_COMMENTS) {
        snprintf(errbuf, errbuf_size, "more than %d comments", MAX_COMMENTS);
        return -1;
    }
    c = malloc(n);
    if (!c) {
        snprintf(errbuf, errbuf_size, "out of memory");
        return -1;
    }
    if (tag)
        snprintf(c, n, "%s=%s", tag, value);
    else
        memcpy(c, value, n);
    f->comment_storage[f->num_comments] = c;
    f->comments[f->num_comments++] = c;
    return 0;
}

/* opusenc's long options that ctopus takes, with whether they take a value
 * and whether opusenc saves them in ENCODER_OPTIONS. */
typedef struct opus_flag {
    const char *name;
    int has_arg;
    int saved;
} opus_flag;

static const opus_flag opus_flags[] = {
    {"bitrate", 1, 1},     {"vbr", 0, 1},        {"cvbr", 0, 1},
    {"hard-cbr", 0, 1},    {"music", 0, 1},      {"speech", 0, 1},
    {"comp", 1, 1},        {"complexity", 1, 1}, {"framesize", 1, 1},
    {"expect-loss", 1, 1}, {"max-delay", 1, 1},  {"serial", 1, 1},
    {"padding", 1, 1},     {"comment", 1, 0},    {"artist", 1, 0},
    {"title", 1, 0},       {"album", 1, 0},      {"tracknumber", 1, 0},
    {"date", 1, 0},        {"genre", 1, 0},
};

/* One of opusenc's flags (as "--name value" or "--name=value"), parsed as
 * opusenc parses it (atoi, atof). */
static int parse_opus_flag(void *flags, int argc, char **argv, int *i,
                           char *errbuf, size_t errbuf_size)
{
    ctopus_flags *f = flags;
    const char *arg = argv[*i];
    const char *eq;
    const opus_flag *flag = NULL;
    const char *value = NULL;
    size_t name_len;

    if (strncmp(arg, "--", 2) != 0)
        return 0;
    eq = strchr(arg + 2, '=');
    name_len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
    for (size_t k = 0; k < sizeof(opus_flags) / sizeof(opus_flags[0]); k++)
        if (strlen(opus_flags[k].name) == name_len &&
            strncmp(opus_flags[k].name, arg + 2, name_len) == 0)
            flag = &opus_flags[k];
    if (!flag)
        return 0;
    if (flag->has_arg) {
        if (eq) {
            value = eq + 1;
        } else if (*i + 1 < argc) {
            value = argv[*i + 1];
            (*i)++;
        } else {
            snprintf(errbuf, errbuf_size, "option '--%s' requires an argument",
                     flag->name);
            return -1;
        }
    } else if (eq) {
        snprintf(errbuf, errbuf_size, "option '--%s' doesn't allow an argument",
                 flag->name);
        return -1;
    }
    (*i)++;

    const char *name = flag->name;
    if (strcmp(name, "bitrate") == 0) {
        f->bitrate_kbps = atof(value);
        f->have_bitrate = 1;
    } else if (strcmp(name, "hard-cbr") == 0) {
        f->bitrate_type = CT_OPUS_CBR;
    } else if (strcmp(name, "cvbr") == 0) {
        f->bitrate_type = CT_OPUS_CVBR;
    } else if (strcmp(name, "vbr") == 0) {
        f->bitrate_type = CT_OPUS_VBR;
    } else if (strcmp(name, "music") == 0) {
        f->signal = CT_OPUS_SIGNAL_MUSIC;
    } else if (strcmp(name, "speech") == 0) {
        f->signal = CT_OPUS_SIGNAL_VOICE;
    } else if (strcmp(name, "expect-loss") == 0) {
        f->expect_loss = atoi(value);
        if (f->expect_loss > 100 || f->expect_loss < 0) {
            snprintf(
                errbuf, errbuf_size,
                "Invalid expect-loss: %s (a percentage in the range 0 to 100)",
                value);
            return -1;
        }
    } else if (strcmp(name, "comp") == 0 || strcmp(name, "complexity") == 0) {
        f->complexity = atoi(value);
        if (f->complexity > 10 || f->complexity < 0) {
            snprintf(errbuf, errbuf_size,
                     "Invalid complexity: %s (must be in the range 0 to 10)",
                     value);
            return -1;
        }
    } else if (strcmp(name, "framesize") == 0) {
        static const char *const ms[] = {"2.5", "5", "10", "20", "40", "60"};
        static const int samples[] = {120, 240, 480, 960, 1920, 2880};
        int k;
        for (k = 0; k < 6 && strcmp(value, ms[k]) != 0; k++)
            ;
        if (k == 6) {
            snprintf(errbuf, errbuf_size,
                     "Invalid framesize: %s (milliseconds: 2.5, 5, 10, 20, 40, "
                     "or 60)",
                     value);
            return -1;
        }
        f->frame_size = samples[k];
    } else if (strcmp(name, "max-delay") == 0) {
        double val = atof(value);
        if (val < 0. || val > 1000.) {
            snprintf(
                errbuf, errbuf_size,
                "Invalid max-delay: %s (milliseconds in the range 0 to 1000)",
                value);
            return -1;
        }
        f->max_delay_48k = (int)floor(val * 48.);
    } else if (strcmp(name, "serial") == 0) {
        f->serial = atoi(value);
        f->have_serial = 1;
    } else if (strcmp(name, "padding") == 0) {
        f->padding = atoi(value);
    } else if (strcmp(name, "comment") == 0) {
        if (!strchr(value, '=')) {
            snprintf(
                errbuf, errbuf_size,
                "Invalid comment: %s (comments must be of the form name=value)",
                value);
            return -1;
        }
        if (add_comment(f, NULL, value, errbuf, errbuf_size) < 0)
            return -1;
    } else if (!flag->saved) {
        /* --artist, --title ...: the comment under the option's name */
        if (add_comment(f, name, value, errbuf, errbuf_size) < 0)
            return -1;
    }
    if (flag->saved)
        save_cmd(f, name, value);
    return 1;
}

static int parse_tool_flag(void *tool_flags, const char *arg, int argc,
                           char **argv, int *i)
{
    ctopus_flags *f = tool_flags;
    if (strcmp(arg, "--sequential") == 0) {
        f->threads = 1;
        return 1;
    }
    if (strcmp(arg, "--threads") != 0)
        return 0;
    const char *value = *i < argc ? argv[(*i)++] : "";
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end != '\0' || v < 0 || v > 1000000) {
        fprintf(stderr, "ctopus: --threads needs 0 or more, not '%s'\n", value);
        return -1;
    }
    f->threads = (int)v;
    return 1;
}

static const ct_cli ctopus_cli = {"ctopus", usage, parse_opus_flag,
                                  parse_tool_flag};

/* Writes every page the encoder has ready. */
static int write_pages(ct_opus_encoder *encoder, FILE *out,
                       const char *out_path)
{
    ct_opus_packet page;
    int r;
    while ((r = ct_opus_receive(encoder, &page)) == CT_OK) {
        if (fwrite(page.data, 1, page.size, out) != page.size) {
            fprintf(stderr, "ctopus: cannot write %s\n", out_path);
            return -1;
        }
    }
    if (r != CT_EAGAIN && r != CT_EOF) {
        fprintf(stderr, "ctopus: encoding failed: %s\n",
                ct_opus_encoder_error(encoder));
        return -1;
    }
    return 0;
}

/* The samples as the WAV file holds them. */
static ct_opus_format wav_format(const ct_wav_reader *wav)
{
    if (wav->is_float)
        return CT_OPUS_F32;
    switch (wav->bits) {
    case 8:
        return CT_OPUS_U8;
    case 24:
        return CT_OPUS_S24;
    case 32:
        return CT_OPUS_S32;
    default:
        return CT_OPUS_S16;
    }
}

int main(int argc, char **argv)
{
    char err[256] = "";
    ctopus_flags tool;
    int status, r, i;

    memset(&tool, 0, sizeof(tool));
    tool.bitrate_type = CT_OPUS_VBR;
    tool.signal = CT_OPUS_SIGNAL_AUTO;
    tool.complexity = 10;
    tool.frame_size = 960;
    tool.max_delay_48k = 48000;
    tool.padding = 512;
    status = ct_cli_parse(&ctopus_cli, &tool, &tool, &tool.args, argc, argv);
    if (status != CT_CLI_RUN)
        goto free_comments;
    status = 1;

    const char *in_path = tool.args.input, *out_path = tool.args.output;
    ct_wav_reader wav;
    if (ct_wav_open_flags(&wav, in_path, CT_WAV_OPUSENC, err, sizeof(err)) <
        0) {
        fprintf(stderr, "ctopus: %s\n", err);
        goto free_comments;
    }

    ct_opus_settings settings;
    ct_opus_settings_default(&settings);
    settings.sample_rate = wav.sample_rate;
    settings.channels = wav.channels;
    if (!tool.args.quiet) {
        const char *w = ct_wav_opusenc_mask_warning(wav.channel_mask);
        if (w)
            fprintf(stderr, "ctopus: WARNING: %s (mask %u)\n", w,
                    (unsigned)wav.channel_mask);
    }
    if (tool.have_bitrate) {
        /* opusenc: (opus_int32)(atof(optarg)*1000.), then its checks, on
         * the channels after its downmix of surround below 16 kb/s per
         * channel */
        double b = tool.bitrate_kbps * 1000.;
        int bitrate = b > 2e9 ? 2000000000 : b < -2e9 ? -2000000000 : (int)b;
        int coded =
            wav.channels > 2 && bitrate > 0 && bitrate < 16000 * wav.channels
                ? (wav.channels > 8 ? 1 : 2)
                : wav.channels;
        if (bitrate > 1024000 * coded || bitrate < 500) {
            fprintf(stderr,
                    "ctopus: bitrate %d bits/sec is insane\n%s"
                    "--bitrate values from 6 to 256 kbit/s per channel are "
                    "meaningful.\n",
                    bitrate,
                    bitrate >= 1000000 ? "Did you mistake bits for kilobits?\n"
                                       : "");
            ct_wav_close(&wav);
            goto free_comments;
        }
        settings.bitrate = bitrate;
    }
    settings.bitrate_type = tool.bitrate_type;
    settings.signal = tool.signal;
    settings.complexity = tool.complexity;
    settings.frame_size = tool.frame_size;
    settings.packet_loss_percentage = tool.expect_loss;
    if (tool.max_delay_48k % 48 != 0) {
        fprintf(stderr, "ctopus: --max-delay in fractions of a millisecond is "
                        "not supported\n");
        ct_wav_close(&wav);
        goto free_comments;
    }
    settings.max_delay_ms = tool.max_delay_48k / 48;
    if (!tool.have_serial) {
        /* opusenc's random serial */
        srand((((unsigned)getpid() & 65535) << 15) ^ (unsigned)time(NULL));
        tool.serial = rand();
    }
    settings.serial = (uint32_t)tool.serial;
    /* opusenc: IMAX(8, IMIN(24, samplesize)) */
    settings.lsb_depth = wav.valid_bits < 8    ? 8
                         : wav.valid_bits > 24 ? 24
                                               : wav.valid_bits;
    settings.comment_padding = tool.padding;
    settings.comments = tool.comments;
    settings.num_comments = tool.num_comments;
    settings.encoder_options = tool.options_len > 0 ? tool.options : NULL;
    if (tool.options_len >= (int)sizeof(tool.options))
        tool.options[sizeof(tool.options) - 1] = 0;

    ct_pool *pool = NULL;
    ct_opus_encoder *encoder = NULL;
    FILE *out = NULL;
    int created = 0;
    int const to_stdout = strcmp(out_path, "-") == 0;
    ct_opus_format const format = wav_format(&wav);

    if (tool.threads != 1) {
        pool = ct_pool_new(tool.threads);
        if (!pool) {
            fprintf(stderr, "ctopus: out of memory for %d threads\n",
                    tool.threads);
            goto done;
        }
    }
    r = ct_opus_encoder_new(pool, &settings, &encoder, err, sizeof(err));
    if (r < 0) {
        fprintf(stderr, "ctopus: cannot set up the encoder: %s\n",
                err[0] ? err : ct_strerror(r));
        goto done;
    }
    out = to_stdout ? stdout : fopen(out_path, "wb");
    created = out != NULL;
    if (!out) {
        fprintf(stderr, "ctopus: cannot create %s\n", out_path);
        goto done;
    }
    if (!tool.args.quiet)
        fprintf(stderr,
                "ctopus: %d Hz, %d channel%s, %g kbit/s%s, pre-skip %d\n",
                wav.sample_rate, wav.channels, wav.channels > 1 ? "s" : "",
                ct_opus_encoder_bitrate(encoder) / 1000.,
                settings.bitrate_type == CT_OPUS_CBR    ? " CBR"
                : settings.bitrate_type == CT_OPUS_CVBR ? " CVBR"
                                                        : " VBR",
                ct_opus_encoder_preskip(encoder));
    for (;;) {
        long frames = ct_wav_read_raw(&wav, 65536, err, sizeof(err));
        if (frames < 0) {
            fprintf(stderr, "ctopus: %s: %s\n", in_path, err);
            goto done;
        }
        if (frames == 0)
            break;
        /* the API takes libopusenc's (Vorbis) order, as opusenc's reader
         * makes it */
        ct_wav_opusenc_reorder(&wav, frames);
        r = ct_opus_send_samples(encoder, wav.bytes, format, (size_t)frames);
        if (r < 0) {
            fprintf(stderr, "ctopus: encoding failed: %s\n",
                    ct_opus_encoder_error(encoder));
            goto done;
        }
        if (write_pages(encoder, out, out_path) < 0)
            goto done;
    }
    r = ct_opus_drain(encoder);
    if (r < 0) {
        fprintf(stderr, "ctopus: encoding failed: %s\n",
                ct_opus_encoder_error(encoder));
        goto done;
    }
    if (write_pages(encoder, out, out_path) < 0)
        goto done;
    if ((to_stdout ? fflush(out) : fclose(out)) != 0) {
        out = NULL;
        fprintf(stderr, "ctopus: cannot write %s\n", out_path);
        goto done;
    }
    out = NULL;
    status = 0;

done:
    if (out && out != stdout)
        fclose(out);
    /* No half-written file left behind as if it were an encode (the
     * stream may stop at a frame this version cannot code). */
    if (status != 0 && !to_stdout && created)
        remove(out_path);
    ct_opus_encoder_free(encoder);
    ct_pool_unref(pool);
    ct_wav_close(&wav);
free_comments:
    for (i = 0; i < tool.num_comments; i++)
        free(tool.comment_storage[i]);
    return status;
}
