#!/bin/sh
# The timing model's cost against the SM count: one launch of the same
# work (matmulTiled16 512x512x512: 1,024 blocks of 256 threads) on the
# h200 config with only its SM count changed, on one thread, printing the
# simulated cycles, the wall time and the peak resident memory (GNU time)
# for each count.  Idle SMs cost nothing; what can grow with the count is
# the state every window goes through (bench/README.md, "Where things
# stand": the cost against the SM count).
#
#   bench/sm_count.sh [WARPSIM] [COUNTS...]   (default: build/warpsim; 8 32 132)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=${1:-$root/build/warpsim}
[ $# -gt 0 ] && shift
counts=${*:-8 32 132}
[ -x "$ws" ] || { echo "sm_count.sh: no $ws (build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "sm_count.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=512
echo "| SMs | simulated cycles | wall s | peak MiB |"
echo "|---|---|---|---|"
for c in $counts; do
    sed "s/^multiProcessorCount = .*/multiProcessorCount = $c/" "$root/configs/h200.ini" >"$tmp/h200_$c.ini"
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$ws" run "$root/kernels/ptx/sm_80/matmul.ptx" --kernel matmulTiled16 \
        --grid $((n / 16)),$((n / 16)) --block 16,16 --arg buf:f32:$((n * n)):rand=1 \
        --arg buf:f32:$((n * n)):rand=2 --arg buf:f32:$((n * n)):zero --arg i32:$n --arg i32:$n --arg i32:$n \
        --gpu "$tmp/h200_$c.ini" --threads 1 --json 2>"$tmp/json" >/dev/null
    cycles=$(grep '^{' "$tmp/json" | sed 's/.*"cycles":\([0-9]*\).*/\1/')
    read -r secs kb <"$tmp/t"
    awk -v c="$c" -v y="$cycles" -v s="$secs" -v kb="$kb" 'BEGIN { printf "| %s | %s | %.2f | %.0f |\n", c, y, s, kb / 1024 }'
done
