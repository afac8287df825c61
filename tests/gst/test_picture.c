/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test_picture.h"

test_picture
make_picture (guint width, guint height, guint32 seed)
{
  test_picture p = { width, height, g_malloc (width * height * 3),
    g_malloc (width * height)
  };
  guint32 s = seed * 2654435761u + 1;

  for (guint y = 0; y < height; y++) {
    for (guint x = 0; x < width; x++) {
      guint i = y * width + x;
      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      p.rgb[3 * i + 0] = (guint8) (x * 255 / MAX (width - 1, 1) + (s & 15));
      p.rgb[3 * i + 1] = (guint8) (y * 255 / MAX (height - 1, 1) + seed);
      p.rgb[3 * i + 2] = (guint8) (s >> 24);
      p.gray[i] = (guint8) ((x + y) * 4 + (s >> 28));
    }
  }
  return p;
}

void
free_picture (test_picture * p)
{
  g_free (p->rgb);
  g_free (p->gray);
}
