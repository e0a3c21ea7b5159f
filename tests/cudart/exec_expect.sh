#!/bin/sh
# Runs PROGRAM under `warpsim exec --no-summary` (MODE functional adds
# --functional, for programs whose many launches the timing model would
# only slow down; timed leaves the timing model on) and compares its stdout
# with EXPECTED byte for byte; the exit status must be STATUS.
#   exec_expect.sh WARPSIM MODE EXPECTED STATUS PROGRAM [ARGS...]
warpsim=$1 mode=$2 expected=$3 status=$4
shift 4
case $mode in
    functional) opt=--functional ;;
    timed) opt= ;;
    *) echo "exec_expect: MODE is functional or timed, not '$mode'" >&2; exit 2 ;;
esac
# Under the sanitizers LD_PRELOAD carries ASan's runtime for the program
# warpsim runs; the text tools here run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
LD_PRELOAD=$preload "$warpsim" exec --no-summary $opt -- "$@" >"$out"
rc=$?
if [ $rc -ne "$status" ]; then
    echo "exec_expect: exit status $rc, expected $status" >&2
    cat "$out" >&2
    exit 1
fi
diff -u "$expected" "$out" || exit 1
