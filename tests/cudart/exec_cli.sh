#!/bin/sh
# `warpsim exec` itself: options reach the runtime, bad input gets a clear
# message and a non-zero status.
#   exec_cli.sh WARPSIM VECTOR_ADD(shared runtime) STATIC_PROGRAM
warpsim=$1 prog=$2 static=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "exec_cli: $*" >&2; exit 1; }

# --json --summary-out: one JSON object per launch in the file; stdout untouched
"$warpsim" exec --json --summary-out "$tmp/s.json" -- "$prog" 100 >"$tmp/out" 2>"$tmp/err" ||
    fail "vector_add under --json failed"
[ "$(tail -n 1 "$tmp/out")" = PASS ] || fail "vector_add did not print PASS"
grep -q '{"kernel"' "$tmp/out" && fail "summary leaked into stdout"
[ "$(grep -c '^{"kernel"' "$tmp/s.json")" -eq 3 ] || fail "expected 3 JSON launch lines (3 launches)"
# then the program's totals, one object per kernel: one launch each, so
# min = median = max = that launch's own cycles
[ "$(grep -c '^{"totals"' "$tmp/s.json")" -eq 3 ] || fail "expected 3 JSON totals lines (3 kernels)"
[ "$(wc -l <"$tmp/s.json")" -eq 6 ] || fail "expected 6 JSON lines in all"
for k in vecAdd vecAddGridStride vecAddCoarsened; do
    own=$(grep "^{\"kernel\":\"$k\"" "$tmp/s.json" | sed 's/.*"kernel_cycles":\([0-9]*\).*/\1/')
    grep -q "^{\"totals\":\"$k\",\"launches\":1,\"kernel_cycles_min\":$own,\"kernel_cycles_median\":$own,\"kernel_cycles_max\":$own," "$tmp/s.json" ||
        fail "totals of $k do not hold its one launch's $own cycles"
done
for k in vecAdd vecAddGridStride vecAddCoarsened; do
    grep -q "^{\"kernel\":\"$k\",\"grid\":\\[[0-9]*,1,1\\],\"block\":\\[256,1,1\\]" "$tmp/s.json" ||
        fail "no JSON summary for $k"
done
grep -q '"warp_instructions":[1-9]' "$tmp/s.json" || fail "no warp_instructions in the JSON"
# the text totals end with all kernels' launches and warp instructions summed
"$warpsim" exec --summary short -- "$prog" 100 >/dev/null 2>"$tmp/short" || fail "vector_add under --summary short failed"
sum=0
for k in vecAdd vecAddGridStride vecAddCoarsened; do
    n=$(grep "^{\"kernel\":\"$k\"" "$tmp/s.json" | sed 's/.*"warp_instructions":\([0-9]*\),.*/\1/')
    sum=$((sum + n))
done
grep -q "^  all 3 kernels: 3 launches, $sum warp instructions\$" "$tmp/short" ||
    fail "no all-kernels line of 3 launches and $sum warp instructions: $(tail -n 1 "$tmp/short")"
grep -q '"thread_instructions":[1-9]' "$tmp/s.json" || fail "no thread_instructions in the JSON"

# the text summary goes to stderr by default
"$warpsim" exec "$prog" 100 >"$tmp/out" 2>"$tmp/err" || fail "plain run failed"
grep -q '^kernel vecAdd ' "$tmp/err" || fail "no text summary on stderr"
grep -q '^kernel' "$tmp/out" && fail "text summary in stdout"

# --gpu reaches the runtime: a Turing GPU cannot run compute_80 PTX
"$warpsim" exec --gpu rtx2080ti -- "$prog" 100 >"$tmp/out" 2>"$tmp/err" && fail "compute_80 ran on a 7.5 GPU"
grep -q 'no PTX for compute_75' "$tmp/err" || fail "no message about the missing PTX"
grep -q 'cudaErrorNoKernelImageForDevice' "$tmp/err" || fail "the program did not see cudaErrorNoKernelImageForDevice"
grep -q '^warpsim: error: no kernel image is available for execution on the device (cudaErrorNoKernelImageForDevice): ' "$tmp/err" ||
    fail "warpsim's note does not say what warpsim run says for the same case"

# a statically linked program: told how to rebuild
"$warpsim" exec "$static" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "static program: expected status 2"
grep -q 'nvcc -cudart shared' "$tmp/err" || fail "static program: no rebuild advice"

# bad input
"$warpsim" exec --gpu no_such_gpu -- "$prog" 2>"$tmp/err" && fail "unknown GPU accepted"
grep -q "no_such_gpu" "$tmp/err" || fail "unknown GPU not named"
"$warpsim" exec -- "$tmp/missing" 2>"$tmp/err"
[ $? -eq 127 ] || fail "missing program: expected status 127"
"$warpsim" exec 2>/dev/null && fail "no program accepted"
"$warpsim" exec --bogus "$prog" 2>/dev/null && fail "unknown option accepted"
# exec's options are run's table: the same checks and messages
"$warpsim" exec --trace-warp 1 -- "$prog" 2>"$tmp/err" && fail "--trace-warp without --trace accepted"
grep -q "need --trace FILE" "$tmp/err" || fail "--trace-warp without --trace: no message"
"$warpsim" exec --trace "$tmp/t" --trace-pc 9:3 -- "$prog" 2>"$tmp/err" && fail "a bad --trace-pc accepted"
grep -q "bad --trace-pc '9:3'" "$tmp/err" || fail "a bad --trace-pc not named"
"$warpsim" exec --max-cycles 0x -- "$prog" 2>"$tmp/err" && fail "a bad --max-cycles accepted"
grep -q "bad --max-cycles '0x'" "$tmp/err" || fail "a bad --max-cycles not named"
"$warpsim" exec --functional --max-cycles 9 -- "$prog" 2>"$tmp/err" && fail "--max-cycles with --functional accepted"
"$warpsim" exec --gpu a100 --gpu h100 -- "$prog" 2>"$tmp/err" && fail "--gpu twice accepted"
grep -q -- "--gpu given twice" "$tmp/err" || fail "--gpu twice: no message"

# --keep-ptx DIR: the PTX of each module, named as the messages cite it
"$warpsim" exec --no-summary --keep-ptx "$tmp/ptx" -- "$prog" 100 >/dev/null 2>"$tmp/err" || fail "--keep-ptx failed"
ls "$tmp"/ptx/*.compute_80.ptx >/dev/null 2>&1 || fail "--keep-ptx wrote no PTX"
grep -q '^\.visible \.entry' "$tmp"/ptx/*.compute_80.ptx || fail "--keep-ptx's file holds no kernel"
: >"$tmp/file"
"$warpsim" exec --keep-ptx "$tmp/file" -- "$prog" 100 2>"$tmp/err" && fail "--keep-ptx onto a file accepted"
grep -q "not a folder" "$tmp/err" || fail "--keep-ptx onto a file: no message"
exit 0
