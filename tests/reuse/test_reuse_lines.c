/* Repeated-launch reuse of a launch counted per instruction (--lines):
 * the reused launch adds the counters the recorded one added, so the
 * per-line counters of two equal launches, the second reused, are those of
 * both simulated; a record of a launch not so counted is not taken by one
 * that is (it has no counters to add), nor the other way round. */
#include "../timing/timing_util.h"
#include "sim/core/run.h"

/* out[i] = in[i] * 2 over a grid-stride loop: loads, a multiply, stores. */
static const char *const twice_ptx = PTX_HEAD
    ".visible .entry twice(.param .u64 in, .param .u64 out, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u32 %r1, [n];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
    "  mul.wide.s32 %rd3, %r5, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r6, [%rd4];\n"
    "  shl.b32 %r7, %r6, 1;\n  add.s64 %rd5, %rd2, %rd3;\n  st.global.u32 [%rd5], %r7;\n"
    "DONE:\n  ret;\n}\n";

typedef struct lines_case {
    tctx t;
    ws_gpu_config g;
    ws_reuse_cache *cache;
    uint64_t launches;
    uint32_t npc;
} lines_case;

/* One launch of twice through the reuse layer, its per-instruction
 * counters added to pcc (NULL: none kept); returns the launch it reused
 * (0: simulated). */
static uint64_t launch(lines_case *c, ws_pc_counts *pcc)
{
    const ws_kernel *k = ws_program_kernel(c->t.p, "twice");
    assert_non_null(k);
    ws_launch l = {.grid = D3(8, 1, 1), .block = D3(128, 1, 1), .params = c->t.params,
                   .params_size = c->t.nparams, .pc_counts = pcc};
    ws_run_options o = {.gpu = &c->g, .max_dynamic_smem = WS_SMEM_LIMIT_DEFAULT, .timing = tt_threaded(1, 0)};
    ws_run_reuse r = {.cache = c->cache, .launch_no = ++c->launches};
    ws_launch_stats st;
    ws_timing_stats ts;
    if (!ws_run_reusing(c->t.p, k, &l, &o, &r, &st, &ts, &c->t.err)) fail_msg("%s", c->t.err.msg);
    return r.reused_from;
}

static void setup_case(lines_case *c)
{
    tt_config(&c->g, "teaching");
    tbuf b = {.n = 0};
    tb(&b, "%s", twice_ptx);
    tt_load(&c->t, &b);
    enum { N = 1000 };
    uint32_t in[N];
    for (int i = 0; i < N; i++) in[i] = (uint32_t)i;
    t_p64(&c->t, t_alloc(&c->t, in, sizeof in));
    t_p64(&c->t, t_alloc(&c->t, NULL, sizeof in));
    t_p32(&c->t, N);
    c->cache = ws_reuse_create();
    assert_non_null(c->cache);
    c->launches = 0;
    c->npc = ws_program_code_size(c->t.p);
}

static void free_case(lines_case *c)
{
    ws_reuse_destroy(c->cache);
    t_free(&c->t);
}

static ws_pc_counts *counters(const lines_case *c)
{
    ws_pc_counts *p = calloc(c->npc, sizeof *p);
    assert_non_null(p);
    return p;
}

static void test_reused_launch_adds_its_lines(void **state)
{
    (void)state;
    lines_case c;
    setup_case(&c);
    ws_pc_counts *once = counters(&c), *both = counters(&c), *apart = counters(&c);
    assert_int_equal(launch(&c, once), 0);              /* simulated and recorded */
    assert_int_equal(launch(&c, both), 1);              /* reuses launch 1 ... */
    assert_int_equal(launch(&c, both), 1);              /* ... twice: its counters added each time */
    ws_reuse_clear(c.cache);
    assert_int_equal(launch(&c, apart), 0);
    assert_int_equal(launch(&c, apart), 4);             /* reuses launch 4, simulated into apart */
    uint64_t insts = 0;
    for (uint32_t pc = 0; pc < c.npc; pc++) {
        ws_pc_counts want = once[pc];
        ws_pc_counts_add(&want, &once[pc], 1, false);   /* two launches' worth */
        assert_memory_equal(&both[pc], &want, sizeof want);
        assert_memory_equal(&apart[pc], &want, sizeof want);
        insts += once[pc].warp_insts;
    }
    assert_true(insts > 100);
    free(once);
    free(both);
    free(apart);
    free_case(&c);
}

static void test_counted_and_uncounted_apart(void **state)
{
    (void)state;
    lines_case c;
    setup_case(&c);
    ws_pc_counts *pcc = counters(&c);
    assert_int_equal(launch(&c, NULL), 0);      /* recorded without counters */
    assert_int_equal(launch(&c, pcc), 0);       /* could add none: simulated */
    assert_true(pcc[0].warp_insts > 0);
    assert_int_equal(launch(&c, NULL), 1);      /* the uncounted record */
    assert_int_equal(launch(&c, pcc), 2);       /* the counted one */
    free(pcc);
    free_case(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reused_launch_adds_its_lines),
        cmocka_unit_test(test_counted_and_uncounted_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
