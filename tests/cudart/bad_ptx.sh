#!/bin/sh
# A program whose module has three bad PTX lines (data/bad_ptx.cu, its
# immediates 77000N patched here into 7@000N) under `warpsim exec`: each error is reported with its file:line:col,
# the launch gets cudaErrorInvalidPtx, and the program goes on.  Unpatched,
# the program runs clean.
#   bad_ptx.sh WARPSIM PROGRAM
set -u
ws=$1; prog=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; exit 1; }
"$ws" exec --no-summary -- "$prog" >"$tmp/out" 2>"$tmp/err" || fail "unpatched: exit $?"
grep -qx "launch: cudaSuccess" "$tmp/out" || fail "unpatched: the launch failed"
[ "$(grep -c '77000[123];' "$prog")" -eq 3 ] || fail "the immediates are not in the program (its PTX is compressed?)"
sed 's|77000\([123]\);|7@000\1;|g' "$prog" >"$tmp/prog" && chmod +x "$tmp/prog" || fail "cannot patch the program"
"$ws" exec --no-summary -- "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "exit $rc"
grep -qx "launch: cudaErrorInvalidPtx" "$tmp/out" || fail "launch line"
grep -qx "the program goes on" "$tmp/out" || fail "the program did not go on"
# one error per bad line, each with its own line number
n=$(grep -c "^warpsim: .*\.ptx:[0-9]*:[0-9]*: error: " "$tmp/err")
[ "$n" -eq 3 ] || fail "$n errors with file:line:col, not 3"
lines=$(sed -n 's/^warpsim: .*\.ptx:\([0-9]*\):[0-9]*: error: .*/\1/p' "$tmp/err" | sort -u | wc -l)
[ "$lines" -eq 3 ] || fail "the errors name $lines different lines, not 3"
grep -q "^warpsim: the module's PTX is refused (cudaErrorInvalidPtx)" "$tmp/err" || fail "no closing line"
echo "bad_ptx: ok"
