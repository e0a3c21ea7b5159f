/* Sectored set-associative LRU tag array. */
#include "sector_cache.h"

#include <stdlib.h>

#define LINE_BYTES (32u * WS_SECTORS_PER_LINE)

bool ws_scache_init(ws_sector_cache *c, uint64_t bytes, uint32_t ways)
{
    c->ways = ways ? ways : 1;
    uint64_t sets = bytes / ((uint64_t)LINE_BYTES * c->ways);
    c->nsets = sets ? (uint32_t)sets : 1;
    c->stamp = 1;       /* uses stamp 2, 3, ...: 1 is older than any (evict-first) */
    c->ndirty = 0;
    c->lines = calloc((size_t)c->nsets * c->ways, sizeof *c->lines);
    return c->lines != NULL;
}

void ws_scache_free(ws_sector_cache *c)
{
    free(c->lines);
    c->lines = NULL;
}

static ws_cache_line *find(const ws_sector_cache *c, uint64_t line)
{
    ws_cache_line *set = &c->lines[(size_t)(line % c->nsets) * c->ways];
    for (uint32_t w = 0; w < c->ways; w++)
        if (set[w].last_use && set[w].line == line) return &set[w];
    return NULL;
}

bool ws_scache_lookup(ws_sector_cache *c, uint64_t sector, uint64_t *ready)
{
    ws_cache_line *l;
    return ws_scache_lookup_line(c, sector, ready, &l);
}

bool ws_scache_lookup_line(ws_sector_cache *c, uint64_t sector, uint64_t *ready, ws_cache_line **line)
{
    ws_cache_line *l = *line = find(c, sector / WS_SECTORS_PER_LINE);
    uint32_t s = (uint32_t)(sector % WS_SECTORS_PER_LINE);
    if (!l || !(l->valid >> s & 1)) return false;
    l->last_use = ++c->stamp;
    *ready = l->ready[s];
    return true;
}

/* A line for sector's line, not in the cache: the least recently used of
 * its set, emptied (*evicted: the dirty sectors that threw out). */
static ws_cache_line *allocate(ws_sector_cache *c, uint64_t sector, uint32_t *evicted)
{
    uint64_t line = sector / WS_SECTORS_PER_LINE;
    ws_cache_line *set = &c->lines[(size_t)(line % c->nsets) * c->ways], *l = &set[0];
    for (uint32_t w = 1; w < c->ways; w++)
        if (set[w].last_use < l->last_use) l = &set[w];
    *evicted = (uint32_t)__builtin_popcount(l->dirty);
    c->ndirty -= *evicted;
    l->line = line;
    l->valid = l->dirty = 0;
    return l;
}

/* sector's line, found or allocated (*evicted as allocate's). */
static ws_cache_line *line_for(ws_sector_cache *c, uint64_t sector, bool *allocated, uint32_t *evicted)
{
    ws_cache_line *l = find(c, sector / WS_SECTORS_PER_LINE);
    *allocated = !l;
    *evicted = 0;
    return l ? l : allocate(c, sector, evicted);
}

static uint32_t fill(ws_sector_cache *c, uint64_t sector, uint64_t ready, bool dirty, bool first)
{
    uint32_t s = (uint32_t)(sector % WS_SECTORS_PER_LINE), evicted;
    bool allocated;
    ws_cache_line *l = line_for(c, sector, &allocated, &evicted);
    l->last_use = first && allocated ? 1 : ++c->stamp;
    l->valid |= (uint8_t)(1u << s);
    if (dirty && !(l->dirty >> s & 1)) {
        l->dirty |= (uint8_t)(1u << s);
        c->ndirty++;
    }
    l->ready[s] = ready;
    return evicted;
}

uint32_t ws_scache_fill(ws_sector_cache *c, uint64_t sector, uint64_t ready, bool dirty)
{
    return fill(c, sector, ready, dirty, false);
}

uint32_t ws_scache_write(ws_sector_cache *c, uint64_t sector, uint64_t t, bool *hit, bool *was_dirty)
{
    uint32_t s = (uint32_t)(sector % WS_SECTORS_PER_LINE), evicted;
    bool allocated;
    ws_cache_line *l = line_for(c, sector, &allocated, &evicted);
    *hit = l->valid >> s & 1;
    *was_dirty = l->dirty >> s & 1;
    l->last_use = ++c->stamp;
    l->ready[s] = *hit && l->ready[s] > t ? l->ready[s] : t;
    l->valid |= (uint8_t)(1u << s);
    if (!*was_dirty) {
        l->dirty |= (uint8_t)(1u << s);
        c->ndirty++;
    }
    return evicted;
}

uint32_t ws_scache_fill_group_found(ws_sector_cache *c, ws_cache_line *found, uint64_t sector, uint64_t first,
                                    uint32_t n, uint64_t ready, uint32_t *added)
{
    uint32_t evicted = 0;
    ws_cache_line *l = found ? found : allocate(c, sector, &evicted);
    l->last_use = ++c->stamp;
    *added = 0;
    for (uint64_t b = first; b < first + n; b++) {
        uint32_t s = (uint32_t)(b % WS_SECTORS_PER_LINE);
        if (b != sector && (l->valid >> s & 1)) continue;
        *added += b != sector;
        l->valid |= (uint8_t)(1u << s);
        l->ready[s] = ready;
    }
    return evicted;
}

uint32_t ws_scache_fill_evict_first(ws_sector_cache *c, uint64_t sector, uint64_t ready)
{
    return fill(c, sector, ready, false, true);
}

void ws_scache_settle(ws_sector_cache *c, uint64_t sector, uint64_t pending, uint64_t ready)
{
    ws_cache_line *l = find(c, sector / WS_SECTORS_PER_LINE);
    uint32_t s = (uint32_t)(sector % WS_SECTORS_PER_LINE);
    if (l && (l->valid >> s & 1) && l->ready[s] == pending) l->ready[s] = ready;
}

bool ws_scache_is_dirty(const ws_sector_cache *c, uint64_t sector)
{
    ws_cache_line *l = find(c, sector / WS_SECTORS_PER_LINE);
    return l && (l->dirty >> (sector % WS_SECTORS_PER_LINE) & 1);
}

void ws_scache_invalidate(ws_sector_cache *c, uint64_t sector)
{
    ws_cache_line *l = find(c, sector / WS_SECTORS_PER_LINE);
    if (l) l->valid &= (uint8_t)~(1u << (sector % WS_SECTORS_PER_LINE));
}

uint64_t ws_scache_dirty_sectors(const ws_sector_cache *c)
{
    return c->ndirty;
}
