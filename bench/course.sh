#!/bin/sh
# Course programs as a student runs them: each program of bench/course/
# (labs of the PMPP chapters written as a student would, each checking its
# results against a CPU reference and timing a warm-up and 10 launches
# with cudaEvent) built with `warpsim nvcc` and run under `warpsim exec
# --gpu h200` at the sizes of the notes, once.  Prints a table: wall
# seconds and peak memory (GNU time), the program's checks (PASS and FAIL
# lines), its launches and how many of them were reused (docs/REUSE.md).
# THREADS=N passes --threads N (default: warpsim's own, every core);
# OPTS='...' passes more options to exec (OPTS=--lines: the per-line
# report too; OPTS='--report FILE': the HTML report).  BUILT=DIR keeps
# the built programs in DIR and runs those found there instead of building
# them again (several runs of the table with other options or another
# warpsim: the programs are plain CUDA programs, the same for any).
#
#   bench/course.sh [WARPSIM] [PROGRAM...]   (default: build/warpsim; all)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ws=${1:-$root/build/warpsim}
[ $# -gt 0 ] && shift
[ -x "$ws" ] || { echo "course.sh: no $ws (build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "course.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
built=${BUILT:-$tmp}
mkdir -p "$built"
threads=${THREADS:+--threads $THREADS}
opts=${OPTS:-}

# program and its arguments, one run a line (none: its own defaults)
runs="scan_kogge_stone
scan_brent_kung
scan_single_pass
merge_corank
radix_sort
bitonic_sort
stencil3d
heat_jacobi
conv2d_tiled
matmul_coarsened 512 512 512
matmul_coarsened 1024 1024 1024
conv_layer_im2col
transpose_and_softmax
attention
bfs
spmv_formats
histogram_variants
reduction_variants
runtime_features
sgemm_wmma_or_cg"

echo "| program | wall s | peak MiB | checks | launches | reused |"
echo "|---|---|---|---|---|---|"
echo "$runs" | while read -r prog args; do
    if [ $# -gt 0 ]; then
        case " $* " in *" $prog "*) ;; *) continue ;; esac
    fi
    bin=$built/$prog
    if [ ! -x "$bin" ]; then
        "$ws" nvcc --gpu h200 -O2 -o "$bin" "$root/bench/course/$prog.cu" >"$tmp/nvcc.log" 2>&1 ||
            { echo "| $prog | build failed: $(tail -n 1 "$tmp/nvcc.log") | | | | |"; continue; }
    fi
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$ws" exec --gpu h200 $threads $opts --summary short -- "$bin" $args \
        >"$tmp/out" 2>"$tmp/err" || true
    read -r secs kb <"$tmp/time" || { secs='?'; kb=0; }
    pass=$(grep -c PASS "$tmp/out" || true)
    fail=$(grep -c FAIL "$tmp/out" || true)
    launches=$(grep -c '^kernel .* cycles (kernel' "$tmp/err" || true)
    reused=$(grep -c 'timing reused from launch' "$tmp/err" || true)
    echo "| $prog${args:+ $args} | $secs | $((kb / 1024)) | $pass PASS, $fail FAIL | $launches | $reused |"
done
