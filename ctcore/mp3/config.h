/*
 * Session set-up: what LAME's lame_init, the CLI's lame_set_* calls and
 * lame_init_params do before the first sample, for ct_mp3_settings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from LAME 3.100 libmp3lame/lame.c and presets.c (LGPL-2.0-or-later,
 * the LAME project)
 */
#ifndef CTCORE_MP3_CONFIG_H
#define CTCORE_MP3_CONFIG_H

#include "ctcore/mp3.h"

#include "state.h"

/* gfc must be zeroed. Fills gfc->flags as lame_init and the CLI leave them,
 * then runs lame_init_params (psychoacoustic, quantization, bitstream, LAME
 * tag and ReplayGain initialisation included). Returns CT_OK or CT_EINVAL
 * for settings LAME would refuse. */
int ct_mp3_config_init(ct_mp3_state *gfc, const ct_mp3_settings *settings);

#endif
