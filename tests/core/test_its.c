/* Independent thread scheduling (docs/SEMANTICS.md): warp-synchronous
 * operations and barriers reached by the lanes of a warp on different paths,
 * in both code layouts, functional and timed.  The references are CPU
 * computations of what the PTX ISA defines (and what an H200 printed for the
 * same programs: validation/results/h200_libs_outputs.txt). */
#include "../timing/timing_util.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

/* Lanes 0-15 and 16-31 each take their own branch, swap a value with the
 * other half through their own shfl.sync.idx, and ballot the odd threads
 * with their own vote.sync; low_first puts the low half's code on the
 * taken path (which runs first) or on the fall-through path. */
static void swap_kernel(tbuf *b, bool low_first, bool sync_ops)
{
    const char *shfl_lo = sync_ops ? "shfl.sync.idx.b32 %r9, %r3, %r4, 31, -1;" : "mov.b32 %r9, %r3;";
    const char *shfl_hi = sync_ops ? "shfl.sync.idx.b32 %r5, %r3, %r4, 31, -1;" : "mov.b32 %r5, %r3;";
    const char *vote = sync_ops ? "vote.sync.ballot.b32 %r6, %p2, -1;" : "selp.b32 %r6, 1, 0, %p2;";
    tb(b, HDR ".visible .entry swap(.param .u64 o, .param .u64 v)\n{\n"
          " .reg .pred %%p<3>;\n .reg .b32 %%r<12>;\n .reg .b64 %%rd<6>;\n"
          " ld.param.u64 %%rd1, [o];\n ld.param.u64 %%rd2, [v];\n"
          " mov.u32 %%r1, %%tid.x;\n and.b32 %%r2, %%r1, 31;\n"
          " mad.lo.u32 %%r3, %%r1, 3, 1;\n"
          " and.b32 %%r8, %%r1, 1;\n setp.eq.u32 %%p2, %%r8, 1;\n");
    tb(b, " setp.%s.u32 %%p1, %%r2, 16;\n @%%p1 bra TAKEN;\n", low_first ? "lt" : "ge");
    const char *low = " add.u32 %%r4, %%r2, 16;\n %s\n %s\n mov.b32 %%r5, %%r9;\n";
    const char *high = " sub.u32 %%r4, %%r2, 16;\n %s\n %s\n";
    if (low_first) tb(b, high, shfl_hi, vote); else tb(b, low, shfl_lo, vote);
    tb(b, " bra.uni JOIN;\nTAKEN:\n");
    if (low_first) tb(b, low, shfl_lo, vote); else tb(b, high, shfl_hi, vote);
    tb(b, "JOIN:\n mul.wide.u32 %%rd3, %%r1, 4;\n add.s64 %%rd4, %%rd1, %%rd3;\n st.global.u32 [%%rd4], %%r5;\n"
          " add.s64 %%rd5, %%rd2, %%rd3;\n st.global.u32 [%%rd5], %%r6;\n ret;\n}\n");
}

