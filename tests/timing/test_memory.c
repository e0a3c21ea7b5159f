/* Memory timing on the teaching GPU (configs/teaching.ini): shared-memory
 * bank conflicts, strided global loads, a barrier. */
#include "timing_util.h"
#include "../memstats/probe_data.h"

/* One warp: lane i reads word i * stride of a shared array, 16 times into
 * 16 registers, then exits (its exit waits for the loads). */
static uint64_t shared_stride_cycles(uint32_t stride, ws_timing_stats *ts)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".shared .align 4 .b8 sm[8192];\n"
           ".visible .entry k(.param .u32 stride)\n{\n"
           " .reg .f32 %%f<17>;\n .reg .b32 %%r<8>;\n"
           " ld.param.u32 %%r1, [stride];\n"
           " mov.u32 %%r2, %%tid.x;\n"
           " mul.lo.u32 %%r3, %%r2, %%r1;\n"
           " shl.b32 %%r4, %%r3, 2;\n"
           " mov.u32 %%r5, sm;\n"
           " add.u32 %%r6, %%r5, %%r4;\n");
    for (int i = 1; i <= 16; i++) tb(&b, " ld.shared.f32 %%f%d, [%%r6];\n", i);
    tb(&b, " ret;\n}\n");
    tctx t;
    tt_load(&t, &b);
    ws_gpu_config g;
    tt_config(&g, "teaching");
    t_p32(&t, stride);
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 16, ts);
    t_free(&t);
    return ts->cycles;
}

/* Stride s words (s a power of two up to 32) puts s distinct words in
 * each bank used: conflict degree d = s.  The L1 data stage takes one
 * pass per cycle, so the 16 loads hold it 16d cycles and the last one's
 * data is ready d - 1 cycles after its last pass starts plus the shared
 * latency (30): each extra way costs 16 cycles here.  Without conflicts:
 * ld.param at 0 (ready 10), tid at 1, mul at 10, shl at 14, mov at 15,
 * mov at 15 (ready 19), add at 19, the loads at 23..38, the last ready at
 * 38 + 30 = 68. */
static void test_shared_conflict_degree(void **state)
{
    (void)state;
    ws_timing_stats ts;
    uint64_t base = shared_stride_cycles(1, &ts);
    assert_int_equal(base, 68);
    assert_int_equal(ts.l1_wavefronts, 16);
    for (uint32_t d = 2; d <= 32; d *= 2) {
        uint64_t c = shared_stride_cycles(d, &ts);
        assert_int_equal(ts.l1_wavefronts, 16 * d);
        assert_int_equal(c - base, 16 * (d - 1));
        /* an odd stride is conflict-free whatever its size */
        assert_int_equal(shared_stride_cycles(2 * d + 1, &ts), base);
    }
}

/* One warp: lane i adds 1 to word i * stride of a shared array, 16
 * times into 16 registers (stride 0: all lanes on one word). */
static uint64_t shared_atomic_cycles(uint32_t stride, ws_timing_stats *ts, ws_launch_stats *st)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".shared .align 4 .b8 sm[8192];\n"
           ".visible .entry k(.param .u32 stride)\n{\n"
           " .reg .b32 %%r<24>;\n"
           " ld.param.u32 %%r1, [stride];\n"
           " mov.u32 %%r2, %%tid.x;\n"
           " mul.lo.u32 %%r3, %%r2, %%r1;\n"
           " shl.b32 %%r4, %%r3, 2;\n"
           " mov.u32 %%r5, sm;\n"
           " add.u32 %%r6, %%r5, %%r4;\n");
    for (int i = 1; i <= 16; i++) tb(&b, " atom.shared.add.u32 %%r%d, [%%r6], 1;\n", 6 + i);
    tb(&b, " ret;\n}\n");
    tctx t;
    tt_load(&t, &b);
    ws_gpu_config g;
    tt_config(&g, "teaching");
    t_p32(&t, stride);
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 24, ts);
    *st = t.st;
    t_free(&t);
    return ts->cycles;
}

/* 32 lanes adding to one shared word: the H200 counts one wavefront
 * (validation/results/h200_counter_probe.csv, smem_atom_same_address), and
 * the L1 data stage is charged what the counter says, so 16 such atomics
 * take as long as 16 on 32 distinct banks.  32 lanes on 32 words of one
 * bank are 32 wavefronts each: as for loads, each extra way costs 16
 * cycles (test_shared_conflict_degree). */
