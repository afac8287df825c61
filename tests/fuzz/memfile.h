/*
 * The readers of tools/ take paths: the input is written to an anonymous
 * file (memfd), whose path /proc/self/fd/N they open.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_FUZZ_MEMFILE_H
#define CT_TESTS_FUZZ_MEMFILE_H

#include <stddef.h>
#include <stdint.h>

/* Writes data to a new anonymous file and its path into path (64 bytes).
 * Returns the file's descriptor, for memfile_close. */
int memfile_open(const uint8_t *data, size_t size, char path[64]);
void memfile_close(int fd);

#endif
