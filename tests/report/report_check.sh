#!/bin/sh
# `--report FILE.html`: the HTML report of a lab kernel (kernels/matmul.cu,
# its committed PTX under `warpsim run`, and the whole program under
# `warpsim exec` when nvcc is here) opened in headless Chromium: it must
# load without console errors, its script must run to the end, and the DOM
# must show each part (summary, occupancy and limiter, per-line table beside
# the source, charts of stalls, bank conflicts and sectors per line, the
# warp-issue timeline).  A page with a deliberately broken script must be
# caught, or this test could not fail.  Without Chromium: skipped (77).
#   report_check.sh WARPSIM SOURCE_DIR
warpsim=$1 src=$2
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "report_check: chromium not installed (scripts/setup.sh installs it): skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "report_check: $*" >&2; exit 1; }
cd "$src" || exit 1     # the PTX names its source as kernels/matmul.cu

# load PAGE: runs it in headless Chromium; the DOM after its scripts ran
# into PAGE.dom, the browser's log (console messages included) into PAGE.log.
load() {
    timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$tmp/profile" \
        --enable-logging=stderr --v=0 --dump-dom "file://$1" >"$1.dom" 2>"$1.log"
}

# page_ok PAGE: loaded, nothing on the console (the report logs nothing, so
# any message is an error: an uncaught exception, a syntax error), and its
# script ran to the end (it marks <body data-ready="1">).
page_ok() {
    load "$1" || { echo "chromium failed on $1: $(tail -n 5 "$1.log")"; return 1; }
    if grep -F ':CONSOLE' "$1.log"; then echo "console messages on $1"; return 1; fi
    grep -q '<body[^>]* data-ready="1"' "$1.dom" || { echo "the report's script did not finish on $1"; return 1; }
}

# has PAGE WHAT PATTERN: the DOM of PAGE matches the extended regex PATTERN.
has() {
    grep -Eq -- "$3" "$1.dom" || fail "$1: no $2 (/$3/) in the DOM"
}

# parts PAGE K: every part of kernel section K is there.
parts() {
    p=$1 k=$2
    has "$p" "kernel section" "<section class=\"kernel\" id=\"$k\">"
    has "$p" "summary" "id=\"$k-summary\"><h3>Summary</h3>"
    has "$p" "summary text" "smsp__inst_executed.sum"
    has "$p" "occupancy" "id=\"$k-occupancy\""
    has "$p" "limiter" "id=\"$k-limiter\">Limited by <b>(warps|registers|shared_memory|blocks)</b>"
    has "$p" "per-line table" "<table class=\"hot\" id=\"$k-hot\">"
    has "$p" "source beside the counters" "<table class=\"source\" id=\"$k-source\">"
    has "$p" "stall chart" "<svg class=\"chart\" id=\"$k-stall-chart\""
    has "$p" "stalls per line chart" "<svg class=\"chart\" id=\"$k-line-stall-chart\""
    has "$p" "bank conflicts per line" "<section class=\"conflicts\" id=\"$k-conflicts\">"
    has "$p" "sectors per line" "<section class=\"sectors\" id=\"$k-sectors\">"
    has "$p" "sectors per line chart" "<svg class=\"chart\" id=\"$k-sector-chart\""
    has "$p" "timeline drawn" "<canvas class=\"timeline\" id=\"$k-timeline-canvas\"[^>]* data-drawn=\"[1-9][0-9]*\""
}

# self_contained PAGE: nothing fetched from anywhere when it is viewed.
self_contained() {
    if grep -Eq '(src|href)="(https?:|//|file:)|url\(|@import|<link ' "$1"; then
        fail "$1 refers to something outside itself"
    fi
    size=$(wc -c <"$1")
    [ "$size" -lt 4000000 ] || fail "$1 is $size bytes (a few MB at most)"
}

# ---- the check itself can fail: a broken script and a missing part -------
printf '<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction();</script></body></html>\n' >"$tmp/broken.html"
page_ok "$tmp/broken.html" >/dev/null && fail "a page whose script throws passed the check"
printf '<!DOCTYPE html><html><body><script>document.body.dataset.ready = "1";</script></body></html>\n' >"$tmp/fine.html"
page_ok "$tmp/fine.html" || fail "a correct page failed the check"
( parts "$tmp/fine.html" k0 ) 2>/dev/null && fail "a page without the parts passed the check"

