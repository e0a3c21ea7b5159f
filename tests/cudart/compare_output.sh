#!/bin/sh
# Runs PROGRAM under `warpsim exec` and compares its stdout with EXPECTED
# byte for byte; the exit status must be STATUS.
#   compare_output.sh WARPSIM EXPECTED STATUS PROGRAM [ARGS...]
warpsim=$1 expected=$2 status=$3
shift 3
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$warpsim" exec --no-summary -- "$@" >"$out"
rc=$?
if [ $rc -ne "$status" ]; then
    echo "compare_output: exit status $rc, expected $status" >&2
    exit 1
fi
diff -u "$expected" "$out" || exit 1
