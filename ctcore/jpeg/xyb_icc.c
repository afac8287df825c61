/*
 * The ICC profile of cjpegli's XYB mode: jpegli's profile for the XYB color
 * encoding with perceptual rendering intent. Its A2B0 tag undoes the scaled
 * XYB of xyb.c (B curves, CLUT, M curves, matrix), its B2A0 is a no-op.
 *
 * Ported from jpegli lib/cms/jpegli_cms_internal.h (MaybeCreateProfileImpl
 * and the functions it calls, for the XYB encoding only), lib/base/
 * matrix_ops.h and lib/cms/opsin_params.h (BSD-3-Clause, Copyright the JPEG
 * XL Project Authors).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xyb.h"
#include "xyb_params.h"

#define ICC_HEADER_SIZE 128
#define ICC_MAX_TAGS 6
/* The tag data of the XYB profile is 516 bytes. */
#define ICC_TAG_DATA_CAPACITY 1024

typedef struct icc_tag_data {
    uint8_t bytes[ICC_TAG_DATA_CAPACITY];
    size_t size;
    /* tag table entries: signature, offset into bytes, size */
    char signature[ICC_MAX_TAGS][4];
    size_t offset[ICC_MAX_TAGS];
    size_t length[ICC_MAX_TAGS];
    int count;
    size_t tag_start; /* where the tag being written began */
} icc_tag_data;

static void store_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void store_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put_u8(icc_tag_data *t, uint8_t v)
{
    t->bytes[t->size++] = v;
}

static void put_u16(icc_tag_data *t, uint16_t v)
{
    store_u16(t->bytes + t->size, v);
    t->size += 2;
}

static void put_u32(icc_tag_data *t, uint32_t v)
{
    store_u32(t->bytes + t->size, v);
    t->size += 4;
}

static void put_signature(icc_tag_data *t, const char sig[4])
{
    memcpy(t->bytes + t->size, sig, 4);
    t->size += 4;
}

/* WriteICCS15Fixed16: round(value * 65536) in two's complement. Every value
 * of this profile is well inside the s15Fixed16 range. */
static void put_s15fixed16(icc_tag_data *t, float value)
{
    put_u32(t, (uint32_t)(int32_t)lroundf(value * 65536.0f));
}

/* FinalizeICCTag + AddToICCTagTable: pad the tag to 4 bytes and list it. */
static void end_tag(icc_tag_data *t, const char sig[4])
{
    while (t->size & 3)
        put_u8(t, 0);
    memcpy(t->signature[t->count], sig, 4);
    t->offset[t->count] = t->tag_start;
    t->length[t->count] = t->size - t->tag_start;
    t->count++;
    t->tag_start = t->size;
}

/* CreateICCMlucTag for an ASCII text: one enUS record in UTF-16BE. */
static void put_mluc(icc_tag_data *t, const char *text)
{
    const size_t len = strlen(text);
    put_signature(t, "mluc");
    put_u32(t, 0);
    put_u32(t, 1);
    put_u32(t, 12);
    put_signature(t, "enUS");
    put_u32(t, (uint32_t)(len * 2));
    put_u32(t, 28);
    for (size_t i = 0; i < len; i++) {
        put_u8(t, 0);
        put_u8(t, (uint8_t)text[i]);
    }
}

/* CreateICCCurvParaTag */
static void put_para(icc_tag_data *t, uint16_t function_type,
                     const float *params, int num_params)
{
    put_signature(t, "para");
    put_u32(t, 0);
    put_u16(t, function_type);
    put_u16(t, 0);
    for (int i = 0; i < num_params; i++)
        put_s15fixed16(t, params[i]);
}

typedef struct mat3 {
    float m[3][3];
} mat3;

/* Mul3x3Vector: c = a * b, accumulated in double. */
static void mul3x3_vector(const mat3 *a, const float b[3], float c[3])
{
    for (int y = 0; y < 3; y++) {
        double e = 0;
        for (int x = 0; x < 3; x++)
            e += (double)a->m[y][x] * b[x];
        c[y] = (float)e;
    }
}

