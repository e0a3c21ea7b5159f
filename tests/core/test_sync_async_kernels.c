/* The warp-synchronous and asynchronous-copy kernels of
 * tests/ptx/data/src/warp_sync_ops.cu and async_copy.cu, as nvcc 13 emits
 * them for sm_80 and sm_90, run functionally and with the timing model
 * (a100 and h100), against CPU computations of what each kernel writes. */
#include "core_util.h"

#include "sim/base/gpu_config.h"
#include "sim/core/timing.h"
#include "sync_async_refs.h"

static const char *const arches[] = {"sm80", "sm90"};

/* Runs kernel of file on in[], functionally (timed_gpu NULL) or timed on
 * that GPU, and returns its output buffer (zeroed before the launch). */
static void run_kernel(const char *file, const char *kernel, const char *timed_gpu,
                       const int32_t in[2 * NT], int32_t out[NOUT])
{
    tctx t;
    t_load_file(&t, file);
    uint64_t din = t_alloc(&t, in, sizeof(int32_t) * 2 * NT);
    memset(out, 0, sizeof(int32_t) * NOUT);
    uint64_t dout = t_alloc(&t, out, sizeof(int32_t) * NOUT);
    t_p64(&t, din);
    t_p64(&t, dout);
    if (!timed_gpu) {
        if (!t_run(&t, kernel, D3(1, 1, 1), D3(NT, 1, 1), 0, NULL, 0))
            fail_msg("%s %s: %s", file, kernel, t.err.msg);
    } else {
        ws_gpu_config g;
        char err[512];
        if (ws_gpu_config_load(timed_gpu, &g, err, sizeof err) != 0) fail_msg("%s", err);
        const ws_kernel *k = ws_program_kernel(t.p, kernel);
        if (!k) fail_msg("no kernel %s", kernel);
        ws_launch l = {.grid = D3(1, 1, 1), .block = D3(NT, 1, 1), .params = t.params, .params_size = t.nparams};
        ws_timing_options o = ws_timing_defaults();
        ws_timing_stats ts;
        if (!ws_launch_timed(t.p, k, &l, &g, &o, &t.st, &ts, &t.err))
            fail_msg("%s %s (timed, %s): %s", file, kernel, timed_gpu, t.err.msg);
    }
    assert_true(ws_devmem_read(t.mem, dout, out, sizeof(int32_t) * NOUT));
    t_free(&t);
}

typedef void (*reference_fn)(const int32_t in[2 * NT], int32_t want[NOUT]);

/* Every kernel of base_{sm80,sm90}.ptx, functional and timed, against ref. */
static void check_kernel(const char *base, const char *kernel, reference_fn ref)
{
    int32_t in[2 * NT], want[NOUT], got[NOUT];
    make_input(in);
    memset(want, 0, sizeof want);
    ref(in, want);
    for (size_t a = 0; a < sizeof arches / sizeof arches[0]; a++) {
        char file[64];
        snprintf(file, sizeof file, "%s_%s.ptx", base, arches[a]);
        const char *modes[] = {NULL, a == 0 ? "a100" : "h100"};
        for (size_t m = 0; m < 2; m++) {
            run_kernel(file, kernel, modes[m], in, got);
            for (int i = 0; i < NOUT; i++)
                if (got[i] != want[i])
                    fail_msg("%s %s (%s): out[%d] = %d (0x%08x), want %d (0x%08x)", file, kernel,
                             modes[m] ? modes[m] : "functional", i, got[i], (uint32_t)got[i],
                             want[i], (uint32_t)want[i]);
        }
    }
}

static void test_redux(void **s) { (void)s; check_kernel("warp_sync_ops", "reduxOps", ref_redux); }
static void test_match(void **s) { (void)s; check_kernel("warp_sync_ops", "matchOps", ref_match); }
static void test_fns_bmsk(void **s) { (void)s; check_kernel("warp_sync_ops", "bitOps", ref_bits); }
static void test_shfl_pred_scan(void **s) { (void)s; check_kernel("warp_sync_ops", "shflPredScan", ref_shfl_pred_scan); }
static void test_cg_tiles(void **s) { (void)s; check_kernel("warp_sync_ops", "cgTiles", ref_cg_tiles); }

static void test_pipeline_copies(void **s) { (void)s; check_kernel("async_copy", "pipelineCopies", ref_pipeline_copies); }
static void test_cg_copy(void **s) { (void)s; check_kernel("async_copy", "cgCopy", ref_cg_copy); }
static void test_barrier_copy(void **s) { (void)s; check_kernel("async_copy", "barrierCopy", ref_barrier_copy); }
static void test_pipeline_stages(void **s) { (void)s; check_kernel("async_copy", "pipelineStages", ref_pipeline_stages); }

