/* wmma.load and wmma.store as memory: the course's wmma matmul
 * (kernels/wmma_matmul.cu, its sm_90 PTX) at 128 x 128 x 128 on the H200,
 * its global requests, sectors and DRAM bytes worked by hand from the
 * fragment layout (sim/core/wmma.c) and the coalescing rule. */
#include "timing_util.h"
#include "../memstats/probe_data.h"
#include "sim/core/timing_window.h"

enum { N = 128, WARPS = (N / 16) * (N / 16) };

static void load_lab(tctx *t)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/kernels/ptx/sm_90/wmma_matmul.ptx", WARPSIM_SOURCE_DIR);
    ptx_error pe;
    memset(t, 0, sizeof *t);
    t->m = ptx_parse_file(path, &pe);
    if (!t->m) fail_msg("cannot parse %s", path);
    t->mem = ws_devmem_create();
    t->p = ws_program_load(t->m, t->mem, &t->err);
    if (!t->p) fail_msg("load failed: %s", t->err.msg);
}

/* Per warp, 8 steps of k, each a row-major A load (its 4 registers, 4 B a
 * lane, are 4 accesses of 8 rows x 16 B 256 B apart: 8 sectors each) and
 * a row-major B load (8 elements of 2 B, not adjacent in a row-major B:
 * 8 accesses of 4 rows x 16 B: 4 sectors each): 96 requests, 512
 * sectors.  The f32 row-major store of D: 4 accesses of 8 B a lane, 8
 * rows x 32 B each: 4 requests, 32 sectors.  A and B (2 x 32 KB) come
 * from DRAM once; the L2 (50 MB) keeps them. */
static void test_wmma_matmul_128(void **state)
{
    (void)state;
    tctx t;
    load_lab(&t);
    static uint16_t a[N * N], b[N * N];
    for (int i = 0; i < N * N; i++) {
        a[i] = 0x3C00;      /* 1.0 */
        b[i] = 0x4000;      /* 2.0 */
    }
    uint64_t A = t_alloc(&t, a, sizeof a), B = t_alloc(&t, b, sizeof b), C = t_alloc(&t, NULL, N * N * 4);
    t_p64(&t, A); t_p64(&t, B); t_p64(&t, C);
    t_p32(&t, N); t_p32(&t, N); t_p32(&t, N);
    ws_gpu_config g;
    tt_config(&g, "h200");
    ws_timing_stats ts;
    tt_run(&t, &g, "_Z10wmmaMatmulPK6__halfS1_Pfiii", D3(WARPS / 4, 1, 1), D3(128, 1, 1), 0, 40, &ts);
    static float c[N * N];
    assert_true(ws_devmem_read(t.mem, C, c, sizeof c));
    for (int i = 0; i < N * N; i++) assert_true(c[i] == 2.0f * N);
    assert_int_equal(t.st.global_ld.requests, WARPS * 8 * (4 + 8));
    assert_int_equal(t.st.global_ld.sectors, WARPS * 8 * (4 * 8 + 8 * 4));
    assert_int_equal(t.st.global_st.requests, WARPS * 4);
    assert_int_equal(t.st.global_st.sectors, WARPS * 4 * 8);
    assert_int_equal(ts.l1_sectors, WARPS * 8 * 64);
    assert_int_equal(ts.dram_bytes_read, 2 * N * N * 2);
    /* the H200's, where validation/results/h200_counter_probe.csv has them
     * (its wmma_matmul_128 is this kernel with the sizes built in) */
    probe_row rows[256];
    int n = probe_rows(rows, 256);
    if (n < 0) fail_msg("cannot read %s", PROBE_DATA_FILE);
    static const struct { const char *metric; uint64_t ours; } m[] = {
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", WARPS * 8 * 64},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", WARPS * 4 * 8},
        {"dram__bytes_read.sum", 2 * N * N * 2},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        const char *v = probe_value(rows, n, "wmma_matmul_128", m[i].metric);
        if (v && strtoull(v, NULL, 10) != m[i].ours)
            fail_msg("%s: H200 %s, warpsim %llu", m[i].metric, v, (unsigned long long)m[i].ours);
    }
    t_free(&t);
}

/* The loads go through the L1 data stage, one wavefront per 128 B line
 * of each access (the requests above: 8 lines for an A access and the
 * store's, 4 for a B access), and wait on DRAM: warps stall on the long
 * scoreboard, and the kernel takes at least a DRAM latency. */
