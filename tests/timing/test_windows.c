/* Windows of cycles (sim/core/timing_window.h): each SM runs up to an L2
 * latency of cycles on its own before the SMs meet.
 *   - a grid of one wave: the CPU's results and every counter, stall and
 *     cycle of a run cycle by cycle (window 1);
 *   - a grid of several waves (a slot that frees in a window takes a block
 *     set aside for its SM): the CPU's results, every block once, the same
 *     cycles and counters on 1, 2, 3 and 8 threads, and cycles within 2 %
 *     of the cycle-by-cycle run's, for windows of several lengths;
 *   - blocks shorter than a window, many waves of them: every one runs;
 *   - a store out of bounds reports the fault it reports cycle by cycle
 *     (in a grid of several waves, the same on any threads);
 *   - kernels whose SMs may read what one of them wrote in a window run
 *     cycle by cycle;
 *   - a grid-stride loop whose pointers keep its loads and stores apart
 *     runs in windows, and a load or store that strays faults;
 *   - global atomics whose old values nothing reads run in windows, with
 *     the results and cycles of a run cycle by cycle;
 *   - on 3 threads or more a window's writes go SM by SM on the threads
 *     where no two SMs write one line, and one by one, with one thread's
 *     results, where several SMs store to the same words;
 *   - the pages a window's stores make as they issue are those its writes
 *     would make at its end: none for stores of zeros. */
#include "timing_util.h"

#include <math.h>
#include <string.h>

#include "sim/core/timing_window.h"

