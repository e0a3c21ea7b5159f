/* What the SMs of a timed launch record as they run, written in the order
 * a run cycle by cycle on one thread writes it: by cycle, then SM (index),
 * then as recorded.  Two such records:
 *
 * - The issue trace.  Cycle by cycle each SM's events of a cycle are
 *   written at the cycle's end (ws_sm_end_cycle), once the L2 has answered
 *   the cycle's accesses and their events know when they are done.  In
 *   windows an SM keeps its events (ws_sm.trace_ev) while its accesses
 *   wait: a window's requests are answered at its end and their entries
 *   finished at the start of their SM's next window (ws_sm_window_finish),
 *   which every SM with entries runs.  So when a window ends, every event
 *   issued before it began is final, and ws_trace_window_write writes
 *   those of all SMs merged.
 * - The checks' findings (checks.h).  Each SM keeps the findings of its
 *   cycle (window), and at the cycle's (window's) end ws_checks_window_take
 *   counts them and shows the first of each pair of places, merged, as the
 *   launch's: the same lines as a run cycle by cycle on one thread, on any
 *   number of threads.
 *
 * tests/timing/test_trace_windows.c and test_checks_windows.c compare them
 * byte for byte with a run cycle by cycle. */
#ifndef WARPSIM_WINDOW_ORDER_H
#define WARPSIM_WINDOW_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm.h"

struct ws_trace;

/* Scratch of the merges, kept from window to window. */
typedef struct ws_window_order {
    struct order_key *keys;
    size_t cap;
} ws_window_order;

/* Writes the events of sms[0..nsm) that a run cycle by cycle writes
 * before SM cut_sm's events of cycle cut_cycle (all of them: WS_NEVER, 0),
 * in its order, and keeps the rest in each SM, its queue's references to
 * them moved along.  False when out of memory. */
bool ws_trace_window_write(struct ws_trace *trace, ws_sm *sms, int32_t nsm, uint64_t cut_cycle, int32_t cut_sm,
                           ws_window_order *m);

/* Takes the findings of sms[0..nsm) before SM cut_sm's of cycle cut_cycle
 * (all: WS_NEVER, 0) into x's launch's (x: the launch's own executor,
 * which keeps none), in the order a run cycle by cycle meets them; the SMs'
 * are emptied.  False when out of memory (here, or in an SM's keeping). */
bool ws_checks_window_take(struct ws_exec *x, ws_sm *sms, int32_t nsm, uint64_t cut_cycle, int32_t cut_sm,
                           ws_window_order *m);

void ws_window_order_free(ws_window_order *m);

#endif
