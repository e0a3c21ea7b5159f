/* An SM's own writes of a window (sim/core/own_writes.h), worked by hand:
 * a store is seen from the cycle after its own on, the later of two
 * stores wins (and of two lanes, the higher), bytes not written keep
 * memory's value, writes spread over two lines, many lines, and the
 * window's end forgets them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/own_writes.h"

#define BASE UINT64_C(0x7f0000000000)

/* One element of es bytes a lane, value v + lane, at addr + lane * stride. */
static void store(ws_own_writes *o, uint64_t cycle, uint64_t addr, uint32_t stride, uint32_t es, uint64_t v,
                  uint32_t mask)
{
    uint64_t addrs[WS_WARP_SIZE], values[WS_WARP_SIZE];
    for (uint32_t l = 0; l < WS_WARP_SIZE; l++) {
        addrs[l] = addr + (uint64_t)l * stride;
        values[l] = v + l;
    }
    assert_true(ws_own_writes_add(o, cycle, addrs, values, 1, es, mask));
}

/* The size bytes at addr as a load of cycle now sees them over memory's
 * bytes, all 0xee; *any as ws_own_writes_overlay gives it. */
static void seen(ws_own_writes *o, uint64_t now, uint64_t addr, uint8_t *buf, uint32_t size, bool *any)
{
    memset(buf, 0xee, size);
    assert_true(ws_own_writes_overlay(o, now, addr, buf, size, any));
}

static void test_seen_from_the_next_cycle(void **state)
{
    (void)state;
    ws_own_writes *o = ws_own_writes_create();
    assert_non_null(o);
    uint8_t b[8];
    bool any;
    assert_false(ws_own_writes_touch(o, 100, BASE, BASE + 4096));
    store(o, 10, BASE + 16, 4, 4, 0x11223344, 1);       /* lane 0: 4 bytes at BASE + 16 */
    seen(o, 10, BASE + 16, b, 4, &any);                 /* the same cycle: memory's bytes */
    assert_false(any);
    assert_int_equal(b[0], 0xee);
    assert_false(ws_own_writes_touch(o, 10, BASE + 16, BASE + 20));
    assert_true(ws_own_writes_touch(o, 11, BASE + 16, BASE + 20));
    assert_false(ws_own_writes_touch(o, 11, BASE + 20, BASE + 64));   /* clear of it */
    seen(o, 11, BASE + 14, b, 8, &any);                 /* two bytes before it, two after */
    assert_true(any);
    static const uint8_t want[8] = {0xee, 0xee, 0x44, 0x33, 0x22, 0x11, 0xee, 0xee};
    assert_memory_equal(b, want, 8);
    ws_own_writes_free(o);
}

static void test_later_wins(void **state)
{
    (void)state;
    ws_own_writes *o = ws_own_writes_create();
    assert_non_null(o);
    uint8_t b[4];
    bool any;
    /* every lane at one word: the highest lane's value */
    store(o, 5, BASE, 0, 4, 0x100, 0x0000ff00);
    seen(o, 6, BASE, b, 4, &any);
    assert_true(any);
    assert_int_equal(b[0], 0x0f);      /* 0x100 + 15 */
    assert_int_equal(b[1], 0x01);
    /* a later store over half of it: a 2-byte element */
    store(o, 7, BASE, 0, 2, 0xabcd, 1);
    seen(o, 7, BASE, b, 4, &any);      /* not yet */
    assert_int_equal(b[0], 0x0f);
    seen(o, 8, BASE, b, 4, &any);
    assert_int_equal(b[0], 0xcd);
    assert_int_equal(b[1], 0xab);
    assert_int_equal(b[2], 0x00);      /* the first store's upper bytes */
    assert_int_equal(b[3], 0x00);
    ws_own_writes_free(o);
}

static void test_lines_and_the_end(void **state)
{
    (void)state;
    ws_own_writes *o = ws_own_writes_create();
    assert_non_null(o);
    uint8_t b[16];
    bool any;
    /* 8-byte elements across a line's end: lanes 15 and 16 at 120 and 128 */
    store(o, 1, BASE, 8, 8, 0, UINT32_MAX);
    seen(o, 2, BASE + 124, b, 8, &any);
    assert_true(any);
    assert_int_equal(b[0], 0);         /* the upper half of lane 15's 15 */
    assert_int_equal(b[4], 16);        /* lane 16's low byte */
    /* a thousand lines, a word each: the table grows and keeps them all */
    for (uint32_t i = 0; i < 1000; i++) store(o, 3 + i, BASE + 4096 + 128 * (uint64_t)i, 0, 4, i, 1);
    for (uint32_t i = 0; i < 1000; i += 37) {
        seen(o, 2000, BASE + 4096 + 128 * (uint64_t)i, b, 4, &any);
        assert_true(any);
        assert_int_equal(b[0] | b[1] << 8, i);
    }
    seen(o, 2000, BASE + 4096 + 4, b, 4, &any);    /* beside one: not written */
    assert_false(any);
    ws_own_writes_clear(o);
    assert_false(ws_own_writes_touch(o, 3000, BASE, BASE + 1000000));
    seen(o, 3000, BASE, b, 16, &any);
    assert_false(any);
    /* and it works on after the end */
    store(o, 3000, BASE + 64, 0, 1, 7, 1);
    seen(o, 3001, BASE + 64, b, 1, &any);
    assert_true(any);
    assert_int_equal(b[0], 7);
    ws_own_writes_free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seen_from_the_next_cycle),
        cmocka_unit_test(test_later_wins),
        cmocka_unit_test(test_lines_and_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
