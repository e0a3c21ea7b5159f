/* Per-SM L1: sectored, allocate on load miss (by the load's policy),
 * write-through no-allocate. */
#include "l1_cache.h"

bool ws_l1_init(ws_l1_cache *l1, const ws_gpu_config *g)
{
    l1->latency = (uint32_t)g->latencyL1Hit;
    l1->lookups = l1->hits = 0;
    return ws_scache_init(&l1->tags, g->l1CacheSize, (uint32_t)g->l1Associativity);
}

void ws_l1_free(ws_l1_cache *l1)
{
    ws_scache_free(&l1->tags);
}

bool ws_l1_load(ws_l1_cache *l1, uint64_t sector, uint64_t t, ws_l1_policy policy, uint64_t *ready)
{
    uint64_t arrives;
    l1->lookups++;
    if (policy == WS_L1_BYPASS || !ws_scache_lookup(&l1->tags, sector, &arrives)) return false;
    l1->hits++;
    /* a sector still on its way from L2 is a hit that waits for it */
    *ready = t + l1->latency > arrives ? t + l1->latency : arrives;
    return true;
}

void ws_l1_fill(ws_l1_cache *l1, uint64_t sector, uint64_t ready, ws_l1_policy policy)
{
    if (policy == WS_L1_ALLOCATE) ws_scache_fill(&l1->tags, sector, ready, false);
    else if (policy == WS_L1_EVICT_FIRST) ws_scache_fill_evict_first(&l1->tags, sector, ready);
}

void ws_l1_settle(ws_l1_cache *l1, uint64_t sector, uint64_t pending, uint64_t ready)
{
    ws_scache_settle(&l1->tags, sector, 1, pending, ready);
}

void ws_l1_store(ws_l1_cache *l1, uint64_t sector, uint64_t t)
{
    uint64_t arrives;
    if (ws_scache_lookup(&l1->tags, sector, &arrives))
        ws_scache_fill(&l1->tags, sector, t > arrives ? t : arrives, false);
}

void ws_l1_atomic(ws_l1_cache *l1, uint64_t sector)
{
    ws_scache_invalidate(&l1->tags, sector);
}
