#!/bin/sh
# Builds validation/probes/counter_probe.cu for ARCH, runs it (the rows it
# prints: NaN conversions, special registers, result checks) and runs it
# again under Nsight Compute (the counters of each probe kernel), and
# writes to OUT_DIR:
#   counter_probe.csv   "probe","metric","value","source": what the tests
#                       read as validation/results/h200_counter_probe.csv
#   ncu_raw.csv         Nsight Compute's own CSV, as it printed it
#   meta.txt            date, GPU, driver, toolkit and profiler versions,
#                       and the metrics this GPU's profiler did not know
# Needs the CUDA toolkit, ncu and a GPU.
#
#   validation/collect_counter_probe.sh OUT_DIR [ARCH]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1; arch=${2:-sm_90}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -arch="$arch" -O3 -lineinfo "$root/validation/probes/counter_probe.cu" -o "$work/counter_probe"

wanted="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum \
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum \
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum \
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum \
smsp__inst_executed_op_shared_atom.sum smsp__inst_executed_op_global_ld.sum \
smsp__inst_executed_op_global_st.sum \
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum \
l1tex__t_sector_hit_rate.pct lts__t_sectors_srcunit_tex_op_read.sum lts__t_sector_hit_rate.pct \
dram__bytes_read.sum dram__bytes_write.sum smsp__inst_executed.sum \
sm__cycles_elapsed.max gpu__time_duration.sum"

# Only the metrics this GPU's profiler knows: one unknown name would fail
# the whole run.
ncu --query-metrics >"$work/known.txt" 2>&1 || true
grep -q '__' "$work/known.txt" || : >"$work/known.txt"    # no list: take them all
metrics=""; unknown=""
for m in $wanted; do
    if [ ! -s "$work/known.txt" ] || grep -q "^${m%.*}[[:space:]]" "$work/known.txt"; then
        metrics="$metrics${metrics:+,}$m"
    else
        unknown="$unknown $m"
    fi
done

{
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | sed 's/^/gpu=/'
    nvcc --version | tail -n 2 | head -n 1 | sed 's/^/nvcc=/'
    ncu --version | tail -n 1 | sed 's/^/ncu=/'
    echo "arch=$arch"
    echo "unknown_metrics=$unknown"
} >"$out/meta.txt"

source="H200 $(date -u +%Y-%m-%d)"
echo '"probe","metric","value","source"' >"$out/counter_probe.csv"
"$work/counter_probe" | grep '^"' | sed "s/\$/,\"$source (program output)\"/" >>"$out/counter_probe.csv"

ncu --csv --print-units base --log-file "$out/ncu_raw.csv" --metrics "$metrics" "$work/counter_probe" >/dev/null
grep '^"' "$out/ncu_raw.csv" | awk -F'","' -v src="$source (ncu)" '
    NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); col[$i] = i }; next }
    { gsub(/^"|"$/, "", $0); n = split($0, f, "\",\"");
      v = f[col["Metric Value"]]; if (v ~ /^[0-9,.]+$/) gsub(/,/, "", v)
      k = f[col["Kernel Name"]]; sub(/\(.*$/, "", k)
      printf "\"%s\",\"%s\",\"%s\",\"%s\"\n", k, f[col["Metric Name"]], v, src }' >>"$out/counter_probe.csv"
echo "wrote $out/counter_probe.csv ($(($(wc -l <"$out/counter_probe.csv") - 1)) rows)"
