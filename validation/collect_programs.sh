#!/bin/sh
# Runs the course programs of kernels/ on a real GPU, built exactly as the
# tests build them for warpsim (nvcc -cudart shared -arch=sm_80 -O3), and
# writes what they print to OUT_DIR:
#   program_outputs.txt  each lab at the sizes tests/cudart runs it under
#                        warpsim exec (for comparing outputs)
#   program_trends.txt   each lab at larger sizes, three runs each (the
#                        programs' own cudaEvent times, for timing trends)
#   meta.txt             date, GPU, driver and toolkit
# Needs the CUDA toolkit and a GPU.
#
#   validation/collect_programs.sh OUT_DIR
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | sed 's/^/gpu=/'
    nvcc --version | tail -n 2 | head -n 1 | sed 's/^/nvcc=/'
    echo "build=nvcc -cudart shared -arch=sm_80 -O3"
} >"$out/meta.txt"

labs=$(cd "$root/kernels" && ls *.cu | sed 's/\.cu$//')
for lab in $labs; do
    nvcc -cudart shared -arch=sm_80 -O3 "$root/kernels/$lab.cu" -o "$work/$lab" &
done
wait

# The sizes tests/cudart/CMakeLists.txt gives each lab: set(lab_NAME "a b" "c").
test_sizes() {
    sed -n "s/^set(lab_$1 \\(.*\\))\$/\\1/p" "$root/tests/cudart/CMakeLists.txt" | tr '"' '\n' | grep -v '^ *$'
}
# Larger sizes for timing trends (work well above the launch overhead).
trend_sizes() {
    case $1 in
    vector_add) echo "16777216" ;;
    matrix_add) echo "4096 4096" ;;
    matmul) echo "256 256 256"; echo "512 512 512" ;;
    transpose) echo "2048 2048" ;;
    convolution) echo "1000003 1000 200" ;;
    reduction) echo "16777216" ;;
    scan) echo "4194304" ;;
    histogram) echo "16777216 4" ;;
    spmv) echo "20000" ;;
    wmma_matmul) echo "512 512 512" ;;
    cnn_conv) echo "70 3 8 4 7" ;;
    microbench_coalescing) echo "4194304" ;;
    microbench_bank_conflicts) echo "" ;;
    esac
}

: >"$out/program_outputs.txt"
: >"$out/program_trends.txt"
for lab in $labs; do
    test_sizes "$lab" | while read -r args; do
        echo "=== $lab $args" >>"$out/program_outputs.txt"
        # shellcheck disable=SC2086
        "$work/$lab" $args >>"$out/program_outputs.txt" 2>&1 || echo "(exit $?)" >>"$out/program_outputs.txt"
    done
    trend_sizes "$lab" | while read -r args; do
        for run in 1 2 3; do
            echo "=== $lab $args run $run" >>"$out/program_trends.txt"
            # shellcheck disable=SC2086
            "$work/$lab" $args >>"$out/program_trends.txt" 2>&1 || echo "(exit $?)" >>"$out/program_trends.txt"
        done
    done
done
echo "labs: $(echo $labs | wc -w); outputs: $(grep -c '^===' "$out/program_outputs.txt"); trends: $(grep -c '^===' "$out/program_trends.txt")"
