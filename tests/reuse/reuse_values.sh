#!/bin/sh
# Launches that read other values than an earlier launch of their key
# (tests/reuse/data/reuse_values.cu lists them): the timing is reused, and
# the outputs come from a functional run, only where no value read steers
# a branch, guard or address and the recorded launch's threads shared no
# bytes; every reused launch's summary, counter by counter and cycle by
# cycle, and everything the program prints are those of a run with
# --simulate-all, on one thread and on three.
#   reuse_values.sh WARPSIM REUSE_VALUES
warpsim=$1 prog=$2
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "reuse_values: $*" >&2; exit 1; }

# the summaries and totals without what says whether and how each was reused
strip() {
    sed 's/"timing_reused_from":[^,]*,//; s/"timing_reused_inputs":"[a-z]*",//; s/"reuse_missed":[0-9]*,"reuse_missed_address":[0-9]*,//
         s/,"launches_reused":[0-9]*,"launches_reused_other_inputs":[0-9]*,"warp_instructions_simulated":[0-9]*//' "$1"
}

ws exec --gpu h200 --threads 1 --json --summary-out "$t/all.json" --simulate-all -- "$prog" >"$t/all.out" ||
    fail "--simulate-all: exit status $?"
[ "$(tail -n 1 "$t/all.out")" = PASS ] || fail "--simulate-all: the last line is not PASS"
strip "$t/all.json" >"$t/all.stripped"
for threads in 1 3; do
    ws exec --gpu h200 --threads $threads --json --summary-out "$t/r.json" -- "$prog" >"$t/r.out" 2>"$t/r.err" ||
        fail "$threads threads: exit status $?"
    cat "$t/r.out"
    # a functional run that counted otherwise than its record would say so
    # and be simulated instead: the analysis let a steering value through
    grep 'simulated instead' "$t/r.err" && fail "$threads threads: a launch of other inputs was not what its record was"
    diff -u "$t/all.out" "$t/r.out" || fail "$threads threads: the program printed something else with reuse"
    strip "$t/r.json" | diff -u "$t/all.stripped" - ||
        fail "$threads threads: a summary differs from --simulate-all's"
    # launch: the launch whose timing it must reuse with other inputs (null: simulated)
    n=0
    for from in null null 1 2 1 2 null null null null null null null null null 15 15 null null null null 21 null 23; do
        n=$((n + 1))
        line=$(grep "\"launch\":$n}\$" "$t/r.json") || fail "no summary of launch $n"
        if [ "$from" = null ]; then
            printf '%s\n' "$line" | grep -q '"timing_reused_from":null,' ||
                fail "$threads threads: launch $n: expected it simulated: $line"
        else
            printf '%s\n' "$line" | grep -q "\"timing_reused_from\":$from,\"timing_reused_inputs\":\"other\"," ||
                fail "$threads threads: launch $n: expected the timing of launch $from, other inputs: $line"
        fi
    done
done
# the totals say how many were reused with other inputs
ws exec --gpu h200 --summary short -- "$prog" 2>"$t/totals.err" >/dev/null || fail "totals run: exit status $?"
grep -q "^  smooth: 6 launches (4 of them with the timing of an earlier launch, not simulated again: 0 identical, 4 reading other values, run functionally)" \
    "$t/totals.err" || fail "no totals line for smooth"
# counted per line, the reused launches add their records' counters: the
# per-line report is --simulate-all's, line by line
ws exec --gpu h200 --summary none --lines-out "$t/l.json" -- "$prog" >/dev/null 2>&1 || fail "lines run: exit status $?"
ws exec --gpu h200 --summary none --lines-out "$t/la.json" --simulate-all -- "$prog" >/dev/null 2>&1 ||
    fail "lines run, --simulate-all: exit status $?"
[ -s "$t/la.json" ] || fail "no per-line report"
diff -u "$t/la.json" "$t/l.json" >/dev/null || fail "the per-line report differs from --simulate-all's"
# and so does the HTML report's summary of the kernel
ws exec --gpu h200 --summary none --report "$t/r.html" -- "$prog" >/dev/null 2>&1 || fail "report run: exit status $?"
grep -q "6 launches (4 of them with the timing of an earlier launch, not simulated again: 0 identical, 4 reading other values, run functionally)" \
    "$t/r.html" || fail "no report line for smooth"
echo "reuse_values: ok"
