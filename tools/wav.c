/*
 * RIFF/WAVE reader (wav.h): any chunk order with "fmt " before "data", each
 * chunk's odd size padded to even as RIFF wants (lame's reader and
 * libsndfile do so). The conversions to 32-bit integers are libsndfile
 * 1.2's (pcm.c, float32.c: Debian's lame links it and reads files with
 * sf_read_int after SFC_SET_SCALE_FLOAT_INT_READ) and lame 3.100's
 * frontend/get_audio.c:unpack_read_samples (stdin).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "wav.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/errbuf.h"

#define WAVE_FORMAT_PCM        0x0001
#define WAVE_FORMAT_IEEE_FLOAT 0x0003
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

/* Skips `left` bytes, reading them from a pipe. */
static int skip_bytes(FILE *f, long long left)
{
    while (left > 0 && fseek(f, 0, SEEK_CUR) != 0) {
        if (fgetc(f) == EOF)
            return -1;
        left--;
    }
    while (left > 0) {
        long step = left > 0x40000000 ? 0x40000000 : (long)left;
        if (fseek(f, step, SEEK_CUR) != 0)
            return -1;
        left -= step;
    }
    return 0;
}

/* Skips a chunk's body and its pad byte (chunks are 2-byte aligned). */
static int skip_chunk(FILE *f, uint32_t size)
{
    return skip_bytes(f, (long long)size + (size & 1));
}

/* Room for `frames` frames of raw samples. */
static int reserve(ct_wav_reader *wav, size_t frames)
{
    size_t const need =
        frames * (size_t)wav->channels * (size_t)(wav->bits / 8);
    if (need <= wav->bytes_cap)
        return 0;
    uint8_t *bytes = realloc(wav->bytes, need);
    if (!bytes)
        return -1;
    wav->bytes = bytes;
    wav->bytes_cap = need;
    return 0;
}

/* libsndfile's psf_lrintf on x86-64 (cvtss2si): round to nearest even,
 * NaN and values out of range give INT_MIN. */
static int32_t lrintf_x86(float x)
{
    if (!(x >= -2147483648.0f && x < 2147483648.0f))
        return INT32_MIN;
    return (int32_t)lrintf(x);
}

/* lame's reader of IEEE floats: in float arithmetic, rounded half away
 * from zero; NaN falls through to (int) NaN, INT_MIN on x86-64. */
static int32_t lame_float_to_int(float u)
{
    float const m_max = INT32_MAX;
    float const m_min = -(float)INT32_MIN;
    if (u >= 1)
        return INT32_MAX;
    if (u <= -1)
        return INT32_MIN;
    if (u >= 0)
        return (int32_t)(u * m_max + 0.5f);
    if (u < 0)
        return (int32_t)(u * m_min - 0.5f);
    return INT32_MIN;
}