static void test_wmma_loads_take_time(void **state)
{
    (void)state;
    tctx t;
    load_lab(&t);
    uint64_t A = t_alloc(&t, NULL, N * N * 2), B = t_alloc(&t, NULL, N * N * 2), C = t_alloc(&t, NULL, N * N * 4);
    t_p64(&t, A); t_p64(&t, B); t_p64(&t, C);
    t_p32(&t, N); t_p32(&t, N); t_p32(&t, N);
    ws_gpu_config g;
    tt_config(&g, "h200");
    ws_timing_stats ts;
    tt_run(&t, &g, "_Z10wmmaMatmulPK6__halfS1_Pfiii", D3(WARPS / 4, 1, 1), D3(128, 1, 1), 0, 40, &ts);
    assert_true(ts.stall[WS_STALL_LONG_SCOREBOARD] > 0);
    /* each warp's first A load misses to DRAM: at least its latency */
    assert_true(ts.cycles > (uint64_t)g.latencyDram);
    assert_int_equal(ts.l1_wavefronts, WARPS * (8 * (4 * 8 + 8 * 4) + 4 * 8));
    t_free(&t);
}

/* Half-precision bits of a small integer (-1 to 4). */
static uint16_t half_of(int v)
{
    static const uint16_t bits[] = {0xBC00, 0x0000, 0x3C00, 0x4000, 0x4200, 0x4400};
    return bits[v + 1];
}

/* The lab's matmul of small integers (exact in f32) with window cycles per
 * window (0: warpsim's) on threads: C into c; *window: the cycles per
 * window warpsim chose. */
static void run_small_ints(uint32_t window, int32_t threads, float *c, ws_launch_stats *st, ws_timing_stats *ts,
                           uint32_t *win)
{
    tctx t;
    load_lab(&t);
    static uint16_t a[N * N], b[N * N];
    for (int i = 0; i < N * N; i++) {
        a[i] = half_of(i % 5);
        b[i] = half_of(i % 3 - 1);
    }
    uint64_t A = t_alloc(&t, a, sizeof a), B = t_alloc(&t, b, sizeof b), C = t_alloc(&t, NULL, N * N * 4);
    t_p64(&t, A); t_p64(&t, B); t_p64(&t, C);
    t_p32(&t, N); t_p32(&t, N); t_p32(&t, N);
    ws_gpu_config g;
    tt_config(&g, "h200");
    const ws_kernel *k = ws_program_kernel(t.p, "_Z10wmmaMatmulPK6__halfS1_Pfiii");
    assert_non_null(k);
    ws_launch l = {.grid = D3(WARPS / 4, 1, 1), .block = D3(128, 1, 1), .params = t.params,
                   .params_size = t.nparams};
    ws_timing_options o = tt_threaded(threads, window);
    ws_apart ap;
    bool own;
    ws_window_reason why;
    *win = ws_window_cycles(t.p, k, &l, &o, &g, &ap, &own, &why);
    if (!ws_launch_timed(t.p, k, &l, &g, &o, st, ts, &t.err)) fail_msg("%s", t.err.msg);
    assert_true(ws_devmem_read(t.mem, C, c, N * N * 4));
    t_free(&t);
}

/* wmma.store to global memory in windows of cycles, its fragment taken
 * along when it issues and stored at the window's end: the CPU's product,
 * and on one wave the cycles and counters of a run cycle by cycle, on 1
 * and 3 threads. */
static void test_wmma_store_in_windows(void **state)
{
    (void)state;
    static float c1[N * N], cw[N * N], c3[N * N];
    ws_launch_stats s1, sw, s3;
    ws_timing_stats t1, tw, t3;
    uint32_t win;
    run_small_ints(1, 1, c1, &s1, &t1, &win);
    assert_int_equal(win, 1);
    run_small_ints(0, 1, cw, &sw, &tw, &win);
    assert_true(win > 1);
    run_small_ints(0, 3, c3, &s3, &t3, &win);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float want = 0;
            for (int kk = 0; kk < N; kk++) want += (float)((i * N + kk) % 5) * (float)((kk * N + j) % 3 - 1);
            if (cw[i * N + j] != want) fail_msg("C[%d][%d] = %g, expected %g", i, j, cw[i * N + j], want);
        }
    assert_memory_equal(cw, c1, sizeof c1);
    assert_memory_equal(c3, c1, sizeof c1);
    tt_same_counters(&sw, &tw, &s1, &t1);
    tt_same_counters(&s3, &t3, &s1, &t1);
    assert_true(tw.loop_iterations * 4 < t1.loop_iterations);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wmma_matmul_128),
        cmocka_unit_test(test_wmma_store_in_windows),
        cmocka_unit_test(test_wmma_loads_take_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
