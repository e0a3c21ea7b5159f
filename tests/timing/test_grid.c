/* The grid in time: waves of blocks as the occupancy rule allows them,
 * cycle skipping, determinism, the dispatcher and the scheduler policies. */
#include "timing_util.h"
#include "sim/sched/dispatcher.h"
#include "sim/sched/warp_scheduler.h"

/* One warp per block: a dependent chain of n FFMAs, the result stored to
 * out[block] (a line of its own).  Alone, a block takes 4n + 214 cycles:
 * as in test_pipeline.c's test_dependent_chain the last FFMA issues at
 * 4n + 1; then mov %ctaid at 4n + 2, mul.wide at 4n + 6, add at 4n + 10,
 * the store at 4n + 14, acknowledged by L2 200 cycles later. */
static void grid_kernel(tctx *t, int n)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry k(.param .u64 out)\n{\n"
           " .reg .f32 %%f<2>;\n .reg .b32 %%r<2>;\n .reg .b64 %%rd<4>;\n"
           " ld.param.u64 %%rd1, [out];\n"
           " mov.f32 %%f1, 0f3F800000;\n");
    for (int i = 0; i < n; i++) tb(&b, " fma.rn.f32 %%f1, %%f1, %%f1, %%f1;\n");
    tb(&b, " mov.u32 %%r1, %%ctaid.x;\n mul.wide.u32 %%rd2, %%r1, 128;\n add.u64 %%rd3, %%rd1, %%rd2;\n"
           " st.global.f32 [%%rd3], %%f1;\n ret;\n}\n");
    tt_load(t, &b);
}

static uint64_t grid_cycles(const ws_gpu_config *g, int n, uint32_t blocks, uint32_t smem,
                            ws_timing_stats *ts)
{
    tctx t;
    grid_kernel(&t, n);
    t_p64(&t, t_alloc(&t, NULL, (size_t)blocks * 128));
    tt_run_opt(&t, g, "k", D3(blocks, 1, 1), D3(32, 1, 1), smem, 16, true, ts);
    t_free(&t);
    return ts->cycles;
}

/* The teaching GPU has 2 SMs of 32 KB shared memory.  With 20 KB of
 * dynamic shared memory (opted in above the 16 KB default) a block (20 KB
 * + 1 KB reserved) fits once per SM:
 * S = 2 slots.  2S + 1 = 5 blocks run in three waves, each as long as one
 * block alone (the next block starts on an SM in the cycle the last one
 * leaves).  With 10 KB, 2 blocks fit per SM (S = 4): 9 blocks, 3 waves. */
static void test_waves(void **state)
{
    (void)state;
    enum { N = 64 };
    ws_gpu_config g;
    tt_config(&g, "teaching");
    ws_timing_stats ts;
    uint64_t one = grid_cycles(&g, N, 1, 20 * 1024, &ts);
    assert_int_equal(one, 4 * N + 214);
    assert_int_equal(ts.blocks_per_sm, 1);
    assert_int_equal(grid_cycles(&g, N, 2, 20 * 1024, &ts), one);
    assert_int_equal(grid_cycles(&g, N, 4, 20 * 1024, &ts), 2 * one);
    assert_int_equal(grid_cycles(&g, N, 5, 20 * 1024, &ts), 3 * one);
    assert_true(ts.waves > 2.49 && ts.waves < 2.51);
    assert_int_equal(grid_cycles(&g, N, 9, 10 * 1024, &ts), 3 * one);
    assert_int_equal(ts.blocks_per_sm, 2);
    /* the tail: the third wave has one block, so one SM idles through it
     * and the achieved occupancy is below the theoretical */
    assert_true(ts.occupancy_achieved <= ts.occupancy_theoretical);
}

/* A one-block kernel costs the same simulation work on 1 SM and on the
 * 132 SMs of the h100 config: the same cycles, the same main-loop
 * iterations and SM steps (idle SMs are never stepped). */
