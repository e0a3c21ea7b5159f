/* The issue pipeline on the teaching GPU (configs/teaching.ini: 1 GHz,
 * latencyFp32 4, one FP32 warp instruction per cycle per sub-partition,
 * latencyConstant 10, latencyL2Hit 200): dependent chains, independent
 * chains, latency hiding by warps. */
#include "timing_util.h"

/* chains independent FFMA chains of n each, interleaved, by every thread;
 * each chain's result stored (every thread to the same words). */
static void chain_kernel(tbuf *b, int chains, int n)
{
    tb(b, PTX_HEAD ".visible .entry k(.param .u64 out)\n{\n"
          " .reg .f32 %%f<%d>;\n .reg .b64 %%rd<2>;\n"
          " ld.param.u64 %%rd1, [out];\n", chains + 2);
    for (int c = 1; c <= chains; c++) tb(b, " mov.f32 %%f%d, 0f3F800000;\n", c);
    for (int i = 0; i < n; i++)
        for (int c = 1; c <= chains; c++) tb(b, " fma.rn.f32 %%f%d, %%f%d, %%f%d, %%f%d;\n", c, c, c, c);
    for (int c = 1; c <= chains; c++) tb(b, " st.global.f32 [%%rd1+%d], %%f%d;\n", 4 * (c - 1), c);
    tb(b, " ret;\n}\n");
}

static uint64_t chain_cycles(int chains, int n, uint32_t warps, ws_timing_stats *ts)
{
    tbuf b = {.n = 0};
    chain_kernel(&b, chains, n);
    tctx t;
    tt_load(&t, &b);
    ws_gpu_config g;
    tt_config(&g, "teaching");
    uint64_t out = t_alloc(&t, NULL, 4 * (size_t)chains);
    t_p64(&t, out);
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(32 * warps, 1, 1), 0, 16, ts);
    t_free(&t);
    return ts->cycles;
}

/* One warp, one chain: ld.param issues at 0 (its value ready at 10); the
 * mov at 1 (ready at 5); FFMA k at 5 + 4(k-1), the last ready at 5 + 4N;
 * the store issues then (N >= 2: the address is ready by 10) and is
 * acknowledged by L2 200 cycles later; the warp's exit waits for it.
 * cycles = 4N + 205. */
static void test_dependent_chain(void **state)
{
    (void)state;
    ws_timing_stats ts;
    for (int n = 4; n <= 64; n *= 4) {
        assert_int_equal(chain_cycles(1, n, 1, &ts), 4 * (uint64_t)n + 205);
        assert_int_equal(ts.warp_insts, (uint64_t)n + 4);
        /* the warp waits 3 cycles after each FFMA on its result */
        assert_int_equal(ts.stall[WS_STALL_WAIT] >= 3 * (uint64_t)n, true);
    }
}

/* Independent chains interleave.  c <= 4 chains: the movs issue at 1..c
 * (ready 5..c+4); round r of chain j issues at 5 + 4(r-1) + (j-1), inside
 * the latency shadow of the round before, so the last FFMA (chain c,
 * round N) is ready at 4N + c + 4; the stores follow one per cycle, the
 * last at 4N + c + 4, acknowledged 200 later: 4N + 204 + c.  With 8 chains
 * issue is the limit: the movs take cycles 1..8, a round takes 8 cycles,
 * chain j of round r issues at 9 + 8(r-1) + (j-1), the last at 8N + 8; the
 * 8 stores issue at 8N+9 .. 8N+16: 8N + 216. */
static void test_independent_chains_overlap(void **state)
{
    (void)state;
    ws_timing_stats ts;
    enum { N = 32 };
    for (int c = 1; c <= 4; c++)
        assert_int_equal(chain_cycles(c, N, 1, &ts), 4 * N + 204 + (uint64_t)c);
    assert_int_equal(chain_cycles(8, N, 1, &ts), 8 * N + 216);
    /* the 8-chain kernel issues an FFMA every cycle of its FFMA phase */
    assert_int_equal(ts.pipe_insts[WS_PIPE_FP32], 8 * N + 8);
}

/* k warps per sub-partition running a dependent FFMA chain of N: each
 * warp issues 1 cycle in every 4 (C = 1, L = 3), so a sub-partition's
 * issue slots are used min(1, k * C / (C + L)) = min(1, k / 4) of the
 * FFMA phase.  The phase is the whole run less the 205 cycles of prologue
 * and store of test_dependent_chain; in it each sub-partition issues k * N
 * FFMAs. */
static void test_latency_hiding(void **state)
{
    (void)state;
    enum { N = 512 };
    for (uint32_t k = 1; k <= 6; k++) {
        ws_timing_stats ts;
        uint64_t cycles = chain_cycles(1, N, 4 * k, &ts);
        double expect = k >= 4 ? 1.0 : k / 4.0;
        double util = (double)(k * N) / (double)(cycles - 205);
        assert_true(util > expect * 0.98 && util <= expect * 1.0001);
        assert_int_equal(ts.pipe_insts[WS_PIPE_FP32], 4 * k * (N + 1));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_chain),
        cmocka_unit_test(test_independent_chains_overlap),
        cmocka_unit_test(test_latency_hiding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
