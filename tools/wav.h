/*
 * RIFF/WAVE reader for 16-bit PCM with 1 or 2 channels: the input format of
 * lame's tests and of the audio corpus. Reads the samples in chunks, so that
 * a long file need not fit in memory, or (the tests) all at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_WAV_H
#define CT_TOOLS_WAV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ct_wav_reader {
    FILE *file;
    int sample_rate;
    int channels;             /* 1 or 2 */
    uint64_t frames;          /* samples per channel in the data chunk */
    uint64_t frames_left;
} ct_wav_reader;

/*
 * Opens a WAV file and reads its header up to the start of the samples.
 * Returns 0, or -1 with a message in errbuf (the reader is then closed).
 */
int ct_wav_open(ct_wav_reader *wav, const char *path, char *errbuf,
                size_t errbuf_size);

/*
 * Reads up to max_frames frames of interleaved samples in host byte order.
 * Returns the number of frames read (0 at the end of the data), or -1 with a
 * message in errbuf when the file ends before its header said it would.
 */
long ct_wav_read(ct_wav_reader *wav, int16_t *pcm, size_t max_frames,
                 char *errbuf, size_t errbuf_size);

void ct_wav_close(ct_wav_reader *wav);

/*
 * Reads a whole WAV file: wav->sample_rate, channels and frames as
 * ct_wav_open leaves them (the reader closed), and *pcm, malloc()ed, all
 * of its samples interleaved in host byte order (the caller frees them).
 * Returns 0, or -1 with a message in errbuf (*pcm is then NULL).
 */
int ct_wav_read_all(ct_wav_reader *wav, const char *path, int16_t **pcm,
                    char *errbuf, size_t errbuf_size);

#endif
