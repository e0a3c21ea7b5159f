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
# GPU runs) are reported as known, not failed, as long as each case's
# difference stays within the bound the line gives (<=N%: |warpsim - GPU|
# as a percentage of the GPU's count); a known difference that grew past it
# fails.  With WS_SASS_DIR set (a folder of SASS listings, kernels/sass/ARCH)
# warpsim counts SASS-informed (--sass), and the known differences whose
# reason says "--sass counts" are failures.  Instruction counts are not
# exact by nature (the GPU counts SASS, warpsim PTX) and are compared only
# when named.  With WS_COMPARE_ROWS set, each comparison is appended to that
# file as a tab-separated row: lab, kernel, metric, GPU, warpsim, status
# (equal, known, grew, differs), reason.  WS_KNOWN_DIFFERENCES names another
# list than validation/known_differences.txt (for a test).
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
awk -F'","' -v metrics="$metrics" -v sass="${WS_SASS_DIR:-}" -v known_file="${WS_KNOWN_DIFFERENCES:-$root/validation/known_differences.txt}" \
    -v rows="${WS_COMPARE_ROWS:-}" -v lab="$lab" '
    BEGIN {
        n = split(metrics, ml, " "); for (i = 1; i <= n; i++) want[ml[i]] = 1
        while ((getline line < known_file) > 0) {
            if (line ~ /^#/ || split(line, k, " ") < 2 || (sass && line ~ /--sass counts/)) continue
            kk = k[1] SUBSEP k[2]; known[kk] = 1; bound[kk] = -1
            r = line; sub(/^[^ ]+ +[^ ]+ */, "", r)
            if (k[3] ~ /^<=[0-9.]+%$/) { bound[kk] = substr(k[3], 3) + 0; sub(/^[^ ]+ */, "", r) }
            why[kk] = r
        }
    }
    FNR == 1 && NR != 1 { second = 1 }
    { gsub(/^"|"$/, "", $0); split($0, f, "\",\""); key = f[1] SUBSEP f[3] }
    !second { if (f[3] in want) gpu[key] = f[5]; next }
    (f[3] in want) && (key in gpu) {
        kernel = f[1]; sub(/.*--kernel /, "", kernel); sub(/ .*/, "", kernel)
        g = gpu[key] + 0; w = f[5] + 0; kk = kernel SUBSEP f[3]; reason = ""
        if (g == w) { pass++; status = "equal" }
        else if (kk in known) {
            rel = 100 * (w > g ? w - g : g - w) / (g > 0 ? g : 1); reason = why[kk]
            if (bound[kk] < 0 || rel <= bound[kk]) { nknown++; status = "known" }
            else {
                fail++; status = "grew"
                printf "GREW %s\n  %s: gpu %s, warpsim %s (%.1f %%, known_differences.txt allows %s %%)\n", f[1], f[3], gpu[key], f[5], rel, bound[kk]
            }
        }
        else { fail++; status = "differs"; printf "MISMATCH %s\n  %s: gpu %s, warpsim %s\n", f[1], f[3], gpu[key], f[5] }
        if (rows != "") printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", lab, kernel, f[3], g, w, status, reason >>rows
        seen++
    }
    END { if (nknown) printf "%d known differences (validation/known_differences.txt)\n", nknown
          printf "%d passed, %d failed\n", pass, fail; if (seen == 0) { print "no case of this lab in the GPU data"; exit 1 } exit fail > 0 }
' "$gpu" "$work/ws.csv"
