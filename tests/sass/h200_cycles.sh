#!/bin/sh
# SASS-informed timing against the H200: matmulTiledTransposedB's 3 x 3
# block launch (validation/results/h200_sm90_counters.csv, the H200's
# sm__cycles_elapsed.max) takes within 15 % of the GPU's cycles with the
# kernel's SASS listing (--sass: ptxas's 128-bit shared loads, 2 wavefronts
# each, in place of four 4-way-conflicting 32-bit ones), and more than 1.5
# times them without it, where the timing model sees the PTX's loads.
#
#   h200_cycles.sh WARPSIM
set -eu
ws=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
csv=validation/results/h200_sm90_counters.csv
kernel=_Z22matmulTiledTransposedBPKfS0_Pfiii
case_line=$(grep "\"run kernels/ptx/sm_90/matmul.ptx --kernel $kernel --grid 3,3,1 " "$csv" |
    grep '"sm__cycles_elapsed.max"' | cut -d'"' -f2)
gpu=$(grep "\"run kernels/ptx/sm_90/matmul.ptx --kernel $kernel --grid 3,3,1 " "$csv" |
    grep '"sm__cycles_elapsed.max"' | cut -d'"' -f10)
[ -n "$case_line" ] && [ -n "$gpu" ] || { echo "no such launch in $csv"; exit 1; }
# the inputs' values do not change the timing: zero-filled buffers of the same sizes
args=$(echo "$case_line" | sed 's/:file=[^ ]*/:zero/g')
cycles() {
    # shellcheck disable=SC2086
    "$ws" $args --gpu h200 --json "$@" 2>&1 | grep -o '"cycles":[0-9]*' | head -n 1 | cut -d: -f2
}
ptx=$(cycles)
sass=$(cycles --sass kernels/sass/sm_90/matmul.sass)
echo "H200 $gpu cycles; warpsim $ptx (PTX), $sass (--sass)"
awk -v g="$gpu" -v p="$ptx" -v s="$sass" 'BEGIN {
    rs = s / g; rp = p / g
    printf "ratio to the H200: %.2f with --sass, %.2f without\n", rs, rp
    exit !(rs > 0.85 && rs < 1.15 && rp > 1.5) }'
