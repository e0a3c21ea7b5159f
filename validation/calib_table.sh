#!/bin/sh
# One line per profiled launch of validation/run_calib_probes.sh's
# calib_ncu.csv: launch id, kernel, grid, block, then the metrics (cycles at
# ncu's clocks, L2 hit rate, DRAM and L2 bytes, and bytes per cycle), in
# launch order, so each can be matched with the probe's line in calib_ncu.txt.
#
#   validation/calib_table.sh OUT_DIR/calib_ncu.csv
set -eu
awk -F'","' '
    /^"ID"/ { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); col[h] = i } next }
    NF > 5 && col["Metric Name"] {
        line = $0; gsub(/^"|"$/, "", line); n = split(line, f, "\",\"")
        id = f[col["ID"]]; k = f[col["Kernel Name"]]; sub(/\(.*/, "", k)
        kern[id] = k; grid[id] = f[col["Grid Size"]]; blk[id] = f[col["Block Size"]]
        v = f[col["Metric Value"]]; gsub(/,/, "", v); m[id, f[col["Metric Name"]]] = v
        if (!(id in seen)) { seen[id] = 1; order[++nid] = id }
    }
    END {
        printf "%-4s %-18s %-14s %-12s %12s %8s %14s %14s %14s %10s %10s\n", "id", "kernel", "grid", "block",
               "gpc_cycles", "l2_hit%", "dram_rd_B", "dram_wr_B", "l2_B", "dramB/cyc", "l2B/cyc"
        for (j = 1; j <= nid; j++) {
            id = order[j]; c = m[id, "gpc__cycles_elapsed.max"] + 0
            rd = m[id, "dram__bytes_read.sum"] + 0; wr = m[id, "dram__bytes_write.sum"] + 0; l2 = m[id, "lts__t_bytes.sum"] + 0
            printf "%-4s %-18s %-14s %-12s %12d %8.1f %14d %14d %14d %10.1f %10.1f\n", id, kern[id], grid[id], blk[id],
                   c, m[id, "lts__t_sector_hit_rate.pct"], rd, wr, l2, c ? (rd + wr) / c : 0, c ? l2 / c : 0
        }
    }' "${1:?usage: $0 calib_ncu.csv}"
