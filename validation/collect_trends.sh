#!/bin/sh
# Profiles the course programs of kernels/ on a real GPU at sizes where the
# kernels' work dominates, with Nsight Compute, and writes one row per
# kernel launch to OUT_DIR/trends.csv:
#   "lab","args","launch","kernel","metric","unit","value"
# (launch = the launch's position in the program run, from 0).  Module
# loading is eager so no launch pays for loading or JIT-compiling code;
# ncu flushes the caches before each launch, as warpsim starts each launch
# with cold caches.  Needs the CUDA toolkit, ncu and a GPU.
#
#   validation/collect_trends.sh OUT_DIR
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
    ncu --version | tail -n 1 | sed 's/^/ncu=/'
    echo "build=nvcc -cudart shared -arch=sm_80 -O3; CUDA_MODULE_LOADING=EAGER; ncu --cache-control all --clock-control base"
} >"$out/meta.txt"
. "$root/validation/trend_sizes.sh"
for lab in $TREND_LABS; do
    nvcc -cudart shared -arch=sm_80 -O3 "$root/kernels/$lab.cu" -o "$work/$lab" &
done
wait
echo '"lab","args","launch","kernel","metric","unit","value"' >"$out/trends.csv"
for lab in $TREND_LABS; do
    trend_args "$lab" | while read -r args; do
        # shellcheck disable=SC2086
        CUDA_MODULE_LOADING=EAGER ncu --csv --print-units base \
            --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum \
            "$work/$lab" $args >"$work/log" 2>&1 || echo "$lab $args: exit $?"
        grep '^"' "$work/log" | awk -F'","' -v lab="$lab" -v args="$args" '
            NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); col[$i] = i }; next }
            { gsub(/^"|"$/, "", $0); split($0, f, "\",\"")
              id = f[col["ID"]]; v = f[col["Metric Value"]]; if (v ~ /^[0-9,.]+$/) gsub(/,/, "", v)
              printf "\"%s\",\"%s\",\"%s\",\"%s\",\"%s\",\"%s\",\"%s\"\n", lab, args, id,
                     f[col["Kernel Name"]], f[col["Metric Name"]], f[col["Metric Unit"]], v }' >>"$out/trends.csv"
        grep -q PASS "$work/log" || { echo "$lab $args: no PASS"; tail -5 "$work/log"; }
    done
done
echo "rows: $(($(wc -l <"$out/trends.csv") - 1))"
