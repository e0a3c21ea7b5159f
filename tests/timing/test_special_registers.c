/* %smid, %nsmid, %warpid and %nwarpid: the SM and warp slot a warp runs in
 * under the timing model, the documented fixed values of a functional
 * launch (sim/core/launch.c). */
#include "timing_util.h"

/* Each thread stores {%smid, %nsmid, %warpid, %nwarpid} at out[16 * its
 * global index]. */
static void sreg_kernel(tctx *t, uint32_t threads)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry k(.param .u64 out)\n{\n"
           " .reg .b32 %%r<9>;\n .reg .b64 %%rd<4>;\n"
           " ld.param.u64 %%rd1, [out];\n"
           " mov.u32 %%r1, %%tid.x;\n mov.u32 %%r2, %%ctaid.x;\n mov.u32 %%r3, %%ntid.x;\n"
           " mad.lo.u32 %%r4, %%r2, %%r3, %%r1;\n"
           " mul.wide.u32 %%rd2, %%r4, 16;\n add.u64 %%rd3, %%rd1, %%rd2;\n"
           " mov.u32 %%r5, %%smid;\n mov.u32 %%r6, %%nsmid;\n"
           " mov.u32 %%r7, %%warpid;\n mov.u32 %%r8, %%nwarpid;\n"
           " st.global.v4.u32 [%%rd3], {%%r5, %%r6, %%r7, %%r8};\n ret;\n}\n");
    tt_load(t, &b);
    t_p64(t, t_alloc(t, NULL, (size_t)threads * 16));
}

static uint32_t *read_out(tctx *t, uint32_t threads)
{
    uint64_t out;
    memcpy(&out, t->params, 8);
    uint32_t *h = malloc((size_t)threads * 16);
    assert_non_null(h);
    assert_true(ws_devmem_read(t->mem, out, h, (size_t)threads * 16));
    return h;
}

static void functional(uint32_t sm_count, uint32_t warps_per_sm, uint32_t want_nsm, uint32_t want_nwarp)
{
    enum { BLOCKS = 5, THREADS = 96 };
    tctx t;
    sreg_kernel(&t, BLOCKS * THREADS);
    const ws_kernel *k = ws_program_kernel(t.p, "k");
    ws_launch l = {.grid = D3(BLOCKS, 1, 1), .block = D3(THREADS, 1, 1), .params = t.params,
                   .params_size = t.nparams, .sm_count = sm_count, .warps_per_sm = warps_per_sm};
    if (!ws_launch_kernel(t.p, k, &l, &t.st, &t.err)) fail_msg("%s", t.err.msg);
    uint32_t *h = read_out(&t, BLOCKS * THREADS);
    for (uint32_t i = 0; i < BLOCKS * THREADS; i++) {
        uint32_t block = i / THREADS, warp = i % THREADS / 32;
        assert_int_equal(h[4 * i + 0], block % want_nsm);
        assert_int_equal(h[4 * i + 1], want_nsm);
        assert_int_equal(h[4 * i + 2], warp);
        assert_int_equal(h[4 * i + 3], want_nwarp);
    }
    free(h);
    t_free(&t);
}

/* Functional: one SM of 64 warp slots unless the launch names the GPU's
 * (the runtime passes its config's); blocks dealt round-robin. */
static void test_functional(void **state)
{
    (void)state;
    functional(0, 0, 1, 64);
    functional(3, 48, 3, 48);
}

/* Timed on the H200 (132 SMs of 2048 threads: 64 warp slots): 264 blocks
 * of 2 warps all fit at once, the first wave dealt round-robin, block b
 * on SM b % 132, in its (b / 132)-th block slot, whose warps hold slots
 * 2 (b / 132) and 2 (b / 132) + 1.  No two warps share an SM's slot. */
static void test_timed(void **state)
{
    (void)state;
    enum { BLOCKS = 264, THREADS = 64 };
    ws_gpu_config g;
    tt_config(&g, "h200");
    assert_int_equal(g.multiProcessorCount, 132);
    tctx t;
    sreg_kernel(&t, BLOCKS * THREADS);
    ws_timing_stats ts;
    tt_run(&t, &g, "k", D3(BLOCKS, 1, 1), D3(THREADS, 1, 1), 0, 16, &ts);
    uint32_t *h = read_out(&t, BLOCKS * THREADS);
    static bool seen[132][64];
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < BLOCKS * THREADS; i++) {
        uint32_t block = i / THREADS, warp = i % THREADS / 32;
        uint32_t smid = h[4 * i], warpid = h[4 * i + 2];
        assert_int_equal(smid, block % 132);
        assert_int_equal(h[4 * i + 1], 132);
        assert_int_equal(warpid, block / 132 * 2 + warp);
        assert_int_equal(h[4 * i + 3], 64);
        if (i % 32 == 0) {
            assert_false(seen[smid][warpid]);
            seen[smid][warpid] = true;
        }
    }
    free(h);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional),
        cmocka_unit_test(test_timed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
