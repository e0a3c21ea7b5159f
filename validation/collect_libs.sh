#!/bin/sh
# Builds the library test programs of tests/libs/progs (thrust, CUB,
# cooperative groups, warp intrinsics, memcpy_async, cudaMalloc3D, barrier
# layouts) for sm_80 and sm_90, exactly as tests/libs builds them for
# warpsim (nvcc -cudart shared -arch=ARCH), runs each once on the GPU and
# writes what they print to OUT_DIR (default $OUT):
#   libs_outputs.txt  "=== NAME ARCH", then the program's stdout, then
#                     "(exit N)" when it exits non-zero; one section per
#                     program and architecture (tests/libs/run_prog.sh
#                     reads it)
#   libs_meta.txt     date, GPU, driver and toolkit
# Needs the CUDA toolkit and a GPU.  On the H200 the lead commits
# libs_outputs.txt as validation/results/h200_libs_outputs.txt.
#
#   validation/collect_libs.sh [OUT_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${OUT:?give OUT_DIR or set OUT}}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/gpu=/'
    nvcc --version | tail -n 2 | head -n 1 | sed 's/^/nvcc=/'
    echo "build=nvcc -cudart shared -arch=sm_80|sm_90"
} >"$out/libs_meta.txt"

progs=$(cd "$root/tests/libs/progs" && ls *.cu | sed 's/\.cu$//')
jobs=$(nproc 2>/dev/null || echo 4)
for arch in sm_80 sm_90; do
    for p in $progs; do
        echo "$arch $p"
    done
done | xargs -P "$jobs" -n 2 sh -c \
    'nvcc -cudart shared -arch=$0 -o "'"$work"'/$1_$0" "'"$root"'/tests/libs/progs/$1.cu" 2>"'"$work"'/$1_$0.log" ||
     echo "nvcc failed for $1 $0: $(head -c 2000 "'"$work"'/$1_$0.log")" >&2'

: >"$out/libs_outputs.txt"
for p in $progs; do
    for arch in sm_80 sm_90; do
        echo "=== $p $arch" >>"$out/libs_outputs.txt"
        if [ ! -x "$work/${p}_$arch" ]; then
            echo "(not built)" >>"$out/libs_outputs.txt"
            continue
        fi
        rc=0
        timeout 120 "$work/${p}_$arch" >>"$out/libs_outputs.txt" 2>"$work/stderr" || rc=$?
        [ $rc -eq 0 ] || echo "(exit $rc)" >>"$out/libs_outputs.txt"
        [ -s "$work/stderr" ] && sed "s/^/$p $arch stderr: /" "$work/stderr" >&2
    done
done
echo "programs: $(echo $progs | wc -w); sections: $(grep -c '^===' "$out/libs_outputs.txt");" \
     "OK: $(grep -cx OK "$out/libs_outputs.txt")"
