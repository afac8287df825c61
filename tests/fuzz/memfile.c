/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "memfile.h"

int memfile_open(const uint8_t *data, size_t size, char path[64])
{
    const int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
    fuzz_assert(fd >= 0);
    for (size_t done = 0; done < size;) {
        const ssize_t written = write(fd, data + done, size - done);
        fuzz_assert(written > 0);
        done += (size_t)written;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

void memfile_close(int fd)
{
    close(fd);
}
