#!/usr/bin/env bash
# Builds warpsim and runs every test: unit tests (CMocka) and end-to-end
# tests (the course kernels under `warpsim run` against CPU references),
# then everything again under AddressSanitizer + UndefinedBehaviorSanitizer,
# then a bounded fuzz run of the readers (FUZZ_SECONDS per target, default
# 20; skipped without a clang with libFuzzer).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)

# Warnings are errors in the project's own builds (WARPSIM_WERROR).
# The CUDA test programs are host programs nvcc builds the same way for
# both builds: the second takes them from the first's cache.
nvcc_cache="$root/build-nvcc-cache"
# The ptxas outputs the commands under test keep between runs
# (frontend/ptx/ptxas_store.h) go to a folder of this run's own.
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
export WARPSIM_CACHE_DIR="$store"
BUILD_DIR="$root/build" "$root/scripts/build.sh" -DWARPSIM_WERROR=ON -DWARPSIM_NVCC_CACHE="$nvcc_cache"
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

BUILD_DIR="$root/build-asan" "$root/scripts/build.sh" -DWARPSIM_SANITIZE=ON -DWARPSIM_WERROR=ON \
  -DWARPSIM_NVCC_CACHE="$nvcc_cache"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$root/build-asan" --output-on-failure -j "$jobs"

# New crash inputs land in tests/fuzz/crashes/ (replayed by ctest from then
# on) and fail this step.
"$root/scripts/fuzz.sh" "${FUZZ_SECONDS:-20}"
