# SPDX-License-Identifier: LGPL-2.1-or-later
#
# What bench/jpeg.sh and bench/mp3.sh share: their options, the checks of
# their arguments, a scratch directory, the clock and the median. Sourced,
# not run.

# Prints the sourcing script's usage (its comment from "# usage:" to
# "set -e") and exits 2.
bench_usage() {
    sed -n '/^# usage:/,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

# bench_options OPTSTRING L=VARIABLE... -- ARGS...: reads the options of
# ARGS, the value of each -L into VARIABLE; any other option (-h too) prints
# the usage. Leaves in bench_shift how many arguments the options took.
bench_options() {
    local spec=$1 opt
    shift
    local -A variable
    while [ "$1" != "--" ]; do
        variable[${1%%=*}]=${1#*=}
        shift
    done
    shift
    local OPTIND=1
    while getopts "$spec" opt; do
        [ -n "${variable[$opt]:-}" ] || bench_usage
        printf -v "${variable[$opt]}" '%s' "$OPTARG"
    done
    bench_shift=$((OPTIND - 1))
}

# The repetitions -n gave: a positive count, or exit 2.
bench_check_reps() {
    [[ $1 =~ ^[1-9][0-9]*$ ]] || { echo "-n wants a positive count" >&2; exit 2; }
}

# bench_check_tool PROGRAM BUILD_DIR: our tool is built, or exit 1.
bench_check_tool() {
    [ -x "$1" ] || { echo "no $1; build first (ninja -C $2)" >&2; exit 1; }
}

# A scratch directory in $tmp, removed when the script exits.
bench_make_tmp() {
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
}

now() { date +%s.%N; }

# The median of the numbers in FILE (or on stdin), one a line.
median() { sort -g "$@" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
