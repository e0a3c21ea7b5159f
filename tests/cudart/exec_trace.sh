#!/bin/sh
# warpsim exec --trace: every launch of a program on one timeline.
#   exec_trace.sh WARPSIM VECTOR_ADD_PROGRAM
warpsim=$1 prog=$2
# Under the sanitizers LD_PRELOAD carries ASan's runtime for the program
# warpsim runs; the text tools here run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
out=${TMPDIR:-/tmp}/exec_trace.$$
trap 'rm -f "$out"' EXIT
ws exec --no-summary --trace "$out" --trace-format json -- "$prog" 100 >/dev/null 2>&1 || { echo "exec failed"; exit 1; }
# vector_add launches vecAdd, vecAddGridStride, vecAddCoarsened in that order
for k in vecAdd vecAddGridStride vecAddCoarsened; do
    grep -q "\"kernel\":\"$k\"" "$out" || { echo "no events of $k"; exit 1; }
done
# one timeline: the cycles never go back from one launch to the next
awk -F'"cycle":' '{ split($2, a, ","); c = a[1] + 0
    if (match($0, /"kernel":"[^"]*"/)) k = substr($0, RSTART, RLENGTH)
    if (k != last && c < prev_end) { print "launch " k " starts at " c " before " prev_end; bad = 1 }
    if (k != last) { last = k } ; if (c > prev_end) prev_end = c }
    END { exit bad }' "$out" || exit 1
# every event is one JSON object on its line
lines=$(wc -l <"$out")
objs=$(grep -c '^{"cycle":.*}$' "$out")
[ "$lines" -gt 100 ] && [ "$lines" = "$objs" ] || { echo "$lines lines, $objs events"; exit 1; }
ws exec --trace "$out" --trace-format svg -- "$prog" 2>&1 | grep -q "bad --trace-format 'svg'" ||
    { echo "a bad format was not refused"; exit 1; }
echo "exec_trace: $lines events of three launches on one timeline"
