#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# ctjpeg's errors, each said once and before any harm: a PNM header that
# promises more raster than its file holds is refused before the raster is
# allocated (a 20-byte file once asked malloc for 12.9 GB), from a file and
# from a pipe; an encode out of memory says so with one prefix (it once said
# "encoding failed: encoding failed: out of memory"). The memory limit
# (ulimit -v) is not tried under a sanitizer, whose shadow memory needs
# terabytes of address space. And the refusals of --yuv's input.
#
# usage: ctjpeg_errors.sh CTJPEG sanitized|plain
set -u
ctjpeg=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect NAME WANTED-STDERR COMMAND...: COMMAND exits 1 with WANTED-STDERR.
expect() {
    name=$1 wanted=$2
    shift 2
    "$@" 2>"$tmp/stderr"
    status=$?
    got=$(cat "$tmp/stderr")
    if [ $status -eq 1 ] && [ "$got" = "$wanted" ]; then
        echo "ok   $name"
    else
        echo "FAIL $name: exit $status, stderr:"
        echo "$got"
        echo "wanted exit 1, stderr:"
        echo "$wanted"
        failures=$((failures + 1))
    fi
}

printf 'P6 65535 65535 255\n' >"$tmp/huge.ppm"
expect "huge header, file" \
    "ctjpeg: huge.ppm: truncated raster: 65535x65535 P6 needs 12884508675 bytes, the file has 0 after the header" \
    sh -c 'cd "$1" && "$2" huge.ppm out.jpg' sh "$tmp" "$ctjpeg"
expect "huge header, pipe" \
    "ctjpeg: <stdin>: truncated raster: 0 of 12884508675 bytes" \
    sh -c 'cat "$1" | "$2" - "$3"' sh "$tmp/huge.ppm" "$ctjpeg" "$tmp/out.jpg"

# Raw YCbCr: a file of another size than the planes, a sampling that
# contradicts the layout's, a size without --yuv.
head -c 100 /dev/zero >"$tmp/short.yuv"
expect "yuv short file" \
    "ctjpeg: short.yuv: 100 bytes, expected 384 for 16x16 4:2:0 planes" \
    sh -c 'cd "$1" && "$2" --yuv=420 --size 16x16 short.yuv out.jpg' sh \
    "$tmp" "$ctjpeg"
head -c 768 /dev/zero >"$tmp/planes.yuv"
expect "yuv sampling contradicts" \
    "ctjpeg: chroma subsampling 4:2:0 contradicts the I444 input's 4:4:4: YCbCr input is encoded with its own sampling" \
    "$ctjpeg" --yuv=444 --size 16x16 --chroma_subsampling=420 \
    "$tmp/planes.yuv" "$tmp/out.jpg"
expect "size without yuv" "ctjpeg: --yuv and --size go together" \
    "$ctjpeg" --size 16x16 "$tmp/planes.yuv" "$tmp/out.jpg"

if [ "$2" = plain ]; then
    # 12 MB of raster read, then too little memory left to encode it.
    { printf 'P6\n2000 2000\n255\n'; head -c 12000000 /dev/zero; } >"$tmp/big.ppm"
    expect "encode out of memory" "ctjpeg: encoding failed: out of memory" \
        sh -c 'ulimit -v 30000 && exec "$1" --sequential "$2" "$3"' sh \
        "$ctjpeg" "$tmp/big.ppm" "$tmp/out.jpg"
else
    echo "skip encode out of memory: not under a sanitizer"
fi

[ $failures -eq 0 ]
