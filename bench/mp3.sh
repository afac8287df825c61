#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Times ctlame against lame on every clip of the audio corpus, with the same
# flags (-V 2, -b 128, --abr 160), alternating them clip by clip in one run:
# ctlame on one thread (--threads 1, the sequential chain), ctlame on THREADS
# threads (the frame ring; -j, default 0 = one per online CPU), and lame.
# Prints for each setting the total time over the corpus (median over the
# repetitions) of each and the ratios lame / ctlame for both. The first repetition also
# compares the bytes of both ctlame runs with lame's.
#
# usage: bench/mp3.sh [-n REPS] [-j THREADS] [-B BUILD_DIR] [-l LAME] [CORPUS_DIR]
#   -n  repetitions of the whole corpus (default 3)
#   -j  threads of the second ctlame run (default 0: one per online CPU)
#   -B  the meson build directory with tools/ctlame (default: build)
#   -l  the lame to compare with (default: lame on the PATH)
#   CORPUS_DIR defaults to ../shared/corpus/audio next to the source tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
reps=3
threads=0
build="$root/build"
lame=lame
settings=("-V 2" "-b 128" "--abr 160")

bench_options "n:j:B:l:h" n=reps j=threads B=build l=lame -- "$@"
shift "$bench_shift"
[ $# -le 1 ] || bench_usage
corpus=${1:-$root/../shared/corpus/audio}
bench_check_reps "$reps"
[[ $threads =~ ^[0-9]+$ ]] || { echo "-j wants a thread count (0: all CPUs)" >&2; exit 2; }

ctlame="$build/tools/ctlame"
bench_check_tool "$ctlame" "$build"
command -v "$lame" >/dev/null || { echo "no lame program ($lame)" >&2; exit 1; }
shopt -s nullglob
clips=("$corpus"/*.wav)
[ ${#clips[@]} -gt 0 ] || { echo "no .wav clips in $corpus" >&2; exit 1; }

bench_make_tmp

echo "corpus:  $corpus (${#clips[@]} clips)"
echo "lame:    $(command -v "$lame")"
echo "ctlame:  $ctlame"
echo "reps:    $reps (the median of the per-repetition totals)"
echo "threads: 1 and $threads$([ "$threads" -eq 0 ] && echo " (one per online CPU: $(nproc))")"

# Warms the page cache, so that the first timed encode does not read the disk.
cat "${clips[@]}" >/dev/null

add() { awk -v s="$1" -v a="$2" -v b="$3" 'BEGIN { print s + b - a }'; }

for setting in "${settings[@]}"; do
    read -r -a flags <<<"$setting"
    : >"$tmp/one.txt"
    : >"$tmp/many.txt"
    : >"$tmp/theirs.txt"
    identical_one=0
    identical_many=0
    for ((rep = 0; rep < reps; rep++)); do
        one_total=0
        many_total=0
        theirs_total=0
        for clip in "${clips[@]}"; do
            t0=$(now)
            "$ctlame" --quiet --threads 1 "${flags[@]}" "$clip" "$tmp/ctlame1.mp3"
            t1=$(now)
            "$ctlame" --quiet --threads "$threads" "${flags[@]}" "$clip" "$tmp/ctlameN.mp3"
            t2=$(now)
            "$lame" --quiet "${flags[@]}" "$clip" "$tmp/lame.mp3"
            t3=$(now)
            one_total=$(add "$one_total" "$t0" "$t1")
            many_total=$(add "$many_total" "$t1" "$t2")
            theirs_total=$(add "$theirs_total" "$t2" "$t3")
            if [ "$rep" -eq 0 ]; then
                cmp -s "$tmp/ctlame1.mp3" "$tmp/lame.mp3" && identical_one=$((identical_one + 1))
                cmp -s "$tmp/ctlameN.mp3" "$tmp/lame.mp3" && identical_many=$((identical_many + 1))
            fi
        done
        echo "$one_total" >>"$tmp/one.txt"
        echo "$many_total" >>"$tmp/many.txt"
        echo "$theirs_total" >>"$tmp/theirs.txt"
    done
    awk -v s="$setting" -v o="$(median <"$tmp/one.txt")" -v m="$(median <"$tmp/many.txt")" \
        -v t="$(median <"$tmp/theirs.txt")" -v same1="$identical_one" \
        -v sameN="$identical_many" -v j="$threads" -v n="${#clips[@]}" 'BEGIN {
        printf "%-8s lame %.3f s; ctlame --threads 1 %.3f s, ratio %.2f; ctlame --threads %d %.3f s, ratio %.2f (lame / ctlame; above 1: ctlame is faster); identical on %d and %d of %d clips\n", s ":", t, o, t / o, j, m, t / m, same1, sameN, n
    }'
done
