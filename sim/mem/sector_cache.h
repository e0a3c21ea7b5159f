/* A set-associative cache of 128 B lines in four 32 B sectors, LRU, that
 * allocates per sector: the tag array the L1 and the L2 slices share.
 *
 * Each valid sector carries the cycle its data arrives, so a request that
 * finds a sector already on its way (a miss in flight) waits for it rather
 * than fetching it again.  Addresses are sector numbers (byte address / 32). */
#ifndef WARPSIM_SECTOR_CACHE_H
#define WARPSIM_SECTOR_CACHE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define WS_SECTORS_PER_LINE 4

typedef struct ws_cache_line {
    uint64_t ready[WS_SECTORS_PER_LINE];    /* cycle each valid sector's data arrives */
} ws_cache_line;

/* A way's tag and its use word lie in arrays of their own, a set's ways
 * side by side: a lookup reads its set's tags from one or two host cache
 * lines and touches a line's record (its sectors' times) only when the
 * tag matches.  An L2's tags (8 B a line) then fit the host's caches
 * where whole line records did not: a first touch of a set, which every
 * new line makes, stops missing them.  The use word holds the way's LRU
 * stamp and its sectors' valid and dirty bits (sector_cache.c), so that
 * the scan of a set for the line to evict finds what the eviction throws
 * out without reading the line's record, which a miss then only writes. */
typedef struct ws_sector_cache {
    uint32_t nsets, ways;
    uint64_t *tag;                          /* nsets * ways: line number + 1 (byte address / 128 + 1), 0: way never used */
    uint64_t *use;                          /* nsets * ways: LRU stamp (0 = way never used, 1 = evict first),
                                             * the era the line was placed in, valid and dirty bits per sector */
    ws_cache_line *lines;                   /* nsets * ways */
    uint64_t stamp;
    uint64_t era;                           /* the use word's bits of the era now: a reset begins the next */
    uint64_t ndirty;                        /* dirty sectors, kept as they change */
    size_t recent;                          /* the way a line was last found or placed in */
} ws_sector_cache;

/* bytes is rounded down to whole sets (at least one).  False when out of
 * memory. */
bool ws_scache_init(ws_sector_cache *c, uint64_t bytes, uint32_t ways);

/* True when c (made, not freed) has the sets and ways that
 * ws_scache_init(c, bytes, ways) would give it. */
bool ws_scache_shaped(const ws_sector_cache *c, uint64_t bytes, uint32_t ways);
void ws_scache_free(ws_sector_cache *c);

/* Back to as ws_scache_init left it as far as any use can tell, in no
 * time: every line the cache held is from then on as a way never used
 * (sector_cache.c, eras).  A cache kept between launches costs a launch
 * only what it touches, and its pages stay made. */
void ws_scache_reset(ws_sector_cache *c);

/* True when sector is valid; *ready gets its data's arrival.  A hit counts
 * as a use for LRU. */
bool ws_scache_lookup(ws_sector_cache *c, uint64_t sector, uint64_t *ready);

/* Makes sector valid with data at ready (dirty when the write-back L2
 * takes a store), allocating its line over the least recently used one.
 * Returns the number of dirty sectors the eviction threw out. */
uint32_t ws_scache_fill(ws_sector_cache *c, uint64_t sector, uint64_t ready, bool dirty);

/* ws_scache_lookup that also gives sector's line as it found it (NULL:
 * not in the cache), for a ws_scache_fill_group_found of the same sector
 * right after it (nothing between may change the cache): a miss then
 * looks at its set once. */
bool ws_scache_lookup_line(ws_sector_cache *c, uint64_t sector, uint64_t *ready, ws_cache_line **line);

/* After a lookup that missed sector (found: its line as
 * ws_scache_lookup_line gave it): ws_scache_fill of sector (not dirty),
 * and with it the sectors of [first, first + n) of its line that are not
 * valid, at the same ready (a DRAM read of several sectors); one use of
 * the line for LRU.  Returns the dirty sectors the eviction threw out;
 * *added gets how many of the others it filled. */
uint32_t ws_scache_fill_group_found(ws_sector_cache *c, ws_cache_line *found, uint64_t sector, uint64_t first,
                                    uint32_t n, uint64_t ready, uint32_t *added);

/* A write of sector at cycle t into a write-back cache: the sector
 * becomes valid and dirty, its data at t or, when it was valid with data
 * still on its way, then; one use for LRU.  *hit: it was valid;
 * *was_dirty: it was dirty already.  Returns the dirty sectors the
 * eviction threw out (ws_scache_lookup, ws_scache_is_dirty and
 * ws_scache_fill in one look at the set). */
uint32_t ws_scache_write(ws_sector_cache *c, uint64_t sector, uint64_t t, bool *hit, bool *was_dirty);

/* The same for a load that streams (evict-first): a line it allocates is
 * made the least recently used of its set, the first to go unless a hit
 * uses it first.  Not dirty; returns the dirty sectors thrown out. */
uint32_t ws_scache_fill_evict_first(ws_sector_cache *c, uint64_t sector, uint64_t ready);

/* ws_scache_lookup without the use for LRU: nothing changes. */
bool ws_scache_peek(const ws_sector_cache *c, uint64_t sector, uint64_t *ready);

/* How many other ways of sector's set were used less recently than its
 * line (ways never used among them): how many uses of other lines of the
 * set it outlives, each moving it at most one way nearer eviction.  0 when
 * the line is not in the cache. */
uint32_t ws_scache_older_ways(const ws_sector_cache *c, uint64_t sector);

/* For a valid sector of found (its line as ws_scache_lookup_line gave
 * it, not evicted since): the sector dirty with data at ready, one more
 * use for LRU, as ws_scache_fill with dirty makes it, without looking for
 * the line again.  Returns whether it was dirty before. */
bool ws_scache_dirty_found(ws_sector_cache *c, ws_cache_line *found, uint64_t sector, uint64_t ready);

/* True when sector is present and dirty (not a use for LRU). */
bool ws_scache_is_dirty(const ws_sector_cache *c, uint64_t sector);

/* Where a sector of [first, first + n) is valid with data at pending,
 * makes it ready (no use for LRU): the arrival of a fill whose time was
 * not known when it was made. */
void ws_scache_settle(ws_sector_cache *c, uint64_t first, uint32_t n, uint64_t pending, uint64_t ready);

/* Asks the host for the tags and stamps of sector's set, ahead of a
 * lookup: a big cache's sets lie mostly outside the host's caches. */
void ws_scache_prefetch(const ws_sector_cache *c, uint64_t sector);

/* Drops sector if present. */
void ws_scache_invalidate(ws_sector_cache *c, uint64_t sector);

/* Dirty sectors held now (written back when the kernel's data leaves). */
uint64_t ws_scache_dirty_sectors(const ws_sector_cache *c);

#endif
