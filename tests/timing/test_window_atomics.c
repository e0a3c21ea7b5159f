/* Global atomics whose old values a kernel reads, in windows of cycles
 * (sim/core/timing_window.h): put off to the window's end like a store,
 * done there in the order of a run cycle by cycle, their old values then
 * written to the destination register, which its warp waits for.  A
 * counter's old values stored, a compare-and-swap that picks one winner per
 * key, and a stream compaction (an atomic count gives each kept element
 * its slot; PMPP's BFS frontier) give what a CPU gives and, on one wave, the
 * very cycles and counters of a run cycle by cycle, on 1 and 3 threads
 * (the compare-and-swap under initcheck too, whose atomics run at the
 * window's end from the rows they took along, not from host bytes found
 * when they issued).  And a register that takes the destination's row
 * where the destination is dead would be overwritten at the window's end:
 * the destination has a row of its own. */
#include "timing_util.h"

#include "sim/core/timing_window.h"

static const char *const src = PTX_HEAD
    /* olds[i] = atomicAdd(&h[a[i] % 8], 1) */
    ".visible .entry olds(.param .u64 pa, .param .u64 ph, .param .u64 pout)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [ph];\n ld.param.u64 %rd3, [pout];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n cvta.to.global.u64 %rd3, %rd3;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd4, %r4, 4;\n add.u64 %rd5, %rd1, %rd4;\n"
    " ld.global.u32 %r5, [%rd5];\n"
    " and.b32 %r6, %r5, 7;\n mul.wide.u32 %rd6, %r6, 4;\n add.u64 %rd7, %rd2, %rd6;\n"
    " atom.global.add.u32 %r7, [%rd7], 1;\n"
    " add.u64 %rd8, %rd3, %rd4;\n st.global.u32 [%rd8], %r7;\n"
    " ret;\n"
    "}\n"
    /* a thread claims key a[i] % 64 when atomicCAS(&owner[key], -1, i)
     * finds it free: won[i] = 1 for the winners, 2 for the others */
    ".visible .entry claim(.param .u64 pa, .param .u64 powner, .param .u64 pwon)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [powner];\n ld.param.u64 %rd3, [pwon];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n cvta.to.global.u64 %rd3, %rd3;\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n"
    " mad.lo.u32 %r4, %r1, %r2, %r3;\n mul.wide.u32 %rd4, %r4, 4;\n add.u64 %rd5, %rd1, %rd4;\n"
    " ld.global.u32 %r5, [%rd5];\n"
    " and.b32 %r6, %r5, 63;\n mul.wide.u32 %rd6, %r6, 4;\n add.u64 %rd7, %rd2, %rd6;\n"
    " atom.global.cas.b32 %r7, [%rd7], -1, %r4;\n"
    " setp.eq.u32 %p1, %r7, -1;\n selp.u32 %r8, 1, 2, %p1;\n"
    " add.u64 %rd8, %rd3, %rd4;\n st.global.u32 [%rd8], %r8;\n"
    " ret;\n"
    "}\n"
    /* stream compaction in a grid-stride loop, its two pointers in a
     * structure passed by value: out[atomicAdd(count, 1)] = a[i] for each
     * a[i] divisible by 3 (loads follow the stores: the pointers apart) */
    ".visible .entry compact(.param .align 8 .b8 pg[16], .param .u64 pcount, .param .u32 pn)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [pg];\n ld.param.u64 %rd2, [pg+8];\n ld.param.u64 %rd3, [pcount];\n"
    " ld.param.u32 %r1, [pn];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n cvta.to.global.u64 %rd3, %rd3;\n"
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n"
    " mad.lo.u32 %r5, %r2, %r3, %r4;\n mov.u32 %r6, %nctaid.x;\n mul.lo.u32 %r7, %r6, %r3;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
    "LOOP:\n"
    " mul.wide.u32 %rd4, %r5, 4;\n add.u64 %rd5, %rd1, %rd4;\n ld.global.u32 %r8, [%rd5];\n"
    " rem.u32 %r9, %r8, 3;\n setp.ne.u32 %p2, %r9, 0;\n @%p2 bra NEXT;\n"
    " atom.global.add.u32 %r10, [%rd3], 1;\n"
    " mul.wide.u32 %rd6, %r10, 4;\n add.u64 %rd7, %rd2, %rd6;\n st.global.u32 [%rd7], %r8;\n"
    "NEXT:\n"
    " add.u32 %r5, %r5, %r7;\n setp.lt.u32 %p1, %r5, %r1;\n @%p1 bra LOOP;\n"
    "DONE:\n ret;\n"
    "}\n"
    /* the old count %r1 is read only where skip is 0; past the branch it is
     * dead, and %r4, written there and read after a load (so after the
     * window's end), could take its row: out[i] = i + 1000 + a[0] */
    ".visible .entry late(.param .u64 pa, .param .u64 pcount, .param .u64 pout, .param .u32 pskip)\n"
    "{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [pa];\n ld.param.u64 %rd2, [pcount];\n ld.param.u64 %rd3, [pout];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n cvta.to.global.u64 %rd3, %rd3;\n"
    " atom.global.add.u32 %r1, [%rd2], 1;\n"
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r9, %tid.x;\n mad.lo.u32 %r2, %r2, %r3, %r9;\n"
    " mul.wide.u32 %rd4, %r2, 4;\n add.u64 %rd5, %rd3, %rd4;\n"
    " ld.param.u32 %r10, [pskip];\n setp.ne.u32 %p1, %r10, 0;\n @%p1 bra SKIP;\n"
    " st.global.u32 [%rd5], %r1;\n bra.uni DONE;\n"
    "SKIP:\n"
    " add.u32 %r4, %r2, 1000;\n ld.global.u32 %r5, [%rd1];\n add.u32 %r6, %r4, %r5;\n"
    " st.global.u32 [%rd5], %r6;\n"
    "DONE:\n ret;\n"
    "}\n";

