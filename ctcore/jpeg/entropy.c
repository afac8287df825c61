/*
 * ct_jpeg_write_file: the entropy coder's phases in sequence, for the whole
 * frame.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from jpegli lib/jpegli/encode.cc (jpegli_finish_compress and the
 * header writes of jpegli_start_compress / jpegli_write_scanlines)
 * (BSD-3-Clause, Copyright the JPEG XL Project Authors).
 */
#include <stdlib.h>

#include "entropy.h"
#include "entropy_internal.h"

int ct_jpeg_write_file(const ct_jpeg_frame *frame, const ct_jpeg_coeffs *coeffs,
                       const uint8_t *icc, size_t icc_size,
                       ct_jpeg_output *out)
{
    out->data = NULL;
    out->size = 0;
    const int num_scans = frame->num_scans;
    ct_jpeg_contexts ctx;
    ct_jpeg_contexts_init(&ctx, frame);

    ct_jpeg_scan_tokens *tokens = calloc((size_t)num_scans, sizeof(*tokens));
    ct_jpeg_scan_histogram *hists = malloc((size_t)num_scans * sizeof(*hists));
    ct_jpeg_huffman_codes *codes = malloc(sizeof(*codes));
    int rc = tokens != NULL && hists != NULL && codes != NULL ? CT_OK
                                                               : CT_ENOMEM;

    const ct_jpeg_padding padding = ct_jpeg_frame_padding(frame);
    for (int i = 0; i < num_scans && rc == CT_OK; ++i) {
        rc = ct_jpeg_tokenize_scan(frame, coeffs, i, ctx.ac_offset[i],
                                   padding, &tokens[i]);
        if (rc == CT_OK)
            ct_jpeg_scan_histogram_build(frame, i, ctx.ac_offset[i],
                                         &tokens[i], &hists[i]);
    }

    if (rc == CT_OK)
        rc = ct_jpeg_file_codes(frame, &ctx, hists, codes);

    uint8_t *data = NULL;
    size_t pos = 0;
    if (rc == CT_OK) {
        size_t capacity = ct_jpeg_file_markers_bound(icc_size);
        const size_t header_bound = ct_jpeg_scan_header_bound(codes);
        for (int i = 0; i < num_scans; ++i)
            capacity += header_bound +
                        ct_jpeg_scan_data_bound(frame, i, ctx.ac_offset[i],
                                                codes, &hists[i], &tokens[i]);
        data = malloc(capacity);
        if (data == NULL)
            rc = CT_ENOMEM;
    }

    if (rc == CT_OK) {
        pos += ct_jpeg_write_soi(data + pos);
        if (icc != NULL)
            pos += ct_jpeg_write_icc_markers(icc, icc_size, data + pos);
        pos += ct_jpeg_write_frame_header(frame, codes, data + pos);
        int next_dht_index = 0;
        for (int i = 0; i < num_scans && rc == CT_OK; ++i) {
            pos += ct_jpeg_write_scan_header(frame, &ctx, codes, i,
                                             &next_dht_index, data + pos);
            int unknown_symbol = 0;
            pos += ct_jpeg_write_scan_data(frame, i, ctx.ac_offset[i], codes,
                                           &tokens[i], data + pos,
                                           &unknown_symbol);
            /* jpegli fails here too ("Unknown Huffman coded symbol"); only a
             * coefficient outside the range of 8-bit JPEG gets here. */
            if (unknown_symbol)
                rc = CT_EINVAL;
        }
        pos += ct_jpeg_write_eoi(data + pos);
    }

    if (tokens != NULL)
        for (int i = 0; i < num_scans; ++i)
            ct_jpeg_scan_tokens_free(&tokens[i]);
    free(tokens);
    free(hists);
    free(codes);
    if (rc != CT_OK) {
        free(data);
        return rc;
    }
    uint8_t *shrunk = realloc(data, pos);
    out->data = shrunk != NULL ? shrunk : data;
    out->size = pos;
    return CT_OK;
}
