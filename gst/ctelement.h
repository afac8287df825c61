/*
 * What the ct elements share: the worker pools behind their threads
 * property (threads=0: one pool for the whole process), the SIMD property
 * of encoders whose SIMD level changes only the speed, and ctcore's error
 * codes posted as GStreamer errors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_CT_ELEMENT_H
#define GST_CT_ELEMENT_H

#include <gst/gst.h>

#include "ctcore/ctcore.h"
#include "ctcore/runtime.h"

G_BEGIN_DECLS

/* threads = 0: the pool shared by the process, one worker per online CPU. */
#define GST_CT_ELEMENT_DEFAULT_THREADS 0
#define GST_CT_ELEMENT_MAX_THREADS 1024

void gst_ct_element_install_threads_property (GObjectClass * gobject_class,
    guint prop_id);

gboolean gst_ct_element_start_pool (GstElement * element,
    const gint * threads, ct_pool ** pool);
void gst_ct_element_stop_pool (ct_pool ** pool);

gboolean gst_ct_element_upstream_is_live (GstPad * sinkpad);

/*
 * ct_simd for the encoders whose SIMD level changes the speed only, never
 * the bytes (ctlameenc): auto, c, sse2, avx2. ctjpegenc has an enum of its
 * own, since there the level picks which jpegli build's bytes to write and
 * jpegli has no scalar build to match.
 */
#define GST_TYPE_CT_SIMD (gst_ct_simd_get_type ())
GType gst_ct_simd_get_type (void);

void gst_ct_element_post_error (GstElement * element, int code,
    const char *errbuf, const gchar * function, const gchar * src_file,
    const gchar * src_function, gint src_line, const gchar * format, ...)
    G_GNUC_PRINTF (8, 9);

/**
 * GST_CT_ELEMENT_ERROR:
 * @element: the element that failed
 * @code: the CT_E* code that @function returned
 * @errbuf: (nullable): the message @function wrote, or %NULL or "" for none
 * @function: the name of the ctcore function that failed
 * @...: printf-style format and arguments saying what failed
 *
 * Posts an error message for a ctcore failure, as GST_ELEMENT_ERROR would
 * from the calling line; see gst_ct_element_post_error().
 */
#define GST_CT_ELEMENT_ERROR(element, code, errbuf, function, ...) \
  gst_ct_element_post_error (GST_ELEMENT (element), code, errbuf, function, \
      __FILE__, GST_FUNCTION, __LINE__, __VA_ARGS__)

G_END_DECLS

#endif
