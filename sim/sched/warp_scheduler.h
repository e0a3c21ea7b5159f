/* The warp scheduler of one SM sub-partition: each cycle it picks one of
 * the warps that can issue.  Its whole interface is pick; the caller says
 * which warps are ready, how old each is, and which wait on memory.
 *
 *   lrr        loose round-robin: the first ready warp after the one that
 *              issued last, in slot order.
 *   gto        greedy-then-oldest: the warp that issued last while it stays
 *              ready, otherwise the oldest ready warp (smallest age).
 *   two_level  the warps are kept in a list whose first active_size form
 *              the active set; pick is round-robin within the active set,
 *              and a warp that waits on a long-latency (global memory)
 *              operation moves to the end of the list, letting a pending
 *              warp into the active set (Narasiman et al., MICRO 2011). */
#ifndef WARPSIM_WARP_SCHEDULER_H
#define WARPSIM_WARP_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>

typedef enum ws_sched_policy {
    WS_SCHED_LRR, WS_SCHED_GTO, WS_SCHED_TWO_LEVEL     /* the config's order */
} ws_sched_policy;

#define WS_SCHED_MAX_WARPS 64

typedef struct ws_warp_scheduler {
    ws_sched_policy policy;
    uint32_t nslots;                    /* warp slots this scheduler owns */
    int32_t last;                       /* slot that issued last, -1 none */
    uint32_t active_size;               /* two_level */
    uint8_t order[WS_SCHED_MAX_WARPS];  /* two_level: active set first */
} ws_warp_scheduler;

void ws_sched_init(ws_warp_scheduler *s, ws_sched_policy policy, uint32_t nslots,
                   uint32_t active_size);

/* Slot to issue from, or -1 when none is ready.  ready, age and long_wait
 * are indexed by slot (0 .. nslots-1); long_wait is read by two_level only
 * (may be NULL for the others). */
int32_t ws_sched_pick(ws_warp_scheduler *s, const bool *ready, const uint64_t *age,
                      const bool *long_wait);

/* The same with the slots as bits (bit i: slot i), which is what the
 * timing model keeps: O(ready warps), nothing cleared per cycle. */
int32_t ws_sched_pick_mask(ws_warp_scheduler *s, uint64_t ready, const uint64_t *age,
                           uint64_t long_wait);

/* ws_sched_pick_mask, with greedy-then-oldest's usual answer, the warp
 * that issued last still ready, given without a call (the timing model
 * picks every cycle a warp issues). */
static inline int32_t ws_sched_pick_next(ws_warp_scheduler *s, uint64_t ready, const uint64_t *age,
                                         uint64_t long_wait)
{
    if (s->policy == WS_SCHED_GTO && s->last >= 0 && ((ready >> s->last) & 1)) return s->last;
    return ws_sched_pick_mask(s, ready, age, long_wait);
}

const char *ws_sched_policy_name(ws_sched_policy p);   /* "lrr", "gto", "two_level" */

#endif
