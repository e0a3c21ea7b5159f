#!/bin/sh
# Regenerates the nvcc reference PTX in this folder from src/*.cu (CUDA 13).
# The PTX is committed so the tests need no toolkit.
set -eu
cd "$(dirname "$0")"
for arch in 80 90; do
    for cu in src/*.cu; do
        b=$(basename "$cu" .cu)
        flags=""
        [ "$b" = features ] && flags="-lineinfo"
        nvcc -ptx -O3 $flags -arch=sm_$arch "$cu" -o "${b}_sm$arch.ptx"
    done
done
# extra -lineinfo variants
nvcc -ptx -O3 -lineinfo -arch=sm_80 src/matmul_tiled.cu -o matmul_tiled_lineinfo_sm80.ptx
nvcc -ptx -O3 -lineinfo -arch=sm_90 src/printf_kernel.cu -o printf_lineinfo_sm90.ptx