enum { BLOCKS = 64, N = BLOCKS * 128 };

typedef struct outcome {
    bool ok;
    ws_error err;
    ws_launch_stats st;
    ws_timing_stats ts;
    uint32_t window;        /* the cycles per window warpsim chose */
    uint32_t napart;        /* the stores' allocations it found apart */
    bool may_fault;         /* set by the caller: a fault is the test's to check */
    uint32_t checks;        /* set by the caller: the launch's checks (WS_CHECK_*) */
} outcome;

static uint32_t input(uint32_t i)
{
    return (i * 2654435761u) >> 18;
}

static uint64_t alloc_input(tctx *t, uint32_t n)
{
    uint32_t *a = malloc(sizeof *a * n);
    assert_non_null(a);
    for (uint32_t i = 0; i < n; i++) a[i] = input(i);
    uint64_t pa = t_alloc(t, a, sizeof *a * n);
    free(a);
    return pa;
}

/* Kernel name of t on BLOCKS blocks of 128 on h200, window cycles per
 * window (0: warpsim's, 1: cycle by cycle), on threads, into *o; a fault
 * fails the test unless the caller set o->may_fault. */
static void launch(tctx *t, const char *name, uint32_t window, int32_t threads, outcome *o)
{
    ws_gpu_config g;
    tt_config(&g, "h200");
    const ws_kernel *k = ws_program_kernel(t->p, name);
    assert_non_null(k);
    ws_launch l = {.grid = D3(BLOCKS, 1, 1), .block = D3(128, 1, 1), .params = t->params,
                   .params_size = t->nparams, .checks = o->checks};
    ws_timing_options opt = tt_threaded(threads, window);
    bool may_fault = o->may_fault;
    uint32_t checks = o->checks;
    memset(o, 0, sizeof *o);
    o->may_fault = may_fault;
    o->checks = checks;
    ws_apart ap;
    bool own;
    ws_window_reason why;
    o->window = ws_window_cycles(t->p, k, &l, &opt, &g, &ap, &own, &why);
    o->napart = ap.n;
    o->ok = ws_launch_timed(t->p, k, &l, &g, &opt, &o->st, &o->ts, &o->err);
    if (!o->ok && !o->may_fault) fail_msg("%s: %s", name, o->err.msg);
}

