#!/bin/sh
# warpsim's libcudart.so.13 must export exactly the symbols of the CUDA
# toolkit's libcudart.so.13, each at version libcudart.so.13, and nothing
# else of its own.
#   exports.sh OUR_LIB TOOLKIT_LIB
ours=$1 real=$2
syms() { nm -D --defined-only "$1" | awk '$2 ~ /^[TW]$/ {print $3}' | sort; }
a=$(mktemp) && b=$(mktemp) || exit 1
trap 'rm -f "$a" "$b"' EXIT
syms "$real" >"$a"
syms "$ours" >"$b"
[ "$(wc -l <"$a")" -gt 300 ] || { echo "exports: too few symbols in $real" >&2; exit 1; }
if grep -v '@@libcudart.so.13$' "$b"; then
    echo "exports: the symbols above are not at version libcudart.so.13" >&2
    exit 1
fi
diff -u "$a" "$b" || { echo "exports: '-' lines are missing from warpsim's library, '+' lines are extra" >&2; exit 1; }
