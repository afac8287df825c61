#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Times ctjpeg against a cjpegli binary on the same image, settings and SIMD
# target, alternating the two in one run, and prints the median times and
# their ratio. No cjpegli is shipped or built here: bring your own.
#
# usage: bench/jpeg.sh [-t sse2|avx2] [-n REPS] [-B BUILD_DIR] CJPEGLI [IMAGE]
#                      [-- CJPEGLI_FLAGS...]
#   -t  the target the cjpegli binary runs (what its build dispatches on this
#       CPU: sse2 for an SSE2-only build, avx2 for AVX2 and up); ctjpeg is
#       pinned to the same one with CT_SIMD. Default: avx2 when the CPU has
#       AVX2 and FMA, else sse2.
#   -n  repetitions of each (default 7)
#   -B  the meson build directory with tools/ctjpeg (default: build)
#   IMAGE defaults to the golden set's largest photo,
#   $CT_GOLDEN_DIR/inputs/photo-elephants-4003x3001.ppm, where CT_GOLDEN_DIR
#   defaults to ../shared/golden/jpegli next to the source tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=
reps=7
build="$root/build"

usage() {
    sed -n '/^# usage:/,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

while getopts "t:n:B:h" opt; do
    case $opt in
    t) target=$OPTARG ;;
    n) reps=$OPTARG ;;
    B) build=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
cjpegli=$1
shift
image="${CT_GOLDEN_DIR:-$root/../shared/golden/jpegli}/inputs/photo-elephants-4003x3001.ppm"
if [ $# -ge 1 ] && [ "$1" != "--" ]; then
    image=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
flags=("$@")

if [ -z "$target" ]; then
    if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo; then
        target=avx2
    else
        target=sse2
    fi
fi
case $target in sse2 | avx2) ;; *) echo "unknown target $target" >&2; exit 2 ;; esac
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "-n wants a positive count" >&2; exit 2; }

ctjpeg="$build/tools/ctjpeg"
[ -x "$ctjpeg" ] || { echo "no $ctjpeg; build first (ninja -C $build)" >&2; exit 1; }
[ -x "$cjpegli" ] || { echo "$cjpegli is not an executable" >&2; exit 1; }
[ -r "$image" ] || { echo "cannot read $image" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ours=(env CT_SIMD="$target" "$ctjpeg" "$image" "$tmp/ctjpeg.jpg" "${flags[@]}" --quiet)
theirs=("$cjpegli" "$image" "$tmp/cjpegli.jpg" "${flags[@]}" --quiet)

echo "image:   $image"
echo "flags:   ${flags[*]:-(defaults)}"
echo "target:  $target (ctjpeg with CT_SIMD=$target; cjpegli as built)"
echo "reps:    $reps each"

# One untimed run each: warms the page cache and checks the bytes.
"${ours[@]}"
"${theirs[@]}"
if cmp -s "$tmp/ctjpeg.jpg" "$tmp/cjpegli.jpg"; then
    echo "output:  identical ($(stat -c %s "$tmp/ctjpeg.jpg") bytes)"
else
    echo "output:  DIFFERENT (ctjpeg $(stat -c %s "$tmp/ctjpeg.jpg")," \
        "cjpegli $(stat -c %s "$tmp/cjpegli.jpg") bytes): is -t right?"
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if command -v hyperfine >/dev/null; then
    # hyperfine runs each command's repetitions as one block, not alternating.
    quote() { printf '%q ' "$@"; }
    hyperfine -N --runs "$reps" --export-json "$tmp/runs.json" \
        -n ctjpeg "$(quote "${ours[@]}")" -n cjpegli "$(quote "${theirs[@]}")" >&2
    mapfile -t medians < <(awk -F': *' '/"median"/ { sub(/,$/, "", $2); print $2 }' "$tmp/runs.json")
    ours_median=${medians[0]}
    theirs_median=${medians[1]}
else
    now() { date +%s.%N; }
    : >"$tmp/ours.txt"
    : >"$tmp/theirs.txt"
    for ((i = 0; i < reps; i++)); do
        t0=$(now); "${ours[@]}"; t1=$(now); "${theirs[@]}"; t2=$(now)
        awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$tmp/ours.txt"
        awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }' >>"$tmp/theirs.txt"
    done
    ours_median=$(median <"$tmp/ours.txt")
    theirs_median=$(median <"$tmp/theirs.txt")
fi

awk -v o="$ours_median" -v t="$theirs_median" 'BEGIN {
    printf "ctjpeg:  median %.3f s\n", o
    printf "cjpegli: median %.3f s\n", t
    printf "ratio:   %.2f (cjpegli time / ctjpeg time; above 1 means ctjpeg is faster)\n", t / o
}'
