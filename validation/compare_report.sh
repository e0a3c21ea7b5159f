#!/bin/sh
# Writes the validation report: warpsim against the H200 data committed
# under validation/results, in cycles and in counters.
#
#   validation/compare_report.sh WARPSIM PROGRAM_DIR [OUT_DIR]
#
# PROGRAM_DIR: the course programs built as the tests build them (the
# build's tests/cudart/programs).  OUT_DIR (default validation/results/h200)
# gets report.md and trends_plot.svg.
#
# Cycles: validation/compare_trends.sh over h200_trends.csv, with the SASS
# listings of kernels/sass/sm_90 (--sass: the widths ptxas chose, in
# counters and timing; needs nvcc, NVCC) and, for comparison, without them.
# WS_TREND_SASS_ROWS: take the --sass run's cycles from an earlier run's
# WS_TREND_ROWS file instead of running it again (about 20 minutes).
# Counters: validation/compare.sh over h200_sm90_counters.csv for every lab
# it has, PTX-exact and with --sass: how many comparisons of a non-zero
# counter agree, and each difference with its size and the reason
# validation/known_differences.txt gives.  E2E_KERNELS may name a built
# tests/e2e/e2e_kernels (else compare.sh builds it).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=$1 progs=$2 out=${3:-$root/validation/results/h200}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trends=$root/validation/results/h200_trends.csv
counters=$root/validation/results/h200_sm90_counters.csv
sass_dir=$root/kernels/sass/sm_90
labs="microbench_bank_conflicts microbench_coalescing matmul transpose reduction histogram vector_add spmv"

# ---- cycles ----
# With --sass every lab that has a listing; PTX only, just the labs whose
# listing has a wide (64- or 128-bit) access: for the others --sass changes
# nothing, and their rows of the --sass run stand for both.
sass_cycles=yes
if [ -z "${WS_TREND_SASS_ROWS:-}" ] && ! command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then sass_cycles=no; fi
wide_labs=
. "$root/validation/trend_sizes.sh"
for lab in $TREND_LABS; do
    if [ $sass_cycles = no ] || grep -qE '\b(LD|ST)[GS](\.[A-Z0-9]+)*\.(64|128)\b' "$sass_dir/$lab.sass" 2>/dev/null; then
        wide_labs="$wide_labs $lab"
    fi
done
if [ $sass_cycles = yes ] && [ -z "${WS_TREND_SASS_ROWS:-}" ]; then
    WS_SASS_DIR=$sass_dir WS_TREND_ROWS=$work/rows_sass.txt sh "$root/validation/compare_trends.sh" \
        "$ws" "$progs" "$trends" h200 >/dev/null &
    sass_pid=$!
fi
: >"$work/rows_wide_ptx.txt"
if [ -n "$wide_labs" ]; then
    WS_TREND_LABS=$wide_labs WS_TREND_ROWS=$work/rows_wide_ptx.txt sh "$root/validation/compare_trends.sh" \
        "$ws" "$progs" "$trends" h200 >/dev/null
fi

# ---- counters ----
: >"$work/counters_ptx.tsv"
: >"$work/counters_sass.tsv"
for lab in $labs; do
    WS_COMPARE_ROWS=$work/counters_ptx.tsv sh "$root/validation/compare.sh" "$ws" "$counters" sm_90 "$lab" \
        >"$work/log" 2>&1 || true
    WS_SASS_DIR=$sass_dir WS_COMPARE_ROWS=$work/counters_sass.tsv sh "$root/validation/compare.sh" "$ws" \
        "$counters" sm_90 "$lab" >"$work/log" 2>&1 || true
done

[ -z "${sass_pid:-}" ] || wait "$sass_pid" || { echo "compare_trends.sh with --sass failed"; exit 1; }
[ -z "${WS_TREND_SASS_ROWS:-}" ] || cp "$WS_TREND_SASS_ROWS" "$work/rows_sass.txt"
if [ $sass_cycles = no ]; then cp "$work/rows_wide_ptx.txt" "$work/rows_sass.txt"; fi
# PTX only: the wide labs' PTX rows, the others' rows of the --sass run
awk -F'|' 'NR == FNR { ptx[$1 "|" $2 "|" $3] = $0; next }
    { k = $1 "|" $2 "|" $3; print (k in ptx) ? ptx[k] : $0 }' "$work/rows_wide_ptx.txt" "$work/rows_sass.txt" \
    >"$work/rows_ptx.txt"
WS_TREND_FROM=$work/rows_sass.txt sh "$root/validation/compare_trends.sh" - - "$trends" h200 "$out/trends_plot.svg" \
    >"$work/trends_sass.md"
WS_TREND_FROM=$work/rows_ptx.txt sh "$root/validation/compare_trends.sh" - - "$trends" h200 >"$work/trends_ptx.md"

# "All:" and "Median" lines of a trends report as one sentence
headline() {
    awk '/^All:/ { sub(/^All: /, ""); a = $0 } /^Median/ { m = $0 } END { printf "%s %s", a, m }' "$1"
}

