/*
 * The element against the reference: every WAV clip of the audio corpus,
 * under each setting, and WAVs the test writes (16-bit at every MPEG rate,
 * mono and stereo, under -V 2, -b 64 and --abr 96; 32-bit and float at
 * some), through
 *   filesrc ! wavparse ! ctlameenc <properties> ! filesink
 * (seekable, so the element rewrites the LAME tag at byte 0) and through
 * Debian's lame with the flags the properties stand for (a float WAV from
 * stdin, the reader whose conversion the element's F32LE follows); the
 * two files must be identical.
 *
 * usage: element_oracle LAME CORPUS_DIR
 * Without the corpus, the written WAVs only. Exits 77 (skipped, "SKIP:"
 * and the reason) without lame or wavparse.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

/* lame's flags and the ctlameenc properties that mean the same. lame's -q 0
 * has no property (lamemp3enc's engine qualities are -q 7, default and
 * -q 2), nor has a bare -m m (CBR at a bitrate that depends on the rate):
 * ctlame's own oracle covers those. */
static const struct
{
  const char *lame_flags;
  const char *properties;
} settings[] = {
  {"-V 2", "quality=2"},
  {"-b 128", "target=bitrate cbr=true bitrate=128"},
  {"--abr 160", "target=bitrate bitrate=160"},
  {"-V 4 -m m", "mono=true"},
  {"-V 0", "quality=0"},
  {"-V 9", "quality=9"},
  {"-V 4 -q 2", "encoding-engine-quality=high"},
  {"-V 4 -q 7", "encoding-engine-quality=fast"},
  {"-V 2 --noreplaygain", "quality=2 replaygain=false"},
  {"-V 2 -t", "quality=2 lametag=false"},
};

/* The generated WAVs' settings, in turn. */
static const struct
{
  const char *lame_flags;
  const char *properties;
} generated_settings[] = {
  {"-V 2", "quality=2"},
  {"-b 64", "target=bitrate cbr=true bitrate=64"},
  {"--abr 96", "target=bitrate bitrate=96"},
};

static const gint mpeg_rates[] = {
  8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000
};

/* Encodes with lame (reading `in` from stdin if from_stdin); FALSE with a
 * message when it fails. */
static gboolean
run_lame (const gchar * lame, const gchar * flags, const gchar * in,
    const gchar * out, gboolean from_stdin)
{
  gchar **flag_argv = g_strsplit (flags, " ", -1);
  GPtrArray *argv = g_ptr_array_new ();
  gchar *errors = NULL;
  GError *error = NULL;
  gint status;
  gboolean ok;

  if (from_stdin) {
    g_ptr_array_add (argv, (gpointer) "/bin/sh");
    g_ptr_array_add (argv, (gpointer) "-c");
    g_ptr_array_add (argv, (gpointer) "exec \"$@\" < \"$0\"");
    g_ptr_array_add (argv, (gpointer) in);
  }
  g_ptr_array_add (argv, (gpointer) lame);
  g_ptr_array_add (argv, (gpointer) "--quiet");
  for (gchar ** f = flag_argv; *f; f++)
    g_ptr_array_add (argv, *f);
  g_ptr_array_add (argv, (gpointer) (from_stdin ? "-" : in));
  g_ptr_array_add (argv, (gpointer) out);
  g_ptr_array_add (argv, NULL);
  ok = g_spawn_sync (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &errors, &status, &error)
      && g_spawn_check_wait_status (status, &error);
  if (!ok)
    g_printerr ("  lame %s failed: %s %s\n", flags, error->message,
        errors ? errors : "");
  g_clear_error (&error);
  g_free (errors);
  g_ptr_array_unref (argv);
  g_strfreev (flag_argv);
  return ok;
}

/* Sets "name=value name=value ..." on the element. */
static void
set_properties (GstElement * element, const gchar * properties)
{
  gchar **assignments = g_strsplit (properties, " ", -1);

  for (gchar ** a = assignments; *a; a++) {
    gchar **pair = g_strsplit (*a, "=", 2);

    gst_util_set_object_arg (G_OBJECT (element), pair[0], pair[1]);
    g_strfreev (pair);
  }
  g_strfreev (assignments);
}

