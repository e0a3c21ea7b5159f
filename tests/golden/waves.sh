#!/bin/sh
# The golden test of grids of several waves: the cycles and every counter
# of a few course launches whose blocks wait for slots, run in windows of
# cycles (warpsim's default, sim/core/timing_window.h) and cycle by cycle
# (--window 1), stay exactly what tests/golden/waves.tsv holds; the two
# runs of a launch do the same work (warp instructions) and their cycles
# are within 2 % (in windows blocks go to SMs in about grid order, cycle
# by cycle in the order slots free).  The golden test beside it
# (golden.sh) holds launches of one wave, which time the same either way.
# A change on purpose updates the file (--update) and says why in its
# commit.
#
#   tests/golden/waves.sh WARPSIM [--update]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
warpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") update=${2:-}
ptx=$root/kernels/ptx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# name | warpsim run arguments (paths under kernels/ptx)
cat >"$work/cases" <<'CASES'
vecAdd 512K h200|sm_90/vector_add.ptx --kernel vecAdd --grid 2048 --block 256 --arg buf:f32:524288:rand=1 --arg buf:f32:524288:rand=2 --arg buf:f32:524288:zero --arg i32:524288 --gpu h200 --regs 16
reduceWarpShuffle 512K h200|sm_90/reduction.ptx --kernel reduceWarpShuffle --grid 2048 --block 256 --arg buf:f32:524288:rand=3 --arg buf:f32:2048:zero --arg i32:524288 --gpu h200 --regs 32
reduceInterleaved 256K h200|sm_90/reduction.ptx --kernel reduceInterleaved --grid 1024 --block 256 --arg buf:f32:262144:rand=4 --arg buf:f32:1024:zero --arg i32:262144 --gpu h200 --regs 32
transposeShared 768x771 h200|sm_90/transpose.ptx --kernel transposeShared --grid 25,24 --block 32,32 --arg buf:f32:592128:rand=5 --arg buf:f32:592128:zero --arg i32:768 --arg i32:771 --gpu h200 --regs 32
matmulTiled16 128 teaching|sm_80/matmul.ptx --kernel matmulTiled16 --grid 8,8 --block 16,16 --arg buf:f32:16384:rand=6 --arg buf:f32:16384:rand=7 --arg buf:f32:16384:zero --arg i32:128 --arg i32:128 --arg i32:128 --gpu teaching --regs 32
histogramGlobal 256K h200 (unread atomics)|sm_90/histogram.ptx --kernel histogramGlobal --grid 1024 --block 256 --arg buf:u8:262144:rand=8 --arg buf:u32:64:zero --arg i32:262144 --arg i32:4 --gpu h200 --regs 32
CASES
: >"$work/got.tsv"
while IFS='|' read -r name args; do
    # shellcheck disable=SC2086
    win=$(cd "$ptx" && "$warpsim" run $args --threads 2 --json 2>&1 >/dev/null | grep '^{') ||
        { echo "golden waves: $name failed"; exit 1; }
    # shellcheck disable=SC2086
    cyc=$(cd "$ptx" && "$warpsim" run $args --window 1 --threads 2 --json 2>&1 >/dev/null | grep '^{') ||
        { echo "golden waves: $name (--window 1) failed"; exit 1; }
    field() { printf '%s' "$2" | sed "s/.*\"$1\":\([0-9]*\).*/\1/"; }
    wi=$(field warp_instructions "$win") ci=$(field warp_instructions "$cyc")
    wc=$(field cycles "$win") cc=$(field cycles "$cyc")
    if [ "$wi" != "$ci" ] || [ $((wc * 50)) -lt $((cc * 49)) ] || [ $((wc * 50)) -gt $((cc * 51)) ]; then
        echo "golden waves: $name: in windows $wi warp instructions in $wc cycles, cycle by cycle $ci in $cc"
        exit 1
    fi
    printf '%s (windows)\t%s\n%s (cycle by cycle)\t%s\n' "$name" "$win" "$name" "$cyc" >>"$work/got.tsv"
done <"$work/cases"
sh "$here/hold.sh" "golden waves" "$work/got.tsv" "$here/waves.tsv" "tests/golden/waves.sh WARPSIM" "$update"
