/*
 * The "ct" plugin: GStreamer elements over ctcore's parallel, byte-exact
 * encoders.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <gst/gst.h>

#include "ctjpegenc.h"
#include "ctlameenc.h"
#include "ctopusenc.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean registered = FALSE;

  registered |= GST_ELEMENT_REGISTER (ctjpegenc, plugin);
  registered |= GST_ELEMENT_REGISTER (ctlameenc, plugin);
  registered |= GST_ELEMENT_REGISTER (ctopusenc, plugin);
  return registered;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, ct,
    "Parallel, byte-exact encoders (ctcore)", plugin_init, VERSION, "LGPL",
    GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
