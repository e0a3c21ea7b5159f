#!/bin/sh
# A course program under `warpsim exec --gpu h200` prints the same, and
# every launch's JSON summary is byte for byte the same, on one thread and
# on 3 and 8 threads with every cycle run on the threads
# (WARPSIM_THREADS_EVERY_CYCLE=1; docs/THREADS.md), and on 3 threads cycle
# by cycle (--window 1; by default kernels that allow it run in windows).
#   threads_same.sh WARPSIM [--sass LISTING] PROGRAM [ARGS...]
warpsim=$1
shift
sass=
if [ "${1:-}" = --sass ]; then
    sass=$2
    shift 2
fi
# Under the sanitizers LD_PRELOAD carries ASan's runtime for the program
# warpsim runs; the text tools here run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 1 3 8 3w1; do
    window=
    [ $n = 3w1 ] && window="--window 1"
    # shellcheck disable=SC2086
    LD_PRELOAD=$preload WARPSIM_THREADS_EVERY_CYCLE=1 "$warpsim" exec --gpu h200 --threads ${n%w1} $window --json \
        ${sass:+--sass "$sass"} --summary-out "$tmp/json.$n" -- "$@" >"$tmp/out.$n" 2>"$tmp/err.$n" ||
        { echo "threads_same: exit status $? on $n threads" >&2; cat "$tmp/err.$n" >&2; exit 1; }
done
grep -q '^{"kernel"' "$tmp/json.1" || { echo "threads_same: no launch summary" >&2; exit 1; }
for n in 3 8 3w1; do
    cmp "$tmp/out.1" "$tmp/out.$n" >&2 || { echo "threads_same: output differs on $n threads" >&2; exit 1; }
    cmp "$tmp/json.1" "$tmp/json.$n" >&2 || { echo "threads_same: summaries differ on $n threads" >&2; exit 1; }
done
echo "threads_same: $(grep -c '^{"kernel"' "$tmp/json.1") launches, the same on 1, 3 and 8 threads and cycle by cycle"