static const char *const src = PTX_HEAD
    /* out[i] = a[i-1] + 2 a[i] + a[i+1] through shared memory (edges
     * clamped to the block), then (i % 5) rounds of x = x * 0.5 + 1 */
    ".visible .entry smooth(.param .u64 pa, .param .u64 pout)\n"
    "{\n"
    " .reg .b32 %r<20>;\n .reg .b64 %rd<12>;\n .reg .f32 %f<10>;\n .reg .pred %p<4>;\n"
    " .shared .align 4 .b32 tile[128];\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [pout];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n"
    " mul.wide.u32 %rd5, %r4, 4;\n add.u64 %rd6, %rd1, %rd5;\n"
    " ld.global.f32 %f1, [%rd6];\n"
    " mov.u32 %r5, tile;\n shl.b32 %r6, %r3, 2;\n add.u32 %r7, %r5, %r6;\n"
    " st.shared.f32 [%r7], %f1;\n"
    " bar.sync 0;\n"
    " sub.u32 %r8, %r3, 1;\n max.s32 %r8, %r8, 0;\n"
    " add.u32 %r9, %r3, 1;\n sub.u32 %r10, %r2, 1;\n min.u32 %r9, %r9, %r10;\n"
    " shl.b32 %r8, %r8, 2;\n add.u32 %r8, %r5, %r8;\n ld.shared.f32 %f2, [%r8];\n"
    " shl.b32 %r9, %r9, 2;\n add.u32 %r9, %r5, %r9;\n ld.shared.f32 %f3, [%r9];\n"
    " add.f32 %f4, %f1, %f1;\n add.f32 %f4, %f4, %f2;\n add.f32 %f4, %f4, %f3;\n"
    " rem.u32 %r11, %r4, 5;\n mov.u32 %r12, 0;\n"
    " setp.eq.u32 %p1, %r11, 0;\n @%p1 bra STORE;\n"
    "LOOP:\n"
    " fma.rn.f32 %f4, %f4, 0f3F000000, 0f3F800000;\n add.u32 %r12, %r12, 1;\n"
    " setp.lt.u32 %p2, %r12, %r11;\n @%p2 bra LOOP;\n"
    "STORE:\n"
    " add.u64 %rd7, %rd2, %rd5;\n st.global.f32 [%rd7], %f4;\n"
    " ret;\n"
    "}\n"
    /* a[i] += 1 in a loop of 3: reads back its own store */
    ".visible .entry bump(.param .u64 pa)\n"
    "{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<4>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [pa];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd5, %r4, 4;\n add.u64 %rd6, %rd1, %rd5;\n"
    " mov.u32 %r5, 0;\n"
    "AGAIN:\n"
    " ld.global.f32 %f1, [%rd6];\n add.f32 %f1, %f1, 0f3F800000;\n st.global.f32 [%rd6], %f1;\n"
    " add.u32 %r5, %r5, 1;\n setp.lt.u32 %p1, %r5, 3;\n @%p1 bra AGAIN;\n"
    " ret;\n"
    "}\n"
    /* bump with a global atomic besides: cycle by cycle */
    ".visible .entry bumpred(.param .u64 pa)\n"
    "{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<4>;\n"
    " ld.param.u64 %rd1, [pa];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd5, %r1, 4;\n add.u64 %rd6, %rd1, %rd5;\n"
    " ld.global.f32 %f1, [%rd6];\n add.f32 %f1, %f1, 0f3F800000;\n st.global.f32 [%rd6], %f1;\n"
    " ld.global.f32 %f2, [%rd6];\n red.global.add.f32 [%rd1], %f2;\n"
    " ret;\n"
    "}\n"
    /* a block's 2 * 128 elements of a summed in place, PMPP's first
     * reduction: a[i] += a[i + stride] where tid % stride == 0, a barrier
     * each step; thread 0 stores the block's sum in out */
    ".visible .entry treesum(.param .u64 pa, .param .u64 pout)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n .reg .f32 %f<4>;\n .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [pa];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " ld.param.u64 %rd2, [pout];\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " shl.b32 %r4, %r2, 1;\n mul.lo.u32 %r5, %r1, %r4;\n shl.b32 %r6, %r3, 1;\n add.u32 %r7, %r5, %r6;\n"
    " mul.wide.u32 %rd3, %r7, 4;\n add.u64 %rd4, %rd1, %rd3;\n mov.u32 %r8, 1;\n"
    "STEP:\n"
    " setp.gt.u32 %p1, %r8, %r2;\n @%p1 bra DONE;\n"
    " rem.u32 %r9, %r3, %r8;\n setp.ne.u32 %p2, %r9, 0;\n @%p2 bra SKIP;\n"
    " ld.global.f32 %f1, [%rd4];\n mul.wide.u32 %rd5, %r8, 4;\n add.u64 %rd6, %rd4, %rd5;\n"
    " ld.global.f32 %f2, [%rd6];\n add.f32 %f1, %f1, %f2;\n st.global.f32 [%rd4], %f1;\n"
    "SKIP:\n"
    " bar.sync 0;\n shl.b32 %r8, %r8, 1;\n bra STEP;\n"
    "DONE:\n"
    " setp.ne.u32 %p3, %r3, 0;\n @%p3 bra END;\n"
    " mul.wide.u32 %rd7, %r5, 4;\n add.u64 %rd8, %rd1, %rd7;\n ld.global.f32 %f3, [%rd8];\n"
    " mul.wide.u32 %rd9, %r1, 4;\n add.u64 %rd10, %rd2, %rd9;\n st.global.f32 [%rd10], %f3;\n"
    "END:\n"
    " ret;\n"
    "}\n"
    /* counts its block with an atomic */
    ".visible .entry count(.param .u64 pa)\n"
    "{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [pa];\n atom.global.add.u32 %r1, [%rd1], 1;\n ret;\n"
    "}\n"
    /* reads a flag another block sets */
    ".visible .entry peek(.param .u64 pa)\n"
    "{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [pa];\n ld.volatile.global.u32 %r1, [%rd1];\n st.global.u32 [%rd1+4], %r1;\n ret;\n"
    "}\n"
    /* out[i + sshift] = a[i + lshift] + 1 in a grid-stride loop: a load
     * that follows a store in the code, through another pointer */
    ".visible .entry gstride(.param .u64 pa, .param .u64 pout, .param .u32 pn, .param .u32 pl, .param .u32 ps)\n"
    "{\n"
    " .reg .b32 %r<16>;\n .reg .b64 %rd<12>;\n .reg .f32 %f<4>;\n .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [pout];\n ld.param.u32 %r6, [pn];\n"
    " ld.param.u32 %r9, [pl];\n ld.param.u32 %r10, [ps];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r1, %ntid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.s32 %r4, %r2, %r1, %r3;\n mov.u32 %r7, %nctaid.x;\n mul.lo.s32 %r5, %r1, %r7;\n"
    " setp.ge.s32 %p1, %r4, %r6;\n @%p1 bra DONE;\n"
    "LOOP:\n"
    " add.s32 %r8, %r4, %r9;\n mul.wide.s32 %rd3, %r8, 4;\n add.s64 %rd4, %rd1, %rd3;\n"
    " ld.global.f32 %f1, [%rd4];\n add.f32 %f2, %f1, 0f3F800000;\n"
    " add.s32 %r11, %r4, %r10;\n mul.wide.s32 %rd5, %r11, 4;\n add.s64 %rd6, %rd2, %rd5;\n"
    " st.global.f32 [%rd6], %f2;\n"
    " add.s32 %r4, %r4, %r5;\n setp.lt.s32 %p2, %r4, %r6;\n @%p2 bra LOOP;\n"
    "DONE:\n"
    " ret;\n"
    "}\n"
    /* h[a[i] % 8] += 1 and s += a[i] * 0.1 with atomics whose old values
     * nothing reads (an atom's destination unread, a red) */
    ".visible .entry hist(.param .u64 pa, .param .u64 ph, .param .u64 ps)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n .reg .f32 %f<4>;\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [ph];\n ld.param.u64 %rd3, [ps];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n cvta.to.global.u64 %rd3, %rd3;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd4, %r4, 4;\n add.u64 %rd5, %rd1, %rd4;\n"
    " ld.global.u32 %r5, [%rd5];\n"
    " and.b32 %r6, %r5, 7;\n mul.wide.u32 %rd6, %r6, 4;\n add.u64 %rd7, %rd2, %rd6;\n"
    " atom.global.add.u32 %r7, [%rd7], 1;\n"
    " cvt.rn.f32.u32 %f1, %r5;\n mul.f32 %f1, %f1, 0f3DCCCCCD;\n"
    " red.global.add.f32 [%rd3], %f1;\n"
    " ret;\n"
    "}\n"
    /* integer adds that wrap, on bytes that exist before the launch (their
     * writes find them as they issue): w64[a[i] % 4] += a[i] * 2654435761
     * and w32[a[i] % 8] += a[i] * 2246822519, modulo 2^64 and 2^32 */
    ".visible .entry wrap(.param .u64 pa, .param .u64 pw)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [pw];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd4, %r4, 4;\n add.u64 %rd5, %rd1, %rd4;\n"
    " ld.global.u32 %r5, [%rd5];\n"
    " and.b32 %r6, %r5, 3;\n mul.wide.u32 %rd6, %r6, 8;\n add.u64 %rd7, %rd2, %rd6;\n"
    " mov.u32 %r10, 2654435761;\n mul.wide.u32 %rd8, %r5, %r10;\n"
    " red.global.add.u64 [%rd7], %rd8;\n"
    " mov.u32 %r11, 2246822519;\n mul.lo.u32 %r7, %r5, %r11;\n"
    " and.b32 %r8, %r5, 7;\n mul.wide.u32 %rd9, %r8, 4;\n add.u64 %rd10, %rd2, 32;\n add.u64 %rd10, %rd10, %rd9;\n"
    " atom.global.add.u32 %r9, [%rd10], %r7;\n"
    " ret;\n"
    "}\n"
    /* every block stores to the same 128 words, which SMs of one window
     * then write: shared[tid] = block * 1000 + tid; and each thread
     * own[i] = i, apart from the others */
    ".visible .entry overlap(.param .u64 pshared, .param .u64 pown)\n"
    "{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [pshared];\n ld.param.u64 %rd2, [pown];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd3, %r4, 4;\n add.u64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r4;\n"
    " mad.lo.u32 %r5, %r1, 1000, %r3;\n mul.wide.u32 %rd5, %r3, 4;\n add.u64 %rd6, %rd1, %rd5;\n"
    " st.global.u32 [%rd6], %r5;\n"
    " ret;\n"
    "}\n"
    /* zero[i] = 0 and, in blocks 0, 2, 4, ..., odd[i] = i: of buffers no
     * byte of which was written before, pages that only ever get zeros */
    ".visible .entry zeros(.param .u64 pzero, .param .u64 podd)\n"
    "{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [pzero];\n ld.param.u64 %rd2, [podd];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd3, %r4, 4;\n"
    " add.u64 %rd4, %rd1, %rd3;\n mov.u32 %r5, 0;\n st.global.u32 [%rd4], %r5;\n"
    " and.b32 %r6, %r1, 1;\n setp.ne.u32 %p1, %r6, 0;\n"
    " add.u64 %rd5, %rd2, %rd3;\n @!%p1 st.global.u32 [%rd5], %r4;\n"
    " ret;\n"
    "}\n"
    /* a block that ends at once */
    ".visible .entry quick()\n"
    "{\n"
    " .reg .b32 %r<2>;\n"
    " mov.u32 %r1, %tid.x;\n ret;\n"
    "}\n"
    /* blocks below plong count to 300 first; the rest end at once */
    ".visible .entry late_quick(.param .u32 plong)\n"
    "{\n"
    " .reg .b32 %r<4>;\n .reg .pred %p<3>;\n"
    " ld.param.u32 %r1, [plong];\n mov.u32 %r2, %ctaid.x;\n"
    " setp.ge.u32 %p1, %r2, %r1;\n @%p1 bra DONE;\n mov.u32 %r3, 0;\n"
    "LOOP:\n"
    " add.u32 %r3, %r3, 1;\n setp.lt.u32 %p2, %r3, 300;\n @%p2 bra LOOP;\n"
    "DONE:\n ret;\n"
    "}\n";

