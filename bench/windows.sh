#!/bin/sh
# Where the launches' windows of cycles spent their time, as a Markdown
# table: for each program, thread count and kernel launch, the medians over
# the runs of `threads.sh`'s TIMES_DIR (each run's `--host-times` lines,
# docs/THREADS.md "Host times"): the launch's time, its windows on the
# threads and alone, their SMs' part, the busiest SM of each window summed,
# every SM window summed, the ends, and of them the calling thread's
# settling and its wait for the other threads.
#
#   TIMES_DIR=DIR bench/threads.sh BUILD 1 16 && bench/windows.sh DIR
set -eu
dir=${1:?usage: windows.sh TIMES_DIR}
ls "$dir"/*.jsonl >/dev/null 2>&1 || { echo "windows.sh: no LAB@ARGS.N.R.jsonl in $dir" >&2; exit 1; }

echo "| program | threads | launch | kernel | runs | launch s | windows (threads / alone) | SMs' part s | busiest SM s | SM windows s | ends s | settling s | waiting s | alone s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for f in "$dir"/*.jsonl; do
    # LAB@ARGS.N.R.jsonl (or LAB.N.R.jsonl): the program and its
    # arguments (joined by commas), its threads, the run
    base=${f##*/}
    base=${base%.jsonl}
    run=${base##*.}
    rest=${base%.*}
    printf '%s %s %s\n' "${rest%.*}" "${rest##*.}" "$run"
    cat "$f"
done | awk '
    # the number after "key": in line (0 when absent)
    function num(line, key,   i) {
        i = index(line, "\"" key "\":")
        return i ? substr(line, i + length(key) + 3) + 0 : 0
    }
    function str(line, key,   i, s) {
        i = index(line, "\"" key "\":\"")
        if (!i) return "?"
        s = substr(line, i + length(key) + 4)
        return substr(s, 1, index(s, "\"") - 1)
    }
    function median(g, k,   n, i, j, v, t) {
        n = count[g]
        for (i = 1; i <= n; i++) v[i] = val[g, k, i]
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    BEGIN { nkeys = split("host_s on_threads alone sms_s busiest_sm_s sm_windows_s ends_s settle_s end_wait_s alone_s", keys, " ") }
    !/^\{/ { lab = $1; n = $2; next }
    /"how":"timed"/ && /"windows":/ {
        g = lab SUBSEP n SUBSEP num($0, "launch")
        if (!(g in count)) { order[++ngroups] = g; kernel[g] = str($0, "kernel") }
        c = ++count[g]
        for (k = 1; k <= nkeys; k++) val[g, keys[k], c] = num($0, keys[k])
    }
    END {
        for (i = 1; i <= ngroups; i++) {
            g = order[i]
            split(g, p, SUBSEP)
            name = p[1]
            sub(/@/, " ", name)
            gsub(/,/, " ", name)
            printf "| %s | %s | %s | %s | %d | %.4f | %d / %d | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f |\n",
                   name, p[2], p[3], kernel[g], count[g], median(g, "host_s"), median(g, "on_threads"),
                   median(g, "alone"), median(g, "sms_s"), median(g, "busiest_sm_s"), median(g, "sm_windows_s"),
                   median(g, "ends_s"), median(g, "settle_s"), median(g, "end_wait_s"), median(g, "alone_s")
        }
    }' | sort -t'|' -k2,2 -k3,3n -k4,4n
