/*
 * RIFF/WAVE reader for what lame reads: 8-, 16-, 24- and 32-bit integer
 * PCM and 32-bit IEEE float, 1 or 2 channels (1 to 255 as opusenc reads
 * them), plain or WAVE_FORMAT_EXTENSIBLE headers. The samples come out as the 32-bit
 * integers lame's frontend hands to lame_encode_buffer_int (full scale
 * +-2^31), made as lame makes them: from a file by libsndfile (which scales
 * a float file to its peak), from stdin ("-") by lame's own reader. Reads
 * the samples in chunks, so that a long file need not fit in memory, or
 * (the tests) all at once.
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
    int channels;             /* 1 or 2 (CT_WAV_OPUSENC: 1 .. 255) */
    int bits;                 /* per sample: 8, 16, 24 or 32 */
    int is_float;             /* 32-bit IEEE float samples */
    int lame_reader;          /* stdin: lame's own reader, not libsndfile */
    float float_scale;        /* libsndfile's float -> int factor */
    uint64_t frames;          /* samples per channel in the data chunk */
    uint64_t frames_left;
    uint8_t *bytes;           /* one read's raw samples */
    size_t bytes_cap;
    int valid_bits;           /* opusenc's samplesize: the extensible
                                 header's valid bits (else bits), 24 for
                                 float */
    uint32_t channel_mask;    /* the extensible header's dwChannelMask
                                 (0: none) */
} ct_wav_reader;

/*
 * Opens a WAV file ("-": stdin) and reads its header up to the start of
 * the samples (of a float file, first all its samples for their peak).
 * Returns 0, or -1 with a message in errbuf (the reader is then closed).
 */
int ct_wav_open(ct_wav_reader *wav, const char *path, char *errbuf,
                size_t errbuf_size);

/* ct_wav_open_flags: read as opusenc (opus-tools 0.2 audio-in.c) reads:
 * no peak pass for float files, 1 to 255 channels, and the data chunk's
 * length taken only when it is plausible (more than 4 frames, less than
 * 2^31 - 65536 bytes), else the samples run to the end of the file. */
#define CT_WAV_OPUSENC 1

/* ct_wav_open with flags (0: ct_wav_open itself). */
int ct_wav_open_flags(ct_wav_reader *wav, const char *path, int flags,
                      char *errbuf, size_t errbuf_size);

/*
 * Reads up to max_frames frames of raw interleaved samples, as they are in
 * the file (little-endian, bits / 8 bytes each), into wav->bytes. Returns
 * the number of frames read (0 at the end of the data), or -1 with a
 * message in errbuf.
 */
long ct_wav_read_raw(ct_wav_reader *wav, size_t max_frames, char *errbuf,
                     size_t errbuf_size);

/*
 * Reads up to max_frames frames of interleaved samples as lame's reader
 * gives them to lame_encode_buffer_int. Returns the number of frames read
 * (0 at the end of the data), or -1 with a message in errbuf when the file
 * ends before its header said it would.
 */
long ct_wav_read_s32(ct_wav_reader *wav, int32_t *pcm, size_t max_frames,
                     char *errbuf, size_t errbuf_size);

/*
 * The same for a 16-bit file, the samples as they are; -1 with a message
 * for any other.
 */
long ct_wav_read(ct_wav_reader *wav, int16_t *pcm, size_t max_frames,
                 char *errbuf, size_t errbuf_size);

/*
 * opusenc's reorder of the frames last read into wav->bytes: for 3 to 8
 * channels, WAV's order (FL FR C LFE BL BR SL SR, as SMPTE/ITU and
 * WAVE_FORMAT_EXTENSIBLE's masks have it) into Vorbis' (FL C FR ... LFE),
 * by channel count whatever the mask (opus-tools' wav_permute_matrix);
 * fewer or more channels stay as they are.
 */
void ct_wav_opusenc_reorder(ct_wav_reader *wav, long frames);

/*
 * The warning opusenc prints for an extensible header's channel mask
 * (side speakers taken as rear, an unknown mask...), without its
 * "WARNING: " and trailing newline; NULL when it prints none.
 */
const char *ct_wav_opusenc_mask_warning(uint32_t mask);

void ct_wav_close(ct_wav_reader *wav);

/*
 * Reads a whole WAV file: wav->sample_rate, channels and frames as
 * ct_wav_open leaves them (the reader closed), and *pcm, malloc()ed, all
 * of its samples interleaved (the caller frees them). ct_wav_read_all
 * takes 16-bit files only. Returns 0, or -1 with a message in errbuf
 * (*pcm is then NULL).
 */
int ct_wav_read_all(ct_wav_reader *wav, const char *path, int16_t **pcm,
                    char *errbuf, size_t errbuf_size);
int ct_wav_read_all_s32(ct_wav_reader *wav, const char *path, int32_t **pcm,
                        char *errbuf, size_t errbuf_size);

#endif
