#!/bin/sh
# The golden test: the cycles and every counter of a reference set of
# launches (the course labs' end-to-end cases, sm_90 PTX, on the config
# warpsim takes for sm_90 by default: h100, which calibration against the
# H200 leaves alone) stay exactly what tests/golden/h200_sm90.tsv holds, so
# that no speed-up or refactoring changes a result unnoticed.  A change on
# purpose updates the file (--update) and says why in its commit.
#
#   tests/golden/golden.sh WARPSIM E2E_KERNELS [--update]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
warpsim=$1 e2e=$2 update=${3:-}
# Register counts come from ptxas -v: without it they are estimates and
# every timing differs.
if ! command -v ptxas >/dev/null 2>&1; then
    echo "golden: SKIP: ptxas (the CUDA toolkit) not found; the golden results use its register counts"
    exit 77
fi
labs="vector_add matmul transpose reduction histogram scan spmv convolution"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for lab in $labs; do
    WARPSIM=$warpsim WS_OUT="$work/got.tsv" "$e2e" --warpsim "$here/golden_wrap.sh" \
        --ptx-dir "$root/kernels/ptx/sm_90" --lab "$lab" >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
done
# The case names a temporary folder of the driver: keep only its last part.
sed 's|/[^ \t]*/warpsim-e2e-[A-Za-z0-9]*/||g' "$work/got.tsv" >"$work/golden.tsv"
sh "$here/hold.sh" golden "$work/golden.tsv" "$here/h200_sm90.tsv" \
    "tests/golden/golden.sh WARPSIM E2E_KERNELS" "$update"
