#!/bin/sh
# Regenerates kernels/sass/sm_90/<lab>.sass, the SASS listing ptxas makes of
# each committed kernels/ptx/sm_90/<lab>.ptx, with source lines, as nvdisasm
# prints it.  `warpsim run --sass` reads these listings (SASS-informed
# counters, docs/SASS.md); tests/sass holds them against the PTX.  The first
# line of each listing names the tools that made it.
#
#   kernels/gen_sass.sh [--check DIR]
#
# PTXAS and NVDISASM pick the tools (default: ptxas and nvdisasm on PATH).
# With --check DIR the listings are written to DIR instead, for a test to
# compare with the committed ones.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out_dir=$here/sass/sm_90
if [ "${1:-}" = "--check" ]; then out_dir=$2; fi
ptxas=${PTXAS:-ptxas}
nvdisasm=${NVDISASM:-nvdisasm}
for t in "$ptxas" "$nvdisasm"; do
    if ! command -v "$t" >/dev/null 2>&1; then
        echo "gen_sass.sh: error: '$t' not found; install the CUDA toolkit (nvdisasm: pip package nvidia-cuda-nvdisasm) or set PTXAS / NVDISASM" >&2
        exit 1
    fi
done
tools="ptxas $("$ptxas" --version | sed -n "s/.*release .*, \(V[0-9.]*\).*/\1/p"), nvdisasm $("$nvdisasm" --version | sed -n "s/.*release .*, \(V[0-9.]*\).*/\1/p")"
mkdir -p "$out_dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ptx in "$here"/ptx/sm_90/*.ptx; do
    lab=$(basename "$ptx" .ptx)
    "$ptxas" -arch=sm_90 -lineinfo "$ptx" -o "$tmp/$lab.cubin"
    {
        echo "// warpsim kernels/gen_sass.sh: $tools, sm_90, -lineinfo"
        "$nvdisasm" -c -g "$tmp/$lab.cubin"
    } >"$out_dir/$lab.sass"
    echo "sass/sm_90/$lab.sass"
done
