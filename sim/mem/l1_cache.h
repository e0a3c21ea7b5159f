/* The L1 data cache of one SM: sectored (32 B sectors of 128 B lines),
 * allocating per sector on a load miss as the load's policy says,
 * write-through without allocation for global stores (a store updates a
 * sector already present, which stays valid), and bypassed by atomics
 * (which drop the sector).  Size, associativity and hit latency come from
 * the GPU config. */
#ifndef WARPSIM_L1_CACHE_H
#define WARPSIM_L1_CACHE_H

#include "../base/gpu_config.h"
#include "sector_cache.h"

typedef struct ws_l1_cache {
    ws_sector_cache tags;
    uint32_t latency;
    uint64_t lookups, hits;     /* sectors */
} ws_l1_cache;

bool ws_l1_init(ws_l1_cache *l1, const ws_gpu_config *g);
void ws_l1_free(ws_l1_cache *l1);

/* What a load does in L1 (the core maps PTX cache operators to these). */
typedef enum ws_l1_policy {
    WS_L1_ALLOCATE,         /* looks up; a miss allocates the sector */
    WS_L1_EVICT_FIRST,      /* looks up; a miss allocates it as the first to evict */
    WS_L1_NO_ALLOCATE,      /* looks up; a miss does not allocate */
    WS_L1_BYPASS            /* served by L2 alone: every sector counts as a miss */
} ws_l1_policy;

/* A load of sector looked up at cycle t.  On a hit returns true and the
 * cycle its data reaches the registers; on a miss returns false and the
 * caller fetches it from L2, then calls ws_l1_fill with the arrival and
 * the same policy. */
bool ws_l1_load(ws_l1_cache *l1, uint64_t sector, uint64_t t, ws_l1_policy policy, uint64_t *ready);
void ws_l1_fill(ws_l1_cache *l1, uint64_t sector, uint64_t ready, ws_l1_policy policy);

/* A fill made at ready = pending (a time not yet known) gets its time. */
void ws_l1_settle(ws_l1_cache *l1, uint64_t sector, uint64_t pending, uint64_t ready);

/* A global store (write-through: the data goes on to L2 regardless). */
void ws_l1_store(ws_l1_cache *l1, uint64_t sector, uint64_t t);

/* An atomic: performed at L2, so any copy here is stale. */
void ws_l1_atomic(ws_l1_cache *l1, uint64_t sector);

#endif
