#!/bin/sh
# `warpsim exec --initcheck` on a program that reads memory it never wrote:
# a buffer cudaMemset only half-way (global) and a tile half of whose
# elements no thread wrote (shared), each reported once with its .cu line,
# allocation and thread; the program gets cudaSuccess, as on a GPU, and goes
# on.  The same program's clean kernels alone report nothing, and without
# --initcheck nothing is reported either.
#   initcheck.sh WARPSIM PROGRAM
set -u
ws=$1; prog=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; exit 1; }

"$ws" exec --gpu a100 --initcheck --no-summary -- "$prog" >"$tmp/out" 2>"$tmp/err"
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
# once per source line, though many threads of two kernels read uninitialized bytes
[ "$(grep -c '^warpsim initcheck:' "$tmp/err")" -eq 2 ] || fail "not exactly two reports"
grep -q "neighbourFromFullTile\|addBias" "$tmp/err" && fail "a clean kernel was reported"

"$ws" exec --gpu a100 --initcheck --no-summary -- "$prog" clean >"$tmp/out" 2>"$tmp/err" || fail "clean: exit $?"
grep -qx "clean kernels: cudaSuccess, right" "$tmp/out" || fail "clean: clean kernels line"
[ -s "$tmp/err" ] && fail "clean: something was reported"

"$ws" exec --gpu a100 --no-summary -- "$prog" >"$tmp/out" 2>"$tmp/err" || fail "without --initcheck: exit $?"
grep -q "initcheck" "$tmp/err" && fail "reported without --initcheck"
echo "initcheck: ok"
