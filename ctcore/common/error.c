/*
 * ct_strerror: the message of each CT_E* code.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ctcore/ctcore.h"

const char *ct_strerror(int code)
{
    switch (code) {
    case CT_OK:
        return "success";
    case CT_EINVAL:
        return "invalid argument or setting";
    case CT_ENOMEM:
        return "out of memory";
    case CT_ETOOBIG:
        return "image or stream too big for the format";
    case CT_EUNSUPPORTED:
        return "not supported";
    case CT_EAGAIN:
        return "no output ready: send more input";
    case CT_EOF:
        return "end of stream";
    case CT_ESTATE:
        return "not allowed in the current state";
    }
    return "unknown error";
}
