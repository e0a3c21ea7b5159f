#!/bin/sh
# A program with faulty kernels under `warpsim exec --racecheck`: the race
# is reported with both source lines, the spinning kernel is stopped and the
# program gets cudaErrorLaunchTimeout, and the program goes on.
#   faults.sh WARPSIM PROGRAM
set -u
ws=$1; prog=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; exit 1; }
"$ws" exec --gpu a100 --racecheck --leak-check --progress-limit 200000 --no-summary -- "$prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "exit $rc"
grep -qx "matmul without its second barrier: cudaSuccess" "$tmp/out" || fail "matmul line"
grep -qx "a kernel that waits for ever: cudaErrorLaunchTimeout" "$tmp/out" || fail "timeout line"
grep -qx "the program goes on" "$tmp/out" || fail "the program did not go on"
grep -q "warpsim racecheck: shared memory hazard (write after read) .* of kernel .*matmulMissingSync.*faults.cu:18).*after the read by .*faults.cu:20).*with no barrier between" "$tmp/err" ||
    fail "no write-after-read hazard naming faults.cu:18 and :20"
# the second launch shows none of the findings again, and says so
grep -qx "the same again: cudaSuccess" "$tmp/out" || fail "second matmul line"
first=$(grep -c "warpsim racecheck: .* of kernel .*matmulMissingSync" "$tmp/err")
[ "$(grep -c "warpsim checks: .* in kernel .*matmulMissingSync" "$tmp/err")" -eq 2 ] || fail "not two checks summaries"
grep -q "warpsim checks: [0-9]* finding(s) in kernel .*matmulMissingSync.*, $first distinct shown\$" "$tmp/err" ||
    fail "the first launch's summary does not count its $first findings shown"
grep -q "warpsim checks: [0-9]* finding(s) in kernel .*matmulMissingSync.*, 0 distinct shown, $first as an earlier launch showed\$" "$tmp/err" ||
    fail "the second launch's summary does not say its $first findings were shown before"
# the second launch is the first again, reused: it reports what it would
# simulated (the same stderr as with --simulate-all but for the summary)
grep -q "timing reused from launch" "$tmp/err" && fail "--no-summary printed a summary"
"$ws" exec --gpu a100 --racecheck --leak-check --progress-limit 200000 --summary short -- "$prog" >/dev/null 2>"$tmp/r.err"
grep -q "^kernel .*matmulMissingSync.*timing reused from launch 1" "$tmp/r.err" ||
    fail "the second racy launch was not reused: $(grep matmulMissingSync "$tmp/r.err")"
"$ws" exec --gpu a100 --racecheck --leak-check --progress-limit 200000 --no-summary --simulate-all -- "$prog" \
    >/dev/null 2>"$tmp/s.err"
sed 's/ at 0x[0-9a-f]*//g' "$tmp/err" >"$tmp/e1"
sed 's/ at 0x[0-9a-f]*//g' "$tmp/s.err" >"$tmp/e2"
cmp -s "$tmp/e1" "$tmp/e2" || fail "the reused racy launch reported otherwise than simulated: $(diff "$tmp/e1" "$tmp/e2")"
grep -q "launch timed out: kernel .*waitForever.* made no progress in 200000 warp instructions.*warp 0 at pc [0-9]* (.*faults.cu:29" "$tmp/err" ||
    fail "no diagnosis of the spinning kernel at faults.cu:29"
grep -qx "cudaFree after the fault: cudaErrorLaunchTimeout" "$tmp/out" || fail "the timeout is not sticky"
grep -q "warpsim leak check: 4 allocation(s), 12292 bytes, never freed with cudaFree: 4096 bytes at 0x" "$tmp/err" ||
    fail "no leak report of the four buffers the program never frees"
echo "faults: ok"
