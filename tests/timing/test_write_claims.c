/* The lines of global memory a window's SMs claim (sim/core/write_claims.h):
 * worked by hand, a window's stores are apart exactly when no 128-byte line
 * is written by two SMs, and none spreads over more than eight lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/core/write_claims.h"

#define BASE UINT64_C(0x7f0000000000)

typedef struct claims_case {
    ws_write_claims c;
    uint64_t last[4];           /* each SM's memo */
} claims_case;

static void start(claims_case *k)
{
    assert_true(ws_write_claims_init(&k->c));
    for (int i = 0; i < 4; i++) k->last[i] = 0;
    ws_write_claims_next_window(&k->c);
}

static void store(claims_case *k, int32_t sm, uint64_t lo, uint64_t end)
{
    ws_write_claims_store(&k->c, sm, lo, end, &k->last[sm]);
}

static void test_disjoint_lines_are_apart(void **state)
{
    (void)state;
    claims_case k;
    start(&k);
    /* SM 0: bytes 0-127 twice and 256-383; SM 1: 128-255; SM 2: 384-895 (4 lines) */
    store(&k, 0, BASE, BASE + 128);
    store(&k, 1, BASE + 128, BASE + 256);
    store(&k, 0, BASE + 4, BASE + 8);
    store(&k, 0, BASE + 256, BASE + 384);
    store(&k, 2, BASE + 384, BASE + 896);
    assert_true(ws_write_claims_apart(&k.c));
    ws_write_claims_free(&k.c);
}

static void test_a_line_of_two_sms_clashes(void **state)
{
    (void)state;
    claims_case k;
    start(&k);
    store(&k, 0, BASE, BASE + 4);
    store(&k, 1, BASE + 124, BASE + 128);       /* other bytes, the same line */
    assert_false(ws_write_claims_apart(&k.c));
    /* the next window starts apart, and the line is SM 1's now */
    ws_write_claims_next_window(&k.c);
    assert_true(ws_write_claims_apart(&k.c));
    store(&k, 1, BASE, BASE + 4);
    store(&k, 1, BASE + 64, BASE + 68);
    assert_true(ws_write_claims_apart(&k.c));
    /* the memo holds SM 0's claim of the last window: not this one's */
    store(&k, 0, BASE, BASE + 4);
    assert_false(ws_write_claims_apart(&k.c));
    ws_write_claims_free(&k.c);
}

static void test_a_store_over_a_line_boundary_claims_both(void **state)
{
    (void)state;
    claims_case k;
    start(&k);
    store(&k, 0, BASE + 120, BASE + 136);       /* lines 0 and 1 */
    store(&k, 1, BASE + 200, BASE + 204);       /* line 1 */
    assert_false(ws_write_claims_apart(&k.c));
    ws_write_claims_free(&k.c);
}

static void test_wide_stores_and_marks_clash(void **state)
{
    (void)state;
    claims_case k;
    start(&k);
    store(&k, 0, BASE, BASE + 8 * 128);         /* eight lines: claimed */
    assert_true(ws_write_claims_apart(&k.c));
    store(&k, 1, BASE + 4096, BASE + 4096 + 9 * 128);     /* nine: too wide */
    assert_false(ws_write_claims_apart(&k.c));
    ws_write_claims_next_window(&k.c);
    ws_write_claims_clash(&k.c);                /* an atomic, say */
    assert_false(ws_write_claims_apart(&k.c));
    ws_write_claims_free(&k.c);
}

static void test_generations_wrap(void **state)
{
    (void)state;
    claims_case k;
    start(&k);
    /* 5,000 windows: the generations (12 bits) wrap; each window SM w % 4
     * claims a line of its own and line 0, which only it claims in it */
    for (int w = 0; w < 5000; w++) {
        ws_write_claims_next_window(&k.c);
        int32_t sm = w % 4;
        store(&k, sm, BASE, BASE + 4);
        store(&k, sm, BASE + (uint64_t)(w + 1) * 128, BASE + (uint64_t)(w + 1) * 128 + 4);
        assert_true(ws_write_claims_apart(&k.c));
    }
    store(&k, 3, BASE, BASE + 4);       /* window 4999 was SM 3's */
    assert_true(ws_write_claims_apart(&k.c));
    store(&k, 2, BASE, BASE + 4);
    assert_false(ws_write_claims_apart(&k.c));
    ws_write_claims_free(&k.c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disjoint_lines_are_apart),
        cmocka_unit_test(test_a_line_of_two_sms_clashes),
        cmocka_unit_test(test_a_store_over_a_line_boundary_claims_both),
        cmocka_unit_test(test_wide_stores_and_marks_clash),
        cmocka_unit_test(test_generations_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
