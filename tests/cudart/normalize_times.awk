# Makes a course program's output comparable between a GPU and warpsim:
# every run of spaces becomes one, a time before "ms" becomes T, and in a
# table whose header has an "ms" column (the microbenchmark sweeps) every
# field after the first becomes T, and a rate before "GFLOP/s" becomes R.  Everything else (sizes, results, sums,
# PASS/FAIL) is kept as printed, to be compared exactly.
{
    gsub(/[ \t]+/, " ")
    sub(/^ /, "")
    if ($0 ~ /(^| )ms( |$)/ && $1 !~ /^[0-9]/ && NF >= 2 && $2 == "ms") { table = 1; print; next }
    if (table && $1 ~ /^[0-9]+$/) { line = $1; for (i = 2; i <= NF; i++) line = line " T"; print line; next }
    table = 0
    gsub(/[0-9]+\.[0-9]+ ms/, "T ms")
    gsub(/[0-9]+\.[0-9]+ GFLOP\/s/, "R GFLOP/s")
    print
}
