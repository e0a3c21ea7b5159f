/* A timed launch on several threads gives what it gives on one
 * (sim/core/sm_team.h): the same counters, cycles, memory and faults, for
 * kernels where the order of the SMs' accesses matters — atomics whose
 * returned values are kept, a last-block reduction, one block spinning on
 * another's flag — and for a launch that faults or spins for ever.  Every
 * cycle with two SMs or more runs on the threads (threads_every_cycle), so
 * the parallel path is taken whatever the machine's load. */
#include "timing_util.h"
#include "sim/core/thread_pool.h"

static const char *const src = PTX_HEAD
    /* each thread: a global load (and one through a generic address), a
     * shared-memory exchange, a divergent loop, a store, and an atomic on
     * one of 7 bins whose returned value it stores */
    ".visible .entry work(.param .u64 pa, .param .u64 pout, .param .u64 pbins, .param .u64 polds)\n"
    "{\n"
    " .reg .b32 %r<20>;\n .reg .b64 %rd<20>;\n .reg .f32 %f<10>;\n .reg .pred %p<4>;\n"
    " .shared .align 4 .b32 tile[128];\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [pout];\n"
    " ld.param.u64 %rd3, [pbins];\n ld.param.u64 %rd4, [polds];\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n"
    " mul.wide.u32 %rd5, %r4, 4;\n add.u64 %rd6, %rd1, %rd5;\n"
    " ld.global.f32 %f1, [%rd6];\n"
    " cvta.global.u64 %rd11, %rd6;\n ld.f32 %f4, [%rd11];\n"
    " mov.u32 %r5, tile;\n shl.b32 %r6, %r3, 2;\n add.u32 %r7, %r5, %r6;\n"
    " st.shared.f32 [%r7], %f1;\n"
    " bar.sync 0;\n"
    " add.u32 %r8, %r3, 1;\n and.b32 %r8, %r8, 127;\n shl.b32 %r9, %r8, 2;\n add.u32 %r10, %r5, %r9;\n"
    " ld.shared.f32 %f2, [%r10];\n"
    " mov.u32 %r11, 0;\n add.f32 %f3, %f1, %f4;\n and.b32 %r12, %r3, 7;\n"
    "LOOP:\n"
    " fma.rn.f32 %f3, %f3, 0f3F000000, %f2;\n add.u32 %r11, %r11, 1;\n"
    " setp.le.u32 %p1, %r11, %r12;\n @%p1 bra LOOP;\n"
    " add.u64 %rd7, %rd2, %rd5;\n st.global.f32 [%rd7], %f3;\n"
    " rem.u32 %r13, %r4, 7;\n mul.wide.u32 %rd8, %r13, 4;\n add.u64 %rd9, %rd3, %rd8;\n"
    " atom.global.add.u32 %r14, [%rd9], 1;\n"
    " add.u64 %rd10, %rd4, %rd5;\n st.global.u32 [%rd10], %r14;\n"
    " ret;\n"
    "}\n"
    /* thread 0 of each block stores its partial, then counts the block in;
     * the block that counts last sums every partial */
    ".visible .entry last_block(.param .u64 ppart, .param .u64 pcount, .param .u64 pres, .param .u32 pn)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<10>;\n .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [ppart];\n ld.param.u64 %rd2, [pcount];\n"
    " ld.param.u64 %rd3, [pres];\n ld.param.u32 %r9, [pn];\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r3, %tid.x;\n"
    " setp.ne.u32 %p1, %r3, 0;\n @%p1 bra DONE;\n"
    " mul.wide.u32 %rd5, %r1, 4;\n add.u64 %rd6, %rd1, %rd5;\n add.u32 %r2, %r1, 1;\n"
    " st.global.u32 [%rd6], %r2;\n membar.gl;\n"
    " atom.global.add.u32 %r4, [%rd2], 1;\n add.u32 %r5, %r4, 1;\n"
    " setp.ne.u32 %p2, %r5, %r9;\n @%p2 bra DONE;\n"
    " mov.u32 %r6, 0;\n mov.u32 %r7, 0;\n mov.u64 %rd7, %rd1;\n"
    "SUM:\n"
    " ld.volatile.global.u32 %r8, [%rd7];\n add.u32 %r6, %r6, %r8;\n"
    " add.u64 %rd7, %rd7, 4;\n add.u32 %r7, %r7, 1;\n"
    " setp.lt.u32 %p3, %r7, %r9;\n @%p3 bra SUM;\n"
    " st.global.u32 [%rd3], %r6;\n st.global.u32 [%rd3+4], %r1;\n"
    "DONE:\n ret;\n"
    "}\n"
    /* block 1 spins until block 0, after some work, raises a flag; it
     * stores how many times it looked */
    ".visible .entry spin_pair(.param .u64 pflag, .param .u64 pout)\n"
    "{\n"
    " .reg .b32 %r<10>;\n .reg .b64 %rd<4>;\n .reg .pred %p<6>;\n"
    " ld.param.u64 %rd1, [pflag];\n ld.param.u64 %rd2, [pout];\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r3, %tid.x;\n"
    " setp.ne.u32 %p1, %r3, 0;\n @%p1 bra DONE;\n"
    " setp.ne.u32 %p2, %r1, 0;\n @%p2 bra WAITER;\n"
    " mov.u32 %r4, 0;\n"
    "BUSY:\n add.u32 %r4, %r4, 1;\n setp.lt.u32 %p3, %r4, 300;\n @%p3 bra BUSY;\n"
    " st.volatile.global.u32 [%rd1], %r4;\n bra DONE;\n"
    "WAITER:\n mov.u32 %r5, 0;\n"
    "SPIN:\n ld.volatile.global.u32 %r6, [%rd1];\n add.u32 %r5, %r5, 1;\n"
    " setp.eq.u32 %p4, %r6, 0;\n @%p4 bra SPIN;\n"
    " st.global.u32 [%rd2], %r5;\n"
    "DONE:\n ret;\n"
    "}\n"
    /* every thread waits for a flag no thread raises */
    ".visible .entry hang(.param .u64 pflag)\n"
    "{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [pflag];\n"
    "SPIN:\n ld.volatile.global.u32 %r1, [%rd1];\n setp.eq.u32 %p1, %r1, 0;\n @%p1 bra SPIN;\n"
    " ret;\n"
    "}\n"
    /* threads 1500 and up store to address 16, which no allocation holds */
    ".visible .entry oob(.param .u64 pout)\n"
    "{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [pout];\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd2, %r4, 4;\n add.u64 %rd3, %rd1, %rd2;\n"
    " setp.ge.u32 %p1, %r4, 1500;\n @%p1 mov.u64 %rd3, 16;\n"
    " st.global.u32 [%rd3], %r4;\n"
    " ret;\n"
    "}\n";

