#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Set-up on Debian 12 (bookworm), as root or as a user with sudo: installs
# what the build and every test use (after apt-get update, and only when
# something is missing), builds in build/, and encodes a sample picture
# through the GStreamer element, checked by libjpeg-turbo's decoder.
# README's command 1 and .ci/run.
#
# usage: tools/setup-debian.sh [MESON_OPTION...]   (e.g. -Dgolden_dir=PATH)
set -euo pipefail
cd "$(dirname "$0")/.."

# The compiler and meson; GStreamer's development files (gstreamer-check and
# gstreamer-app for the tests) and the plugins the tests put around ours
# (videotestsrc, pnmdec, wavparse, muxers, parsers, decoders, encodebin,
# vorbisenc); lame and libmp3lame, the MP3 references the tests compare
# with; opusenc/opusdec, libopus and libopusenc, the Opus references; djpeg
# for the sample.
packages=(
    build-essential meson ninja-build pkg-config
    libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
    gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
    gstreamer1.0-plugins-bad libjpeg-turbo-progs
    lame libmp3lame-dev
    opus-tools libopus-dev libopusenc-dev
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        as_root=()
    elif command -v sudo >/dev/null 2>&1; then
        as_root=(sudo)
    else
        echo "setup-debian.sh: ${missing[*]} to install: run this as root, or install sudo" >&2
        exit 1
    fi
    "${as_root[@]}" apt-get update
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ -f build/meson-private/coredata.dat ]; then
    meson setup --reconfigure build "$@"
else
    meson setup build "$@"
fi
ninja -C build

if [ -e build/gst/libgstct.so ]; then
    GST_PLUGIN_PATH_1_0="$PWD/build/gst" gst-launch-1.0 -q videotestsrc num-buffers=1 \
        ! video/x-raw,format=RGB,width=640,height=480 ! ctjpegenc \
        ! filesink location=build/sample.jpg
    djpeg build/sample.jpg >/dev/null
    echo "build/sample.jpg: $(stat -c %s build/sample.jpg) bytes, from videotestsrc ! ctjpegenc, decoded by djpeg"
fi