static void load(tctx *t)
{
    if (!t_load(t, src, "window_atomics.ptx")) fail_msg("load: %s", t->err.msg);
}

/* b's counters are a's: every one a summary shows, and the cycles. */
static void same_counters(const outcome *a, const outcome *b)
{
    tt_same_counters(&a->st, &a->ts, &b->st, &b->ts);
}

/* olds, its counters' bytes there before the launch (init) or not (their
 * pages made by the atomics at the window's end): counts and olds out. */
static void run_olds(uint32_t window, int32_t threads, bool init, outcome *o, uint32_t *counts, uint32_t *olds)
{
    tctx t;
    load(&t);
    uint32_t zero[8] = {0};
    uint64_t pa = alloc_input(&t, N), ph = t_alloc(&t, init ? zero : NULL, sizeof zero),
             po = t_alloc(&t, NULL, sizeof(uint32_t) * N);
    t_p64(&t, pa);
    t_p64(&t, ph);
    t_p64(&t, po);
    launch(&t, "olds", window, threads, o);
    assert_true(ws_devmem_read(t.mem, ph, counts, sizeof zero));
    assert_true(ws_devmem_read(t.mem, po, olds, sizeof(uint32_t) * N));
    t_free(&t);
}

static void test_old_values_stored(void **state)
{
    (void)state;
    uint32_t cpu[8] = {0}, c1[8], cw[8], c3[8];
    for (uint32_t i = 0; i < N; i++) cpu[input(i) % 8]++;
    uint32_t *o1 = malloc(sizeof *o1 * N), *ow = malloc(sizeof *ow * N), *o3 = malloc(sizeof *o3 * N);
    uint8_t *seen = calloc(N * 8, 1);
    assert_true(o1 && ow && o3 && seen);
    for (int init = 0; init < 2; init++) {
        outcome a = {0}, w = {0}, w3 = {0};
        run_olds(1, 1, init, &a, c1, o1);
        assert_int_equal(a.window, 1);
        run_olds(0, 1, init, &w, cw, ow);
        assert_true(w.window > 1);
        run_olds(0, 3, init, &w3, c3, o3);
        /* the counts, and per bin each old value 0 .. count - 1 once */
        assert_memory_equal(cw, cpu, sizeof cpu);
        memset(seen, 0, N * 8);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t bin = input(i) % 8;
            assert_true(ow[i] < cpu[bin]);
            assert_int_equal(seen[ow[i] * 8 + bin], 0);
            seen[ow[i] * 8 + bin] = 1;
        }
        /* in the order of the run cycle by cycle, on any threads */
        assert_memory_equal(ow, o1, sizeof *o1 * N);
        assert_memory_equal(o3, o1, sizeof *o1 * N);
        assert_memory_equal(c1, cpu, sizeof cpu);
        assert_memory_equal(c3, cpu, sizeof cpu);
        same_counters(&w, &a);
        same_counters(&w3, &a);
        assert_true(w.ts.loop_iterations * 4 < a.ts.loop_iterations);
    }
    free(o1); free(ow); free(o3); free(seen);
}

/* claim: owner's 64 words and won's N into the callers' */
static void run_claim(uint32_t window, int32_t threads, outcome *o, uint32_t *owner, uint32_t *won)
{
    tctx t;
    load(&t);
    uint32_t free_keys[64];
    memset(free_keys, 0xff, sizeof free_keys);
    uint64_t pa = alloc_input(&t, N), pk = t_alloc(&t, free_keys, sizeof free_keys),
             pw = t_alloc(&t, NULL, sizeof(uint32_t) * N);
    t_p64(&t, pa);
    t_p64(&t, pk);
    t_p64(&t, pw);
    launch(&t, "claim", window, threads, o);
    assert_true(ws_devmem_read(t.mem, pk, owner, sizeof free_keys));
    assert_true(ws_devmem_read(t.mem, pw, won, sizeof(uint32_t) * N));
    t_free(&t);
}

