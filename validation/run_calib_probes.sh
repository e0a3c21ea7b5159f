#!/bin/sh
# Builds validation/probes/calib.cu and runs every probe on the GPU, first
# at the GPU's own clocks, then under Nsight Compute with the validation
# runs' settings (base clocks, caches flushed before each launch), whose
# gpc__cycles_elapsed.max are the cycles warpsim's h200 config must match.
# Also keeps the SASS of the atomic kernels (does ptxas warp-aggregate an
# atomicAdd to a constant address?) and the clocks nvidia-smi reports.
#
#   validation/run_calib_probes.sh OUT_DIR
#
# Writes OUT_DIR/calib_meta.txt, calib_plain.txt (the probes' own output),
# calib_ncu.txt (their output under ncu: in-kernel cycles at ncu's clocks)
# calib_ncu.csv (one row per launch and metric) with calib_ncu_table.txt (a
# line per launch: cycles, L2 hit rate, bytes; validation/calib_table.sh),
# and calib_atomics.sass.
set -eu
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
bin="$(cd "$out" && pwd)/calib"   # absolute: it is built from the repository root
# built from the repository's root with a relative source path, so that the
# binary (and the cuobjdump listing below) names the probe as the repository does
(cd "$here/.." && nvcc -O3 -arch=sm_90 -lineinfo -o "$bin" validation/probes/calib.cu)
{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    echo "gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader)"
    echo "clocks_now=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.applications.graphics --format=csv,noheader)"
    echo "nvcc=$(nvcc --version | tail -2 | head -1)"
    echo "ncu=$(ncu --version | tail -1)"
} > "$out/calib_meta.txt"
cuobjdump -sass -fun atom_red "$bin" > "$out/calib_atomics.sass" 2>&1 || true
cuobjdump -sass -fun atom_ret "$bin" >> "$out/calib_atomics.sass" 2>&1 || true
"$bin" > "$out/calib_plain.txt"
# Under ncu: few back-to-back launches (each is profiled), all probes.
full=gpc__cycles_elapsed.max,sm__cycles_elapsed.max,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__cycles_elapsed.avg,dram__cycles_elapsed.avg
small=gpc__cycles_elapsed.max,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
for metrics in $full $small; do   # the smaller set if this ncu lacks a metric of the first
    CALIB_REPS=3 ncu --clock-control base --cache-control all --csv --print-units base --metrics "$metrics" \
        --log-file "$out/calib_ncu.csv" "$bin" > "$out/calib_ncu.txt" && break
done
# ncu's log names the binary by this machine's path: keep only its name
sed -i "s|$bin)|calib)|" "$out/calib_ncu.csv"
sh "$here/calib_table.sh" "$out/calib_ncu.csv" > "$out/calib_ncu_table.txt" || true
echo "done: $out"
