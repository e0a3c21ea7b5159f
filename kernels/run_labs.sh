#!/bin/sh
# Builds every lab program of kernels/ with nvcc and runs each at a few sizes
# (including ones that are not multiples of the block or tile) on a real GPU,
# or under warpsim with RUNNER="warpsim exec --".  Prints each program's
# PASS/FAIL line; exits non-zero if any run fails.
#
#   kernels/run_labs.sh [BUILD_DIR]     (ARCH=sm_90 NVCC=nvcc RUNNER=...)
set -u

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-/tmp/warpsim-labs}
arch=${ARCH:-sm_80}
nvcc=${NVCC:-nvcc}
runner=${RUNNER:-}
mkdir -p "$build"

# lab: argument lists, one per run, separated by '|'
sizes() {
    case $1 in
    vector_add) echo "1|1000|1000001" ;;
    matrix_add) echo "1 1|33 31|1000 1025" ;;
    matmul) echo "1 1 1|33 31 65|256 200 300" ;;
    transpose) echo "1 1|33 70|1025 1000" ;;
    convolution) echo "1 1 1|1000 33 13|100001 300 50" ;;
    reduction) echo "1|1025|1000003" ;;
    scan) echo "1|1025|1000003" ;;
    histogram) echo "1|1025 4|1000003 3" ;;
    spmv) echo "1|33|20000" ;;
    wmma_matmul) echo "1 1 1|33 70 50|256 512 128" ;;
    cnn_conv) echo "5 1 1 1 5|28 2 4 3 5|70 3 8 4 7" ;;
    microbench_coalescing) echo "31|1000|1048576" ;;
    microbench_bank_conflicts) echo "1|100" ;;
    fc_layer) echo "1 1 1 1|33 70 50 3 0|1024 784 1024 20" ;;
    *) echo "" ;;
    esac
}

fail=0
for cu in "$here"/*.cu; do
    lab=$(basename "$cu" .cu)
    if ! "$nvcc" -arch="$arch" -cudart shared -O3 "$cu" -o "$build/$lab"; then
        echo "BUILD FAIL $lab"
        fail=1
        continue
    fi
    list=$(sizes "$lab")
    [ -n "$list" ] || list=" "
    old_ifs=$IFS
    IFS='|'
    for args in $list; do
        IFS=$old_ifs
        # shellcheck disable=SC2086
        if out=$($runner "$build/$lab" $args 2>&1); then
            echo "$lab $args: $(echo "$out" | tail -n 1)"
        else
            echo "$lab $args: FAIL (exit $?)"
            echo "$out" | sed 's/^/    /'
            fail=1
        fi
        IFS='|'
    done
    IFS=$old_ifs
done
exit $fail