static void check_swap(bool low_first, bool timed)
{
    enum { N = 64 };
    tbuf b = {0};
    swap_kernel(&b, low_first, true);
    tctx t;
    tt_load(&t, &b);
    uint64_t o = t_alloc(&t, NULL, N * 4), v = t_alloc(&t, NULL, N * 4);
    t_p64(&t, o); t_p64(&t, v);
    ws_gpu_config g;
    ws_timing_stats ts;
    if (timed) {
        tt_config(&g, "teaching");
        tt_run(&t, &g, "swap", D3(1, 1, 1), D3(N, 1, 1), 0, 16, &ts);
    } else if (!t_run(&t, "swap", D3(1, 1, 1), D3(N, 1, 1), 0, NULL, 0)) {
        fail_msg("%s", t.err.msg);
    }
    uint64_t sync_insts = t.st.warp_insts;
    uint32_t got[N], ballot[N];
    assert_true(ws_devmem_read(t.mem, o, got, sizeof got));
    assert_true(ws_devmem_read(t.mem, v, ballot, sizeof ballot));
    for (uint32_t i = 0; i < N; i++) {
        uint32_t src = (i & ~31u) | ((i & 31u) ^ 16u);
        assert_int_equal(got[i], 3 * src + 1);
        assert_int_equal(ballot[i], 0xaaaaaaaau);
    }
    assert_int_equal(t.st.warpsync_partial, 0);
    t_free(&t);

    /* The two halves join again after the branch: as many warp
     * instructions as the same kernel with plain moves in their place. */
    tbuf plain = {0};
    swap_kernel(&plain, low_first, false);
    tt_load(&t, &plain);
    o = t_alloc(&t, NULL, N * 4); v = t_alloc(&t, NULL, N * 4);
    t_p64(&t, o); t_p64(&t, v);
    if (!t_run(&t, "swap", D3(1, 1, 1), D3(N, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_int_equal(sync_insts, t.st.warp_insts);
    t_free(&t);
}

static void test_swap_low_first(void **state) { (void)state; check_swap(true, false); }
static void test_swap_high_first(void **state) { (void)state; check_swap(false, false); }
static void test_swap_timed(void **state) { (void)state; check_swap(true, true); check_swap(false, true); }

/* "if (t >= n) { out[t] = 7; return; } s[t] = 2t; __syncthreads();
 * out[t] = s[(t + 1) % n];" with bar.sync, the exit path laid out first
 * (fall-through) or second (taken). */
static void exit_kernel(tbuf *b, bool exit_taken)
{
    tb(b, HDR ".visible .entry ex(.param .u64 o, .param .u32 n)\n{\n"
          " .reg .pred %%p<2>;\n .reg .b32 %%r<12>;\n .reg .b64 %%rd<8>;\n"
          " .shared .align 4 .b8 s[256];\n"
          " ld.param.u64 %%rd1, [o];\n ld.param.u32 %%r2, [n];\n"
          " mov.u32 %%r1, %%tid.x;\n mul.wide.u32 %%rd3, %%r1, 4;\n add.s64 %%rd4, %%rd1, %%rd3;\n"
          " mov.u32 %%r8, s;\n");
    const char *exit_path = " mov.u32 %%r3, 7;\n st.global.u32 [%%rd4], %%r3;\n ret;\n";
    const char *body = " shl.b32 %%r4, %%r1, 1;\n shl.b32 %%r5, %%r1, 2;\n add.u32 %%r6, %%r8, %%r5;\n"
                       " st.shared.u32 [%%r6], %%r4;\n bar.sync 0;\n add.u32 %%r7, %%r1, 1;\n"
                       " rem.u32 %%r7, %%r7, %%r2;\n shl.b32 %%r7, %%r7, 2;\n add.u32 %%r7, %%r8, %%r7;\n"
                       " ld.shared.u32 %%r9, [%%r7];\n st.global.u32 [%%rd4], %%r9;\n ret;\n";
    if (exit_taken) {
        tb(b, " setp.ge.u32 %%p1, %%r1, %%r2;\n @%%p1 bra OTHER;\n");
        tb(b, body);
        tb(b, "OTHER:\n");
        tb(b, exit_path);
    } else {
        tb(b, " setp.lt.u32 %%p1, %%r1, %%r2;\n @%%p1 bra OTHER;\n");
        tb(b, exit_path);
        tb(b, "OTHER:\n");
        tb(b, body);
    }
    tb(b, "}\n");
}

static void check_exit_layout(bool exit_taken)
{
    enum { N = 64, n = 40 };
    for (int timed = 0; timed < 2; timed++) {
        tbuf b = {0};
        exit_kernel(&b, exit_taken);
        tctx t;
        tt_load(&t, &b);
        uint64_t o = t_alloc(&t, NULL, N * 4);
        t_p64(&t, o); t_p32(&t, n);
        if (timed) {
            ws_gpu_config g;
            ws_timing_stats ts;
            tt_config(&g, "teaching");
            tt_run(&t, &g, "ex", D3(1, 1, 1), D3(N, 1, 1), 0, 16, &ts);
        } else if (!t_run(&t, "ex", D3(1, 1, 1), D3(N, 1, 1), 0, NULL, 0)) {
            fail_msg("%s", t.err.msg);
        }
        uint32_t got[N];
        assert_true(ws_devmem_read(t.mem, o, got, sizeof got));
        for (uint32_t i = 0; i < N; i++) assert_int_equal(got[i], i >= n ? 7 : 2 * ((i + 1) % n));
        t_free(&t);
    }
}

static void test_exit_path_taken(void **state) { (void)state; check_exit_layout(true); }
static void test_exit_path_first(void **state) { (void)state; check_exit_layout(false); }

/* Two halves of each warp at two different barrier.sync 0 (not aligned:
 * thread-granular), each thread reading what its partner in the other
 * half wrote before the barrier. */
static void halves_kernel(tbuf *b, const char *bar)
{
    const char *half = " add.u32 %%r3, %%r1, %d;\n st.shared.u32 [%%r6], %%r3;\n %s\n"
                       " ld.shared.u32 %%r9, [%%r7];\n";
    tb(b, HDR ".visible .entry halves(.param .u64 o)\n{\n"
          " .reg .pred %%p<2>;\n .reg .b32 %%r<12>;\n .reg .b64 %%rd<8>;\n"
          " .shared .align 4 .b8 s[256];\n"
          " ld.param.u64 %%rd1, [o];\n mov.u32 %%r1, %%tid.x;\n and.b32 %%r2, %%r1, 31;\n"
          " mov.u32 %%r8, s;\n shl.b32 %%r5, %%r1, 2;\n add.u32 %%r6, %%r8, %%r5;\n"
          " xor.b32 %%r4, %%r1, 16;\n shl.b32 %%r4, %%r4, 2;\n add.u32 %%r7, %%r8, %%r4;\n"
          " setp.lt.u32 %%p1, %%r2, 16;\n @%%p1 bra LOW;\n");
    tb(b, half, 100, bar);
    tb(b, " bra.uni JOIN;\nLOW:\n");
    tb(b, half, 100, bar);
    tb(b, "JOIN:\n mul.wide.u32 %%rd3, %%r1, 4;\n add.s64 %%rd4, %%rd1, %%rd3;\n st.global.u32 [%%rd4], %%r9;\n"
          " ret;\n}\n");
}

static void run_halves(const char *bar, uint32_t nthreads, bool timed, uint32_t *got)
{
    tbuf b = {0};
    halves_kernel(&b, bar);
    tctx t;
    tt_load(&t, &b);
    uint64_t o = t_alloc(&t, NULL, nthreads * 4);
    t_p64(&t, o);
    if (timed) {
        ws_gpu_config g;
        ws_timing_stats ts;
        tt_config(&g, "teaching");
        tt_run(&t, &g, "halves", D3(1, 1, 1), D3(nthreads, 1, 1), 0, 16, &ts);
    } else if (!t_run(&t, "halves", D3(1, 1, 1), D3(nthreads, 1, 1), 0, NULL, 0)) {
        fail_msg("%s", t.err.msg);
    }
    assert_true(ws_devmem_read(t.mem, o, got, nthreads * 4));
    t_free(&t);
}

static void test_two_barrier_instances(void **state)
{
    (void)state;
    for (int timed = 0; timed < 2; timed++) {
        uint32_t got[64];
        run_halves("barrier.sync 0;", 64, timed, got);
        for (uint32_t i = 0; i < 64; i++) assert_int_equal(got[i], (i ^ 16) + 100);
    }
}

/* __syncwarp() in both branches: the halves meet at bar.warp.sync. */
static void test_syncwarp_instances(void **state)
{
    (void)state;
    for (int timed = 0; timed < 2; timed++) {
        uint32_t got[32];
        run_halves("bar.warp.sync -1;", 32, timed, got);
        for (uint32_t i = 0; i < 32; i++) assert_int_equal(got[i], (i ^ 16) + 100);
    }
}

/* redux.sync and match.any.sync in the two branches: each half gets the
 * whole warp's sum, and the lanes of the whole warp holding its value. */
static const char redux_ptx[] = HDR
    ".visible .entry rx(.param .u64 o, .param .u64 q)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [o];\n ld.param.u64 %rd2, [q];\n"
    " mov.u32 %r1, %laneid;\n and.b32 %r6, %r1, 3;\n"
    " setp.lt.u32 %p1, %r1, 16;\n @%p1 bra LOW;\n"
    " redux.sync.add.u32 %r2, %r1, -1;\n match.any.sync.b32 %r3, %r6, -1;\n bra.uni JOIN;\n"
    "LOW:\n redux.sync.add.u32 %r4, %r1, -1;\n match.any.sync.b32 %r5, %r6, -1;\n"
    " mov.b32 %r2, %r4;\n mov.b32 %r3, %r5;\n"
    "JOIN:\n mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd1, %rd3;\n st.global.u32 [%rd4], %r2;\n"
    " add.s64 %rd5, %rd2, %rd3;\n st.global.u32 [%rd5], %r3;\n ret;\n}\n";

static void test_redux_match_instances(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, redux_ptx, "rx.ptx")) fail_msg("%s", t.err.msg);
    uint64_t o = t_alloc(&t, NULL, 128), q = t_alloc(&t, NULL, 128);
    t_p64(&t, o); t_p64(&t, q);
    if (!t_run(&t, "rx", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t sum[32], same[32];
    assert_true(ws_devmem_read(t.mem, o, sum, sizeof sum));
    assert_true(ws_devmem_read(t.mem, q, same, sizeof same));
    for (uint32_t i = 0; i < 32; i++) {
        assert_int_equal(sum[i], 31 * 32 / 2);
        assert_int_equal(same[i], 0x11111111u << (i & 3));
    }
    t_free(&t);
}

/* Half a warp waits at a thread-granular barrier for the other half, which
 * waits at a shfl.sync for the first: a deadlock, diagnosed with both. */
static const char stuck_ptx[] = HDR
    ".visible .entry stuck()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %laneid;\n"
    " setp.lt.u32 %p1, %r1, 16;\n"
    " @%p1 bra LOW;\n"
    " shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\n"     /* line 11 */
    " bra.uni END;\n"
    "LOW:\n barrier.sync 0;\n"                       /* line 14 */
    "END:\n ret;\n}\n";

static void test_deadlock_across_paths(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, stuck_ptx, "stuck.ptx")) fail_msg("%s", t.err.msg);
    assert_false(t_run(&t, "stuck", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
    if (!strstr(t.err.msg, "barrier deadlock in block (0,0,0) of kernel stuck") ||
        !strstr(t.err.msg, "warp 0 lanes 0x0000ffff at barrier 0 (pc") ||
        !strstr(t.err.msg, "stuck.ptx:14") ||
        !strstr(t.err.msg, "warp 0 lanes 0xffff0000 at a warp-synchronous operation for lanes 0xffffffff") ||
        !strstr(t.err.msg, "stuck.ptx:11"))
        fail_msg("got: %s", t.err.msg);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swap_low_first),
        cmocka_unit_test(test_swap_high_first),
        cmocka_unit_test(test_swap_timed),
        cmocka_unit_test(test_exit_path_taken),
        cmocka_unit_test(test_exit_path_first),
        cmocka_unit_test(test_two_barrier_instances),
        cmocka_unit_test(test_syncwarp_instances),
        cmocka_unit_test(test_redux_match_instances),
        cmocka_unit_test(test_deadlock_across_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
