#!/usr/bin/env bash
# warpsim sweep end to end: expand a spec, run the job list with GNU
# parallel, merge the JSON into a CSV and check it against hand-worked
# figures; the Slurm script's syntax and array indexing; the spec's errors.
# usage: sweep_test.sh WARPSIM KERNELS_DIR   (exit 77: GNU parallel absent)
set -uo pipefail
warpsim=$1
kernels=$2
ptx=$kernels/ptx/sm_80/vector_add.ptx
command -v parallel >/dev/null || { echo "GNU parallel is not installed (scripts/setup.sh installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# vecAdd with n elements on 4 blocks of 256 threads: every thread below n
# loads a[i] and b[i]: 2 * n * 4 bytes = n / 4 sectors of 32 bytes, in
# 2 * n / 32 warp-level requests.
cat > spec.txt <<SPEC
# vector add at two sizes on two GPUs, plus one broken job
gpu = a100 h200
n = 256 1024
unused = 1 2 3
job = run $ptx --kernel vecAdd --grid 4 --block 256 --arg buf:f32:{n}:iota --arg buf:f32:{n}:fill=2 --arg buf:f32:{n}:zero --arg i32:{n}
job = run $ptx --kernel noSuchKernel --grid 1 --block 32
SPEC
"$warpsim" sweep spec.txt --out out > expand.txt || fail "expanding the spec"
grep -q "^warpsim sweep: 6 runs (2 jobs on 2 GPU configs)" expand.txt || fail "run count: $(cat expand.txt)"
[ "$(wc -l < out/jobs.txt)" -eq 6 ] || fail "jobs.txt has $(wc -l < out/jobs.txt) lines, not 6"
[ "$(sed -n 1p out/manifest.tsv)" = "$(printf 'run\tjob\tgpu\tn\tunused')" ] || fail "manifest header"

parallel --joblog out/joblog < out/jobs.txt
# the broken job's runs fail inside the job list; parallel itself ran all 6
[ "$(tail -n +2 out/joblog | wc -l)" -eq 6 ] || fail "parallel ran $(tail -n +2 out/joblog | wc -l) jobs"

"$warpsim" sweep --merge out --csv results.csv 2> merge.err
status=$?
[ "$status" -eq 1 ] || fail "merge exit status $status with two failed runs (want 1)"
grep -q "2 of 6 runs failed" merge.err || fail "merge does not list the failed runs: $(cat merge.err)"
col() { head -1 results.csv | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
c_gpu=$(col gpu); c_n=$(col n); c_status=$(col status); c_sectors=$(col global_ld_sectors)
c_requests=$(col global_ld_requests); c_cycles=$(col cycles)
[ -n "$c_sectors" ] && [ -n "$c_cycles" ] || fail "CSV header lacks counters: $(head -1 results.csv)"
[ "$(head -1 results.csv | tr ',' '\n' | grep -cx gpu)" -eq 1 ] || fail "the gpu column is repeated"
rows=0
while IFS=, read -r -a f; do
  gpu=${f[c_gpu - 1]} n=${f[c_n - 1]} st=${f[c_status - 1]}
  if [ -z "$n" ]; then
    [ "$st" = 2 ] || fail "broken job on $gpu: status '$st', want 2"
    continue
  fi
  rows=$((rows + 1))
  [ "$st" = 0 ] || fail "n=$n on $gpu: status $st"
  [ "${f[c_sectors - 1]}" = $((n / 4)) ] || fail "n=$n on $gpu: ${f[c_sectors - 1]} load sectors, want $((n / 4))"
  [ "${f[c_requests - 1]}" = $((2 * n / 32)) ] || fail "n=$n on $gpu: ${f[c_requests - 1]} load requests"
  [ "${f[c_cycles - 1]}" -gt 0 ] 2>/dev/null || fail "n=$n on $gpu: cycles '${f[c_cycles - 1]}'"
done < <(tail -n +2 results.csv)
[ "$rows" -eq 4 ] || fail "$rows vecAdd rows in the CSV, want 4"

# Slurm: valid bash, one array task per job line, task K runs line K+1.
bash -n out/slurm.sh || fail "slurm.sh is not valid bash"
grep -qx "#SBATCH --array=0-5" out/slurm.sh || fail "array range: $(grep array out/slurm.sh)"
rm -f out/run-3.status
SLURM_ARRAY_TASK_ID=3 bash out/slurm.sh || fail "slurm task 3"
[ "$(cat out/run-3.status 2>/dev/null)" = 0 ] || fail "slurm task 3 did not run line 4 (run 3)"
SLURM_ARRAY_TASK_ID=6 bash out/slurm.sh 2>/dev/null && fail "slurm task 6 (past the end) succeeded"

# Threads: a run without --threads of its own gets one (the runs go side
# by side); a job's own --threads (before exec's "--") or --functional gets
# none added, and Slurm's tasks get the most CPUs any run asks for.
[ "$(grep -c -- ' --threads 1 ' out/jobs.txt)" -eq 6 ] || fail "not every run of jobs.txt has --threads 1"
grep -qx "#SBATCH --cpus-per-task=1" out/slurm.sh || fail "cpus per task: $(grep cpus-per-task out/slurm.sh)"
cat > tspec.txt <<SPEC
gpu = a100
t = 2 3
job = run $ptx --kernel vecAdd --grid 4 --block 256 --arg buf:f32:256:iota --arg buf:f32:256:fill=2 --arg buf:f32:256:zero --arg i32:256 --threads {t}
job = exec --functional -- ./prog
job = exec --threads=2 -- ./prog
job = exec -- ./prog --threads 9
SPEC
"$warpsim" sweep tspec.txt --out tout > /dev/null || fail "expanding the threads spec"
threads_of() { sed -n "$1p" tout/jobs.txt | sed 's/ -- .*//' | grep -o -- '--threads[= ][0-9]*' | tr '\n' ' '; }
[ "$(threads_of 1)" = "--threads 2 " ] || fail "run 0: '$(threads_of 1)', want the job's --threads 2 alone"
[ "$(threads_of 2)" = "--threads 3 " ] || fail "run 1: '$(threads_of 2)', want the job's --threads 3 alone"
[ "$(threads_of 3)" = "" ] || fail "the --functional run got '$(threads_of 3)'"
[ "$(threads_of 4)" = "--threads=2 " ] || fail "run 3: '$(threads_of 4)', want the job's --threads=2 alone"
[ "$(threads_of 5)" = "--threads 1 " ] || fail "run 4 (the program's own --threads 9): '$(threads_of 5)'"
grep -qx "#SBATCH --cpus-per-task=3" tout/slurm.sh || fail "cpus per task: $(grep cpus-per-task tout/slurm.sh)"
for k in 0 1; do
  bash -c "$(sed -n "$((k + 1))p" tout/jobs.txt)"
  [ "$(cat tout/run-$k.status)" = 0 ] || fail "threads spec run $k: status $(cat tout/run-$k.status): $(cat tout/run-$k.json)"
done

# Errors in the spec name the place.
expect_error() {  # expect_error REGEX SPEC_TEXT
  printf '%s\n' "$2" > bad.txt
  rm -rf badout
  if "$warpsim" sweep bad.txt --out badout 2> err.txt; then fail "accepted: $2"; return; fi
  grep -Eq "$1" err.txt || fail "message for '$2': $(cat err.txt), want /$1/"
}
expect_error "bad.txt:2:17: error: unknown variable 'm'" $'gpu = a100\njob = run k.ptx {m}'
expect_error "bad.txt:2:17: error: a job must not give --gpu" $'gpu = a100\njob = run k.ptx --gpu h200'
expect_error "bad.txt:2:17: error: a run job must not give --functional" $'gpu = a100\njob = run k.ptx --functional'
expect_error "bad.txt:1:1: error: no 'gpu = \\.\\.\\.' line" 'job = run k.ptx'
expect_error "bad.txt:2:8: error: ';' in a value of 'n'" $'gpu = a100\nn = 1 2;rm\njob = run k.ptx {n}'
expect_error "bad.txt:2:7: error: a job is a 'run \\.\\.\\.' or 'exec \\.\\.\\.'" $'gpu = a100\njob = rm -rf /'
expect_error "bad.txt:3:1: error: variable 'n' is given twice" $'gpu = a100\nn = 1\nn = 2\njob = run k.ptx'
"$warpsim" sweep spec.txt --out out 2> err.txt && fail "a second sweep into the same folder was accepted"
grep -q "holds an earlier sweep" err.txt || fail "message for a reused folder: $(cat err.txt)"
"$warpsim" sweep --merge nowhere 2> err.txt; [ $? -eq 2 ] || fail "--merge of a missing folder"

# exec jobs: a whole program per run, its summaries through --summary-out
# (three launches each: vecAdd, vecAddGridStride, vecAddCoarsened).
# (nvcc itself runs without the ASan runtime the sanitized build preloads)
if command -v nvcc >/dev/null && env -u LD_PRELOAD "$warpsim" nvcc -o vadd "$kernels/vector_add.cu" > nvcc.log 2>&1; then
  printf '%s\n' "gpu = h200" "n = 512 2048" "job = exec -- ./vadd {n}" > exec_spec.txt
  "$warpsim" sweep exec_spec.txt --out xout > /dev/null || fail "expanding the exec spec"
  parallel < xout/jobs.txt
  "$warpsim" sweep --merge xout --csv xresults.csv || fail "merging the exec sweep"
  grep -q PASS xout/run-1.out || fail "the program's own output is not in run-1.out"
  for n in 512 2048; do
    row=$(grep "^[0-9]*,1,h200,$n,0,0,vecAdd," xresults.csv)
    c=$(head -1 xresults.csv | tr ',' '\n' | grep -nx global_ld_sectors | cut -d: -f1)
    [ "$(echo "$row" | cut -d, -f"$c")" = $((n / 4)) ] || fail "exec n=$n: vecAdd row '$row'"
  done
  [ "$(tail -n +2 xresults.csv | wc -l)" -eq 6 ] || fail "exec sweep: $(tail -n +2 xresults.csv | wc -l) rows, want 6"
else
  echo "note: nvcc absent or failed; exec jobs not tested"
fi

[ "$failures" -eq 0 ] && echo "sweep: all checks passed"
exit $((failures > 0))
