/* The issue trace of a timed launch in windows of cycles, on one thread and
 * on three, is byte for byte the trace of the same launch run cycle by
 * cycle on one thread (sim/core/window_order.h): every event in the same
 * order (by cycle, then SM, then issue) with the same times, the accesses'
 * "done" included, which in windows are known only once the L2 answered at
 * the window's end.  Lab kernels: a tiled matrix multiply (shared memory, a
 * barrier), with per-line counters too, with a filter (one block's warp)
 * and with a limit that stops the trace inside a window; a bigger one,
 * whose window ends on three threads answer the L2's requests on the other
 * threads; a CSR SpMV (a warp's gathers); a global-atomic histogram; and
 * a matrix multiply whose input or output is too short, where the trace
 * must end where the run cycle by cycle ends it, at the fault. */
#define _GNU_SOURCE     /* open_memstream */
#include "lab_inputs.h"
#include "sim/trace/trace.h"

/* A launch's trace (JSON lines) and how the launch went. */
typedef struct traced {
    char *text;
    size_t len;
    uint64_t events;
    bool ok;
    ws_error err;
    ws_launch_stats st;
    ws_timing_stats ts;
} traced;

/* A launch to trace: kernel name (the lab's mangled name) over the test's
 * parameters, the trace's filter, with per-line counters or not, the fault
 * it ends with (a part of its message; NULL: none), and what puts the
 * memory the kernel writes back before each run (NULL: nothing). */
typedef struct trace_case {
    const char *name;
    ws_dim3 grid, block;
    ws_trace_filter filter;
    bool lines;
    const char *fault;
    void (*reset)(tctx *, void *);
    void *ctx;
} trace_case;

/* c's launch, timed with options o and traced. */
static traced run_traced(tctx *t, const ws_gpu_config *g, const trace_case *c, ws_timing_options o)
{
    const ws_kernel *k = ws_program_kernel(t->p, c->name);
    if (!k) fail_msg("no kernel %s", c->name);
    if (c->reset) c->reset(t, c->ctx);
    traced r;
    memset(&r, 0, sizeof r);
    FILE *out = open_memstream(&r.text, &r.len);
    assert_non_null(out);
    ws_trace *tr = ws_trace_open(out, WS_TRACE_JSON, &c->filter);
    assert_non_null(tr);
    ws_trace_begin_launch(tr, "lab", 0);
    o.trace = tr;
    ws_pc_counts *pcc = c->lines ? calloc(ws_program_code_size(t->p), sizeof *pcc) : NULL;
    ws_launch l = {.grid = c->grid, .block = c->block, .params = t->params, .params_size = t->nparams,
                   .pc_counts = pcc};
    r.ok = ws_launch_timed(t->p, k, &l, g, &o, &r.st, &r.ts, &r.err);
    ws_trace_end_launch(tr, r.ts.cycles);
    r.events = ws_trace_close(tr);
    assert_int_equal(fclose(out), 0);
    free(pcc);
    return r;
}

/* What compare_modes saw: the events written, and the windows whose L2
 * requests the other threads answered in the run on three threads. */
typedef struct compared {
    uint64_t events;
    uint64_t split_windows;
} compared;

/* c's launch cycle by cycle, in windows on one thread and on three: the
 * same trace and the same outcome. */
static compared compare_modes(tctx *t, const ws_gpu_config *g, const trace_case *c)
{
    traced by_cycle = run_traced(t, g, c, tt_threaded(1, 1));
    assert_int_equal(by_cycle.ts.host.window_cycles, 1);
    assert_int_equal(by_cycle.ok, !c->fault);
    if (c->fault && !strstr(by_cycle.err.msg, c->fault)) fail_msg("not the fault expected: %s", by_cycle.err.msg);
    traced one = run_traced(t, g, c, tt_threaded(1, 0));
    traced three = run_traced(t, g, c, tt_threaded(3, 0));
    traced *windowed[] = {&one, &three};
    for (int i = 0; i < 2; i++) {
        const char *what = i ? "windows, three threads" : "windows, one thread";
        if (windowed[i]->ts.host.window_cycles <= 1) fail_msg("%s: ran cycle by cycle", what);
        assert_int_equal(windowed[i]->ok, by_cycle.ok);
        if (by_cycle.ok) tt_same_counters(&by_cycle.st, &by_cycle.ts, &windowed[i]->st, &windowed[i]->ts);
        else assert_string_equal(windowed[i]->err.msg, by_cycle.err.msg);
        lab_same_text(by_cycle.text, by_cycle.len, windowed[i]->text, windowed[i]->len, "cycle by cycle", what);
        assert_int_equal(windowed[i]->events, by_cycle.events);
    }
    compared r = {.events = by_cycle.events, .split_windows = three.ts.l2_split_windows};
    free(by_cycle.text);
    free(one.text);
    free(three.text);
    return r;
}

