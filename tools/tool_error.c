/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "tool_error.h"

#include <stdio.h>

int ct_tool_verror(char *errbuf, size_t errbuf_size, const char *fmt, va_list ap)
{
    if (errbuf != NULL && errbuf_size > 0)
        vsnprintf(errbuf, errbuf_size, fmt, ap);
    return -1;
}

int ct_tool_error(char *errbuf, size_t errbuf_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_tool_verror(errbuf, errbuf_size, fmt, ap);
    va_end(ap);
    return -1;
}