static void test_cycle_skipping(void **state)
{
    (void)state;
    ws_gpu_config big, small;
    tt_config(&big, "h100");
    small = big;
    small.multiProcessorCount = 1;
    ws_timing_stats a, b;
    uint64_t ca = grid_cycles(&small, 64, 1, 0, &a);
    uint64_t cb = grid_cycles(&big, 64, 1, 0, &b);
    assert_int_equal(ca, cb);
    assert_int_equal(a.loop_iterations, b.loop_iterations);
    assert_int_equal(a.sm_steps, b.sm_steps);
    /* and the stall cycles are skipped: far fewer steps than cycles (a
     * step per FFMA issue and one per wake-up, not one per cycle) */
    assert_true(a.loop_iterations < a.cycles / 2);
}

/* The same launch twice gives the same statistics, all of them. */
static void test_determinism(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "teaching");
    ws_timing_stats a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    grid_cycles(&g, 16, 7, 10 * 1024, &a);
    grid_cycles(&g, 16, 7, 10 * 1024, &b);
    assert_int_equal(a.cycles, b.cycles);
    assert_int_equal(a.warp_insts, b.warp_insts);
    assert_int_equal(a.loop_iterations, b.loop_iterations);
    assert_int_equal(a.sm_steps, b.sm_steps);
    assert_int_equal(a.l2_sectors, b.l2_sectors);
    assert_int_equal(a.dram_bytes_written, b.dram_bytes_written);
    assert_memory_equal(a.stall, b.stall, sizeof a.stall);
    assert_memory_equal(a.pipe_busy, b.pipe_busy, sizeof a.pipe_busy);
    assert_true(a.ipc == b.ipc && a.occupancy_achieved == b.occupancy_achieved);
}

/* The dispatcher deals 2S + 1 blocks over S slots: S at once, then one
 * per freed slot, and nothing more when the grid is placed. */
static void test_dispatcher(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "teaching");
    ws_dispatcher d;
    char err[256];
    ws_occ_input in = {.threads = 32, .regs = 16, .dynamic_smem = 20 * 1024, .carveout = -1, .optin = true};
    assert_true(ws_dispatcher_init(&d, &g, &in, 5, err, sizeof err));
    assert_int_equal(ws_dispatcher_wave_size(&d), 2);
    assert_int_equal(ws_dispatcher_place(&d, 0), 0);
    assert_int_equal(ws_dispatcher_place(&d, 1), 1);
    assert_int_equal(ws_dispatcher_place(&d, 0), -1);       /* full */
    ws_dispatcher_retire(&d, 1);
    assert_int_equal(ws_dispatcher_place(&d, 1), 2);
    ws_dispatcher_retire(&d, 0);
    ws_dispatcher_retire(&d, 1);
    assert_int_equal(ws_dispatcher_place(&d, 0), 3);
    assert_int_equal(ws_dispatcher_place(&d, 1), 4);
    ws_dispatcher_retire(&d, 0);
    assert_int_equal(ws_dispatcher_place(&d, 0), -1);       /* grid placed */
    ws_dispatcher_free(&d);
    /* a block that cannot fit at all is the runtime's error */
    in.dynamic_smem = 40 * 1024;
    assert_false(ws_dispatcher_init(&d, &g, &in, 1, err, sizeof err));
    assert_non_null(strstr(err, "cudaError"));
}

/* Blocks set aside for a window (ws_dispatcher_take) and not needed go
 * back (ws_dispatcher_give_back) and are placed first, lowest first, the
 * backlog merged with what was left of it from earlier. */
