/*
 * ctlame: encodes a WAV file to MP3 with ctcore, taking lame's flags, so that
 * the two can be compared byte for byte and timed side by side.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "wav.h"

/* Frames per channel handed to the encoder at a time. */
#define CHUNK_FRAMES 65536

static void usage(FILE *f)
{
    fputs(
        "usage: ctlame [flags] INPUT.wav OUTPUT.mp3\n"
        "Encodes a 16-bit PCM WAV file (1 or 2 channels) like lame 3.100 does.\n"
        "  -V Q           VBR quality 0 (best) .. 9.999 (LAME's new VBR)\n"
        "  -b N           CBR at N kbit/s\n"
        "  --abr N        ABR at an average of N kbit/s\n"
        "                 (one of -V, -b, --abr; none: CBR at LAME's default\n"
        "                 bitrate, 128 kbit/s for 44.1 kHz stereo)\n"
        "  -m j|s|m       joint stereo, stereo, or mono (stereo input is mixed\n"
        "                 down); default: joint stereo for 2 channels\n"
        "  -q N           engine quality 0 (best, slowest) .. 9; default 3\n"
        "  --noreplaygain no ReplayGain analysis (its field in the tag stays 0)\n"
        "  -t             no Xing/Info + LAME tag frame\n"
        "  --threads N    encode on N threads, the calling one included\n"
        "                 (0, the default: one per online CPU; the bytes are\n"
        "                 the same on any number)\n"
        "  --sequential   one frame after the other on the calling thread\n"
        "                 (the same as --threads 1)\n"
        "  --quiet        print nothing but errors\n",
        f);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * The value of a flag that takes one, written either attached ("-V2") or as
 * the next argument ("-V 2"), as lame accepts them. NULL when missing.
 */
static const char *flag_value(const char *arg, size_t flag_len, int argc,
                              char **argv, int *i)
{
    if (arg[flag_len] != '\0')
        return arg + flag_len;
    return *i < argc ? argv[(*i)++] : NULL;
}

static int parse_int(const char *flag, const char *value, int *out)
{
    char *end;
    long v = value ? strtol(value, &end, 10) : 0;
    if (!value || end == value || *end != '\0' || v < -1000000 ||
        v > 1000000) {
        fprintf(stderr, "ctlame: %s needs an integer, not '%s'\n", flag,
                value ? value : "");
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_float(const char *flag, const char *value, float *out)
{
    char *end;
    double v = value ? strtod(value, &end) : 0;
    if (!value || end == value || *end != '\0') {
        fprintf(stderr, "ctlame: %s needs a number, not '%s'\n", flag,
                value ? value : "");
        return -1;
    }
    *out = (float)v;
    return 0;
}

/*
 * lame without -V, -b or --abr: CBR at the bitrate nearest to a compression
 * ratio of 11.025 (128 kbit/s for CD audio), lame_init_params' default. At
 * the MPEG-1 rates (32, 44.1 and 48 kHz, the ones ctcore takes) that gives
 * the same bytes as -b with that bitrate.
 */
static int default_bitrate(int sample_rate, int channels_out)
{
    static const int mpeg1_bitrates[] = {
        32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
    };
    /* Truncated, as LAME stores it in an int before FindNearestBitrate,
     * which keeps the lower bitrate on a tie. */
    int wanted = (int)(sample_rate * 16 * channels_out / (1.e3 * 11.025));
    int nearest = mpeg1_bitrates[0];

    for (size_t i = 1; i < sizeof(mpeg1_bitrates) / sizeof(*mpeg1_bitrates);
         i++) {
        if (abs(mpeg1_bitrates[i] - wanted) < abs(nearest - wanted))
            nearest = mpeg1_bitrates[i];
    }
    return nearest;
}

/* Sends any packets the encoder has ready to the file. The first one (the
 * tag placeholder when the tag is on) has its size kept, to check the final
 * tag against. */
static int write_packets(ct_mp3_encoder *encoder, FILE *out,
                         const char *out_path, long *num_packets,
                         size_t *first_size, unsigned long long *bytes)
{
    ct_mp3_packet packet;
    int r;

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

int main(int argc, char **argv)
{
    const char *positional[2];
    int num_positional = 0;
    int quiet = 0;
    int threads = 0;
    const char *rate_flag = NULL;
    ct_mp3_settings settings;

    ct_mp3_settings_default(&settings);

    for (int i = 1; i < argc;) {
        const char *arg = argv[i++];
        const char *this_rate_flag = NULL;

        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(arg, "--noreplaygain") == 0) {
            settings.replaygain = 0;
        } else if (strcmp(arg, "-t") == 0) {
            settings.lametag = 0;
        } else if (strcmp(arg, "--sequential") == 0) {
            threads = 1;
        } else if (strcmp(arg, "--threads") == 0) {
            if (parse_int("--threads", i < argc ? argv[i++] : NULL, &threads) < 0)
                return 1;
            if (threads < 0) {
                fprintf(stderr, "ctlame: --threads needs 0 or more\n");
                return 1;
            }
        } else if (strncmp(arg, "-V", 2) == 0) {
            if (parse_float("-V", flag_value(arg, 2, argc, argv, &i),
                            &settings.vbr_quality) < 0)
                return 1;
            /* lame_set_VBR_quality clamps to its range. */
            if (settings.vbr_quality < 0.0f)
                settings.vbr_quality = 0.0f;
            if (settings.vbr_quality > 9.999f)
                settings.vbr_quality = 9.999f;
            settings.rate_control = CT_MP3_VBR;
            this_rate_flag = "-V";
        } else if (strncmp(arg, "-b", 2) == 0) {
            if (parse_int("-b", flag_value(arg, 2, argc, argv, &i),
                          &settings.bitrate) < 0)
                return 1;
            settings.rate_control = CT_MP3_CBR;
            this_rate_flag = "-b";
        } else if (strcmp(arg, "--abr") == 0) {
            if (parse_int("--abr", i < argc ? argv[i++] : NULL,
                          &settings.bitrate) < 0)
                return 1;
            /* lame's parser: 8000 and up are bit/s, and it clamps to
             * 8..320 kbit/s. */
            if (settings.bitrate >= 8000)
                settings.bitrate = (settings.bitrate + 500) / 1000;
            if (settings.bitrate > 320)
                settings.bitrate = 320;
            if (settings.bitrate < 8)
                settings.bitrate = 8;
            settings.rate_control = CT_MP3_ABR;
            this_rate_flag = "--abr";
        } else if (strncmp(arg, "-q", 2) == 0) {
            if (parse_int("-q", flag_value(arg, 2, argc, argv, &i),
                          &settings.quality) < 0)
                return 1;
            /* lame_set_quality clamps to 0..9. */
            if (settings.quality < 0)
                settings.quality = 0;
            if (settings.quality > 9)
                settings.quality = 9;
        } else if (strncmp(arg, "-m", 2) == 0) {
            const char *mode = flag_value(arg, 2, argc, argv, &i);
            if (mode && strcmp(mode, "j") == 0) {
                settings.mode = CT_MP3_MODE_JOINT_STEREO;
            } else if (mode && strcmp(mode, "s") == 0) {
                settings.mode = CT_MP3_MODE_STEREO;
            } else if (mode && strcmp(mode, "m") == 0) {
                settings.mode = CT_MP3_MODE_MONO;
            } else {
                fprintf(stderr, "ctlame: -m takes j, s or m, not '%s'\n",
                        mode ? mode : "");
                return 1;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "ctlame: unknown flag '%s'\n", arg);
            usage(stderr);
            return 1;
        } else if (num_positional < 2) {
            positional[num_positional++] = arg;
        } else {
            fprintf(stderr, "ctlame: unexpected argument '%s'\n", arg);
            return 1;
        }

        /* lame combines them (-b with -V sets a minimum bitrate, -V after
         * --abr only sets a quality), which ct_mp3_settings cannot say. */
        if (this_rate_flag) {
            if (rate_flag && strcmp(rate_flag, this_rate_flag) != 0) {
                fprintf(stderr, "ctlame: use only one of -V, -b and --abr "
                        "(got %s and %s)\n", rate_flag, this_rate_flag);
                return 1;
            }
            rate_flag = this_rate_flag;
        }
    }
    if (num_positional != 2) {
        usage(stderr);
        return 1;
    }
    const char *in_path = positional[0], *out_path = positional[1];

    char err[256] = "";
    ct_wav_reader wav;
    if (ct_wav_open(&wav, in_path, err, sizeof(err)) < 0) {
        fprintf(stderr, "ctlame: %s\n", err);
        return 1;
    }
    settings.sample_rate = wav.sample_rate;
    settings.channels = wav.channels;
    if (!rate_flag) {
        settings.rate_control = CT_MP3_CBR;
        settings.bitrate = default_bitrate(wav.sample_rate,
                                           settings.mode == CT_MP3_MODE_MONO ?
                                           1 : wav.channels);
    }

    int status = 1;
    ct_mp3_encoder *encoder = NULL;
    ct_pool *pool = NULL;
    FILE *out = NULL;
    int16_t *pcm = malloc((size_t)CHUNK_FRAMES * (size_t)wav.channels *
                          sizeof(*pcm));
    if (!pcm) {
        fprintf(stderr, "ctlame: out of memory\n");
        goto done;
    }

    double t0 = now_seconds();
    if (threads != 1) {
        pool = ct_pool_new(threads);
        if (!pool) {
            fprintf(stderr, "ctlame: out of memory for %d threads\n", threads);
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
    out = fopen(out_path, "wb");
    if (!out) {
        fprintf(stderr, "ctlame: cannot create %s\n", out_path);
        goto done;
    }

    long num_packets = 0;
    size_t first_size = 0;
    unsigned long long bytes = 0;
    for (;;) {
        long frames = ct_wav_read(&wav, pcm, CHUNK_FRAMES, err, sizeof(err));
        if (frames < 0) {
            fprintf(stderr, "ctlame: %s: %s\n", in_path, err);
            goto done;
        }
        if (frames == 0)
            break;
        r = ct_mp3_send_samples(encoder, pcm, (size_t)frames);
        if (r < 0) {
            fprintf(stderr, "ctlame: encoding failed: %s\n", ct_strerror(r));
            goto done;
        }
        if (write_packets(encoder, out, out_path, &num_packets, &first_size,
                          &bytes) < 0)
            goto done;
    }
    r = ct_mp3_drain(encoder);
    if (r < 0) {
        fprintf(stderr, "ctlame: encoding failed: %s\n", ct_strerror(r));
        goto done;
    }
    if (write_packets(encoder, out, out_path, &num_packets, &first_size,
                      &bytes) < 0)
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
            fprintf(stderr, "ctlame: the LAME tag (%zu bytes) does not fit "
                    "the placeholder frame (%zu bytes)\n", tag.size,
                    first_size);
            goto done;
        }
        if (r == CT_OK && (fseek(out, 0, SEEK_SET) != 0 ||
                           fwrite(tag.data, 1, tag.size, out) != tag.size)) {
            fprintf(stderr, "ctlame: cannot write the LAME tag to %s\n",
                    out_path);
            goto done;
        }
    }
    if (fclose(out) != 0) {
        out = NULL;
        fprintf(stderr, "ctlame: cannot write %s\n", out_path);
        goto done;
    }
    out = NULL;
    double seconds = now_seconds() - t0;

    if (!quiet) {
        double duration = (double)wav.frames / wav.sample_rate;
        fprintf(stderr, "%s: %d Hz, %d channel%s, %.3f s -> %s: %d Hz, %ld "
                "frames, %llu bytes in %.3f s (%.0fx real time, %d thread%s)\n",
                in_path, wav.sample_rate, wav.channels, wav.channels > 1 ? "s" : "",
                duration, out_path, ct_mp3_output_rate(encoder), num_packets,
                bytes, seconds, seconds > 0 ? duration / seconds : 0.0,
                ct_pool_threads(pool), ct_pool_threads(pool) > 1 ? "s" : "");
    }
    status = 0;

done:
    if (out)
        fclose(out);
    ct_mp3_encoder_free(encoder);
    ct_pool_unref(pool);
    free(pcm);
    ct_wav_close(&wav);
    return status;
}
