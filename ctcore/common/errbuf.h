/*
 * Error messages for the caller's errbuf (NULL or zero-sized: no message),
 * for ctcore and for the tools' readers and flag parsers alike.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_COMMON_ERRBUF_H
#define CTCORE_COMMON_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#if defined(__GNUC__)
#define CT_PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CT_PRINTF_LIKE(fmt, args)
#endif

/* Formats a message into errbuf (truncated to fit) and returns code. */
static inline int ct_errbuf_vset(char *errbuf, size_t errbuf_size, int code,
                                 const char *fmt, va_list args)
{
    if (errbuf != NULL && errbuf_size > 0)
        vsnprintf(errbuf, errbuf_size, fmt, args);
    return code;
}

/* The same with the arguments in place, so that a failure reads:
 * return ct_errbuf_set(errbuf, size, CT_EINVAL, ...). */
static inline int ct_errbuf_set(char *errbuf, size_t errbuf_size, int code,
                                const char *fmt, ...) CT_PRINTF_LIKE(4, 5);

static inline int ct_errbuf_set(char *errbuf, size_t errbuf_size, int code,
                                const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    ct_errbuf_vset(errbuf, errbuf_size, code, fmt, args);
    va_end(args);
    return code;
}

#endif
