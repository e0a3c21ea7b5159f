#!/bin/sh
# docs/SUPPORT.md against the code it describes:
#   - every opcode of isa/ptx_opcodes.def has a row in the PTX table;
#   - every instruction of frontend/ptx/ptx_unsupported.def has a "rejected" row;
#   - every runtime function warpsim implements (CR_EXPORT in
#     frontend/cudart/cudart_*.c) is named in the runtime section;
#   - every function of frontend/cudart/cudart_stubs.def is named under
#     "Refused with a message".
#   support_table.sh SOURCE_DIR
src=$1
doc=$src/docs/SUPPORT.md
[ -r "$doc" ] || { echo "support_table: no $doc" >&2; exit 1; }
bad=0
miss() { echo "support_table: $*" >&2; bad=1; }

ptx=$(awk '/^## PTX instructions$/ { on = 1; next } /^## / { on = 0 } on' "$doc")
runtime=$(awk '/^## CUDA runtime API/ { on = 1; next } /^## / { on = 0 } on' "$doc")
refused=$(awk '/^### Refused with a message$/ { on = 1; next } /^##/ { on = 0 } on' "$doc")
[ -n "$ptx" ] && [ -n "$runtime" ] && [ -n "$refused" ] || { echo "support_table: sections missing in $doc" >&2; exit 1; }

n=0
for m in $(sed -n 's/^X([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' "$src/isa/ptx_opcodes.def"); do
    n=$((n + 1))
    printf '%s\n' "$ptx" | grep -Eq "^\| \`$m\`( \([a-z]+\))? \| (supported|partly|rejected) \|" ||
        miss "opcode '$m' (ptx_opcodes.def) has no row in the PTX table of docs/SUPPORT.md"
done
[ $n -gt 60 ] || miss "only $n opcodes read from ptx_opcodes.def"

for m in $(sed -n 's/^X("\([^"]*\)".*/\1/p' "$src/frontend/ptx/ptx_unsupported.def"); do
    printf '%s\n' "$ptx" | grep -Eq "^\| \`$m\` \| rejected \|" ||
        miss "'$m' (ptx_unsupported.def) is not a rejected row of the PTX table"
done

n=0
for f in $(cat "$src"/frontend/cudart/cudart_*.c | grep -v '^ *CR_EXPORT int name' |
           sed -n 's/^CR_EXPORT [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p'); do
    n=$((n + 1))
    printf '%s\n' "$runtime" | grep -q "\`$f\`" || miss "runtime function '$f' is not in the runtime section"
done
[ $n -gt 100 ] || miss "only $n implemented runtime functions found"

for f in $(sed -n 's/^X(\([A-Za-z_0-9]*\))$/\1/p' "$src/frontend/cudart/cudart_stubs.def"); do
    printf '%s\n' "$refused" | grep -q "\`$f\`" || miss "'$f' (cudart_stubs.def) is not listed as refused"
done
[ $bad -eq 0 ] && echo "support_table: docs/SUPPORT.md lists every opcode and runtime function"
exit $bad
