#!/bin/sh
# End-to-end test of `warpsim check`: exit codes, the kernel listing, the
# error format, and every course kernel under kernels/ptx.
#   check_cli.sh WARPSIM TEST_DATA_DIR SOURCE_DIR
set -u
ws=$1 data=$2 src=$3
tmp=${TMPDIR:-/tmp}/warpsim_check_cli.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$ws" check "$data/matmul_tiled_sm80.ptx" > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 0 ] || bad "matmul: exit $rc"
grep -q '^kernel matmulTiled  \[_Z11matmulTiledPKfS0_Pfi\]' "$tmp/out" || bad "matmul: kernel line"
grep -q 'parameters: 4' "$tmp/out" || bad "matmul: parameter count"
grep -q 'static shared memory: 2048 bytes' "$tmp/out" || bad "matmul: shared memory"

"$ws" check "$data/devfunc_sm90.ptx" > "$tmp/out" 2>&1 || bad "devfunc: exit $?"
[ "$(grep -c '^kernel ' "$tmp/out")" -eq 2 ] || bad "devfunc: two kernels"

printf '.version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  .reg .b32 %%r<2>;\n  szext.wrap.u32 %%r1, %%r1, 8;\n  ret;\n}\n' > "$tmp/bad.ptx"
"$ws" check "$tmp/bad.ptx" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] || bad "unsupported: exit $rc, want 2"
grep -qx "$tmp/bad.ptx:7:3: error: unsupported instruction 'szext.wrap.u32': szext is not implemented by warpsim" "$tmp/err" || bad "unsupported: message: $(cat "$tmp/err")"

# A known instruction in a form warpsim does not run: named, with the reason.
printf '.version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n  .reg .f32 %%f<2>;\n  redux.sync.min.abs.f32 %%f1, %%f0, -1;\n  ret;\n}\n' > "$tmp/bad.ptx"
"$ws" check "$tmp/bad.ptx" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] || bad "redux f32: exit $rc, want 2"
grep -qx "$tmp/bad.ptx:7:3: error: unsupported instruction 'redux.sync.min.abs.f32': redux.sync on .f32 is an sm_100a instruction, not supported" "$tmp/err" || bad "redux f32: message: $(cat "$tmp/err")"

: > "$tmp/empty.ptx"
"$ws" check "$tmp/empty.ptx" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] || bad "empty file: exit $rc, want 2"
grep -qx "$tmp/empty.ptx:1:1: error: empty PTX module: missing .version directive at the start of the module" "$tmp/err" ||
    bad "empty file: message: $(cat "$tmp/err")"
printf '.version 99.9\n.target sm_80\n.address_size 64\n' > "$tmp/v99.ptx"
"$ws" check "$tmp/v99.ptx" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] || bad "version 99.9: exit $rc, want 2"
grep -qx "$tmp/v99.ptx:1:1: error: PTX ISA version 99.9 is newer than warpsim supports (up to 9.0)" "$tmp/err" ||
    bad "version 99.9: message: $(cat "$tmp/err")"

"$ws" check "$tmp/missing.ptx" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "missing file: exit $rc, want 2"
"$ws" check > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "no file: exit $rc, want 2"
"$ws" check a.ptx b.ptx > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "two files: exit $rc, want 2"
"$ws" check --bogus > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "unknown option: exit $rc, want 2"

n=0
for f in "$src"/kernels/ptx/*/*.ptx; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    "$ws" check "$f" > "$tmp/out" 2>&1 || bad "$f: $(tail -1 "$tmp/out")"
done
[ $n -gt 0 ] || bad "no course kernels found under $src/kernels/ptx"

[ $fail -eq 0 ] && echo "check_cli: all passed"
exit $fail
