/* A barrier that names its thread count (bar.sync a, b) completes when
 * that many threads have arrived, while the block's other threads still
 * run (docs/SEMANTICS.md), timed and functionally: warpsim passes over a
 * block's barriers only when no warp of it is at work, unless its kernel
 * has such a barrier (sm.c sync_block, launch.c block_round). */
#include "timing_util.h"

enum { THREADS = 128, N = 400 };

/* Loads b, whose one kernel takes out: a word for each thread. */
static void load_with_out(tctx *t, const tbuf *b)
{
    tt_load(t, b);
    t_p64(t, t_alloc(t, NULL, THREADS * 4));
}

static void named_kernel(tctx *t)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry pairs(.param .u64 out)\n{\n"
           " .reg .b32 %%r<8>;\n .reg .b64 %%rd<4>;\n .reg .pred %%p<3>;\n"
           " ld.param.u64 %%rd1, [out];\n"
           " mov.u32 %%r1, %%tid.x;\n shr.u32 %%r2, %%r1, 6;\n"
           " setp.ne.u32 %%p1, %%r2, 0;\n @%%p1 bra SLOW;\n"
           " bar.sync 1, 64;\n mov.u32 %%r3, %%clock;\n bra STORE;\n"
           "SLOW:\n mov.u32 %%r4, 0;\n"
           "LOOP:\n add.u32 %%r4, %%r4, 1;\n setp.lt.u32 %%p2, %%r4, %d;\n @%%p2 bra LOOP;\n"
           " mov.u32 %%r3, %%clock;\n bar.sync 2, 64;\n"
           "STORE:\n mul.wide.u32 %%rd2, %%r1, 4;\n add.u64 %%rd3, %%rd1, %%rd2;\n"
           " st.global.u32 [%%rd3], %%r3;\n ret;\n}\n", N);
    load_with_out(t, &b);
}

static void read_out(tctx *t, uint32_t *h)
{
    uint64_t out;
    memcpy(&out, t->params, 8);
    assert_true(ws_devmem_read(t->mem, out, h, THREADS * 4));
}

/* A block of four warps: warps 0-1 meet at barrier 1 (64 threads) at
 * once, while warps 2-3 first count to N and then meet at barrier 2.  Each
 * thread stores %clock as it leaves its barrier (warps 0-1) or its loop
 * (warps 2-3): warps 0-1 must leave theirs long before warps 2-3 end
 * their loop. */
static void test_named_barrier_completes_while_others_run(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h200");
    tctx t;
    named_kernel(&t);
    ws_timing_stats ts;
    tt_run(&t, &g, "pairs", D3(1, 1, 1), D3(THREADS, 1, 1), 0, 16, &ts);
    uint32_t h[THREADS];
    read_out(&t, h);
    /* the loop issues three instructions an iteration, one a cycle at
     * most, so warps 2-3 leave it 3 * N cycles after they start at the
     * earliest; warps 0-1 arrive at their barrier together and leave it
     * within the first hundred cycles (24 as the model stands) */
    uint32_t slow_min = UINT32_MAX, fast_max = 0;
    for (uint32_t i = 0; i < 64; i++) fast_max = h[i] > fast_max ? h[i] : fast_max;
    for (uint32_t i = 64; i < THREADS; i++) slow_min = h[i] < slow_min ? h[i] : slow_min;
    assert_true(slow_min >= 3 * N);
    assert_true(fast_max < 100);
    assert_true(ts.cycles > slow_min);
    t_free(&t);
}

/* Warps 2-3 wait, spinning on a flag in shared memory, for warps 0-1 to
 * leave barrier 1 (64 threads) and raise it: the launch completes only if
 * that barrier completes while warps 2-3 run.  Functionally (one warp's
 * step after another's) and timed. */
static void handoff_kernel(tctx *t)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry handoff(.param .u64 out)\n{\n"
           " .reg .b32 %%r<8>;\n .reg .b64 %%rd<4>;\n .reg .pred %%p<4>;\n"
           " .shared .align 4 .u32 flag;\n"
           " ld.param.u64 %%rd1, [out];\n"
           " mov.u32 %%r1, %%tid.x;\n shr.u32 %%r2, %%r1, 6;\n"
           " setp.ne.u32 %%p3, %%r1, 0;\n @%%p3 bra ZERO;\n st.volatile.shared.u32 [flag], 0;\n"
           "ZERO:\n bar.sync 0;\n"
           " setp.ne.u32 %%p1, %%r2, 0;\n @%%p1 bra WAIT;\n"
           " bar.sync 1, 64;\n"
           " @%%p3 bra DONE;\n mov.u32 %%r3, 1;\n st.volatile.shared.u32 [flag], %%r3;\n bra DONE;\n"
           "WAIT:\n ld.volatile.shared.u32 %%r4, [flag];\n setp.eq.u32 %%p2, %%r4, 0;\n @%%p2 bra WAIT;\n"
           " mul.wide.u32 %%rd2, %%r1, 4;\n add.u64 %%rd3, %%rd1, %%rd2;\n st.global.u32 [%%rd3], %%r4;\n"
           "DONE:\n ret;\n}\n");
    load_with_out(t, &b);
}

static void check_handoff(tctx *t)
{
    uint32_t h[THREADS];
    read_out(t, h);
    for (uint32_t i = 64; i < THREADS; i++) assert_int_equal(h[i], 1);
}

static void test_named_barrier_handoff(void **state)
{
    (void)state;
    tctx t;
    handoff_kernel(&t);
    if (!t_run(&t, "handoff", D3(1, 1, 1), D3(THREADS, 1, 1), 0, NULL, 100000)) fail_msg("%s", t.err.msg);
    check_handoff(&t);
    t_free(&t);
    ws_gpu_config g;
    tt_config(&g, "h200");
    handoff_kernel(&t);
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(THREADS, 1, 1), .params = t.params, .params_size = t.nparams};
    ws_timing_options o = ws_timing_defaults();
    o.regs_per_thread = 16;
    o.max_cycles = 1000000;     /* a barrier never completed: a fault, not a hang */
    ws_timing_stats ts;
    if (!ws_launch_timed(t.p, ws_program_kernel(t.p, "handoff"), &l, &g, &o, &t.st, &ts, &t.err))
        fail_msg("%s", t.err.msg);
    check_handoff(&t);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_barrier_completes_while_others_run),
        cmocka_unit_test(test_named_barrier_handoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
