/* What the SMs of one timed launch keep for the next: each SM's L1 and its
 * load/store queue's storage, by SM index, and its warp and block slots
 * with each block slot's storage, for a launch whose blocks have the same
 * shape.  The caller that keeps one L2 for its launches
 * (ws_timing_options.l2_kept: the runtime) keeps a shelf too
 * (ws_timing_options.sm_kept).  A launch then neither makes nor clears
 * these arrays (an h200's 132 SMs: 9 MiB of L1 tags, stamps and lines
 * made and zeroed, and 6 MiB of queue storage, every launch; and each
 * SM's slots, sub-partitions and block storage, seven allocations an SM
 * and seven a block slot), and an L1 taken from the shelf is reset at no
 * cost (ws_scache_reset), so that the results are the same either way.
 * A block slot's storage is set up for each block that starts in it
 * (ws_block_begin), as when a slot takes its next block within a launch,
 * so a launch finds it as a new one. */
#ifndef WARPSIM_SM_SHELF_H
#define WARPSIM_SM_SHELF_H

#include "sm.h"

/* What the size of an SM's slots and of a block slot's storage follows
 * from: two launches of one shape can use the same. */
typedef struct ws_sm_shape {
    uint32_t nblocks, nsp, nwarps, nthreads, smem;
    int32_t rows, reg_rows;             /* ws_kernel_rows, ws_kernel_reg_rows */
    uint32_t local_size, tparam_size;   /* the kernel's, per thread */
    uint32_t checks;                    /* WS_CHECK_*: a block's checkers' state */
} ws_sm_shape;

ws_sm_shape ws_sm_shape_of(const ws_tsim *s);

/* An SM's slots (ws_sm's arrays of those names), for a launch of shape. */
typedef struct ws_sm_kept_slots {
    ws_sm_shape shape;
    ws_sm_warp *slots;                  /* NULL: nothing kept */
    ws_sm_block *blocks;
    ws_subpart *sp;
    uint64_t *reserved, *freed_at, *by_start;
    uint32_t *placed;
} ws_sm_kept_slots;

typedef struct ws_sm_kept {
    ws_l1_cache l1;                     /* no tags: nothing kept */
    ws_lsu_pending *a;
    ws_l2_request *req;
    uint32_t *dep;
    uint32_t alloc, reqalloc, depalloc;
    ws_sm_kept_slots slots;
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

/* Before a launch of shape, on the calling thread: the slots shelf keeps
 * for a launch of another shape freed, every SM's, so that they and the
 * launch's own are never held at once (a launch leaves the SMs it does not
 * use untouched). */
void ws_sm_shelf_fit_slots(ws_sm_shelf *shelf, const ws_sm_shape *shape);

/* sm's slots for a launch of shape, from shelf (NULL: none) where it
 * keeps them for sm->id and that shape: sm's arrays (ws_sm_init's) as
 * they were, each block slot's storage with them; their contents are the
 * caller's to clear.  False where it keeps none of that shape (what it
 * kept for sm->id then freed).  On the thread that makes the SM's
 * storage (the calling one: ws_sm_init). */
bool ws_sm_shelf_take_slots(ws_sm_shelf *shelf, ws_sm *sm, const ws_sm_shape *shape);

/* At the end of a launch of shape that ended well, on one thread: sm's
 * slots and block storage moved onto shelf, sm left without them, as
 * ws_sm_shelf_put_back does with its L1 and queue.  Nothing without a
 * shelf or without memory to grow it, or where sm made no slots. */
void ws_sm_shelf_put_back_slots(ws_sm_shelf *shelf, ws_sm *sm, const ws_sm_shape *shape);

void ws_sm_shelf_free(ws_sm_shelf *shelf);

#endif
