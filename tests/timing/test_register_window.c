/* A kernel's register storage is sized by the kernel (its registers and
 * those of the functions it can call), not by the module that holds it:
 * the same small kernel alone and after a kernel of 900 registers needs
 * the same rows per warp, runs to the same results, and takes the same
 * cycles.  So are its local memory and .func parameter frames: a kernel of
 * 64 local bytes after one of 4096 stores 64 per thread and reads back
 * what it wrote.  So is its code window, the instructions a timed launch
 * works out each one's registers and pipe for, and the registers the
 * estimate of its registers per thread looks at. */
#include "timing_util.h"

/* out[i] = i * 3 + 1 for the grid's threads: 4 .b32 and 3 .b64 registers
 * declared, 7 rows. */
static void small_kernel(tbuf *b)
{
    tb(b, ".visible .entry small(.param .u64 out)\n{\n"
          " .reg .b32 %%r<4>;\n .reg .b64 %%rd<3>;\n"
          " ld.param.u64 %%rd1, [out];\n"
          " mov.u32 %%r1, %%ctaid.x;\n mov.u32 %%r2, %%tid.x;\n"
          " mad.lo.s32 %%r1, %%r1, %%ntid.x, %%r2;\n"
          " mad.lo.s32 %%r3, %%r1, 3, 1;\n"
          " mul.wide.u32 %%rd2, %%r1, 4;\n add.u64 %%rd1, %%rd1, %%rd2;\n"
          " st.global.u32 [%%rd1], %%r3;\n ret;\n}\n");
}

/* A .func of 3 registers: x * 5. */
static void times5_func(tbuf *b)
{
    tb(b, ".func (.param .b32 rv) times5(.param .b32 x)\n{\n"
          " .reg .b32 %%h<3>;\n"
          " ld.param.u32 %%h1, [x];\n mul.lo.s32 %%h2, %%h1, 5;\n"
          " st.param.b32 [rv], %%h2;\n ret;\n}\n");
}

/* out[i] = times5(i) for the grid's threads: 4 .b32 and 3 .b64 registers. */
static void caller_kernel(tbuf *b)
{
    tb(b, ".visible .entry caller(.param .u64 out)\n{\n"
          " .reg .b32 %%r<4>;\n .reg .b64 %%rd<3>;\n"
          " ld.param.u64 %%rd1, [out];\n"
          " mov.u32 %%r1, %%ctaid.x;\n mov.u32 %%r2, %%tid.x;\n"
          " mad.lo.s32 %%r1, %%r1, %%ntid.x, %%r2;\n"
          " {\n .param .b32 a;\n .param .b32 r;\n st.param.b32 [a], %%r1;\n"
          " call.uni (r), times5, (a);\n ld.param.b32 %%r3, [r];\n }\n"
          " mul.wide.u32 %%rd2, %%r1, 4;\n add.u64 %%rd1, %%rd1, %%rd2;\n"
          " st.global.u32 [%%rd1], %%r3;\n ret;\n}\n");
}

/* A kernel whose every thread prints "hi\n", with vprintf's declaration
 * and the format. */
static void talk_kernel(tbuf *b)
{
    tb(b, ".extern .func (.param .b32 rv) vprintf(.param .b64 f, .param .b64 a);\n"
          ".global .align 1 .b8 fmt[4] = {104, 105, 10, 0};\n"
          ".visible .entry talk()\n{\n .reg .b32 %%r<2>;\n .reg .b64 %%rd<3>;\n"
          " mov.u64 %%rd1, fmt;\n cvta.global.u64 %%rd2, %%rd1;\n"
          " {\n .param .b64 p0;\n .param .b64 p1;\n .param .b32 r;\n"
          " st.param.b64 [p0], %%rd2;\n st.param.b64 [p1], 0;\n"
          " call.uni (r), vprintf, (p0, p1);\n ld.param.b32 %%r1, [r];\n }\n ret;\n}\n");
}

/* A kernel of 800 .f32 and 100 .b64 registers, a .func of 3 registers and
 * a kernel of 6 that calls it (out[i] = i * 5), then the small kernel. */
