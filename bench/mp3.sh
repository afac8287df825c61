#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Times ctlame against lame on every clip of the audio corpus, with the same
# flags, alternating the two clip by clip in one run, and prints for each
# setting the total time over the corpus (median over the repetitions) of
# each and their ratio. The first repetition also compares the bytes.
#
# usage: bench/mp3.sh [-n REPS] [-B BUILD_DIR] [-l LAME] [CORPUS_DIR]
#   -n  repetitions of the whole corpus (default 3)
#   -B  the meson build directory with tools/ctlame (default: build)
#   -l  the lame to compare with (default: lame on the PATH)
#   CORPUS_DIR defaults to ../shared/corpus/audio next to the source tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
reps=3
build="$root/build"
lame=lame
settings=("-V 2" "-b 128")

usage() {
    sed -n '/^# usage:/,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

while getopts "n:B:l:h" opt; do
    case $opt in
    n) reps=$OPTARG ;;
    B) build=$OPTARG ;;
    l) lame=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
corpus=${1:-$root/../shared/corpus/audio}
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "-n wants a positive count" >&2; exit 2; }

ctlame="$build/tools/ctlame"
[ -x "$ctlame" ] || { echo "no $ctlame; build first (ninja -C $build)" >&2; exit 1; }
command -v "$lame" >/dev/null || { echo "no lame program ($lame)" >&2; exit 1; }
shopt -s nullglob
clips=("$corpus"/*.wav)
[ ${#clips[@]} -gt 0 ] || { echo "no .wav clips in $corpus" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "corpus:  $corpus (${#clips[@]} clips)"
echo "lame:    $(command -v "$lame")"
echo "ctlame:  $ctlame"
echo "reps:    $reps (the median of the per-repetition totals)"

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Warms the page cache, so that the first timed encode does not read the disk.
cat "${clips[@]}" >/dev/null

for setting in "${settings[@]}"; do
    read -r -a flags <<<"$setting"
    : >"$tmp/ours.txt"
    : >"$tmp/theirs.txt"
    identical=0
    for ((rep = 0; rep < reps; rep++)); do
        ours_total=0
        theirs_total=0
        for clip in "${clips[@]}"; do
            t0=$(now)
            "$ctlame" --quiet "${flags[@]}" "$clip" "$tmp/ctlame.mp3"
            t1=$(now)
            "$lame" --quiet "${flags[@]}" "$clip" "$tmp/lame.mp3"
            t2=$(now)
            ours_total=$(awk -v s="$ours_total" -v a="$t0" -v b="$t1" 'BEGIN { print s + b - a }')
            theirs_total=$(awk -v s="$theirs_total" -v a="$t1" -v b="$t2" 'BEGIN { print s + b - a }')
            if [ "$rep" -eq 0 ] && cmp -s "$tmp/ctlame.mp3" "$tmp/lame.mp3"; then
                identical=$((identical + 1))
            fi
        done
        echo "$ours_total" >>"$tmp/ours.txt"
        echo "$theirs_total" >>"$tmp/theirs.txt"
    done
    awk -v s="$setting" -v o="$(median <"$tmp/ours.txt")" \
        -v t="$(median <"$tmp/theirs.txt")" -v same="$identical" \
        -v n="${#clips[@]}" 'BEGIN {
        printf "%-8s ctlame %.3f s, lame %.3f s, ratio %.2f (lame / ctlame; above 1: ctlame is faster); identical on %d of %d clips\n", s ":", o, t, t / o, same, n
    }'
done