/* What one launch left: its result, error, counters and the bytes of its
 * buffers. */
typedef struct outcome {
    bool ok;
    ws_error err;
    ws_launch_stats st;
    ws_timing_stats ts;
    uint8_t *bytes[4];
    size_t size[4];
} outcome;

typedef struct launch_case {
    const char *kernel;
    ws_dim3 grid, block;
    size_t size[4];             /* buffers, 0 = none; passed as u64 parameters in order */
    bool pass_n;                /* then a u32: the grid's blocks */
    uint64_t progress_limit;
} launch_case;

static void run_case(const launch_case *c, int32_t threads, ws_thread_pool *pool, outcome *o)
{
    tctx t;
    if (!t_load(&t, src, "threads.ptx")) fail_msg("load: %s", t.err.msg);
    ws_gpu_config g;
    tt_config(&g, "h200");
    uint64_t addr[4] = {0};
    for (int i = 0; i < 4 && c->size[i]; i++) {
        float *init = malloc(c->size[i]);
        assert_non_null(init);
        for (size_t j = 0; j < c->size[i] / 4; j++) init[j] = i == 0 ? (float)(j % 13) * 0.25f : 0.0f;
        addr[i] = t_alloc(&t, init, c->size[i]);
        free(init);
        t_p64(&t, addr[i]);
    }
    if (c->pass_n) t_p32(&t, c->grid.x * c->grid.y * c->grid.z);
    const ws_kernel *k = ws_program_kernel(t.p, c->kernel);
    assert_non_null(k);
    ws_launch l = {.grid = c->grid, .block = c->block, .params = t.params, .params_size = t.nparams,
                   .progress_limit = c->progress_limit};
    ws_timing_options opt = tt_threaded(threads, 0);
    opt.pool = pool;
    memset(o, 0, sizeof *o);
    o->ok = ws_launch_timed(t.p, k, &l, &g, &opt, &o->st, &o->ts, &o->err);
    for (int i = 0; i < 4 && c->size[i]; i++) {
        o->size[i] = c->size[i];
        o->bytes[i] = malloc(c->size[i]);
        assert_non_null(o->bytes[i]);
        assert_true(ws_devmem_read(t.mem, addr[i], o->bytes[i], c->size[i]));
    }
    t_free(&t);
}

