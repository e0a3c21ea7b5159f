/* One issued warp instruction into the issue trace (sim/trace/trace.h):
 * where, what, for which lanes, and what its memory access cost.  Shared
 * by the timing model (sm.c) and the functional launcher (launch.c). */
#ifndef WARPSIM_TRACE_ISSUE_H
#define WARPSIM_TRACE_ISSUE_H

#include "executor.h"

struct ws_trace;
struct ws_trace_event;

/* Instruction pc of warp w of block b issued at cycle now on SM sm, its
 * result ready at done; info is what the step reported.  Does nothing
 * when the trace's filter does not want it. */
void ws_trace_warp_issue(struct ws_trace *t, const ws_exec *x, const ws_block *b, const ws_warp *w,
                         int32_t sm, int32_t pc, const ws_step_info *info, uint64_t now, uint64_t done);

/* The same event built into *e and not yet written (ws_trace_issue writes
 * it): false, and *e untouched, when the filter does not want it. */
bool ws_trace_warp_event(struct ws_trace *t, const ws_exec *x, const ws_block *b, const ws_warp *w,
                         int32_t sm, int32_t pc, const ws_step_info *info, uint64_t now, uint64_t done,
                         struct ws_trace_event *e);

#endif
