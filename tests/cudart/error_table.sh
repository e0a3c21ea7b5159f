#!/bin/sh
# Runs the error-table program against the CUDA toolkit's own runtime and
# under warpsim; the two outputs (every cudaGetErrorName and
# cudaGetErrorString, and the runtime version) must be identical.
#   error_table.sh WARPSIM PROGRAM TOOLKIT_LIB_DIR
warpsim=$1 prog=$2 libdir=$3
ref=$(mktemp) && ours=$(mktemp) || exit 1
trap 'rm -f "$ref" "$ours"' EXIT
LD_LIBRARY_PATH="$libdir" "$prog" >"$ref" || { echo "error_table: the toolkit's run failed" >&2; exit 1; }
[ "$(wc -l <"$ref")" -gt 1000 ] || { echo "error_table: short reference output" >&2; exit 1; }
"$warpsim" exec --no-summary -- "$prog" >"$ours" || exit 1
diff -u "$ref" "$ours" || exit 1
