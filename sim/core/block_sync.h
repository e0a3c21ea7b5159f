/* Barrier release and deadlock report for the warps of one block: shared
 * by the functional launcher (launch.c) and the timed one (timing.c). */
#ifndef WARPSIM_BLOCK_SYNC_H
#define WARPSIM_BLOCK_SYNC_H

#include "executor.h"

/* Whether a pass over b's barriers (ws_block_release_barriers, and the
 * deadlock check after it) can find anything, given whether some warp of
 * b is at work (ready: it has a running group).  A barrier that names no
 * thread count waits for every live thread of the block, and a warp at
 * work has live threads that are not waiting, so while one is at work
 * none can complete and the block is not deadlocked; a kernel with a
 * counted barrier (bar.sync a, b) is always looked at.  The pass reads
 * every warp's groups, and the callers ask at each warp's arrival: the
 * square of the warps a barrier without this. */
static inline bool ws_block_may_release(const ws_exec *x, bool warps_at_work)
{
    return !warps_at_work || x->k->counted_barriers;
}

/* Releases every barrier whose expected threads have all arrived (bar.red
 * results written).  Returns the number of barriers released. */
uint32_t ws_block_release_barriers(ws_exec *x, ws_block *b);

/* Fills x->err with a barrier deadlock of b: the warps waiting and where. */
void ws_block_deadlock(ws_exec *x, ws_block *b);

#endif