/* claim under the given checks (WS_CHECK_*): in windows and on threads
 * as cycle by cycle, and right */
static void compare_and_swap(uint32_t checks)
{
    uint32_t k1[64], kw[64], k3[64];
    uint32_t *w1 = malloc(sizeof *w1 * N), *ww = malloc(sizeof *ww * N), *w3 = malloc(sizeof *w3 * N);
    assert_true(w1 && ww && w3);
    outcome a = {.checks = checks}, w = {.checks = checks}, t3 = {.checks = checks};
    run_claim(1, 1, &a, k1, w1);
    run_claim(0, 1, &w, kw, ww);
    assert_true(w.window > 1);
    run_claim(0, 3, &t3, k3, w3);
    /* every key taken by one of its threads, the one that says it won */
    bool used[64] = {false};
    for (uint32_t i = 0; i < N; i++) used[input(i) % 64] = true;
    for (uint32_t key = 0; key < 64; key++) {
        if (!used[key]) {
            assert_int_equal(kw[key], UINT32_MAX);
            continue;
        }
        assert_true(kw[key] < N);
        assert_int_equal(input(kw[key]) % 64, key);
    }
    for (uint32_t i = 0; i < N; i++) assert_int_equal(ww[i], kw[input(i) % 64] == i ? 1 : 2);
    assert_memory_equal(kw, k1, sizeof k1);
    assert_memory_equal(k3, k1, sizeof k1);
    assert_memory_equal(ww, w1, sizeof *w1 * N);
    assert_memory_equal(w3, w1, sizeof *w1 * N);
    same_counters(&w, &a);
    same_counters(&t3, &a);
    free(w1); free(ww); free(w3);
}

static void test_compare_and_swap(void **state)
{
    (void)state;
    compare_and_swap(0);
}

/* Under initcheck, which watches every write (its global atomics' lanes
 * are not given their host bytes when they issue), a window's atomics run
 * at its end from the rows they took along: cas's second operand too. */
static void test_compare_and_swap_initcheck(void **state)
{
    (void)state;
    compare_and_swap(WS_CHECK_INIT);
}

/* compact over n = 4 N elements into an out of out_words: the count and
 * out */
static void run_compact_into(uint32_t window, int32_t threads, uint32_t out_words, outcome *o, uint32_t *count,
                             uint32_t *out)
{
    tctx t;
    load(&t);
    uint64_t pa = alloc_input(&t, 4 * N), po = t_alloc(&t, NULL, sizeof(uint32_t) * out_words),
             pc = t_alloc(&t, NULL, sizeof(uint32_t));
    t_p64(&t, pa);
    t_p64(&t, po);      /* the structure's two pointers */
    t_p64(&t, pc);
    t_p32(&t, 4 * N);
    launch(&t, "compact", window, threads, o);
    assert_true(ws_devmem_read(t.mem, pc, count, sizeof *count));
    assert_true(ws_devmem_read(t.mem, po, out, sizeof(uint32_t) * out_words));
    t_free(&t);
}