enum { MAXN = 1 << 20 };

typedef struct outcome {
    bool ok;
    ws_error err;
    ws_launch_stats st;
    ws_timing_stats ts;
    float *out;
} outcome;

/* The test's module into t, and the h200 config into g. */
static void load_h200(tctx *t, ws_gpu_config *g)
{
    if (!t_load(t, src, "windows.ptx")) fail_msg("load: %s", t->err.msg);
    tt_config(g, "h200");
}

/* Kernel name of t, its parameters packed, in grid blocks of 128 on g,
 * window cycles per window (0: warpsim's), on threads, into *o (its out
 * left to the caller); *win, when win is not NULL, gets the window length
 * warpsim chooses for the launch and *ap its stores' allocations. */
static void launch_128(tctx *t, const ws_gpu_config *g, const char *name, uint32_t grid, uint32_t window,
                       int32_t threads, uint32_t *win, ws_apart *ap, outcome *o)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    assert_non_null(k);
    ws_launch l = {.grid = D3(grid, 1, 1), .block = D3(128, 1, 1), .params = t->params,
                   .params_size = t->nparams};
    ws_timing_options opt = tt_threaded(threads, window);
    bool own;
    ws_window_reason why;
    if (win) *win = ws_window_cycles(t->p, k, &l, &opt, g, ap, &own, &why);
    memset(o, 0, sizeof *o);
    o->ok = ws_launch_timed(t->p, k, &l, g, &opt, &o->st, &o->ts, &o->err);
}

/* A launch's output, the n floats at addr, into o->out; t freed. */
static void take_out(tctx *t, uint64_t addr, uint32_t n, outcome *o)
{
    o->out = malloc(sizeof(float) * n);
    assert_non_null(o->out);
    assert_true(ws_devmem_read(t->mem, addr, o->out, sizeof(float) * n));
    t_free(t);
}

/* smooth on n elements in blocks of 128 (the out buffer holds out_n) on
 * the h200 config, window cycles per window (0: warpsim's), on threads. */
static void run_smooth(uint32_t n, uint32_t out_n, uint32_t window, int32_t threads, outcome *o)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    float *a = malloc(sizeof *a * n);
    assert_non_null(a);
    for (uint32_t i = 0; i < n; i++) a[i] = (float)(i % 17) * 0.25f;
    t_p64(&t, t_alloc(&t, a, sizeof *a * n));
    uint64_t out = t_alloc(&t, NULL, sizeof(float) * out_n);
    t_p64(&t, out);
    free(a);
    launch_128(&t, &g, "smooth", n / 128, window, threads, NULL, NULL, o);
    take_out(&t, out, out_n, o);
}

static void check_cpu(const float *out, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t tid = i % 128, lo = tid ? i - 1 : i, hi = tid < 127 ? i + 1 : i;
        float a = (float)(i % 17) * 0.25f, x = a + a;
        x = x + (float)(lo % 17) * 0.25f;
        x = x + (float)(hi % 17) * 0.25f;
        for (uint32_t r = 0; r < i % 5; r++) x = fmaf(x, 0.5f, 1.0f);
        if (out[i] != x) fail_msg("out[%u] = %g, the CPU says %g", i, (double)out[i], (double)x);
    }
}

static void test_one_wave_times_as_cycle_by_cycle(void **state)
{
    (void)state;
    /* 132 SMs hold 16 blocks of 128 threads each: 1024 blocks is one wave */
    enum { N = 1024 * 128 };
    outcome w1, w;
    run_smooth(N, N, 1, 1, &w1);
    run_smooth(N, N, 0, 1, &w);
    assert_true(w1.ok && w.ok);
    check_cpu(w.out, N);
    assert_memory_equal(w.out, w1.out, sizeof(float) * N);
    assert_memory_equal(&w.st, &w1.st, sizeof w.st);
    assert_int_equal(w.ts.cycles, w1.ts.cycles);
    assert_memory_equal(w.ts.stall, w1.ts.stall, sizeof w.ts.stall);
    assert_int_equal(w.ts.l2_hit_sectors, w1.ts.l2_hit_sectors);
    assert_int_equal(w.ts.dram_bytes_read, w1.ts.dram_bytes_read);
    /* the windows ran: fewer trips through the main loop than cycles */
    assert_true(w.ts.loop_iterations * 20 < w1.ts.loop_iterations);
    free(w1.out);
    free(w.out);
}

/* The counters a summary shows, equal (the loop's own counts differ). */
static void same_results(const outcome *a, const outcome *b, uint32_t n)
{
    assert_true(a->ok && b->ok);
    assert_memory_equal(a->out, b->out, sizeof(float) * n);
    tt_same_counters(&a->st, &a->ts, &b->st, &b->ts);
}

