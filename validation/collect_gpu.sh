#!/bin/sh
# Runs the end-to-end cases of the chosen labs on a real GPU under Nsight
# Compute and writes their hardware counters, with the GPU, driver and
# toolkit versions, to OUT_DIR.  Needs gcc, the CUDA toolkit, ncu and a GPU.
#
#   validation/collect_gpu.sh OUT_DIR [ARCH [LAB...]]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1; arch=${2:-sm_90}; shift; [ $# -gt 0 ] && shift
labs=${*:-"microbench_bank_conflicts microbench_coalescing matmul transpose reduction histogram vector_add spmv"}
mkdir -p "$out"
work=$(mktemp -d)
cuda_inc=$(dirname "$(command -v nvcc)")/../include
gcc -std=gnu11 -O2 -ffp-contract=off "$root/tests/e2e/e2e_kernels.c" -o "$work/e2e_kernels" -lm
gcc -std=gnu11 -O2 -I"$cuda_inc" "$root/tests/e2e/gpu_run.c" -o "$work/gpu_run" -lcuda

{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | sed 's/^/gpu=/'
    nvcc --version | tail -n 2 | head -n 1 | sed 's/^/nvcc=/'
    ncu --version | tail -n 1 | sed 's/^/ncu=/'
    echo "arch=$arch"
} >"$out/meta.txt"

export GPU_RUN="$work/gpu_run" NCU_OUT="$out/counters.csv"
export NCU_METRICS="smsp__inst_executed.sum,smsp__thread_inst_executed.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
sm__cycles_elapsed.max,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,\
l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum"
echo '"case","kernel","metric","unit","value"' >"$NCU_OUT"
status=0
for lab in $labs; do
    "$work/e2e_kernels" --warpsim "$root/validation/ncu_wrap.sh" --ptx-dir "$root/kernels/ptx/$arch" \
        --lab "$lab" >"$work/$lab.log" 2>&1 || status=1
    echo "$lab: $(tail -n 1 "$work/$lab.log")"
    cat "$work/$lab.log" >>"$out/labs.log"
done
rm -rf "$work"
exit $status
