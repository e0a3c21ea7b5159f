/* The per-kernel summary: what `warpsim run` and `warpsim exec` print after
 * each launch, as text for reading or as one JSON object per line.  Metric
 * names follow Nsight Compute where it has the metric. */
#ifndef WARPSIM_SUMMARY_H
#define WARPSIM_SUMMARY_H

#include <stdio.h>
#include "../core/sim.h"

typedef struct ws_summary_info {
    const char *kernel;         /* as the user named it (demangled where possible) */
    ws_dim3 grid, block;
    uint32_t dynamic_smem;
} ws_summary_info;

void ws_summary_text(FILE *out, const ws_summary_info *k, const ws_launch_stats *s);
/* One line: a JSON object with at least kernel, grid, block,
 * warp_instructions, thread_instructions. */
void ws_summary_json(FILE *out, const ws_summary_info *k, const ws_launch_stats *s);

#endif
