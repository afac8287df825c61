/*
 * The CELT mode lookup. Ports opus_custom_mode_create of celt/modes.c for
 * the one mode the encoder uses: libopus returns its static standard mode
 * for 48000 Hz and 960 samples without building anything.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 (BSD-3-Clause, Xiph.Org Foundation and
 * contributors)
 */
#include "mode.h"

const ct_celt_mode *ct_celt_mode_get(void)
{
    return &ct_celt_mode48000_960_120;
}
