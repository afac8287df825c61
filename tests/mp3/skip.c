/*
 * A test that cannot run where it is built: prints "SKIP: " and its
 * reason (the arguments) and exits 77, meson's "skipped", so that the test
 * stays in the list with why it did not run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    fputs("SKIP:", stdout);
    for (int i = 1; i < argc; i++)
        printf(" %s", argv[i]);
    putchar('\n');
    return 77;
}
