/* A barrier that names its thread count (bar.sync a, b) completes when
 * that many threads have arrived, while the block's other threads still
 * run (docs/SEMANTICS.md), in the timing model as functionally.  A block
 * of four warps: warps 0-1 meet at barrier 1 (64 threads) at once, while
 * warps 2-3 first count to N and then meet at barrier 2.  Each thread
 * stores %clock as it leaves its barrier (warps 0-1) or its loop (warps
 * 2-3), and warps 0-1 must leave theirs long before warps 2-3 end their
 * loop; a barrier held until every warp of the block has stopped would
 * let them go only after it. */
#include "timing_util.h"

enum { THREADS = 128, N = 400 };

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
    tt_load(t, &b);
    t_p64(t, t_alloc(t, NULL, THREADS * 4));
}

static void read_clocks(tctx *t, uint32_t *h)
{
    uint64_t out;
    memcpy(&out, t->params, 8);
    assert_true(ws_devmem_read(t->mem, out, h, THREADS * 4));
}

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
    read_clocks(&t, h);
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

/* Functionally, each warp's value is its own; the launch completes. */
static void test_named_barrier_functional(void **state)
{
    (void)state;
    tctx t;
    named_kernel(&t);
    if (!t_run(&t, "pairs", D3(1, 1, 1), D3(THREADS, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_barrier_completes_while_others_run),
        cmocka_unit_test(test_named_barrier_functional),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
