#!/bin/sh
# Builds and runs validation/probes/pipe_rest.cu (the tensor pipe, constant
# loads, a taken branch, shared-memory wavefronts) on the GPU: once at the
# GPU's own clocks and once under Nsight Compute with the validation runs'
# settings (base clocks, caches flushed), and keeps ptxas's SASS of it.
#
#   validation/run_pipe_probe.sh OUT_DIR
#
# Writes OUT_DIR/pipe_rest_meta.txt (date, GPU, driver, toolkit, clocks),
# pipe_rest_plain.txt and pipe_rest_ncu.txt (the probe's lines) and
# pipe_rest.sass (ptxas's SASS, cuobjdump -sass without the encodings).
set -eu
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && nvcc -O3 -arch=sm_90 -o "$work/pipe_rest" validation/probes/pipe_rest.cu)
{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    echo "gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader)"
    echo "clocks_idle=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv,noheader)"
    echo "nvcc=$(nvcc --version | tail -n 2 | head -n 1)"
    echo "ncu=$(ncu --version | tail -n 1)"
    echo "build=nvcc -O3 -arch=sm_90; ncu --cache-control all --clock-control base --metrics gpu__time_duration.sum"
} >"$out/pipe_rest_meta.txt"
"$work/pipe_rest" >"$out/pipe_rest_plain.txt"
ncu --clock-control base --cache-control all --metrics gpu__time_duration.sum --log-file "$work/ncu.log" \
    "$work/pipe_rest" >"$out/pipe_rest_ncu.txt"
# the listing without the instructions' encodings
cuobjdump -sass "$work/pipe_rest" | sed "s|$work/||g" | grep -vE '^\s*/\* 0x[0-9a-f]{16} \*/\s*$' |
    sed -E 's|\s*/\* 0x[0-9a-f]{16} \*/\s*$||' >"$out/pipe_rest.sass"
echo "clocks_after=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv,noheader)" >>"$out/pipe_rest_meta.txt"
echo "done: $out"
