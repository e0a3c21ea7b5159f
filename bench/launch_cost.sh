#!/bin/sh
# Launch cost independent of the module: an empty kernel of 65,536
# one-warp blocks, from a module that holds only it and from one that also
# holds a kernel of about 1,100 PTX instructions and 1,060 registers
# (bench/launch_cost/module.cu).  Prints wall time and peak resident memory
# (GNU time) of each, functional and timed (a100).  Then many launches:
# small_launches/many.cu's 1,000 launches of 132 blocks, each simulated
# (h200, one thread), built alone and in a module that also holds a kernel
# of about 12,000 PTX instructions in one block
# (bench/launch_cost/many_beside.cu): what the module costs each launch,
# and loading it.  Needs nvcc.
#
#   bench/launch_cost.sh [WARPSIM]      (default: build/warpsim)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=${1:-$root/build/warpsim}
command -v nvcc >/dev/null || { echo "launch_cost.sh: nvcc not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "launch_cost.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -ptx -arch=sm_80 -DALONE -o "$tmp/alone.ptx" "$root/bench/launch_cost/module.cu"
nvcc -ptx -arch=sm_80 -o "$tmp/big.ptx" "$root/bench/launch_cost/module.cu"

measure() {
    name=$1; shift
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$ws" run "$@" --kernel emptyKernel --grid 65536 --block 32 \
        >/dev/null 2>&1
    read -r secs kb <"$tmp/t"
    awk -v n="$name" -v s="$secs" -v kb="$kb" 'BEGIN { printf "%-40s %7.2f s %8.1f MB\n", n, s, kb / 1024 }'
}

measure "empty kernel alone (functional)" "$tmp/alone.ptx" --functional
measure "empty kernel in big module (functional)" "$tmp/big.ptx" --functional
measure "empty kernel alone (timing, a100)" "$tmp/alone.ptx" --gpu a100
measure "empty kernel in big module (timing, a100)" "$tmp/big.ptx" --gpu a100

many() {
    name=$1 bin=$2
    /usr/bin/time -f '%e %M' -o "$tmp/t" "$ws" exec --gpu h200 --threads 1 --simulate-all --summary none \
        -- "$bin" 1000 132 >"$tmp/out" 2>&1
    grep -q PASS "$tmp/out" || { cat "$tmp/out" >&2; exit 1; }
    read -r secs kb <"$tmp/t"
    awk -v n="$name" -v s="$secs" -v kb="$kb" 'BEGIN { printf "%-40s %7.2f s %8.1f MB\n", n, s, kb / 1024 }'
}

"$ws" nvcc --gpu h200 -O2 -o "$tmp/many" "$root/bench/small_launches/many.cu" >"$tmp/nvcc.log" 2>&1 ||
    { cat "$tmp/nvcc.log" >&2; exit 1; }
"$ws" nvcc --gpu h200 -O2 -o "$tmp/many_beside" "$root/bench/launch_cost/many_beside.cu" >"$tmp/nvcc.log" 2>&1 ||
    { cat "$tmp/nvcc.log" >&2; exit 1; }
many "1000 small launches alone (h200)" "$tmp/many"
many "1000 small launches, big module (h200)" "$tmp/many_beside"
