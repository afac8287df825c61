/*
 * How the tools' readers and flag parsers report an error: a message in the
 * caller's errbuf and -1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TOOLS_TOOL_ERROR_H
#define CT_TOOLS_TOOL_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* Formats the message into errbuf (none when errbuf is NULL or
 * errbuf_size 0); returns -1. */
int ct_tool_error(char *errbuf, size_t errbuf_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int ct_tool_verror(char *errbuf, size_t errbuf_size, const char *fmt, va_list ap);

#endif
