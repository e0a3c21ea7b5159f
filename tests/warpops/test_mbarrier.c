/* mbarrier objects: arrivals, phase completion, parity and state waits,
 * arrive_drop and pending counts, stepped by hand through the PTX ISA's
 * description of the mbarrier phases. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

static void test_phase_completes_after_count_arrivals(void **state)
{
    (void)state;
    uint64_t w = ws_mbar_init(3), s0, s1, s2, s3;
    assert_true(ws_mbar_valid(w));
    assert_false(ws_mbar_phase_done(w, 0, true));           /* phase 0 is the current one */
    assert_true(ws_mbar_phase_done(w, 1, true));            /* "phase -1" (odd) is complete */
    assert_true(ws_mbar_arrive(&w, 1, false, &s0));
    assert_int_equal(ws_mbar_pending(s0), 3);              /* the state before the arrival */
    assert_true(ws_mbar_arrive(&w, 1, false, &s1));
    assert_false(ws_mbar_phase_done(w, s0, false));
    assert_false(ws_mbar_phase_done(w, 0, true));
    assert_true(ws_mbar_arrive(&w, 1, false, &s2));         /* the third arrival completes phase 0 */
    assert_int_equal(ws_mbar_pending(s2), 1);
    assert_true(ws_mbar_phase_done(w, s0, false));
    assert_true(ws_mbar_phase_done(w, s2, false));
    assert_true(ws_mbar_phase_done(w, 0, true));
    assert_false(ws_mbar_phase_done(w, 1, true));           /* phase 1 runs now */
    /* phase 1 expects 3 again; one arrival of count 3 completes it */
    assert_true(ws_mbar_arrive(&w, 3, false, &s3));
    assert_true(ws_mbar_phase_done(w, s0, false));
    assert_true(ws_mbar_phase_done(w, s3, false));
    assert_true(ws_mbar_phase_done(w, 1, true));
    assert_false(ws_mbar_phase_done(w, 0, true));           /* phase 2 (even) is current */
}

static void test_arrive_drop_and_overflow(void **state)
{
    (void)state;
    uint64_t w = ws_mbar_init(4), s;
    assert_true(ws_mbar_arrive(&w, 1, true, &s));            /* 3 pending, 3 expected later */
    assert_int_equal(ws_mbar_pending(s), 4);
    uint64_t before = w;
    assert_false(ws_mbar_arrive(&w, 4, false, &s));          /* more than pending: refused */
    assert_int_equal(w, before);
    assert_true(ws_mbar_arrive(&w, 3, false, &s));           /* phase 0 complete */
    assert_true(ws_mbar_phase_done(w, 0, true));
    assert_true(ws_mbar_arrive(&w, 2, false, &s));           /* phase 1 expects 3 */
    assert_int_equal(ws_mbar_pending(s), 3);
    assert_false(ws_mbar_phase_done(w, 1, true));
    assert_true(ws_mbar_arrive(&w, 1, false, &s));
    assert_true(ws_mbar_phase_done(w, 1, true));
}

static void test_init_and_inval(void **state)
{
    (void)state;
    assert_false(ws_mbar_valid(0));                          /* invalidated or never initialized */
    uint64_t w = ws_mbar_init(WS_MBAR_MAX_COUNT), s;
    assert_true(ws_mbar_valid(w));
    assert_true(ws_mbar_arrive(&w, WS_MBAR_MAX_COUNT - 1, false, &s));
    assert_int_equal(ws_mbar_pending(s), WS_MBAR_MAX_COUNT);
    assert_true(ws_mbar_arrive(&w, 1, false, &s));
    assert_true(ws_mbar_phase_done(w, 0, true));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phase_completes_after_count_arrivals),
        cmocka_unit_test(test_arrive_drop_and_overflow),
        cmocka_unit_test(test_init_and_inval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