static void test_shared_atomic_same_address(void **state)
{
    (void)state;
    probe_row rows[256];
    int n = probe_rows(rows, 256);
    if (n < 0) fail_msg("cannot read %s", PROBE_DATA_FILE);
    const char *v = probe_value(rows, n, "smem_atom_same_address",
                                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum");
    if (!v) fail_msg("%s has no smem_atom_same_address wavefronts", PROBE_DATA_FILE);
    uint64_t h200 = strtoull(v, NULL, 10);
    ws_timing_stats ts;
    ws_launch_stats st;
    uint64_t distinct = shared_atomic_cycles(1, &ts, &st);
    assert_int_equal(ts.l1_wavefronts, 16);
    uint64_t same = shared_atomic_cycles(0, &ts, &st);
    assert_int_equal(st.shared_atom.wavefronts, 16 * h200);
    assert_int_equal(ts.l1_wavefronts, 16 * h200);
    assert_int_equal(same, distinct + 16 * (h200 - 1));
    uint64_t one_bank = shared_atomic_cycles(32, &ts, &st);
    assert_int_equal(st.shared_atom.wavefronts, 16 * 32);
    assert_int_equal(ts.l1_wavefronts, 16 * 32);
    assert_int_equal(one_bank - distinct, 16 * 31);
}

/* 64 warps (2 blocks of 1024) each load a[tid * stride] once. */
static uint64_t global_stride_cycles(uint32_t stride, ws_timing_stats *ts)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry k(.param .u64 a, .param .u32 stride)\n{\n"
           " .reg .f32 %%f<2>;\n .reg .b32 %%r<8>;\n .reg .b64 %%rd<4>;\n"
           " ld.param.u64 %%rd1, [a];\n"
           " ld.param.u32 %%r1, [stride];\n"
           " mov.u32 %%r2, %%tid.x;\n"
           " mov.u32 %%r3, %%ctaid.x;\n"
           " mad.lo.u32 %%r4, %%r3, 1024, %%r2;\n"
           " mul.lo.u32 %%r5, %%r4, %%r1;\n"
           " mul.wide.u32 %%rd2, %%r5, 4;\n"
           " add.u64 %%rd3, %%rd1, %%rd2;\n"
           " ld.global.f32 %%f1, [%%rd3];\n"
           " ret;\n}\n");
    tctx t;
    tt_load(&t, &b);
    ws_gpu_config g;
    tt_config(&g, "teaching");
    t_p64(&t, t_alloc(&t, NULL, (size_t)2048 * stride * 4));
    t_p32(&t, stride);
    tt_run(&t, &g, "k", D3(2, 1, 1), D3(1024, 1, 1), 0, 16, ts);
    t_free(&t);
    return ts->cycles;
}

/* The coalescing rule for 4-byte words at a stride of s words: a warp
 * touches min(32, 4s) sectors in min(32, s) lines (L1 wavefronts).  The
 * sectors all miss (each is read once) and come from DRAM at 64 B per
 * cycle (two channels of 32 B): once the loads are in flight, each sector
 * adds half a cycle.  So doubling s up to 8 adds exactly half a cycle per
 * extra sector, and the whole run is the transfer plus the idle DRAM
 * latency (400) plus the issue of the loads, within a few percent. */
static void test_global_stride(void **state)
{
    (void)state;
    enum { WARPS = 64 };
    uint64_t prev = 0, prev_sectors = 0, prologue = 0;
    for (uint32_t s = 1; s <= 32; s *= 2) {
        ws_timing_stats ts;
        uint64_t cycles = global_stride_cycles(s, &ts);
        uint64_t sectors = s >= 8 ? 32 : 4 * s, lines = s;
        assert_int_equal(ts.l1_sectors, WARPS * sectors);
        assert_int_equal(ts.l1_hit_sectors, 0);
        assert_int_equal(ts.l1_wavefronts, WARPS * lines);
        assert_int_equal(ts.dram_bytes_read, WARPS * sectors * 32);
        uint64_t transfer = WARPS * sectors * 32 / 64;
        if (s == 1) prologue = cycles - 400 - transfer;
        if (s > 1 && s <= 8) assert_int_equal(cycles - prev, WARPS * (sectors - prev_sectors) / 2);
        /* the loads of 64 warps issue within the first 100 cycles */
        assert_true(prologue < 100);
        double model = (double)(transfer + 400 + prologue);
        assert_true((double)cycles > model * 0.97 && (double)cycles < model * 1.03);
        prev = cycles;
        prev_sectors = sectors;
    }
}