/* Within 2 % of the cycle-by-cycle run: the same work. */
static void close_to(const outcome *a, const outcome *w1, uint32_t n)
{
    assert_true(a->ok && w1->ok);
    assert_memory_equal(a->out, w1->out, sizeof(float) * n);
    assert_int_equal(a->st.warp_insts, w1->st.warp_insts);
    assert_int_equal(a->st.blocks, w1->st.blocks);
    double d = (double)a->ts.cycles / (double)w1->ts.cycles;
    if (d < 0.98 || d > 1.02)
        fail_msg("%llu cycles in windows, %llu cycle by cycle", (unsigned long long)a->ts.cycles,
                 (unsigned long long)w1->ts.cycles);
}

static void test_waves_on_any_threads(void **state)
{
    (void)state;
    /* 2500 blocks: 2.4 waves of 1056 (h200: 132 SMs, 8 blocks each at 32
     * registers) */
    enum { N = 2500 * 128 };
    outcome w1, one;
    run_smooth(N, N, 1, 1, &w1);
    check_cpu(w1.out, N);
    assert_int_equal(w1.st.blocks, N / 128);
    run_smooth(N, N, 0, 1, &one);
    close_to(&one, &w1, N);
    assert_true(one.ts.loop_iterations * 20 < w1.ts.loop_iterations);
    assert_int_equal(one.ts.host.shortened, 0);     /* its blocks outlast a window */
    static const int32_t threads[] = {2, 3, 8};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        outcome o;
        run_smooth(N, N, 0, threads[i], &o);
        same_results(&o, &one, N);
        /* on 3 threads or more the others answered the L2's requests and,
         * each thread's stores apart from the others', did the SMs' writes */
        if (threads[i] > 2) assert_true(o.ts.l2_split_windows > 0 && o.ts.writes_apart_windows > 0);
        /* on 2 (no split) a thread with no SM left answered requests
         * while the others still ran */
        if (threads[i] == 2) assert_true(o.ts.streamed_windows > 0);
        free(o.out);
    }
    static const uint32_t windows[] = {2, 7, 100};
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        outcome a, b;
        run_smooth(N, N, windows[i], 1, &a);
        run_smooth(N, N, windows[i], 3, &b);
        same_results(&b, &a, N);
        close_to(&a, &w1, N);
        free(a.out);
        free(b.out);
    }
    free(one.out);
    free(w1.out);
}

/* Blocks that end within a few cycles, in many waves: in a window a slot
 * ends its first block and then the block set aside for it, so the SM
 * ends more blocks in the window than it held at its start; the
 * dispatcher must hear of the starts before the ends, or it counts the SM
 * full of blocks it no longer holds (6,912 of 20,000 such blocks ran on
 * the a100 config, and the launch ended as if done).  And a slot that
 * then waits for the window's end, where cycle by cycle it would take the
 * grid's next block at once, makes the windows shorter: the cycles of a
 * run cycle by cycle, within 5 % and 1 % (539 cycles against 47 with
 * windows of 253 throughout), whether such blocks come first (quick) or after a
 * wave that outlasts the windows (late_quick). */
static void short_blocks(const char *kernel, uint32_t nblocks, double within)
{
    outcome w1, w, w3;
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    /* late_quick: a wave of 2,112 blocks (h200: 132 SMs, 16 blocks of
     * 128 threads) counts first */
    if (!strcmp(kernel, "late_quick")) t_p32(&t, 2112);
    launch_128(&t, &g, kernel, nblocks, 1, 1, NULL, NULL, &w1);
    launch_128(&t, &g, kernel, nblocks, 0, 1, NULL, NULL, &w);
    launch_128(&t, &g, kernel, nblocks, 0, 3, NULL, NULL, &w3);
    t_free(&t);
    if (!w.ok) fail_msg("%s: %s", kernel, w.err.msg);
    assert_true(w1.ok && w3.ok);
    assert_int_equal(w1.st.blocks, nblocks);
    assert_int_equal(w.st.blocks, nblocks);
    assert_int_equal(w.st.warp_insts, w1.st.warp_insts);
    tt_same_counters(&w3.st, &w3.ts, &w.st, &w.ts);
    /* windows ran, the later waves' blocks set aside; late_quick's grew
     * to their longest over its first waves and were shortened after
     * (quick's start short and stay so) */
    assert_true(w.ts.loop_iterations < w1.ts.loop_iterations);
    if (!strcmp(kernel, "late_quick")) assert_true(w.ts.host.shortened > 0);
    assert_int_equal(w3.ts.host.shortened, w.ts.host.shortened);
    double d = (double)w.ts.cycles / (double)w1.ts.cycles;
    if (d < 1 - within || d > 1 + within)
        fail_msg("%s: %llu cycles in windows, %llu cycle by cycle", kernel, (unsigned long long)w.ts.cycles,
                 (unsigned long long)w1.ts.cycles);
}

static void test_blocks_shorter_than_a_window(void **state)
{
    (void)state;
    short_blocks("quick", 20000, 0.05);         /* 48 cycles against 47 */
    /* 28,323 against 28,299; 29,055 with windows that do not halve */
    short_blocks("late_quick", 100000, 0.01);
}

static void test_store_fault_as_cycle_by_cycle(void **state)
{
    (void)state;
    /* the out buffer is 100 elements short: block 3's last warp writes past it */
    enum { N = 3000 * 128 };
    outcome w1, w;
    run_smooth(4 * 128, 4 * 128 - 100, 1, 1, &w1);
    run_smooth(4 * 128, 4 * 128 - 100, 0, 3, &w);
    assert_false(w1.ok);
    assert_false(w.ok);
    assert_int_equal(w.err.kind, WS_ERR_ILLEGAL_ADDRESS);
    assert_string_equal(w.err.msg, w1.err.msg);
    assert_non_null(strstr(w.err.msg, "Invalid __global__ write"));
    free(w1.out);
    free(w.out);
    /* in a grid of several waves another block may be the first to fault
     * (blocks go to SMs in another order): the same on any threads */
    run_smooth(N, N - 1000, 0, 1, &w1);
    run_smooth(N, N - 1000, 0, 3, &w);
    assert_false(w1.ok);
    assert_false(w.ok);
    assert_string_equal(w.err.msg, w1.err.msg);
    assert_non_null(strstr(w.err.msg, "Invalid __global__ write"));
    free(w1.out);
    free(w.out);
}

