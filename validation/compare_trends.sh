#!/bin/sh
# Holds warpsim's simulated cycles against a GPU's for the course programs
# at the trend sizes (validation/trend_sizes.sh): runs each program under
# `warpsim exec --gpu GPU --json` and joins its launches, in order, with the
# GPU's rows of TRENDS_CSV (validation/collect_trends.sh).  Prints a
# Markdown report: per launch the two cycle counts and their ratio; overall
# and per lab how often warpsim orders two launches as the GPU does (pairs
# whose GPU cycles differ by more than 20 %), the mean (MAPE) and median
# absolute percentage error, the Pearson correlation of log cycles and
# Spearman's rank correlation; the launches furthest off, each with its
# reason from validation/trend_reasons.txt; with SVG_OUT, a log-log plot of
# simulated against measured cycles.
#
#   validation/compare_trends.sh WARPSIM PROGRAM_DIR TRENDS_CSV [GPU [SVG_OUT]]
# PROGRAM_DIR holds the labs built with nvcc -cudart shared -arch=sm_80
# (the build's tests/cudart/programs).  Exits 1 if a program fails.
#
# WS_SASS_DIR (a folder of SASS listings, kernels/sass/sm_90): each lab with
# a listing there runs with --sass (the widths ptxas chose, in counters and
# timing: docs/SASS.md).  The listings are matched to the PTX by source
# line, so those labs are built again here as PROGRAM_DIR's are plus
# -lineinfo (which adds line information and changes no instruction of the
# PTX), with NVCC (default nvcc).  The H200 JIT-compiles the programs'
# sm_80 PTX for sm_90; the committed listings are ptxas's sm_90 code of the
# sm_90 PTX, whose instructions are the sm_80 PTX's.
# WS_TREND_ROWS: also write the joined launches there, one a line:
# lab|size|launch|kernel|warpsim cycles|GPU cycles.  WS_TREND_LABS: only
# these labs (default: all of trend_sizes.sh).  WS_TREND_FROM: take
# warpsim's cycles from such a file (an earlier run's WS_TREND_ROWS)
# instead of running the programs (WARPSIM and PROGRAM_DIR are then unused).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=$1 progs=$2 csv=$3 gpu=${4:-h200} svg=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$root/validation/trend_sizes.sh"
TREND_LABS=${WS_TREND_LABS:-$TREND_LABS}
[ -n "${WS_TREND_FROM:-}" ] || : >"$work/ws.txt"
if [ -n "${WS_TREND_FROM:-}" ]; then
    awk -F'|' '{ printf "%s|%s|%s|%s|%s\n", $1, $2, $3, $4, $5 }' "$WS_TREND_FROM" >"$work/ws.txt"
    TREND_LABS=
