#!/bin/sh
# `warpsim run --lines` / `warpsim exec --lines`: per-source-line counters
# against values worked out by hand from the kernels in this directory.
#   lines_check.sh WARPSIM BUILT_DIR SOURCE_DIR
# BUILT_DIR holds transpose.ptx, transpose_noline.ptx, matmul.ptx (nvcc -ptx)
# and lines_prog (warpsim nvcc, which must add -lineinfo itself).
warpsim=$1 built=$2 src=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "lines_check: $*" >&2; exit 1; }

# The line number of the first line of FILE containing TEXT.
line_of() { grep -nF -- "$2" "$1" | head -n 1 | cut -d: -f1; }
# The JSON object of KERNEL and LINE in the JSON-lines file F.
row() { grep -F "\"kernel\":\"$2\"," "$1" | grep -F "\"line\":$3,"; }
# A numeric field of a JSON object on stdin.
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
# The sum of a numeric field over the objects of F for KERNEL.
total() { grep -F "\"kernel\":\"$2\"," "$1" | field "$3" | awk '{ s += $1 } END { print s + 0 }'; }
expect() {  # expect WHAT GOT WANT
    [ "$2" = "$3" ] || fail "$1: got '$2', expected $3"
}

T=$src/transpose.cu M=$src/matmul.cu
col_read=$(line_of "$T" "out[y * n + x] = tile[threadIdx.x][threadIdx.y];")   # in transposeConflict
row_write=$(line_of "$T" "tile[threadIdx.y][threadIdx.x] = in[y * n + x];")
strided=$(line_of "$T" "out[i] = in[i * stride];")
as_store=$(line_of "$M" "As[threadIdx.x][threadIdx.y] = A[row * n + t + threadIdx.x];")
inner=$(line_of "$M" "sum += As[k][threadIdx.y] * Bs[k][threadIdx.x];")
# transposePadded's lines come 12 after transposeConflict's (same body)
pad_read=$((col_read + 12))

transpose() {  # transpose KERNEL EXTRA_OPTIONS...
    k=$1
    shift
    "$warpsim" run "$built/transpose.ptx" --kernel "$k" --grid 2,2 --block 32,32 \
        --arg buf:f32:4096:iota --arg buf:f32:4096:zero --arg i32:64 "$@"
}

# ---- transposeConflict: 64x64 floats, blocks of 32x32 threads ------------
# 4 blocks x 32 warps = 128 warp-level requests per shared or global access.
# The column read tile[threadIdx.x][threadIdx.y]: the 32 lanes of a warp
# (threadIdx.x 0..31, one threadIdx.y) read words 128 B apart, all in bank
# threadIdx.y: 32-way, 32 wavefronts per request, 31 of them conflicts:
# 128 requests, 4096 wavefronts, 3968 conflicts.  The global store next to
# it writes 32 consecutive floats: 4 sectors per request, ideal 4.
for mode in --functional ""; do
    transpose transposeConflict $mode --summary none --lines --lines-out "$tmp/t.jsonl" \
        >"$tmp/t.out" 2>"$tmp/t.err" || fail "transposeConflict $mode failed: $(cat "$tmp/t.err")"
    r=$(row "$tmp/t.jsonl" transposeConflict "$col_read")
    [ -n "$r" ] || fail "no JSON row for transpose.cu:$col_read ($mode)"
    expect "column read: shared ld requests ($mode)" "$(echo "$r" | field shared_requests_ld)" 128
    expect "column read: wavefronts ($mode)" "$(echo "$r" | field shared_wavefronts_ld)" 4096
    expect "column read: bank conflicts ($mode)" "$(echo "$r" | field shared_bank_conflicts_ld)" 3968
    expect "column read: global st requests ($mode)" "$(echo "$r" | field global_st_requests)" 128
    expect "column read: global st sectors ($mode)" "$(echo "$r" | field global_st_sectors)" 512
    expect "column read: ideal sectors ($mode)" "$(echo "$r" | field global_st_ideal_sectors)" 512
    echo "$r" | grep -q '"line_info":"cu"' || fail "line_info is not cu with -lineinfo"
    echo "$r" | grep -qF '"source":"out[y * n + x] = tile[threadIdx.x][threadIdx.y];"' ||
        fail "the JSON row does not carry the source text"
    # the row-wise write: no conflicts, 128 wavefronts
    r=$(row "$tmp/t.jsonl" transposeConflict "$row_write")
    expect "row write: wavefronts ($mode)" "$(echo "$r" | field shared_wavefronts_st)" 128
    expect "row write: conflicts ($mode)" "$(echo "$r" | field shared_bank_conflicts_st)" 0
    expect "row write: global ld sectors ($mode)" "$(echo "$r" | field global_ld_sectors)" 512
    # the text names the conflicting line first, with its degree
    first=$(grep -A1 'far from ideal' "$tmp/t.err" | sed -n 2p)
    case $first in
    *"transpose.cu:$col_read "*) ;;
    *) fail "the first line far from ideal is not transpose.cu:$col_read: '$first'" ;;
    esac
    grep -q '32.0-way bank conflict on shared loads' "$tmp/t.err" || fail "no 32-way sentence ($mode)"
