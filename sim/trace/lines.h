/* Where a kernel's cycles went, per source line: `warpsim run --lines` and
 * `warpsim exec --lines`.
 *
 * A launch given per-pc counters (ws_launch.pc_counts) adds its work to
 * them; this module hands out one such array per kernel of a program, so
 * that all the launches of a kernel add up, then sums the pcs of each
 * source line (the .cu line of the PTX's .loc, else the PTX line) and
 * reports the lines most costly first, with a sentence of explanation for
 * those far from ideal. */
#ifndef WARPSIM_LINES_H
#define WARPSIM_LINES_H

#include <stdbool.h>
#include <stdio.h>
#include "../core/sim.h"

typedef struct ws_lines ws_lines;

ws_lines *ws_lines_create(void);
void ws_lines_free(ws_lines *l);

/* The per-pc counters for launches of the kernel named kernel (as shown to
 * the user) of program p: zeroed the first time, the same array for every
 * later launch of that kernel of p.  The source of each pc is copied now,
 * so p may be freed before the report (but not before the last launch:
 * p is the key, and another program could come to live at its address).
 * NULL when out of memory. */
ws_pc_counts *ws_lines_counters(ws_lines *l, const ws_program *p, const char *kernel);

/* The report as text: per kernel, its source lines with work, most costly
 * first (warp-cycles spent at the line when timed, else warp
 * instructions), each with its source text when the file is readable. */
void ws_lines_text(FILE *out, const ws_lines *l, bool timed);

/* The same as JSON lines: one object per kernel and source line with the
 * keys kernel, file, line, line_info ("cu" or "ptx"), source,
 * warp_instructions, thread_instructions, simd_efficiency, branches,
 * divergent_branches, shared_{requests,wavefronts,bank_conflicts}_{ld,st,atom},
 * global_{ld,st,atom}_{requests,sectors,ideal_sectors},
 * and when timed l1_sectors, l1_hit_sectors, l2_sectors, l2_hit_sectors,
 * l1_hit_rate, l2_hit_rate (0..1, 0 when no sectors), stall_cycles and
 * stall_<reason> (ws_stall_name). */
void ws_lines_json(FILE *out, const ws_lines *l, bool timed);

/* ---- for other reports (the HTML report) ---- */

/* Kernels with counters, in the order of their first launch. */
size_t ws_lines_kernel_count(const ws_lines *l);
const char *ws_lines_kernel_name(const ws_lines *l, size_t i);
/* Whether kernel i's lines are .cu lines (else PTX lines). */
bool ws_lines_kernel_cu(const ws_lines *l, size_t i);

/* One source line's counters, summed over its pcs. */
typedef struct ws_line_sum {
    const char *file;           /* NULL when the pcs have no line */
    int32_t line;
    ws_pc_counts c;
} ws_line_sum;

/* Kernel i's lines with work, most costly first (as ws_lines_text orders
 * them); file points into l.  The caller frees the array; NULL and *n 0
 * when there are none or memory ran out. */
ws_line_sum *ws_lines_sums(const ws_lines *l, size_t i, bool timed, size_t *n);

/* The sentences ws_lines_text gives for a line's counters c, one a line,
 * each indented and starting "=> "; kernel_total is the kernel's cost (stall cycles
 * when timed), so that only lines worth it get a stall sentence. */
void ws_lines_advice(FILE *out, const ws_pc_counts *c, uint64_t kernel_total, bool timed);

#endif
