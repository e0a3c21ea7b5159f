/* SASS-informed timing: under --sass the timing model sees a group of PTX
 * accesses that ptxas merged as the one wide access the GPU makes (the
 * leader's addresses, the group's bytes per lane); the followers make no
 * request and their registers are ready with the leader's.  Worked by hand
 * on the teaching GPU (configs/teaching.ini: shared-memory latency 30, one
 * L1 wavefront a cycle). */
#include "../timing/timing_util.h"
#include "frontend/sass/sass_listing.h"
#include "sim/core/sass_groups.h"

/* One warp: lane i reads the four words 4i .. 4i+3 of a shared array with
 * four ld.shared.f32 (line 7; tests/sass/data/wide.sass has them as one
 * LDS.128), and, with consume, stores the last of them (line 9); with
 * chain, then adds 1 to its lane number 32 times, each add waiting for the
 * one before, and stores the sum. */
static void wide_kernel(tbuf *b, bool consume, bool chain)
{
    tb(b, PTX_HEAD ".file 1 \"src/wide.cu\"\n.shared .align 16 .b8 sm[4096];\n"
          ".visible .entry k()\n{\n"
          " .reg .f32 %%f<5>;\n .reg .b32 %%r<8>;\n"
          " .loc 1 5 0\n"
          " mov.u32 %%r2, %%tid.x;\n"
          " shl.b32 %%r4, %%r2, 4;\n"
          " mov.u32 %%r5, sm;\n"
          " add.u32 %%r6, %%r5, %%r4;\n"
          " .loc 1 7 0\n"
          " ld.shared.f32 %%f1, [%%r6];\n"
          " ld.shared.f32 %%f2, [%%r6+4];\n"
          " ld.shared.f32 %%f3, [%%r6+8];\n"
          " ld.shared.f32 %%f4, [%%r6+12];\n");
    if (consume) tb(b, " .loc 1 9 0\n st.shared.f32 [%%r6+2048], %%f4;\n");
    if (chain) {
        tb(b, " .loc 1 10 0\n");
        for (int i = 0; i < 32; i++) tb(b, " add.u32 %%r2, %%r2, 1;\n");
        tb(b, " st.shared.u32 [%%r6+2560], %%r2;\n");
    }
    tb(b, " ret;\n}\n");
}

static uint64_t wide_cycles_of(bool sass, bool consume, bool chain, ws_timing_stats *ts, ws_launch_stats *st)
{
    tbuf b = {.n = 0};
    wide_kernel(&b, consume, chain);
    tctx t;
    tt_load(&t, &b);
    if (sass) {
        ws_sass_listing l;
        char msg[512];
        if (!ws_sass_read(WARPSIM_TEST_DATA "/wide.sass", &l, msg, sizeof msg)) fail_msg("%s", msg);
        ws_sass_applied a;
        if (!ws_program_apply_sass(t.p, &l, &a, &t.err)) fail_msg("%s", t.err.msg);
        assert_int_equal(a.groups, 1);
        assert_int_equal(a.unmatched, 0);
        ws_sass_free(&l);
    }
    ws_gpu_config g;
    tt_config(&g, "teaching");
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 16, ts);
    *st = t.st;
    t_free(&t);
    return ts->cycles;
}

static uint64_t wide_cycles(bool sass, bool consume, ws_timing_stats *ts, ws_launch_stats *st)
{
    return wide_cycles_of(sass, consume, false, ts, st);
}

/* Lane i's words 4i + j lie in bank (4i + j) % 32: lanes i, i+8, i+16,
 * i+24 read four words of one bank, so each 4-byte load is a 4-way
 * conflict, 4 passes; the four hold the L1 data stage 16 cycles.  Issued
 * one a cycle from t, they start at t, t+4, t+8, t+12; the last one's data
 * is ready at t + 12 + 3 + 30.  As one 16-byte load the warp goes a
 * quarter at a time, each quarter 128 contiguous bytes, one pass: 4
 * passes from t, ready at t + 3 + 30, 12 cycles earlier, so the launch
 * ends 12 cycles sooner. */
static void test_merged_loads_one_wide_access(void **state)
{
    (void)state;
    ws_timing_stats ts;
    ws_launch_stats st;
    uint64_t ptx = wide_cycles(false, false, &ts, &st);
    assert_int_equal(ts.l1_wavefronts, 16);
    assert_int_equal(st.shared_ld.requests, 4);
    assert_int_equal(st.shared_ld.wavefronts, 16);
    uint64_t sass = wide_cycles(true, false, &ts, &st);
    assert_int_equal(ts.l1_wavefronts, 4);
    assert_int_equal(st.shared_ld.requests, 1);
    assert_int_equal(st.shared_ld.wavefronts, 4);
    assert_int_equal(ptx - sass, 12);
}

/* A store of the last follower's register waits for the leader's data:
 * its register is ready at t + 33 (above), so the store issues then and
 * the launch ends when it completes: as long after t + 33 as without the
 * listing it ends after t + 45, its store issued at t + 45 (4 passes and
 * the latency, 33 cycles, either way).  Had the follower's register been
 * ready a cycle after it issued (t + 4), the store would start when the
 * leader's passes end (t + 4) and the launch end at t + 37, 4 cycles after
 * the loads alone, not 33. */
static void test_follower_waits_for_leader(void **state)
{
    (void)state;
    ws_timing_stats ts;
    ws_launch_stats st;
    uint64_t ptx_loads = wide_cycles(false, false, &ts, &st);
    uint64_t ptx_store = wide_cycles(false, true, &ts, &st);
    uint64_t sass_loads = wide_cycles(true, false, &ts, &st);
    uint64_t sass_store = wide_cycles(true, true, &ts, &st);
    assert_true(ptx_store > ptx_loads);
    assert_int_equal(sass_store - sass_loads, ptx_store - ptx_loads);
    assert_int_equal(ptx_store - sass_store, 12);
}

/* The followers are no SASS instructions: they take no issue slot.  With
 * 32 dependent adds after the loads (longer than the loads' 33 or 45
 * cycles), the launch ends with the adds' store: the first add issues the
 * cycle after the last load, t + 4 from PTX, t + 1 with the listing (the
 * three followers issue in the leader's cycle), so 3 cycles sooner. */
static void test_followers_take_no_issue_slot(void **state)
{
    (void)state;
    ws_timing_stats ts;
    ws_launch_stats st;
    uint64_t ptx = wide_cycles_of(false, false, true, &ts, &st);
    uint64_t sass = wide_cycles_of(true, false, true, &ts, &st);
    assert_true(ptx > wide_cycles(false, false, &ts, &st));     /* the adds' chain decides the end */
    assert_int_equal(ptx - sass, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merged_loads_one_wide_access),
        cmocka_unit_test(test_follower_waits_for_leader),
        cmocka_unit_test(test_followers_take_no_issue_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
