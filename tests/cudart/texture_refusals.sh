#!/bin/sh
# The runtime's refusals around textures and arrays: each call's error (the
# program's stdout against EXPECTED) and warpsim's line on stderr naming
# what is not supported; a destroyed texture object faults the kernel that
# reads it, naming the instruction and its PTX line.
#   texture_refusals.sh WARPSIM EXPECTED PROGRAM
warpsim=$1 expected=$2 prog=$3
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
LD_PRELOAD=$preload "$warpsim" exec --no-summary --functional -- "$prog" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; echo "texture_refusals: the program failed" >&2; exit 1; }
diff -u "$expected" "$tmp/out" || exit 1
for m in "cudaCreateTextureObject: resource views are not supported by warpsim" \
         "cudaMalloc3DArray: layered and cubemap arrays are not supported by warpsim" \
         "cudaMallocArray: channel format {32, 32, 32, 0, kind 2} is not supported by warpsim" \
         "cudaCreateTextureObject: linear filtering needs a texture that returns floats" \
         "Invalid texture object 1 (not created, or destroyed, before the launch) by thread (0,0,0)" \
         "at pc 3 (tex.1d.v4.f32.s32, texture_refusals.compute_80.ptx:"; do
    grep -qF "$m" "$tmp/err" || { cat "$tmp/err" >&2; echo "texture_refusals: no '$m' on stderr" >&2; exit 1; }
done
