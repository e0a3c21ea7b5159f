#!/bin/sh
# Builds and runs the probes that calibrate configs/h200.ini's launch
# overhead and DRAM access block (validation/probes/launch_overhead.cu,
# dram_sector.cu) on the GPU, under Nsight Compute with the validation
# runs' settings (validation/collect_trends.sh: the labs' build, eager
# module loading, base clocks, caches flushed before each launch), so that
# no figure of the config comes from the lab programs the report validates.
#
#   validation/run_oos_probes.sh OUT_DIR
#
# Writes OUT_DIR/meta.txt (date, GPU, driver, toolkit, clocks),
# launch_overhead_ncu.csv and dram_sector_ncu.csv (ncu's CSV, one row per
# launch and metric) and plain.txt (the probes' own output without ncu).
set -eu
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# from the repository's root with relative paths, as collect_trends.sh builds the labs
for p in launch_overhead dram_sector; do
    (cd "$root" && nvcc -cudart shared -arch=sm_80 -O3 -o "$work/$p" "validation/probes/$p.cu")
done
{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    echo "gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader)"
    echo "clocks_idle=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.applications.graphics,clocks.default_applications.graphics --format=csv,noheader)"
    echo "nvcc=$(nvcc --version | tail -n 2 | head -n 1)"
    echo "ncu=$(ncu --version | tail -n 1)"
    echo "build=nvcc -cudart shared -arch=sm_80 -O3; CUDA_MODULE_LOADING=EAGER; ncu --cache-control all --clock-control base"
} >"$out/meta.txt"
{ "$work/launch_overhead" && "$work/dram_sector"; } >"$out/plain.txt"
launch_metrics=sm__cycles_elapsed.max,gpc__cycles_elapsed.max,gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum
dram_metrics=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_requests_srcunit_tex_op_read.sum,sm__cycles_elapsed.max,gpu__time_duration.sum
CUDA_MODULE_LOADING=EAGER ncu --clock-control base --cache-control all --csv --print-units base \
    --metrics "$launch_metrics" --log-file "$out/launch_overhead_ncu.csv" "$work/launch_overhead" >>"$out/plain.txt"
CUDA_MODULE_LOADING=EAGER ncu --clock-control base --cache-control all --csv --print-units base \
    --metrics "$dram_metrics" --log-file "$out/dram_sector_ncu.csv" "$work/dram_sector" >>"$out/plain.txt"
# ncu's log names the binary by this machine's path: keep only its name
sed -i "s|$work/||g" "$out/launch_overhead_ncu.csv" "$out/dram_sector_ncu.csv"
echo "clocks_after=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv,noheader)" >>"$out/meta.txt"
echo "done: $out"
