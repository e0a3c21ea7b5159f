#!/bin/sh
# Runs a command and checks its exit status and that its output (stdout and
# stderr together, its lines joined by spaces so that a pattern may span
# lines) matches an extended regular expression.
# usage: expect.sh STATUS REGEX COMMAND [ARGS...]
want_rc=$1
regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
if [ "$rc" != "$want_rc" ]; then
    printf 'exit status %s, expected %s; output:\n%s\n' "$rc" "$want_rc" "$out"
    exit 1
fi
if ! printf '%s\n' "$out" | tr '\n' ' ' | grep -Eq -- "$regex"; then
    printf 'output does not match /%s/:\n%s\n' "$regex" "$out"
    exit 1
fi
exit 0
