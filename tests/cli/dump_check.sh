#!/bin/sh
# Runs warpsim with a --dump to PATH, then checks the dumped bytes, read as
# 32-bit unsigned integers by od, against the expected list.
# usage: dump_check.sh PATH "EXPECTED WORDS" COMMAND [ARGS...]
path=$1
want=$2
shift 2
rm -f "$path"
"$@" || { echo "command failed with status $?"; exit 1; }
got=$(od -An -v -tu4 "$path" | tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//')
if [ "$got" != "$want" ]; then
    printf 'dumped words: %s\nexpected:     %s\n' "$got" "$want"
    exit 1
fi
exit 0