/* Mul3x3Matrix: c = a * b, each entry a double sum of three products. */
static void mul3x3_matrix(const mat3 *a, const mat3 *b, mat3 *c)
{
    for (int x = 0; x < 3; x++) {
        const double col[3] = {b->m[0][x], b->m[1][x], b->m[2][x]};
        for (int y = 0; y < 3; y++)
            c->m[y][x] = (float)(a->m[y][0] * col[0] + a->m[y][1] * col[1] +
                                 a->m[y][2] * col[2]);
    }
}

/* AdaptToXYZD50: Bradford chromatic adaptation from white point (wx, wy)
 * to D50, for the chad tag. */
static void adapt_to_xyz_d50(float wx, float wy, mat3 *matrix)
{
    static const mat3 kBradford = {{
        {0.8951f, 0.2664f, -0.1614f},
        {-0.7502f, 1.7135f, 0.0367f},
        {0.0389f, -0.0685f, 1.0296f},
    }};
    static const mat3 kBradfordInv = {{
        {0.9869929f, -0.1470543f, 0.1599627f},
        {0.4323053f, 0.5183603f, 0.0492912f},
        {-0.0085287f, 0.0400428f, 0.9684867f},
    }};
    const float w[3] = {wx / wy, 1.0f, (1.0f - wx - wy) / wy};
    const float w50[3] = {0.96422f, 1.0f, 0.82521f};
    float lms[3], lms50[3];
    mul3x3_vector(&kBradford, w, lms);
    mul3x3_vector(&kBradford, w50, lms50);
    const mat3 a = {{
        {lms50[0] / lms[0], 0, 0},
        {0, lms50[1] / lms[1], 0},
        {0, 0, lms50[2] / lms[2]},
    }};
    mat3 b;
    mul3x3_matrix(&a, &kBradford, &b);
    mul3x3_matrix(&kBradfordInv, &b, matrix);
}

/* The affine map from scaled XYB back to XYB and its inverse scale, in the
 * float arithmetic of opsin_params.h's constexpr kXYBOffset/kXYBScale. */
static void xyb_offset_scale(float offset[3], float scale[3])
{
    offset[0] = CT_XYB_SCALED_OFFSET0 + CT_XYB_SCALED_OFFSET1;
    offset[1] = CT_XYB_SCALED_OFFSET1 - CT_XYB_SCALED_OFFSET0 +
                (1.0f / CT_XYB_SCALED_SCALE0);
    offset[2] = CT_XYB_SCALED_OFFSET1 + CT_XYB_SCALED_OFFSET2;
    /* ReciprocialSum: 1 / (1/r1 + 1/r2) as r1 r2 / (r1 + r2) */
    scale[0] = (CT_XYB_SCALED_SCALE0 * CT_XYB_SCALED_SCALE1) /
               (CT_XYB_SCALED_SCALE0 + CT_XYB_SCALED_SCALE1);
    scale[1] = scale[0];
    scale[2] = (CT_XYB_SCALED_SCALE1 * CT_XYB_SCALED_SCALE2) /
               (CT_XYB_SCALED_SCALE1 + CT_XYB_SCALED_SCALE2);
}

/* UnscaledA2BCorner: the CLUT value at corner (x, y, b) of the unit cube of
 * scaled XYB (x, y, b in {0, 1}). */
static void unscaled_a2b_corner(int x, int y, int b, const float offset[3],
                                const float scale[3], float out[3])
{
    /* XYBCorner: back to XYB (the third channel is B - Y) */
    const float xyb0 = (float)x / CT_XYB_SCALED_SCALE0 - CT_XYB_SCALED_OFFSET0;
    const float xyb1 = (float)y / CT_XYB_SCALED_SCALE1 - CT_XYB_SCALED_OFFSET1;
    const float xyb2 = (float)b / CT_XYB_SCALED_SCALE2 - CT_XYB_SCALED_OFFSET2;
    /* ScaledA2BCorner */
    const float corner[3] = {xyb1 + xyb0, xyb1 - xyb0, xyb2 + xyb1};
    for (int i = 0; i < 3; i++)
        out[i] = (corner[i] + offset[i]) * scale[i];
}

