/* Per-line counters (ws_launch.pc_counts, what --lines shows) and the
 * issue timeline (what --report draws) of a timed launch in windows of
 * cycles, on one thread and on three, are those of the same launch run
 * cycle by cycle on one thread, every counter of every instruction and
 * every bin: sums, which windows and threads only split, and the stride
 * of each global access's first request, which the threads' counters
 * merged take from the earliest access by cycle, then SM.  Lab
 * kernels: a tiled matrix multiply (shared memory, bank conflicts, a
 * barrier), a CSR sparse matrix-vector product (gathers whose stride
 * depends on the row a warp reads first) and a global-atomic histogram. */
#include "lab_inputs.h"
#include "sim/trace/issue_timeline.h"

/* A launch's counters: the per-line ones, the summary's, the cycles. */
typedef struct lines_run {
    ws_pc_counts *pcc;
    ws_issue_timeline *timeline;
    ws_launch_stats st;
    ws_timing_stats ts;
} lines_run;

/* One timed launch of kernel name (the lab's mangled name) over t's
 * parameters, with o; the per-line counters start from zero.  Memory the
 * kernel writes is the caller's to reset. */
static lines_run run_lines(tctx *t, const ws_gpu_config *g, const char *name, ws_dim3 grid, ws_dim3 block,
                           ws_timing_options o)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    if (!k) fail_msg("no kernel %s", name);
    lines_run r = {.pcc = calloc(ws_program_code_size(t->p), sizeof(ws_pc_counts)),
                   .timeline = ws_issue_timeline_create((uint32_t)g->multiProcessorCount,
                                                        (uint32_t)(g->maxThreadsPerMultiProcessor / g->warpSize))};
    assert_non_null(r.pcc);
    assert_non_null(r.timeline);
    o.timeline = r.timeline;
    ws_launch l = {.grid = grid, .block = block, .params = t->params, .params_size = t->nparams,
                   .pc_counts = r.pcc};
    if (!ws_launch_timed(t->p, k, &l, g, &o, &r.st, &r.ts, &t->err)) fail_msg("%s", t->err.msg);
    return r;
}

/* Every pc's counters equal, field by field, with the pc in the message. */
static void same_lines(const tctx *t, const lines_run *a, const lines_run *b, const char *what)
{
    uint32_t n = ws_program_code_size(t->p), busy = 0, strides = 0;
    for (uint32_t pc = 0; pc < n; pc++) {
        const ws_pc_counts *x = &a->pcc[pc], *y = &b->pcc[pc];
        if (memcmp(x, y, sizeof *x) != 0)
            fail_msg("%s: pc %u differs: warp_insts %llu/%llu, stall[long_scoreboard] %llu/%llu, l2_sectors "
                     "%llu/%llu, stride %lld/%lld (cycle %llu/%llu, SM %u/%u)",
                     what, pc, (unsigned long long)x->warp_insts, (unsigned long long)y->warp_insts,
                     (unsigned long long)x->stall[WS_STALL_LONG_SCOREBOARD],
                     (unsigned long long)y->stall[WS_STALL_LONG_SCOREBOARD], (unsigned long long)x->l2_sectors,
                     (unsigned long long)y->l2_sectors, (long long)x->lane_stride, (long long)y->lane_stride,
                     (unsigned long long)x->stride_cycle, (unsigned long long)y->stride_cycle, x->stride_sm,
                     y->stride_sm);
        busy += x->warp_insts > 0;
        strides += x->stride_known;
    }
    assert_true(busy > 5);
    assert_true(strides > 0);
    tt_same_counters(&a->st, &a->ts, &b->st, &b->ts);
    const ws_issue_timeline *x = a->timeline, *y = b->timeline;
    assert_int_equal(x->issues, a->ts.warp_insts);
    assert_int_equal(x->issues, y->issues);
    assert_int_equal(x->width, y->width);
    assert_int_equal(x->last, y->last);
    assert_memory_equal(x->sm, y->sm, sizeof *x->sm * x->nsm * WS_TIMELINE_BINS);
    assert_memory_equal(x->slot, y->slot,
                        sizeof *x->slot * ws_issue_timeline_detail_sms(x) * x->slots * WS_TIMELINE_BINS);
}

/* The launch cycle by cycle, in windows on one thread and on three: the
 * same lines.  reset (may be NULL) puts the memory the kernel writes back
 * before each run. */
static void compare_modes(tctx *t, const ws_gpu_config *g, const char *name, ws_dim3 grid, ws_dim3 block,
                          void (*reset)(tctx *, void *), void *ctx)
{
    if (reset) reset(t, ctx);
    lines_run by_cycle = run_lines(t, g, name, grid, block, tt_threaded(1, 1));
    assert_int_equal(by_cycle.ts.host.window_cycles, 1);
    if (reset) reset(t, ctx);
    lines_run one = run_lines(t, g, name, grid, block, tt_threaded(1, 0));
    assert_true(one.ts.host.window_cycles > 1);
    if (reset) reset(t, ctx);
    lines_run three = run_lines(t, g, name, grid, block, tt_threaded(3, 0));
    assert_true(three.ts.host.window_cycles > 1);
    same_lines(t, &by_cycle, &one, "windows, one thread");
    same_lines(t, &by_cycle, &three, "windows, three threads");
    lines_run *runs[] = {&by_cycle, &one, &three};
    for (int i = 0; i < 3; i++) {
        free(runs[i]->pcc);
        ws_issue_timeline_free(runs[i]->timeline);
    }
}

static void test_tiled_matmul(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    tctx t;
    enum { N = 128 };
    lab_matmul(&t, N, N * N, N * N);
    compare_modes(&t, &g, LAB_MATMUL_TILED, D3(N / 16, N / 16, 1), D3(16, 16, 1), NULL, NULL);
    t_free(&t);
}

/* A warp's first gather has a stride of its own. */
static void test_csr_gathers(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    tctx t;
    enum { ROWS = 3000, COLS = 4000 };
    lab_csr(&t, ROWS, COLS, 21);
    compare_modes(&t, &g, LAB_SPMV_SCALAR, D3((ROWS + 127) / 128, 1, 1), D3(128, 1, 1), NULL, NULL);
    compare_modes(&t, &g, LAB_SPMV_WARP, D3((ROWS * 32 + 127) / 128, 1, 1), D3(128, 1, 1), NULL, NULL);
    t_free(&t);
}

static void test_atomic_histogram(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    tctx t;
    enum { N = 200000 };
    uint64_t bins = lab_histogram(&t, N, 8);
    compare_modes(&t, &g, LAB_HISTOGRAM_GLOBAL, D3((N + 255) / 256, 1, 1), D3(256, 1, 1), lab_zero_bins, &bins);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_matmul),
        cmocka_unit_test(test_csr_gathers),
        cmocka_unit_test(test_atomic_histogram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