/* matmulTiled16's launch on n x n matrices, every event traced. */
static trace_case matmul_case(int n)
{
    return (trace_case){.name = LAB_MATMUL_TILED, .grid = D3((uint32_t)n / 16, (uint32_t)n / 16, 1),
                        .block = D3(16, 16, 1), .filter = WS_TRACE_FILTER_ALL};
}

static void test_tiled_matmul(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    tctx t;
    enum { N = 64 };
    lab_matmul(&t, N, N * N, N * N);
    trace_case c = matmul_case(N);
    uint64_t events = compare_modes(&t, &g, &c).events;
    assert_true(events > 10000);
    /* with per-line counters, which windows keep per thread */
    c.lines = true;
    assert_int_equal(compare_modes(&t, &g, &c).events, events);
    c.lines = false;
    /* one block's warp 3 */
    c.filter.block = 5;
    c.filter.warp = 3;
    uint64_t few = compare_modes(&t, &g, &c).events;
    assert_true(few > 50 && few < events / 16);
    /* a limit reached in the middle of a window: the trace stops at the
     * same event, with its note */
    c.filter = (ws_trace_filter)WS_TRACE_FILTER_ALL;
    c.filter.limit = 7777;
    assert_int_equal(compare_modes(&t, &g, &c).events, 7777);
    t_free(&t);
}

/* A bigger multiply (256 blocks), one block traced: on three threads the
 * window ends answer the L2's requests on the other threads (l2_split.h). */
static void test_split_windows(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    tctx t;
    enum { N = 256 };
    lab_matmul(&t, N, N * N, N * N);
    trace_case c = matmul_case(N);
    c.filter.block = 37;
    compared r = compare_modes(&t, &g, &c);
    assert_true(r.events > 1000);
    assert_true(r.split_windows > 0);
    t_free(&t);
}

/* A fault ends the trace where it ends cycle by cycle: a load's, met as
 * it issues (A 300 elements short: a last tile's loads fault), and a
 * store's, which a window meets as it issues and a run cycle by cycle at
 * the cycle's end (C 300 elements short). */
static void test_faults(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    enum { N = 64 };
    for (int store = 0; store < 2; store++) {
        tctx t;
        lab_matmul(&t, N, store ? N * N : N * N - 300, store ? N * N - 300 : N * N);
        trace_case c = matmul_case(N);
        c.fault = store ? "Invalid __global__ write" : "Invalid __global__ read";
        assert_true(compare_modes(&t, &g, &c).events > 1000);
        t_free(&t);
    }
}

static void test_csr_gathers(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    tctx t;
    enum { ROWS = 600, COLS = 2000 };
    lab_csr(&t, ROWS, COLS, 5);
    trace_case c = {.name = LAB_SPMV_WARP, .grid = D3((ROWS * 32 + 127) / 128, 1, 1), .block = D3(128, 1, 1),
                    .filter = WS_TRACE_FILTER_ALL};
    assert_true(compare_modes(&t, &g, &c).events > 10000);
    t_free(&t);
}

static void test_atomic_histogram(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h100");
    tctx t;
    enum { N = 100000 };
    uint64_t bins = lab_histogram(&t, N, 8);
    trace_case c = {.name = LAB_HISTOGRAM_GLOBAL, .grid = D3((N + 255) / 256, 1, 1), .block = D3(256, 1, 1),
                    .filter = WS_TRACE_FILTER_ALL, .reset = lab_zero_bins, .ctx = &bins};
    assert_true(compare_modes(&t, &g, &c).events > 10000);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_matmul),
        cmocka_unit_test(test_split_windows),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_csr_gathers),
        cmocka_unit_test(test_atomic_histogram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
