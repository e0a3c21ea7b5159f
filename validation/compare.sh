#!/bin/sh
# Holds warpsim's counters against a GPU's for the same launches.
#
#   validation/compare.sh WARPSIM GPU_COUNTERS.csv ARCH LAB [METRIC...]
#
# Runs the lab's end-to-end cases through warpsim (validation/warpsim_wrap.sh)
# and compares each named metric (default: the exact ones, shared-memory
# wavefronts and bank conflicts, global requests and sectors) case by case.
# Prints one line per comparison and "N passed, M failed"; exits 1 on any
# mismatch.  Pairs listed in validation/known_differences.txt (kernel and
# metric where warpsim's PTX-level count knowingly differs from the SASS the
# GPU runs) are reported as known, not failed.  With WS_SASS_DIR set (a folder
# of SASS listings, kernels/sass/ARCH) warpsim counts SASS-informed (--sass),
# and the known differences whose reason says "--sass counts" are failures.  Instruction counts are not exact by nature (the GPU counts SASS,
# warpsim PTX) and are compared only when named.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
warpsim=$1 gpu=$2 arch=$3 lab=$4
shift 4
metrics=${*:-"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
e2e=${E2E_KERNELS:-}
if [ -z "$e2e" ]; then
    e2e="$work/e2e_kernels"
    cc -std=gnu11 -O2 -ffp-contract=off "$root/tests/e2e/e2e_kernels.c" -o "$e2e" -lm
fi
WARPSIM=$warpsim WS_OUT="$work/ws.csv" "$e2e" --warpsim "$root/validation/warpsim_wrap.sh" \
    --ptx-dir "$root/kernels/ptx/$arch" --lab "$lab" >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
awk -F'","' -v metrics="$metrics" -v sass="${WS_SASS_DIR:-}" -v known_file="$root/validation/known_differences.txt" '
    BEGIN {
        n = split(metrics, ml, " "); for (i = 1; i <= n; i++) want[ml[i]] = 1
        while ((getline line < known_file) > 0)
            if (line !~ /^#/ && split(line, k, " ") >= 2 && !(sass && line ~ /--sass counts/))
                known[k[1] SUBSEP k[2]] = 1
    }
    FNR == 1 && NR != 1 { second = 1 }
    { gsub(/^"|"$/, "", $0); split($0, f, "\",\""); key = f[1] SUBSEP f[3] }
    !second { if (f[3] in want) gpu[key] = f[5]; next }
    (f[3] in want) && (key in gpu) {
        kernel = f[1]; sub(/.*--kernel /, "", kernel); sub(/ .*/, "", kernel)
        if (gpu[key] + 0 == f[5] + 0) pass++
        else if ((kernel SUBSEP f[3]) in known) { nknown++; seen++; next }
        else { fail++; printf "MISMATCH %s\n  %s: gpu %s, warpsim %s\n", f[1], f[3], gpu[key], f[5] }
        seen++
    }
    END { if (nknown) printf "%d known differences (validation/known_differences.txt)\n", nknown
          printf "%d passed, %d failed\n", pass, fail; if (seen == 0) { print "no case of this lab in the GPU data"; exit 1 } exit fail > 0 }
' "$gpu" "$work/ws.csv"
