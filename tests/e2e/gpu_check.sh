#!/bin/sh
# Runs every end-to-end case of e2e_kernels on a real GPU (through gpu_run,
# the CUDA-driver stand-in for `warpsim run`), for the sm_80 and sm_90 PTX,
# one lab per process in parallel.  Checks the driver's CPU references against
# the hardware.  Needs gcc, the CUDA toolkit headers and a GPU.
#
#   tests/e2e/gpu_check.sh [WORK_DIR]     (logs in WORK_DIR/<arch>_<lab>.log)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/tmp/warpsim-gpu-check}
mkdir -p "$work"
cuda_inc=$(dirname "$(command -v nvcc)")/../include
gcc -std=gnu11 -O2 -Wall -Wextra -ffp-contract=off "$root/tests/e2e/e2e_kernels.c" -o "$work/e2e_kernels" -lm || exit 1
gcc -std=gnu11 -O2 -Wall -Wextra -I"$cuda_inc" "$root/tests/e2e/gpu_run.c" -o "$work/gpu_run" -lcuda || exit 1

for arch in sm_80 sm_90; do
    for ptx in "$root"/kernels/ptx/$arch/*.ptx; do
        lab=$(basename "$ptx" .ptx)
        "$work/e2e_kernels" --warpsim "$work/gpu_run" --ptx-dir "$root/kernels/ptx/$arch" --lab "$lab" \
            >"$work/${arch}_$lab.log" 2>&1 &
    done
done
wait
fail=0
for log in "$work"/*.log; do
    line=$(tail -n 1 "$log")
    echo "$(basename "$log" .log): $line"
    case $line in
    *" cases passed") set -- $line; [ "$2" = "$4" ] || fail=1 ;;
    *) fail=1 ;;
    esac
done
exit $fail
