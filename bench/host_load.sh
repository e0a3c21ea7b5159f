#!/bin/sh
# What busy cores cost each other on this host.  Two kinds of work, each
# run alone on one core and then as N copies at once, one a core:
#   - an integer loop of eight independent xorshift chains (built here
#     with cc; it touches no memory to speak of),
#   - a one-thread simulation: the lab program histogram under
#     `warpsim exec --gpu h200 --threads 1`, timed by its first kernel's
#     launch (`--host-times`: the simulator's own part, the program's host
#     code left out).
# Prints a Markdown table: each work's seconds alone, the N copies'
# seconds at once (min / median / max) and the median's ratio to alone.
# Where the ratio is well above 1 the host's cores slow each other down
# (shared caches and memory, a hypervisor's sharing of its cores), and N
# threads of one simulation cannot run N times faster than one thread,
# whatever the simulator does (bench/README.md, "1 to 16 threads").
#
#   bench/host_load.sh [BUILD_DIR] [N]
#        (default BUILD_DIR: build, whose tests/cudart/programs hold the
#         lab programs; default N: every core)
#
# REPEAT=R makes R rounds (default 2), the runs alone and at once taking
# turns: a shared host's load comes and goes within seconds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ncores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
n=${2:-$ncores}
repeat=${REPEAT:-2}
ws=$build/warpsim
prog=$build/tests/cudart/programs/histogram
if [ ! -x "$ws" ] || [ ! -x "$prog" ]; then
    echo "host_load.sh: no $ws or $prog (build first)" >&2
    exit 1
fi
command -v cc >/dev/null || { echo "host_load.sh: needs a C compiler (cc)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/times"

cat >"$tmp/loop.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <time.h>
int main(void)
{
    uint64_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, sum = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < 100000000L; i++)
        for (int k = 0; k < 8; k++) {
            x[k] ^= x[k] << 13;
            x[k] ^= x[k] >> 7;
            x[k] ^= x[k] << 17;
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    for (int k = 0; k < 8; k++) sum += x[k];
    printf("%.4f %d\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9, (int)(sum & 1));
    return 0;
}
EOF
cc -O2 -fno-tree-vectorize -o "$tmp/loop" "$tmp/loop.c"

# $2... on core $1 when taskset is there (cores past the last wrap around)
pin() {
    core=$(($1 % ncores))
    shift
    if command -v taskset >/dev/null; then taskset -c "$core" "$@"; else "$@"; fi
}

# One copy of work $1 on core $2: its seconds into file $3.
one() {
    case $1 in
    loop) pin "$2" "$tmp/loop" | awk '{ print $1 }' >"$3" ;;
    sim)
        t=$tmp/times/${3##*/}
        pin "$2" "$ws" exec --gpu h200 --threads 1 --summary none --host-times "$t" -- "$prog" 4194304 4 \
            >/dev/null 2>&1 || { echo "host_load.sh: the simulation failed" >&2; exit 1; }
        grep '"kernel":"histogramGlobal"' "$t" | head -n 1 | sed 's/.*"host_s":\([0-9.]*\).*/\1/' >"$3"
        ;;
    esac
}

# min, median and max of the numbers in the files given
stats() {
    cat "$@" | sort -n | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.3f %.3f %.3f %d\n", v[1], m, v[NR], NR }'
}

# untimed first: a freshly started machine's first runs can take several
# times as long (bench/HISTORY.md, run CU)
one loop 0 "$tmp/warmup"
one sim 0 "$tmp/warmup"
rm -f "$tmp/warmup"

for r in $(seq 1 "$repeat"); do
    for work in loop sim; do
        one "$work" 0 "$tmp/alone.$work.$r"
        c=0
        while [ "$c" -lt "$n" ]; do
            one "$work" "$c" "$tmp/once.$work.$r.$c" &
            c=$((c + 1))
        done
        wait
    done
done

echo "| work | alone s (min / median / max, runs) | $n at once s (min / median / max, copies) | at once / alone (medians) |"
echo "|---|---|---|---|"
for work in loop sim; do
    name=$([ "$work" = loop ] && echo "integer loop" || echo "histogramGlobal, one thread")
    # shellcheck disable=SC2046
    set -- $(stats "$tmp"/alone."$work".*)
    alone="$1 / $2 / $3 ($4)" am=$2
    # shellcheck disable=SC2046
    set -- $(stats "$tmp"/once."$work".*)
    awk -v w="$name" -v a="$alone" -v lo="$1" -v m="$2" -v hi="$3" -v k="$4" -v am="$am" \
        'BEGIN { printf "| %s | %s | %s / %s / %s (%d) | %.2f |\n", w, a, lo, m, hi, k, m / am }'
done
