#!/bin/sh
# warpsim's libcuda.so.1: a program that calls cuBLAS (CUBLAS_PROGRAM; "-"
# when the toolkit has no cuBLAS) and one that calls the driver API by name
# get an error status, not a crash or a hang, and one line on stderr saying
# that the driver API is not simulated; the library exports every entry
# point of the toolkit's stubs/libcuda.so ("-" to skip that comparison).
#   driver_api.sh WARPSIM OUR_LIBCUDA TOOLKIT_STUB CUBLAS_PROGRAM DRIVER_PROGRAM
warpsim=$1 ours=$2 stub=$3 cublas=$4 driver=$5
# Under the sanitizers LD_PRELOAD carries ASan's runtime for the programs
# warpsim runs; the text tools here run without it.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ws() { LD_PRELOAD=$preload "$warpsim" "$@"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "driver_api: $*" >&2; exit 1; }
line='called the CUDA driver API (.*) — cuBLAS, cuFFT and other CUDA libraries are not simulated$'

if [ "$stub" != - ]; then
    syms() { nm -D --defined-only "$1" | awk '$2 == "T" {print $3}' | sort; }
    syms "$stub" >"$tmp/a"
    syms "$ours" >"$tmp/b"
    [ "$(wc -l <"$tmp/a")" -gt 400 ] || fail "too few symbols in $stub"
    diff -u "$tmp/a" "$tmp/b" || fail "'-' lines are missing from warpsim's libcuda.so.1, '+' lines are extra"
fi

check() {   # check NAME STATUS STDOUT-PATTERN
    [ "$rc" -eq "$2" ] || { cat "$tmp/out" "$tmp/err" >&2; fail "$1: exit status $rc, expected $2"; }
    grep -q "$3" "$tmp/out" || { cat "$tmp/out" >&2; fail "$1: stdout lacks '$3'"; }
    n=$(grep -c "^warpsim: .* $line" "$tmp/err")
    [ "$n" -eq 1 ] || { cat "$tmp/err" >&2; fail "$1: $n lines about the driver API on stderr, expected 1"; }
}

if [ "$cublas" != - ]; then
    ws exec --no-summary -- "$cublas" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check cuBLAS 3 '^cublasCreate: CUBLAS_STATUS_NOT_INITIALIZED$'
    grep -q '^cudaMalloc: cudaSuccess$' "$tmp/out" || fail "cuBLAS: the program's own runtime calls failed"
    grep -q "^warpsim: cublas_call called" "$tmp/err" || fail "cuBLAS: the line does not name the program"
fi
ws exec --no-summary -- "$driver" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "driver API" 4 '^cuInit: CUDA_ERROR_NO_DEVICE; cuDeviceGetCount: 100$'
grep -q '(cuInit)' "$tmp/err" || fail "driver API: the line does not name cuInit"
echo "driver_api: the driver API is refused with one line and an error status"
