/*
 * The test pictures of the ctjpegenc tests (ctjpegenc.c, stress.c):
 * gradients plus a little noise, different per seed, as packed RGB and
 * packed gray.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CT_TESTS_GST_TEST_PICTURE_H
#define CT_TESTS_GST_TEST_PICTURE_H

#include <glib.h>

typedef struct test_picture
{
  guint width, height;
  guint8 *rgb;                  /* packed RGB */
  guint8 *gray;                 /* packed gray */
} test_picture;

test_picture make_picture (guint width, guint height, guint32 seed);
void free_picture (test_picture * p);

#endif