static void test_which_kernels(void **state)
{
    (void)state;
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    assert_true(ws_window_code_ok(t.p, ws_program_kernel(t.p, "smooth")));
    assert_false(ws_window_code_ok(t.p, ws_program_kernel(t.p, "bump")));     /* a load after a store */
    assert_true(ws_window_code_ok(t.p, ws_program_kernel(t.p, "count")));     /* a global atomic, its old value unread */
    assert_false(ws_window_code_ok(t.p, ws_program_kernel(t.p, "peek")));     /* a volatile load */
    const ws_kernel *k = ws_program_kernel(t.p, "smooth");
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(128, 1, 1)};
    ws_timing_options o = ws_timing_defaults();
    ws_apart ap;
    bool own = true;
    ws_window_reason why;
    char text[320];
    assert_int_equal(ws_window_cycles(t.p, k, &l, &o, &g, &ap, &own, &why), (uint32_t)g.latencyL2Hit);
    assert_false(own);
    assert_int_equal(why.why, WS_WHY_IN_WINDOWS);
    ws_window_reason_text(t.p, why, text, sizeof text);
    assert_string_equal(text, "");
    o.window_cycles = 16;
    assert_int_equal(ws_window_cycles(t.p, k, &l, &o, &g, &ap, &own, &why), 16);
    o.window_cycles = 100000;       /* never past an L2 answer */
    assert_int_equal(ws_window_cycles(t.p, k, &l, &o, &g, &ap, &own, &why), (uint32_t)g.latencyL2Hit);
    o.window_cycles = 1;
    assert_int_equal(ws_window_cycles(t.p, k, &l, &o, &g, &ap, &own, &why), 1);
    ws_window_reason_text(t.p, why, text, sizeof text);
    assert_string_equal(text, "asked for (--window 1)");
    o.window_cycles = 0;
    ws_pc_counts pcc[1];
    l.pc_counts = pcc;              /* per-line counters: sums, kept per thread, in windows */
    assert_int_equal(ws_window_cycles(t.p, k, &l, &o, &g, &ap, &own, &why), (uint32_t)g.latencyL2Hit);
    l.pc_counts = NULL;
    /* the checks: findings kept per SM, in windows (window_order.h) */
    l.checks = WS_CHECK_RACE | WS_CHECK_SYNC | WS_CHECK_INIT;
    assert_int_equal(ws_window_cycles(t.p, k, &l, &o, &g, &ap, &own, &why), (uint32_t)g.latencyL2Hit);
    l.checks = 0;
    /* the user is told what in the code keeps a launch cycle by cycle, and where */
    assert_int_equal(ws_window_cycles(t.p, ws_program_kernel(t.p, "peek"), &l, &o, &g, &ap, &own, &why), 1);
    ws_window_reason_text(t.p, why, text, sizeof text);
    if (!strstr(text, "its code has a volatile load: ld.") || !strstr(text, " at pc ") || !strstr(text, "(windows.ptx:"))
        fail_msg("why: %s", text);
    /* loads after stores through one pointer: windows, each SM reading
     * its own writes; with a global atomic besides, cycle by cycle */
    assert_int_equal(ws_window_cycles(t.p, ws_program_kernel(t.p, "bump"), &l, &o, &g, &ap, &own, &why),
                     (uint32_t)g.latencyL2Hit);
    assert_true(own);
    assert_int_equal(ap.n, 0);
    /* also under initcheck, which takes the SM's own writes as written */
    l.checks = WS_CHECK_INIT;
    assert_int_equal(ws_window_cycles(t.p, ws_program_kernel(t.p, "bump"), &l, &o, &g, &ap, &own, &why),
                     (uint32_t)g.latencyL2Hit);
    assert_true(own);
    l.checks = 0;
    assert_int_equal(ws_window_cycles(t.p, ws_program_kernel(t.p, "bumpred"), &l, &o, &g, &ap, &own, &why), 1);
    assert_false(own);
    ws_window_reason_text(t.p, why, text, sizeof text);
    assert_non_null(strstr(text, "it has a global atomic"));
    t_free(&t);
}

/* bump on n elements in blocks of 128: window cycles per window (0:
 * warpsim's), on threads; o->out its a. */
static void run_bump(uint32_t n, uint32_t window, int32_t threads, outcome *o)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    float *a = calloc(n, sizeof *a);
    assert_non_null(a);
    uint64_t addr = t_alloc(&t, a, sizeof *a * n);
    free(a);
    t_p64(&t, addr);
    launch_128(&t, &g, "bump", n / 128, window, threads, NULL, NULL, o);
    take_out(&t, addr, n, o);
}

/* bump reads back its own stores, three times over: in windows (each SM
 * reading its own writes) it is right, and one wave of it times exactly
 * as cycle by cycle, on any number of threads */
static void test_read_back_in_windows(void **state)
{
    (void)state;
    enum { N = 1000 * 128 };
    outcome w1, w, w3;
    run_bump(N, 1, 1, &w1);
    run_bump(N, 0, 1, &w);
    run_bump(N, 0, 3, &w3);
    for (uint32_t i = 0; i < N; i++) assert_float_equal(w.out[i], 3.0f, 0);
    same_results(&w, &w1, N);
    same_results(&w3, &w, N);
    assert_true(w.ts.loop_iterations * 20 < w1.ts.loop_iterations);     /* in windows */
    free(w1.out);
    free(w.out);
    free(w3.out);
}

/* treesum on nblocks blocks of 128 (a: 256 elements a block, out: a sum a
 * block), as run_bump. */
static void run_treesum(uint32_t nblocks, uint32_t window, int32_t threads, outcome *o)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    uint32_t n = nblocks * 256;
    float *a = malloc(sizeof *a * n);
    assert_non_null(a);
    for (uint32_t i = 0; i < n; i++) a[i] = (float)(i % 7);      /* sums exact in any order */
    t_p64(&t, t_alloc(&t, a, sizeof *a * n));
    free(a);
    uint64_t out = t_alloc(&t, NULL, sizeof(float) * nblocks);
    t_p64(&t, out);
    launch_128(&t, &g, "treesum", nblocks, window, threads, NULL, NULL, o);
    take_out(&t, out, nblocks, o);
}