done

# the lines add up to the launch's totals (the summary's JSON)
transpose transposeConflict --json --lines-out "$tmp/t.jsonl" >/dev/null 2>"$tmp/s.json" ||
    fail "transposeConflict --json failed"
expect "warp instructions over the lines" "$(total "$tmp/t.jsonl" transposeConflict warp_instructions)" \
    "$(field warp_instructions <"$tmp/s.json")"
expect "shared ld wavefronts over the lines" "$(total "$tmp/t.jsonl" transposeConflict shared_wavefronts_ld)" \
    "$(field shared_wavefronts_ld <"$tmp/s.json")"
stalls=0
for reason in $(sed 's/,/\n/g' "$tmp/s.json" | sed -n 's/^"stall_\([a-z_]*\)":.*/\1/p'); do
    stalls=$((stalls + $(sed -n "s/.*\"stall_$reason\":\([0-9]*\).*/\1/p" "$tmp/s.json")))
done
expect "stall cycles over the lines" "$(total "$tmp/t.jsonl" transposeConflict stall_cycles)" "$stalls"

# ---- transposePadded: rows of 33 floats; the column read goes to banks
# (33 * threadIdx.x + threadIdx.y) % 32, all different: no conflicts.
transpose transposePadded --functional --summary none --lines --lines-out "$tmp/p.jsonl" \
    >/dev/null 2>"$tmp/p.err" || fail "transposePadded failed"
r=$(row "$tmp/p.jsonl" transposePadded "$pad_read")
expect "padded column read: wavefronts" "$(echo "$r" | field shared_wavefronts_ld)" 128
for op in ld st; do
    expect "padded: bank conflicts $op" "$(total "$tmp/p.jsonl" transposePadded shared_bank_conflicts_$op)" 0
done
grep -q 'far from ideal' "$tmp/p.err" && fail "the padded transpose is reported far from ideal"

# ---- copyStrided, stride 2: 4 blocks of 256 threads = 32 warp requests.
# Lane l reads in[2 * (32w + l)]: 32 floats 8 B apart span 256 B = 8
# sectors per request where 32 lanes x 4 B = 128 B = 4 would do.
"$warpsim" run "$built/transpose.ptx" --kernel copyStrided --grid 4 --block 256 \
    --arg buf:f32:2048:iota --arg buf:f32:1024:zero --arg i32:2 --functional --summary none \
    --lines --lines-out "$tmp/c.jsonl" >/dev/null 2>"$tmp/c.err" || fail "copyStrided failed"
r=$(row "$tmp/c.jsonl" copyStrided "$strided")
expect "strided: requests" "$(echo "$r" | field global_ld_requests)" 32
expect "strided: sectors" "$(echo "$r" | field global_ld_sectors)" 256
expect "strided: ideal sectors" "$(echo "$r" | field global_ld_ideal_sectors)" 128
grep -q '8.0 sectors per request where 4.0 would do: neighbouring threads read addresses 8 B apart' \
    "$tmp/c.err" || fail "no strided-access sentence: $(cat "$tmp/c.err")"

# a fault names the kernel as its source does (demangled), and the .cu line
"$warpsim" run "$built/transpose.ptx" --kernel copyStrided --grid 1 --block 32 --arg buf:f32:32:iota \
    --arg buf:f32:32:zero --arg i32:100000 --functional >/dev/null 2>"$tmp/f.err" && fail "no fault"
grep -q "of kernel copyStrided at pc .*transpose.cu:$strided)" "$tmp/f.err" ||
    fail "the fault does not name copyStrided and its line: $(cat "$tmp/f.err")"

# ---- without line info: PTX lines, and the report says so
"$warpsim" run "$built/transpose_noline.ptx" --kernel transposeConflict --grid 2,2 --block 32,32 \
    --arg buf:f32:4096:iota --arg buf:f32:4096:zero --arg i32:64 --functional --summary none \
    --lines --lines-out "$tmp/n.jsonl" >/dev/null 2>"$tmp/n.err" || fail "no-lineinfo run failed"
grep -q 'PTX lines: the PTX has no .loc line info' "$tmp/n.err" || fail "the report does not say PTX lines"
grep -q '"line_info":"cu"' "$tmp/n.jsonl" && fail "cu lines without line info"
expect "PTX lines: conflicts" "$(total "$tmp/n.jsonl" transposeConflict shared_bank_conflicts_ld)" 3968

# ---- matmulConflict, n = 64: 4 blocks x 32 warps x 2 tiles = 256 stores of
# the A tile, each writing a column of As (32-way): 8192 wavefronts, 7936
# conflicts.  The inner loop reads As[k][ty] (one address: a broadcast) and
# Bs[k][tx] (consecutive): 256 x 32 k x 2 = 16384 requests, no conflicts.
"$warpsim" run "$built/matmul.ptx" --kernel matmulConflict --grid 2,2 --block 32,32 \
    --arg buf:f32:4096:rand=1 --arg buf:f32:4096:rand=2 --arg buf:f32:4096:zero --arg i32:64 \
    --summary short --lines --lines-out "$tmp/m.jsonl" >/dev/null 2>"$tmp/m.err" || fail "matmul failed"
