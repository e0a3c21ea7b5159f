#!/bin/sh
# Stands in for `warpsim run` under tests/e2e/e2e_kernels: runs the same
# kernel launch on the real GPU (tests/e2e/gpu_run, CUDA driver API) under
# Nsight Compute and appends one CSV row per metric to $NCU_OUT:
#   "case","kernel","metric","unit","value"
# where case is the launch's command line as warpsim would take it.
# Environment: GPU_RUN (path to gpu_run), NCU_OUT (CSV file), NCU_METRICS.
set -u
log=$(mktemp)
ncu --csv --print-units base --metrics "$NCU_METRICS" "$GPU_RUN" "$@" >"$log" 2>&1
rc=$?
# The launch as warpsim would take it: 'run FILE ARGS...' without --dump.
case_line=$(printf '%s\n' "$@" | awk 'BEGIN{skip=0} skip{skip=0; next} $0=="--dump"{skip=1; next} {sub(".*/kernels/ptx/", "kernels/ptx/"); gsub("/[^ ]*/warpsim-e2e-[A-Za-z0-9]+/", ""); printf "%s%s", sep, $0; sep=" "}')
grep '^"' "$log" | awk -F'","' -v c="$case_line" '
    NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); col[$i] = i }; next }
    { gsub(/^"|"$/, "", $0); n = split($0, f, "\",\"");
      v = f[col["Metric Value"]]; if (v ~ /^[0-9,.]+$/) gsub(/,/, "", v)
      printf "\"%s\",\"%s\",\"%s\",\"%s\",\"%s\"\n", c, f[col["Kernel Name"]], f[col["Metric Name"]], f[col["Metric Unit"]], v }' >>"$NCU_OUT"
# gpu_run's own messages (the dump it wrote is what e2e_kernels checks).
grep -v '^"' "$log" | grep -v '^==PROF==' >&2
rm -f "$log"
exit $rc
