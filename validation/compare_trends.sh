#!/bin/sh
# Holds warpsim's simulated cycles against a GPU's for the course programs
# at the trend sizes (validation/trend_sizes.sh): runs each program under
# `warpsim exec --gpu GPU --json` and joins its launches, in order, with the
# GPU's rows of TRENDS_CSV (validation/collect_trends.sh).  Prints a
# Markdown report: per launch the two cycle counts and their ratio, per lab
# how often warpsim orders two launches as the GPU does (pairs whose GPU
# cycles differ by more than 20 %), the mean and median absolute percentage
# error, the Pearson correlation of log cycles, Spearman's rank correlation
# and the launches furthest off; with SVG_OUT, a log-log plot of simulated
# against measured cycles.
#
#   validation/compare_trends.sh WARPSIM PROGRAM_DIR TRENDS_CSV [GPU [SVG_OUT]]
# PROGRAM_DIR holds the labs built with nvcc -cudart shared -arch=sm_80
# (the build's tests/cudart/programs).  Exits 1 if a program fails.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=$1 progs=$2 csv=$3 gpu=${4:-h200} svg=${5:-}
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
awk -F'|' -v gpu="$gpu" -v svg="$svg" '
    # Pearson correlation of x[1..n] and y[1..n]
    function pearson(x, y, n,    i, mx, my, sxy, sxx, syy) {
        for (i = 1; i <= n; i++) { mx += x[i]; my += y[i] }
        mx /= n; my /= n
        for (i = 1; i <= n; i++) {
            sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2; syy += (y[i] - my) ^ 2
        }
        return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0
    }
    # ranks of v[1..n] into r (ties share their mean rank)
    function ranks(v, r, n,    i, j, below, same) {
        for (i = 1; i <= n; i++) {
            below = 0; same = 0
            for (j = 1; j <= n; j++) { if (v[j] < v[i]) below++; else if (v[j] == v[i]) same++ }
            r[i] = below + (same + 1) / 2
        }
    }
    function px(c) { return 50 + 330 * (log(c) - lmin) / (lmax - lmin) }
    function py(c) { return 370 - 330 * (log(c) - lmin) / (lmax - lmin) }
    function plot(    i, d, c) {
        lmin = log(cmin) - 0.1; lmax = log(cmax) + 0.1
        printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"420\" font-family=\"sans-serif\" font-size=\"11\">\n" >svg
        printf "<text x=\"200\" y=\"14\" text-anchor=\"middle\">warpsim (%s) against the GPU: cycles per launch, log-log</text>\n", gpu >svg
        printf "<rect x=\"50\" y=\"40\" width=\"330\" height=\"330\" fill=\"none\" stroke=\"#888\"/>\n" >svg
        for (d = 1; d <= 1e9; d *= 10) {
            if (log(d) < lmin || log(d) > lmax) continue
            printf "<line x1=\"%.1f\" y1=\"370\" x2=\"%.1f\" y2=\"374\" stroke=\"#888\"/><text x=\"%.1f\" y=\"386\" text-anchor=\"middle\">1e%d</text>\n", px(d), px(d), px(d), log(d) / log(10) + 0.5 >svg
            printf "<line x1=\"46\" y1=\"%.1f\" x2=\"50\" y2=\"%.1f\" stroke=\"#888\"/><text x=\"44\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", py(d), py(d), py(d) + 4, log(d) / log(10) + 0.5 >svg
        }
        printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#4a4\"/>\n", px(cmin), py(cmin), px(cmax), py(cmax) >svg
        for (i = 1; i <= n; i++)
            printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#36c\" fill-opacity=\"0.6\"><title>%s %s %s: GPU %d, warpsim %d</title></circle>\n", px(gc[i]), py(wc[i]), lab[i], args[i], kern[i], gc[i], wc[i] >svg
        printf "<text x=\"215\" y=\"404\" text-anchor=\"middle\">GPU cycles (the green line: equal)</text>\n" >svg
        printf "<text x=\"12\" y=\"205\" text-anchor=\"middle\" transform=\"rotate(-90 12 205)\">warpsim cycles</text>\n</svg>\n" >svg
        close(svg)
    }
    NR == FNR { g[$1 "|" $2 "|" $3] = $4; next }
    {
        key = $1 "|" $2 "|" $3
        if (!(key in g)) next
        n++; lab[n] = $1; args[n] = $2; launch[n] = $3; kern[n] = $4; wc[n] = $5; gc[n] = g[key]
    }
    END {
        printf "| lab | size | launch | kernel | GPU cycles | warpsim (%s) | ratio |\n|---|---|---|---|---|---|---|\n", gpu
        for (i = 1; i <= n; i++) {
            r = wc[i] / gc[i]; err = r > 1 ? r - 1 : 1 - r; sum += err; e[i] = err
            lg[i] = log(gc[i]); lw[i] = log(wc[i])
            if (cmin == "" || gc[i] < cmin) cmin = gc[i]; if (wc[i] < cmin) cmin = wc[i]
            if (gc[i] > cmax) cmax = gc[i]; if (wc[i] > cmax) cmax = wc[i]
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
        for (i = 1; i <= n; i++) { s[i] = e[i]; o[i] = i }
        for (i = 2; i <= n; i++) for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
            t = s[j]; s[j] = s[j - 1]; s[j - 1] = t; t = o[j]; o[j] = o[j - 1]; o[j - 1] = t
        }
        ranks(gc, rg, n); ranks(wc, rw, n)
        printf "Median absolute error %.0f %%; Pearson correlation of log cycles %.3f; Spearman rank correlation %.3f.\n",
               100 * (n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2), pearson(lg, lw, n), pearson(rg, rw, n)
        printf "\nFurthest off:\n\n"
        for (i = n; i > n - 5 && i > 0; i--)
            printf "- %s %s, launch %s (%s): %.2f times the GPU'"'"'s cycles\n", lab[o[i]], args[o[i]], launch[o[i]], kern[o[i]], wc[o[i]] / gc[o[i]]
        if (svg != "") plot()
    }' "$work/gpu.txt" "$work/ws.txt"
