#!/bin/sh
# One register policy and one set of launch limits under `warpsim run`,
# `warpsim exec` and `warpsim occupancy` (sim/core/kernel_regs.h,
# sim/core/launch_check.h), for one kernel (data/regs_policy.cu) whose
# register count from ptxas differs from warpsim's estimate:
#   - with ptxas: all three use ptxas's count (read here from ptxas -v
#     itself) and give the blocks per SM the A100's register rule gives
#     for it (worked out here);
#   - with a ptxas that fails: all three use the same estimate, different
#     from ptxas's count, and each says it is an estimate;
#   - a block whose registers do not fit, and more dynamic shared memory
#     than the GPU has: the same error, word for word, under run and exec.
#   regs_policy.sh WARPSIM PROGRAM PTX
ws=$1 prog=$2 ptx=$3
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
ptxas=$(command -v ptxas || ls "${CUDA_HOME:-/nonexistent}/bin/ptxas" /usr/local/cuda/bin/ptxas 2>/dev/null | head -1)
if [ -z "$ptxas" ]; then
    echo "regs_policy: SKIP: no ptxas (the CUDA toolkit)"
    exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "regs_policy: FAIL: $*"; status=1; }
# a key of the one-line summary JSON ("key":value), or of the occupancy JSON ("key": value)
key() { sed -n "s/.*\"$1\": *\([^,}]*\).*/\1/p" | head -1; }
args="--grid 2 --arg buf:f32:512:zero --arg buf:f32:512:zero --arg i32:512 --gpu a100"

ref=$("$ptxas" -v -arch=sm_80 -o /dev/null "$ptx" 2>&1 | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -1)
[ -n "$ref" ] || { echo "regs_policy: ptxas printed no register count"; exit 1; }
# The A100's hardware rule for 256 threads (8 warps) a block: registers per
# warp rounded up to 256, 16384 per sub-partition, 4 sub-partitions, 64 warps.
per_warp=$(( (ref * 32 + 255) / 256 * 256 ))
blocks=$(( 16384 / per_warp * 4 / 8 ))
[ "$blocks" -gt 8 ] && blocks=8

# run_all TAG: the three front ends' summaries for 256 threads a block
run_all() {
    "$ws" run "$ptx" --kernel manyLive --block 256 $args --json 2>"$work/$1.run" >/dev/null ||
        fail "$1: warpsim run failed: $(cat "$work/$1.run")"
    LD_PRELOAD=$preload "$ws" exec --json --gpu a100 -- "$prog" ok 2>"$work/$1.exec" >/dev/null ||
        fail "$1: warpsim exec failed: $(cat "$work/$1.exec")"
    "$ws" occupancy "$ptx" --kernel manyLive --threads 256 --gpu a100 --json >"$work/$1.occ" 2>&1 ||
        fail "$1: warpsim occupancy failed: $(cat "$work/$1.occ")"
    grep '^{"kernel"' "$work/$1.exec" >"$work/$1.exec.json"
    for f in run exec.json; do
        for k in regs_per_thread regs_estimated blocks_per_sm; do
            eval "${k}_$(echo $f | tr -d .)=\$(key $k <\"$work/$1.$f\")"
        done
    done
    occ_blocks=$(key blocks_per_sm <"$work/$1.occ")
    occ_estimated=$(key regs_estimated <"$work/$1.occ")
}

run_all ptxas
[ "$regs_per_thread_run" = "$ref" ] || fail "run uses $regs_per_thread_run registers; ptxas says $ref"
[ "$regs_per_thread_execjson" = "$ref" ] || fail "exec uses $regs_per_thread_execjson registers; ptxas says $ref"
[ "$regs_estimated_run$regs_estimated_execjson" = falsefalse ] || fail "ptxas's count is flagged as an estimate"
[ -z "$occ_estimated" ] || fail "occupancy flags ptxas's count as an estimate"
for b in "$blocks_per_sm_run" "$blocks_per_sm_execjson" "$occ_blocks"; do
    [ "$b" = "$blocks" ] || fail "blocks per SM: run $blocks_per_sm_run, exec $blocks_per_sm_execjson, occupancy $occ_blocks; the rule gives $blocks for $ref registers"
done

# A ptxas that fails: the estimate, the same everywhere, and said to be one.
mkdir "$work/bin"
printf '#!/bin/sh\necho "ptxas: refused by the test" >&2\nexit 1\n' >"$work/bin/ptxas"
chmod +x "$work/bin/ptxas"
PATH="$work/bin:$PATH"
export PATH
run_all estimate
est=$regs_per_thread_run
[ -n "$est" ] && [ "$est" != "$ref" ] || fail "the estimate ($est) should differ from ptxas's $ref for this kernel"
[ "$regs_per_thread_execjson" = "$est" ] || fail "estimated registers: run $est, exec $regs_per_thread_execjson"
[ "$regs_estimated_run$regs_estimated_execjson" = truetrue ] || fail "run or exec does not flag the estimate"
[ "$occ_estimated" = true ] || fail "occupancy does not flag the estimate: $(cat "$work/estimate.occ")"
[ "$blocks_per_sm_execjson" = "$blocks_per_sm_run" ] && [ "$occ_blocks" = "$blocks_per_sm_run" ] ||
    fail "blocks per SM from the estimate: run $blocks_per_sm_run, exec $blocks_per_sm_execjson, occupancy $occ_blocks"
grep -q "note: .*ptxas.*failed.*estimated from the PTX" "$work/estimate.exec" ||
    fail "exec does not say why registers are estimated: $(cat "$work/estimate.exec")"

# Launch limits: the same error under run and exec (the words after "error: ").
limit() {   # TAG EXEC-ARG RUN-OPTIONS...: the refusal under both
    tag=$1 what=$2
    shift 2
    "$ws" run "$ptx" --kernel manyLive $args "$@" >/dev/null 2>"$work/$tag.run"
    rc=$?
    [ $rc -eq 1 ] || fail "$tag: run exits $rc, not 1"
    LD_PRELOAD=$preload "$ws" exec --gpu a100 -- "$prog" "$what" >"$work/$tag.out" 2>"$work/$tag.exec"
    r=$(sed -n 's/^warpsim run: error: //p' "$work/$tag.run")
    e=$(sed -n 's/^warpsim: error: //p' "$work/$tag.exec")
    [ -n "$r" ] && [ "$r" = "$e" ] || fail "$tag: run says '$r', exec says '$e'"
}
PATH=${PATH#"$work/bin:"}
limit regs regs --block 1024
grep -q "^regs: cudaErrorLaunchOutOfResources$" "$work/regs.out" || fail "regs: $(cat "$work/regs.out")"
grep -q "(cudaErrorLaunchOutOfResources)" "$work/regs.run" || fail "regs: $(cat "$work/regs.run")"
limit smem smem --block 256 --smem 204800
grep -q "^smem: cudaErrorInvalidValue$" "$work/smem.out" || fail "smem: $(cat "$work/smem.out")"
grep -q "(cudaErrorInvalidValue)" "$work/smem.run" || fail "smem: $(cat "$work/smem.run")"
[ $status -eq 0 ] && echo "regs_policy: ptxas $ref registers, estimate $est; run, exec and occupancy agree"
exit $status
