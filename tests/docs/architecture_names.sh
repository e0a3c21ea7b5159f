#!/bin/sh
# docs/ARCHITECTURE.md against the code it walks through: every file it
# names in `backticks` exists, and every identifier it names (a function,
# a type, a field, a constant) occurs as a whole word in the sources, so
# that a rename or a removal that leaves the walk-through stale fails here.
#   architecture_names.sh SOURCE_DIR
src=$1
doc=$src/docs/ARCHITECTURE.md
[ -r "$doc" ] || { echo "architecture_names: no $doc" >&2; exit 1; }
cd "$src" || exit 1
bad=0
tokens=$(grep -o '`[^`]*`' "$doc" | tr -d '`' | sed 's/()$//' | sort -u | grep -v '[][ *<]' | grep -v '^[-.;]')
for t in $tokens; do
    case "$t" in
    */|*.c|*.h|*.l|*.y|*.def|*.md|*.sh|*.tsv|*.ini|*.csv)
        p=${t%/}
        [ -e "$p" ] && continue
        [ -n "$(find frontend sim tests docs configs validation -name "${p##*/}" 2>/dev/null | head -n 1)" ] && continue
        echo "architecture_names: $doc names a file '$t' that does not exist" >&2
        bad=1 ;;
    *)
        echo "$t" | grep -Eq '^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$' || continue
        for id in $(echo "$t" | tr '.' ' '); do
            grep -rqw --include='*.c' --include='*.h' --include='*.def' --include='*.l' --include='*.y' \
                --include='*.ini' -- "$id" frontend sim configs && continue
            echo "architecture_names: $doc names '$id' ($t), which no source file has" >&2
            bad=1
        done ;;
    esac
done
exit $bad
