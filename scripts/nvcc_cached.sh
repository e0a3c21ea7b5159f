#!/bin/sh
# nvcc with a cache of what it built, so that the project's two test builds
# (normal and ASan, scripts/test.sh) compile each CUDA test program once.
# The key is nvcc's version, the arguments without the output path, and
# the contents of the source and of the headers beside it; a hit copies
# the cached file to the output.
#   nvcc_cached.sh CACHE_DIR NVCC ARG... -o OUT ... SOURCE
set -eu
cache=$1 nvcc=$2
shift 2
out="" src="" prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
  src=$a
done
[ -n "$out" ] && [ -f "$src" ] || exec "$nvcc" "$@"
key=$( {
  "$nvcc" --version
  prev=""
  for a in "$@"; do [ "$prev" = "-o" ] || printf '%s\n' "$a"; prev=$a; done
  cat "$src"
  for h in "$(dirname "$src")"/*.h "$(dirname "$src")"/*.cuh; do [ -f "$h" ] && cat "$h"; done
} | sha256sum | cut -c1-40)
mkdir -p "$cache"
if [ -f "$cache/$key" ]; then
  cp "$cache/$key" "$out"
  chmod "$(stat -c %a "$cache/$key")" "$out"    # an executable stays one
  exit 0
fi
"$nvcc" "$@"
# written under a temporary name and renamed, so a parallel build never
# copies a half-written file
tmp=$(mktemp "$cache/.tmp.XXXXXX")
cp "$out" "$tmp" && chmod "$(stat -c %a "$out")" "$tmp" && mv -f "$tmp" "$cache/$key"
