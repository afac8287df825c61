/*
 * What the ct elements share: the worker pools behind their threads
 * property (threads=0: one pool for the whole process), the SIMD property
 * of encoders whose SIMD level changes only the speed, and ctcore's error
 * codes posted as GStreamer errors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "ctelement.h"

#include <stdarg.h>

GST_DEBUG_CATEGORY_STATIC (gst_ct_element_debug);
#define GST_CAT_DEFAULT gst_ct_element_debug

static void
gst_ct_element_init_debug (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized)) {
    GST_DEBUG_CATEGORY_INIT (gst_ct_element_debug, "ctelement", 0,
        "ct elements' worker pools");
    g_once_init_leave (&initialized, 1);
  }
}

/**
 * gst_ct_element_install_threads_property:
 * @gobject_class: the element's class
 * @prop_id: the id the element's get_property and set_property know the
 *     property by
 *
 * Installs the "threads" property: an int from 0 (the default: the pool
 * shared by every ct element of the process, one worker per online CPU)
 * to %GST_CT_ELEMENT_MAX_THREADS (a pool of the element's own of that
 * many workers), read by gst_ct_element_start_pool(), so that it can only
 * change in the NULL and READY states.
 */
void
gst_ct_element_install_threads_property (GObjectClass * gobject_class,
    guint prop_id)
{
  g_object_class_install_property (gobject_class, prop_id,
      g_param_spec_int ("threads", "Threads",
          "Worker threads, the streaming thread included: 0 = the pool "
          "shared by every ct element of the process (one worker per online "
          "CPU), N = a pool of N of the element's own, 1 = all the work on "
          "the streaming thread; read when the element starts; the output "
          "bytes do not depend on it",
          0, GST_CT_ELEMENT_MAX_THREADS, GST_CT_ELEMENT_DEFAULT_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

/* The process-wide pool behind threads=0: created by the first element
 * that starts with it, shared by every ct element that starts with it
 * while it lives, released when the last of them stops. Its users hold a
 * reference each; the count says when to drop the reference kept here. */
static GMutex shared_pool_lock;
static ct_pool *shared_pool;
static guint shared_pool_users;

static ct_pool *
gst_ct_element_acquire_shared_pool (void)
{
  ct_pool *pool = NULL;

  g_mutex_lock (&shared_pool_lock);
  if (!shared_pool)
    shared_pool = ct_pool_new (0);
  if (shared_pool) {
    shared_pool_users++;
    pool = ct_pool_ref (shared_pool);
  }
  g_mutex_unlock (&shared_pool_lock);
  return pool;
}

/* Whether *pool was the shared pool; if so, drops its reference. */
static gboolean
gst_ct_element_release_shared_pool (ct_pool ** pool)
{
  ct_pool *last = NULL;

  g_mutex_lock (&shared_pool_lock);
  if (!shared_pool || *pool != shared_pool) {
    g_mutex_unlock (&shared_pool_lock);
    return FALSE;
  }
  if (--shared_pool_users == 0) {
    last = shared_pool;
    shared_pool = NULL;
  }
  g_mutex_unlock (&shared_pool_lock);

  /* Outside the lock: the last reference joins the workers. */
  g_clear_pointer (pool, ct_pool_unref);
  if (last)
    ct_pool_unref (last);
  return TRUE;
}

/**
 * gst_ct_element_start_pool:
 * @element: the element that starts
 * @threads: the element's threads property, read under the object lock
 * @pool: (out): where the pool goes
 *
 * Gives the element its worker pool, for its start vfunc: with *@threads
 * 0, a reference to the pool shared by every ct element of the process
 * (one worker per online CPU, created by the first element that needs it);
 * else a pool of its own of *@threads workers. On failure, posts an error
 * message.
 *
 * Returns: %TRUE with *@pool set, %FALSE on failure.
 */
gboolean
gst_ct_element_start_pool (GstElement * element, const gint * threads,
    ct_pool ** pool)
{
  gint n;

  gst_ct_element_init_debug ();
  GST_OBJECT_LOCK (element);
  n = *threads;
  GST_OBJECT_UNLOCK (element);

  *pool = n == 0 ? gst_ct_element_acquire_shared_pool () : ct_pool_new (n);
  if (!*pool) {
    GST_CT_ELEMENT_ERROR (element, CT_ENOMEM, NULL, "ct_pool_new",
        "Cannot start a pool of %d worker thread(s)", n);
    return FALSE;
  }
  GST_DEBUG_OBJECT (element, "%s pool of %d worker thread(s)",
      n == 0 ? "the shared" : "its own", ct_pool_threads (*pool));
  return TRUE;
}

/**
 * gst_ct_element_stop_pool:
 * @pool: the pool gst_ct_element_start_pool() set, or %NULL
 *
 * Releases the element's worker pool, for its stop vfunc, once the element
 * has freed the encoders that use it: its own pool's workers end, and the
 * shared pool's once the last element that uses it has stopped.
 */
void
gst_ct_element_stop_pool (ct_pool ** pool)
{
  if (*pool && !gst_ct_element_release_shared_pool (pool))
    g_clear_pointer (pool, ct_pool_unref);
}

/**
 * gst_ct_simd_get_type:
 *
 * The GstCtSimd enum: ct_simd's four levels, for encoders whose SIMD level
 * changes only their speed.
 *
 * Returns: the enum's #GType.
 */
/**
 * gst_ct_element_upstream_is_live:
 * @sinkpad: the element's sink pad
 *
 * Asks upstream, with a latency query, whether it is live: then the
 * elements bound the frames they hold back.
 *
 * Returns: %TRUE when upstream answered that it is live
 */
gboolean
gst_ct_element_upstream_is_live (GstPad * sinkpad)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = FALSE;

  if (gst_pad_peer_query (sinkpad, query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  gst_query_unref (query);
  return live;
}

GType
gst_ct_simd_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CT_SIMD_AUTO, "The best this CPU has; the CT_SIMD environment "
          "variable caps it", "auto"},
    {CT_SIMD_C, "The scalar code only", "c"},
    {CT_SIMD_SSE2, "At most SSE2", "sse2"},
    {CT_SIMD_AVX2, "At most AVX2 and FMA, where the CPU has them", "avx2"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCtSimd", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* The GStreamer error that a CT_E* code stands for, in the terms of an
 * element: its own settings, the stream or the system's resources. */
static void
error_for_code (int code, GQuark * domain, gint * gst_code)
{
  switch (code) {
    case CT_EINVAL:
    case CT_EUNSUPPORTED:
      *domain = GST_LIBRARY_ERROR;
      *gst_code = GST_LIBRARY_ERROR_SETTINGS;
      break;
    case CT_ENOMEM:
      *domain = GST_RESOURCE_ERROR;
      *gst_code = GST_RESOURCE_ERROR_FAILED;
      break;
    case CT_ETOOBIG:
      *domain = GST_STREAM_ERROR;
      *gst_code = GST_STREAM_ERROR_FORMAT;
      break;
    default:
      *domain = GST_STREAM_ERROR;
      *gst_code = GST_STREAM_ERROR_ENCODE;
      break;
  }
}

/**
 * gst_ct_element_post_error:
 * @element: the element that failed
 * @code: the CT_E* code that @function returned
 * @errbuf: (nullable): the message @function wrote, or %NULL or "" for none
 * @function: the name of the ctcore function that failed
 * @src_file: the source file of the failure
 * @src_function: the function of the failure
 * @src_line: the line of the failure
 * @format: printf-style format saying what failed
 * @...: its arguments
 *
 * Posts an error message for a ctcore failure: invalid or unsupported
 * settings are library settings errors, allocation failures resource
 * errors, streams too big for the format stream format errors, anything
 * else an encoding error. The message says what failed and why (@errbuf,
 * else ct_strerror()); the debug string names @function and @code. Use
 * GST_CT_ELEMENT_ERROR(), which fills in the source location.
 */
void
gst_ct_element_post_error (GstElement * element, int code,
    const char *errbuf, const gchar * function, const gchar * src_file,
    const gchar * src_function, gint src_line, const gchar * format, ...)
{
  GQuark domain;
  gint gst_code;
  gchar *what, *text, *debug;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  error_for_code (code, &domain, &gst_code);
  text = g_strdup_printf ("%s: %s", what, errbuf && errbuf[0] ? errbuf :
      ct_strerror (code));
  debug = g_strdup_printf ("%s returned %d (%s)", function, code,
      ct_strerror (code));
  g_free (what);
  gst_element_message_full (element, GST_MESSAGE_ERROR, domain, gst_code,
      text, debug, src_file, src_function, src_line);
}
