#!/bin/sh
# --host-times FILE (sim/trace/host_times.h): one JSON line a launch, its
# kernel, number, threads and how it was run agreeing with the launch's
# JSON summary, and its warp instructions and cycles the summary's own;
# a simulated timed launch's windows (where their host time went) adding
# up: its SMs' part no shorter than its busiest SMs, its settling inside
# its ends, the parts inside the launch's time; none for a launch run
# cycle by cycle, reused or functional; the cycles a window, and for a
# launch cycle by cycle why (--window 1, or a volatile load and its place).
#   exec: the fully-connected layer at a small size (launch 1 simulated,
#   2..6 reusing its timing), timed on 2 threads and functional;
#   run: one histogram kernel on 3 threads.
#   host_times.sh WARPSIM FC_LAYER HISTOGRAM_PTX
warpsim=$1 prog=$2 ptx=$3
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "host_times: $*" >&2; exit 1; }
# the value of key $2 in the JSON line $1 (numbers and strings without commas)
field() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^,}\"]*\)\"\{0,1\}[,}].*/\1/p"; }

# every line of $1 (host times) against the summary of the same launch in $2
check() {
    times=$1 summary=$2 nlaunches=$3 threads=$4 first=$5 rest=$6
    [ "$(grep -c '^{"kernel"' "$times")" -eq "$nlaunches" ] || fail "$times: not $nlaunches lines: $(cat "$times")"
    n=1
    while [ $n -le "$nlaunches" ]; do
        line=$(grep "\"launch\":$n," "$times") || fail "$times: no line for launch $n"
        sum=$(grep "\"launch\":$n}\$" "$summary") || fail "$summary: no summary of launch $n"
        how=$rest
        [ $n -eq 1 ] && how=$first
        [ "$(field "$line" how)" = "$how" ] || fail "launch $n: how is not $how: $line"
        [ "$(field "$line" threads)" = "$threads" ] || fail "launch $n: threads is not $threads: $line"
        for k in kernel warp_instructions; do
            [ "$(field "$line" $k)" = "$(field "$sum" $k)" ] || fail "launch $n: $k differs from the summary: $line / $sum"
        done
        cycles=$(field "$sum" cycles)
        [ "$(field "$line" cycles)" = "${cycles:-0}" ] || fail "launch $n: cycles differ from the summary: $line / $sum"
        awk -v s="$(field "$line" host_s)" 'BEGIN { exit !(s > 0 && s < 3600) }' || fail "launch $n: host_s: $line"
        # a rate for what was simulated, none for what was taken from an earlier launch
        rate=$(field "$line" warp_instructions_per_s)
        if [ "$how" = reused ]; then
            [ "$rate" = null ] || fail "launch $n: a rate for a reused launch: $line"
        else
            awk -v r="$rate" -v w="$(field "$line" warp_instructions)" -v s="$(field "$line" host_s)" \
                'BEGIN { exit !(r > 0 && r / (w / s) > 0.99 && r / (w / s) < 1.01) }' ||
                fail "launch $n: the rate is not warp instructions over host_s: $line"
        fi
        windows "$line" "$how" "$n"
        n=$((n + 1))
    done
}

# the windows of launch $3's line $1 ($2: how it ran)
windows() {
    line=$1 how=$2 n=$3
    w=$(printf '%s\n' "$line" | sed -n 's/.*"windows":{\([^}]*\)}.*/\1/p')
    if [ "$how" != timed ]; then
        [ -z "$w" ] || fail "launch $n: windows for a launch not simulated by the timing model: $line"
        return
    fi
    [ -n "$w" ] || fail "launch $n: no windows: $line"
    w="{$w}"
    awk -v on="$(field "$w" on_threads)" -v sms="$(field "$w" sms_s)" -v busy="$(field "$w" busiest_sm_s)" \
        -v work="$(field "$w" sm_windows_s)" -v ends="$(field "$w" ends_s)" -v settle="$(field "$w" settle_s)" \
        -v wait="$(field "$w" end_wait_s)" \
        -v alone="$(field "$w" alone)" -v alone_s="$(field "$w" alone_s)" -v host="$(field "$line" host_s)" \
        -v cbc="${CYCLE_BY_CYCLE:-0}" 'BEGIN {
            if (cbc) exit !(on == 0 && alone == 0 && sms + busy + work + ends + settle + wait + alone_s == 0)
            # (each figure rounded to the microsecond: a sum of n of them may be n / 2 us over)
            exit !(on + alone > 0 && busy <= sms && settle + wait <= ends + 1e-6 && busy <= work &&
                   sms + ends + alone_s <= host + 2e-6 && (on > 0 || sms + ends + work == 0) &&
                   (alone > 0 || alone_s == 0))
        }' || fail "launch $n: windows that do not add up: $line"
    # the cycles a window, and why one cycle where it is one
    cycles=$(field "$w" window_cycles)
    why=$(printf '%s\n' "$w" | sed -n 's/.*"cycle_by_cycle":"\([^"]*\)".*/\1/p')
    if [ "${CYCLE_BY_CYCLE:-0}" = 1 ]; then
        [ "$cycles" = 1 ] || fail "launch $n: window_cycles is not 1: $line"
        [ "$why" = "${WHY:-}" ] || fail "launch $n: cycle_by_cycle is not '${WHY:-}': $line"
    else
        [ "${cycles:-0}" -gt 1 ] && [ -z "$why" ] || fail "launch $n: in windows, but window_cycles $cycles, why '$why': $line"
    fi
}

