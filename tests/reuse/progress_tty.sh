#!/bin/sh
# The progress line: on a terminal (a pseudo-terminal from script(1), of
# bsdutils) a launch past the show time (here 0 ms, WARPSIM_PROGRESS_AFTER_MS)
# draws "warpsim: KERNEL  blocks D/T (P%) ... ETA ..." and erases it
# (carriage return, erase to end of line) before the summary; with stderr
# a file nothing of it appears.  Skipped without script.
#   progress_tty.sh WARPSIM FC_LAYER
warpsim=$1 prog=$2
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
command -v script >/dev/null 2>&1 || { echo "progress_tty: no script(1); skipped"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "progress_tty: $*" >&2; exit 1; }

cmd="LD_PRELOAD='$preload' WARPSIM_PROGRESS_AFTER_MS=0 '$warpsim' exec --gpu h200 --summary short -- '$prog' 96 64 96 1 0"
script -qec "$cmd" "$t/typescript" >/dev/null 2>&1 </dev/null || fail "exit status $? under script"
grep -a -q 'warpsim: fcForward.*blocks [0-9]*/36 ([0-9]*%) .* cycles .* warp insts/s  ETA ' "$t/typescript" ||
    fail "no progress line on the terminal: $(cat -v "$t/typescript")"
# each drawing starts with a carriage return; the last is erased before the summary
esc=$(printf '\033')
cr=$(printf '\r')
grep -a -q "${cr}${esc}\\[Kkernel fcForward" "$t/typescript" ||
    fail "the line is not erased before the summary: $(cat -v "$t/typescript")"

LD_PRELOAD=$preload WARPSIM_PROGRESS_AFTER_MS=0 "$warpsim" exec --gpu h200 --summary short -- "$prog" 96 64 96 1 0 \
    >"$t/out" 2>"$t/err" || fail "exit status $? with stderr a file"
grep -q 'ETA\|blocks [0-9]' "$t/err" && fail "progress written to a file: $(cat "$t/err")"
[ "$(tail -n 1 "$t/out")" = PASS ] || fail "the program's last line is not PASS"
echo "progress_tty: ok"
