/* Barrier release and deadlock report for the warps of one block: shared
 * by the functional launcher (launch.c) and the timed one (timing.c). */
#ifndef WARPSIM_BLOCK_SYNC_H
#define WARPSIM_BLOCK_SYNC_H

#include "executor.h"

/* Releases every barrier whose expected threads have all arrived (bar.red
 * results written).  Returns the number of barriers released. */
uint32_t ws_block_release_barriers(ws_exec *x, ws_block *b);

/* Fills x->err with a barrier deadlock of b: the warps waiting and where. */
void ws_block_deadlock(ws_exec *x, ws_block *b);

#endif
