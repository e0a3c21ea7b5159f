/* The sectored tag array alone (sim/mem/sector_cache.h), the one the L1
 * and every L2 slice use, on caches small enough to work by hand: which
 * sectors hit, what a fill allocates (a sector, not a line), which line
 * LRU evicts, what an eviction of dirty sectors reports. */
/* mincore */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/mem/sector_cache.h"

/* The line the hand-worked tests' line 0 is: 0, or one of local memory's
 * lines, whose numbers take up to 50 bits (sm_lsu.c puts local memory at
 * 2^56), for the tests run at both. */
static uint64_t line_base;
#define LOCAL_LINES (UINT64_C(1) << 49)

/* Sector s (0-3) of line l. */
static uint64_t sec(uint64_t l, uint64_t s) { return (line_base + l) * WS_SECTORS_PER_LINE + s; }

/* A hand-worked test at line 0 and at local memory's line high. */
static void at_both_bases(void (*test)(void), uint64_t high)
{
    line_base = 0;
    test();
    line_base = high;
    test();
    line_base = 0;
}

static bool hit(ws_sector_cache *c, uint64_t sector)
{
    uint64_t r;
    return ws_scache_lookup(c, sector, &r);
}

/* Bytes are rounded down to whole sets of ways 128 B lines, at least one. */
static void test_geometry(void **state)
{
    (void)state;
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 1000, 2));   /* 1000 / 256 = 3 sets */
    assert_int_equal(c.nsets, 3);
    assert_int_equal(c.ways, 2);
    ws_scache_free(&c);
    assert_true(ws_scache_init(&c, 100, 4));    /* less than a set: one */
    assert_int_equal(c.nsets, 1);
    ws_scache_free(&c);
    assert_true(ws_scache_init(&c, 512, 0));    /* no ways: direct-mapped */
    assert_int_equal(c.ways, 1);
    assert_int_equal(c.nsets, 4);
    ws_scache_free(&c);
}

/* A fill makes one sector valid: its line's other sectors still miss, and
 * each sector keeps the cycle its own data arrives. */
static void test_sector_not_line(void **state)
{
    (void)state;
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 2 * 128, 2));        /* one set of two lines */
    uint64_t r = 0;
    assert_false(ws_scache_lookup(&c, sec(5, 2), &r));
    assert_int_equal(ws_scache_fill(&c, sec(5, 2), 70, false), 0);
    assert_true(ws_scache_lookup(&c, sec(5, 2), &r));
    assert_int_equal(r, 70);
    for (uint64_t s = 0; s < 4; s++)
        if (s != 2) assert_false(hit(&c, sec(5, s)));
    /* the line's second sector goes into the same way: nothing is evicted,
     * and the other line of the set stays */
    ws_scache_fill(&c, sec(6, 0), 10, false);
    ws_scache_fill(&c, sec(5, 3), 90, false);
    assert_true(ws_scache_lookup(&c, sec(5, 3), &r));
    assert_int_equal(r, 90);
    assert_true(ws_scache_lookup(&c, sec(5, 2), &r));
    assert_int_equal(r, 70);
    assert_true(hit(&c, sec(6, 0)));
    ws_scache_free(&c);
}

/* Line l lives in set l % nsets: with two sets of two ways, lines 0, 2, 4
 * compete and lines 1, 3 are untouched by them. */
static void test_sets(void **state)
{
    (void)state;
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 4 * 128, 2));
    assert_int_equal(c.nsets, 2);
    ws_scache_fill(&c, sec(1, 0), 0, false);
    ws_scache_fill(&c, sec(3, 0), 0, false);
    ws_scache_fill(&c, sec(0, 0), 0, false);
    ws_scache_fill(&c, sec(2, 0), 0, false);
    ws_scache_fill(&c, sec(4, 0), 0, false);    /* set 0 is full: line 0 goes */
    assert_false(hit(&c, sec(0, 0)));
    assert_true(hit(&c, sec(2, 0)));
    assert_true(hit(&c, sec(4, 0)));
    assert_true(hit(&c, sec(1, 0)));
    assert_true(hit(&c, sec(3, 0)));
    ws_scache_free(&c);
}

/* One set of four ways.  Lines 0-3 filled in order, then hits on 0 and
 * 2 and a fill of another sector of 1: uses are now, oldest first,
 * 3, 0, 2, 1.  Fills of lines 4, 5, 6 evict 3, then 0, then 2; lookups
 * are uses too, so the check comes after the last fill. */
