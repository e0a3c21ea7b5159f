/* The groups of a warp's threads (independent thread scheduling): see
 * warp_groups.c and docs/SEMANTICS.md. */
#ifndef WARPSIM_WARP_GROUPS_H
#define WARPSIM_WARP_GROUPS_H

#include "warp.h"

/* Makes lanes of the running group wait for why at pc: the whole running
 * group when it holds no other lanes, else those lanes split off with
 * their own copy of the paths they are on.  The running group is left
 * without a runnable path when all of it waits; ws_warp_schedule picks the
 * next.  Returns the waiting group, or NULL when out of memory. */
ws_group *ws_group_wait(ws_warp *w, uint32_t lanes, uint8_t why, int32_t pc);

typedef enum ws_sched_result {
    WS_SCHED_READY,     /* w->g can issue */
    WS_SCHED_WAITING,   /* every group waits; some at a block barrier */
    WS_SCHED_STUCK,     /* every group waits at a warp-synchronous operation */
    WS_SCHED_DONE,      /* no lanes left */
    WS_SCHED_NOMEM
} ws_sched_result;

/* Chooses the running group: drops groups without lanes, joins groups that
 * stand at the same point, lets a group wait where another will reconverge
 * with it, and sets w->state. */
ws_sched_result ws_warp_schedule(ws_warp *w);

void ws_warp_groups_free(ws_warp *w);

#endif