static void big_module(tbuf *b)
{
    tb(b, PTX_HEAD ".visible .entry big(.param .u64 out)\n{\n"
          " .reg .f32 %%f<800>;\n .reg .b64 %%rd<100>;\n"
          " ld.param.u64 %%rd1, [out];\n mov.f32 %%f1, 0f3F800000;\n");
    for (int i = 2; i < 800; i++) tb(b, " add.f32 %%f%d, %%f%d, %%f1;\n", i, i - 1);
    tb(b, " st.global.f32 [%%rd1], %%f799;\n ret;\n}\n");
    times5_func(b);
    caller_kernel(b);
    tb(b, ".visible .entry bigloc(.param .u64 out)\n{\n"
          " .local .align 4 .b8 junk[4096];\n .reg .b32 %%r<3>;\n .reg .b64 %%rd<3>;\n"
          " ld.param.u64 %%rd1, [out];\n mov.u32 %%r1, 9;\n"
          " st.local.u32 [junk+4092], %%r1;\n ld.local.u32 %%r2, [junk+4092];\n"
          " st.global.u32 [%%rd1], %%r2;\n ret;\n}\n");
    /* out[i] = i * 7 + 2, through local memory: stored through a generic
     * address, loaded through a .local one */
    tb(b, ".visible .entry locals(.param .u64 out)\n{\n"
          " .local .align 4 .b8 buf[64];\n .reg .b32 %%r<8>;\n .reg .b64 %%rd<6>;\n"
          " ld.param.u64 %%rd1, [out];\n"
          " mov.u32 %%r1, %%ctaid.x;\n mov.u32 %%r2, %%tid.x;\n"
          " mad.lo.s32 %%r1, %%r1, %%ntid.x, %%r2;\n"
          " mad.lo.s32 %%r3, %%r1, 7, 2;\n and.b32 %%r4, %%r1, 15;\n"
          " mul.wide.u32 %%rd2, %%r4, 4;\n mov.u64 %%rd3, buf;\n add.u64 %%rd3, %%rd3, %%rd2;\n"
          " cvta.local.u64 %%rd5, %%rd3;\n st.u32 [%%rd5], %%r3;\n ld.local.u32 %%r5, [%%rd3];\n"
          " mul.wide.u32 %%rd4, %%r1, 4;\n add.u64 %%rd1, %%rd1, %%rd4;\n"
          " st.global.u32 [%%rd1], %%r5;\n ret;\n}\n");
    small_kernel(b);
}

static void load_alone(tctx *t)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD);
    small_kernel(&b);
    tt_load(t, &b);
}

static void load_big(tctx *t)
{
    static tbuf b;      /* 64 KB: not on the stack */
    b.n = 0;
    big_module(&b);
    tt_load(t, &b);
}

static int32_t rows_of(const tctx *t, const char *name)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    if (!k) fail_msg("no kernel %s", name);
    return ws_kernel_reg_rows(k);
}

static void test_rows_sized_by_the_kernel(void **state)
{
    (void)state;
    tctx alone, big;
    load_alone(&alone);
    load_big(&big);
    assert_int_equal(rows_of(&alone, "small"), 4 + 3);
    assert_int_equal(rows_of(&big, "small"), rows_of(&alone, "small"));
    assert_int_equal(rows_of(&big, "big"), 800 + 100);
    /* its own 7 and the called function's 3 */
    assert_int_equal(rows_of(&big, "caller"), 4 + 3 + 3);
    t_free(&alone);
    t_free(&big);
}

static const ws_kernel *kernel_of(const tctx *t, const char *name)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    if (!k) fail_msg("no kernel %s", name);
    return k;
}

/* Local memory and parameter frames per thread: the kernel's own (and its
 * callees'), not the module's 4096 + 64 local bytes. */
