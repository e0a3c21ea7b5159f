#!/bin/sh
# Blocks spinning on a flag that only a block waiting for a slot would set
# (data/never_resident.cu) under `warpsim exec`: the launch ends with
# cudaErrorLaunchTimeout, and the message names the resident blocks, how
# many wait for a slot, and where the resident warps spin; the program goes
# on.  Any further arguments go to `warpsim exec` (e.g. --progress-limit).
#   never_resident.sh WARPSIM PROGRAM GPU [EXEC-OPTION...]
set -u
ws=$1; prog=$2; gpu=$3
shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"; exit 1; }
start=$(date +%s)
"$ws" exec --gpu "$gpu" --no-summary "$@" -- "$prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
secs=$(( $(date +%s) - start ))
[ $rc -eq 0 ] || fail "exit $rc"
resident=$(sed -n 's/^\([0-9]*\) blocks of 1024 threads, \([0-9]*\) resident at most$/\2/p' "$tmp/out")
[ -n "$resident" ] || fail "no block count line"
grep -qx "waiting on a block that is never resident: cudaErrorLaunchTimeout" "$tmp/out" || fail "timeout line"
grep -qx "the program goes on" "$tmp/out" || fail "the program did not go on"
grep -q "launch timed out: kernel waitForLastBlock made no progress in [0-9]* warp instructions.* In block ([0-9]*,0,0): warp 0 at pc [0-9]* (.*never_resident.cu:16); Of the grid's $((resident + 1)) blocks, $resident are resident (blocks 0 to $((resident - 1)) have started) and 1 waits for a slot, from block ($resident,0,0) on; a slot frees only when a resident block ends, so a block that waits for a block not yet started waits for ever" "$tmp/err" ||
    fail "no diagnosis naming the $resident resident blocks, the one waiting and the spin at never_resident.cu:16"
echo "never_resident ($gpu): ok in ${secs}s"
