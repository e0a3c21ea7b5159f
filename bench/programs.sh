#!/bin/sh
# Whole course programs under `warpsim exec`: for each lab program at a
# course size, functional (--functional) and timed (--gpu h200), the wall
# time, the time of its launches alone (--host-times: without the program's
# own host code), peak resident memory, warp instructions simulated per
# second of wall time and of the launches' time, and simulated cycles per
# second of wall time (timed only), as rows of a Markdown table.
#
#   bench/programs.sh [BUILD_DIR] [extra exec options for the timed runs...]
#        (default BUILD_DIR: build; the lab programs are the ones the
#         tests build, BUILD_DIR/tests/cudart/programs; e.g. --threads 1:
#         the functional runs, on one thread always, take none)
#
# LABS="lab:args\n..." picks other programs or sizes (one a line).
# Peak memory needs GNU time (/usr/bin/time, Debian package `time`);
# without it the column says "?".  One run per line: on a shared machine
# run it twice and take the better figures, or time single lines with
# hyperfine.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
ws=$build/warpsim
progs=$build/tests/cudart/programs
[ -x "$ws" ] || { echo "programs.sh: no $ws (build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# lab and arguments: the course's sizes, each a few seconds to simulate
labs=${LABS:-"vector_add:4194304
matmul:256 256 256
reduction:4194304
convolution:100000 256 32
scan:1048576
histogram:4194304 4
spmv:20000
transpose:2048 2048"}

# run MODE LAB ARGS...: one table row
run() {
    mode=$1 lab=$2; shift 2
    if [ "$mode" = functional ]; then opts=--functional; else opts="--gpu h200"; fi
    start=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
        # shellcheck disable=SC2086
        /usr/bin/time -f '%M' -o "$tmp/mem" "$ws" exec $opts --json --summary-out "$tmp/json" \
            --host-times "$tmp/times" "$@" -- "$progs/$lab" $args >/dev/null 2>"$tmp/err" || { echo "| $lab $args | $mode | failed |"; return; }
        kb=$(tail -n 1 "$tmp/mem")
    else
        # shellcheck disable=SC2086
        "$ws" exec $opts --json --summary-out "$tmp/json" --host-times "$tmp/times" "$@" -- "$progs/$lab" $args \
            >/dev/null 2>"$tmp/err" ||
            { echo "| $lab $args | $mode | failed |"; return; }
        kb=
    fi
    end=$(date +%s.%N)
    sim=$(awk 'match($0, /"host_s":[0-9.]+/) { t += substr($0, RSTART + 9, RLENGTH - 9) } END { print t + 0 }' \
        "$tmp/times")
    awk -v lab="$lab $args" -v mode="$mode" -v s="$start" -v e="$end" -v kb="$kb" -v sim="$sim" '
        /^\{"kernel"/ {
            n++
            if (match($0, /"warp_instructions":[0-9]+/)) wi += substr($0, RSTART + 20, RLENGTH - 20)
            if (match($0, /"cycles":[0-9]+/)) cyc += substr($0, RSTART + 9, RLENGTH - 9)
        }
        END {
            t = e - s
            mem = kb == "" ? "?" : sprintf("%.0f", kb / 1024)
            cps = mode == "functional" ? "-" : sprintf("%.2f M", cyc / t / 1e6)
            printf "| %s | %s | %d | %.1f M | %.2f s | %.2f s | %.2f M | %s | %s | %s MiB |\n",
                   lab, mode, n, wi / 1e6, t, sim, wi / t / 1e6, (sim > 0 ? sprintf("%.2f M", wi / sim / 1e6) : "?"),
                   cps, mem
        }' "$tmp/json"
}

echo "| program | mode | launches | warp inst | wall | in launches | warp inst/s | in launches | sim. cycles/s | peak memory |"
echo "|---|---|---|---|---|---|---|---|---|---|"
echo "$labs" | while IFS=: read -r lab args; do
    run functional "$lab"
    run timed "$lab" "$@"
done