/* CreateICCLutAtoBTagForXYB */
static void put_a2b0(icc_tag_data *t)
{
    static const float kIdentity[1] = {1.0f};
    /* XYZ from the opsin-absorbance-mixed values minus their bias. */
    static const double kMatrix[9] = {
        1.5170095, -1.1065225, 0.071623,
        -0.050022, 0.5683655,  -0.018344,
        -1.387676, 1.1145555,  0.6857255,
    };
    const float neg_bias = -CT_XYB_BIAS;
    /* cbrtf(neg_bias): cbrtf is odd */
    const float neg_bias_cbrt = -CT_XYB_BIAS_CBRT;
    float offset[3], scale[3];
    xyb_offset_scale(offset, scale);

    put_signature(t, "mAB ");
    put_u32(t, 0);
    put_u8(t, 3);    /* input channels */
    put_u8(t, 3);    /* output channels */
    put_u16(t, 0);
    put_u32(t, 32);  /* B curves */
    put_u32(t, 244); /* matrix */
    put_u32(t, 148); /* M curves */
    put_u32(t, 80);  /* CLUT */
    put_u32(t, 32);  /* A curves: the same no-op curves as B */

    /* offset 32: B (and A) curves, no-ops */
    for (int i = 0; i < 3; i++)
        put_para(t, 0, kIdentity, 1);

    /* offset 80: a 2x2x2 CLUT, 16-bit precision */
    for (int i = 0; i < 16; i++)
        put_u8(t, i < 3 ? 2 : 0);
    put_u8(t, 2);
    put_u8(t, 0);
    put_u16(t, 0);
    for (int ix = 0; ix < 2; ix++) {
        for (int iy = 0; iy < 2; iy++) {
            for (int ib = 0; ib < 2; ib++) {
                float out[3];
                unscaled_a2b_corner(ix, iy, ib, offset, scale, out);
                for (int i = 0; i < 3; i++)
                    put_u16(t, (uint16_t)lroundf(65535 * out[i]));
            }
        }
    }

    /* offset 148: M curves, cubes that undo the cube root and its bias */
    for (int i = 0; i < 3; i++) {
        const float b = -offset[i] - neg_bias_cbrt;
        const float d = -b * scale[i];
        const float params[5] = {3, 1.0f / scale[i], b, 0, d > 0.0f ? d : 0.0f};
        put_para(t, 3, params, 5);
    }

    /* offset 244: the matrix, then the offsets that remove the bias */
    for (int i = 0; i < 9; i++)
        put_s15fixed16(t, (float)kMatrix[i]);
    for (int i = 0; i < 3; i++) {
        float intercept = 0;
        for (int j = 0; j < 3; j++)
            intercept = (float)(intercept + kMatrix[i * 3 + j] * neg_bias);
        put_s15fixed16(t, intercept);
    }
}

/* CreateICCNoOpBToATag */
static void put_b2a0(icc_tag_data *t)
{
    static const float kIdentity[1] = {1.0f};
    put_signature(t, "mBA ");
    put_u32(t, 0);
    put_u8(t, 3);
    put_u8(t, 3);
    put_u16(t, 0);
    put_u32(t, 32); /* B curves */
    put_u32(t, 0);
    put_u32(t, 0);
    put_u32(t, 0);
    put_u32(t, 0);
    for (int i = 0; i < 3; i++)
        put_para(t, 0, kIdentity, 1);
}

static void write_tags(icc_tag_data *t)
{
    /* The CIE xy of D65 that jpegli stores for the XYB encoding. */
    const double white_x = 0.3127, white_y = 0.3290;
    const float d50[3] = {0.964203f, 1.0f, 0.824905f};
    mat3 chad;

    /* ColorEncodingDescriptionImpl of XYB, perceptual */
    put_mluc(t, "XYB_Per");
    end_tag(t, "desc");

    put_mluc(t, "CC0");
    end_tag(t, "cprt");

    put_signature(t, "XYZ ");
    put_u32(t, 0);
    for (int i = 0; i < 3; i++)
        put_s15fixed16(t, d50[i]);
    end_tag(t, "wtpt");

    adapt_to_xyz_d50((float)white_x, (float)white_y, &chad);
    put_signature(t, "sf32");
    put_u32(t, 0);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            put_s15fixed16(t, chad.m[j][i]);
    end_tag(t, "chad");

    put_a2b0(t);
    end_tag(t, "A2B0");

    put_b2a0(t);
    end_tag(t, "B2A0");
}

/* CreateICCHeader for the XYB encoding, perceptual intent. The size and the
 * MD5 are filled in later. */