fi
for lab in $TREND_LABS; do
    prog=$progs/$lab sass=
    if [ -n "${WS_SASS_DIR:-}" ] && [ -f "$WS_SASS_DIR/$lab.sass" ]; then
        prog=$work/$lab sass=$WS_SASS_DIR/$lab.sass
        "${NVCC:-nvcc}" -cudart shared -arch=sm_80 -O3 -lineinfo -o "$prog" "$root/kernels/$lab.cu" ||
            { echo "$lab: nvcc failed (WS_SASS_DIR needs nvcc: set NVCC)"; exit 1; }
    fi
    trend_args "$lab" | while read -r args; do
        # shellcheck disable=SC2086
        "$ws" exec --gpu "$gpu" --json --summary-out "$work/one.jsonl" ${sass:+--sass "$sass"} -- "$prog" $args \
            >"$work/out" 2>&1 ||
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
awk -F'|' -v gpu="$gpu" -v svg="$svg" -v rows="${WS_TREND_ROWS:-}" -v reasons_file="$root/validation/trend_reasons.txt" '
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
    # statistics of the launches idx[1..m] into st: mape, median, pearson (log), spearman, pairs, agree
    function stats(idx, m, st,    i, j, a, b, x, y, lx, ly, rx, ry, e, t, hi, lo) {
        st["pairs"] = 0; st["agree"] = 0; st["sum"] = 0
        for (i = 1; i <= m; i++) {
            a = idx[i]; x[i] = gc[a]; y[i] = wc[a]; lx[i] = log(gc[a]); ly[i] = log(wc[a])
            e[i] = err[a]; st["sum"] += err[a]
            for (j = i + 1; j <= m; j++) {
                b = idx[j]
                if (lab[a] != lab[b] || args[a] != args[b]) continue
                hi = gc[a] > gc[b] ? gc[a] : gc[b]; lo = gc[a] > gc[b] ? gc[b] : gc[a]
                if (hi < 1.2 * lo) continue
                st["pairs"]++
                if ((gc[a] > gc[b]) == (wc[a] > wc[b])) st["agree"]++
            }
        }
        for (i = 2; i <= m; i++) for (j = i; j > 1 && e[j - 1] > e[j]; j--) { t = e[j]; e[j] = e[j - 1]; e[j - 1] = t }
        st["mape"] = 100 * st["sum"] / m
        st["median"] = 100 * (m % 2 ? e[(m + 1) / 2] : (e[m / 2] + e[m / 2 + 1]) / 2)
        st["pearson"] = pearson(lx, ly, m)
        ranks(x, rx, m); ranks(y, ry, m); st["spearman"] = pearson(rx, ry, m)
    }
    function corr(v, m) { return m >= 3 ? sprintf("%.3f", v) : "–" }
    END {
        while ((getline line < reasons_file) > 0)
            if (line !~ /^#/ && split(line, rf, " ") >= 2) { r = line; sub(/^[^ ]+ +/, "", r); reason[rf[1]] = r }
        printf "| lab | size | launch | kernel | GPU cycles | warpsim (%s) | ratio |\n|---|---|---|---|---|---|---|\n", gpu
        for (i = 1; i <= n; i++) {
            r = wc[i] / gc[i]; err[i] = r > 1 ? r - 1 : 1 - r
            if (cmin == "" || gc[i] < cmin) cmin = gc[i]; if (wc[i] < cmin) cmin = wc[i]
            if (gc[i] > cmax) cmax = gc[i]; if (wc[i] > cmax) cmax = wc[i]
            printf "| %s | %s | %s | %s | %d | %d | %.2f |\n", lab[i], args[i], launch[i], kern[i], gc[i], wc[i], r
            if (!(lab[i] in pn)) order[++nl] = lab[i]
            pn[lab[i]]++; member[lab[i], pn[lab[i]]] = i
            if (rows != "") printf "%s|%s|%s|%s|%d|%d\n", lab[i], args[i], launch[i], kern[i], wc[i], gc[i] >rows
        }
        printf "\n| lab | launches | pairs ordered as on the GPU | MAPE | median abs. error | Pearson (log) | Spearman |\n|---|---|---|---|---|---|---|\n"
        for (k = 1; k <= nl; k++) {
            l = order[k]; delete idx
            for (i = 1; i <= pn[l]; i++) idx[i] = member[l, i]
            stats(idx, pn[l], st)
            printf "| %s | %d | %d of %d | %.0f %% | %.0f %% | %s | %s |\n", l, pn[l], st["agree"], st["pairs"], st["mape"],
                   st["median"], corr(st["pearson"], pn[l]), corr(st["spearman"], pn[l])
        }
        delete idx
        for (i = 1; i <= n; i++) idx[i] = i
        stats(idx, n, st)
        printf "\nAll: %d of %d pairs ordered as on the GPU; mean absolute error of cycles (MAPE) %.0f %% over %d launches.\n",
               st["agree"], st["pairs"], st["mape"], n
        printf "Median absolute error %.0f %%; Pearson correlation of log cycles %.3f; Spearman rank correlation %.3f.\n",
               st["median"], st["pearson"], st["spearman"]
        for (i = 1; i <= n; i++) { s[i] = err[i]; o[i] = i }
        for (i = 2; i <= n; i++) for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
            t = s[j]; s[j] = s[j - 1]; s[j - 1] = t; t = o[j]; o[j] = o[j - 1]; o[j - 1] = t
        }
        printf "\nFurthest off:\n\n"
        for (i = n; i > n - 5 && i > 0; i--) {
            k = kern[o[i]]
            printf "- %s %s, launch %s (%s): %.2f times the GPU'"'"'s cycles", lab[o[i]], args[o[i]], launch[o[i]], k, wc[o[i]] / gc[o[i]]
            printf "%s\n", (k in reason) ? ": " reason[k] : " (no reason recorded in validation/trend_reasons.txt)"
        }
        if (svg != "") plot()
    }' "$work/gpu.txt" "$work/ws.txt"
