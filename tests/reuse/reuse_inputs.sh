#!/bin/sh
# A launch is reused only when its key and the bytes it reads are those of
# an earlier launch (tests/reuse/data/reuse_inputs.cu lists its launches),
# or when it reads other values that steer nothing and its recorded launch's
# threads shared no bytes (its timing reused, its outputs from a functional
# run): an in-place kernel whose input is its previous output, atomics, or a
# kernel that read what it wrote is simulated again; device printf is
# printed again by a reused launch; racecheck and initcheck reuse identical
# launches as a run without them does (and simulate the others), and a
# traced launch is simulated while the launches the trace leaves out reuse
# as without it.
#   reuse_inputs.sh WARPSIM REUSE_INPUTS
warpsim=$1 prog=$2
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "reuse_inputs: $*" >&2; exit 1; }

ws exec --gpu h200 --json --summary-out "$t/r.json" -- "$prog" >"$t/r.out" || fail "exit status $?"
cat "$t/r.out"
[ "$(tail -n 1 "$t/r.out")" = PASS ] || fail "the last line is not PASS"
[ "$(grep -c '^hello from the device$' "$t/r.out")" -eq 2 ] || fail "device printf not printed twice"
ws exec --gpu h200 --no-summary --simulate-all -- "$prog" >"$t/all.out" || fail "--simulate-all: exit status $?"
diff -u "$t/all.out" "$t/r.out" || fail "the program printed something else with reuse"

# launch: the launch it must reuse (null: simulated) and with which inputs
for want in 1:null 2:1:same 3:1:other 4:null 5:null 6:null 7:6:same 8:1:other 9:null 10:9:same 11:null \
    12:11:same 13:null 14:null 15:14:same 16:null 17:null 18:17:same 19:null 20:19:same 21:17:same; do
    n=${want%%:*} rest=${want#*:}
    from=${rest%%:*} inputs=${rest#*:}
    line=$(grep "\"launch\":$n}\$" "$t/r.json") || fail "no summary of launch $n"
    if [ "$from" = null ]; then
        printf '%s\n' "$line" | grep -q '"timing_reused_from":null,' || fail "launch $n: expected it simulated: $line"
        printf '%s\n' "$line" | grep -q '"timing_reused_inputs"' && fail "launch $n: inputs named, not reused: $line"
    else
        printf '%s\n' "$line" | grep -q "\"timing_reused_from\":$from,\"timing_reused_inputs\":\"$inputs\"," ||
            fail "launch $n: expected timing_reused_from $from with $inputs inputs: $line"
    fi
done
grep -q "^scale, x changed: ok\$" "$t/r.out" || fail "launch 3's outputs, from its functional run, are wrong"

# a launch simulated though an earlier one had its key says which byte
# differed: launch 19's w[1] (byte 4 of w, 10 and 20 differing from their
# first byte), launch 17 its newest record of the key
line=$(grep '"launch":19}$' "$t/r.json")
printf '%s\n' "$line" | grep -q '"reuse_missed":17,"reuse_missed_address":[0-9]*,' ||
    fail "launch 19 does not name launch 17 as missed: $line"
printf '%s\n' "$(grep '"launch":1}$' "$t/r.json")" | grep -q '"reuse_missed"' && fail "launch 1 names a missed launch"
printf '%s\n' "$(grep '"launch":3}$' "$t/r.json")" | grep -q '"reuse_missed"' && fail "launch 3, reused, names a missed launch"
ws exec --gpu h200 -- "$prog" 2>"$t/full.err" >/dev/null || fail "full summary run: exit status $?"
grep -q "^  simulated: launch 17 had the same kernel, grid, block and arguments, but a byte it read holds another value now, at 0x[0-9a-f]* (byte 4 of the 8-byte allocation at 0x[0-9a-f]*)" \
    "$t/full.err" || fail "no full-summary line naming byte 4 of w"
grep -q "^  timing reused from launch 1: the same launch reading other values, which steer none of its branches, guards or addresses, not simulated again" \
    "$t/full.err" || fail "no full-summary line for launch 3's timing, reused with other inputs"
ws exec --gpu h200 --summary short -- "$prog" 2>"$t/short.err" >/dev/null || fail "short summary run: exit status $?"
grep -q "not reused (launch 17 read another value at 0x[0-9a-f]*)" "$t/short.err" || fail "no short-summary note"
grep -q "timing reused from launch 1 (other inputs, run functionally)," "$t/short.err" ||
    fail "no short-summary note of other inputs"

# racecheck and initcheck (the program reads no byte it never wrote): the
# identical launches reused as without them, and those of other inputs
# simulated (a functional run does not check as the timed one does): 3 is
# then simulated and recorded, and 8 reuses it
for from in null 1 null null null null 6 3 null 9 null 11 null null 14 null null 17 null 19 17; do
    echo "\"timing_reused_from\":$from"
done >"$t/want_checked"
for check in racecheck initcheck; do
    ws exec --gpu h200 --json --summary-out "$t/c.json" --$check -- "$prog" >/dev/null 2>&1 ||
        fail "$check run: exit status $?"
    grep -o '"timing_reused_from":[0-9a-z]*' "$t/c.json" | diff -u "$t/want_checked" - ||
        fail "--$check reused other launches than a run without it"
done
# a trace of the seventh launch alone (which reuses the sixth): it is
# simulated, every other launch reuses as without the trace
ws exec --gpu h200 --json --summary-out "$t/tr.json" --trace "$t/trace" --trace-launch 6 -- "$prog" >/dev/null 2>&1 ||
    fail "traced run: exit status $?"
[ -s "$t/trace" ] || fail "no trace of the seventh launch"
grep -o '"timing_reused_from":[0-9a-z]*' "$t/r.json" | sed '7s/:.*/:null/' >"$t/want"
grep -o '"timing_reused_from":[0-9a-z]*' "$t/tr.json" | diff -u "$t/want" - ||
    fail "with --trace-launch 6, other launches than the seventh were simulated again"
ws exec --functional --simulate-all -- "$prog" >/dev/null 2>"$t/f.err" && fail "--functional --simulate-all accepted"
grep -q 'simulate-all does not apply' "$t/f.err" || fail "no message for --functional --simulate-all"
echo "reuse_inputs: ok"
