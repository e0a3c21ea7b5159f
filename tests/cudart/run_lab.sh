#!/bin/sh
# Runs a course program under `warpsim exec` and checks that it exits 0,
# that its last line of output is PASS and that no line says FAIL.
#   run_lab.sh WARPSIM PROGRAM [ARGS...]
warpsim=$1
shift
out=$("$warpsim" exec --no-summary -- "$@" 2>/dev/null)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then
    echo "run_lab: exit status $rc" >&2
    "$warpsim" exec --no-summary -- "$@" >/dev/null
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
