/* Sectored set-associative LRU tag array. */
#include "sector_cache.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bits.h"
#include "../base/prefetch.h"
#include "../base/zeroed.h"

#define LINE_BYTES (32u * WS_SECTORS_PER_LINE)

/* A way's use word: its LRU stamp below STAMP_BITS, then the era its
 * line was placed in (ERA_BITS), then a valid bit per sector, then a
 * dirty bit per sector.  Stamps count the uses since the last reset, far
 * below 2^44.
 *
 * A reset begins a new era, and a way of an older one is as a way never
 * used (not found, its stamp 0, nothing valid or dirty): a reset costs
 * nothing, where clearing the ways a launch used cost every launch a
 * memset of the pages it had touched (up to 22 MiB for an h200's L2 kept
 * between launches).  The era lies in the use word, not the tag, since a
 * line's number may take every bit of the tag (local memory's sectors lie
 * far above device memory's: sm_lsu.c).  A way never used has tag and use
 * 0, and era 0 is no era's. */
#define STAMP_BITS 44
#define STAMP_MASK ((UINT64_C(1) << STAMP_BITS) - 1)
#define ERA_SHIFT STAMP_BITS
#define ERA_BITS 12
#define ERA_ONE (UINT64_C(1) << ERA_SHIFT)
#define ERA_MASK (((UINT64_C(1) << ERA_BITS) - 1) << ERA_SHIFT)
#define VALID_SHIFT (ERA_SHIFT + ERA_BITS)
#define DIRTY_SHIFT (VALID_SHIFT + WS_SECTORS_PER_LINE)
_Static_assert(DIRTY_SHIFT + WS_SECTORS_PER_LINE <= 64, "a way's use word holds its stamp and sector bits");

static uint64_t stamp_of(uint64_t use) { return use & STAMP_MASK; }
static bool valid_in(uint64_t use, uint32_t s) { return use >> (VALID_SHIFT + s) & 1; }
static bool dirty_in(uint64_t use, uint32_t s) { return use >> (DIRTY_SHIFT + s) & 1; }
static uint32_t dirty_count(uint64_t use) { return ws_popcount64(use >> DIRTY_SHIFT); }
static uint64_t valid_bit(uint32_t s) { return UINT64_C(1) << (VALID_SHIFT + s); }
static uint64_t dirty_bit(uint32_t s) { return UINT64_C(1) << (DIRTY_SHIFT + s); }
/* use with its stamp replaced, its bits kept */
static uint64_t restamp(uint64_t use, uint64_t stamp) { return (use & ~STAMP_MASK) | stamp; }

/* A cache's arrays are zeroed.h's: a launch pays only for the sets it
 * uses, not for clearing an L2's megabytes of tags, stamps and lines. */

/* The sets of a cache of bytes in ways ways (at least one). */
static uint32_t sets_for(uint64_t bytes, uint32_t ways)
{
    uint64_t sets = bytes / ((uint64_t)LINE_BYTES * ways);
    return sets ? (uint32_t)sets : 1;
}

bool ws_scache_shaped(const ws_sector_cache *c, uint64_t bytes, uint32_t ways)
{
    ways = ways ? ways : 1;
    return c->tag && c->ways == ways && c->nsets == sets_for(bytes, ways);
}

bool ws_scache_init(ws_sector_cache *c, uint64_t bytes, uint32_t ways)
{
    c->ways = ways ? ways : 1;
    c->nsets = sets_for(bytes, c->ways);
    c->stamp = 1;       /* uses stamp 2, 3, ...: 1 is older than any (evict-first) */
    c->ndirty = 0;
    c->recent = 0;
    c->era = ERA_ONE;
    size_t n = (size_t)c->nsets * c->ways;
    c->tag = ws_zeroed(n, sizeof *c->tag);
    c->use = ws_zeroed(n, sizeof *c->use);
    c->lines = ws_zeroed(n, sizeof *c->lines);
    if (c->tag && c->use && c->lines) return true;
    ws_scache_free(c);
    return false;
}

void ws_scache_reset(ws_sector_cache *c)
{
    c->stamp = 1;
    c->ndirty = 0;
    c->era += ERA_ONE;
    if (c->era & ERA_MASK) return;
    /* past the last era (4,095 resets): the ways ever used cleared, and
     * the eras begun again */
    size_t n = (size_t)c->nsets * c->ways;
    for (size_t i = 0; i < n; i++)
        if (c->tag[i]) c->tag[i] = c->use[i] = 0;
    c->era = ERA_ONE;
}

void ws_scache_free(ws_sector_cache *c)
{
    size_t n = (size_t)c->nsets * c->ways;
    ws_zeroed_free(c->tag, n, sizeof *c->tag);
    ws_zeroed_free(c->use, n, sizeof *c->use);
    ws_zeroed_free(c->lines, n, sizeof *c->lines);
    c->tag = c->use = NULL;
    c->lines = NULL;
}

