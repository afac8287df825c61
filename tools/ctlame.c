/*
 * ctlame: encodes a WAV file to MP3 with ctcore, taking lame's flags and
 * following lame's habits (the default output name, "-" for stdin and
 * stdout, exit statuses), so that the two can be compared byte for byte
 * and timed side by side.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "common/clock.h"
#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "lame_flags.h"
#include "wav.h"

/* Frames per channel handed to the encoder at a time. */
#define CHUNK_FRAMES 65536

static void usage(FILE *f)
{
    fputs(
        "usage: ctlame [flags] INPUT.wav [OUTPUT.mp3]\n"
        "Encodes a WAV file (8, 16, 24 or 32-bit PCM or 32-bit float,\n"
        "1 or 2 channels, any rate) like lame 3.100 does. Without OUTPUT:\n"
        "INPUT's name with .mp3 for its suffix (stdout for stdin).\n"
        "\"-\" is stdin or stdout (to stdout without the LAME tag, as\n"
        "lame writes it).\n"
        "  -V Q           VBR quality 0 (best) .. 9.999 (LAME's new VBR)\n"
        "  -b N           CBR at N kbit/s\n"
        "  --abr N        ABR at an average of N kbit/s\n"
        "                 (one of -V, -b, --abr; none: CBR at LAME's default\n"
        "                 bitrate, 128 kbit/s for 44.1 kHz stereo)\n"
        "  -m j|s|m       joint stereo, stereo, or mono (stereo input is\n"
        "                 mixed down); default: joint stereo for 2 channels\n"
        "  -q N           engine quality 0 (best, slowest) .. 9; default 3\n"
        "  --noreplaygain no ReplayGain analysis (its tag field stays 0)\n"
        "  -t             no Xing/Info + LAME tag frame\n"
        "  --simd=auto|c|sse2|avx2\n"
        "                 the SIMD kernels to use, at most this level (c: the\n"
        "                 scalar ones); auto, the default: the best the CPU\n"
        "                 has (CT_SIMD caps it); the bytes are the same at\n"
        "                 every level\n"
        "  --threads N    encode on N threads, the calling one included\n"
        "                 (0, the default: one per online CPU; the bytes are\n"
        "                 the same on any number)\n"
        "  --sequential   one frame after the other on the calling thread\n"
        "                 (the same as --threads 1)\n"
        "  --timing       print the rates, the frames and the time taken\n"
        "  --quiet, -S, --silent\n"
        "                 print nothing but errors (the default)\n"
        "  --version      print ctlame's version\n",
        f);
}

/* After ct_mp3_send_samples or ct_mp3_drain returned `sent`: sends any
 * packets the encoder has ready to the file. The first one (the tag
 * placeholder when the tag is on) has its size kept, to check the final tag
 * against. */
static int write_packets(int sent, ct_mp3_encoder *encoder, FILE *out,
                         const char *out_path, long *num_packets,
                         size_t *first_size, unsigned long long *bytes)
{
    ct_mp3_packet packet;
    int r;

    if (sent < 0) {
        fprintf(stderr, "ctlame: encoding failed: %s\n", ct_strerror(sent));
        return -1;
    }
    while ((r = ct_mp3_receive_packet(encoder, &packet)) == CT_OK) {
        if (fwrite(packet.data, 1, packet.size, out) != packet.size) {
            fprintf(stderr, "ctlame: cannot write %s\n", out_path);
            return -1;
        }
        if (*num_packets == 0)
            *first_size = packet.size;
        (*num_packets)++;
        *bytes += packet.size;
    }
    if (r != CT_EAGAIN && r != CT_EOF) {
        fprintf(stderr, "ctlame: encoding failed: %s\n", ct_strerror(r));
        return -1;
    }
    return 0;
}

/* What ctlame reads from its command line. */
typedef struct ctlame_flags {
    ct_cli_args args;
    ct_lame_flags lame;
    int threads;
    int timing;
} ctlame_flags;

