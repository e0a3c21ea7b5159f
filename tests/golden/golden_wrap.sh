#!/bin/sh
# Stands in for `warpsim run` under tests/e2e/e2e_kernels: runs warpsim with
# --json and appends "CASE<TAB>JSON" to $WS_OUT, the case being the command
# line without the paths of this machine.
# Environment: WARPSIM (the warpsim binary), WS_OUT (the file).
set -u
json=$(mktemp)
"$WARPSIM" "$@" --json 2>"$json"
rc=$?
case_line=$(printf '%s\n' "$@" | awk 'BEGIN{skip=0} skip{skip=0; next} $0=="--dump"{skip=1; next} {sub(".*/kernels/ptx/", "kernels/ptx/"); printf "%s%s", sep, $0; sep=" "}')
printf '%s\t%s\n' "$case_line" "$(grep '^{' "$json" | tail -n 1)" >>"$WS_OUT"
grep -v '^{' "$json" >&2
rm -f "$json"
exit $rc