/* Encodes with the element; FALSE with a message when the pipeline fails. */
static gboolean
run_element (const gchar * properties, const gchar * in, const gchar * out)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch ("filesrc name=src ! wavparse ! "
      "ctlameenc name=enc ! filesink name=sink", &error);
  GstElement *element;
  GstMessage *msg;
  GstBus *bus;
  gboolean ok;

  if (!pipeline) {
    g_printerr ("  cannot build the pipeline: %s\n", error->message);
    g_clear_error (&error);
    return FALSE;
  }
  element = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  g_object_set (element, "location", in, NULL);
  gst_object_unref (element);
  element = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (element, "location", out, NULL);
  gst_object_unref (element);
  element = gst_bin_get_by_name (GST_BIN (pipeline), "enc");
  set_properties (element, properties);
  gst_object_unref (element);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!ok) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, &error, &debug);
    g_printerr ("  pipeline error: %s (%s)\n", error->message,
        debug ? debug : "");
    g_clear_error (&error);
    g_free (debug);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  return ok;
}

/* TRUE if the files are identical; otherwise says where they differ. */
static gboolean
same_bytes (const gchar * expected_path, const gchar * got_path)
{
  gchar *expected = NULL, *got = NULL;
  gsize expected_size = 0, got_size = 0;
  gboolean same = FALSE;

  if (!g_file_get_contents (expected_path, &expected, &expected_size, NULL) ||
      !g_file_get_contents (got_path, &got, &got_size, NULL)) {
    g_printerr ("  cannot read the outputs\n");
  } else if (expected_size == got_size &&
      memcmp (expected, got, got_size) == 0) {
    same = TRUE;
  } else {
    gsize at = 0;

    while (at < expected_size && at < got_size && expected[at] == got[at])
      at++;
    g_printerr ("  differ: lame %" G_GSIZE_FORMAT " bytes, element %"
        G_GSIZE_FORMAT " bytes, first difference at byte %" G_GSIZE_FORMAT
        "\n", expected_size, got_size, at);
  }
  g_free (expected);
  g_free (got);
  return same;
}

/* Writes a WAV of 0.6 s: tones, a sweep to the rate's Nyquist frequency
 * and noise at about -3 dBFS, as 16- or 32-bit integers or floats. */
