#!/usr/bin/env bash
# Builds warpsim, then runs a course lab program (tiled matrix multiply, five
# kernel variants) with every kernel simulated on the a100 config: the
# program prints its own results and PASS line, warpsim a summary of each
# launch (cycles, occupancy, bank conflicts, sectors, stall reasons).
# Without the CUDA toolkit it simulates the vector-add kernel from its PTX.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR="$root/build" "$root/scripts/build.sh"
cd "$root"
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="$PATH:/usr/local/cuda/bin"
    mkdir -p build/demo
    set -x
    build/warpsim nvcc -O3 kernels/matmul.cu -o build/demo/matmul
    build/warpsim exec --gpu a100 -- build/demo/matmul 128 128 128
else
    set -x
    build/warpsim run kernels/ptx/sm_80/vector_add.ptx --kernel vecAdd \
        --grid 4 --block 256 \
        --arg buf:f32:1000:rand=1 --arg buf:f32:1000:rand=2 \
        --arg buf:f32:1000:zero --arg i32:1000 --print 0:8 --print 1:8 --print 2:8
fi
