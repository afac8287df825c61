/*
 * Fuzz target: the WAV reader (tools/wav.c) on the input as a file, read
 * in chunks of a size taken from the input's length and then all at once
 * (ct_wav_read_all_s32, and ct_wav_read_all for a 16-bit file): the same
 * samples every way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "fuzz.h"
#include "memfile.h"
#include "wav.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], errbuf[256];
    const int fd = memfile_open(data, size, path);
    ct_wav_reader wav = { 0 };
    if (ct_wav_open(&wav, path, errbuf, sizeof(errbuf)) != 0) {
        memfile_close(fd);
        return 0;
    }
    fuzz_assert(wav.channels == 1 || wav.channels == 2);
    fuzz_assert(wav.sample_rate > 0);
    fuzz_assert(wav.frames <= size);
    const int channels = wav.channels, bits = wav.bits;

    /* In chunks: each read into a buffer of exactly its size. */
    const size_t chunk = 1 + size % 509;
    int32_t *chunked = malloc(((size_t)wav.frames + 1) * (size_t)channels *
                              sizeof(*chunked));
    fuzz_assert(chunked);
    size_t frames = 0;
    int chunk_error = 0;
    for (;;) {
        int32_t *piece = malloc(chunk * (size_t)channels * sizeof(*piece));
        fuzz_assert(piece);
        const long got = ct_wav_read_s32(&wav, piece, chunk, errbuf,
                                         sizeof(errbuf));
        fuzz_assert(got <= (long)chunk);
        if (got > 0) {
            fuzz_assert(frames + (size_t)got <= wav.frames);
            memcpy(chunked + frames * (size_t)channels, piece,
                   (size_t)got * (size_t)channels * sizeof(*piece));
            frames += (size_t)got;
        }
        free(piece);
        if (got <= 0) {
            chunk_error = got < 0;
            break;
        }
    }
    ct_wav_close(&wav);

    ct_wav_reader whole = { 0 };
    int32_t *all = NULL;
    const int all_error = ct_wav_read_all_s32(&whole, path, &all, errbuf,
                                              sizeof(errbuf)) != 0;
    fuzz_assert(all_error == chunk_error);
    if (!all_error) {
        fuzz_assert(whole.frames == frames);
        fuzz_assert(frames == 0 ||
                    memcmp(all, chunked, frames * (size_t)channels *
                                             sizeof(*all)) == 0);
    }
    free(all);

    if (bits == 16 && !all_error) {
        int16_t *s16 = NULL;
        fuzz_assert(ct_wav_read_all(&whole, path, &s16, errbuf,
                                    sizeof(errbuf)) == 0);
        fuzz_assert(whole.frames == frames);
        for (size_t i = 0; i < frames * (size_t)channels; i++)
            fuzz_assert((int32_t)((uint32_t)s16[i] << 16) == chunked[i]);
        free(s16);
    }
    free(chunked);
    memfile_close(fd);
    return 0;
}
