/* Every launch of a program's kernels, summed per kernel: what `warpsim
 * exec` prints when the program ends (launches, the kernel's own cycles
 * per launch as min / median / max, totals). */
#ifndef WARPSIM_KERNEL_TOTALS_H
#define WARPSIM_KERNEL_TOTALS_H

#include <stdio.h>
#include "../core/sim.h"
#include "../base/stats.h"

typedef struct ws_kernel_totals ws_kernel_totals;

ws_kernel_totals *ws_kernel_totals_create(void);
void ws_kernel_totals_free(ws_kernel_totals *t);

/* Adds one launch of the kernel named kernel; ts NULL for a functional
 * launch.  False when out of memory (the launch is then not counted). */
bool ws_kernel_totals_add(ws_kernel_totals *t, const char *kernel, const ws_launch_stats *s,
                          const ws_timing_stats *ts);

/* Notes that the last launch added for kernel (its statistics s) took its
 * timing from an earlier launch (docs/REUSE.md): an identical one, or,
 * other_inputs, one that read other values which cannot change its
 * timing; the totals say how many did, and how many of the warp
 * instructions were simulated. */
void ws_kernel_totals_mark_reused(ws_kernel_totals *t, const char *kernel, const ws_launch_stats *s,
                                  bool other_inputs);

/* What a kernel's totals say of its launches that took an earlier one's
 * timing, reused of them, other of those with other inputs: " (K of them
 * with the timing of ...)", nothing when none did; the HTML report's
 * summary says the same. */
void ws_kernel_totals_reused_text(FILE *out, uint64_t reused, uint64_t other);

/* One line per kernel, in the order of their first launch, and one for
 * all of them when there are several; nothing when no kernel ran. */
void ws_kernel_totals_text(FILE *out, const ws_kernel_totals *t);

/* The same as one JSON object per kernel and line, after the launches'
 * objects: {"totals":NAME,"launches":N,"kernel_cycles_min":...,
 * "kernel_cycles_median":...,"kernel_cycles_max":...,"cycles":...,...,
 * "launches_reused":N,"launches_reused_other_inputs":N,
 * "warp_instructions_simulated":N,...}
 * (warp_instructions_min/median/max in place of kernel_cycles_* when
 * functional). */
void ws_kernel_totals_json(FILE *out, const ws_kernel_totals *t);

#endif
