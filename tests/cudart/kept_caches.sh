#!/bin/sh
# The L2 and the SMs' L1s kept from one timed launch to the next leave
# nothing behind: the last launch of kept_caches.cu, simulated after
# launches that used the same lines on the same SMs, has the summary it
# has alone, cycles and every counter (--simulate-all: each launch
# simulated).
#   kept_caches.sh WARPSIM PROGRAM
warpsim=$1
prog=$2
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for mode in all last; do
    LD_PRELOAD=$preload "$warpsim" exec --gpu h200 --threads 2 --simulate-all --json \
        --summary-out "$tmp/json.$mode" -- "$prog" "$mode" >"$tmp/out.$mode" 2>"$tmp/err.$mode" ||
        { echo "kept_caches: exit status $? ($mode)" >&2; cat "$tmp/err.$mode" >&2; exit 1; }
done
[ "$(grep -c '^{"kernel"' "$tmp/json.all")" = 4 ] || { echo "kept_caches: not 4 launches" >&2; exit 1; }
# the probe launches, their launch numbers taken out
probes() { grep '^{"kernel":"probe"' "$1" | sed 's/,"launch":[0-9]*}$/}/'; }
probes "$tmp/json.last" >"$tmp/alone"
[ "$(wc -l <"$tmp/alone")" = 1 ] || { echo "kept_caches: no probe summary alone" >&2; exit 1; }
probes "$tmp/json.all" >"$tmp/after"
[ "$(wc -l <"$tmp/after")" = 2 ] || { echo "kept_caches: not 2 probe summaries" >&2; exit 1; }
cmp "$tmp/out.all" "$tmp/out.last" >&2 || { echo "kept_caches: outputs differ" >&2; exit 1; }
for k in 1 2; do
    sed -n "${k}p" "$tmp/after" | cmp - "$tmp/alone" >&2 || {
        echo "kept_caches: probe $k of 2 after other launches differs from the one alone" >&2
        sed -n "${k}p" "$tmp/after" | tr ',' '\n' >"$tmp/after.fields"
        tr ',' '\n' <"$tmp/alone" | diff "$tmp/after.fields" - | head -n 6 >&2
        exit 1
    }
done
echo "kept_caches: both probes after other launches have the summary of the one alone"
