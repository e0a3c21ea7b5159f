#!/usr/bin/env bash
# Installs what warpsim needs to build and test, from Debian's packages.
# Safe to run again: apt-get skips what is already there.
set -euo pipefail

# chromium: tests/report opens the HTML report (--report) in headless Chromium
# parallel: tests/sweep runs a sweep's job list with GNU parallel
packages=(cmake make gcc flex bison libcmocka-dev libinih-dev libzstd-dev liblz4-dev libcjson-dev pkg-config
          parallel chromium)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
