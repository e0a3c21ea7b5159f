#!/bin/sh
# Runs a course program under `warpsim exec` and checks that it exits 0,
# that its last line of output is PASS and that no line says FAIL; then,
# where GPU_OUTPUTS holds what the same program printed at the same size on
# a real GPU (validation/collect_programs.sh), that warpsim's output is the
# same but for the times (normalize_times.awk).
#   run_lab.sh WARPSIM GPU_OUTPUTS PROGRAM [ARGS...]
warpsim=$1 gpu=$2
# Under the sanitizers LD_PRELOAD carries ASan's runtime for the program
# warpsim runs; the text tools here run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
shift 2
here=$(dirname "$0")
out=$(ws exec --no-summary -- "$@" 2>/dev/null)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then
    echo "run_lab: exit status $rc" >&2
    ws exec --no-summary -- "$@" >/dev/null
    exit 1
fi
if printf '%s\n' "$out" | grep -q FAIL; then
    echo "run_lab: a check failed" >&2
    exit 1
fi
if [ "$(printf '%s\n' "$out" | tail -n 1)" != PASS ]; then
    echo "run_lab: the last line is not PASS" >&2
    exit 1
fi
prog=$(basename "$1")
shift
header="=== $prog${*:+ $*}"
expected=$(awk -v h="$header" '$0 == h { f = 1; next } /^=== / { f = 0 } f' "$gpu")
if [ -z "$expected" ]; then
    echo "run_lab: no GPU output for '$header' in $gpu" >&2
    exit 1
fi
if ! printf '%s\n' "$expected" | awk -f "$here/normalize_times.awk" >"${TMPDIR:-/tmp}/run_lab_gpu.$$" ||
   ! printf '%s\n' "$out" | awk -f "$here/normalize_times.awk" >"${TMPDIR:-/tmp}/run_lab_ws.$$"; then
    exit 1
fi
if ! diff "${TMPDIR:-/tmp}/run_lab_gpu.$$" "${TMPDIR:-/tmp}/run_lab_ws.$$" >&2; then
    echo "run_lab: the output differs from the GPU's (< GPU, > warpsim; times masked)" >&2
    rm -f "${TMPDIR:-/tmp}/run_lab_gpu.$$" "${TMPDIR:-/tmp}/run_lab_ws.$$"
    exit 1
fi
rm -f "${TMPDIR:-/tmp}/run_lab_gpu.$$" "${TMPDIR:-/tmp}/run_lab_ws.$$"
echo "run_lab: same output as on the GPU (times masked)"
