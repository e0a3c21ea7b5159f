#!/bin/sh
# Timed course programs under `warpsim exec --gpu h200 --threads N`: for
# each lab program at a course size and each N, the wall time, the speed-up
# over one thread, the time of its launches alone (`--host-times`: the
# simulator's own part, without the program's host code) and their
# speed-up, warp instructions simulated per second, peak resident memory,
# and whether the program's output and every launch's JSON summary are
# byte for byte those of the one-thread run ("same"), as rows of a
# Markdown table.
#
#   bench/threads.sh [BUILD_DIR] [THREADS...]
#        (default BUILD_DIR: build; default THREADS: 1 2 4 8 16; the lab
#         programs are the ones the tests build, BUILD_DIR/tests/cudart/programs)
#
# REPEAT=R runs each program R times at each N (default 1), the runs of
# the Ns taking turns, and reports each N's median wall time (its runs in
# brackets): a shared machine's load comes and goes within seconds.
# WARMUP=W (default 1) runs the first program W times first, untimed.
# TIMES_DIR=DIR keeps each run's --host-times lines (each launch's time,
# and where its windows went: docs/THREADS.md, "Host times") as
# DIR/LAB@ARGS.N.R.jsonl (LAB the program, ARGS its arguments joined by
# commas, N its threads, R the run: two sizes of one program keep files of
# their own), which bench/windows.sh DIR makes a table.
#
# Peak memory needs GNU time (/usr/bin/time); without it the column says
# "?".  The first N should be 1: the others are compared with it, every
# run of them.
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

repeat=${REPEAT:-1}

# A freshly started machine's first runs can take several times as long,
# in system time, for reasons of its own (bench/HISTORY.md, run CU):
# WARMUP=W runs the first lab W times (default 1), untimed, on the last
# thread count before anything is measured.
warmup=${WARMUP:-1}
first=$(echo "$labs" | head -n 1)
w=0
while [ "$w" -lt "$warmup" ]; do
    # shellcheck disable=SC2086
    "$ws" exec --gpu h200 --threads "${threads##* }" --summary none -- "$progs/${first%%:*}" ${first#*:} \
        >/dev/null 2>&1 || true
    w=$((w + 1))
done

# One run of lab at n threads, the r-th: its wall time into $tmp/wall.$n.$r,
# its peak memory (KiB) into $tmp/kb.$n.$r, its output and JSON beside.
run_once() {
    lab=$1 args=$2 n=$3 r=$4
    start=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
        # shellcheck disable=SC2086
        /usr/bin/time -f '%M' -o "$tmp/mem" "$ws" exec --gpu h200 --threads "$n" --json \
            --summary-out "$tmp/json.$n.$r" --host-times "$tmp/times" -- "$progs/$lab" $args \
            >"$tmp/out.$n.$r" 2>"$tmp/err" || return 1
        tail -n 1 "$tmp/mem" > "$tmp/kb.$n.$r"
    else
        # shellcheck disable=SC2086
        "$ws" exec --gpu h200 --threads "$n" --json --summary-out "$tmp/json.$n.$r" --host-times "$tmp/times" \
            -- "$progs/$lab" $args >"$tmp/out.$n.$r" 2>"$tmp/err" || return 1
        echo > "$tmp/kb.$n.$r"
    fi
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", e - s }' > "$tmp/wall.$n.$r"
    if [ -n "${TIMES_DIR:-}" ]; then
        name=$lab
        [ -n "$args" ] && name="$lab@$(echo "$args" | tr ' ' ',')"
        mkdir -p "$TIMES_DIR" && cp "$tmp/times" "$TIMES_DIR/$name.$n.$r.jsonl"
    fi
    # the launches' host times summed
    awk 'match($0, /"host_s":[0-9.]+/) { t += substr($0, RSTART + 9, RLENGTH - 9) } END { printf "%.3f\n", t }' \
        "$tmp/times" > "$tmp/sim.$n.$r"
}

echo "| program | threads | wall s | speed-up | launches s | their speed-up | warp inst/s | peak MiB | results |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "$labs" | while IFS=: read -r lab args; do
    r=1
    while [ "$r" -le "$repeat" ]; do
        for n in $threads; do
            [ -e "$tmp/failed.$n" ] && continue
            run_once "$lab" "$args" "$n" "$r" || : > "$tmp/failed.$n"
        done
        r=$((r + 1))
    done
    base=
    for n in $threads; do
        if [ -e "$tmp/failed.$n" ]; then
            echo "| $lab $args | $n | failed |"
            rm -f "$tmp/failed.$n"
            continue
        fi
        [ -n "$base" ] || base=$n
        same=same
        r=1
        while [ "$r" -le "$repeat" ]; do
            cmp -s "$tmp/json.$base.1" "$tmp/json.$n.$r" && cmp -s "$tmp/out.$base.1" "$tmp/out.$n.$r" || same=DIFFERENT
            r=$((r + 1))
        done
        walls=$(cat "$tmp"/wall."$n".* | sort -n | tr '\n' ' ')
        sims=$(cat "$tmp"/sim."$n".* | sort -n | tr '\n' ' ')
        [ "$n" = "$base" ] && base_walls=$walls && base_sims=$sims
        kb=$(cat "$tmp"/kb."$n".* | sort -n | tail -n 1)
        awk -v lab="$lab $args" -v n="$n" -v walls="$walls" -v base="$base_walls" -v sims="$sims" \
            -v base_sims="$base_sims" -v kb="$kb" -v same="$same" -v repeat="$repeat" '
            function median(list,   v, k) { k = split(list, v, " "); return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }
            function shown(t, list,   s) { s = repeat > 1 ? sprintf("%.2f (%s)", t, list) : sprintf("%.2f", t); sub(/ \)$/, ")", s); return s }
            /^\{"kernel"/ && match($0, /"warp_instructions":[0-9]+/) { wi += substr($0, RSTART + 20, RLENGTH - 20) }
            END {
                t = median(walls)
                s = median(sims)
                mem = kb == "" ? "?" : sprintf("%.0f", kb / 1024)
                printf "| %s | %s | %s | %.2f | %s | %s | %.2f M | %s | %s |\n", lab, n, shown(t, walls), median(base) / t,
                       shown(s, sims), (s > 0 ? sprintf("%.2f", median(base_sims) / s) : "?"), wi / t / 1e6, mem, same
            }' "$tmp/json.$n.1"
    done
    rm -f "$tmp"/wall.* "$tmp"/sim.* "$tmp"/kb.* "$tmp"/json.* "$tmp"/out.*
done
