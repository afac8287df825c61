/*
 * The element against the reference: the library oracle's rows (every
 * corpus WAV under each row of opus_corpus_flags, and the synthetic WAVs)
 * through
 *   filesrc ! wavparse ! ctopusenc serial=N <properties> ! filesink
 * and through Debian's opusenc run here with the flags the properties
 * stand for; the files must be identical.
 *
 * usage: opus_element_oracle CORPUS_DIR [FILTER]
 * Exits 77 (skipped, "SKIP:" and the reason) without opusenc or wavparse.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "cases.h"

static gint identical, rows, failures;

/* The ctopusenc properties for opusenc's flags. */
static gchar *
properties_for_flags (const gchar * flags, guint32 serial)
{
  gchar **f = g_strsplit (flags, " ", -1);
  GString *p = g_string_new (NULL);

  g_string_append_printf (p, "serial=%u", serial);
  for (gint i = 0; f[i]; i++) {
    if (!*f[i])
      continue;
    if (!strcmp (f[i], "--cvbr"))
      g_string_append (p, " bitrate-type=constrained-vbr");
    else if (!strcmp (f[i], "--hard-cbr"))
      g_string_append (p, " bitrate-type=cbr");
    else if (!strcmp (f[i], "--music"))
      g_string_append (p, " signal=music");
    else if (!strcmp (f[i], "--speech"))
      g_string_append (p, " signal=voice");
    else if (f[i + 1]) {
      const gchar *v = f[++i];

      if (!strcmp (f[i - 1], "--bitrate"))
        g_string_append_printf (p, " bitrate=%d",
            (gint) (g_ascii_strtod (v, NULL) * 1000.));
      else if (!strcmp (f[i - 1], "--comp"))
        g_string_append_printf (p, " complexity=%s", v);
      else if (!strcmp (f[i - 1], "--framesize"))
        g_string_append_printf (p, " frame-size=%s", v);
      else if (!strcmp (f[i - 1], "--expect-loss"))
        g_string_append_printf (p, " packet-loss-percentage=%s", v);
      else if (!strcmp (f[i - 1], "--max-delay"))
        g_string_append_printf (p, " max-delay=%s", v);
    }
  }
  g_strfreev (f);
  return g_string_free (p, FALSE);
}

/* opusenc's flags without those that give a setting its default value
 * (`--comp 10`): a property at its default cannot say it was set, so the
 * element's ENCODER_OPTIONS leaves them out, as opusenc does when they are
 * not given. */
static gchar *
flags_without_defaults (const gchar * flags)
{
  static const gchar *const defaults[][2] = {
    {"--comp", "10"}, {"--framesize", "20"}, {"--expect-loss", "0"},
    {"--max-delay", "1000"},
  };
  gchar **f = g_strsplit (flags, " ", -1);
  GString *out = g_string_new (NULL);

  for (gint i = 0; f[i]; i++) {
    gboolean is_default = FALSE;

    for (gsize d = 0; f[i + 1] && d < G_N_ELEMENTS (defaults); d++)
      is_default |= !strcmp (f[i], defaults[d][0])
          && !strcmp (f[i + 1], defaults[d][1]);
    if (is_default) {
      i++;
      continue;
    }
    if (*f[i])
      g_string_append_printf (out, "%s%s", out->len ? " " : "", f[i]);
  }
  g_strfreev (f);
  return g_string_free (out, FALSE);
}

/* Runs the pipeline; TRUE at EOS, FALSE with the error's text in *why. */
static gboolean
run_element (const gchar * properties, const gchar * in, const gchar * out,
    gchar ** why)
{
  GError *error = NULL;
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! wavparse ! "
      "ctopusenc %s ! filesink location=\"%s\"", in, properties, out);
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstMessage *msg;
  GstBus *bus;
  gboolean ok;

  g_free (launch);
  if (!pipeline) {
    *why = g_strdup_printf ("cannot build the pipeline: %s", error->message);
    g_clear_error (&error);
    return FALSE;
  }
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!msg) {
    *why = g_strdup ("no EOS or error in 300 s");
  } else if (!ok) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, &error, &debug);
    *why = g_strdup_printf ("%s (%s)", error->message, debug ? debug : "");
    g_clear_error (&error);
    g_free (debug);
  }
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return ok;
}

/* path: the WAV the element encodes; ref_path: the one opusenc reads (the
 * same samples). */
