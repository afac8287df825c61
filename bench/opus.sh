#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Times ctopus against opusenc on every clip of the audio corpus, with the
# same flags, alternating them clip by clip in one run: ctopus on one thread
# (--threads 1, the sequential chain), ctopus on THREADS threads (the frame
# ring; -j, default: one per online CPU) and opusenc, at complexity 10
# (the default) and 0. Prints for each setting the total time over the
# corpus (median over the repetitions) of each and the ratios opusenc /
# ctopus for both thread counts. The clips are those of the corpus, the
# speech clip at its default bitrate included (Hybrid throughout). The first
# repetition also compares the bytes of both ctopus runs with opusenc's
# (identical on N of M clips; a clip either ctopus run fails on counts as
# not encoded, and its times are left out of all three totals).
#
# usage: bench/opus.sh [-n REPS] [-j THREADS] [-B BUILD_DIR] [-o OPUSENC] [CORPUS_DIR]
#   -n  repetitions of the whole corpus (default 3)
#   -j  threads of the second ctopus run (default: nproc; 0 also means one
#       per online CPU)
#   -B  the meson build directory with tools/ctopus (default: build)
#   -o  the opusenc to compare with (default: opusenc on the PATH)
#   CORPUS_DIR defaults to ../shared/corpus/audio next to the source tree.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
reps=3
threads=$(nproc)
build="$root/build"
opusenc=opusenc
settings=("--comp 10" "--comp 0")

bench_options "n:j:B:o:h" n=reps j=threads B=build o=opusenc -- "$@"
shift "$bench_shift"
[ $# -le 1 ] || bench_usage
corpus=${1:-$root/../shared/corpus/audio}
bench_check_reps "$reps"
[[ $threads =~ ^[0-9]+$ ]] || { echo "-j wants a thread count (0: all CPUs)" >&2; exit 2; }

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
    encoded=0
    for ((rep = 0; rep < reps; rep++)); do
        one_total=0
        many_total=0
        theirs_total=0
        for clip in "${clips[@]}"; do
            ok=1
            t0=$(now)
            "$ctopus" --quiet --threads 1 "${flags[@]}" --serial 1 "$clip" "$tmp/ctopus1.opus" 2>/dev/null || ok=0
            t1=$(now)
            "$ctopus" --quiet --threads "$threads" "${flags[@]}" --serial 1 "$clip" "$tmp/ctopusN.opus" 2>/dev/null || ok=0
            t2=$(now)
            "$opusenc" --quiet "${flags[@]}" --serial 1 "$clip" "$tmp/opusenc.opus"
            t3=$(now)
            [ "$ok" -eq 1 ] || continue
            one_total=$(add "$one_total" "$t0" "$t1")
            many_total=$(add "$many_total" "$t1" "$t2")
            theirs_total=$(add "$theirs_total" "$t2" "$t3")
            if [ "$rep" -eq 0 ]; then
                encoded=$((encoded + 1))
                cmp -s "$tmp/ctopus1.opus" "$tmp/opusenc.opus" && identical_one=$((identical_one + 1))
                cmp -s "$tmp/ctopusN.opus" "$tmp/opusenc.opus" && identical_many=$((identical_many + 1))
            fi
        done
        echo "$one_total" >>"$tmp/one.txt"
        echo "$many_total" >>"$tmp/many.txt"
        echo "$theirs_total" >>"$tmp/theirs.txt"
    done
    awk -v s="$setting" -v o="$(median <"$tmp/one.txt")" -v m="$(median <"$tmp/many.txt")" \
        -v t="$(median <"$tmp/theirs.txt")" -v same1="$identical_one" \
        -v sameN="$identical_many" -v j="$threads" -v done="$encoded" -v n="${#clips[@]}" 'BEGIN {
        printf "%-10s opusenc %.3f s; ctopus --threads 1 %.3f s, ratio %.2f; ctopus --threads %d %.3f s, ratio %.2f (opusenc / ctopus; above 1: ctopus is faster); encoded %d of %d clips, identical on %d and %d\n", s ":", t, o, (o > 0 ? t / o : 0), j, m, (m > 0 ? t / m : 0), done, n, same1, sameN
    }'
done