/* One warp loads 32 consecutive floats (4 sectors, one line) twice with
 * load instruction ld; the second load's address depends on the first's
 * data (as in validation/probes/counter_probe.cu's CACHE_OP_PROBE), so it
 * looks the sectors up after they arrived. */
static void cache_op_run(const char *ld, ws_timing_stats *ts)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry k(.param .u64 in)\n{\n"
           " .reg .f32 %%f<4>;\n .reg .b32 %%r<4>;\n .reg .b64 %%rd<8>;\n"
           " ld.param.u64 %%rd1, [in];\n"
           " mov.u32 %%r1, %%tid.x;\n"
           " mul.wide.u32 %%rd2, %%r1, 4;\n"
           " add.u64 %%rd3, %%rd1, %%rd2;\n"
           " %s.f32 %%f1, [%%rd3];\n"
           " mul.f32 %%f2, %%f1, 0f00000000;\n"
           " cvt.rzi.s32.f32 %%r2, %%f2;\n"
           " mul.wide.s32 %%rd4, %%r2, 4;\n"
           " add.u64 %%rd5, %%rd3, %%rd4;\n"
           " %s.f32 %%f3, [%%rd5];\n"
           " ret;\n}\n", ld, ld);
    tctx t;
    tt_load(&t, &b);
    ws_gpu_config g;
    tt_config(&g, "teaching");
    t_p64(&t, t_alloc(&t, NULL, 128));
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(32, 1, 1), 0, 16, ts);
    t_free(&t);
}

/* The PTX ISA's cache operators (section "Cache Operators"): which loads
 * allocate in L1.  Those that do find the second load's 4 sectors there
 * (a 50 % hit rate, 4 sectors from L2); .cg, .cv and ld.volatile go to L2
 * both times (0 %, 8), as does .L1::no_allocate here.  Where
 * validation/results/h200_counter_probe.csv has the probe's hit rate or
 * L2 sectors for the operator, they must agree too. */
static void test_cache_operators(void **state)
{
    (void)state;
    static const struct { const char *probe, *ld; bool allocates; } t[] = {
        {"cache_ld_default", "ld.global", true},
        {"cache_ld_ca", "ld.global.ca", true},
        {"cache_ld_cg", "ld.global.cg", false},
        {"cache_ld_cs", "ld.global.cs", true},
        {"cache_ld_lu", "ld.global.lu", true},
        {"cache_ld_cv", "ld.global.cv", false},
        {"cache_ld_volatile", "ld.volatile.global", false},
        {"cache_ld_nc", "ld.global.nc", true},
        {"cache_ld_L1_no_allocate", "ld.global.L1::no_allocate", false},
        {"cache_ld_L1_evict_first", "ld.global.L1::evict_first", true},
    };
    probe_row rows[256];
    int n = probe_rows(rows, 256);
    if (n < 0) fail_msg("cannot read %s", PROBE_DATA_FILE);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ws_timing_stats ts;
        cache_op_run(t[i].ld, &ts);
        uint64_t hits = t[i].allocates ? 4 : 0;
        if (ts.l1_sectors != 8 || ts.l1_hit_sectors != hits || ts.l2_sectors != 8 - hits)
            fail_msg("%s: %llu L1 sectors, %llu hits, %llu at L2; want 8, %llu, %llu", t[i].ld,
                     (unsigned long long)ts.l1_sectors, (unsigned long long)ts.l1_hit_sectors,
                     (unsigned long long)ts.l2_sectors, (unsigned long long)hits,
                     (unsigned long long)(8 - hits));
        const char *rate = probe_value(rows, n, t[i].probe, "l1tex__t_sector_hit_rate.pct");
        if (rate && (uint64_t)(strtod(rate, NULL) + 0.5) != 100 * hits / 8)
            fail_msg("%s: H200 L1 hit rate %s %%, warpsim %llu %%", t[i].ld, rate,
                     (unsigned long long)(100 * hits / 8));
        const char *l2 = probe_value(rows, n, t[i].probe, "lts__t_sectors_srcunit_tex_op_read.sum");
        if (l2 && strtoull(l2, NULL, 10) != 8 - hits)
            fail_msg("%s: H200 %s L2 read sectors, warpsim %llu", t[i].ld, l2,
                     (unsigned long long)(8 - hits));
    }
}

