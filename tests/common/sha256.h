/*
 * SHA-256 (FIPS 180-4), for the tests that compare files with the hashes
 * kept in the tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_SHA256_H
#define CT_TESTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define CT_SHA256_HEX_SIZE 65 /* 64 hex digits and the NUL */

/* The SHA-256 of size bytes at data, as 64 lowercase hex digits in hex. */
void ct_sha256_hex(const uint8_t *data, size_t size,
                   char hex[CT_SHA256_HEX_SIZE]);

#endif