static void lru_order(void)
{
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 4 * 128, 4));
    for (uint64_t l = 0; l < 4; l++) ws_scache_fill(&c, sec(l, 0), 0, false);
    assert_true(hit(&c, sec(0, 0)));
    assert_true(hit(&c, sec(2, 0)));
    ws_scache_fill(&c, sec(1, 1), 0, false);
    /* a lookup that misses is no use: sector 3 of line 3 is not there */
    assert_false(hit(&c, sec(3, 3)));
    ws_scache_fill(&c, sec(4, 0), 0, false);
    ws_scache_fill(&c, sec(5, 0), 0, false);
    ws_scache_fill(&c, sec(6, 0), 0, false);
    assert_true(hit(&c, sec(1, 0)));
    assert_true(hit(&c, sec(1, 1)));
    assert_true(hit(&c, sec(4, 0)));
    assert_true(hit(&c, sec(5, 0)));
    assert_true(hit(&c, sec(6, 0)));
    assert_false(hit(&c, sec(0, 0)));
    assert_false(hit(&c, sec(2, 0)));
    assert_false(hit(&c, sec(3, 0)));
    ws_scache_free(&c);
}

static void test_lru_order(void **state)
{
    (void)state;
    at_both_bases(lru_order, LOCAL_LINES + 12345);
}

/* Write-back bookkeeping: a fill marked dirty stays dirty until its line
 * is evicted, and the eviction returns its dirty sectors (what the L2
 * writes to DRAM); a line taken over starts with no valid sector. */
static void dirty_eviction(void)
{
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 128, 1));            /* a single line */
    assert_int_equal(ws_scache_fill(&c, sec(7, 0), 0, true), 0);
    assert_int_equal(ws_scache_fill(&c, sec(7, 1), 0, false), 0);
    assert_int_equal(ws_scache_fill(&c, sec(7, 3), 0, true), 0);
    assert_int_equal(ws_scache_dirty_sectors(&c), 2);
    /* a clean refill of a dirty sector does not clean it */
    ws_scache_fill(&c, sec(7, 0), 5, false);
    assert_int_equal(ws_scache_dirty_sectors(&c), 2);
    assert_int_equal(ws_scache_fill(&c, sec(8, 2), 0, false), 2);
    assert_int_equal(ws_scache_dirty_sectors(&c), 0);
    assert_false(hit(&c, sec(7, 1)));
    assert_false(hit(&c, sec(8, 0)));
    assert_true(hit(&c, sec(8, 2)));
    /* a clean line goes without a write */
    assert_int_equal(ws_scache_fill(&c, sec(9, 0), 0, true), 0);
    assert_int_equal(ws_scache_fill_evict_first(&c, sec(10, 0), 0), 1);
    ws_scache_free(&c);
}

static void test_dirty_eviction(void **state)
{
    (void)state;
    at_both_bases(dirty_eviction, LOCAL_LINES + 777);
}

/* A lookup that misses and the DRAM read of a group of sectors after it. */
static uint32_t miss_and_fill(ws_sector_cache *c, uint64_t sector, uint64_t first, uint32_t n, uint64_t ready,
                              uint32_t *added)
{
    uint64_t r;
    ws_cache_line *line;
    assert_false(ws_scache_lookup_line(c, sector, &r, &line));
    return ws_scache_fill_group_found(c, line, sector, first, n, ready, added);
}

/* A DRAM read of a group of sectors (ws_scache_fill_group_found after
 * ws_scache_lookup_line): the missing sector and the group's others
 * that are not valid become valid at the read's time, the valid ones keep
 * theirs, the dirty ones stay dirty; the line is one use for LRU; an
 * eviction reports its dirty sectors. */
