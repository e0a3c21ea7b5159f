#!/bin/sh
# Timed course programs under `warpsim exec --gpu h200 --threads N`: for
# each lab program at a course size and each N, the wall time, the speed-up
# over one thread, warp instructions simulated per second, peak resident
# memory, and whether the program's output and every launch's JSON summary
# are byte for byte those of the one-thread run ("same"), as rows of a
# Markdown table.
#
#   bench/threads.sh [BUILD_DIR] [THREADS...]
#        (default BUILD_DIR: build; default THREADS: 1 2 4 8 16; the lab
#         programs are the ones the tests build, BUILD_DIR/tests/cudart/programs)
#
# Peak memory needs GNU time (/usr/bin/time); without it the column says
# "?".  The first N should be 1: the others are compared with it.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
threads=${*:-1 2 4 8 16}
ws=$build/warpsim
progs=$build/tests/cudart/programs
[ -x "$ws" ] || { echo "threads.sh: no $ws (build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

labs=${LABS:-"matmul:512 512 512
matmul:256 256 256
reduction:4194304
convolution:100000 256 32
scan:1048576
histogram:4194304 4
spmv:20000
vector_add:4194304
transpose:2048 2048"}

echo "| program | threads | wall s | speed-up | warp inst/s | peak MiB | results |"
echo "|---|---|---|---|---|---|---|"
echo "$labs" | while IFS=: read -r lab args; do
    base=
    for n in $threads; do
        start=$(date +%s.%N)
        kb=
        if [ -x /usr/bin/time ]; then
            # shellcheck disable=SC2086
            /usr/bin/time -f '%M' -o "$tmp/mem" "$ws" exec --gpu h200 --threads "$n" --json \
                --summary-out "$tmp/json.$n" -- "$progs/$lab" $args >"$tmp/out.$n" 2>"$tmp/err" ||
                { echo "| $lab $args | $n | failed |"; continue; }
            kb=$(tail -n 1 "$tmp/mem")
        else
            # shellcheck disable=SC2086
            "$ws" exec --gpu h200 --threads "$n" --json --summary-out "$tmp/json.$n" -- "$progs/$lab" $args \
                >"$tmp/out.$n" 2>"$tmp/err" || { echo "| $lab $args | $n | failed |"; continue; }
        fi
        end=$(date +%s.%N)
        same=same
        if [ -n "$base" ]; then
            cmp -s "$tmp/json.$base" "$tmp/json.$n" && cmp -s "$tmp/out.$base" "$tmp/out.$n" || same=DIFFERENT
        else
            base=$n
            echo "$start $end" > "$tmp/t1"
        fi
        awk -v lab="$lab $args" -v n="$n" -v s="$start" -v e="$end" -v kb="$kb" -v same="$same" \
            -v t1="$(cat "$tmp/t1")" '
            /^\{"kernel"/ && match($0, /"warp_instructions":[0-9]+/) { wi += substr($0, RSTART + 20, RLENGTH - 20) }
            END {
                t = e - s
                split(t1, a, " ")
                mem = kb == "" ? "?" : sprintf("%.0f", kb / 1024)
                printf "| %s | %s | %.2f | %.2f | %.2f M | %s | %s |\n", lab, n, t, (a[2] - a[1]) / t, wi / t / 1e6, mem, same
            }' "$tmp/json.$n"
    done
done
