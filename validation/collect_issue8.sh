#!/bin/sh
# One run on a real GPU of every probe the issue-8 work (independent thread
# scheduling, library PTX, runtime gaps, counter fixes) is checked against.
# Writes to OUT_DIR (default $OUT), flat, for the results to be committed
# under validation/results/ with the GPU's name in front:
#   libs_outputs.txt, libs_meta.txt   validation/collect_libs.sh
#   counter_probe.csv, ncu_raw.csv, meta.txt
#                                     validation/collect_counter_probe.sh
#   probes.txt                        what the other probe programs print:
#                                     tests/libs/progs/its_undefined.cu,
#                                     tests/core/data/sync_async_probe.cu,
#                                     tests/ptx/libs/libraries.cu, and the
#                                     runtime programs of tests/cudart/data
# Needs the CUDA toolkit, ncu and a GPU.
#
#   validation/collect_issue8.sh [OUT_DIR]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${OUT:?give OUT_DIR or set OUT}}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sh "$root/validation/collect_libs.sh" "$out" || echo "collect_libs failed: $?" >&2
sh "$root/validation/collect_counter_probe.sh" "$work/probe" sm_90 || echo "counter probe failed: $?" >&2
cp "$work/probe/"* "$out/" 2>/dev/null

build() {   # NAME SOURCE ARCH [nvcc options]
    name=$1; src=$2; arch=$3; shift 3
    nvcc -cudart shared -arch="$arch" "$@" -o "$work/$name" "$root/$src" 2>"$work/$name.log" ||
        { echo "=== $name: nvcc failed"; head -c 1500 "$work/$name.log"; return 1; }
}
run() {     # NAME
    echo "=== $1"
    timeout 60 "$work/$1" 2>&1
    echo "(exit $?)"
}
{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -n 2 | head -n 1
    build its_probe tests/libs/progs/its_undefined.cu sm_90 && run its_probe
    build sync_async_probe tests/core/data/sync_async_probe.cu sm_90 && run sync_async_probe
    build libraries tests/ptx/libs/libraries.cu sm_90 -diag-suppress 20054 && run libraries
    build textures tests/cudart/data/textures.cu sm_90 && run textures
    build memory3d tests/cudart/data/memory3d.cu sm_90 && run memory3d
    build texture_refusals tests/cudart/data/texture_refusals.cu sm_90 && run texture_refusals
    build api_student tests/cudart/data/api_student.cu sm_80 && run api_student
    build func_version tests/cudart/data/func_version.cu sm_80 && run func_version
} >"$out/probes.txt" 2>&1
ls -l "$out"