static void test_fill_group(void **state)
{
    (void)state;
    ws_sector_cache c;
    uint64_t r;
    uint32_t added;
    ws_cache_line *line;
    assert_true(ws_scache_init(&c, 256, 2));            /* one set of two lines */
    assert_int_equal(ws_scache_fill(&c, sec(4, 1), 7, true), 0);
    /* a miss in a line the cache holds: the lookup gives the line to fill */
    assert_false(ws_scache_lookup_line(&c, sec(4, 0), &r, &line));
    assert_non_null(line);
    assert_int_equal(ws_scache_fill_group_found(&c, line, sec(4, 0), sec(4, 0), 2, 50, &added), 0);
    assert_int_equal(added, 0);                         /* sector 1 was there: kept at 7, dirty */
    assert_true(ws_scache_lookup(&c, sec(4, 0), &r));
    assert_int_equal(r, 50);
    assert_true(ws_scache_lookup(&c, sec(4, 1), &r));
    assert_int_equal(r, 7);
    assert_true(ws_scache_is_dirty(&c, sec(4, 1)));
    assert_int_equal(miss_and_fill(&c, sec(4, 3), sec(4, 2), 2, 60, &added), 0);
    assert_int_equal(added, 1);
    assert_true(ws_scache_lookup(&c, sec(4, 2), &r));
    assert_int_equal(r, 60);
    assert_false(ws_scache_is_dirty(&c, sec(4, 2)));
    /* line 5 in the other way (a lookup that finds no line), then line 4
     * used again: line 5 is the older */
    assert_false(ws_scache_lookup_line(&c, sec(5, 2), &r, &line));
    assert_null(line);
    assert_int_equal(ws_scache_fill_group_found(&c, line, sec(5, 2), sec(5, 0), 4, 70, &added), 0);
    assert_int_equal(added, 3);
    assert_true(hit(&c, sec(4, 0)));
    assert_int_equal(miss_and_fill(&c, sec(6, 0), sec(6, 0), 1, 80, &added), 0);
    assert_int_equal(added, 0);
    assert_false(hit(&c, sec(5, 2)));
    assert_true(hit(&c, sec(4, 0)));
    /* line 6 goes next (clean), then line 4 with its one dirty sector */
    assert_int_equal(miss_and_fill(&c, sec(9, 1), sec(9, 0), 2, 90, &added), 0);
    assert_int_equal(added, 1);
    assert_false(hit(&c, sec(6, 0)));
    assert_int_equal(ws_scache_dirty_sectors(&c), 1);
    assert_int_equal(miss_and_fill(&c, sec(10, 0), sec(10, 0), 2, 95, &added), 1);
    assert_int_equal(ws_scache_dirty_sectors(&c), 0);
    assert_true(hit(&c, sec(9, 0)));
    ws_scache_free(&c);
}

/* A fill's arrival (ws_scache_settle) over a run of sectors that crosses
 * from one line into the next: each sector still waiting on that fill
 * gets its time, in either line; one waiting on another fill, one with a
 * time of its own and one not there are left as they are. */
static void test_settle(void **state)
{
    (void)state;
    ws_sector_cache c;
    uint64_t r, pending = UINT64_C(1) << 62, other = pending + 1;
    assert_true(ws_scache_init(&c, 256, 2));            /* lines 4 and 5 in the one set */
    ws_scache_fill(&c, sec(4, 2), 9, false);
    ws_scache_fill(&c, sec(4, 3), pending, false);
    ws_scache_fill(&c, sec(5, 0), pending, false);
    ws_scache_fill(&c, sec(5, 1), other, false);
    ws_scache_settle(&c, sec(4, 2), 5, pending, 100);   /* 4.2 4.3 5.0 5.1 5.2 */
    assert_true(ws_scache_lookup(&c, sec(4, 2), &r));
    assert_int_equal(r, 9);
    assert_true(ws_scache_lookup(&c, sec(4, 3), &r));
    assert_int_equal(r, 100);
    assert_true(ws_scache_lookup(&c, sec(5, 0), &r));
    assert_int_equal(r, 100);
    assert_true(ws_scache_lookup(&c, sec(5, 1), &r));
    assert_int_equal(r, other);
    assert_false(hit(&c, sec(5, 2)));
    ws_scache_free(&c);
}

/* A write into the write-back L2 (ws_scache_write): valid and dirty
 * after it, its time the later of the write's and a fill still on its
 * way; it says whether the sector was there and already dirty; an
 * eviction reports the dirty sectors it threw out. */