static float le_float(const uint8_t *p)
{
    uint32_t const u = le32(p);
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* libsndfile's SFC_SET_SCALE_FLOAT_INT_READ: the peak of all samples of
 * the file (psf_calc_signal_max, in double), with 1/32767 headroom, and
 * the factor to +-2^31 from it (a float; infinite for a silent file). */
static int float_peak_scale(ct_wav_reader *wav, char *errbuf,
                            size_t errbuf_size)
{
    long const start = ftell(wav->file);
    uint64_t left = wav->frames * (uint64_t)wav->channels;
    double max_val = 0.0;
    uint8_t buf[4096];

    if (start < 0)
        return fail(wav, errbuf, errbuf_size,
                    "cannot find the peak of a float file "
                    "that does not seek");
    while (left > 0) {
        size_t const n =
            left < sizeof(buf) / 4 ? (size_t)left : sizeof(buf) / 4;
        if (fread(buf, 4, n, wav->file) != n)
            break;
        for (size_t k = 0; k < n; k++) {
            double const temp = fabs((double)le_float(buf + 4 * k));
            max_val = temp > max_val ? temp : max_val;
        }
        left -= n;
    }
    if (fseek(wav->file, start, SEEK_SET) != 0)
        return fail(wav, errbuf, errbuf_size,
                    "cannot seek back to the samples");
    float const float_max = (float)((32768.0 / 32767.0) * max_val);
    wav->float_scale = 2147483648.0f / float_max;
    return 0;
}

int ct_wav_open(ct_wav_reader *wav, const char *path, char *errbuf,
                size_t errbuf_size)
{
    return ct_wav_open_flags(wav, path, 0, errbuf, errbuf_size);
}

int ct_wav_open_flags(ct_wav_reader *wav, const char *path, int flags,
                      char *errbuf, size_t errbuf_size)
{
    uint8_t riff[12];
    int have_fmt = 0;

    memset(wav, 0, sizeof(*wav));
    if (strcmp(path, "-") == 0) {
        wav->file = stdin;
        wav->lame_reader = 1;
    } else {
        wav->file = fopen(path, "rb");
    }
    if (!wav->file)
        return fail(wav, errbuf, errbuf_size, "cannot open %s", path);
    if (fread(riff, 1, sizeof(riff), wav->file) != sizeof(riff) ||
        memcmp(riff, "RIFF", 4) != 0 || memcmp(riff + 8, "WAVE", 4) != 0)
        return fail(wav, errbuf, errbuf_size, "%s is not a RIFF/WAVE file",
                    path);

    for (;;) {
        uint8_t header[8];
        if (fread(header, 1, sizeof(header), wav->file) != sizeof(header))
            return fail(wav, errbuf, errbuf_size, "%s has no \"data\" chunk",
                        path);
        uint32_t size = le32(header + 4);

        if (memcmp(header, "fmt ", 4) == 0) {
            uint8_t fmt[40] = {0};
            size_t want = size < sizeof(fmt) ? size : sizeof(fmt);
            /* the rest and the pad byte of an odd size (17: lame skips it) */
            if (size < 16 || fread(fmt, 1, want, wav->file) != want ||
                skip_bytes(wav->file, (long long)(size - want) + (size & 1)) !=
                    0)
                return fail(wav, errbuf, errbuf_size,
                            "%s: truncated \"fmt \" chunk", path);
            unsigned format = le16(fmt);
            /* The sub-format GUID of an extensible header starts with the
             * format code. */
            if (format == WAVE_FORMAT_EXTENSIBLE && size >= 26)
                format = le16(fmt + 24);
            unsigned channels = le16(fmt + 2);
            uint32_t rate = le32(fmt + 4);
            unsigned bits = le16(fmt + 14);
            if (format != WAVE_FORMAT_PCM && format != WAVE_FORMAT_IEEE_FLOAT)
                return fail(wav, errbuf, errbuf_size,
                            "%s: unsupported WAV format 0x%04x (only "
                            "integer PCM and IEEE float)",
                            path, format);
            if (format == WAVE_FORMAT_PCM && bits != 8 && bits != 16 &&
                bits != 24 && bits != 32)
                return fail(wav, errbuf, errbuf_size,
                            "%s: %u-bit samples are not supported (only "
                            "8, 16, 24 and 32 bits)",
                            path, bits);
            if (format == WAVE_FORMAT_IEEE_FLOAT && bits != 32)
                return fail(wav, errbuf, errbuf_size,
                            "%s: %u-bit floats are not supported (only "
                            "32 bits)",
                            path, bits);
            if (flags & CT_WAV_OPUSENC) {
                if (channels < 1 || channels > 255)
                    return fail(wav, errbuf, errbuf_size,
                                "%s: %u channels are not supported (1 to "
                                "255)",
                                path, channels);
            } else if (channels < 1 || channels > 2)
                return fail(wav, errbuf, errbuf_size,
                            "%s: %u channels are not supported (only 1 or "
                            "2)",
                            path, channels);
            if (rate == 0 || rate > 0x7fffffff)
                return fail(wav, errbuf, errbuf_size,
                            "%s: invalid sample rate %u", path, (unsigned)rate);
            wav->channels = (int)channels;
            wav->sample_rate = (int)rate;
            wav->bits = (int)bits;
            wav->is_float = format == WAVE_FORMAT_IEEE_FLOAT;
            /* opusenc's validbits */
            wav->valid_bits = (int)bits;
            wav->channel_mask = 0;
            if (le16(fmt) == WAVE_FORMAT_EXTENSIBLE && size >= 20) {
                unsigned valid = le16(fmt + 18);
                if (valid >= 1 && valid <= bits)
                    wav->valid_bits = (int)valid;
                if (size >= 24)
                    wav->channel_mask = le32(fmt + 20);
            }
            if (wav->is_float)
                wav->valid_bits = 24;
            have_fmt = 1;
        } else if (memcmp(header, "data", 4) == 0) {
            if (!have_fmt)
                return fail(wav, errbuf, errbuf_size,
                            "%s: \"data\" chunk before \"fmt \" chunk", path);
            /* Like lame, take what a truncated file (or a streamed header's
             * placeholder size) actually holds. */
            long long left = bytes_left(wav->file);
            uint64_t data_size = size;
            unsigned const frame_bytes =
                (unsigned)wav->channels * (unsigned)(wav->bits / 8);
            if ((flags & CT_WAV_OPUSENC) &&
                !(size > frame_bytes * 4u && size < (1u << 31) - 65536u))
                /* opusenc reads on to the end of the file */
                data_size = left >= 0 ? (uint64_t)left : UINT64_MAX;
            else if (left >= 0 && (uint64_t)left < data_size)
                data_size = (uint64_t)left;
            else if (left < 0 && size == 0xffffffffu)
                data_size = UINT64_MAX; /* a stream of unknown length */
            wav->frames =
                data_size / (uint64_t)(wav->channels * (wav->bits / 8));
            wav->frames_left = wav->frames;
            if (wav->is_float && !wav->lame_reader && !(flags & CT_WAV_OPUSENC))
                return float_peak_scale(wav, errbuf, errbuf_size);
            return 0;
        } else if (skip_chunk(wav->file, size) != 0) {
            return fail(wav, errbuf, errbuf_size,
                        "%s: truncated \"%.4s\" chunk", path,
                        (const char *)header);
        }
    }
}

/* Up to max_frames raw frames into wav->bytes; the frames read. The data
 * ends where the file does, as in lame. */
static long read_raw(ct_wav_reader *wav, size_t max_frames, char *errbuf,
                     size_t errbuf_size)
{
    size_t frames =
        wav->frames_left < max_frames ? (size_t)wav->frames_left : max_frames;
    size_t const frame_bytes = (size_t)wav->channels * (size_t)(wav->bits / 8);

    if (frames == 0)
        return 0;
    if (reserve(wav, frames) != 0) {
        snprintf(errbuf, errbuf_size, "out of memory");
        return -1;
    }
    size_t const got = fread(wav->bytes, frame_bytes, frames, wav->file);
    if (got < frames && ferror(wav->file)) {
        snprintf(errbuf, errbuf_size, "read error after %llu frames",
                 (unsigned long long)(wav->frames - wav->frames_left));
        return -1;
    }
    wav->frames_left = got < frames ? 0 : wav->frames_left - got;
    return (long)got;
}

long ct_wav_read_raw(ct_wav_reader *wav, size_t max_frames, char *errbuf,
                     size_t errbuf_size)
{
    return read_raw(wav, max_frames, errbuf, errbuf_size);
}

/* opus-tools 0.2 opus_header.c wav_permute_matrix: output channel j is
 * the file's channel [channels - 1][j] */
static const unsigned char wav_permute_matrix[8][8] = {
    {0},                      /* 1.0 mono   */
    {0, 1},                   /* 2.0 stereo */
    {0, 2, 1},                /* 3.0 channel ('wide') stereo */
    {0, 1, 2, 3},             /* 4.0 discrete quadraphonic */
    {0, 2, 1, 3, 4},          /* 5.0 surround */
    {0, 2, 1, 4, 5, 3},       /* 5.1 surround */
    {0, 2, 1, 5, 6, 4, 3},    /* 6.1 surround */
    {0, 2, 1, 6, 7, 4, 5, 3}, /* 7.1 surround (classic theater 8-track) */
};

void ct_wav_opusenc_reorder(ct_wav_reader *wav, long frames)
{
    size_t const width = (size_t)(wav->bits / 8);
    size_t const frame_bytes = width * (size_t)wav->channels;
    uint8_t tmp[8 * 4];
    if (wav->channels < 3 || wav->channels > 8)
        return;
    const unsigned char *perm = wav_permute_matrix[wav->channels - 1];
    for (long i = 0; i < frames; i++) {
        uint8_t *frame = wav->bytes + (size_t)i * frame_bytes;
        memcpy(tmp, frame, frame_bytes);
        for (int j = 0; j < wav->channels; j++)
            memcpy(frame + (size_t)j * width, tmp + perm[j] * width, width);
    }
}

const char *ct_wav_opusenc_mask_warning(uint32_t mask)
{
    switch (mask) {
    case 1539: /* 4.0 using side surround instead of back */
        return "WAV file uses side surround instead of rear for "
               "quadraphonic;\nremapping side speakers to rear in encoding.";
    case 1551: /* 5.1 using side instead of rear */
        return "WAV file uses side surround instead of rear for 5.1;\n"
               "remapping side speakers to rear in encoding.";
    case 319: /* 6.1 using rear instead of side */
        return "WAV file uses rear surround instead of side for 6.1;\n"
               "remapping rear speakers to side in encoding.";
    case 255: /* 7.1 'Widescreen' */
        return "WAV file is a 7.1 'Widescreen' channel mapping;\n"
               "remapping speakers to Vorbis 7.1 format.";
    case 0:    /* default/undeclared */
    case 1:    /* mono (left only) */
    case 4:    /* mono (center only) */
    case 3:    /* stereo */
    case 51:   /* quad */
    case 55:   /* 5.0 */
    case 63:   /* 5.1 */
    case 1807: /* 6.1 */
    case 1599: /* 7.1 */
        return NULL;
    default:
        return "Unknown WAV surround channel mask;\n"
               "Blindly mapping speakers using default SMPTE/ITU ordering.";
    }
}

long ct_wav_read_s32(ct_wav_reader *wav, int32_t *pcm, size_t max_frames,
                     char *errbuf, size_t errbuf_size)
{
    long const frames = read_raw(wav, max_frames, errbuf, errbuf_size);
    if (frames <= 0)
        return frames;
    size_t const samples = (size_t)frames * (size_t)wav->channels;
    const uint8_t *const b = wav->bytes;

    for (size_t i = 0; i < samples; i++) {
        uint32_t v;
        switch (wav->bits) {
        case 8: /* unsigned */
            v = (uint32_t)(b[i] ^ 0x80) << 24;
            if (wav->lame_reader)
                v |= 0x7fu << 16;
            break;
        case 16:
            v = (uint32_t)le16(b + 2 * i) << 16;
            break;
        case 24:
            v = (uint32_t)b[3 * i] << 8 | (uint32_t)b[3 * i + 1] << 16 |
                (uint32_t)b[3 * i + 2] << 24;
            break;
        default:
            v = le32(b + 4 * i);
            break;
        }
        if (wav->is_float) {
            float const x = le_float(b + 4 * i);
            pcm[i] = wav->lame_reader ? lame_float_to_int(x)
                                      : lrintf_x86(wav->float_scale * x);
        } else {
            pcm[i] = (int32_t)v;
        }
    }
    return frames;
}

long ct_wav_read(ct_wav_reader *wav, int16_t *pcm, size_t max_frames,
                 char *errbuf, size_t errbuf_size)
{
    if (wav->bits != 16 || wav->is_float) {
        snprintf(errbuf, errbuf_size, "%d-bit %s samples, not 16-bit integers",
                 wav->bits, wav->is_float ? "float" : "integer");
        return -1;
    }
    long const frames = read_raw(wav, max_frames, errbuf, errbuf_size);
    for (long i = 0; i < frames * wav->channels; i++)
        pcm[i] = (int16_t)le16(wav->bytes + 2 * i);
    return frames;
}

void ct_wav_close(ct_wav_reader *wav)
{
    if (wav->file && wav->file != stdin)
        fclose(wav->file);
    wav->file = NULL;
    free(wav->bytes);
    wav->bytes = NULL;
    wav->bytes_cap = 0;
}

/* Both of the read_all: the samples of `size` bytes each into *pcm. */
static int read_all(ct_wav_reader *wav, const char *path, void **pcm,
                    size_t size, int s32, char *errbuf, size_t errbuf_size)
{
    *pcm = NULL;
    if (ct_wav_open(wav, path, errbuf, errbuf_size) != 0)
        return -1;
    if (wav->frames > (uint64_t)(SIZE_MAX / 8 - 1))
        return fail(wav, errbuf, errbuf_size, "%s: too large", path);
    /* one more, so that an empty file gets a buffer too */
    *pcm = malloc(((size_t)wav->frames + 1) * (size_t)wav->channels * size);
    if (!*pcm)
        return fail(wav, errbuf, errbuf_size, "%s: out of memory", path);
    long const got =
        s32 ? ct_wav_read_s32(wav, *pcm, (size_t)wav->frames, errbuf,
                              errbuf_size)
            : ct_wav_read(wav, *pcm, (size_t)wav->frames, errbuf, errbuf_size);
    if (got < 0) {
        free(*pcm);
        *pcm = NULL;
        ct_wav_close(wav);
        return -1;
    }
    wav->frames = (uint64_t)got;
    ct_wav_close(wav);
    return 0;
}

int ct_wav_read_all(ct_wav_reader *wav, const char *path, int16_t **pcm,
                    char *errbuf, size_t errbuf_size)
{
    void *p;
    int const r =
        read_all(wav, path, &p, sizeof(int16_t), 0, errbuf, errbuf_size);
    *pcm = p;
    return r;
}

int ct_wav_read_all_s32(ct_wav_reader *wav, const char *path, int32_t **pcm,
                        char *errbuf, size_t errbuf_size)
{
    void *p;
    int const r =
        read_all(wav, path, &p, sizeof(int32_t), 1, errbuf, errbuf_size);
    *pcm = p;
    return r;
}
