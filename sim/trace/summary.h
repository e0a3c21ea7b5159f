/* The per-kernel summary: what `warpsim run` and `warpsim exec` print after
 * each launch, as text for reading or as one JSON object per line.  Metric
 * names follow Nsight Compute where it has the metric. */
#ifndef WARPSIM_SUMMARY_H
#define WARPSIM_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>
#include "../core/sim.h"
#include "../base/stats.h"

typedef struct ws_summary_info {
    const char *kernel;         /* as the user named it (demangled where possible) */
    ws_dim3 grid, block;
    uint32_t dynamic_smem;
    const char *gpu;            /* the config the timing model ran, or NULL */
    const ws_timing_stats *timing;  /* NULL for a functional-only run */
    const char *sass;           /* the SASS listing the memory counters follow, NULL = PTX-exact */
    /* The launch's number in the program (from 1; 0 = not numbered), and
     * the earlier launch whose results it took without being simulated
     * (docs/REUSE.md; 0 = simulated). */
    uint64_t launch_no, reused_from;
    /* It read other values than launch reused_from, which cannot change
     * its timing: its outputs came from a functional run. */
    bool reused_other_inputs;
    /* Simulated though an earlier launch had the same kernel, grid, block
     * and arguments (0: none did): that launch's number, and the address
     * that made the difference: a byte it read that holds another value
     * now, or (reuse_missed_freed) one it wrote in memory freed since. */
    uint64_t reuse_missed, reuse_missed_addr;
    bool reuse_missed_freed;
    uint64_t reuse_missed_base, reuse_missed_size;  /* the live allocation holding it (size 0: none) */
} ws_summary_info;

/* How much of the summary to print after each launch. */
typedef enum ws_summary_mode { WS_SUMMARY_FULL, WS_SUMMARY_SHORT, WS_SUMMARY_NONE } ws_summary_mode;

/* "full", "short" or "none"; false for anything else. */
bool ws_summary_parse_mode(const char *s, ws_summary_mode *mode);

/* One line: kernel, grid and block, cycles (the kernel's own and the launch
 * overhead), warp instructions, SIMD efficiency, bank conflicts, global
 * sectors per request. */
void ws_summary_short(FILE *out, const ws_summary_info *k, const ws_launch_stats *s);

/* Nsight Compute names with a plain-language gloss, one metric a line. */
void ws_summary_text(FILE *out, const ws_summary_info *k, const ws_launch_stats *s);

/* One line: a JSON object with the keys
 *   kernel, grid [x,y,z], block [x,y,z], dynamic_smem,
 *   warp_instructions, thread_instructions,
 *   simd_efficiency       thread_instructions / (32 * warp_instructions), 0..1
 *   active_lanes_avg      thread_instructions / warp_instructions
 *   branches, divergent_branches, blocks, warps,
 *   shared_{requests,wavefronts,bank_conflicts}_{ld,st,atom},
 *   global_{ld,st,atom}_{requests,sectors,lines},
 *   const_requests, const_addresses
 * (counters as in ws_launch_stats); when numbered (warpsim exec), launch,
 * and when also timed, timing_reused_from (null, or the launch whose
 * timing it reuses), with timing_reused_inputs ("same" or "other") when
 * it does, and, when simulated though an earlier launch had the same
 * key, reuse_missed (its number) and reuse_missed_address. */
void ws_summary_json(FILE *out, const ws_summary_info *k, const ws_launch_stats *s);

/* The summary after a launch as `warpsim run` and `warpsim exec` write it:
 * nothing for WS_SUMMARY_NONE, else JSON when json, else the short or full
 * text; stdout is flushed first (so that the program's output comes
 * before it on a terminal) and out after. */
void ws_summary_write(FILE *out, ws_summary_mode mode, bool json, const ws_summary_info *k,
                      const ws_launch_stats *s);

#endif
