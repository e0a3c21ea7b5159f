#!/bin/sh
# Simulation speed: runs a few course kernels at sizes large enough to take
# about a second and prints simulated thread instructions per second of
# host time (the figure cycle-level simulators are compared by) and warp
# instructions per second (the figure warpsim's goals are set in), functional
# only (--functional) and with the timing model of the a100 config on one
# thread (THREADS=N: on N; warpsim's own default is every core).  For
# careful timing run each line under hyperfine or /usr/bin/time instead.
#
#   bench/sim_speed.sh [WARPSIM]      (default: build/warpsim)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=${1:-$root/build/warpsim}
ptx=$root/kernels/ptx/sm_80

run() {
    base=$1; shift
    run_mode "$base (functional)" "$@" --functional
    run_mode "$base (timing, a100)" "$@" --gpu a100 --regs 32 --threads "${THREADS:-1}"
}

run_mode() {
    name=$1; shift
    start=$(date +%s.%N)
    json=$("$ws" run "$@" --json 2>&1 >/dev/null | grep '^{')
    end=$(date +%s.%N)
    ti=$(printf '%s' "$json" | sed 's/.*"thread_instructions":\([0-9]*\).*/\1/')
    wi=$(printf '%s' "$json" | sed 's/.*"warp_instructions":\([0-9]*\).*/\1/')
    awk -v n="$name" -v ti="$ti" -v wi="$wi" -v s="$start" -v e="$end" 'BEGIN {
        t = e - s; printf "%-50s %11d thread inst %10d warp inst %7.2f s %8.1f M thread inst/s %6.2f M warp inst/s\n", n, ti, wi, t, ti / t / 1e6, wi / t / 1e6 }'
}

n=256
run "matmulTiled16 ${n}x${n}" "$ptx/matmul.ptx" --kernel matmulTiled16 --grid 16,16 --block 16,16 \
    --arg buf:f32:$((n*n)):rand=1 --arg buf:f32:$((n*n)):rand=2 --arg buf:f32:$((n*n)):zero \
    --arg i32:$n --arg i32:$n --arg i32:$n
run "matmulNaive ${n}x${n}" "$ptx/matmul.ptx" --kernel matmulNaive --grid 16,16 --block 16,16 \
    --arg buf:f32:$((n*n)):rand=1 --arg buf:f32:$((n*n)):rand=2 --arg buf:f32:$((n*n)):zero \
    --arg i32:$n --arg i32:$n --arg i32:$n
m=4194304
run "vecAdd 4M" "$ptx/vector_add.ptx" --kernel vecAdd --grid $((m/256)) --block 256 \
    --arg buf:f32:$m:rand=1 --arg buf:f32:$m:rand=2 --arg buf:f32:$m:zero --arg i32:$m
run "reduceWarpShuffle 4M" "$ptx/reduction.ptx" --kernel reduceWarpShuffle --grid $((m/256)) --block 256 \
    --arg buf:f32:$m:rand=1 --arg buf:f32:$((m/256)):zero --arg i32:$m