static void check_treesum(const float *out, uint32_t nblocks)
{
    for (uint32_t b = 0; b < nblocks; b++) {
        float s = 0;
        for (uint32_t i = b * 256; i < (b + 1) * 256; i++) s += (float)(i % 7);
        if (out[b] != s) fail_msg("block %u: %g, the CPU says %g", b, (double)out[b], (double)s);
    }
}

/* A block's warps read what the block's other warps stored before a
 * barrier: one wave times exactly as cycle by cycle; three waves within
 * 2 % of it, the same on 1 and 3 threads. */
static void test_in_place_reduction(void **state)
{
    (void)state;
    outcome w1, w, w3;
    run_treesum(1000, 1, 1, &w1);
    run_treesum(1000, 0, 1, &w);
    run_treesum(1000, 0, 3, &w3);
    check_treesum(w.out, 1000);
    same_results(&w, &w1, 1000);
    same_results(&w3, &w, 1000);
    assert_true(w.ts.loop_iterations * 20 < w1.ts.loop_iterations);
    free(w1.out);
    free(w.out);
    free(w3.out);
    run_treesum(6000, 1, 1, &w1);
    run_treesum(6000, 0, 1, &w);
    run_treesum(6000, 0, 3, &w3);
    check_treesum(w.out, 6000);
    close_to(&w, &w1, 6000);
    same_results(&w3, &w, 6000);
    free(w1.out);
    free(w.out);
    free(w3.out);
}

enum { STRAY_NONE, STRAY_LOAD, STRAY_STORE };

/* gstride on n elements, 8 blocks of 128, a and out of n floats each
 * (out: a itself when in_place); stray: the loads read out's elements
 * instead of a's, or the stores write a's instead of out's; window cycles
 * per window (0: warpsim's) on threads; *win gets the window length
 * warpsim chose, *ap its stores' allocations. */
static void run_gstride(uint32_t n, bool in_place, int stray, uint32_t window, int32_t threads, uint32_t *win,
                        ws_apart *ap, outcome *o)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    float *a = malloc(sizeof *a * n);
    assert_non_null(a);
    for (uint32_t i = 0; i < n; i++) a[i] = (float)(i % 13);
    uint64_t pa = t_alloc(&t, a, sizeof *a * n), out = in_place ? pa : t_alloc(&t, NULL, sizeof *a * n);
    free(a);
    t_p64(&t, pa);
    t_p64(&t, out);
    t_p32(&t, n);
    int32_t apart = (int32_t)((int64_t)(out - pa) / (int64_t)sizeof *a);
    t_p32(&t, stray == STRAY_LOAD ? (uint32_t)apart : 0);
    t_p32(&t, stray == STRAY_STORE ? (uint32_t)-apart : 0);
    launch_128(&t, &g, "gstride", 8, window, threads, win, ap, o);
    take_out(&t, out, n, o);
}

/* A grid-stride loop loads after it stores, through pointers to two
 * allocations: it runs in windows, and times as cycle by cycle (a grid of
 * one wave), on any threads; a load or store that strays into the other
 * allocation stops the launch with a fault that says so (cycle by cycle
 * it runs); in place (one allocation), it runs in windows all the same,
 * each SM reading its own writes. */
static void test_pointers_apart(void **state)
{
    (void)state;
    enum { N = 1 << 14 };
    uint32_t win;
    ws_apart ap;
    outcome c, w, w3;
    run_gstride(N, false, STRAY_NONE, 1, 1, &win, &ap, &c);
    assert_int_equal(win, 1);
    assert_true(c.ok);
    for (uint32_t i = 0; i < N; i++) assert_float_equal(c.out[i], (float)(i % 13) + 1.0f, 0);
    run_gstride(N, false, STRAY_NONE, 0, 1, &win, &ap, &w);
    assert_true(win > 1);
    assert_int_equal(ap.n, 1);
    assert_int_equal(ap.hi[0] - ap.lo[0], sizeof(float) * N);
    assert_true(w.ok);
    assert_memory_equal(w.out, c.out, sizeof(float) * N);
    assert_int_equal(w.ts.cycles, c.ts.cycles);
    assert_int_equal(w.st.warp_insts, c.st.warp_insts);
    assert_true(w.ts.loop_iterations < w.ts.cycles / 4);     /* in windows */
    run_gstride(N, false, STRAY_NONE, 0, 3, &win, &ap, &w3);
    assert_true(w3.ok);
    assert_memory_equal(w3.out, c.out, sizeof(float) * N);
    assert_int_equal(w3.ts.cycles, c.ts.cycles);
    free(c.out);
    free(w.out);
    free(w3.out);

    /* the loads stray into out */
    run_gstride(N, false, STRAY_LOAD, 0, 1, &win, &ap, &w);
    assert_true(win > 1);
    assert_false(w.ok);
    if (!strstr(w.err.msg, "load from address")) fail_msg("%s", w.err.msg);
    assert_non_null(strstr(w.err.msg, "inside the allocations this launch's stores write"));
    assert_non_null(strstr(w.err.msg, "--window 1"));
    free(w.out);
    run_gstride(N, false, STRAY_LOAD, 1, 1, &win, &ap, &c);
    assert_true(c.ok);
    free(c.out);
    /* the stores stray into a */
    run_gstride(N, false, STRAY_STORE, 0, 1, &win, &ap, &w);
    assert_false(w.ok);
    if (!strstr(w.err.msg, "store to address")) fail_msg("%s", w.err.msg);
    assert_non_null(strstr(w.err.msg, "outside the allocations"));
    free(w.out);
    /* in place: in windows all the same, each SM reading its own writes,
     * and as cycle by cycle (8 blocks: one wave) */
    run_gstride(N, true, STRAY_NONE, 0, 1, &win, &ap, &w);
    assert_true(win > 1);
    assert_int_equal(ap.n, 0);
    run_gstride(N, true, STRAY_NONE, 1, 1, &win, &ap, &c);
    same_results(&w, &c, N);
    free(w.out);
    free(c.out);
}

