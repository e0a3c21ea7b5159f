/* The L1 alone (sim/mem/l1_cache.h): its load policies, its hit latency,
 * its write policy (write-through, no allocation) and atomics, on an L1 of
 * one set of four 128 B lines, worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim/mem/l1_cache.h"

static void tiny(ws_l1_cache *l1)
{
    ws_gpu_config g;
    memset(&g, 0, sizeof g);
    g.l1CacheSize = 4 * 128;
    g.l1Associativity = 4;
    g.latencyL1Hit = 30;
    assert_true(ws_l1_init(l1, &g));
}

/* Sector 4 * line: the first sector of a line; all lines share the set. */
static uint64_t sec(uint64_t line) { return 4 * line; }

/* Looks sector up with policy; on a miss fills it at cycle 100. */
static bool load(ws_l1_cache *l1, uint64_t s, ws_l1_policy p)
{
    uint64_t r;
    if (ws_l1_load(l1, s, 0, p, &r)) return true;
    ws_l1_fill(l1, s, 100, p);
    return false;
}

static void test_allocate_and_bypass(void **state)
{
    (void)state;
    ws_l1_cache l1;
    tiny(&l1);
    assert_false(load(&l1, sec(1), WS_L1_ALLOCATE));
    assert_true(load(&l1, sec(1), WS_L1_ALLOCATE));
    /* a bypassing load misses although the sector is there, and fills nothing */
    assert_false(load(&l1, sec(1), WS_L1_BYPASS));
    assert_false(load(&l1, sec(2), WS_L1_BYPASS));
    assert_false(load(&l1, sec(2), WS_L1_ALLOCATE));
    /* no-allocate: a hit where present, a miss that leaves nothing */
    assert_true(load(&l1, sec(1), WS_L1_NO_ALLOCATE));
    assert_false(load(&l1, sec(3), WS_L1_NO_ALLOCATE));
    assert_false(load(&l1, sec(3), WS_L1_ALLOCATE));
    assert_int_equal(l1.lookups, 8);
    assert_int_equal(l1.hits, 2);
    ws_l1_free(&l1);
}

/* Lines 1-3 allocated normally, then line 9 by a load: a fifth line (10)
 * evicts the least recently used.  Streamed (evict-first), line 9 is the
 * one to go and line 1 stays; allocated normally, line 1 goes. */
static void test_evict_first(void **state)
{
    (void)state;
    for (int streamed = 0; streamed <= 1; streamed++) {
        ws_l1_cache l1;
        tiny(&l1);
        for (uint64_t l = 1; l <= 3; l++) load(&l1, sec(l), WS_L1_ALLOCATE);
        load(&l1, sec(9), streamed ? WS_L1_EVICT_FIRST : WS_L1_ALLOCATE);
        load(&l1, sec(10), WS_L1_ALLOCATE);
        uint64_t r;
        assert_int_equal(ws_l1_load(&l1, sec(1), 0, WS_L1_ALLOCATE, &r), streamed);
        assert_int_equal(ws_l1_load(&l1, sec(9), 0, WS_L1_ALLOCATE, &r), !streamed);
        ws_l1_free(&l1);
    }
    /* a hit makes a streamed line an ordinary one: then line 2, the least
     * recently used, goes */
    ws_l1_cache l1;
    tiny(&l1);
    for (uint64_t l = 1; l <= 3; l++) load(&l1, sec(l), WS_L1_ALLOCATE);
    load(&l1, sec(9), WS_L1_EVICT_FIRST);
    assert_true(load(&l1, sec(1), WS_L1_ALLOCATE));
    assert_true(load(&l1, sec(9), WS_L1_ALLOCATE));
    load(&l1, sec(10), WS_L1_ALLOCATE);
    uint64_t r;
    assert_false(ws_l1_load(&l1, sec(2), 0, WS_L1_ALLOCATE, &r));
    assert_true(ws_l1_load(&l1, sec(9), 0, WS_L1_ALLOCATE, &r));
    ws_l1_free(&l1);
}

/* A hit's data reaches the registers latencyL1Hit after the lookup, or
 * when the sector arrives if its miss is still in flight. */
static void test_hit_latency(void **state)
{
    (void)state;
    ws_l1_cache l1;
    tiny(&l1);
    uint64_t r = 0;
    assert_false(ws_l1_load(&l1, sec(1), 10, WS_L1_ALLOCATE, &r));
    ws_l1_fill(&l1, sec(1), 500, WS_L1_ALLOCATE);       /* L2 answers at 500 */
    assert_true(ws_l1_load(&l1, sec(1), 20, WS_L1_ALLOCATE, &r));
    assert_int_equal(r, 500);
    assert_true(ws_l1_load(&l1, sec(1), 1000, WS_L1_ALLOCATE, &r));
    assert_int_equal(r, 1030);
    /* other sectors of the line were not brought */
    assert_false(ws_l1_load(&l1, sec(1) + 1, 1000, WS_L1_ALLOCATE, &r));
    ws_l1_free(&l1);
}

/* Stores write through without allocating: a store to an absent sector
 * leaves it absent; a store to a present one keeps it valid (its data is
 * there no earlier than the store).  An atomic, done at L2, drops it. */
static void test_write_policy(void **state)
{
    (void)state;
    ws_l1_cache l1;
    tiny(&l1);
    uint64_t r = 0;
    ws_l1_store(&l1, sec(2), 50);
    assert_false(ws_l1_load(&l1, sec(2), 60, WS_L1_ALLOCATE, &r));
    ws_l1_fill(&l1, sec(2), 100, WS_L1_ALLOCATE);
    ws_l1_store(&l1, sec(2), 400);
    assert_true(ws_l1_load(&l1, sec(2), 380, WS_L1_ALLOCATE, &r));
    assert_int_equal(r, 410);                           /* 380 + 30, the store's 400 later */
    ws_l1_store(&l1, sec(2), 10);                       /* an early store moves nothing back */
    assert_true(ws_l1_load(&l1, sec(2), 0, WS_L1_ALLOCATE, &r));
    assert_int_equal(r, 400);
    ws_l1_atomic(&l1, sec(2));
    assert_false(ws_l1_load(&l1, sec(2), 1000, WS_L1_ALLOCATE, &r));
    /* stores and atomics are not lookups of the hit rate */
    assert_int_equal(l1.lookups, 4);
    assert_int_equal(l1.hits, 2);
    ws_l1_free(&l1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocate_and_bypass),
        cmocka_unit_test(test_evict_first),
        cmocka_unit_test(test_hit_latency),
        cmocka_unit_test(test_write_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
