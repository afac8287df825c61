#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Times ctopus against opusenc on every clip of the audio corpus, with the
# same flags, alternating them clip by clip in one run: ctopus on one thread
# (--threads 1, the sequential chain) and opusenc, at complexity 10 (the
# default) and 0. Prints for each setting the total time over the corpus
# (median over the repetitions) of each and the ratio opusenc / ctopus. The
# clips are those of the corpus, the speech clip at its default bitrate
# included (Hybrid throughout). The first repetition also compares the
# bytes (identical on N of M clips; a clip ctopus fails on counts as not
# encoded, and its time is left out of both totals).
#
# usage: bench/opus.sh [-n REPS] [-B BUILD_DIR] [-o OPUSENC] [CORPUS_DIR]
#   -n  repetitions of the whole corpus (default 3)
#   -B  the meson build directory with tools/ctopus (default: build)
#   -o  the opusenc to compare with (default: opusenc on the PATH)
#   CORPUS_DIR defaults to ../shared/corpus/audio next to the source tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
reps=3
build="$root/build"
opusenc=opusenc
settings=("--comp 10" "--comp 0")

bench_options "n:B:o:h" n=reps B=build o=opusenc -- "$@"
shift "$bench_shift"
[ $# -le 1 ] || bench_usage
corpus=${1:-$root/../shared/corpus/audio}
bench_check_reps "$reps"

ctopus="$build/tools/ctopus"
bench_check_tool "$ctopus" "$build"
command -v "$opusenc" >/dev/null || { echo "no opusenc program ($opusenc)" >&2; exit 1; }
shopt -s nullglob
clips=("$corpus"/*.wav)
[ ${#clips[@]} -gt 0 ] || { echo "no .wav clips in $corpus" >&2; exit 1; }

bench_make_tmp

echo "corpus:  $corpus (${#clips[@]} clips)"
echo "opusenc: $(command -v "$opusenc")"
echo "ctopus:  $ctopus"
echo "reps:    $reps (the median of the per-repetition totals)"

cat "${clips[@]}" >/dev/null

add() { awk -v s="$1" -v a="$2" -v b="$3" 'BEGIN { print s + b - a }'; }

for setting in "${settings[@]}"; do
    read -r -a flags <<<"$setting"
    : >"$tmp/ours.txt"
    : >"$tmp/theirs.txt"
    identical=0
    encoded=0
    for ((rep = 0; rep < reps; rep++)); do
        ours_total=0
        theirs_total=0
        for clip in "${clips[@]}"; do
            t0=$(now)
            ok=1
            "$ctopus" --quiet --threads 1 "${flags[@]}" --serial 1 "$clip" "$tmp/ours.opus" 2>/dev/null || ok=0
            t1=$(now)
            "$opusenc" --quiet "${flags[@]}" --serial 1 "$clip" "$tmp/theirs.opus"
            t2=$(now)
            [ "$ok" -eq 1 ] || continue
            ours_total=$(add "$ours_total" "$t0" "$t1")
            theirs_total=$(add "$theirs_total" "$t1" "$t2")
            if [ "$rep" -eq 0 ]; then
                encoded=$((encoded + 1))
                cmp -s "$tmp/ours.opus" "$tmp/theirs.opus" && identical=$((identical + 1))
            fi
        done
        echo "$ours_total" >>"$tmp/ours.txt"
        echo "$theirs_total" >>"$tmp/theirs.txt"
    done
    awk -v s="$setting" -v o="$(median <"$tmp/ours.txt")" -v t="$(median <"$tmp/theirs.txt")" \
        -v same="$identical" -v done="$encoded" -v n="${#clips[@]}" 'BEGIN {
        printf "%-10s opusenc %.3f s; ctopus --threads 1 %.3f s, ratio %.2f (opusenc / ctopus; above 1: ctopus is faster); encoded %d of %d clips, identical on %d\n", s ":", t, o, (o > 0 ? t / o : 0), done, n, same
    }'
done
