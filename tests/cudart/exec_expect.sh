#!/bin/sh
# Runs PROGRAM under `warpsim exec --no-summary --functional` and compares
# its stdout with EXPECTED byte for byte; the exit status must be STATUS.
# Functional only: these programs check results and API behaviour, and the
# timing model adds nothing to that.
#   exec_expect.sh WARPSIM EXPECTED STATUS PROGRAM [ARGS...]
warpsim=$1 expected=$2 status=$3
shift 3
# Under the sanitizers LD_PRELOAD carries ASan's runtime for the program
# warpsim runs; the text tools here run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
LD_PRELOAD=$preload "$warpsim" exec --no-summary --functional -- "$@" >"$out"
rc=$?
if [ $rc -ne "$status" ]; then
    echo "exec_expect: exit status $rc, expected $status" >&2
    cat "$out" >&2
    exit 1
fi
diff -u "$expected" "$out" || exit 1
