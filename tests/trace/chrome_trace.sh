#!/bin/sh
# The Chrome trace of the tiled matmul lab passes the structural check
# (chrome_check.h), from `warpsim run` on its PTX or from `warpsim exec` on
# the program, timed and functional; `--trace -` writes it to stdout; and
# --trace-limit stops it with a note.
#   chrome_trace.sh run  WARPSIM CHECKER MATMUL.ptx
#   chrome_trace.sh exec WARPSIM CHECKER MATMUL_PROGRAM
mode=$1 warpsim=$2 check=$3 input=$4
# Under the sanitizers LD_PRELOAD carries ASan's runtime for what warpsim
# runs; the checker and the text tools run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "chrome_trace $mode: $*" >&2; exit 1; }

# 64x64 by 64x64: 16 blocks of 16x16 threads (8 warps each) of matmulTiled16
traced() {     # traced NAME [warpsim options...]: a trace into $tmp/NAME.json
    name=$1
    shift
    if [ "$mode" = run ]; then
        ws run "$input" --kernel matmulTiled16 --grid 4,4 --block 16,16 \
            --arg buf:f32:4096:rand=1 --arg buf:f32:4096:rand=2 --arg buf:f32:4096:zero \
            --arg i32:64 --arg i32:64 --arg i32:64 --summary none "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    else
        ws exec --no-summary "$@" -- "$input" 32 32 32 >"$tmp/$name.out" 2>"$tmp/$name.err"
    fi || { cat "$tmp/$name.err" >&2; fail "$name: warpsim failed"; }
}

traced timed --trace "$tmp/timed.json" --trace-format chrome
"$check" "$tmp/timed.json" 1000 || fail "the timed trace fails the check"
traced functional --functional --trace "$tmp/functional.json" --trace-format chrome
"$check" "$tmp/functional.json" 1000 || fail "the functional trace fails the check"

# the SMs and warps are named, and the clock is the GPU's (a100: 1410 MHz)
grep -q '"name":"process_name","ph":"M","pid":2,"tid":0,"args":{"name":"SM 0"}' "$tmp/timed.json" ||
    fail "SM 0 is not named"
grep -q 'block (0,0,0) warp 7"' "$tmp/timed.json" || fail "warp 7 of block (0,0,0) is not named"
grep -q '"clock_khz":1410000' "$tmp/timed.json" || fail "not at the a100's clock"

# - is stdout: the same trace, no file named -
if [ "$mode" = run ]; then
    (cd "$tmp" && traced stdout --trace - --trace-format chrome)
    [ -e "$tmp/-" ] && fail "--trace - wrote a file named -"
    "$check" "$tmp/stdout.out" 1000 || fail "the trace on stdout fails the check"
    cmp -s "$tmp/stdout.out" "$tmp/timed.json" || fail "the trace on stdout differs from the file's"
else
    (cd "$tmp" && traced stdout --trace - --trace-format chrome)
    [ -e "$tmp/-" ] && fail "--trace - wrote a file named -"
    # the program's own output follows the trace on stdout
    grep -q '^{"traceEvents":\[' "$tmp/stdout.out" || fail "no trace on stdout"
fi

# --trace-limit: at most N events and a note, in the trace and on stderr
traced limited --trace "$tmp/limited.json" --trace-format chrome --trace-limit 500
"$check" "$tmp/limited.json" 100 || fail "the limited trace fails the check"
grep -q '"stopped_at_limit":true' "$tmp/limited.json" || fail "the limited trace does not say it stopped"
grep -q 'the trace stopped after 500 events (--trace-limit 500)' "$tmp/limited.err" || fail "no note on stderr"
# instructions: a slice each, or "n" for a run of alike ones (launch slices have no "ready")
n=$(grep -o '"ready":[0-9]*,"pc":[0-9]*\(,"n":[0-9]*\)\{0,1\}' "$tmp/limited.json" |
    awk -F'"n":' '{ t += (NF > 1 ? $2 : 1) } END { print t }')
[ "$n" = 500 ] || fail "$n instructions in the trace for a limit of 500"

if [ "$mode" = exec ]; then
    # the lab launches matmulNaive, matmulTiled16, matmulTiled32, ...: one
    # kernel by name and by index, one launch of it
    traced tiled --trace "$tmp/tiled.json" --trace-format chrome --trace-kernel matmulTiled16
    "$check" "$tmp/tiled.json" 100 || fail "the one-kernel trace fails the check"
    grep -q '"name":"matmulTiled16","ph":"X"' "$tmp/tiled.json" || fail "no launch slice of matmulTiled16"
    grep -q 'matmulNaive' "$tmp/tiled.json" && fail "--trace-kernel matmulTiled16 traced matmulNaive"
    traced second --trace "$tmp/second.json" --trace-format json --trace-kernel 1 --trace-launch 0
    grep -q '"kernel":"matmulTiled16"' "$tmp/second.json" || fail "--trace-kernel 1 is not the second kernel"
    [ "$(grep -v -c '"kernel":"matmulTiled16"' "$tmp/second.json")" = 0 ] || fail "--trace-kernel 1 traced others"
    ws exec --trace "$tmp/x" --trace-launch x -- "$input" 2>"$tmp/bad.err" && fail "a bad --trace-launch ran"
    grep -q "bad --trace-launch 'x'" "$tmp/bad.err" || fail "a bad --trace-launch was not named"
fi
echo "chrome_trace $mode: timed, functional, stdout and limited traces pass"
