#!/bin/sh
# thrust, CUB and cooperative groups through warpsim (libs/libraries.cu):
# the PTX nvcc emits for sm_80 and for sm_90 passes `warpsim check`, and,
# with "exec", the sm_80 program checks its own results under
# `warpsim exec --functional` and prints PASS.  Exits 77 (skipped) when
# nvcc cannot be run.
#   library_check.sh WARPSIM NVCC SOURCE [exec]
set -u
ws=$1 nvcc=$2 src=$3 mode=${4:-}
"$nvcc" --version > /dev/null 2>&1 || { echo "nvcc not available: skipped"; exit 77; }
tmp=${TMPDIR:-/tmp}/warpsim_library_check.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for arch in 80 90; do
    if ! "$nvcc" -ptx -O3 -arch=sm_$arch -diag-suppress 20054 "$src" -o "$tmp/lib_sm$arch.ptx" > "$tmp/nvcc.log" 2>&1; then
        bad "nvcc sm_$arch: $(tail -3 "$tmp/nvcc.log")"
        continue
    fi
    "$ws" check "$tmp/lib_sm$arch.ptx" > "$tmp/out" 2>&1 || bad "sm_$arch: $(tail -1 "$tmp/out")"
done

if [ "$mode" = exec ]; then
    if "$nvcc" -cudart shared -arch=sm_80 -O3 -diag-suppress 20054 "$src" -o "$tmp/libraries" > "$tmp/nvcc.log" 2>&1; then
        # WARPSIM_EXEC_PRELOAD: ASan's runtime, for a sanitizer build of warpsim
        if [ -n "${WARPSIM_EXEC_PRELOAD:-}" ]; then
            LD_PRELOAD=$WARPSIM_EXEC_PRELOAD ASAN_OPTIONS=detect_leaks=0 \
                "$ws" exec --functional --no-summary -- "$tmp/libraries" > "$tmp/out" 2>&1
        else
            "$ws" exec --functional --no-summary -- "$tmp/libraries" > "$tmp/out" 2>&1
        fi
        rc=$?
        [ $rc -eq 0 ] && grep -qx PASS "$tmp/out" || bad "exec (exit $rc): $(tail -12 "$tmp/out")"
    else
        bad "nvcc program: $(tail -3 "$tmp/nvcc.log")"
    fi
fi

[ $fail -eq 0 ] && echo "library_check: all passed"
exit $fail