r=$(row "$tmp/m.jsonl" matmulConflict "$as_store")
expect "As store: requests" "$(echo "$r" | field shared_requests_st)" 256
expect "As store: wavefronts" "$(echo "$r" | field shared_wavefronts_st)" 8192
expect "As store: conflicts" "$(echo "$r" | field shared_bank_conflicts_st)" 7936
r=$(row "$tmp/m.jsonl" matmulConflict "$inner")
expect "inner loop: requests" "$(echo "$r" | field shared_requests_ld)" 16384
expect "inner loop: conflicts" "$(echo "$r" | field shared_bank_conflicts_ld)" 0
first=$(grep -A1 'far from ideal' "$tmp/m.err" | sed -n 2p)
case $first in
*"matmul.cu:$as_store "*) ;;
*) fail "the first line far from ideal is not matmul.cu:$as_store: '$first'" ;;
esac
grep -q '32.0-way bank conflict on shared stores' "$tmp/m.err" || fail "no 32-way sentence for the matmul"
# --summary short: one line, with the kernel's own cycles apart from the overhead
grep -Eq '^kernel matmulConflict .*: [0-9]+ cycles \(kernel [0-9]+ \+ launch [0-9]+\)' "$tmp/m.err" ||
    fail "no short summary: $(head -n 2 "$tmp/m.err")"

# ---- warpsim exec --lines: 2 launches of transposeConflict summed
prog=$built/lines_prog
"$warpsim" exec --summary short --lines --lines-out "$tmp/e.jsonl" -- "$prog" >"$tmp/e.out" 2>"$tmp/e.err" ||
    fail "lines_prog failed: $(cat "$tmp/e.err")"
[ "$(cat "$tmp/e.out")" = OK ] || fail "lines_prog did not print OK: $(cat "$tmp/e.out")"
r=$(row "$tmp/e.jsonl" transposeConflict "$col_read")
echo "$r" | grep -q '"line_info":"cu"' || fail "warpsim nvcc did not add -lineinfo"
expect "exec: column read wavefronts, 2 launches" "$(echo "$r" | field shared_wavefronts_ld)" 8192
expect "exec: column read conflicts, 2 launches" "$(echo "$r" | field shared_bank_conflicts_ld)" 7936
expect "exec: padded conflicts" "$(total "$tmp/e.jsonl" transposePadded shared_bank_conflicts_ld)" 0
expect "exec: short summaries of transposeConflict" "$(grep -c '^kernel transposeConflict ' "$tmp/e.err")" 2
# the second launch reuses the first's timing and adds its per-line
# counters again (the wavefronts above): the same lines as simulated
grep -Eq '^  transposeConflict: 2 launches \(1 of them with the timing of an identical earlier launch, not simulated again\); the kernel.s own cycles per launch min ([0-9]+) / median \1 / max \1;' \
    "$tmp/e.err" || fail "no per-kernel totals (two equal launches): $(grep launches "$tmp/e.err")"
"$warpsim" exec --summary short --simulate-all --lines-out "$tmp/s.jsonl" -- "$prog" >/dev/null 2>"$tmp/s.err" ||
    fail "lines_prog --simulate-all failed: $(cat "$tmp/s.err")"
grep -q 'not simulated again' "$tmp/s.err" && fail "--simulate-all reused a launch"
cmp -s "$tmp/e.jsonl" "$tmp/s.jsonl" || fail "per-line counters differ with the second launch reused"
# the HTML report reuses too (it shows each kernel's longest launch, which
# a reused launch never is) and says so; otherwise the same page
"$warpsim" exec --summary none --report "$tmp/r.html" -- "$prog" >/dev/null 2>&1 || fail "--report failed"
"$warpsim" exec --summary none --report "$tmp/rs.html" --simulate-all -- "$prog" >/dev/null 2>&1 ||
    fail "--report --simulate-all failed"
grep -q '2 launches (1 of them with the timing of an identical earlier launch, not simulated again)' "$tmp/r.html" ||
    fail "the report does not say which launch was reused"
grep -q 'not simulated again' "$tmp/rs.html" && fail "the report says --simulate-all reused a launch"
sed 's/ (1 of them with the timing of an identical earlier launch, not simulated again)//' "$tmp/r.html" |
    cmp -s - "$tmp/rs.html" || fail "the report differs with the second launch reused"

grep -q '^  matmulConflict: 1 launch;' "$tmp/e.err" || fail "no totals for matmulConflict"
"$warpsim" exec --summary none -- "$prog" >/dev/null 2>"$tmp/q.err" || fail "--summary none failed"
[ -s "$tmp/q.err" ] && fail "--summary none printed: $(cat "$tmp/q.err")"
"$warpsim" exec --summary long -- "$prog" >/dev/null 2>&1 && fail "--summary long accepted"
exit 0