static gchar *
write_wav (const gchar * dir, gint rate, gint channels, gint bits,
    gboolean is_float)
{
  gchar *path = g_strdup_printf ("%s/gen_%d_%s_%s%d.wav", dir, rate,
      channels == 2 ? "stereo" : "mono", is_float ? "f" : "s", bits);
  gint frames = rate * 3 / 5, bytes = bits / 8;
  guint32 data = (guint32) (frames * channels * bytes), seed = rate + channels;
  GByteArray *b = g_byte_array_new ();
  guint8 header[44];

  memcpy (header, "RIFF", 4);
  GST_WRITE_UINT32_LE (header + 4, 36 + data);
  memcpy (header + 8, "WAVEfmt ", 8);
  GST_WRITE_UINT32_LE (header + 16, 16);
  GST_WRITE_UINT16_LE (header + 20, is_float ? 3 : 1);
  GST_WRITE_UINT16_LE (header + 22, channels);
  GST_WRITE_UINT32_LE (header + 24, rate);
  GST_WRITE_UINT32_LE (header + 28, rate * channels * bytes);
  GST_WRITE_UINT16_LE (header + 32, channels * bytes);
  GST_WRITE_UINT16_LE (header + 34, bits);
  memcpy (header + 36, "data", 4);
  GST_WRITE_UINT32_LE (header + 40, data);
  g_byte_array_append (b, header, sizeof (header));
  for (gint i = 0; i < frames; i++) {
    gdouble t = (gdouble) i / rate, T = (gdouble) frames / rate;
    for (gint c = 0; c < channels; c++) {
      guint8 sample[4];
      gdouble v;

      seed = seed * 1664525u + 1013904223u;
      v = 0.35 * sin (2 * G_PI * (330 + 220 * c) * t) +
          0.25 * sin (2 * G_PI * (50 * t + (rate / 2.0 - 50) * t * t /
              (2 * T)) + c) + 0.1 * ((gdouble) (seed >> 8) / (1 << 24) - 0.5);
      if (is_float) {
        gfloat f = (gfloat) v;
        memcpy (sample, &f, 4);
      } else if (bits == 16) {
        GST_WRITE_UINT16_LE (sample, (guint16) (gint16) lrint (v * 32767));
      } else {
        GST_WRITE_UINT32_LE (sample, (guint32) (gint32) lrint (v * 2147483647.0));
      }
      g_byte_array_append (b, sample, bytes);
    }
  }
  g_assert (g_file_set_contents (path, (const gchar *) b->data, b->len, NULL));
  g_byte_array_unref (b);
  return path;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

int
main (int argc, char **argv)
{
  const gchar *lame, *corpus_dir, *name;
  GPtrArray *clips = g_ptr_array_new_with_free_func (g_free);
  gchar *tmp_dir, *lame_out, *element_out;
  guint identical = 0, total = 0;
  GDir *dir;

  gst_init (&argc, &argv);
  if (argc != 3) {
    g_printerr ("usage: %s LAME CORPUS_DIR\n", argv[0]);
    return 1;
  }
  lame = argv[1];
  corpus_dir = argv[2];
  if (!g_file_test (lame, G_FILE_TEST_IS_EXECUTABLE)) {
    g_print ("SKIP: no lame program (got '%s'): apt-get install lame\n",
        lame);
    return 77;
  }
  if (!gst_registry_check_feature_version (gst_registry_get (), "wavparse",
          GST_VERSION_MAJOR, GST_VERSION_MINOR, 0)) {
    g_print ("SKIP: no wavparse element (gst-plugins-good)\n");
    return 77;
  }
  dir = g_dir_open (corpus_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".wav"))
      g_ptr_array_add (clips, g_build_filename (corpus_dir, name, NULL));
  if (dir)
    g_dir_close (dir);
  if (clips->len == 0)
    g_print ("no .wav clips in %s: the generated WAVs only\n", corpus_dir);
  g_ptr_array_sort (clips, compare_strings);

  tmp_dir = g_dir_make_tmp ("ct-element-oracle-XXXXXX", NULL);
  g_assert (tmp_dir != NULL);
  lame_out = g_build_filename (tmp_dir, "lame.mp3", NULL);
  element_out = g_build_filename (tmp_dir, "element.mp3", NULL);

  /* every rate and channel count in 16 bits, 32-bit integers and floats
   * at four of them; the settings in turn */
  for (guint w = 0; w < 2 * G_N_ELEMENTS (mpeg_rates) + 8; w++) {
    gboolean wide = w >= 2 * G_N_ELEMENTS (mpeg_rates);
    guint k = wide ? w - 2 * G_N_ELEMENTS (mpeg_rates) : w;
    gint rate = wide ? mpeg_rates[1 + 2 * (k / 2)] : mpeg_rates[k / 2];
    gint channels = wide ? 1 + k / 2 % 2 : 1 + k % 2;
    gboolean is_float = wide && k % 2 == 1;
    gchar *wav = write_wav (tmp_dir, rate, channels, wide ? 32 : 16,
        is_float);
    gchar *base = g_path_get_basename (wav);

    for (guint s = 0; s < G_N_ELEMENTS (generated_settings); s++) {
      const gchar *flags = generated_settings[s].lame_flags;
      const gchar *properties = generated_settings[s].properties;
      gboolean same = run_lame (lame, flags, wav, lame_out, is_float)
          && run_element (properties, wav, element_out)
          && same_bytes (lame_out, element_out);

      g_print ("%s %s [%s%s] / %s\n", same ? "identical" : "DIFFERENT", base,
          flags, is_float ? ", from stdin" : "", properties);
      identical += same;
      total++;
      g_unlink (lame_out);
      g_unlink (element_out);
    }
    g_unlink (wav);
    g_free (base);
    g_free (wav);
  }

  for (guint c = 0; c < clips->len; c++) {
    const gchar *clip = g_ptr_array_index (clips, c);
    gchar *base = g_path_get_basename (clip);

    for (guint s = 0; s < G_N_ELEMENTS (settings); s++) {
      gboolean same = run_lame (lame, settings[s].lame_flags, clip, lame_out,
          FALSE)
          && run_element (settings[s].properties, clip, element_out)
          && same_bytes (lame_out, element_out);

      g_print ("%s %s [%s] / %s\n", same ? "identical" : "DIFFERENT", base,
          settings[s].lame_flags, settings[s].properties);
      identical += same;
      total++;
      g_unlink (lame_out);
      g_unlink (element_out);
    }
    g_free (base);
  }
  g_rmdir (tmp_dir);
  g_print ("element: %u of %u identical\n", identical, total);

  g_free (lame_out);
  g_free (element_out);
  g_free (tmp_dir);
  g_ptr_array_unref (clips);
  return identical == total ? 0 : 1;
}
