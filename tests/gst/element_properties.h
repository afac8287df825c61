/*
 * ctjpegenc's properties for cjpegli's settings, as a launch-line string.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_ELEMENT_PROPERTIES_H
#define CT_TESTS_ELEMENT_PROPERTIES_H

#include <glib-object.h>

#include "ctcore/jpeg.h"

/* Appends " name=value" for each setting that differs from the defaults
 * (so that the element's defaults are checked against cjpegli's too), and
 * simd always. */
void ct_element_properties(const ct_jpeg_settings *s, GString *out);

/* Sets every encoding property of a ctjpegenc to s. */
void ct_element_set_properties(GObject *element, const ct_jpeg_settings *s);

#endif