static void outcome_free(outcome *o)
{
    for (int i = 0; i < 4; i++) free(o->bytes[i]);
}

/* The counters of how the host's threads shared a launch's windows,
 * cleared: the rest of t is the same on any number of threads. */
static void forget_host_work(ws_timing_stats *t)
{
    t->l2_split_windows = t->writes_apart_windows = t->streamed_windows = 0;
    memset(&t->host, 0, sizeof t->host);
}

/* The case on 1 thread, then on 2, 3 and 8 threads of its own, then on 3
 * and 8 (and 3 again) of one pool's (thread_pool.h), which the later
 * launches take from the earlier ones: everything equal to the first;
 * *one gets the first (the caller frees it). */
static void same_on_any_threads(const launch_case *c, outcome *one)
{
    run_case(c, 1, NULL, one);
    static const int32_t threads[] = {2, 3, 8, 3, 8, 3};
    enum { POOLED_FROM = 3 };
    ws_thread_pool *pool = ws_thread_pool_create();
    assert_non_null(pool);
    for (size_t n = 0; n < sizeof threads / sizeof threads[0]; n++) {
        outcome o;
        run_case(c, threads[n], n >= POOLED_FROM ? pool : NULL, &o);
        assert_int_equal(o.ok, one->ok);
        assert_string_equal(o.err.msg, one->err.msg);
        assert_int_equal(o.err.kind, one->err.kind);
        for (int i = 0; i < 4; i++)
            if (o.size[i]) assert_memory_equal(o.bytes[i], one->bytes[i], o.size[i]);
        if (!one->ok) {     /* a launch that faults reports the fault; its counters are a part's */
            outcome_free(&o);
            continue;
        }
        assert_memory_equal(&o.st, &one->st, sizeof o.st);
        assert_int_equal(o.ts.cycles, one->ts.cycles);
        assert_int_equal(o.ts.warp_insts, one->ts.warp_insts);
        assert_int_equal(o.ts.l2_sectors, one->ts.l2_sectors);
        assert_int_equal(o.ts.l2_hit_sectors, one->ts.l2_hit_sectors);
        assert_memory_equal(o.ts.stall, one->ts.stall, sizeof o.ts.stall);
        ws_timing_stats a = o.ts, b = one->ts;
        forget_host_work(&a);
        forget_host_work(&b);
        assert_memory_equal(&a, &b, sizeof a);
        outcome_free(&o);
    }
    /* no more threads than the largest team's others, kept to the end */
    assert_true(ws_thread_pool_size(pool) <= 7);
    ws_thread_pool_free(pool);
}

