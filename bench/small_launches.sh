#!/bin/sh
# What a small launch costs beside its instructions: 1,000 launches of
# 132 blocks and 300 of 1,024 (bench/small_launches/many.cu: four warps a
# block, a load, an add and a store a thread; each launch with another
# argument, and --simulate-all, so that each is simulated) under `warpsim
# exec --gpu h200` on THREADS threads (default 1).  Prints wall seconds
# and peak memory (GNU time) and the time a launch.
#
#   bench/small_launches.sh [WARPSIM]      (default: build/warpsim)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=${1:-$root/build/warpsim}
[ -x "$ws" ] || { echo "small_launches.sh: no $ws (build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "small_launches.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ws" nvcc --gpu h200 -O2 -o "$tmp/many" "$root/bench/small_launches/many.cu" >"$tmp/nvcc.log" 2>&1 ||
    { cat "$tmp/nvcc.log" >&2; exit 1; }
for run in "1000 132" "300 1024"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$ws" exec --gpu h200 --threads "${THREADS:-1}" --simulate-all \
        --summary none -- "$tmp/many" $run >"$tmp/out" 2>&1
    grep -q PASS "$tmp/out" || { cat "$tmp/out" >&2; exit 1; }
    read -r secs kb <"$tmp/t"
    set -- $run
    awk -v n="$1" -v b="$2" -v s="$secs" -v kb="$kb" \
        'BEGIN { printf "%5d launches of %4d blocks: %6.2f s, %6.2f ms a launch, %6.1f MiB\n", n, b, s, 1000 * s / n, kb / 1024 }'
done
