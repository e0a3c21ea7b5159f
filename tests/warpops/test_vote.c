/* vote.sync: all / any / uni / ballot over partial masks, worked by hand and
 * as an H200 computed them (data/gpu_probe_sm90.txt, line "vote"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

static uint64_t vote1(ptx_subop mode, uint32_t mask, const uint64_t pred[32], int lane)
{
    uint64_t d[32];
    for (int i = 0; i < 32; i++) d[i] = 0xAB;
    ws_vote_exec(mode, mask, pred, d);
    for (int i = 0; i < 32; i++)
        if (!((mask >> i) & 1u)) assert_int_equal(d[i], 0xAB);   /* untouched */
    return d[lane];
}

/* Lanes 0..19 active, pred = (lane % 3 == 0): the probe's case.  Inactive
 * lanes carry pred = 1 to show they are not counted. */
static void test_partial_mask_mod3(void **state)
{
    (void)state;
    uint64_t pred[32];
    for (int i = 0; i < 32; i++) pred[i] = i >= 20 ? 1 : (i % 3 == 0);
    uint32_t m = 0x000FFFFFu;
    /* lanes 0 3 6 9 12 15 18: bits 0x1 0x8 0x40 0x200 0x1000 0x8000 0x40000 */
    assert_int_equal(vote1(PTX_SUB_VOTE_BALLOT, m, pred, 7), 0x00049249u);
    assert_int_equal(vote1(PTX_SUB_VOTE_ALL, m, pred, 0), 0);
    assert_int_equal(vote1(PTX_SUB_VOTE_ANY, m, pred, 19), 1);
    assert_int_equal(vote1(PTX_SUB_VOTE_UNI, m, pred, 3), 0);
}

static void test_uniform_predicates(void **state)
{
    (void)state;
    uint64_t t[32], f[32];
    for (int i = 0; i < 32; i++) { t[i] = (i & 1) ? 1 : 0; f[i] = (i & 1) ? 0 : 1; }
    uint32_t odd = 0xAAAAAAAAu;     /* the odd lanes: all true in t, all false in f */
    assert_int_equal(vote1(PTX_SUB_VOTE_ALL, odd, t, 1), 1);
    assert_int_equal(vote1(PTX_SUB_VOTE_UNI, odd, t, 1), 1);
    assert_int_equal(vote1(PTX_SUB_VOTE_BALLOT, odd, t, 1), 0xAAAAAAAAu);
    assert_int_equal(vote1(PTX_SUB_VOTE_ANY, odd, f, 3), 0);
    assert_int_equal(vote1(PTX_SUB_VOTE_ALL, odd, f, 3), 0);
    assert_int_equal(vote1(PTX_SUB_VOTE_UNI, odd, f, 3), 1);
    assert_int_equal(vote1(PTX_SUB_VOTE_BALLOT, odd, f, 3), 0);
}

static void test_single_lane_and_full_warp(void **state)
{
    (void)state;
    uint64_t pred[32] = { [31] = 1 };
    assert_int_equal(vote1(PTX_SUB_VOTE_BALLOT, 0x80000000u, pred, 31), 0x80000000u);
    assert_int_equal(vote1(PTX_SUB_VOTE_ALL, 0x80000000u, pred, 31), 1);
    assert_int_equal(vote1(PTX_SUB_VOTE_BALLOT, 0xFFFFFFFFu, pred, 0), 0x80000000u);
    assert_int_equal(vote1(PTX_SUB_VOTE_ANY, 0x7FFFFFFFu, pred, 0), 0);
    for (int i = 0; i < 32; i++) pred[i] = 1;
    assert_int_equal(vote1(PTX_SUB_VOTE_BALLOT, 0xFFFFFFFFu, pred, 9), 0xFFFFFFFFu);
    assert_int_equal(vote1(PTX_SUB_VOTE_ALL, 0xFFFFFFFFu, pred, 9), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_mask_mod3),
        cmocka_unit_test(test_uniform_predicates),
        cmocka_unit_test(test_single_lane_and_full_warp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
