/*
 * Binary PNM reader. The header follows Netpbm: magic, then width, height
 * and maxval as ASCII decimals separated by whitespace, where a '#' starts
 * a comment that runs to the end of the line; exactly one whitespace
 * character separates maxval from the raster. "-" reads standard input.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "pnm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/errbuf.h"

/* Skips whitespace and comments; returns the next character (or EOF). */
static int next_token_char(FILE *f)
{
    int c = getc(f);
    for (;;) {
        if (c == '#') {
            while (c != '\n' && c != '\r' && c != EOF)
                c = getc(f);
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
                   c == '\v' || c == '\f') {
            c = getc(f);
        } else {
            return c;
        }
    }
}

/* Reads one header number; returns -1 when there is none or it exceeds
 * 2^31 - 1. */
static long read_header_number(FILE *f)
{
    int c = next_token_char(f);
    if (c < '0' || c > '9')
        return -1;
    long value = 0;
    while (c >= '0' && c <= '9') {
        value = value * 10 + (c - '0');
        if (value > 0x7fffffffL)
            return -1;
        c = getc(f);
    }
    /* One whitespace character ends a number; after maxval it is the only
     * separator before the raster. As in Netpbm's pm_getc, a comment counts
     * as the newline that ends it. */
    if (c == '#') {
        while (c != '\n' && c != '\r' && c != EOF)
            c = getc(f);
    }
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' &&
        c != '\f')
        return -1;
    return value;
}

/* The first bytes of a raster: enough for any small image, little enough
 * that a header promising gigabytes costs nothing until the bytes come. */
#define RASTER_FIRST_CHUNK ((size_t)1 << 20)

/* Reads up to size bytes of raster into *pixels, a buffer of first bytes
 * at first and grown as they arrive, so that a stream of unknown length (a
 * pipe) never makes us allocate more than twice what it delivered. Returns
 * the bytes read (fewer than size: the stream ended), or -1 when out of
 * memory. */
static long long read_raster(FILE *f, size_t size, size_t first,
                             uint8_t **pixels)
{
    size_t capacity = 0, got = 0;
    *pixels = NULL;
    while (got < size) {
        if (got == capacity) {
            const size_t grown = capacity ? capacity * 2 : first;
            capacity = grown < size ? grown : size;
            uint8_t *bigger = realloc(*pixels, capacity);
            if (!bigger) {
                free(*pixels);
                *pixels = NULL;
                return -1;
            }
            *pixels = bigger;
        }
        const size_t n = fread(*pixels + got, 1, capacity - got, f);
        if (n == 0)
            break;
        got += n;
    }
    return (long long)got;
}

/* The bytes left in f from its position on, or -1 when f is no regular
 * file (a pipe, a terminal) or its size cannot be known. */
static long long bytes_left(FILE *f)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    const off_t position = ftello(f);
    if (position < 0 || position > st.st_size)
        return -1;
    return (long long)(st.st_size - position);
}

int ct_pnm_read(const char *path, ct_pnm_image *image,
                char *errbuf, size_t errbuf_size)
{
    memset(image, 0, sizeof(*image));
    const int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return ct_errbuf_set(errbuf, errbuf_size, -1, "%s: %s", path,
                             strerror(errno));

    int ret = -1;
    char magic[2];
    if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' ||
        (magic[1] != '5' && magic[1] != '6')) {
        ct_errbuf_set(errbuf, errbuf_size, -1,
                      "%s: not a binary PGM (P5) or PPM (P6) file", name);
        goto out;
    }
    int channels = magic[1] == '6' ? 3 : 1;
    long width = read_header_number(f);
    long height = width < 0 ? -1 : read_header_number(f);
    long maxval = height < 0 ? -1 : read_header_number(f);
    if (maxval < 0) {
        ct_errbuf_set(errbuf, errbuf_size, -1, "%s: malformed P%c header", name,
                      magic[1]);
        goto out;
    }
    if (maxval != 255) {
        ct_errbuf_set(errbuf, errbuf_size, -1,
                      "%s: maxval %ld is not supported (only 8-bit, maxval "
                      "255)",
                      name, maxval);
        goto out;
    }
    if (width < 1 || height < 1 || width > CT_JPEG_MAX_DIMENSION ||
        height > CT_JPEG_MAX_DIMENSION) {
        ct_errbuf_set(errbuf, errbuf_size, -1,
                      "%s: size %ldx%ld is outside 1x1..%dx%d", name, width,
                      height, CT_JPEG_MAX_DIMENSION, CT_JPEG_MAX_DIMENSION);
        goto out;
    }

    const size_t size = (size_t)width * (size_t)height * (size_t)channels;
    /* A file says how much raster it holds: a header promising more than
     * that is refused before anything is allocated for it, and the whole
     * raster is allocated at once. */
    const long long left = bytes_left(f);
    if (left >= 0 && (unsigned long long)left < size) {
        ct_errbuf_set(errbuf, errbuf_size, -1,
                      "%s: truncated raster: %ldx%ld P%c needs %zu bytes, "
                      "the file has %lld after the header",
                      name, width, height, magic[1], size, left);
        goto out;
    }
    uint8_t *pixels;
    const long long got =
        read_raster(f, size, left >= 0 ? size : RASTER_FIRST_CHUNK, &pixels);
    if (got < 0) {
        ct_errbuf_set(errbuf, errbuf_size, -1,
                      "%s: out of memory for %zu bytes", name, size);
        goto out;
    }
    if ((size_t)got != size) {
        free(pixels);
        ct_errbuf_set(errbuf, errbuf_size, -1,
                      "%s: truncated raster: %lld of %zu bytes", name, got,
                      size);
        goto out;
    }
    image->width = (uint32_t)width;
    image->height = (uint32_t)height;
    image->channels = channels;
    image->pixels = pixels;
    ret = 0;
out:
    if (!from_stdin)
        fclose(f);
    return ret;
}

void ct_pnm_free(ct_pnm_image *image)
{
    free(image->pixels);
    image->pixels = NULL;
}

ct_jpeg_image ct_pnm_jpeg_image(const ct_pnm_image *image)
{
    const ct_jpeg_image jpeg_image = {
        .width = image->width,
        .height = image->height,
        .format = image->channels == 3 ? CT_PIXEL_RGB8 : CT_PIXEL_GRAY8,
        .stride = (size_t)image->width * (size_t)image->channels,
        .pixels = image->pixels,
    };
    return jpeg_image;
}
