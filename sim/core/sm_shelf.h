/* What the SMs of one timed launch keep for the next: each SM's L1 and its
 * load/store queue's storage, by SM index.  The caller that keeps one L2
 * for its launches (ws_timing_options.l2_kept: the runtime) keeps a shelf
 * too (ws_timing_options.sm_kept).  A launch then neither makes nor clears
 * these arrays (an h200's 132 SMs: 9 MiB of L1 tags, stamps and lines
 * made and zeroed, and 6 MiB of queue storage, every launch), and an L1
 * taken from the shelf is reset at no cost (ws_scache_reset), so that the
 * results are the same either way. */
#ifndef WARPSIM_SM_SHELF_H
#define WARPSIM_SM_SHELF_H

#include "sm.h"

typedef struct ws_sm_kept {
    ws_l1_cache l1;                     /* no tags: nothing kept */
    ws_lsu_pending *a;
    ws_l2_request *req;
    uint32_t *dep;
    uint32_t alloc, reqalloc, depalloc;
} ws_sm_kept;

/* Zeroed: empty. */
typedef struct ws_sm_shelf {
    ws_sm_kept *kept;                   /* n of them, by SM index */
    int32_t n;
} ws_sm_shelf;

/* sm's L1 and load/store queue for a launch on g, from shelf (NULL: none)
 * where it keeps them for sm->id with g's L1 shape: the L1 reset, the
 * queue empty for sm->nsp sub-partitions, sm->run_storage set.  False,
 * sm untouched, where it keeps none. */
bool ws_sm_shelf_take(ws_sm_shelf *shelf, ws_sm *sm, const ws_gpu_config *g);

/* At the launch's end, on one thread (the shelf may grow): sm's L1 and
 * queue storage moved onto shelf (what it held for sm->id freed), sm left
 * without them.  Nothing without a shelf, or without memory to grow it:
 * ws_sm_free then frees them. */
void ws_sm_shelf_put_back(ws_sm_shelf *shelf, ws_sm *sm);

void ws_sm_shelf_free(ws_sm_shelf *shelf);

#endif