static void run_compact(uint32_t window, int32_t threads, outcome *o, uint32_t *count, uint32_t *out)
{
    run_compact_into(window, threads, 4 * N, o, count, out);
}

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void test_compaction(void **state)
{
    (void)state;
    uint32_t *cpu = malloc(sizeof *cpu * 4 * N), *o1 = malloc(sizeof *o1 * 4 * N), *ow = malloc(sizeof *ow * 4 * N),
             *o3 = malloc(sizeof *o3 * 4 * N), *sorted = malloc(sizeof *sorted * 4 * N);
    assert_true(cpu && o1 && ow && o3 && sorted);
    uint32_t kept = 0, n1, nw, n3;
    for (uint32_t i = 0; i < 4 * N; i++)
        if (input(i) % 3 == 0) cpu[kept++] = input(i);
    outcome a = {0}, w = {0}, t3 = {0};
    run_compact(1, 1, &a, &n1, o1);
    run_compact(0, 1, &w, &nw, ow);
    /* in windows by its pointers: a and out apart, the count and out the
     * stores' allocations */
    assert_true(w.window > 1);
    assert_int_equal(w.napart, 2);
    run_compact(0, 3, &t3, &n3, o3);
    assert_int_equal(nw, kept);
    memcpy(sorted, ow, sizeof *ow * kept);
    qsort(sorted, kept, sizeof *sorted, by_value);
    qsort(cpu, kept, sizeof *cpu, by_value);
    assert_memory_equal(sorted, cpu, sizeof *cpu * kept);
    assert_int_equal(n1, kept);
    assert_int_equal(n3, kept);
    assert_memory_equal(ow, o1, sizeof *o1 * 4 * N);
    assert_memory_equal(o3, o1, sizeof *o1 * 4 * N);
    same_counters(&w, &a);
    same_counters(&t3, &a);
    free(cpu); free(o1); free(ow); free(o3); free(sorted);
}

/* The compaction into too small an out: its pointers still apart, its
 * first store past out's end reports what it reports cycle by cycle (an
 * invalid write, not a store outside the launch's allocations). */
static void test_compaction_out_of_bounds(void **state)
{
    (void)state;
    uint32_t count, out[100];
    outcome a = {.may_fault = true}, w = {.may_fault = true}, w3 = {.may_fault = true};
    run_compact_into(1, 1, 100, &a, &count, out);
    run_compact_into(0, 1, 100, &w, &count, out);
    run_compact_into(0, 3, 100, &w3, &count, out);
    assert_true(w.window > 1);
    assert_false(a.ok);
    assert_false(w.ok);
    assert_false(w3.ok);
    if (!strstr(a.err.msg, "Invalid __global__ write of size 4")) fail_msg("cycle by cycle: %s", a.err.msg);
    assert_string_equal(w.err.msg, a.err.msg);
    assert_string_equal(w3.err.msg, a.err.msg);
}

/* late with skip: out[i] = i + 1000 + a[0] in windows as cycle by cycle */
static void test_destination_row_its_own(void **state)
{
    (void)state;
    for (uint32_t window = 0; window < 2; window++) {
        tctx t;
        load(&t);
        uint64_t pa = alloc_input(&t, 1), pc = t_alloc(&t, NULL, sizeof(uint32_t)),
                 po = t_alloc(&t, NULL, sizeof(uint32_t) * N);
        t_p64(&t, pa);
        t_p64(&t, pc);
        t_p64(&t, po);
        t_p32(&t, 1);
        outcome o = {0};
        launch(&t, "late", window, 1, &o);
        assert_true(window == 1 ? o.window == 1 : o.window > 1);
        uint32_t *out = malloc(sizeof *out * N), count;
        assert_non_null(out);
        assert_true(ws_devmem_read(t.mem, po, out, sizeof *out * N));
        assert_true(ws_devmem_read(t.mem, pc, &count, sizeof count));
        assert_int_equal(count, N);
        for (uint32_t i = 0; i < N; i++)
            if (out[i] != i + 1000 + input(0)) fail_msg("window %u, thread %u: %u, expected %u", window, i, out[i], i + 1000 + input(0));
        free(out);
        t_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_old_values_stored),
        cmocka_unit_test(test_compare_and_swap),
        cmocka_unit_test(test_compare_and_swap_initcheck),
        cmocka_unit_test(test_compaction),
        cmocka_unit_test(test_compaction_out_of_bounds),
        cmocka_unit_test(test_destination_row_its_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
