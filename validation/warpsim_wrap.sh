#!/bin/sh
# Stands in for `warpsim run` under tests/e2e/e2e_kernels: runs warpsim with
# --json and appends its counters to $WS_OUT in the same rows as
# ncu_wrap.sh writes for the GPU, named as Nsight Compute names them:
#   "case","kernel","metric","unit","value"
# Environment: WARPSIM (path to the warpsim binary), WS_OUT (CSV file),
# WS_SASS_DIR (optional: run with --sass DIR/<lab>.sass, SASS-informed
# counters, for the lab whose kernels/ptx/ARCH/<lab>.ptx is run).
set -u
json=$(mktemp)
if [ -n "${WS_SASS_DIR:-}" ]; then
    lab=$(printf '%s\n' "$@" | sed -n 's|.*kernels/ptx/[^/]*/\([^/]*\)\.ptx$|\1|p' | head -n 1)
    set -- "$@" --sass "$WS_SASS_DIR/$lab.sass"
fi
"$WARPSIM" "$@" --json 2>"$json"
rc=$?
case_line=$(printf '%s\n' "$@" | awk 'BEGIN{skip=0} skip{skip=0; next} $0=="--dump"||$0=="--sass"{skip=1; next} {sub(".*/kernels/ptx/", "kernels/ptx/"); gsub("/[^ ]*/warpsim-e2e-[A-Za-z0-9]+/", ""); printf "%s%s", sep, $0; sep=" "}')
grep '^{' "$json" | tail -n 1 | tr -d '{}' | tr ',' '\n' | awk -F: -v c="$case_line" '
    BEGIN {
        m["shared_wavefronts_ld"] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
        m["shared_wavefronts_st"] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
        m["shared_bank_conflicts_ld"] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
        m["shared_bank_conflicts_st"] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
        m["global_ld_requests"] = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
        m["global_st_requests"] = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
        m["global_ld_sectors"] = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
        m["global_st_sectors"] = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
        m["warp_instructions"] = "smsp__inst_executed.sum"
        m["thread_instructions"] = "smsp__thread_inst_executed.sum"
    }
    { gsub(/"/, "", $1); if ($1 in m) printf "\"%s\",\"\",\"%s\",\"\",\"%s\"\n", c, m[$1], $2 }' >>"$WS_OUT"
grep -v '^{' "$json" >&2
rm -f "$json"
exit $rc