static void test_dispatcher_set_aside(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "teaching");
    ws_dispatcher d;
    char err[256];
    ws_occ_input in = {.threads = 32, .regs = 16, .carveout = -1};
    assert_true(ws_dispatcher_init(&d, &g, &in, 12, err, sizeof err));
    for (int64_t b = 0; b < 6; b++) assert_int_equal(ws_dispatcher_take(&d), b);
    const uint64_t back[] = {1, 3, 5};              /* 0, 2 and 4 were needed */
    assert_true(ws_dispatcher_give_back(&d, back, 3));
    assert_true(ws_dispatcher_left(&d));
    assert_int_equal(ws_dispatcher_take(&d), 1);    /* the backlog first */
    assert_int_equal(ws_dispatcher_take(&d), 3);
    const uint64_t again[] = {1, 6};                /* 6 came from the grid */
    assert_int_equal(ws_dispatcher_take(&d), 5);
    assert_int_equal(ws_dispatcher_take(&d), 6);
    assert_true(ws_dispatcher_give_back(&d, again, 2));
    const uint64_t more[] = {3};                    /* merged between 1 and 6 */
    assert_true(ws_dispatcher_give_back(&d, more, 1));
    assert_int_equal(ws_dispatcher_take(&d), 1);
    assert_int_equal(ws_dispatcher_take(&d), 3);
    assert_int_equal(ws_dispatcher_take(&d), 6);
    for (int64_t b = 7; b < 12; b++) assert_int_equal(ws_dispatcher_take(&d), b);
    assert_false(ws_dispatcher_left(&d));
    assert_int_equal(ws_dispatcher_take(&d), -1);
    /* placing takes from the backlog too */
    const uint64_t last[] = {9};
    assert_true(ws_dispatcher_give_back(&d, last, 1));
    assert_int_equal(ws_dispatcher_place(&d, 1), 9);
    assert_int_equal(ws_dispatcher_place(&d, 1), -1);
    ws_dispatcher_free(&d);
}

static void test_scheduler_policies(void **state)
{
    (void)state;
    ws_warp_scheduler s;
    bool ready[4] = {true, true, false, true};
    uint64_t age[4] = {30, 10, 20, 40};
    bool longw[4] = {false, false, false, false};
    /* lrr: in slot order after the last issued, wrapping */
    ws_sched_init(&s, WS_SCHED_LRR, 4, 4);
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 0);
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 1);
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 3);
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 0);
    /* gto: the oldest first, then stay with it while it is ready */
    ws_sched_init(&s, WS_SCHED_GTO, 4, 4);
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 1);
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 1);
    ready[1] = false;
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 0);
    ready[1] = true;
    assert_int_equal(ws_sched_pick(&s, ready, age, NULL), 0);   /* greedy */
    /* two_level with an active set of 2 (slots 0, 1): round-robin inside;
     * a warp waiting on memory leaves it and slot 2 comes in */
    bool r2[4] = {true, true, true, true};
    ws_sched_init(&s, WS_SCHED_TWO_LEVEL, 4, 2);
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 0);
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 1);
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 0);
    r2[0] = false;
    longw[0] = true;
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 1);
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 2);
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 1);
    longw[0] = false;       /* back, but at the end of the list: pending */
    r2[0] = true;
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 2);
    r2[1] = r2[2] = false;  /* the active set stalls: a pending warp goes */
    assert_int_equal(ws_sched_pick(&s, r2, age, longw), 3);
    assert_string_equal(ws_sched_policy_name(WS_SCHED_TWO_LEVEL), "two_level");
}

/* Without a register count the occupancy rule gets the PTX estimate: a
 * small kernel lands on the floor of 16, and the stats say it was guessed. */
static void test_register_estimate(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "teaching");
    tctx t;
    grid_kernel(&t, 8);
    t_p64(&t, t_alloc(&t, NULL, 128));
    ws_timing_stats ts;
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 0, &ts);
    assert_true(ts.regs_estimated);
    assert_int_equal(ts.regs_per_thread, 16);
    assert_int_equal(ws_estimate_regs(t.p, ws_program_kernel(t.p, "k")), 16);
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 40, &ts);
    assert_false(ts.regs_estimated);
    assert_int_equal(ts.regs_per_thread, 40);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waves),
        cmocka_unit_test(test_cycle_skipping),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_dispatcher),
        cmocka_unit_test(test_dispatcher_set_aside),
        cmocka_unit_test(test_scheduler_policies),
        cmocka_unit_test(test_register_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