/* Two warps of one block: warp 0 runs a dependent chain of n FFMAs, warp
 * 1 one of m, then both meet at bar.sync and store. */
static uint64_t barrier_cycles(int n, int m, ws_timing_stats *ts)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD ".visible .entry k(.param .u64 out)\n{\n"
           " .reg .pred %%p<2>;\n .reg .f32 %%f<2>;\n .reg .b32 %%r<4>;\n .reg .b64 %%rd<2>;\n"
           " ld.param.u64 %%rd1, [out];\n"
           " mov.u32 %%r1, %%tid.x;\n"
           " shr.u32 %%r2, %%r1, 5;\n"
           " setp.eq.u32 %%p1, %%r2, 0;\n"
           " mov.f32 %%f1, 0f3F800000;\n"
           " @%%p1 bra W0;\n");
    for (int i = 0; i < m; i++) tb(&b, " fma.rn.f32 %%f1, %%f1, %%f1, %%f1;\n");
    tb(&b, " bra.uni SYNC;\nW0:\n");
    for (int i = 0; i < n; i++) tb(&b, " fma.rn.f32 %%f1, %%f1, %%f1, %%f1;\n");
    tb(&b, "SYNC:\n bar.sync 0;\n st.global.f32 [%%rd1], %%f1;\n ret;\n}\n");
    tctx t;
    tt_load(&t, &b);
    ws_gpu_config g;
    tt_config(&g, "teaching");
    t_p64(&t, t_alloc(&t, NULL, 4));
    tt_run(&t, &g, "k", D3(1, 1, 1), D3(64, 1, 1), 0, 16, ts);
    t_free(&t);
    return ts->cycles;
}

/* The block leaves the barrier when its slowest warp arrives.  Both
 * warps issue the same prologue (ld.param 0, mov 1, shr 5, setp 9, mov 10,
 * the branch 13; its target is known 2 cycles later, latencyBranch).
 * Warp 0 takes it: its FFMAs issue at 15 + 4(k-1) and bar.sync, which
 * reads no register, the cycle after the last: 4n + 12.  Warp 1 falls
 * through: m FFMAs from 15, bra.uni the cycle after the last (4m + 12, or
 * 15 when m = 0) and bar.sync 2 cycles later: 4m + 14 (17 when m = 0).
 * For 0 < m < n warp 0 is the slowest and warp 1 waits 4(n - m) - 2
 * cycles at the barrier; the store after it waits for warp 0's chain
 * (ready at 4n + 15) either way, so the cycles do not depend on m.  For
 * m > n warp 1 is the slowest and each FFMA more adds its 4 cycles (and
 * warp 0's store, released at 4m + 14, meets warp 1's at the L2 slice). */
static void test_barrier_waits_for_slowest(void **state)
{
    (void)state;
    enum { N = 32 };
    ws_timing_stats ts;
    uint64_t slow = barrier_cycles(N, 1, &ts);
    assert_int_equal(ts.stall[WS_STALL_BARRIER], 4 * (N - 1) - 2);
    for (int m = 8; m < N; m += 8) {
        assert_int_equal(barrier_cycles(N, m, &ts), slow);
        assert_int_equal(ts.stall[WS_STALL_BARRIER], 4 * (uint64_t)(N - m) - 2);
    }
    assert_int_equal(barrier_cycles(N, 0, &ts), slow);
    assert_int_equal(ts.stall[WS_STALL_BARRIER], 4 * N - 5);
    /* m = n: warp 0 waits 2; both stores now issue at 4n + 15 and meet at
     * one L2 slice (a 32 B sector per cycle): the second is 1 later */
    assert_int_equal(barrier_cycles(N, N, &ts), slow + 1);
    assert_int_equal(ts.stall[WS_STALL_BARRIER], 2);
    for (int m = N + 8; m <= N + 32; m += 8) {
        assert_int_equal(barrier_cycles(N, m, &ts), slow + 4 * (uint64_t)(m - N) + 1);
        assert_int_equal(ts.stall[WS_STALL_BARRIER], 4 * (uint64_t)(m - N) + 2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_conflict_degree),
        cmocka_unit_test(test_shared_atomic_same_address),
        cmocka_unit_test(test_global_stride),
        cmocka_unit_test(test_cache_operators),
        cmocka_unit_test(test_barrier_waits_for_slowest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