/* The first way of line's set. */
static size_t set_of(const ws_sector_cache *c, uint64_t line)
{
    return (size_t)(line % c->nsets) * c->ways;
}

/* Whether way i holds a line placed in the era now. */
static bool placed_now(const ws_sector_cache *c, size_t i)
{
    return (c->use[i] & ERA_MASK) == c->era;
}

/* Way i's use word, 0 (never used) for a way of an earlier era. */
static uint64_t use_now(const ws_sector_cache *c, size_t i)
{
    return placed_now(c, i) ? c->use[i] : 0;
}

/* line's way (an index into the arrays), or -1 when not in the cache. */
static ptrdiff_t find(const ws_sector_cache *c, uint64_t line)
{
    size_t set = set_of(c, line);
    const uint64_t *tag = &c->tag[set];
    for (uint32_t w = 0; w < c->ways; w++)
        if (tag[w] == line + 1 && placed_now(c, set + w)) return (ptrdiff_t)(set + w);
    return -1;
}

/* find, the way of the line last found or placed tried first: a warp's
 * access brings a line's sectors one after another, and a way whose tag
 * is line's is line's one way (a line is placed only in its own set, and
 * only when not found there).  For the cache's own thread: it notes the
 * way it finds. */
static ptrdiff_t find_recent(ws_sector_cache *c, uint64_t line)
{
    if (c->tag[c->recent] == line + 1 && placed_now(c, c->recent)) return (ptrdiff_t)c->recent;
    ptrdiff_t i = find(c, line);
    if (i >= 0) c->recent = (size_t)i;
    return i;
}

static ws_cache_line *line_at(const ws_sector_cache *c, ptrdiff_t i)
{
    return i < 0 ? NULL : &c->lines[i];
}

bool ws_scache_lookup(ws_sector_cache *c, uint64_t sector, uint64_t *ready)
{
    ws_cache_line *l;
    return ws_scache_lookup_line(c, sector, ready, &l);
}

bool ws_scache_lookup_line(ws_sector_cache *c, uint64_t sector, uint64_t *ready, ws_cache_line **line)
{
    ptrdiff_t i = find_recent(c, sector / WS_SECTORS_PER_LINE);
    ws_cache_line *l = *line = line_at(c, i);
    uint32_t s = (uint32_t)(sector % WS_SECTORS_PER_LINE);
    if (!l || !valid_in(c->use[i], s)) return false;
    c->use[i] = restamp(c->use[i], ++c->stamp);
    *ready = l->ready[s];
    return true;
}

/* A way for sector's line, not in the cache: the least recently used of
 * its set, emptied (*evicted: the dirty sectors that threw out); its
 * caller stamps its use. */
static ptrdiff_t allocate(ws_sector_cache *c, uint64_t sector, uint32_t *evicted)
{
    uint64_t line = sector / WS_SECTORS_PER_LINE;
    size_t set = set_of(c, line), v = set;
    /* the oldest stamp kept as it goes (the first of equal ones wins) */
    uint64_t oldest = stamp_of(use_now(c, set));
    for (size_t w = set + 1; w < set + c->ways; w++) {
        uint64_t st = stamp_of(use_now(c, w));
        if (st < oldest) oldest = st, v = w;
    }
    *evicted = dirty_count(use_now(c, v));
    c->ndirty -= *evicted;
    c->tag[v] = line + 1;
    c->use[v] = c->era;     /* no sector valid; its caller stamps it */
    c->recent = v;
    return (ptrdiff_t)v;
}

/* sector's line's way, found or allocated (*evicted as allocate's). */
static ptrdiff_t line_for(ws_sector_cache *c, uint64_t sector, bool *allocated, uint32_t *evicted)
{
    ptrdiff_t i = find_recent(c, sector / WS_SECTORS_PER_LINE);
    *allocated = i < 0;
    *evicted = 0;
    return i >= 0 ? i : allocate(c, sector, evicted);
}

/* Way i's sector s valid with data at ready, dirty too when dirty, its
 * use stamped stamp.  Returns whether s was dirty before. */
static bool fill_way(ws_sector_cache *c, ptrdiff_t i, uint32_t s, uint64_t stamp, uint64_t ready, bool dirty)
{
    uint64_t use = restamp(c->use[i], stamp) | valid_bit(s);
    bool was_dirty = dirty_in(use, s);
    if (dirty && !was_dirty) {
        use |= dirty_bit(s);
        c->ndirty++;
    }
    c->use[i] = use;
    c->lines[i].ready[s] = ready;
    return was_dirty;
}

