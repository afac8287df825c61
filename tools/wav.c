/*
 * RIFF/WAVE reader: 16-bit PCM, 1 or 2 channels, plain or
 * WAVE_FORMAT_EXTENSIBLE headers, any chunk order with "fmt " before "data".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "wav.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"

#define WAVE_FORMAT_PCM 0x0001
#define WAVE_FORMAT_EXTENSIBLE 0xfffe

static int fail(ct_wav_reader *wav, char *errbuf, size_t errbuf_size,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_errbuf_vset(errbuf, errbuf_size, -1, fmt, ap);
    va_end(ap);
    ct_wav_close(wav);
    return -1;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* Bytes from the current position to the end of the file, or -1 when the
 * file cannot tell (a pipe). */
static long long bytes_left(FILE *f)
{
    long here = ftell(f);
    if (here < 0 || fseek(f, 0, SEEK_END) != 0)
        return -1;
    long end = ftell(f);
    if (end < 0 || fseek(f, here, SEEK_SET) != 0)
        return -1;
    return (long long)end - here;
}

/* Skips a chunk's body and its pad byte (chunks are 2-byte aligned). */
static int skip_chunk(FILE *f, uint32_t size)
{
    long long left = (long long)size + (size & 1);
    while (left > 0) {
        long step = left > 0x40000000 ? 0x40000000 : (long)left;
        if (fseek(f, step, SEEK_CUR) != 0)
            return -1;
        left -= step;
    }
    return 0;
}

int ct_wav_open(ct_wav_reader *wav, const char *path, char *errbuf,
                size_t errbuf_size)
{
    uint8_t riff[12];
    int have_fmt = 0;

    memset(wav, 0, sizeof(*wav));
    wav->file = fopen(path, "rb");
    if (!wav->file)
        return fail(wav, errbuf, errbuf_size, "cannot open %s", path);
    if (fread(riff, 1, sizeof(riff), wav->file) != sizeof(riff) ||
        memcmp(riff, "RIFF", 4) != 0 || memcmp(riff + 8, "WAVE", 4) != 0)
        return fail(wav, errbuf, errbuf_size,
                    "%s is not a RIFF/WAVE file", path);

    for (;;) {
        uint8_t header[8];
        if (fread(header, 1, sizeof(header), wav->file) != sizeof(header))
            return fail(wav, errbuf, errbuf_size,
                        "%s has no \"data\" chunk", path);
        uint32_t size = le32(header + 4);

        if (memcmp(header, "fmt ", 4) == 0) {
            uint8_t fmt[40] = { 0 };
            size_t want = size < sizeof(fmt) ? size : sizeof(fmt);
            if (size < 16 || fread(fmt, 1, want, wav->file) != want ||
                skip_chunk(wav->file, size - (uint32_t)want) != 0)
                return fail(wav, errbuf, errbuf_size,
                            "%s: truncated \"fmt \" chunk", path);
            unsigned format = le16(fmt);
            /* The sub-format GUID of an extensible header starts with the
             * format code. */
            if (format == WAVE_FORMAT_EXTENSIBLE && size >= 40)
                format = le16(fmt + 24);
            unsigned channels = le16(fmt + 2);
            uint32_t rate = le32(fmt + 4);
            unsigned block_align = le16(fmt + 12);
            unsigned bits = le16(fmt + 14);
            if (format != WAVE_FORMAT_PCM)
                return fail(wav, errbuf, errbuf_size,
                            "%s: unsupported WAV format 0x%04x (only "
                            "integer PCM is supported)", path, format);
            if (bits != 16)
                return fail(wav, errbuf, errbuf_size,
                            "%s: %u-bit samples are not supported (only "
                            "16-bit)", path, bits);
            if (channels < 1 || channels > 2)
                return fail(wav, errbuf, errbuf_size,
                            "%s: %u channels are not supported (only 1 or "
                            "2)", path, channels);
            if (block_align != channels * 2)
                return fail(wav, errbuf, errbuf_size,
                            "%s: block size %u does not match %u channels "
                            "of 16-bit samples", path, block_align,
                            channels);
            if (rate == 0 || rate > 0x7fffffff)
                return fail(wav, errbuf, errbuf_size,
                            "%s: invalid sample rate %u", path,
                            (unsigned)rate);
            wav->channels = (int)channels;
            wav->sample_rate = (int)rate;
            have_fmt = 1;
        } else if (memcmp(header, "data", 4) == 0) {
            if (!have_fmt)
                return fail(wav, errbuf, errbuf_size,
                            "%s: \"data\" chunk before \"fmt \" chunk", path);
            /* Like lame, take what a truncated file (or a streamed header's
             * placeholder size) actually holds. */
            long long left = bytes_left(wav->file);
            uint64_t data_size = size;
            if (left >= 0 && (uint64_t)left < data_size)
                data_size = (uint64_t)left;
            wav->frames = data_size / (uint64_t)(wav->channels * 2);
            wav->frames_left = wav->frames;
            return 0;
        } else if (skip_chunk(wav->file, size) != 0) {
            return fail(wav, errbuf, errbuf_size,
                        "%s: truncated \"%.4s\" chunk", path,
                        (const char *)header);
        }
    }
}

long ct_wav_read(ct_wav_reader *wav, int16_t *pcm, size_t max_frames,
                 char *errbuf, size_t errbuf_size)
{
    size_t frames = wav->frames_left < max_frames ? (size_t)wav->frames_left :
                    max_frames;
    size_t samples = frames * (size_t)wav->channels;
    uint8_t *bytes = (uint8_t *)pcm;

    if (fread(bytes, 2, samples, wav->file) != samples) {
        snprintf(errbuf, errbuf_size, "read error after %llu of %llu frames",
                 (unsigned long long)(wav->frames - wav->frames_left),
                 (unsigned long long)wav->frames);
        return -1;
    }
    /* In place: sample i is built from its own two bytes only. */
    for (size_t i = 0; i < samples; i++)
        pcm[i] = (int16_t)le16(bytes + 2 * i);
    wav->frames_left -= frames;
    return (long)frames;
}

void ct_wav_close(ct_wav_reader *wav)
{
    if (wav->file)
        fclose(wav->file);
    wav->file = NULL;
}

int ct_wav_read_all(ct_wav_reader *wav, const char *path, int16_t **pcm,
                    char *errbuf, size_t errbuf_size)
{
    *pcm = NULL;
    if (ct_wav_open(wav, path, errbuf, errbuf_size) != 0)
        return -1;
    if (wav->frames > (uint64_t)(SIZE_MAX / 4 - 1))
        return fail(wav, errbuf, errbuf_size, "%s: too large", path);
    /* one more, so that an empty file gets a buffer too */
    *pcm = malloc(((size_t)wav->frames + 1) * (size_t)wav->channels *
                  sizeof(int16_t));
    if (!*pcm)
        return fail(wav, errbuf, errbuf_size, "%s: out of memory", path);
    if (ct_wav_read(wav, *pcm, (size_t)wav->frames, errbuf, errbuf_size) !=
        (long)wav->frames) {
        free(*pcm);
        *pcm = NULL;
        ct_wav_close(wav);
        return -1;
    }
    ct_wav_close(wav);
    return 0;
}
