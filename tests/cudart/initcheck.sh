#!/bin/sh
# `warpsim exec --initcheck` on a program that reads memory it never wrote:
# a buffer cudaMemset only half-way (global) and a tile half of whose
# elements no thread wrote (shared), each reported once with its .cu line,
# allocation and thread; the program gets cudaSuccess, as on a GPU, and goes
# on.  The same program's clean kernels alone report nothing, and without
# --initcheck nothing is reported either.  A launch that repeats an earlier
# one is reused where every byte it reads was written (the clean tile
# kernel's second launch) and simulated again where one was not (the second
# copy of the half-written buffer, whose finding it counts as shown), or
# where the launch it repeats read a byte never written (the third copy,
# after the buffer's unwritten zeros were written with zeros: no finding).
#   initcheck.sh WARPSIM PROGRAM
set -u
ws=$1; prog=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; exit 1; }

"$ws" exec --gpu a100 --initcheck --json --summary-out "$tmp/s.json" -- "$prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "exit $rc"
grep -qx "sum of a half-written buffer: cudaSuccess" "$tmp/out" || fail "sum line"
grep -qx "neighbour from a half-written tile: cudaSuccess" "$tmp/out" || fail "tile line"
grep -qx "clean kernels: cudaSuccess, right" "$tmp/out" || fail "clean kernels line"
grep -qx "the program goes on" "$tmp/out" || fail "the program did not go on"
# in[128..255] were never written: 128 ints * 4 bytes = byte 512 on
grep -q "^warpsim initcheck: uninitialized __global__ memory read of size 4 at 0x[0-9a-f]* by thread ([0-9]*,0,0) in block (0,0,0) of kernel sumHalfWritten, ld\.global[.a-z0-9]* at pc [0-9]* (.*initcheck.cu:13): byte [0-9]* of the 1024-byte allocation at 0x[0-9a-f]* was never written since it was allocated$" "$tmp/err" ||
    fail "no uninitialized global read at initcheck.cu:13"
off=$(sed -n 's/.*sumHalfWritten.*: byte \([0-9]*\) of the 1024-byte allocation.*/\1/p' "$tmp/err")
[ -n "$off" ] && [ "$off" -ge 512 ] && [ "$off" -lt 1024 ] || fail "the uninitialized byte ($off) is not in the unwritten half"
grep -q "^warpsim initcheck: uninitialized __shared__ memory read of size 4 at __shared__ offset 0x[0-9a-f]* by thread ([0-9]*[02468],0,0) in block ([01],0,0) of kernel neighbourFromTile, ld.shared.u32 at pc [0-9]* (.*initcheck.cu:26): byte [0-9]* of the block's 256 bytes of shared memory was not written since the block started$" "$tmp/err" ||
    fail "no uninitialized shared read at initcheck.cu:26 (an even thread reading an odd element)"
grep -q "^warpsim initcheck: uninitialized __global__ memory read .* of kernel copyHalfWritten, .*initcheck.cu:44)" "$tmp/err" ||
    fail "no uninitialized global read at initcheck.cu:44"
# once per source line, though many threads of three kernels read uninitialized bytes
[ "$(grep -c '^warpsim initcheck:' "$tmp/err")" -eq 3 ] || fail "not exactly three reports"
# launches 3 to 5 copy the buffer, 6 and 7 the full tile: only 7 is
# reused; 4 counts the finding 3 showed, 5 finds none
reused=$(grep -o '"timing_reused_from":[0-9a-z]*' "$tmp/s.json" | sed -n '3,7p' | tr '\n' ' ')
[ "$reused" = '"timing_reused_from":null "timing_reused_from":null "timing_reused_from":null "timing_reused_from":null "timing_reused_from":6 ' ] ||
    fail "reused: $reused"
grep -q "^warpsim checks: 32 finding(s) in kernel copyHalfWritten, 0 distinct shown, 1 as an earlier launch showed$" \
    "$tmp/err" || fail "the second copy's findings are not counted as shown before"
[ "$(grep -c "^warpsim checks: .* in kernel copyHalfWritten" "$tmp/err")" -eq 2 ] || fail "the third copy found something"
grep -q "neighbourFromFullTile\|addBias" "$tmp/err" && fail "a clean kernel was reported"

"$ws" exec --gpu a100 --initcheck --no-summary -- "$prog" clean >"$tmp/out" 2>"$tmp/err" || fail "clean: exit $?"
grep -qx "clean kernels: cudaSuccess, right" "$tmp/out" || fail "clean: clean kernels line"
[ -s "$tmp/err" ] && fail "clean: something was reported"

"$ws" exec --gpu a100 --no-summary -- "$prog" >"$tmp/out" 2>"$tmp/err" || fail "without --initcheck: exit $?"
grep -q "initcheck" "$tmp/err" && fail "reported without --initcheck"
echo "initcheck: ok"