static void test_write(void **state)
{
    (void)state;
    ws_sector_cache c;
    uint64_t r;
    bool there, dirty;
    assert_true(ws_scache_init(&c, 128, 1));            /* a single line */
    assert_int_equal(ws_scache_write(&c, sec(3, 0), 10, &there, &dirty), 0);
    assert_false(there);
    assert_false(dirty);
    assert_true(ws_scache_lookup(&c, sec(3, 0), &r));
    assert_int_equal(r, 10);
    assert_int_equal(ws_scache_write(&c, sec(3, 0), 20, &there, &dirty), 0);
    assert_true(there);
    assert_true(dirty);
    assert_int_equal(ws_scache_dirty_sectors(&c), 1);
    ws_scache_fill(&c, sec(3, 1), 100, false);          /* a read's fill arriving at 100 */
    assert_int_equal(ws_scache_write(&c, sec(3, 1), 30, &there, &dirty), 0);
    assert_true(there);
    assert_false(dirty);
    assert_true(ws_scache_lookup(&c, sec(3, 1), &r));
    assert_int_equal(r, 100);
    assert_int_equal(ws_scache_dirty_sectors(&c), 2);
    assert_int_equal(ws_scache_write(&c, sec(4, 2), 40, &there, &dirty), 2);
    assert_false(there);
    assert_int_equal(ws_scache_dirty_sectors(&c), 1);
    assert_false(hit(&c, sec(3, 0)));
    ws_scache_free(&c);
}

/* Evict-first only matters for a line it allocates: a fill into a line
 * already present is an ordinary use. */
static void test_evict_first_present_line(void **state)
{
    (void)state;
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 2 * 128, 2));
    ws_scache_fill(&c, sec(0, 0), 0, false);
    ws_scache_fill(&c, sec(1, 0), 0, false);
    ws_scache_fill_evict_first(&c, sec(0, 1), 0);       /* line 0: now the newest */
    ws_scache_fill(&c, sec(2, 0), 0, false);            /* line 1 goes */
    assert_true(hit(&c, sec(0, 0)));
    assert_false(hit(&c, sec(1, 0)));
    /* a line it allocates is the next to go, though filled last */
    ws_scache_fill_evict_first(&c, sec(3, 0), 0);       /* over line 2, the older */
    ws_scache_fill(&c, sec(4, 0), 0, false);            /* over line 3 */
    assert_true(hit(&c, sec(0, 0)));
    assert_false(hit(&c, sec(3, 0)));
    assert_true(hit(&c, sec(4, 0)));
    ws_scache_free(&c);
}

/* Invalidation drops one sector; its line keeps the others and its way. */
static void test_invalidate(void **state)
{
    (void)state;
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 2 * 128, 2));
    ws_scache_fill(&c, sec(0, 0), 0, false);
    ws_scache_fill(&c, sec(0, 1), 0, false);
    ws_scache_fill(&c, sec(1, 0), 0, false);
    ws_scache_invalidate(&c, sec(0, 1));
    ws_scache_invalidate(&c, sec(5, 0));                /* absent: nothing */
    assert_true(hit(&c, sec(0, 0)));
    assert_false(hit(&c, sec(0, 1)));
    assert_true(hit(&c, sec(1, 0)));
    ws_scache_fill(&c, sec(0, 1), 3, false);            /* back in line 0's way */
    assert_true(hit(&c, sec(1, 0)));
    assert_true(hit(&c, sec(0, 1)));
    ws_scache_free(&c);
}

/* A random mix of the cache's operations on c, seeded: the answers' sum. */
static uint64_t random_use(ws_sector_cache *c, uint64_t seed, int n, uint64_t lines)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint64_t sector = (seed >> 20) % (lines * WS_SECTORS_PER_LINE), r = 0, t = (uint64_t)i;
        bool h = false, d = false;
        uint32_t added = 0;
        ws_cache_line *l;
        switch ((seed >> 60) % 8) {
        case 0: sum += ws_scache_lookup(c, sector, &r) + r; break;
        case 1: sum += ws_scache_fill(c, sector, t, (seed >> 50) & 1); break;
        case 2: sum += ws_scache_write(c, sector, t, &h, &d) + h + 2 * d; break;
        case 3: sum += ws_scache_fill_evict_first(c, sector, t); break;
        case 5: sum += ws_scache_peek(c, sector, &r) + r; break;
        case 6: sum += ws_scache_older_ways(c, sector); break;
        case 7: sum += ws_scache_is_dirty(c, sector); break;
        default:
            if (!ws_scache_lookup_line(c, sector, &r, &l))
                sum += ws_scache_fill_group_found(c, l, sector, sector & ~UINT64_C(1), 2, t, &added) + added;
            break;
        }
        sum = sum * 31 + ws_scache_dirty_sectors(c);
    }
    return sum;
}

/* A cache reset after use (ws_scache_reset, what an L2 kept between
 * launches gets) answers as the cache ws_scache_init makes: no line of
 * before is found, and every operation's answers to the next launch's
 * accesses, among them the lines of before, are those of a new cache; a
 * cache the size of an h200 L2 slice, used in some of its sets, then in
 * all of them, reset once and three times. */