static void test_mbarrier_ops(void **s)
{
    (void)s;
    int32_t in[2 * NT], want[NOUT], got[NOUT];
    make_input(in);
    memset(want, 0, sizeof want);
    ref_mbarrier(in, want);
    for (size_t a = 0; a < sizeof arches / sizeof arches[0]; a++) {
        char file[64];
        snprintf(file, sizeof file, "async_copy_%s.ptx", arches[a]);
        const char *modes[] = {NULL, a == 0 ? "a100" : "h100"};
        for (size_t m = 0; m < 2; m++) {
            run_kernel(file, "mbarrierOps", modes[m], in, got);
            qsort(got, NT, sizeof got[0], cmp_int);
            for (int i = 0; i < NOUT; i++)
                if (got[i] != want[i])
                    fail_msg("%s mbarrierOps (%s): out[%d] = %d, want %d", file,
                             modes[m] ? modes[m] : "functional", i, got[i], want[i]);
        }
    }
}

/* cp.async is counted as what it does: a global load and a shared store. */
static void test_cp_async_counters(void **s)
{
    (void)s;
    int32_t in[2 * NT], out[NOUT];
    make_input(in);
    tctx t;
    t_load_file(&t, "async_copy_sm80.ptx");
    uint64_t din = t_alloc(&t, in, sizeof in), dout = t_alloc(&t, NULL, sizeof out);
    t_p64(&t, din);
    t_p64(&t, dout);
    if (!t_run(&t, "cgCopy", D3(1, 1, 1), D3(NT, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    /* two warps each copy 32 consecutive ints (one 128 B line, 4 sectors)
     * and load nothing else from global memory but the output's address */
    assert_int_equal(t.st.global_ld.requests, 2);
    assert_int_equal(t.st.global_ld.sectors, 8);
    /* the shared stores: one conflict-free wavefront per warp */
    assert_int_equal(t.st.shared_st.requests, 2);
    assert_int_equal(t.st.shared_st.wavefronts, 2);
    t_free(&t);
}

/* Misuse is a fault that names the instruction, never a hang. */
static void test_mbarrier_faults(void **s)
{
    (void)s;
    static const char ptx[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry uninit()\n{\n"
        "  .shared .align 8 .b64 bar;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
        "  mov.u32 %r1, bar;\n"
        "  mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
        "  ret;\n}\n"
        ".visible .entry overflow()\n{\n"
        "  .shared .align 8 .b64 bar;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
        "  mov.u32 %r1, bar;\n"
        "  mbarrier.init.shared.b64 [%r1], 16;\n"
        "  mbarrier.arrive.shared.b64 %rd1, [%r1], 5;\n"
        "  ret;\n}\n"
        ".visible .entry badsize(.param .u64 p)\n{\n"
        "  .shared .align 16 .b8 buf[16];\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, buf;\n"
        "  cp.async.ca.shared.global [%r1], [%rd1], 8, 12;\n"
        "  ret;\n}\n";
    tctx t;
    if (!t_load(&t, ptx, "mbar.ptx")) fail_msg("%s", t.err.msg);
    assert_false(t_run(&t, "uninit", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
    assert_non_null(strstr(t.err.msg, "used before mbarrier.init"));
    assert_non_null(strstr(t.err.msg, "at pc 1 (mbarrier.arrive.shared.b64, mbar.ptx:10:3)"));
    /* arrivals of count 5 on a barrier expecting 16: three leave 1
     * pending, a fourth would take more than is pending */
    assert_true(t_run(&t, "overflow", D3(1, 1, 1), D3(3, 1, 1), 0, NULL, 0));
    assert_false(t_run(&t, "overflow", D3(1, 1, 1), D3(4, 1, 1), 0, NULL, 0));
    assert_non_null(strstr(t.err.msg, "mbarrier arrival count 5 is 0 or more than the 1 pending "
                                      "by thread (3,0,0)"));
    uint64_t src = t_alloc(&t, NULL, 16);
    t.nparams = 0;
    t_p64(&t, src);
    assert_false(t_run(&t, "badsize", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0));
    assert_non_null(strstr(t.err.msg, "cp.async src-size 12 larger than cp-size 8"));
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_redux),
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_fns_bmsk),
        cmocka_unit_test(test_shfl_pred_scan),
        cmocka_unit_test(test_cg_tiles),
        cmocka_unit_test(test_pipeline_copies),
        cmocka_unit_test(test_cg_copy),
        cmocka_unit_test(test_barrier_copy),
        cmocka_unit_test(test_pipeline_stages),
        cmocka_unit_test(test_mbarrier_ops),
        cmocka_unit_test(test_cp_async_counters),
        cmocka_unit_test(test_mbarrier_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