static uint32_t fill(ws_sector_cache *c, uint64_t sector, uint64_t ready, bool dirty, bool first)
{
    uint32_t s = (uint32_t)(sector % WS_SECTORS_PER_LINE), evicted;
    bool allocated;
    ptrdiff_t i = line_for(c, sector, &allocated, &evicted);
    fill_way(c, i, s, first && allocated ? 1 : ++c->stamp, ready, dirty);
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
    ptrdiff_t i = line_for(c, sector, &allocated, &evicted);
    ws_cache_line *l = &c->lines[i];
    uint64_t use = c->use[i];
    *hit = valid_in(use, s);
    *was_dirty = dirty_in(use, s);
    l->ready[s] = *hit && l->ready[s] > t ? l->ready[s] : t;
    c->use[i] = restamp(use, ++c->stamp) | valid_bit(s) | dirty_bit(s);
    c->ndirty += !*was_dirty;
    return evicted;
}

uint32_t ws_scache_fill_group_found(ws_sector_cache *c, ws_cache_line *found, uint64_t sector, uint64_t first,
                                    uint32_t n, uint64_t ready, uint32_t *added)
{
    uint32_t evicted = 0;
    ptrdiff_t i = found ? found - c->lines : allocate(c, sector, &evicted);
    ws_cache_line *l = &c->lines[i];
    uint64_t use = restamp(c->use[i], ++c->stamp);
    *added = 0;
    for (uint64_t b = first; b < first + n; b++) {
        uint32_t s = (uint32_t)(b % WS_SECTORS_PER_LINE);
        if (b != sector && valid_in(use, s)) continue;
        *added += b != sector;
        use |= valid_bit(s);
        l->ready[s] = ready;
    }
    c->use[i] = use;
    return evicted;
}

uint32_t ws_scache_fill_evict_first(ws_sector_cache *c, uint64_t sector, uint64_t ready)
{
    return fill(c, sector, ready, false, true);
}

void ws_scache_settle(ws_sector_cache *c, uint64_t first, uint32_t n, uint64_t pending, uint64_t ready)
{
    ptrdiff_t i = -1;
    uint64_t found = UINT64_MAX;    /* the line i is of: one lookup a line */
    for (uint64_t b = first; b < first + n; b++) {
        uint64_t line = b / WS_SECTORS_PER_LINE;
        if (line != found) i = find_recent(c, found = line);
        uint32_t s = (uint32_t)(b % WS_SECTORS_PER_LINE);
        if (i >= 0 && valid_in(c->use[i], s) && c->lines[i].ready[s] == pending) c->lines[i].ready[s] = ready;
    }
}

void ws_scache_prefetch(const ws_sector_cache *c, uint64_t sector)
{
    size_t set = set_of(c, sector / WS_SECTORS_PER_LINE);
    /* a set's tags and use words: 8 B a way, a line of the host's per 8
     * ways (and the last way's, the arrays not being aligned to sets) */
    for (uint32_t w = 0; w < c->ways; w += 8) {
        ws_prefetch(&c->tag[set + w]);
        ws_prefetch(&c->use[set + w]);
    }
    ws_prefetch(&c->tag[set + c->ways - 1]);
    ws_prefetch(&c->use[set + c->ways - 1]);
}

bool ws_scache_dirty_found(ws_sector_cache *c, ws_cache_line *found, uint64_t sector, uint64_t ready)
{
    return fill_way(c, found - c->lines, (uint32_t)(sector % WS_SECTORS_PER_LINE), ++c->stamp, ready, true);
}

bool ws_scache_peek(const ws_sector_cache *c, uint64_t sector, uint64_t *ready)
{
    ptrdiff_t i = find(c, sector / WS_SECTORS_PER_LINE);
    uint32_t s = (uint32_t)(sector % WS_SECTORS_PER_LINE);
    if (i < 0 || !valid_in(c->use[i], s)) return false;
    *ready = c->lines[i].ready[s];
    return true;
}

uint32_t ws_scache_older_ways(const ws_sector_cache *c, uint64_t sector)
{
    uint64_t line = sector / WS_SECTORS_PER_LINE;
    ptrdiff_t i = find(c, line);
    if (i < 0) return 0;
    size_t set = set_of(c, line);
    uint64_t mine = stamp_of(c->use[i]);
    uint32_t older = 0;
    for (size_t w = set; w < set + c->ways; w++) older += stamp_of(use_now(c, w)) < mine;
    return older;
}

bool ws_scache_is_dirty(const ws_sector_cache *c, uint64_t sector)
{
    ptrdiff_t i = find(c, sector / WS_SECTORS_PER_LINE);
    return i >= 0 && dirty_in(c->use[i], (uint32_t)(sector % WS_SECTORS_PER_LINE));
}

void ws_scache_invalidate(ws_sector_cache *c, uint64_t sector)
{
    ptrdiff_t i = find(c, sector / WS_SECTORS_PER_LINE);
    if (i >= 0) c->use[i] &= ~valid_bit((uint32_t)(sector % WS_SECTORS_PER_LINE));
}

uint64_t ws_scache_dirty_sectors(const ws_sector_cache *c)
{
    return c->ndirty;
}