/* The atomics kernels' input: one word a thread of 64 blocks of 128, word
 * i a hash of i, its bits from shift up. */
enum { HASHED_N = 64 * 128 };

static uint32_t hashed(uint32_t i, uint32_t shift)
{
    return (i * 2654435761u) >> shift;
}

/* The input into t's device memory: its address. */
static uint64_t alloc_hashed(tctx *t, uint32_t shift)
{
    uint32_t *a = malloc(sizeof *a * HASHED_N);
    assert_non_null(a);
    for (uint32_t i = 0; i < HASHED_N; i++) a[i] = hashed(i, shift);
    uint64_t pa = t_alloc(t, a, sizeof *a * HASHED_N);
    free(a);
    return pa;
}

/* hist on 64 blocks of 128 (one wave on h200), window cycles per window
 * (0: warpsim's), on threads: the 8 counts and the sum into counts[0..8)
 * and *sum. */
static void run_hist(uint32_t window, int32_t threads, uint32_t *win, outcome *o, uint32_t *counts, float *sum)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    uint64_t pa = alloc_hashed(&t, 20), ph = t_alloc(&t, NULL, 8 * sizeof(uint32_t)),
             ps = t_alloc(&t, NULL, sizeof(float));
    t_p64(&t, pa);
    t_p64(&t, ph);
    t_p64(&t, ps);
    ws_apart ap;
    launch_128(&t, &g, "hist", 64, window, threads, win, &ap, o);
    assert_true(ws_devmem_read(t.mem, ph, counts, 8 * sizeof(uint32_t)));
    assert_true(ws_devmem_read(t.mem, ps, sum, sizeof(float)));
    t_free(&t);
}

/* wrap on 64 blocks of 128, window cycles per window (0: warpsim's), on
 * threads: its 4 + 8 counters, which start near their tops, into w64 and
 * w32. */
static void run_wrap(uint32_t window, int32_t threads, outcome *o, uint64_t *w64, uint32_t *w32)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    uint8_t init[64];
    for (uint32_t k = 0; k < 4; k++) w64[k] = UINT64_MAX - 1000 * k;
    for (uint32_t k = 0; k < 8; k++) w32[k] = UINT32_MAX - 7 * k;
    memcpy(init, w64, 32);
    memcpy(init + 32, w32, 32);
    uint64_t pa = alloc_hashed(&t, 12), pw = t_alloc(&t, init, sizeof init);
    t_p64(&t, pa);
    t_p64(&t, pw);
    launch_128(&t, &g, "wrap", 64, window, threads, NULL, NULL, o);
    assert_true(ws_devmem_read(t.mem, pw, init, sizeof init));
    memcpy(w64, init, 32);
    memcpy(w32, init + 32, 32);
    t_free(&t);
}

/* Integer adds whose old values nothing reads, on bytes the window's end
 * finds ready (atom_hosted): the sums modulo 2^64 and 2^32 a CPU makes, in
 * windows on 1 and 3 threads as cycle by cycle, in the same cycles. */
static void test_unread_integer_adds_wrap(void **state)
{
    (void)state;
    uint64_t c64[4], w64[4], w3_64[4], cpu64[4];
    uint32_t c32[8], w32[8], w3_32[8], cpu32[8];
    for (uint32_t k = 0; k < 4; k++) cpu64[k] = UINT64_MAX - 1000 * k;
    for (uint32_t k = 0; k < 8; k++) cpu32[k] = UINT32_MAX - 7 * k;
    for (uint32_t i = 0; i < HASHED_N; i++) {
        uint32_t a = hashed(i, 12);
        cpu64[a % 4] += (uint64_t)a * 2654435761u;
        cpu32[a % 8] += a * 2246822519u;
    }
    outcome c, w, w3;
    run_wrap(1, 1, &c, c64, c32);
    run_wrap(0, 1, &w, w64, w32);
    run_wrap(0, 3, &w3, w3_64, w3_32);
    assert_true(c.ok && w.ok && w3.ok);
    assert_memory_equal(c64, cpu64, sizeof cpu64);
    assert_memory_equal(c32, cpu32, sizeof cpu32);
    assert_memory_equal(w64, cpu64, sizeof cpu64);
    assert_memory_equal(w32, cpu32, sizeof cpu32);
    assert_memory_equal(w3_64, cpu64, sizeof cpu64);
    assert_memory_equal(w3_32, cpu32, sizeof cpu32);
    assert_int_equal(w.ts.cycles, c.ts.cycles);
    assert_int_equal(w3.ts.cycles, c.ts.cycles);
    assert_true(w.ts.loop_iterations < w.ts.cycles / 4);     /* in windows */
}

/* Global atomics whose old values nothing reads run in windows, done at
 * the window's end in the order of a run cycle by cycle: the same counts,
 * the same float sum bit for bit (its rounding depends on the order), the
 * same cycles, on 1 and 3 threads (those whose old values are read:
 * test_window_atomics.c). */
static void test_unread_atomics(void **state)
{
    (void)state;
    uint32_t win, cc[8], wc[8], w3c[8], cpu[8] = {0};
    float cs, ws, w3s;
    outcome c, w, w3;
    for (uint32_t i = 0; i < HASHED_N; i++) cpu[hashed(i, 20) % 8]++;
    run_hist(1, 1, &win, &c, cc, &cs);
    assert_true(c.ok);
    assert_memory_equal(cc, cpu, sizeof cpu);
    run_hist(0, 1, &win, &w, wc, &ws);
    assert_true(win > 1);
    assert_true(w.ok);
    assert_memory_equal(wc, cpu, sizeof cpu);
    assert_memory_equal(&ws, &cs, sizeof cs);
    assert_int_equal(w.ts.cycles, c.ts.cycles);
    assert_int_equal(w.ts.l2_sectors, c.ts.l2_sectors);
    assert_true(w.ts.loop_iterations < w.ts.cycles / 4);     /* in windows */
    run_hist(0, 3, &win, &w3, w3c, &w3s);
    assert_true(w3.ok);
    assert_memory_equal(w3c, cpu, sizeof cpu);
    assert_memory_equal(&w3s, &cs, sizeof cs);
    assert_int_equal(w3.ts.cycles, c.ts.cycles);
    assert_int_equal(w3.ts.l2_sectors, c.ts.l2_sectors);
    assert_int_equal(w3.ts.l2_hit_sectors, c.ts.l2_hit_sectors);
    tctx t;
    if (!t_load(&t, src, "windows.ptx")) fail_msg("load: %s", t.err.msg);
    assert_true(ws_window_code_ok(t.p, ws_program_kernel(t.p, "hist")));
    t_free(&t);
}

