/*
 * ctlame: encodes a WAV file to MP3 with ctcore, taking lame's flags, so that
 * the two can be compared byte for byte and timed side by side.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctcore/mp3.h"
#include "ctcore/runtime.h"
#include "lame_flags.h"
#include "wav.h"
#include "common/clock.h"

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
        "  --quiet        print nothing but errors\n",
        f);
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
    ct_lame_flags flags;
    char err[256] = "";

    ct_lame_flags_init(&flags);

    for (int i = 1; i < argc;) {
        int r = ct_lame_flags_parse(&flags, argc, argv, &i, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "ctlame: %s\n", err);
            return 1;
        }
        if (r > 0)
            continue;
        const char *arg = argv[i++];

        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(arg, "--sequential") == 0) {
            threads = 1;
        } else if (strcmp(arg, "--threads") == 0) {
            const char *value = i < argc ? argv[i++] : "";
            char *end;
            errno = 0;
            long v = strtol(value, &end, 10);
            if (errno || end == value || *end != '\0' || v < 0 ||
                v > 1000000) {
                fprintf(stderr, "ctlame: --threads needs 0 or more, not "
                        "'%s'\n", value);
                return 1;
            }
            threads = (int)v;
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
    }
    if (num_positional != 2) {
        usage(stderr);
        return 1;
    }
    const char *in_path = positional[0], *out_path = positional[1];

    ct_wav_reader wav;
    if (ct_wav_open(&wav, in_path, err, sizeof(err)) < 0) {
        fprintf(stderr, "ctlame: %s\n", err);
        return 1;
    }
    ct_lame_flags_finish(&flags, wav.sample_rate, wav.channels);
    const ct_mp3_settings settings = flags.settings;

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

    double t0 = ct_clock_seconds();
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
    double seconds = ct_clock_seconds() - t0;

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