size="40 33 50 5 1"
# shellcheck disable=SC2086
ws exec --gpu h200 --threads 2 --json --summary-out "$t/timed.json" --host-times "$t/timed.times" -- \
    "$prog" $size >/dev/null || fail "exit status $? (timed)"
check "$t/timed.times" "$t/timed.json" 6 2 timed reused
# shellcheck disable=SC2086
ws exec --functional --json --summary-out "$t/func.json" --host-times "$t/func.times" -- \
    "$prog" $size >/dev/null || fail "exit status $? (functional)"
check "$t/func.times" "$t/func.json" 6 1 functional functional
# the file is made anew by each run, not added to
# shellcheck disable=SC2086
ws exec --functional --no-summary --host-times "$t/func.times" -- "$prog" $size >/dev/null || fail "second run"
[ "$(wc -l < "$t/func.times")" -eq 6 ] || fail "a second run added to the file"

# warpsim run: its one launch (its summary has no number, its line 1)
ws run "$ptx" --kernel histogramGlobal --grid 64 --block 256 --arg buf:u8:16384:rand=3 --arg buf:u32:7:zero \
    --arg i32:16384 --arg i32:4 --gpu h200 --threads 3 --json --host-times "$t/run.times" \
    >/dev/null 2>"$t/run.json" || fail "warpsim run: exit status $?"
grep '^{"kernel"' "$t/run.json" | sed 's/}$/,"launch":1}/' > "$t/run1.json"
check "$t/run.times" "$t/run1.json" 1 3 timed timed
# cycle by cycle: no windows
ws run "$ptx" --kernel histogramGlobal --grid 64 --block 256 --arg buf:u8:16384:rand=3 --arg buf:u32:7:zero \
    --arg i32:16384 --arg i32:4 --gpu h200 --threads 3 --window 1 --json --host-times "$t/run.times" \
    >/dev/null 2>"$t/run.json" || fail "warpsim run --window 1: exit status $?"
grep '^{"kernel"' "$t/run.json" | sed 's/}$/,"launch":1}/' > "$t/run1.json"
CYCLE_BY_CYCLE=1 WHY="asked for (--window 1)" check "$t/run.times" "$t/run1.json" 1 3 timed timed
# cycle by cycle for what the code has: a volatile load, named with its place
cat > "$t/vol.ptx" <<'EOF'
.version 7.0
.target sm_80
.address_size 64
.visible .entry peek(.param .u64 pa)
{
 .reg .b32 %r<2>;
 .reg .b64 %rd<2>;
 ld.param.u64 %rd1, [pa];
 ld.volatile.global.u32 %r1, [%rd1];
 st.global.u32 [%rd1+4], %r1;
 ret;
}
EOF
ws run "$t/vol.ptx" --kernel peek --grid 1 --block 32 --arg buf:u32:2:zero --gpu h200 --threads 1 --json \
    --host-times "$t/vol.times" >/dev/null 2>"$t/vol.json" || fail "warpsim run (volatile): exit status $?"
grep '^{"kernel"' "$t/vol.json" | sed 's/}$/,"launch":1}/' > "$t/vol1.json"
CYCLE_BY_CYCLE=1 WHY="its code has a volatile load: ld.global.volatile.u32 at pc 1 ($t/vol.ptx:9:2)" \
    check "$t/vol.times" "$t/vol1.json" 1 1 timed timed
echo "host_times: ok"
