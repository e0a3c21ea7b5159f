#!/bin/sh
# The fully-connected layer (kernels/fc_layer.cu: a warm-up and 5 timed
# launches) at a small size, with repeated-launch reuse and with
# --simulate-all: the program prints the same (checksum, CPU-checked
# sample, cudaEvent times); launch 1 is simulated and 2..6 reuse its
# timing; and every reused launch's summary is, but for the reuse field,
# the one the simulation of that launch gives.
#   reuse_fc.sh WARPSIM FC_LAYER
warpsim=$1 prog=$2
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "reuse_fc: $*" >&2; exit 1; }

size="40 33 50 5 1"
# shellcheck disable=SC2086
ws exec --gpu h200 --json --summary-out "$t/reuse.json" -- "$prog" $size >"$t/reuse.out" ||
    fail "exit status $? with reuse"
# shellcheck disable=SC2086
ws exec --gpu h200 --json --summary-out "$t/all.json" --simulate-all -- "$prog" $size >"$t/all.out" ||
    fail "exit status $? with --simulate-all"
cat "$t/reuse.out"
[ "$(tail -n 1 "$t/reuse.out")" = PASS ] || fail "the program's last line is not PASS"
diff -u "$t/all.out" "$t/reuse.out" || fail "the program printed something else with reuse"

[ "$(grep -c '^{"kernel"' "$t/reuse.json")" -eq 6 ] || fail "expected 6 launches"
for n in 1 2 3 4 5 6; do
    line=$(grep "\"launch\":$n}\$" "$t/reuse.json") || fail "no summary of launch $n"
    want=1
    [ $n -eq 1 ] && want=null
    printf '%s\n' "$line" | grep -q "\"timing_reused_from\":$want," ||
        fail "launch $n: timing_reused_from is not $want: $line"
    sim=$(grep "\"launch\":$n}\$" "$t/all.json") || fail "no --simulate-all summary of launch $n"
    printf '%s\n' "$sim" | grep -q '"timing_reused_from":null,' || fail "--simulate-all reused launch $n"
    [ "$(printf '%s\n' "$line" | sed 's/"timing_reused_from":[^,]*,//; s/"timing_reused_inputs":"[a-z]*",//')" = \
      "$(printf '%s\n' "$sim" | sed 's/"timing_reused_from":[^,]*,//')" ] ||
        fail "launch $n: the summary differs from the simulated one:
$line
$sim"
done
grep -q '^{"totals":.*"launches":6,.*"launches_reused":5,' "$t/reuse.json" || fail "totals: not 5 of 6 reused"
grep -q '^{"totals":.*"launches_reused":0,' "$t/all.json" || fail "totals: --simulate-all reused"
# of the totals' warp instructions, one launch's were simulated
one=$(grep '"launch":1}$' "$t/reuse.json" | sed 's/.*"warp_instructions":\([0-9]*\),.*/\1/')
grep -q "^{\"totals\":.*\"warp_instructions_simulated\":$one,\"warp_instructions\":$((6 * one))," "$t/reuse.json" ||
    fail "totals: not one launch's $one warp instructions simulated of 6"
grep -q "\"warp_instructions_simulated\":$((6 * one)),\"warp_instructions\":$((6 * one))," "$t/all.json" ||
    fail "totals: --simulate-all did not simulate all warp instructions"

# the text summaries say it too
# shellcheck disable=SC2086
ws exec --gpu h200 --summary short -- "$prog" $size 2>"$t/short.err" >/dev/null || fail "short summary run"
[ "$(grep -c 'timing reused from launch 1,' "$t/short.err")" -eq 5 ] || fail "short summary: not 5 reused"
# shellcheck disable=SC2086
ws exec --gpu h200 -- "$prog" $size 2>"$t/full.err" >/dev/null || fail "full summary run"
[ "$(grep -c '^  timing reused from launch 1:' "$t/full.err")" -eq 5 ] || fail "full summary: not 5 reused"
grep -q "6 launches (5 of them with the timing of an identical earlier launch" "$t/full.err" || fail "totals text"
grep -q "$((6 * one)) warp instructions ($one of them simulated)" "$t/full.err" || fail "totals text: simulated"
echo "reuse_fc: ok"
