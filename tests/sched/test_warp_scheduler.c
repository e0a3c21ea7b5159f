/* A sub-partition's warp scheduler alone (sim/sched/warp_scheduler.h):
 * given which warp slots are ready, their ages and which wait on global
 * memory, the slot each policy issues from, cycle after cycle, worked by
 * hand from the policies' definitions in the header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/sched/warp_scheduler.h"

/* Picks n times with the same inputs and checks each choice. */
static void expect(ws_warp_scheduler *s, const bool *ready, const uint64_t *age,
                   const bool *long_wait, const int32_t *want, int n)
{
    for (int i = 0; i < n; i++) assert_int_equal(ws_sched_pick(s, ready, age, long_wait), want[i]);
}

/* Loose round-robin: the first ready slot after the last issued, wrapping;
 * age plays no part. */
static void test_lrr(void **state)
{
    (void)state;
    ws_warp_scheduler s;
    ws_sched_init(&s, WS_SCHED_LRR, 5, 0);
    bool ready[5] = {true, false, true, true, false};
    uint64_t age[5] = {9, 1, 8, 7, 6};
    expect(&s, ready, age, NULL, (const int32_t[]){0, 2, 3, 0, 2}, 5);
    /* slot 4 becomes ready: it is next after 2 ... 3 */
    ready[4] = true;
    expect(&s, ready, age, NULL, (const int32_t[]){3, 4, 0}, 3);
    /* the last issued is picked again only when it alone is ready */
    bool only0[5] = {true, false, false, false, false};
    expect(&s, only0, age, NULL, (const int32_t[]){0, 0}, 2);
}

/* Greedy-then-oldest: stay with the last issued while it is ready, else
 * the smallest age (ties to the lower slot). */
static void test_gto(void **state)
{
    (void)state;
    ws_warp_scheduler s;
    ws_sched_init(&s, WS_SCHED_GTO, 4, 0);
    bool ready[4] = {true, true, true, true};
    uint64_t age[4] = {40, 20, 20, 10};
    expect(&s, ready, age, NULL, (const int32_t[]){3, 3, 3}, 3);
    ready[3] = false;                   /* stalls: the oldest of the rest, slot 1 before 2 */
    expect(&s, ready, age, NULL, (const int32_t[]){1, 1}, 2);
    ready[3] = true;                    /* ready again, but 1 keeps going */
    expect(&s, ready, age, NULL, (const int32_t[]){1}, 1);
    ready[1] = false;                   /* now the oldest is 3 again */
    expect(&s, ready, age, NULL, (const int32_t[]){3}, 1);
}

/* Nothing ready: -1, and the last issued stays what it was (lrr resumes
 * after it, gto returns to it). */
static void test_none_ready(void **state)
{
    (void)state;
    bool none[3] = {false, false, false}, all[3] = {true, true, true};
    uint64_t age[3] = {3, 2, 1};
    ws_warp_scheduler s;
    ws_sched_init(&s, WS_SCHED_LRR, 3, 0);
    assert_int_equal(ws_sched_pick(&s, none, age, NULL), -1);
    expect(&s, all, age, NULL, (const int32_t[]){0, 1}, 2);
    assert_int_equal(ws_sched_pick(&s, none, age, NULL), -1);
    assert_int_equal(s.last, 1);
    expect(&s, all, age, NULL, (const int32_t[]){2}, 1);
    ws_sched_init(&s, WS_SCHED_GTO, 3, 0);
    bool r[3] = {true, true, false};
    expect(&s, r, age, NULL, (const int32_t[]){1}, 1);
    assert_int_equal(ws_sched_pick(&s, none, age, NULL), -1);
    expect(&s, all, age, NULL, (const int32_t[]){1}, 1);   /* greedy, not the oldest (2) */
}

/* Two-level with six slots and an active set of two.  The list starts
 * 0 1 | 2 3 4 5.  Round-robin inside {0, 1}; when 0 waits on memory it
 * moves to the end (1 2 | 3 4 5 0); then 1 waits too (2 3 | 4 5 0 1). */
static void test_two_level(void **state)
{
    (void)state;
    ws_warp_scheduler s;
    ws_sched_init(&s, WS_SCHED_TWO_LEVEL, 6, 2);
    bool ready[6] = {true, true, true, true, true, true};
    bool lw[6] = {false, false, false, false, false, false};
    uint64_t age[6] = {0, 0, 0, 0, 0, 0};
    expect(&s, ready, age, lw, (const int32_t[]){0, 1, 0}, 3);
    ready[0] = false;
    lw[0] = true;
    /* list 1 2 | 3 4 5 0: after 0 (now pending) round-robin starts at the
     * list's head */
    expect(&s, ready, age, lw, (const int32_t[]){1, 2, 1}, 3);
    assert_int_equal(s.order[0], 1);
    assert_int_equal(s.order[5], 0);
    ready[1] = false;
    lw[1] = true;
    expect(&s, ready, age, lw, (const int32_t[]){2, 3, 2}, 3);
    const uint8_t list[6] = {2, 3, 4, 5, 0, 1};
    assert_memory_equal(s.order, list, sizeof list);
    /* 0 and 1 come back ready but stay pending behind the active set */
    ready[0] = ready[1] = true;
    lw[0] = lw[1] = false;
    expect(&s, ready, age, lw, (const int32_t[]){3, 2}, 2);
    /* the active set stalls without waiting on memory (a barrier, say):
     * no demotion, the first ready pending warp in list order issues */
    ready[2] = ready[3] = false;
    ready[4] = false;
    expect(&s, ready, age, lw, (const int32_t[]){5, 5}, 2);
    assert_memory_equal(s.order, list, sizeof list);
}

/* Demotions in one pick stop after a full turn of the list: when every
 * warp waits on memory, the pick still returns a ready one. */
static void test_two_level_all_waiting(void **state)
{
    (void)state;
    ws_warp_scheduler s;
    ws_sched_init(&s, WS_SCHED_TWO_LEVEL, 3, 2);
    bool ready[3] = {false, false, true};
    bool lw[3] = {true, true, true};
    uint64_t age[3] = {0, 0, 0};
    assert_int_equal(ws_sched_pick(&s, ready, age, lw), 2);
    bool none[3] = {false, false, false};
    assert_int_equal(ws_sched_pick(&s, none, age, lw), -1);
}

/* Slots beyond the scheduler's limit are not owned; an active set of 0 is
 * one warp; an active set as large as the slots is round-robin. */
static void test_init_limits(void **state)
{
    (void)state;
    ws_warp_scheduler s;
    ws_sched_init(&s, WS_SCHED_TWO_LEVEL, 100, 0);
    assert_int_equal(s.nslots, WS_SCHED_MAX_WARPS);
    assert_int_equal(s.active_size, 1);
    assert_int_equal(s.last, -1);
    ws_sched_init(&s, WS_SCHED_TWO_LEVEL, 3, 8);
    bool ready[3] = {true, true, true};
    uint64_t age[3] = {0, 0, 0};
    expect(&s, ready, age, NULL, (const int32_t[]){0, 1, 2, 0}, 4);
    assert_string_equal(ws_sched_policy_name(WS_SCHED_LRR), "lrr");
    assert_string_equal(ws_sched_policy_name(WS_SCHED_GTO), "gto");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr),
        cmocka_unit_test(test_gto),
        cmocka_unit_test(test_none_ready),
        cmocka_unit_test(test_two_level),
        cmocka_unit_test(test_two_level_all_waiting),
        cmocka_unit_test(test_init_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
