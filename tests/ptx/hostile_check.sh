#!/bin/sh
# Hostile input to `warpsim check`: every file is refused with exit 2 and
# FILE:LINE:COL: error: lines naming the problem, in bounded time and
# memory (ctest's TIMEOUT; the ASan build checks for bad accesses).
#   hostile_check.sh WARPSIM HOSTILE_DATA_DIR
set -u
ws=$1 data=$2
tmp=${TMPDIR:-/tmp}/warpsim_hostile.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# Keep a runaway allocation from taking the machine down (4 GiB of address
# space is plenty for warpsim and too little to survive a runaway; ASan
# reserves far more address space, so the limit is off under it).
[ -n "${WARPSIM_ASAN:-}" ] || ulimit -v 4194304 2>/dev/null

# expect FILE LINE:COL MESSAGE-REGEX: the first error line is
# FILE:LINE:COL: error: MESSAGE (an extended regex anchored at both ends).
expect() {
    f=$1 pos=$2 msg=$3
    "$ws" check "$f" > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] || bad "$f: exit $rc, want 2: $(head -c 300 "$tmp/err")"
    first=$(head -n 1 "$tmp/err" | head -c 400)
    printf '%s\n' "$first" | grep -Eqx -- "$(printf '%s' "$f" | sed 's/[][\.*^$()+?{}|]/\\&/g'):$pos: error: $msg" ||
        bad "$f: first line: $first"
    [ ! -s "$tmp/out" ] || bad "$f: wrote to stdout: $(head -c 200 "$tmp/out")"
}

H='.version 8.0
.target sm_80
.address_size 64
'
expect "$data/truncated.ptx" 9:18 "syntax error: unexpected end of file; expecting .;."
expect "$data/garbage.ptx" 1:1 "syntax error: unexpected 'this'.*"
expect "$data/billion_regs.ptx" 6:15 "register range 1000000000 is too large \(warpsim accepts up to 1000000 registers\)"
expect "$data/future_version.ptx" 1:1 "PTX ISA version 42.0 is newer than warpsim supports \(up to [0-9.]+\)"
expect "$data/unterminated_comment.ptx" 4:1 "unterminated comment '/\*'"
expect "$data/undeclared_register.ptx" 7:20 "undeclared register '%r9'"
expect "$data/undeclared_label.ptx" 6:10 "undefined label 'NOWHERE'"
expect "$data/duplicate_label.ptx" 8:1 "duplicate label 'L1'"
expect "$data/operand_count.ptx" 7:2 "add.s32 takes 3 operands, not 2"
expect "$data/not_an_address.ptx" 7:2 "operand 2 of ld.global.u32 must be an address in \[ \]"
expect "$data/operand_type.ptx" 8:2 "operand 3 of add.s32 is .f32 register '%f1', but the instruction wants .s32"

# Bytes that are not text: NUL, 0xff, control characters.
printf '%s\000\377\001\033[2J' "$H" > "$tmp/binary.ptx"
expect "$tmp/binary.ptx" 4:1 "unexpected character.*"
head -c 4096 /dev/urandom | tr -d '/' > "$tmp/random.ptx"
"$ws" check "$tmp/random.ptx" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || bad "random bytes: exit $rc, want 2"

# A name of 1 MiB.
{ printf '%s.visible .entry ' "$H"; head -c 1048576 /dev/zero | tr '\0' 'k'; printf '()\n{\n\tret;\n}\n'; } > "$tmp/long_name.ptx"
expect "$tmp/long_name.ptx" 4:17 "name 'k{40}\.\.\.' is 1048576 characters long; warpsim accepts up to 65536"

# Blocks nested 100000 deep: refused at the limit, not a stack overflow.
{ printf '%s.visible .entry k()\n{\n' "$H"; i=0; while [ $i -lt 1000 ]; do printf '{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n'; i=$((i + 1)); done; } > "$tmp/deep.ptx"
expect "$tmp/deep.ptx" "[0-9]+:[0-9]+" "blocks nested more than 256 deep"
# ... and an initializer nested as deep: the parser's stack is bounded.
{ printf '%s.global .u32 g[1] = ' "$H"; i=0; while [ $i -lt 1000 ]; do printf '{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n'; i=$((i + 1)); done; } > "$tmp/deep_init.ptx"
expect "$tmp/deep_init.ptx" "[0-9]+:[0-9]+" "nested too deeply: more than [0-9]+ levels of grammar"

# Registers declared a million at a time, past the function's limit.
{ printf '%s.visible .entry k()\n{\n' "$H"; for r in a b c; do printf '\t.reg .b32 %%%s<600000>;\n' $r; done; printf '\tret;\n}\n'; } > "$tmp/many_regs.ptx"
expect "$tmp/many_regs.ptx" 7:12 "more than 1000000 registers declared in function 'k'"

# Several errors in one file: each instruction's own, in order.
"$ws" check "$data/several_errors.ptx" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] || bad "several errors: exit $rc, want 2"
f="$data/several_errors.ptx"
printf '%s\n' "$f:7:15: error: undeclared register '%r9'" \
    "$f:8:2: error: unsupported instruction 'frobnicate.u32'" \
    "$f:9:19: error: syntax error: unexpected ','" \
    "$f:10:15: error: undeclared register '%r8'" \
    "$f:12:10: error: undefined label 'NOWHERE'" > "$tmp/want"
diff "$tmp/want" "$tmp/err" > "$tmp/diff" || bad "several errors: $(cat "$tmp/diff")"

# At most 20 errors, however many the file holds.
{ printf '%s.visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n' "$H"; i=0; while [ $i -lt 100 ]; do printf '\tadd.s32 %%r1, %%r1, %%nope;\n'; i=$((i + 1)); done; printf '\tret;\n}\n'; } > "$tmp/hundred.ptx"
"$ws" check "$tmp/hundred.ptx" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] || bad "100 errors: exit $rc, want 2"
[ "$(grep -c ': error: undeclared register' "$tmp/err")" -eq 20 ] || bad "100 errors: $(wc -l < "$tmp/err") lines, want 20"

[ $fail -eq 0 ] && echo "hostile_check: all passed"
exit $fail