static void
run_row (const gchar * label, const gchar * path, const gchar * ref_path,
    const gchar * flags, guint32 serial, const gchar * tmp)
{
  gchar *ref = g_build_filename (tmp, "ref.opus", NULL);
  gchar *got = g_build_filename (tmp, "got.opus", NULL);
  gchar *properties = properties_for_flags (flags, serial);
  gchar *why = NULL, *expected = NULL, *bytes = NULL;
  gsize expected_size = 0, size = 0;
  opus_census census;
  gboolean ok;

  gchar *reference_flags = flags_without_defaults (flags);
  gint opusenc_failed = opus_run_opusenc (reference_flags, serial, ref_path,
      ref) < 0;

  g_free (reference_flags);
  if (opusenc_failed
      || opus_census_file (ref, &census) < 0) {
    g_print ("FAIL %s [%s]: opusenc failed\n", label, flags);
    failures++;
    goto out;
  }
  ok = run_element (properties, path, got, &why);
  rows++;
  if (ok && g_file_get_contents (ref, &expected, &expected_size, NULL)
      && g_file_get_contents (got, &bytes, &size, NULL)
      && size == expected_size && memcmp (bytes, expected, size) == 0) {
    identical++;
    g_print ("ok %s [%s]: %" G_GSIZE_FORMAT " bytes; CELT %ld, SILK %ld, "
        "Hybrid %ld packets, %ld switches\n", label, properties, size,
        census.celt, census.silk, census.hybrid, census.switches);
  } else {
    gsize at = 0;

    while (bytes && expected && at < size && at < expected_size
        && bytes[at] == expected[at])
      at++;
    failures++;
    g_print ("FAIL %s [%s]: %s; opusenc %" G_GSIZE_FORMAT " bytes, element %"
        G_GSIZE_FORMAT ", first difference at %" G_GSIZE_FORMAT "\n", label,
        properties, ok ? "differ" : why, expected_size, size, at);
  }
out:
  g_unlink (ref);
  g_unlink (got);
  g_free (ref);
  g_free (got);
  g_free (properties);
  g_free (why);
  g_free (expected);
  g_free (bytes);
}

int
main (int argc, char **argv)
{
  const gchar *corpus = argc > 1 ? argv[1] : "";
  const gchar *filter = argc > 2 ? argv[2] : NULL;
  gchar why[256], *tmp;
  GstElementFactory *wavparse;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint32 serial = 1;
  GDir *dir;

  gst_init (&argc, &argv);
  if (!opus_have_opusenc (why, sizeof (why))) {
    g_print ("SKIP: %s\n", why);
    return 77;
  }
  wavparse = gst_element_factory_find ("wavparse");
  if (!wavparse) {
    g_print ("SKIP: no wavparse (Debian: gstreamer1.0-plugins-good)\n");
    return 77;
  }
  gst_object_unref (wavparse);
  tmp = g_dir_make_tmp ("ct_opus_element_XXXXXX", NULL);
  g_assert (tmp);

  dir = *corpus ? g_dir_open (corpus, 0, NULL) : NULL;
  if (dir) {
    const gchar *name;

    while ((name = g_dir_read_name (dir)))
      if (g_str_has_suffix (name, ".wav"))
        g_ptr_array_add (names, g_strdup (name));
    g_dir_close (dir);
    g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  } else {
    g_print ("no corpus at '%s': the synthetic WAVs only\n", corpus);
  }
  for (guint i = 0; i < names->len; i++) {
    const gchar *name = *(const gchar **) &names->pdata[i];
    gchar *path = g_build_filename (corpus, name, NULL);

    if (!filter || strstr (name, filter))
      for (gsize f = 0; f < opus_corpus_flags_count; f++)
        run_row (name, path, path, opus_corpus_flags[f], serial++, tmp);
    g_free (path);
  }
  for (gsize i = 0; i < opus_synthetic_count; i++) {
    const opus_synthetic *c = &opus_synthetic_cases[i];
    gchar *path, *ref_path;

    if (filter && !strstr (c->name, filter))
      continue;
    path = g_strdup_printf ("%s/%s.wav", tmp, c->name);
    ref_path = g_strdup_printf ("%s/%s_reference.wav", tmp, c->name);
    if (opus_write_synthetic (c, path) < 0
        || opus_write_synthetic_reference (c, ref_path) < 0) {
      g_print ("FAIL %s: cannot write the WAV\n", c->name);
      failures++;
    } else {
      run_row (c->name, path, ref_path, c->flags, serial++, tmp);
    }
    g_unlink (path);
    g_unlink (ref_path);
    g_free (path);
    g_free (ref_path);
  }
  for (gsize i = 0; names->len > 0 && i < opus_derived_count; i++) {
    const opus_derived *c = &opus_derived_cases[i];
    gchar *path;

    if (filter && !strstr (c->name, filter))
      continue;
    path = g_strdup_printf ("%s/%s.wav", tmp, c->name);
    if (opus_write_derived (c, corpus, path) < 0) {
      g_print ("FAIL %s: cannot make the WAV from the corpus\n", c->name);
      failures++;
    } else {
      run_row (c->name, path, path, c->flags, serial++, tmp);
    }
    g_unlink (path);
    g_free (path);
  }
  g_rmdir (tmp);
  g_free (tmp);
  g_ptr_array_unref (names);
  g_print ("%d of %d identical\n", identical, rows);
  return failures || rows == 0 ? 1 : 0;
}