static void test_local_and_frames_sized_by_the_kernel(void **state)
{
    (void)state;
    tctx big;
    load_big(&big);
    assert_true(big.p->local_size >= 4096 + 64);
    assert_int_equal(kernel_of(&big, "small")->local_size, 0);
    assert_int_equal(kernel_of(&big, "small")->tparam_size, 0);
    assert_true(kernel_of(&big, "bigloc")->local_size >= 4096);
    assert_int_equal(kernel_of(&big, "locals")->local_size, 64);
    assert_true(kernel_of(&big, "locals")->local_lo >= 4096);      /* laid out after bigloc's */
    /* caller's two .param variables and times5's parameter and result */
    assert_int_equal(kernel_of(&big, "caller")->local_size, 0);
    assert_true(kernel_of(&big, "caller")->tparam_size >= 4 * 4);
    t_free(&big);
}

static const ws_func *func_of(const tctx *t, const char *name)
{
    for (int32_t i = 0; i < t->p->nfuncs; i++)
        if (strcmp(t->p->funcs[i].name, name) == 0) return &t->p->funcs[i];
    fail_msg("no function %s", name);
    return NULL;
}

/* The code window: a kernel's own instructions (its last, the synthesized
 * end, included), and those of what it calls; the same estimate of its
 * registers alone and in the big module. */
static void test_code_window_and_estimate_by_the_kernel(void **state)
{
    (void)state;
    tctx alone, big;
    load_alone(&alone);
    load_big(&big);
    const ws_kernel *ka = kernel_of(&alone, "small"), *kb = kernel_of(&big, "small");
    assert_int_equal(ka->code_lo, func_of(&alone, "small")->start);
    assert_int_equal(ka->code_hi, func_of(&alone, "small")->end + 1);
    assert_int_equal(kb->code_lo, func_of(&big, "small")->start);
    assert_int_equal(kb->code_hi - kb->code_lo, ka->code_hi - ka->code_lo);
    assert_true(big.p->ncode > 20 * (kb->code_hi - kb->code_lo));
    /* caller and times5, laid out one after the other, times5 first */
    const ws_kernel *kc = kernel_of(&big, "caller");
    assert_int_equal(kc->code_lo, func_of(&big, "times5")->start);
    assert_int_equal(kc->code_hi, func_of(&big, "caller")->end + 1);
    assert_int_equal(kernel_of(&big, "big")->code_hi, func_of(&big, "big")->end + 1);
    int32_t est = ws_estimate_regs(alone.p, ka);
    assert_true(est >= 16);
    assert_int_equal(ws_estimate_regs(big.p, kb), est);
    t_free(&alone);
    t_free(&big);
}

/* A kernel that prints, then the small kernel. */
static void load_printf_beside(tctx *t)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD);
    talk_kernel(&b);
    small_kernel(&b);
    tt_load(t, &b);
}

/* times5, then a kernel that prints, then caller (as big_module's). */
static void load_printf_between(tctx *t)
{
    tbuf b = {.n = 0};
    tb(&b, PTX_HEAD);
    times5_func(&b);
    talk_kernel(&b);
    caller_kernel(&b);
    tt_load(t, &b);
}

enum { BLOCKS = 40, THREADS = 64, N = BLOCKS * THREADS };

/* Runs kernel name of t (functional, or timed when g: on threads host
 * threads, tt_threaded, when threads > 0) on out[N] and checks out[i] ==
 * i * mul + add. */
static void run_and_check(tctx *t, const char *name, const ws_gpu_config *g, int32_t threads, int mul, int add,
                          ws_timing_stats *ts)
{
    uint64_t d = t_alloc(t, NULL, N * sizeof(uint32_t));
    t->nparams = 0;
    t_p64(t, d);
    ws_launch l = {.grid = D3(BLOCKS, 1, 1), .block = D3(THREADS, 1, 1), .params = t->params,
                   .params_size = t->nparams};
    ws_timing_options o = tt_threaded(threads, 0);
    if (g && threads > 0) {
        if (!ws_launch_timed(t->p, kernel_of(t, name), &l, g, &o, &t->st, ts, &t->err)) fail_msg("%s", t->err.msg);
    } else if (g) {
        tt_run(t, g, name, l.grid, l.block, 0, 16, ts);
    } else if (!t_run(t, name, l.grid, l.block, 0, NULL, 0)) {
        fail_msg("%s", t->err.msg);
    }
    static uint32_t out[N];
    assert_true(ws_devmem_read(t->mem, d, out, sizeof out));
    for (uint32_t i = 0; i < N; i++) assert_int_equal(out[i], i * (uint32_t)mul + (uint32_t)add);
}

