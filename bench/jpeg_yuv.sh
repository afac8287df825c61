#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Times ctjpegenc on YUV video frames in one run: a stream of FRAMES frames
# of the 2560x1600 golden photo's I420 planes (multifilesrc looping over
# the one file, rawvideoparse cutting it into frames, full-range BT.601),
# encoded by
#   yuv:     ctjpegenc (the planes as they come, all threads)
#   jpegenc: GStreamer's jpegenc (libjpeg-turbo, I420 as it comes)
#   rgb:     videoconvert ! video/x-raw,format=RGB ! ctjpegenc
#            chroma-subsampling=420 (the RGB path: the conversion on one
#            thread, jpegli's color transform and downsampling back)
# each into fakesink, the three pipelines alternating rep by rep, whole
# gst-launch-1.0 processes. Prints each one's median wall time and frames
# per second, and the ratios.
#
# usage: bench/jpeg_yuv.sh [-n REPS] [-B BUILD_DIR] [-j THREADS] [-f FRAMES]
#                          [-- CTJPEGENC_PROPERTIES...]
#   -n  repetitions (default 3)
#   -B  the meson build directory with gst/ (default: build)
#   -j  ctjpegenc's threads (default 0 = one per online CPU)
#   -f  frames in the stream (default 300)
# CTJPEGENC_PROPERTIES (e.g. progressive-level=0) go to both ctjpegenc
# pipelines; jpegenc keeps its defaults.
# The planes are $CT_GOLDEN_YUV_DIR/inputs/photo-eveningglow-2560x1600.I420.yuv,
# where CT_GOLDEN_YUV_DIR defaults to ../shared/golden/jpegli-yuv next to
# the source tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
reps=3
build="$root/build"
threads=0
frames=300

bench_options "n:B:j:f:h" n=reps B=build j=threads f=frames -- "$@"
shift "$bench_shift"
[ "${1:-}" = "--" ] && shift
properties="$*"
bench_check_reps "$reps"
bench_check_reps "$frames"

golden=${CT_GOLDEN_YUV_DIR:-$root/../shared/golden/jpegli-yuv}
planes="$golden/inputs/photo-eveningglow-2560x1600.I420.yuv"
[ -f "$planes" ] || { echo "no $planes (CT_GOLDEN_YUV_DIR?)" >&2; exit 1; }
bench_check_tool "$build/gst/libgstct.so" "$build"
export GST_PLUGIN_PATH="$build/gst"
for element in multifilesrc rawvideoparse ctjpegenc jpegenc videoconvert; do
    gst-inspect-1.0 "$element" >/dev/null 2>&1 ||
        { echo "no GStreamer element $element" >&2; exit 1; }
done

bench_make_tmp

source_caps="multifilesrc location=$planes loop=true num-buffers=$frames \
! rawvideoparse format=i420 width=2560 height=1600 framerate=30/1 \
colorimetry=1:4:0:0"
pipeline() { # name -> the pipeline's description
    case $1 in
    yuv) echo "$source_caps ! ctjpegenc threads=$threads $properties" ;;
    jpegenc) echo "$source_caps ! jpegenc" ;;
    rgb) echo "$source_caps ! videoconvert ! video/x-raw,format=RGB" \
        "! ctjpegenc threads=$threads chroma-subsampling=420 $properties" ;;
    esac
}
run() { # name -> seconds
    local t0 t1
    t0=$(now)
    # shellcheck disable=SC2046
    gst-launch-1.0 -q $(pipeline "$1") ! fakesink sync=false >/dev/null
    t1=$(now)
    echo "$t1 - $t0" | bc -l
}

echo "stream:  $frames frames of $(basename "$planes") (2560x1600 I420)"
echo "threads: ctjpegenc threads=$threads ($(nproc) online CPUs)"
echo "ctjpegenc properties: ${properties:-(defaults)}"
echo "reps:    $reps, alternating yuv / jpegenc / rgb"
# One untimed pass: warms the page cache; each first frame decodes.
for name in yuv jpegenc rgb; do
    # shellcheck disable=SC2046
    gst-launch-1.0 -q $(echo "$(pipeline "$name")" |
        sed "s/num-buffers=$frames/num-buffers=1/") \
        ! filesink location="$tmp/$name.jpg" >/dev/null
    djpeg "$tmp/$name.jpg" >/dev/null 2>&1 ||
        { echo "$name: the first frame does not decode" >&2; exit 1; }
done
for ((rep = 0; rep < reps; rep++)); do
    for name in yuv jpegenc rgb; do run "$name" >>"$tmp/$name.times"; done
done
for name in yuv jpegenc rgb; do
    t=$(median "$tmp/$name.times")
    printf '%-8s %7.2f s  %6.1f frames/s\n' "$name" "$t" \
        "$(echo "$frames / $t" | bc -l)"
    eval "time_$name=$t"
done
printf 'yuv is %.2fx jpegenc and %.2fx the rgb path\n' \
    "$(echo "$time_jpegenc / $time_yuv" | bc -l)" \
    "$(echo "$time_rgb / $time_yuv" | bc -l)"
