#!/bin/sh
# The include rules of docs/ARCHITECTURE.md ("Layers"), checked on the
# sources so that a shortcut across layers fails here:
#   - sim/base (the shared vocabulary) includes nothing of the project
#     outside itself;
#   - sim/mem and sim/sched include only themselves and sim/base;
#   - in sim/, only the loader (decode and program load) includes the
#     front end's PTX headers: nothing that runs during a launch reads the IR;
#   - the launchers (the functional one and the timed SMs) reach the
#     executor through its interface, executor.h, never its own parts
#     (warp.h).
#   layering.sh SOURCE_DIR
#   layering.sh --self-test SOURCE_DIR   (each rule rejects a planted breach)
if [ "$1" = --self-test ]; then
    tmp=$(mktemp -d) || exit 1
    trap 'rm -rf "$tmp"' EXIT
    fail=0
    for breach in 'sim/base/error.c:#include "../core/sim.h"' \
                  'sim/mem/coalescer.c:#include "../core/sim.h"' \
                  'sim/sched/dispatcher.c:#include "../trace/trace.h"' \
                  'sim/core/exec.c:#include "../../frontend/ptx/ptx_ir.h"' \
                  'sim/core/sm_lsu.c:#include "warp.h"'; do
        rm -rf "$tmp/sim" && cp -r "$2/sim" "$tmp/sim"
        echo "${breach#*:}" >>"$tmp/${breach%%:*}"
        if sh "$0" "$tmp" 2>/dev/null; then
            echo "layering: a breach went unnoticed: ${breach%%:*} with ${breach#*:}" >&2
            fail=1
        fi
    done
    rm -rf "$tmp/sim" && cp -r "$2/sim" "$tmp/sim"
    sh "$0" "$tmp" || fail=1
    exit $fail
fi
src=$1
cd "$src" || exit 1
bad=0

# "FILE:LINE:the included path" for each project include (quoted) of the files given
quoted_includes() {
    grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@" 2>/dev/null |
        sed 's/^\([^:]*:[0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/'
}

complain() {
    echo "layering: $1" >&2
    bad=1
}

for line in $(quoted_includes sim/base/*.c sim/base/*.h); do
    inc=${line##*:}
    case "$inc" in
    */*) complain "${line%:*} includes $inc: sim/base includes only sim/base" ;;
    esac
done

for dir in sim/mem sim/sched; do
    for line in $(quoted_includes $dir/*.c $dir/*.h); do
        inc=${line##*:}
        case "$inc" in
        */*) case "$inc" in
             ../base/*) ;;
             *) complain "${line%:*} includes $inc: $dir includes only itself and sim/base" ;;
             esac ;;
        esac
    done
done

loader="sim/core/decode.c sim/core/insn_shape.h sim/core/program.c sim/core/kernel_params.c sim/core/sass_groups.c"
for f in $(grep -rlE '^[[:space:]]*#[[:space:]]*include[[:space:]]*".*frontend/ptx/ptx_(ir|query|parse)\.h"' sim); do
    case " $loader " in
    *" $f "*) ;;
    *) complain "$f includes the front end's IR: only the loader ($loader) may" ;;
    esac
done

launchers="sim/core/launch.c sim/core/sm.c sim/core/sm.h sim/core/sm_lsu.c sim/core/sm_team.c sim/core/sm_team.h
           sim/core/timing.c sim/core/timing.h sim/core/trace_issue.c sim/core/trace_issue.h"
for line in $(quoted_includes $launchers); do
    case "${line##*:}" in
    warp.h|*/warp.h) complain "${line%:*} includes warp.h: a launcher sees the executor through executor.h" ;;
    esac
done
for f in $launchers; do
    [ -f "$f" ] || complain "no $f: the launchers' list in layering.sh is out of date"
done

# the rules hold for something: each checked folder has sources
for dir in sim/base sim/mem sim/sched sim/core; do
    ls $dir/*.c >/dev/null 2>&1 || complain "no sources in $dir"
done
exit $bad