# ---- warpsim run: matmulTiledTransposedB of the lab, 64x64 ---------------
# BsT[tx][ty] = ...: the 32 lanes of a warp (consecutive tx, one ty) store
# words 32 apart, all in bank ty: 32-way, 31 conflicts per request; 2x2
# blocks x 32 warps x 2 phases (K = 64, tiles of 32) = 256 requests, 7936
# conflicts on that line.
store_line=$(grep -nF 'BsT[tx][ty] = (bk < K && col < N)' kernels/matmul.cu | cut -d: -f1)
"$warpsim" run kernels/ptx/sm_80/matmul.ptx --kernel matmulTiledTransposedB --grid 2,2 --block 32,32 \
    --arg buf:f32:4096:iota --arg buf:f32:4096:iota --arg buf:f32:4096:zero \
    --arg i32:64 --arg i32:64 --arg i32:64 --summary none --report "$tmp/run.html" >"$tmp/run.out" 2>&1 ||
    fail "warpsim run --report failed: $(cat "$tmp/run.out")"
self_contained "$tmp/run.html"
page_ok "$tmp/run.html" || fail "the report of warpsim run does not load cleanly"
parts "$tmp/run.html" k0
has "$tmp/run.html" "bank conflict chart" '<svg class="chart" id="k0-conflict-chart"'
has "$tmp/run.html" "kernel name" '<h2>kernel matmulTiledTransposedB</h2>'
# the source beside its counters, escaped: a line with < and &&
has "$tmp/run.html" "escaped source text" \
    "<td class=\"src\">        BsT\[tx\]\[ty\] = \(bk &lt; K &amp;&amp; col &lt; N\) \? B\[bk \* N \+ col\] : 0.0f;</td>"
has "$tmp/run.html" "the store's conflicts in the chart" "<title>matmul.cu:$store_line: st 7936</title>"
has "$tmp/run.html" "the store's advice" "32.0-way bank conflict on shared stores"
echo "run report: $(wc -c <"$tmp/run.html") bytes"

# ---- warpsim exec: the matmul lab program --------------------------------
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ]; then
    PATH=$PATH:$(dirname "$nvcc") "$warpsim" nvcc -o "$tmp/matmul" kernels/matmul.cu >"$tmp/nvcc.out" 2>&1 ||
        fail "warpsim nvcc kernels/matmul.cu failed: $(cat "$tmp/nvcc.out")"
    # under the sanitizers (WARPSIM_EXEC_PRELOAD, tests/report/CMakeLists.txt) the
    # program, built without ASan, must load ASan's runtime first
    if [ -n "${WARPSIM_EXEC_PRELOAD:-}" ]; then
        run_exec() { LD_PRELOAD=$WARPSIM_EXEC_PRELOAD ASAN_OPTIONS=detect_leaks=0 "$warpsim" exec "$@"; }
    else
        run_exec() { "$warpsim" exec "$@"; }
    fi
    run_exec --summary none --report "$tmp/exec.html" "$tmp/matmul" 40 40 40 >"$tmp/exec.out" 2>&1 ||
        fail "warpsim exec --report failed: $(tail -n 20 "$tmp/exec.out")"
    self_contained "$tmp/exec.html"
    page_ok "$tmp/exec.html" || fail "the report of warpsim exec does not load cleanly"
    n=$(grep -c '<section class="kernel" id="k[0-9]*">' "$tmp/exec.html.dom")
    [ "$n" -ge 5 ] || fail "the exec report shows $n kernels; the lab launches 5"
    i=0
    while [ $i -lt "$n" ]; do parts "$tmp/exec.html" "k$i"; i=$((i + 1)); done
    # the four tiled kernels use shared memory: a conflict chart each
    c=$(grep -o '<svg class="chart" id="k[0-9]*-conflict-chart"' "$tmp/exec.html.dom" | wc -l)
    [ "$c" -ge 4 ] || fail "the exec report has $c bank-conflict charts; the lab's 4 tiled kernels need one each"
    echo "exec report: $(wc -c <"$tmp/exec.html") bytes, $n kernels"
else
    echo "report_check: no nvcc: warpsim exec --report not checked"
fi
echo "report_check: passed"