static int parse_tool_flag(void *tool_flags, const char *arg, int argc,
                           char **argv, int *i)
{
    ctlame_flags *f = tool_flags;
    if (strcmp(arg, "--sequential") == 0) {
        f->threads = 1;
        return 1;
    }
    if (strcmp(arg, "--timing") == 0) {
        f->timing = 1;
        return 1;
    }
    if (strcmp(arg, "-S") == 0 || strcmp(arg, "--silent") == 0) {
        f->args.quiet = 1;
        return 1;
    }
    if (strcmp(arg, "--threads") != 0)
        return 0;
    const char *value = *i < argc ? argv[(*i)++] : "";
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end != '\0' || v < 0 || v > 1000000) {
        fprintf(stderr, "ctlame: --threads needs 0 or more, not '%s'\n", value);
        return -1;
    }
    f->threads = (int)v;
    return 1;
}

static const ct_cli ctlame_cli = {"ctlame", usage, ct_cli_lame_flag,
                                  parse_tool_flag};
static const ct_cli_extras ctlame_extras = {1};

/* lame's suffixes that the output name replaces (parse.c:isCommonSuffix). */
static int is_common_suffix(const char *s)
{
    static const char *const suffixes[] = {
        ".WAV", ".RAW", ".MP1", ".MP2",  ".MP3", ".MPG", ".MPA",
        ".CDA", ".OGG", ".AIF", ".AIFF", ".AU",  ".SND", ".FLAC",
        ".WV",  ".OFR", ".TAK", ".MP4",  ".M4A", ".PCM", ".W64",
    };
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
        if (strcasecmp(s, suffixes[i]) == 0)
            return 1;
    return 0;
}

/* lame's output name for in_path (parse.c:generateOutPath without an output
 * directory): its directory and base name, the suffix replaced by .mp3 when
 * it is one of lame's, except .mp3 itself; malloc()ed. */
static char *default_output(const char *in_path)
{
    const char *const slash = strrchr(in_path, '/');
    const char *const base = slash ? slash + 1 : in_path;
    const char *dot = strrchr(base, '.');
    size_t keep = strlen(in_path);
    if (dot && is_common_suffix(dot) && strcasecmp(dot, ".mp3") != 0)
        keep = (size_t)(dot - in_path);
    char *out = malloc(keep + 5);
    if (out) {
        memcpy(out, in_path, keep);
        memcpy(out + keep, ".mp3", 5);
    }
    return out;
}

