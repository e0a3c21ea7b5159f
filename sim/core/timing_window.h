/* Windows of cycles: how a timed launch lets each SM run several cycles
 * on its own before the SMs meet (timing.c, sm_team.h).
 *
 * Cycle by cycle, every SM's global writes and L2 requests of a cycle are
 * done at its end, before any SM's next cycle.  In a window of W cycles
 * each SM runs all of its cycles of the window first, and the window's
 * writes and requests are then done in the same order, cycle by cycle and
 * SM by SM, so that the L2 and DRAM see exactly what they see cycle by
 * cycle.  That needs three things, which set when a launch may use
 * windows and how long they are:
 *   - no L2 answer inside a window: W is no longer than an L2 hit's (and a
 *     DRAM access's) latency, so a load's data is never due before the
 *     window ends; its registers say "not yet known" till then;
 *   - no global memory read in a window that another SM wrote in it, and
 *     an SM's own writes read as cycle by cycle: the kernel has no fences,
 *     no volatile access, no generic store or atomic, and no global load
 *     that can follow a global store or atomic (kernels that store their
 *     results at the end qualify), or else loads and stores whose
 *     addresses derive from pointer parameters (or pointer fields of a
 *     structure parameter) that point into different allocations in this
 *     launch (a grid-stride loop, a BFS frontier): its stores'
 *     allocations (ws_apart) go to the executor, which stops the launch at
 *     a store outside them or a load inside them; or else no global atomic
 *     at all: each SM then keeps its own writes of the window for its
 *     loads (own_writes.h), and another SM sees them at the window's end,
 *     as a kernel whose blocks do not race on global memory cannot tell.
 *     A global atomic is a store here: done at the window's end in the
 *     order of a run cycle by cycle, its old values written to its
 *     destination then, which its warp waits for as for a load's (the
 *     register has a row of its own, reg_rows.c); so is a wmma.store to
 *     global memory, its fragment taken along, where no load may follow;
 *   - the dispatcher is the whole GPU's: before a window it sets aside for
 *     each SM as many of the grid's next blocks as the SM holds, in the
 *     order the resident blocks started, and a slot that frees in the
 *     window takes the SM's next one at once (sm_team.c, set_aside).
 * The last is the one difference in results from a cycle-by-cycle run
 * for a kernel whose blocks do not race: a grid of one wave (no block
 * waits for a slot) times exactly the same, a larger one within a few
 * percent (docs/THREADS.md).  The issue trace and the checks' findings,
 * which each SM keeps, come out in the order of a run cycle by cycle
 * (window_order.h). */
#ifndef WARPSIM_TIMING_WINDOW_H
#define WARPSIM_TIMING_WINDOW_H

#include <stdint.h>

#include "executor.h"
#include "program.h"
#include "timing.h"

/* The cycles per window a timed launch of k runs with: 1 (cycle by cycle)
 * where the options ask for it or where the kernel's code does not
 * qualify; else the options' number, at most (and by
 * default) the config's L2 hit latency (and DRAM latency, the shorter).
 * The longer the window, the less often the SMs meet: the faster.  *ap
 * gets the allocations the stores write when the launch qualifies by its
 * pointers alone (ap->n 0 otherwise), for ws_exec.apart; *own_writes is
 * true when it qualifies by its SMs reading their own writes
 * (own_writes.h).  *why gets, for a launch cycle by cycle, why: the
 * options, or what in the code and where (WS_WHY_IN_WINDOWS for one in
 * windows). */
uint32_t ws_window_cycles(const ws_program *p, const ws_kernel *k, const ws_launch *l,
                          const ws_timing_options *o, const ws_gpu_config *g, ws_apart *ap, bool *own_writes,
                          ws_window_reason *why);

/* r in words for the user, into buf (size bytes): the option, or "its
 * code has a fence: membar.gl at pc 40 (scan.ptx:210:2, scan.cu:31)";
 * "" for a launch in windows.  p: the launch's program (NULL: no place). */
void ws_window_reason_text(const ws_program *p, ws_window_reason r, char *buf, size_t size);

/* Whether k's code lets its launches run in windows (the second rule above). */
bool ws_window_code_ok(const ws_program *p, const ws_kernel *k);

#endif