static void test_reset_is_new(void **state)
{
    (void)state;
    static const uint64_t spans[] = {40, 100000};     /* lines touched: a few sets, every set */
    for (int k = 0; k < 4; k++) {
        ws_sector_cache fresh, used;
        uint64_t span = spans[k % 2], r;
        assert_true(ws_scache_init(&fresh, 629145, 16));
        assert_true(ws_scache_init(&used, 629145, 16));
        for (int resets = 0; resets < (k < 2 ? 1 : 3); resets++) {
            random_use(&used, 99 + (uint64_t)k + (uint64_t)resets, 20000, span);
            ws_scache_reset(&used);
        }
        assert_int_equal(used.stamp, fresh.stamp);
        assert_int_equal(used.ndirty, 0);
        for (uint64_t sector = 0; sector < span * WS_SECTORS_PER_LINE; sector++) {
            assert_false(ws_scache_peek(&used, sector, &r));
            assert_false(ws_scache_is_dirty(&used, sector));
        }
        assert_int_equal(random_use(&used, 7, 20000, span), random_use(&fresh, 7, 20000, span));
        assert_int_equal(random_use(&used, 8, 20000, 3000), random_use(&fresh, 8, 20000, 3000));
        ws_scache_free(&fresh);
        ws_scache_free(&used);
    }
}

/* A reset begins a new era of tags (sector_cache.c); past the last one
 * the eras begin again, and a line placed in the first era and never
 * used since must not come back then. */
static void test_reset_eras_wrap(void **state)
{
    (void)state;
    ws_sector_cache c;
    uint64_t r;
    assert_true(ws_scache_init(&c, 4 * 128, 4));
    ws_scache_fill(&c, sec(0, 0), 5, true);
    ws_scache_fill(&c, sec(1, 2), 6, false);
    uint64_t first = c.era;
    for (uint32_t n = 1; n <= (UINT32_C(1) << 20); n++) {
        ws_scache_reset(&c);
        if (c.era == first) break;      /* the eras begun again */
    }
    assert_int_equal(c.era, first);
    assert_false(ws_scache_peek(&c, sec(0, 0), &r));
    assert_false(ws_scache_peek(&c, sec(1, 2), &r));
    assert_int_equal(ws_scache_older_ways(&c, sec(0, 0)), 0);
    assert_int_equal(ws_scache_fill(&c, sec(2, 0), 7, false), 0);     /* nothing dirty thrown out */
    assert_true(hit(&c, sec(2, 0)));
    ws_scache_free(&c);
}

/* Pages of [p, p + bytes) (p page-aligned) the process holds. */
static size_t resident_pages(const void *p, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (bytes + page - 1) / page, held = 0;
    unsigned char *in = malloc(n);
    assert_non_null(in);
    assert_int_equal(mincore((void *)p, bytes, in), 0);
    for (size_t k = 0; k < n; k++) held += in[k] & 1;
    free(in);
    return held;
}

/* A reset clears only the pages of lines the cache placed lines in: an L2
 * kept between launches, of which a launch used a few lines, holds no
 * more memory after the reset than before it (mincore: its lines are
 * mapped as ws_zeroed maps big arrays, a page at a time as written). */
static void test_reset_writes_only_used_pages(void **state)
{
    (void)state;
    ws_sector_cache c;
    assert_true(ws_scache_init(&c, 629145, 16));
    size_t bytes = sizeof *c.lines * (size_t)c.nsets * c.ways, page = (size_t)sysconf(_SC_PAGESIZE);
    assert_int_equal((uintptr_t)c.lines % page, 0);     /* mapped, not from the heap */
    random_use(&c, 5, 200, 3);                          /* three lines, three sets */
    size_t before = resident_pages(c.lines, bytes);
    assert_in_range(before, 1, 3);
    ws_scache_reset(&c);
    assert_int_equal(resident_pages(c.lines, bytes), before);
    ws_scache_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_reset_is_new),
        cmocka_unit_test(test_reset_eras_wrap),
        cmocka_unit_test(test_reset_writes_only_used_pages),
        cmocka_unit_test(test_sector_not_line),
        cmocka_unit_test(test_sets),
        cmocka_unit_test(test_lru_order),
        cmocka_unit_test(test_dirty_eviction),
        cmocka_unit_test(test_fill_group),
        cmocka_unit_test(test_settle),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_evict_first_present_line),
        cmocka_unit_test(test_invalidate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