int main(int argc, char **argv)
{
    char err[256] = "";
    ctlame_flags tool = {.threads = 0};
    ct_lame_flags_init(&tool.lame);
    int status = ct_cli_parse_extras(&ctlame_cli, &ctlame_extras, &tool.lame,
                                     &tool, &tool.args, argc, argv);
    if (status != CT_CLI_RUN)
        return status;
    const char *in_path = tool.args.input, *out_path = tool.args.output;
    char *out_name = NULL;
    if (!out_path) {
        out_path = strcmp(in_path, "-") == 0
                       ? "-"
                       : (out_name = default_output(in_path));
        if (!out_path) {
            fprintf(stderr, "ctlame: out of memory\n");
            return 1;
        }
    }
    int const to_stdout = strcmp(out_path, "-") == 0;

    /* lame's statuses: 255 (its -1) when a file cannot be opened or the
     * settings are refused, 1 when the encoding fails */
    if (!to_stdout && strcmp(in_path, out_path) == 0) {
        fprintf(stderr, "ctlame: input and output are the same file\n");
        free(out_name);
        return 255;
    }
    ct_wav_reader wav;
    if (ct_wav_open(&wav, in_path, err, sizeof(err)) < 0) {
        fprintf(stderr, "ctlame: %s\n", err);
        free(out_name);
        return 255;
    }
    ct_lame_flags_finish(&tool.lame, wav.sample_rate, wav.channels);
    /* lame writes no tag to stdout: it cannot go back to frame 0 */
    if (to_stdout)
        tool.lame.settings.lametag = 0;
    const ct_mp3_settings settings = tool.lame.settings;

    status = 255;
    ct_mp3_encoder *encoder = NULL;
    ct_pool *pool = NULL;
    FILE *out = NULL;
    int32_t *pcm =
        malloc((size_t)CHUNK_FRAMES * (size_t)wav.channels * sizeof(*pcm));
    if (!pcm) {
        fprintf(stderr, "ctlame: out of memory\n");
        goto done;
    }

    double t0 = ct_clock_seconds();
    if (tool.threads != 1) {
        pool = ct_pool_new(tool.threads);
        if (!pool) {
            fprintf(stderr, "ctlame: out of memory for %d threads\n",
                    tool.threads);
            goto done;
        }
    }
    int r = ct_mp3_encoder_new(pool, &settings, &encoder, err, sizeof(err));
    if (r < 0) {
        fprintf(stderr, "ctlame: cannot set up the encoder: %s\n",
                err[0] ? err : ct_strerror(r));
        goto done;
    }
    /* A regular file: the final tag is written over frame 0 at the end. */
    out = to_stdout ? stdout : fopen(out_path, "wb");
    if (!out) {
        fprintf(stderr, "ctlame: cannot create %s\n", out_path);
        goto done;
    }

    status = 1;
    long num_packets = 0;
    size_t first_size = 0;
    unsigned long long bytes = 0;
    uint64_t frames_in = 0;
    for (;;) {
        long frames =
            ct_wav_read_s32(&wav, pcm, CHUNK_FRAMES, err, sizeof(err));
        if (frames < 0) {
            fprintf(stderr, "ctlame: %s: %s\n", in_path, err);
            goto done;
        }
        if (frames == 0)
            break;
        frames_in += (uint64_t)frames;
        if (write_packets(ct_mp3_send_samples_s32(encoder, pcm, (size_t)frames),
                          encoder, out, out_path, &num_packets, &first_size,
                          &bytes) < 0)
            goto done;
    }
    if (write_packets(ct_mp3_drain(encoder), encoder, out, out_path,
                      &num_packets, &first_size, &bytes) < 0)
        goto done;

    /* The final tag over the placeholder. There is none (CT_EUNSUPPORTED)
     * when LAME left it out, its frame being too small to hold it (CBR at
     * the lowest bitrates). */
    if (settings.lametag) {
        ct_mp3_packet tag;
        r = ct_mp3_lametag(encoder, &tag);
        if (r != CT_OK && r != CT_EUNSUPPORTED) {
            fprintf(stderr, "ctlame: no LAME tag: %s\n", ct_strerror(r));
            goto done;
        }
        if (r == CT_OK && (num_packets == 0 || tag.size != first_size)) {
            fprintf(stderr,
                    "ctlame: the LAME tag (%zu bytes) does not fit "
                    "the placeholder frame (%zu bytes)\n",
                    tag.size, first_size);
            goto done;
        }
        if (r == CT_OK && (fseek(out, 0, SEEK_SET) != 0 ||
                           fwrite(tag.data, 1, tag.size, out) != tag.size)) {
            fprintf(stderr, "ctlame: cannot write the LAME tag to %s\n",
                    out_path);
            goto done;
        }
    }
    if ((to_stdout ? fflush(out) : fclose(out)) != 0) {
        out = NULL;
        fprintf(stderr, "ctlame: cannot write %s\n", out_path);
        goto done;
    }
    out = NULL;
    double seconds = ct_clock_seconds() - t0;

    if (tool.timing && !tool.args.quiet) {
        double duration = (double)frames_in / wav.sample_rate;
        fprintf(stderr,
                "%s: %d Hz, %d channel%s, %.3f s -> %s: %d Hz, %ld "
                "frames, %llu bytes in %.3f s (%.0fx real time, %d thread%s)\n",
                in_path, wav.sample_rate, wav.channels,
                wav.channels > 1 ? "s" : "", duration, out_path,
                ct_mp3_output_rate(encoder), num_packets, bytes, seconds,
                seconds > 0 ? duration / seconds : 0.0, ct_pool_threads(pool),
                ct_pool_threads(pool) > 1 ? "s" : "");
    }
    status = 0;

done:
    if (out && out != stdout)
        fclose(out);
    ct_mp3_encoder_free(encoder);
    ct_pool_unref(pool);
    free(pcm);
    free(out_name);
    ct_wav_close(&wav);
    return status;
}
