#!/bin/sh
# The last step of a golden test: with --update, GOT becomes the held file
# HELD; else GOT must be HELD, line for line.
#
#   tests/golden/hold.sh NAME GOT HELD UPDATE_COMMAND [--update]
#     NAME: the test's name in messages; UPDATE_COMMAND: how to update it
set -eu
name=$1 got=$2 held=$3 how=$4 update=${5:-}
shown=tests/golden/$(basename "$held")
if [ "$update" = --update ]; then
    cp "$got" "$held"
    echo "$name: wrote $(wc -l <"$held") launches to $shown"
    exit 0
fi
if ! diff "$held" "$got" >"$got.diff"; then
    echo "$name: results differ from $shown (< golden, > now):"
    head -40 "$got.diff"
    echo "If the change is on purpose: $how --update, and say why in the commit."
    exit 1
fi
echo "$name: $(wc -l <"$got") launches unchanged"
