/* The issue trace of a launch run in windows of cycles.
 *
 * Cycle by cycle each SM's events of a cycle are written at the cycle's
 * end (ws_sm_end_cycle), SM by SM in index order, once the L2 has answered
 * the cycle's accesses and their events know when they are done.  In
 * windows an SM keeps its events (ws_sm.trace_ev) while its accesses wait:
 * a window's requests are answered at its end and their entries finished
 * at the start of their SM's next window (ws_sm_window_finish), which
 * every SM with entries runs.  So when a window ends, every event issued
 * before it began is final, and ws_trace_window_write writes those of all
 * SMs merged into the order a run cycle by cycle writes them: by cycle,
 * then SM, then issue.  The trace is the same byte for byte, on any number
 * of threads (tests/timing/test_lines_windows.c). */
#ifndef WARPSIM_TRACE_WINDOW_H
#define WARPSIM_TRACE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm.h"

struct ws_trace;

/* Scratch of the merge, kept from window to window. */
typedef struct ws_trace_merge {
    struct trace_key *keys;
    size_t cap;
} ws_trace_merge;

/* Writes the events of sms[0..nsm) that a run cycle by cycle writes
 * before SM cut_sm's events of cycle cut_cycle (all of them: WS_NEVER, 0),
 * in its order, and keeps the rest in each SM, its queue's references to
 * them moved along.  False when out of memory. */
bool ws_trace_window_write(struct ws_trace *trace, ws_sm *sms, int32_t nsm, uint64_t cut_cycle, int32_t cut_sm,
                           ws_trace_merge *m);

void ws_trace_merge_free(ws_trace_merge *m);

#endif
