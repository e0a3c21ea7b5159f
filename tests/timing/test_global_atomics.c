/* Global atomics in time on the teaching GPU (configs/teaching.ini): the
 * passes an atomic takes through the L1 data stage, and the slice's atomic
 * unit serializing operations on one address (sim/mem/l2_dram.h). */
#include "timing_util.h"

/* One warp: lane i adds 1 to word (i % groups) * spread + (i / groups) *
 * step of a global array, n times (red: no result). */
static uint64_t atomic_cycles_n(int n, uint32_t blocks, uint32_t groups, uint32_t spread, uint32_t step, ws_timing_stats *ts)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry k(.param .u64 a, .param .u32 groups, .param .u32 spread,"
           " .param .u32 step)\n{\n"
           " .reg .b32 %%r<12>;\n .reg .b64 %%rd<4>;\n"
           " ld.param.u64 %%rd1, [a];\n"
           " ld.param.u32 %%r1, [groups];\n"
           " ld.param.u32 %%r2, [spread];\n"
           " ld.param.u32 %%r3, [step];\n"
           " mov.u32 %%r4, %%tid.x;\n"
           " rem.u32 %%r5, %%r4, %%r1;\n"
           " div.u32 %%r6, %%r4, %%r1;\n"
           " mul.lo.u32 %%r7, %%r5, %%r2;\n"
           " mad.lo.u32 %%r8, %%r6, %%r3, %%r7;\n"
           " mul.wide.u32 %%rd2, %%r8, 4;\n"
           " add.u64 %%rd3, %%rd1, %%rd2;\n");
    for (int i = 0; i < n; i++) tb(&b, " red.global.add.u32 [%%rd3], 1;\n");
    tb(&b, " ret;\n}\n");
    tctx t;
    tt_load(&t, &b);
    ws_gpu_config g;
    tt_config(&g, "teaching");
    t_p64(&t, t_alloc(&t, NULL, 64 * 1024));
    t_p32(&t, groups);
    t_p32(&t, spread);
    t_p32(&t, step);
    tt_run(&t, &g, "k", D3(blocks, 1, 1), D3(32, 1, 1), 0, 16, ts);
    t_free(&t);
    return ts->cycles;
}

static uint64_t global_atomic_cycles(uint32_t groups, uint32_t spread, uint32_t step, ws_timing_stats *ts)
{
    return atomic_cycles_n(16, 1, groups, spread, step, ts);
}

/* What 16 more such atomics cost (the first ones' L2 misses cancel out). */
static uint64_t cost_of_16_more(uint32_t blocks, uint32_t groups, uint32_t spread, uint32_t step)
{
    ws_timing_stats ts;
    uint64_t c16 = atomic_cycles_n(16, blocks, groups, spread, step, &ts);
    return atomic_cycles_n(32, blocks, groups, spread, step, &ts) - c16;
}

/* The SM sends a sector's request once per operation on its most-used
 * address (an H200's SM: 31.9 cycles a warp instruction for 4 words in 4
 * sectors, 8 lanes each, and 31.9 for one word; 5.0 for 32 words of a line:
 * validation/results/h200_microbench.txt), so the L1 data stage takes:
 * 32 lanes on one word: 32 passes; on 32 words of one line: 4 (a sector
 * each); 4 words 1 KB apart, 8 lanes each: 4 x 8. */
static void test_atomic_passes(void **state)
{
    (void)state;
    ws_timing_stats ts;
    global_atomic_cycles(32, 1, 0, &ts);
    assert_int_equal(ts.l1_wavefronts, 16 * 4);
    global_atomic_cycles(1, 0, 0, &ts);
    assert_int_equal(ts.l1_wavefronts, 16 * 32);
    global_atomic_cycles(4, 256, 0, &ts);
    assert_int_equal(ts.l1_wavefronts, 16 * 4 * 8);
    /* the L1 stage and the slice's unit (l2AtomicCyclesPerOp = 1) both
     * take 32 cycles an instruction on one word, 4 on a line */
    assert_int_equal(cost_of_16_more(1, 1, 0, 0), 16 * 32);
    assert_int_equal(cost_of_16_more(1, 32, 1, 0), 16 * 4);
}

/* Two blocks (two SMs, each its own L1 stage) adding to one word: the
 * slice's atomic unit takes both SMs' operations one after another, 2 x 32
 * cycles an instruction; two words of a sector, 16 lanes each, take 16 an
 * instruction per SM: 2 x 16. */
static void test_same_address_serializes_at_the_slice(void **state)
{
    (void)state;
    assert_int_equal(cost_of_16_more(2, 1, 0, 0), 2 * 16 * 32);
    assert_int_equal(cost_of_16_more(2, 2, 1, 0), 2 * 16 * 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomic_passes),
        cmocka_unit_test(test_same_address_serializes_at_the_slice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
