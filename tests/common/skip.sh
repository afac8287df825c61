#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Stands in for a test that this build cannot run, so that the test is still
# listed: prints why and exits 77, which meson test counts as a skip.
#
# skip.sh REASON...
echo "SKIP: $*"
exit 77
