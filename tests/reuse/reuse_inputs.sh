#!/bin/sh
# A launch is reused only when its key and the bytes it reads are those of
# an earlier launch (tests/reuse/data/reuse_inputs.cu lists its launches):
# an input byte changed on the host, or an in-place kernel whose input is
# its previous output, is simulated again; device printf is printed again
# by a reused launch; racecheck and initcheck reuse as a run without them
# does, and a traced launch is simulated while the launches the trace leaves
# out reuse as without it.
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

# launch: the launch it must reuse (null: simulated)
for want in 1:null 2:1 3:null 4:null 5:null 6:null 7:6 8:3 9:null 10:9 11:null 12:11 13:null 14:null 15:14 16:null \
    17:null 18:17 19:null 20:19 21:17; do
    n=${want%%:*} from=${want#*:}
    line=$(grep "\"launch\":$n}\$" "$t/r.json") || fail "no summary of launch $n"
    printf '%s\n' "$line" | grep -q "\"timing_reused_from\":$from," ||
        fail "launch $n: expected timing_reused_from $from: $line"
done

# a launch simulated though an earlier one had its key says which byte
# differed: launch 3's x[777] (byte 3109 of x, 777.0f and -5.0f differing
# from their second byte), launch 1 its newest record of the key
line=$(grep '"launch":3}$' "$t/r.json")
printf '%s\n' "$line" | grep -q '"reuse_missed":1,"reuse_missed_address":[0-9]*,' ||
    fail "launch 3 does not name launch 1 as missed: $line"
printf '%s\n' "$(grep '"launch":1}$' "$t/r.json")" | grep -q '"reuse_missed"' && fail "launch 1 names a missed launch"
ws exec --gpu h200 -- "$prog" 2>"$t/full.err" >/dev/null || fail "full summary run: exit status $?"
grep -q "^  simulated: launch 1 had the same kernel, grid, block and arguments, but a byte it read holds another value now, at 0x[0-9a-f]* (byte 3109 of the 4000-byte allocation at 0x[0-9a-f]*)" \
    "$t/full.err" || fail "no full-summary line naming byte 3109 of x"
ws exec --gpu h200 --summary short -- "$prog" 2>"$t/short.err" >/dev/null || fail "short summary run: exit status $?"
grep -q "not reused (launch 1 read another value at 0x[0-9a-f]*)" "$t/short.err" || fail "no short-summary note"

# racecheck and initcheck (the program reads no byte it never wrote): the
# same launches reused as without them
for check in racecheck initcheck; do
    ws exec --gpu h200 --json --summary-out "$t/c.json" --$check -- "$prog" >/dev/null 2>&1 ||
        fail "$check run: exit status $?"
    [ "$(grep -o '"timing_reused_from":[0-9a-z]*' "$t/c.json")" = "$(grep -o '"timing_reused_from":[0-9a-z]*' "$t/r.json")" ] ||
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
