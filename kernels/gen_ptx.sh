#!/bin/sh
# Regenerates kernels/ptx/sm_80/<lab>.ptx and kernels/ptx/sm_90/<lab>.ptx from
# every kernels/<lab>.cu with the CUDA toolkit's nvcc.  The PTX is committed,
# so building warpsim and running its tests does not need the toolkit.
#
#   kernels/gen_ptx.sh            (NVCC=/path/to/nvcc to pick a toolkit)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# nvcc names the source in the PTX's .file directive by its absolute path;
# the committed PTX names it relative to the repository's root instead
# ("kernels/matmul.cu"), so that it names no path of the machine it was
# made on.
root=$(cd "$here/.." && pwd)
cd "$root"
nvcc=${NVCC:-nvcc}
if ! command -v "$nvcc" >/dev/null 2>&1; then
    echo "gen_ptx.sh: error: '$nvcc' not found; install the CUDA toolkit or set NVCC" >&2
    exit 1
fi

status=0
for arch in sm_80 sm_90; do
    mkdir -p "$here/ptx/$arch"
    for cu in "$here"/*.cu; do
        lab=$(basename "$cu" .cu)
        out="$here/ptx/$arch/$lab.ptx"
        if "$nvcc" -ptx -O3 -lineinfo -arch="$arch" "kernels/$lab.cu" -o "$out.tmp"; then
            sed "s|^\(\t*\.file\t*[0-9]* \)\"$root/|\1\"|" "$out.tmp" >"$out"
            rm -f "$out.tmp"
            echo "$arch/$lab.ptx"
        else
            rm -f "$out.tmp"
            echo "gen_ptx.sh: error: nvcc failed on $cu for $arch" >&2
            status=1
        fi
    done
done
exit $status