static void test_work_kernel(void **state)
{
    (void)state;
    enum { BLOCKS = 300, THREADS = 128, N = BLOCKS * THREADS };
    launch_case c = {.kernel = "work", .grid = D3(BLOCKS, 1, 1), .block = D3(THREADS, 1, 1),
                     .size = {N * 4, N * 4, 7 * 4, N * 4}};
    outcome one;
    same_on_any_threads(&c, &one);
    assert_true(one.ok);
    /* the bins count every thread; the values the atomics returned are,
     * per bin, 0 to its count - 1, each once */
    const uint32_t *bins = (const uint32_t *)one.bytes[2], *olds = (const uint32_t *)one.bytes[3];
    uint32_t total = 0;
    for (int b = 0; b < 7; b++) {
        assert_int_equal(bins[b], N / 7 + (b < N % 7));
        total += bins[b];
    }
    assert_int_equal(total, N);
    uint8_t *seen = calloc(N, 1);
    assert_non_null(seen);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t b = i % 7, slot = olds[i] * 7 + b;
        assert_true(olds[i] < bins[b]);
        assert_int_equal(seen[slot], 0);
        seen[slot] = 1;
    }
    free(seen);
    /* and the stores are the CPU's result: a = (j % 13) / 4, loads twice */
    const float *a = (const float *)one.bytes[0], *out = (const float *)one.bytes[1];
    for (uint32_t i = 0; i < N; i++) {
        uint32_t tid = i % THREADS, blk = i / THREADS;
        float f2 = a[blk * THREADS + (tid + 1) % THREADS], f3 = a[i] + a[i];
        for (uint32_t it = 0; it <= (tid & 7); it++) f3 = f3 * 0.5f + f2;
        assert_float_equal(out[i], f3, 0);
    }
    assert_true(one.ts.cycles > 0);
    outcome_free(&one);
}

static void test_last_block_reduction(void **state)
{
    (void)state;
    enum { BLOCKS = 400 };
    launch_case c = {.kernel = "last_block", .grid = D3(BLOCKS, 1, 1), .block = D3(64, 1, 1),
                     .size = {BLOCKS * 4, 4, 8}, .pass_n = true};
    outcome one;
    same_on_any_threads(&c, &one);
    assert_true(one.ok);
    const uint32_t *count = (const uint32_t *)one.bytes[1], *res = (const uint32_t *)one.bytes[2];
    assert_int_equal(count[0], BLOCKS);
    assert_int_equal(res[0], BLOCKS * (BLOCKS + 1) / 2);
    assert_true(res[1] < BLOCKS);
    outcome_free(&one);
}

static void test_spin_on_another_block(void **state)
{
    (void)state;
    launch_case c = {.kernel = "spin_pair", .grid = D3(2, 1, 1), .block = D3(32, 1, 1), .size = {4, 4}};
    outcome one;
    same_on_any_threads(&c, &one);
    assert_true(one.ok);
    assert_int_equal(*(const uint32_t *)one.bytes[0], 300);
    assert_true(*(const uint32_t *)one.bytes[1] > 1);      /* it waited */
    outcome_free(&one);
}

static void test_spinning_for_ever_stops_alike(void **state)
{
    (void)state;
    launch_case c = {.kernel = "hang", .grid = D3(8, 1, 1), .block = D3(64, 1, 1), .size = {4},
                     .progress_limit = 1 << 14};
    outcome one;
    same_on_any_threads(&c, &one);
    assert_false(one.ok);
    assert_int_equal(one.err.kind, WS_ERR_TIMEOUT);
    assert_non_null(strstr(one.err.msg, "made no progress"));
    outcome_free(&one);
}

static void test_fault_alike(void **state)
{
    (void)state;
    launch_case c = {.kernel = "oob", .grid = D3(64, 1, 1), .block = D3(64, 1, 1), .size = {4096 * 4}};
    outcome one;
    same_on_any_threads(&c, &one);
    assert_false(one.ok);
    assert_non_null(strstr(one.err.msg, "thread"));
    outcome_free(&one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_work_kernel),
        cmocka_unit_test(test_last_block_reduction),
        cmocka_unit_test(test_spin_on_another_block),
        cmocka_unit_test(test_spinning_for_ever_stops_alike),
        cmocka_unit_test(test_fault_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