/* The small kernel's registers lie far above register 0 in the big module:
 * it still reads and writes its own, functional and timed, and its timing
 * is that of the kernel alone. */
static void test_same_results_in_a_big_module(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "teaching");
    tctx alone, big;
    load_alone(&alone);
    load_big(&big);
    ws_timing_stats ta, tbig;
    run_and_check(&alone, "small", NULL, 0, 3, 1, NULL);
    run_and_check(&big, "small", NULL, 0, 3, 1, NULL);
    run_and_check(&big, "caller", NULL, 0, 5, 0, NULL);
    run_and_check(&alone, "small", &g, 0, 3, 1, &ta);
    run_and_check(&big, "small", &g, 0, 3, 1, &tbig);
    run_and_check(&big, "caller", &g, 0, 5, 0, NULL);
    run_and_check(&big, "locals", NULL, 0, 7, 2, NULL);
    run_and_check(&big, "locals", &g, 0, 7, 2, NULL);
    assert_int_equal(tbig.cycles, ta.cycles);
    assert_int_equal(tbig.warp_insts, ta.warp_insts);
    t_free(&alone);
    t_free(&big);
}

/* A kernel that prints runs on one thread (its lines come in the order
 * it runs); a kernel beside it in the module that does not print runs on
 * the threads asked for. */
static void test_printf_beside_leaves_the_threads(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "a100");
    tctx t;
    load_printf_beside(&t);
    FILE *out = tmpfile();
    assert_non_null(out);
    ws_timing_options o = tt_threaded(3, 0);
    ws_launch l = {.grid = D3(8, 1, 1), .block = D3(32, 1, 1), .printf_out = out};
    ws_timing_stats ts;
    if (!ws_launch_timed(t.p, kernel_of(&t, "talk"), &l, &g, &o, &t.st, &ts, &t.err)) fail_msg("%s", t.err.msg);
    assert_int_equal(ts.host.windows, 0);
    assert_int_equal(ftell(out), 8 * 32 * 3);       /* "hi\n" from every thread */
    run_and_check(&t, "small", &g, 3, 3, 1, &ts);
    assert_true(ts.host.windows > 0);
    fclose(out);
    t_free(&t);
}

/* A kernel's functions are its own and those it calls, not one laid out
 * between them (its code window spans that one too): caller's are caller
 * and times5, not the kernel that prints between them, and it runs to
 * its results timed on three threads. */
static void test_functions_of_a_kernel(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "a100");
    tctx t;
    load_printf_between(&t);
    const ws_kernel *k = kernel_of(&t, "caller");
    const ws_func *talk = func_of(&t, "talk");
    assert_true(k->code_lo <= talk->start && talk->end < k->code_hi);
    assert_int_equal(k->nfuncs, 2);
    assert_ptr_equal(&t.p->funcs[k->funcs[0]], func_of(&t, "caller"));
    assert_ptr_equal(&t.p->funcs[k->funcs[1]], func_of(&t, "times5"));
    assert_int_equal(kernel_of(&t, "talk")->nfuncs, 1);     /* vprintf has no code */
    ws_timing_stats ts;
    run_and_check(&t, "caller", &g, 3, 5, 0, &ts);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_sized_by_the_kernel),
        cmocka_unit_test(test_same_results_in_a_big_module),
        cmocka_unit_test(test_local_and_frames_sized_by_the_kernel),
        cmocka_unit_test(test_code_window_and_estimate_by_the_kernel),
        cmocka_unit_test(test_printf_beside_leaves_the_threads),
        cmocka_unit_test(test_functions_of_a_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
