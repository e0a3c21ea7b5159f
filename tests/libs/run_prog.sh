#!/bin/sh
# Runs one library test program under `warpsim exec --gpu h200` and
# compares what it prints (stdout, then "(exit N)" when it exits non-zero)
# with what the same program, built the same way, printed on an H200:
# the section "=== NAME ARCH" of GPU_OUTPUTS (validation/collect_libs.sh).
# Exits 77 (skipped) when GPU_OUTPUTS has no such section, after saying
# whether the program's own CPU check passed under warpsim.
#   run_prog.sh WARPSIM GPU_OUTPUTS NAME ARCH PROGRAM
warpsim=$1 gpu=$2 name=$3 arch=$4 prog=$5
# Under the sanitizers LD_PRELOAD carries ASan's runtime for the program
# warpsim runs; the text tools here run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

LD_PRELOAD=$preload "$warpsim" exec --gpu h200 --no-summary -- "$prog" >"$tmp/ws" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || echo "(exit $rc)" >>"$tmp/ws"
cat "$tmp/ws"
[ $rc -eq 0 ] || sed 's/^/stderr: /' "$tmp/err" | head -n 20

header="=== $name $arch"
if [ ! -f "$gpu" ] || ! grep -qx "$header" "$gpu"; then
    verdict=$(tail -n 1 "$tmp/ws")
    echo "run_prog: SKIP: no H200 output for '$header' in $gpu yet" \
         "(run validation/collect_libs.sh on the GPU); under warpsim the program ends with: $verdict"
    exit 77
fi
awk -v h="$header" '$0 == h { f = 1; next } /^=== / { f = 0 } f' "$gpu" >"$tmp/gpu"
if ! diff "$tmp/gpu" "$tmp/ws" >"$tmp/diff"; then
    cat "$tmp/diff"
    echo "run_prog: the output differs from the H200's (< H200, > warpsim)"
    exit 1
fi
echo "run_prog: same output as on the H200"
