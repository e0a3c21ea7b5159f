/* The reconvergence stack on its own: divergence nested deeper than the
 * entries it keeps inline, popped back path by path, and lanes split off
 * and counted.  Expected entries are worked out by hand from the stack's
 * rules (simt_stack.h): a divergent branch turns the top into the
 * reconvergence point and pushes the fall-through path, then the taken
 * path on top. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "sim/core/simt_stack.h"

enum { DEPTH = 6 };     /* 13 entries: past WS_STACK_INLINE */

/* Level k: every live lane but lane k takes the branch to 100 + k; lane k
 * falls through to 200 + k; both reconverge at 1000 + k. */
static void diverge(ws_simt_stack *s)
{
    assert_true(ws_stack_init(s, 0, UINT32_MAX));
    for (int k = 0; k < DEPTH; k++) {
        uint32_t live = ws_stack_top(s)->mask;
        assert_int_equal(ws_stack_branch(s, live & ~(UINT32_C(1) << k), 100 + k, 200 + k, 1000 + k), 1);
    }
}

static void test_deep_divergence(void **state)
{
    (void)state;
    ws_simt_stack s = {0};
    diverge(&s);
    assert_int_equal(s.n, 1 + 2 * DEPTH);
    assert_int_equal(ws_stack_lanes(&s), UINT32_MAX);
    for (int k = DEPTH - 1; k >= 0; k--) {
        uint32_t taken = UINT32_MAX << (k + 1);
        ws_stack_entry *t = ws_stack_top(&s);
        assert_int_equal(t->mask, taken);
        assert_int_equal(t->rpc, 1000 + k);
        assert_int_equal(t->pc, k == DEPTH - 1 ? 100 + k : 1000 + k + 1);
        t->pc = 1000 + k;                       /* the taken path reaches its rpc */
        assert_true(ws_stack_settle(&s));
        t = ws_stack_top(&s);
        assert_int_equal(t->pc, 200 + k);       /* the fall-through path runs */
        assert_int_equal(t->mask, UINT32_C(1) << k);
        t->pc = 1000 + k;
        assert_true(ws_stack_settle(&s));
        t = ws_stack_top(&s);                   /* reconverged: the path before the branch */
        assert_int_equal(t->pc, 1000 + k);
        assert_int_equal(t->mask, UINT32_MAX << k);
    }
    assert_int_equal(s.n, 1);
    ws_stack_top(&s)->mask = 0;
    assert_false(ws_stack_settle(&s));
    ws_stack_free(&s);
}

static void test_split_and_remove(void **state)
{
    (void)state;
    ws_simt_stack s = {0}, d = {0};
    diverge(&s);
    assert_true(ws_stack_split(&s, 0x3, &d));
    assert_int_equal(ws_stack_lanes(&s), ~UINT32_C(3));
    assert_int_equal(ws_stack_lanes(&d), 3);
    /* d: the bottom (lanes 0-1), level 0's fall-through (lane 0), level
     * 0's taken path now the reconvergence point of level 1 (lane 1),
     * level 1's fall-through (lane 1) */
    assert_int_equal(d.n, 4);
    assert_int_equal(ws_stack_top(&d)->pc, 201);
    assert_true(ws_stack_holds(&d, 200, 1000));
    ws_stack_remove_lanes(&s, UINT32_C(1) << 31);
    assert_int_equal(ws_stack_lanes(&s), ~UINT32_C(3) & ~(UINT32_C(1) << 31));
    assert_int_equal(ws_stack_at(&s, s.n - 1)->mask, (UINT32_MAX << DEPTH) & ~(UINT32_C(1) << 31));
    ws_stack_free(&s);
    ws_stack_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_divergence),
        cmocka_unit_test(test_split_and_remove),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
