#!/usr/bin/env bash
# Builds warpsim, then simulates the course's vector-add lab kernel on 1000
# elements and prints the first results and the launch summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR="$root/build" "$root/scripts/build.sh"
cd "$root"
set -x
build/warpsim run kernels/ptx/sm_80/vector_add.ptx --kernel vecAdd \
    --grid 4 --block 256 \
    --arg buf:f32:1000:rand=1 --arg buf:f32:1000:rand=2 \
    --arg buf:f32:1000:zero --arg i32:1000 --print 0:8 --print 1:8 --print 2:8
