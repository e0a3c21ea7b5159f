#!/bin/sh
# The committed SASS listings (kernels/sass/sm_90) are what ptxas and
# nvdisasm make of the committed PTX: regenerates them into a temporary
# folder and compares.  Exits 77 (skipped) without ptxas and nvdisasm (PTXAS,
# NVDISASM, else PATH) or when their versions differ from the ones the
# listings record, since another ptxas may schedule differently.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
ptxas=${PTXAS:-ptxas}
nvdisasm=${NVDISASM:-nvdisasm}
for t in "$ptxas" "$nvdisasm"; do
    command -v "$t" >/dev/null 2>&1 || { echo "skipped: $t not found"; exit 77; }
done
want=$(head -n 1 "$root/kernels/sass/sm_90/matmul.sass")
have="ptxas $("$ptxas" --version | sed -n "s/.*release .*, \(V[0-9.]*\).*/\1/p"), nvdisasm $("$nvdisasm" --version | sed -n "s/.*release .*, \(V[0-9.]*\).*/\1/p")"
case $want in
    *"$have"*) ;;
    *) echo "skipped: the listings record '$want', the tools here are $have"; exit 77 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PTXAS=$ptxas NVDISASM=$nvdisasm "$root/kernels/gen_sass.sh" --check "$tmp" >/dev/null
status=0
for f in "$root"/kernels/sass/sm_90/*.sass; do
    if ! diff -q "$f" "$tmp/$(basename "$f")" >/dev/null; then
        echo "kernels/sass/sm_90/$(basename "$f") is not what kernels/gen_sass.sh makes now: rerun it"
        status=1
    fi
done
for p in "$root"/kernels/ptx/sm_90/*.ptx; do
    if [ ! -f "$root/kernels/sass/sm_90/$(basename "$p" .ptx).sass" ]; then
        echo "no listing of kernels/ptx/sm_90/$(basename "$p"): run kernels/gen_sass.sh"
        status=1
    fi
done
[ $status -eq 0 ] && echo "$(ls "$tmp" | wc -l) listings as committed"
exit $status
