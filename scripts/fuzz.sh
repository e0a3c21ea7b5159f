#!/usr/bin/env bash
# Builds warpsim's libFuzzer targets (tests/fuzz) with clang into
# build-fuzz/ and runs each for SECONDS seconds (default 60).
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: ptx fatbin gpu_config
# The working corpus grows in build-fuzz/corpus/<target>/ (seeded from the
# committed corpus and the project's PTX, configs and fat binaries); an
# input that crashes, leaks, hangs or runs out of memory is written to
# tests/fuzz/crashes/<target>/, where the replay tests (ctest -R fuzz/)
# run it from then on.  Exits 1 when a target found something, 0 when none
# did; skips (exit 0) with a message when clang's libFuzzer is missing.
# FUZZ_JOBS (default 1) runs that many fuzzing processes per target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ptx fatbin gpu_config)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${FUZZ_JOBS:-1}

# A clang with libFuzzer that also knows _Float16 on x86-64 (clang 15 or
# later; Debian 12's default clang 14 does not: install clang-16 and
# libclang-rt-16-dev).
cc=""
for c in ${FUZZ_CC:-} clang-19 clang-18 clang-17 clang-16 clang-15 clang; do
  command -v "$c" >/dev/null || continue
  if printf '%s\n' '_Float16 h;' 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }' |
     "$c" -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
    cc=$c
    break
  fi
done
if [ -z "$cc" ]; then
  echo "fuzz: skipped: no clang with libFuzzer and _Float16 (Debian 12: apt-get install clang-16 libclang-rt-16-dev)"
  exit 0
fi

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$(command -v "$cc")" -DWARPSIM_FUZZ=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

seeds() {
  case $1 in
    ptx) echo "$root/kernels/ptx/sm_80 $root/kernels/ptx/sm_90 $root/tests/ptx/data $root/tests/ptx/hostile" ;;
    gpu_config) echo "$root/configs" ;;
    fatbin) echo "" ;;
  esac
}

parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
cd "$build"
found=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  crashes=$root/tests/fuzz/crashes/$t
  mkdir -p "$corpus" "$crashes"
  before=$(find "$crashes" -type f ! -name .gitkeep | wc -l)
  # shellcheck disable=SC2046
  set +e
  rm -f fuzz-*.log
  "$build/tests/fuzz/fuzz_$t" "$corpus" "$root/tests/fuzz/corpus/$t" $(seeds "$t") \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      ${parallel[@]+"${parallel[@]}"} -print_final_stats=1 \
      -artifact_prefix="$crashes/" 2>"$build/fuzz_$t.log"
  rc=$?
  set -e
  after=$(find "$crashes" -type f ! -name .gitkeep | wc -l)
  logs=("$build/fuzz_$t.log")
  for l in fuzz-*.log; do [ -f "$l" ] && logs+=("$l"); done
  execs=$(awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}' "${logs[@]}")
  echo "fuzz $t: ${seconds}s, $execs executions, $((after - before)) new crash file(s), exit $rc" \
       "(log: $build/fuzz_$t.log)"
  [ "$rc" -eq 0 ] && [ "$after" -eq "$before" ] || found=1
done
exit $found