# the counters section of one mode: agreement over non-zero comparisons, the differences
counters_section() {
    awk -F'\t' -v mode="$2" '
        { n++; if ($4 + 0 == 0 && $5 + 0 == 0) { zero++; next } nz++; if ($6 == "equal") eq++
          else {
              k = $2 "\t" $3; if (!(k in cnt)) ord[++nk] = k
              cnt[k]++; d = ($5 - $4) / ($4 > 0 ? $4 : 1) * 100; a = d < 0 ? -d : d
              if (a > mx[k]) { mx[k] = a; sg[k] = d } lab[k] = $1; why[k] = $7; st[k] = $6
              tg[k] += $4; tw[k] += $5
          } }
        END {
            printf "%s: %d of %d comparisons of a non-zero counter agree (%.1f %%); %d more compare two zeros.\n\n", mode, eq, nz, 100 * eq / (nz ? nz : 1), zero
            if (!nk) { print "No differences.\n"; exit }
            print "| lab | kernel | counter | cases | GPU total | warpsim total | largest difference | reason |"
            print "|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= nk; i++) {
                k = ord[i]; split(k, p, "\t")
                r = why[k] == "" ? "**not listed in known_differences.txt**" : why[k]
                if (st[k] == "grew") r = r " (**grew past its listed bound**)"
                printf "| %s | `%s` | %s | %d | %d | %d | %+.1f %% | %s |\n", lab[k], p[1], p[2], cnt[k], tg[k], tw[k], sg[k], r
            }
            print ""
        }' "$1"
}

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    echo "# warpsim (h200 config) against an H200"
    echo
    echo "Written by \`validation/compare_report.sh\` on $(date -u +%Y-%m-%d) at commit $commit (with the"
    echo "working tree's changes, if any). GPU side: \`validation/results/h200_trends.csv\` (cycles: ncu,"
    echo "eager module loading, caches flushed before each launch, base clocks) and"
    echo "\`validation/results/h200_sm90_counters.csv\` (counters of the same kernels' end-to-end cases)."
    echo
    echo "## Headline"
    echo
    if [ $sass_cycles = yes ]; then
        echo "- Cycles, with the kernels' SASS listings (\`--sass\`): $(headline "$work/trends_sass.md")"
    else
        echo "- Cycles with \`--sass\` were not run (no nvcc to build the programs with -lineinfo)."
    fi
    echo "- Cycles, PTX only: $(headline "$work/trends_ptx.md")"
    echo "- Counters: $(counters_section "$work/counters_sass.tsv" "with --sass" | head -n 1)"
    echo "  $(counters_section "$work/counters_ptx.tsv" "PTX-exact" | head -n 1)"
    echo
    echo "**In sample or not.** The counters are exact rules, not fitted. Of the cycles, every value of"
    echo "\`configs/h200.ini\` comes from papers, from estimates made with the timing model before the first"
    echo "comparison, or from probes run on the H200 (\`validation/probes/\`, each cited in the config and"
    echo "held to its data by \`tests/validation/test_microbench\`); none was fitted on these launches. The"
    echo "launch overhead (\`launchOverheadCycles\`) and DRAM access block (\`dramAccessBytes\`), fitted on"
    echo "this data until 2026-12-01, come from \`probes/launch_overhead.cu\` and \`probes/dram_sector.cu\`"
    echo "(\`validation/results/h200/probes_2026-12-01/\`). So the cycle figures are out of sample in the"
    echo "config's values. The model's rules were not all chosen blind to these launches: the bank-conflict"
    echo "sweep was used to check the shared-memory model, the schedule's rule that plain loads may pass one"
    echo "another (taken from the SASS) was tried on the SpMV launches before it was adopted, and the L2's"
    echo "write-request limit was added when transposeNaive showed it missing (its rate measured by"
    echo "\`probes/stores_few_sms.cu\`)."
    echo
    echo "## Cycles (with --sass where a listing exists)"
    echo
    echo "Each lab with a listing in \`kernels/sass/sm_90\` runs with \`--sass\` (built again with"
    echo "\`-lineinfo\`, which changes no instruction); the plot is \`trends_plot.svg\`. Of the trend labs"
    echo "only these have a 64- or 128-bit access in their listing, where \`--sass\` changes anything:$wide_labs."
    echo
    cat "$work/trends_sass.md"
    echo
    echo "## Cycles, PTX only"
    echo
    echo "The same launches without \`--sass\` (PTX widths in timing and counters)."
    echo
    grep -A 100 '^| lab | launches' "$work/trends_ptx.md" | sed '/^Furthest off/,$d'
    echo
    echo "## Counters"
    echo
    echo "Shared-memory wavefronts and bank conflicts (loads, stores), global load and store requests and"
    echo "sectors, per launch of $(echo $labs | wc -w) labs, warpsim against the H200."
    echo "\`ctest -L validation\` fails when a difference appears that"
    echo "\`validation/known_differences.txt\` does not list, or one it lists grows past its bound."
    echo
    echo "### With --sass (kernels/sass/sm_90)"
    echo
    counters_section "$work/counters_sass.tsv" "With --sass"
    echo "### PTX-exact"
    echo
    counters_section "$work/counters_ptx.tsv" "PTX-exact"
} >"$out/report.md"
echo "wrote $out/report.md and $out/trends_plot.svg"
