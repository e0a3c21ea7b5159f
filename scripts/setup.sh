#!/usr/bin/env bash
# Installs what warpsim needs to build and test, from Debian's packages.
# Safe to run again: apt-get skips what is already there.
set -euo pipefail

# chromium: tests/report opens the HTML report (--report) in headless Chromium
# parallel: tests/sweep runs a sweep's job list with GNU parallel
packages=(cmake make gcc flex bison libcmocka-dev libinih-dev libzstd-dev liblz4-dev libcjson-dev pkg-config
          parallel chromium)
# For the bounded fuzz run of scripts/test.sh (scripts/fuzz.sh): a clang
# with libFuzzer (in libclang-rt-16-dev) that knows _Float16.  Optional:
# where the packages do not exist, fuzzing is skipped.
optional=(clang-16 libclang-rt-16-dev)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
missing_optional=()
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
if [ ${#missing[@]} -gt 0 ] || [ ${#missing_optional[@]} -gt 0 ]; then
  $sudo_cmd apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ${#missing_optional[@]} -gt 0 ]; then
  echo "setup: installing ${missing_optional[*]} (optional, for fuzzing)"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing_optional[@]}" >/dev/null ||
    echo "setup: ${missing_optional[*]} not installed: scripts/fuzz.sh will skip fuzzing"
fi
