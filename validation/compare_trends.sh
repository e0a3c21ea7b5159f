#!/bin/sh
# Holds warpsim's simulated cycles against a GPU's for the course programs
# at the trend sizes (validation/trend_sizes.sh): runs each program under
# `warpsim exec --gpu GPU --json` and joins its launches, in order, with the
# GPU's rows of TRENDS_CSV (validation/collect_trends.sh).  Prints a
# Markdown report: per launch the two cycle counts and their ratio, per lab
# how often warpsim orders two launches as the GPU does (pairs whose GPU
# cycles differ by more than 20 %), and the mean absolute percentage error.
#
#   validation/compare_trends.sh WARPSIM PROGRAM_DIR TRENDS_CSV [GPU]
# PROGRAM_DIR holds the labs built with nvcc -cudart shared -arch=sm_80
# (the build's tests/cudart/programs).  Exits 1 if a program fails.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=$1 progs=$2 csv=$3 gpu=${4:-h200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$root/validation/trend_sizes.sh"
: >"$work/ws.txt"
for lab in $TREND_LABS; do
    trend_args "$lab" | while read -r args; do
        # shellcheck disable=SC2086
        "$ws" exec --gpu "$gpu" --json --summary-out "$work/one.jsonl" -- "$progs/$lab" $args >"$work/out" 2>&1 ||
            { echo "$lab $args failed:"; cat "$work/out"; exit 1; }
        grep -q PASS "$work/out" || { echo "$lab $args: no PASS"; exit 1; }
        awk -v lab="$lab" -v args="$args" '/^\{"kernel"/ {
            k = $0; sub(/.*"kernel":"/, "", k); sub(/[("].*/, "", k)
            c = $0; sub(/.*"cycles":/, "", c); sub(/[,}].*/, "", c)
            printf "%s|%s|%d|%s|%s\n", lab, args, n++, k, c }' "$work/one.jsonl" >>"$work/ws.txt"
    done
done
awk -F'","' '$5 == "sm__cycles_elapsed.max" { gsub(/^"|"$/, ""); split($0, f, "\",\"");
    printf "%s|%s|%s|%s\n", f[1], f[2], f[3], f[7] }' "$csv" >"$work/gpu.txt"
awk -F'|' -v gpu="$gpu" '
    NR == FNR { g[$1 "|" $2 "|" $3] = $4; next }
    {
        key = $1 "|" $2 "|" $3
        if (!(key in g)) next
        n++; lab[n] = $1; args[n] = $2; launch[n] = $3; kern[n] = $4; wc[n] = $5; gc[n] = g[key]
    }
    END {
        printf "| lab | size | launch | kernel | GPU cycles | warpsim (%s) | ratio |\n|---|---|---|---|---|---|---|\n", gpu
        for (i = 1; i <= n; i++) {
            r = wc[i] / gc[i]; err = r > 1 ? r - 1 : 1 - r; sum += err
            printf "| %s | %s | %s | %s | %d | %d | %.2f |\n", lab[i], args[i], launch[i], kern[i], gc[i], wc[i], r
            perr[lab[i]] += err; pn[lab[i]]++
        }
        printf "\n| lab | pairs ordered as on the GPU | mean abs. error of cycles |\n|---|---|---|\n"
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
            if (lab[i] != lab[j] || args[i] != args[j]) continue
            hi = gc[i] > gc[j] ? gc[i] : gc[j]; lo = gc[i] > gc[j] ? gc[j] : gc[i]
            if (hi < 1.2 * lo) continue
            pairs[lab[i]]++; tp++
            if ((gc[i] > gc[j]) == (wc[i] > wc[j])) { agree[lab[i]]++; ta++ }
        }
        for (l in pn) printf "| %s | %d of %d | %.0f %% |\n", l, agree[l], pairs[l], 100 * perr[l] / pn[l]
        printf "\nAll: %d of %d pairs ordered as on the GPU; mean absolute error of cycles %.0f %% over %d launches.\n",
               ta, tp, 100 * sum / n, n
    }' "$work/gpu.txt" "$work/ws.txt"