/* overlap on blocks of 128, on threads: its two buffers into shared (128
 * words) and own (n words). */
static void run_overlap(uint32_t blocks, int32_t threads, outcome *o, uint32_t *shared, uint32_t *own)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    uint64_t ps = t_alloc(&t, NULL, 128 * sizeof(uint32_t)), po = t_alloc(&t, NULL, blocks * 128 * sizeof(uint32_t));
    t_p64(&t, ps);
    t_p64(&t, po);
    launch_128(&t, &g, "overlap", blocks, 0, threads, NULL, NULL, o);
    assert_true(ws_devmem_read(t.mem, ps, shared, 128 * sizeof(uint32_t)));
    assert_true(ws_devmem_read(t.mem, po, own, blocks * 128 * sizeof(uint32_t)));
    t_free(&t);
}

/* Stores of several SMs to the same words in one window take effect in
 * the order of one thread's run, on any threads: those windows' writes go
 * one by one (write_claims.h), not SM by SM on the threads. */
static void test_stores_of_two_sms_to_one_word(void **state)
{
    (void)state;
    enum { BLOCKS = 2500 };
    uint32_t shared1[128], shared[128];
    uint32_t *own1 = malloc(BLOCKS * 128 * sizeof(uint32_t)), *own = malloc(BLOCKS * 128 * sizeof(uint32_t));
    assert_non_null(own1);
    assert_non_null(own);
    outcome one;
    run_overlap(BLOCKS, 1, &one, shared1, own1);
    assert_true(one.ok);
    for (uint32_t i = 0; i < BLOCKS * 128; i++) assert_int_equal(own1[i], i);
    for (uint32_t k = 0; k < 128; k++) {
        assert_int_equal(shared1[k] % 1000, k);
        assert_true(shared1[k] / 1000 < BLOCKS);
    }
    static const int32_t threads[] = {3, 8};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        outcome o;
        run_overlap(BLOCKS, threads[i], &o, shared, own);
        assert_true(o.ok);
        assert_memory_equal(shared, shared1, sizeof shared);
        assert_memory_equal(own, own1, BLOCKS * 128 * sizeof(uint32_t));
        assert_memory_equal(&o.st, &one.st, sizeof o.st);
        assert_int_equal(o.ts.cycles, one.ts.cycles);
        assert_true(o.ts.l2_split_windows > 0);
        /* the windows where SMs wrote shared went one by one */
    }
    free(own1);
    free(own);
}

/* zeros on blocks of 128, window cycles per window (0: warpsim's), on
 * threads: the bytes of backing pages device memory holds after it, and
 * its odd buffer into odd. */
static uint64_t run_zeros(uint32_t blocks, uint32_t window, int32_t threads, outcome *o, uint32_t *odd)
{
    tctx t;
    ws_gpu_config g;
    load_h200(&t, &g);
    size_t bytes = (size_t)blocks * 128 * sizeof(uint32_t);
    uint64_t pz = t_alloc(&t, NULL, bytes), po = t_alloc(&t, NULL, bytes);
    t_p64(&t, pz);
    t_p64(&t, po);
    launch_128(&t, &g, "zeros", blocks, window, threads, NULL, NULL, o);
    assert_true(ws_devmem_read(t.mem, po, odd, bytes));
    uint64_t resident = ws_devmem_resident_bytes(t.mem);
    t_free(&t);
    return resident;
}

/* A window's stores make the pages they write as they issue (device
 * memory's pages made ahead), exactly those a store made at the window's
 * end would: one with a byte that is not zero; the others stay absent. */
static void test_pages_made_as_the_writes_would(void **state)
{
    (void)state;
    /* 2048 blocks of 512 bytes a buffer: 16 pages of 64 KiB each, blocks
     * 2k and 2k + 1 on one 1 KiB stretch */
    enum { BLOCKS = 2048 };
    size_t n = (size_t)BLOCKS * 128;
    uint32_t *odd1 = malloc(n * sizeof(uint32_t)), *odd = malloc(n * sizeof(uint32_t));
    assert_non_null(odd1);
    assert_non_null(odd);
    outcome c, o;
    uint64_t cycle_by_cycle = run_zeros(BLOCKS, 1, 1, &c, odd1);
    assert_true(c.ok);
    for (size_t i = 0; i < n; i++) assert_int_equal(odd1[i], (i / 128) % 2 ? 0 : i);
    /* the pages the odd buffer lies on (16 or 17: it need not start on
     * one; each has some of blocks 0, 2, ...), the zeros' none */
    assert_true(cycle_by_cycle >= 16 * 65536 && cycle_by_cycle <= 17 * 65536);
    static const int32_t threads[] = {1, 3, 8};
    for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++) {
        uint64_t resident = run_zeros(BLOCKS, 0, threads[k], &o, odd);
        assert_true(o.ok);
        assert_true(o.ts.loop_iterations < o.ts.cycles / 4);     /* in windows */
        assert_int_equal(resident, cycle_by_cycle);
        assert_memory_equal(odd, odd1, n * sizeof(uint32_t));
    }
    free(odd1);
    free(odd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_wave_times_as_cycle_by_cycle),
        cmocka_unit_test(test_waves_on_any_threads),
        cmocka_unit_test(test_blocks_shorter_than_a_window),
        cmocka_unit_test(test_store_fault_as_cycle_by_cycle),
        cmocka_unit_test(test_which_kernels),
        cmocka_unit_test(test_read_back_in_windows),
        cmocka_unit_test(test_in_place_reduction),
        cmocka_unit_test(test_pointers_apart),
        cmocka_unit_test(test_unread_atomics),
        cmocka_unit_test(test_unread_integer_adds_wrap),
        cmocka_unit_test(test_stores_of_two_sms_to_one_word),
        cmocka_unit_test(test_pages_made_as_the_writes_would),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
