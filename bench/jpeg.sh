#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Times ctjpeg against a cjpegli binary in one run: the same images, settings
# and SIMD target, the three commands alternating rep by rep (cjpegli,
# ctjpeg on one thread, ctjpeg on all threads), whole processes as a user
# runs them. Prints the medians and the ratios for the largest golden photo
# and for all golden photos together. No cjpegli is shipped or built here:
# bring your own.
#
# usage: bench/jpeg.sh [-t sse2|avx2] [-n REPS] [-B BUILD_DIR] [-j THREADS]
#                      CJPEGLI [-- CJPEGLI_FLAGS...]
#   -t  the target the cjpegli binary runs (sse2 for an SSE2-only build, avx2
#       for AVX2 and up); ctjpeg is pinned to it with CT_SIMD. Default: avx2
#       when the CPU has AVX2 and FMA, else sse2.
#   -n  repetitions (default 5)
#   -B  the meson build directory with tools/ctjpeg (default: build)
#   -j  threads of the "all threads" run (default 0 = one per online CPU)
# The images are $CT_GOLDEN_DIR/inputs/photo-*.p?m, where CT_GOLDEN_DIR
# defaults to ../shared/golden/jpegli next to the source tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
target=
reps=5
build="$root/build"
threads=0

bench_options "t:n:B:j:h" t=target n=reps B=build j=threads -- "$@"
shift "$bench_shift"
[ $# -ge 1 ] || bench_usage
cjpegli=$1
shift
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
bench_check_reps "$reps"

golden=${CT_GOLDEN_DIR:-$root/../shared/golden/jpegli}
ctjpeg="$build/tools/ctjpeg"
bench_check_tool "$ctjpeg" "$build"
[ -x "$cjpegli" ] || { echo "$cjpegli is not an executable" >&2; exit 1; }
mapfile -t images < <(ls "$golden"/inputs/photo-*.p?m 2>/dev/null)
[ ${#images[@]} -gt 0 ] || { echo "no photos in $golden/inputs" >&2; exit 1; }
largest=$(ls -S "${images[@]}" | head -n 1)

bench_make_tmp

cmd() { # name image -> the command line
    case $1 in
    cjpegli) echo "$cjpegli" "$2" "$tmp/$1.jpg" "${flags[@]}" --quiet ;;
    one) echo env CT_SIMD="$target" "$ctjpeg" "$2" "$tmp/$1.jpg" "${flags[@]}" --threads 1 --quiet ;;
    all) echo env CT_SIMD="$target" "$ctjpeg" "$2" "$tmp/$1.jpg" "${flags[@]}" --threads "$threads" --quiet ;;
    esac
}

echo "target:  $target (ctjpeg with CT_SIMD=$target; cjpegli as built)"
echo "flags:   ${flags[*]:-(defaults)}"
echo "images:  ${#images[@]} photos; largest $(basename "$largest")"
echo "reps:    $reps, alternating cjpegli / ctjpeg --threads 1 / ctjpeg --threads $threads"

# One untimed pass: warms the page cache and checks every output's bytes.
for image in "${images[@]}"; do
    for name in cjpegli one all; do $(cmd $name "$image"); done
    if ! cmp -s "$tmp/one.jpg" "$tmp/cjpegli.jpg" || ! cmp -s "$tmp/all.jpg" "$tmp/cjpegli.jpg"; then
        echo "output of $(basename "$image") DIFFERS from cjpegli's: is -t right?" >&2
        exit 1
    fi
done
echo "output:  identical to cjpegli's for every photo and thread count"

for name in cjpegli one all; do : >"$tmp/$name.largest"; : >"$tmp/$name.total"; done
for ((i = 0; i < reps; i++)); do
    for name in cjpegli one all; do
        total=0
        for image in "${images[@]}"; do
            t0=$(now); $(cmd $name "$image"); t1=$(now)
            dt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
            [ "$image" = "$largest" ] && echo "$dt" >>"$tmp/$name.largest"
            total=$(awk -v a="$total" -v b="$dt" 'BEGIN { print a + b }')
        done
        echo "$total" >>"$tmp/$name.total"
    done
done

for set in largest total; do
    c=$(median "$tmp/cjpegli.$set"); o=$(median "$tmp/one.$set"); a=$(median "$tmp/all.$set")
    label=$([ $set = largest ] && basename "$largest" || echo "all ${#images[@]} photos")
    awk -v l="$label" -v c="$c" -v o="$o" -v a="$a" -v j="$threads" 'BEGIN {
        printf "%s: cjpegli %.3f s, ctjpeg 1 thread %.3f s (%.2fx), ctjpeg --threads %s %.3f s (%.2fx)\n",
            l, c, o, c / o, j, a, c / a
    }'
done
echo "(ratio = cjpegli time / ctjpeg time; above 1 means ctjpeg is faster)"
