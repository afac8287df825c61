#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Installs the build into a temporary directory and uses it as a user
# would: builds consumer.c against the installed ctcore with the flags of
# `pkg-config ctcore`, once with the shared library and once with the
# static one, and runs both; checks that the shared library exports only
# the CT_API functions of the installed headers, and the installed plugin
# only its descriptor.
#
# install.sh MESON BUILD_DIR SOURCE_DIR LIBDIR PLUGIN_DIR [CFLAG...]
#   MESON       the meson that configured BUILD_DIR
#   SOURCE_DIR  the folder of this script and consumer.c
#   LIBDIR      the absolute libdir (prefix included)
#   PLUGIN_DIR  the absolute plugin directory, or "" without the plugin
#   CFLAG...    compiler and linker flags the build itself uses (sanitizers)
#
# Exits 77 (a skip for meson test) when a tool it needs is missing.
set -eu

meson=$1
build_dir=$2
source_dir=$3
libdir=$4
plugin_dir=$5
shift 5

skip() {
    echo "SKIP: $*"
    exit 77
}

cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || skip "no C compiler ($cc) to build a ctcore user"
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config to read ctcore.pc"
command -v nm >/dev/null 2>&1 || skip "no nm to list the plugin's exports"
command -v readelf >/dev/null 2>&1 || skip "no readelf to list what a program needs"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ct-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
destdir=$tmp/root

# --no-rebuild: meson test has built everything; a rebuild from inside a
# test would race the other tests.
"$meson" install -C "$build_dir" --destdir "$destdir" --no-rebuild --quiet \
    >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log"
    echo "FAIL: meson install"
    exit 1
}

# Only the installed ctcore.pc, with its paths inside the destdir.
PKG_CONFIG_LIBDIR=$destdir$libdir/pkgconfig
PKG_CONFIG_SYSROOT_DIR=$destdir
export PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
unset PKG_CONFIG_PATH

pkg-config --exists ctcore || {
    echo "FAIL: no ctcore.pc under $PKG_CONFIG_LIBDIR"
    exit 1
}
echo "ctcore $(pkg-config --modversion ctcore)"
includedir=$(pkg-config --cflags-only-I ctcore | sed 's/^ *-I//; s/ *$//')
[ -f "$includedir/ctcore/ctcore.h" ] || {
    echo "FAIL: no ctcore/ctcore.h in $includedir"
    exit 1
}

# The shared library exports the CT_API functions of the installed
# headers, nothing else.
lib_exports=$(nm -D --defined-only "$destdir$libdir/libctcore.so" |
    awk '{ print $3 }' | sort)
for symbol in $lib_exports; do
    grep -q "^CT_API .*[ *]$symbol(" "$includedir"/ctcore/*.h || {
        echo "FAIL: libctcore.so exports $symbol, no CT_API declaration"
        exit 1
    }
done
[ -n "$lib_exports" ] || {
    echo "FAIL: libctcore.so exports nothing"
    exit 1
}
echo "libctcore.so exports $(printf '%s\n' "$lib_exports" | wc -l) CT_API functions"

# consumer.c to the program $1, with the flags that follow (and the
# build's own). The public headers must compile without a warning.
build_consumer() {
    output=$1
    shift
    # shellcheck disable=SC2086
    "$cc" -std=c11 -Wall -Wextra -Werror -o "$output" \
        "$source_dir/consumer.c" "$@" $extra_flags
}
extra_flags="$*"

# Shared: the program needs libctcore.so.N at run time.
cflags=$(pkg-config --cflags ctcore)
libs=$(pkg-config --libs ctcore)
echo "shared: $cc consumer.c $cflags $libs"
# shellcheck disable=SC2086
build_consumer "$tmp/consumer-shared" $cflags $libs
soname=$(readelf -d "$destdir$libdir/libctcore.so" |
    sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
needs_ctcore() {
    readelf -d "$1" | grep -q "(NEEDED).*\[$soname\]"
}
if [ -z "$soname" ] || [ ! -f "$destdir$libdir/$soname" ]; then
    echo "FAIL: libctcore.so has no SONAME, or none installed ($soname)"
    exit 1
fi
needs_ctcore "$tmp/consumer-shared" || {
    echo "FAIL: the shared build does not need $soname"
    exit 1
}
echo "shared: needs $soname"
LD_LIBRARY_PATH=$destdir$libdir "$tmp/consumer-shared"

# Static: libctcore.a, with its Libs.private (libm, pthreads); libc stays
# shared.
cflags=$(pkg-config --static --cflags ctcore)
libs=$(pkg-config --static --libs ctcore)
echo "static: $cc consumer.c $cflags $libs"
static_libs=
for flag in $libs; do
    if [ "$flag" = -lctcore ]; then
        flag="-Wl,-Bstatic -lctcore -Wl,-Bdynamic"
    fi
    static_libs="$static_libs $flag"
done
# shellcheck disable=SC2086
build_consumer "$tmp/consumer-static" $cflags $static_libs
if needs_ctcore "$tmp/consumer-static"; then
    echo "FAIL: the static build needs $soname"
    exit 1
fi
echo "static: needs no $soname"
env -u LD_LIBRARY_PATH "$tmp/consumer-static"

if [ -z "$plugin_dir" ]; then
    echo "plugin: not built, not checked"
    exit 0
fi
plugin=$destdir$plugin_dir/libgstct.so
[ -f "$plugin" ] || {
    echo "FAIL: no plugin at $plugin"
    exit 1
}
# What GST_PLUGIN_DEFINE exports: the descriptor and, for static
# registration, its register function.
exports=$(nm -D --defined-only "$plugin" | awk '{ print $3 }' | sort)
unexpected=$(printf '%s\n' "$exports" | grep -v -x -e gst_plugin_ct_get_desc \
    -e gst_plugin_ct_register || true)
echo "plugin exports: $(printf '%s\n' "$exports" | tr '\n' ' ')"
if [ -n "$unexpected" ]; then
    echo "FAIL: the plugin exports more than its descriptor:"
    printf '%s\n' "$unexpected"
    exit 1
fi
printf '%s\n' "$exports" | grep -q -x gst_plugin_ct_get_desc || {
    echo "FAIL: the plugin does not export gst_plugin_ct_get_desc"
    exit 1
}
echo "install: OK"
