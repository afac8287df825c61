/*
 * Binary PNM reader. The header follows Netpbm: magic, then width, height
 * and maxval as ASCII decimals separated by whitespace, where a '#' starts
 * a comment that runs to the end of the line; exactly one whitespace
 * character separates maxval from the raster.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "pnm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int ct_pnm_read(const char *path, ct_pnm_image *image,
                char *errbuf, size_t errbuf_size)
{
    memset(image, 0, sizeof(*image));
    FILE *f = fopen(path, "rb");
    if (!f)
        return ct_errbuf_set(errbuf, errbuf_size, -1, "%s: %s", path, strerror(errno));

    int ret = -1;
    char magic[2];
    if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' ||
        (magic[1] != '5' && magic[1] != '6')) {
        ct_errbuf_set(errbuf, errbuf_size, -1,
             "%s: not a binary PGM (P5) or PPM (P6) file", path);
        goto out;
    }
    int channels = magic[1] == '6' ? 3 : 1;
    long width = read_header_number(f);
    long height = width < 0 ? -1 : read_header_number(f);
    long maxval = height < 0 ? -1 : read_header_number(f);
    if (maxval < 0) {
        ct_errbuf_set(errbuf, errbuf_size, -1, "%s: malformed P%c header", path, magic[1]);
        goto out;
    }
    if (maxval != 255) {
        ct_errbuf_set(errbuf, errbuf_size, -1,
             "%s: maxval %ld is not supported (only 8-bit, maxval 255)",
             path, maxval);
        goto out;
    }
    if (width < 1 || height < 1 || width > CT_JPEG_MAX_DIMENSION ||
        height > CT_JPEG_MAX_DIMENSION) {
        ct_errbuf_set(errbuf, errbuf_size, -1, "%s: size %ldx%ld is outside 1x1..%dx%d",
             path, width, height, CT_JPEG_MAX_DIMENSION, CT_JPEG_MAX_DIMENSION);
        goto out;
    }

    size_t size = (size_t)width * (size_t)height * (size_t)channels;
    uint8_t *pixels = malloc(size);
    if (!pixels) {
        ct_errbuf_set(errbuf, errbuf_size, -1, "%s: out of memory for %zu bytes", path, size);
        goto out;
    }
    size_t got = fread(pixels, 1, size, f);
    if (got != size) {
        free(pixels);
        ct_errbuf_set(errbuf, errbuf_size, -1,
             "%s: truncated raster: %zu of %zu bytes", path, got, size);
        goto out;
    }
    image->width = (uint32_t)width;
    image->height = (uint32_t)height;
    image->channels = channels;
    image->pixels = pixels;
    ret = 0;
out:
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