static void write_header(uint8_t h[ICC_HEADER_SIZE])
{
    memset(h, 0, ICC_HEADER_SIZE);
    memcpy(h + 4, "jxl ", 4);   /* CMM */
    store_u32(h + 8, 0x04400000u); /* version 4.4 */
    memcpy(h + 12, "scnr", 4);
    memcpy(h + 16, "RGB ", 4);
    memcpy(h + 20, "XYZ ", 4);
    /* date 2019-12-01 00:00:00, a fixed placeholder */
    store_u16(h + 24, 2019);
    store_u16(h + 26, 12);
    store_u16(h + 28, 1);
    memcpy(h + 36, "acsp", 4);
    memcpy(h + 40, "APPL", 4);
    /* flags, device, attributes zero; rendering intent 0: perceptual */
    store_u32(h + 68, 0x0000f6d6u); /* PCS illuminant D50 */
    store_u32(h + 72, 0x00010000u);
    store_u32(h + 76, 0x0000d32du);
    memcpy(h + 80, "jxl ", 4);   /* creator */
}

/* ICCComputeMD5: one 64-byte block. */
static void md5_block(uint32_t state[4], const uint8_t block[64])
{
    static const uint32_t kSineParts[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf,
        0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af,
        0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e,
        0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
        0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6,
        0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
        0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
        0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
        0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97,
        0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d,
        0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
        0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
    };
    static const uint8_t kShift[64] = {
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    };
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (unsigned j = 0; j < 64; j++) {
        uint32_t f;
        unsigned g;
        if (j < 16) {
            f = (b & c) | (~b & d);
            g = j;
        } else if (j < 32) {
            f = (d & b) | (~d & c);
            g = (5 * j + 1) & 15;
        } else if (j < 48) {
            f = b ^ c ^ d;
            g = (3 * j + 5) & 15;
        } else {
            f = c ^ (b | ~d);
            g = (7 * j) & 15;
        }
        const uint8_t *w = block + 4 * g;
        const uint32_t u = (uint32_t)w[0] | (uint32_t)w[1] << 8 |
                           (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
        f += a + kSineParts[j] + u;
        a = d;
        d = c;
        c = b;
        b += (f << kShift[j]) | (f >> (32 - kShift[j]));
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

/* ICCComputeMD5: MD5 of data, little-endian state words as the digest. */
static void md5(const uint8_t *data, size_t size, uint8_t sum[16])
{
    uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    size_t pos = 0;
    for (; size - pos >= 64; pos += 64)
        md5_block(state, data + pos);
    /* The rest, 0x80, zeros up to 8 bytes before a block end, bit length. */
    uint8_t tail[128] = {0};
    const size_t rest = size - pos;
    memcpy(tail, data + pos, rest);
    tail[rest] = 0x80;
    const size_t tail_size = rest + 1 + 8 <= 64 ? 64 : 128;
    const uint64_t bits = (uint64_t)size << 3;
    for (size_t i = 0; i < 8; i++)
        tail[tail_size - 8 + i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < tail_size; i += 64)
        md5_block(state, tail + i);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            sum[4 * i + k] = (uint8_t)(state[i] >> (8 * k));
}

int ct_jpeg_xyb_icc(uint8_t **icc, size_t *size)
{
    icc_tag_data tags;
    tags.size = 0;
    tags.count = 0;
    tags.tag_start = 0;
    write_tags(&tags);

    const size_t table_size = 4 + 12 * (size_t)tags.count;
    const size_t total = ICC_HEADER_SIZE + table_size + tags.size;
    uint8_t *p = malloc(total);
    if (!p)
        return CT_ENOMEM;

    write_header(p);
    store_u32(p, (uint32_t)total);
    uint8_t *table = p + ICC_HEADER_SIZE;
    store_u32(table, (uint32_t)tags.count);
    for (int i = 0; i < tags.count; i++) {
        uint8_t *entry = table + 4 + 12 * i;
        memcpy(entry, tags.signature[i], 4);
        store_u32(entry + 4, (uint32_t)(ICC_HEADER_SIZE + table_size +
                                        tags.offset[i]));
        store_u32(entry + 8, (uint32_t)tags.length[i]);
    }
    memcpy(table + table_size, tags.bytes, tags.size);

    /* The profile ID is the MD5 of the profile with its flags, rendering
     * intent and ID fields zeroed; all three are zero here. */
    md5(p, total, p + 84);

    *icc = p;
    *size = total;
    return CT_OK;
}
