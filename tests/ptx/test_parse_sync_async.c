/* The front end on what thrust, CUB and cooperative groups emit for sm_80
 * and sm_90: "d|p" pairs of inline-asm registers declared without '%', the
 * WARP_SZ constant, redux.sync, match.sync, fns, bmsk, cp.async and
 * mbarrier, and the errors their malformed forms get. */
#include <stdint.h>
#include <stdlib.h>
#include "ptx_test_util.h"

#define KERNEL(body) PTX_HEADER ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n" \
                     "  .reg .pred %p<3>;\n" body "}\n"

static void expect(const char *text, const char *want)
{
    char msg[1024];
    tp_fail(text, msg, sizeof msg);
    assert_string_equal(msg, want);
}

/* thrust::inclusive_scan's inline asm and CUB's setp, as nvcc 13 writes them. */
static void test_pairs_without_percent(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(KERNEL(
        "  {  .reg .s32 r0;  .reg .pred p;  shfl.sync.up.b32 r0|p, %r1, %r2, %r3, -1;"
        "  @p add.s32 r0, r0, %r1;  mov.s32 %r2, r0;}\n"                /* 0, 1, 2 */
        "  { .reg .pred p, q; setp.lt.s32 p|q, %r1, %r2; selp.b32 %r3, 1, 0, q; }\n" /* 3, 4 */
        "  shfl.sync.idx.b32 %r1|%p1, %r2, 0, 31, -1;\n"                /* 5 */
        "  { .reg .pred q; shfl.sync.down.b32 %r1|q, %r2, 1, 31, -1; }\n" /* 6 */
        "  match.all.sync.b32 %r1|%p2, %r2, -1;\n"                      /* 7 */
        "  ret;\n"));
    const ptx_function *f = tp_func(m, "k");
    const ptx_insn *in = f->insns;
    assert_int_equal(f->ninsns, 9);
    /* the scoped names are registers of their own, not %r0 or %p0 */
    assert_int_equal(in[0].ops[0].kind, PTX_OPND_REG);
    int32_t r0 = in[0].ops[0].reg, p = in[0].ops[0].reg2;
    assert_true(r0 >= 0 && p >= 0 && r0 != p);
    assert_int_equal(f->regs[r0].type, PTX_T_S32);
    assert_int_equal(f->regs[p].type, PTX_T_PRED);
    assert_int_equal(in[1].guard, p);
    assert_int_equal(in[1].ops[0].reg, r0);
    assert_int_equal(in[2].ops[1].reg, r0);
    assert_int_equal(in[3].m.op, PTX_OP_SETP);
    assert_int_equal(f->regs[in[3].ops[0].reg].type, PTX_T_PRED);
    assert_int_equal(in[4].ops[3].reg, in[3].ops[0].reg2);
    assert_int_equal(in[5].ops[0].reg, tp_reg(f, "%r1"));
    assert_int_equal(in[5].ops[0].reg2, tp_reg(f, "%p1"));
    assert_int_equal(in[6].ops[0].reg, tp_reg(f, "%r1"));
    assert_int_equal(f->regs[in[6].ops[0].reg2].type, PTX_T_PRED);
    assert_int_equal(in[7].m.op, PTX_OP_MATCH);
    assert_int_equal(in[7].ops[0].reg2, tp_reg(f, "%p2"));
    ptx_module_free(m);
}

static void test_pair_errors(void **state)
{
    (void)state;
    expect(KERNEL("  setp.lt.s32 %p1|%r1, %r1, %r2;\n"),
           "t.ptx:9:19: error: '%r1' after '|' is not a .pred register");
    expect(KERNEL("  shfl.sync.up.b32 r0|%p1, %r1, 1, 0, -1;\n"),
           "t.ptx:9:20: error: undeclared register 'r0' before '|'");
    expect(KERNEL("  { .reg .b32 r0; shfl.sync.up.b32 r0|p, %r1, 1, 0, -1; }\n"),
           "t.ptx:9:39: error: undeclared register 'p' after '|'");
}

/* PTX ISA: WARP_SZ is a predefined constant, 32, usable as an immediate. */
static void test_warp_sz(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(KERNEL(
        "  mov.u32 %r1, WARP_SZ;\n"
        "  rem.u32 %r2, %r1, WARP_SZ;\n"
        "  ret;\n"));
    const ptx_insn *in = tp_func(m, "k")->insns;
    assert_int_equal(in[0].ops[1].kind, PTX_OPND_IMM_INT);
    assert_int_equal(in[0].ops[1].v.i, 32);
    assert_int_equal(in[1].ops[2].kind, PTX_OPND_IMM_INT);
    assert_int_equal(in[1].ops[2].v.i, 32);
    ptx_module_free(m);
}

static void test_warp_reductions_and_bits(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(KERNEL(
        "  redux.sync.add.s32 %r1, %r2, -1;\n"             /* 0 */
        "  redux.sync.min.u32 %r1, %r2, %r3;\n"            /* 1 */
        "  redux.sync.xor.b32 %r1, %r2, -1;\n"             /* 2 */
        "  match.any.sync.b64 %r1, %rd1, %r3;\n"           /* 3 */
        "  match.all.sync.b32 %r1, %r2, -1;\n"             /* 4 */
        "  fns.b32 %r1, 61680, 3, -2;\n"                   /* 5 */
        "  bmsk.clamp.b32 %r1, %r2, %r3;\n"                /* 6 */
        "  bmsk.wrap.b32 %r1, 1, 2;\n"                     /* 7 */
        "  ret;\n"));
    const ptx_insn *in = tp_func(m, "k")->insns;
    assert_int_equal(in[0].m.op, PTX_OP_REDUX);
    assert_int_equal(in[0].m.subop, PTX_SUB_ATOM_ADD);
    assert_true(in[0].m.flags & PTX_F_SYNC);
    assert_int_equal(in[0].m.types[0], PTX_T_S32);
    assert_int_equal(in[1].m.subop, PTX_SUB_ATOM_MIN);
    assert_int_equal(in[1].m.types[0], PTX_T_U32);
    assert_int_equal(in[2].m.subop, PTX_SUB_ATOM_XOR);
    assert_int_equal(in[3].m.op, PTX_OP_MATCH);
    assert_int_equal(in[3].m.subop, PTX_SUB_VOTE_ANY);
    assert_int_equal(in[3].m.types[0], PTX_T_B64);
    assert_int_equal(in[4].m.subop, PTX_SUB_VOTE_ALL);
    assert_int_equal(in[4].ops[0].reg2, -1);
    assert_int_equal(in[5].m.op, PTX_OP_FNS);
    assert_int_equal(in[5].ops[3].v.i, -2);
    assert_int_equal(in[6].m.op, PTX_OP_BMSK);
    assert_true(in[6].m.flags & PTX_F_CLAMP);
    assert_true(in[7].m.flags & PTX_F_WRAP);
    ptx_module_free(m);
}

static void test_async_copies_and_mbarriers(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(KERNEL(
        "  cp.async.ca.shared.global [%r1], [%rd1], 4, 4;\n"                      /* 0 */
        "  cp.async.cg.shared::cta.global.L2::128B [%r1], [%rd1], 16, %r2;\n"     /* 1 */
        "  cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 8, %rd2;\n"    /* 2 */
        "  cp.async.commit_group;\n"                                              /* 3 */
        "  cp.async.wait_group 0;\n"                                              /* 4 */
        "  cp.async.wait_all;\n"                                                  /* 5 */
        "  cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];\n"                    /* 6 */
        "  mbarrier.init.shared.b64 [%r1], %r2;\n"                                /* 7 */
        "  mbarrier.arrive.shared::cta.b64 %rd1, [%r1], %r2;\n"                   /* 8 */
        "  mbarrier.try_wait.parity.shared.b64 %p1, [%r1], %r3;\n"                /* 9 */
        "  mbarrier.test_wait.acquire.cta.shared::cta.b64 %p1, [%r1], %rd1;\n"    /* 10 */
        "  mbarrier.arrive_drop.noComplete.shared.b64 _, [%r1], 1;\n"             /* 11 */
        "  mbarrier.pending_count.b64 %r1, %rd1;\n"                               /* 12 */
        "  mbarrier.inval.shared.b64 [%r1];\n"                                    /* 13 */
        "  ret;\n"));
    const ptx_insn *in = tp_func(m, "k")->insns;
    assert_int_equal(in[0].m.op, PTX_OP_CP);
    assert_int_equal(in[0].m.subop, PTX_SUB_CP_ASYNC);
    assert_int_equal(in[0].m.space, PTX_SPACE_SHARED);   /* the destination's */
    assert_int_equal(in[0].m.flags & PTX_F_CG, 0);
    assert_int_equal(in[0].nops, 4);
    assert_true(in[1].m.flags & PTX_F_CG);
    assert_int_equal(in[1].m.space, PTX_SPACE_SHARED);
    assert_true(in[2].m.flags & PTX_F_CACHE_HINT);
    assert_int_equal(in[3].m.subop, PTX_SUB_CP_COMMIT_GROUP);
    assert_int_equal(in[4].m.subop, PTX_SUB_CP_WAIT_GROUP);
    assert_int_equal(in[4].ops[0].v.i, 0);
    assert_int_equal(in[5].m.subop, PTX_SUB_CP_WAIT_ALL);
    assert_int_equal(in[6].m.subop, PTX_SUB_CP_MBARRIER_ARRIVE);
    assert_true(in[6].m.flags & PTX_F_NOINC);
    assert_int_equal(in[7].m.op, PTX_OP_MBARRIER);
    assert_int_equal(in[7].m.subop, PTX_SUB_MBAR_INIT);
    assert_int_equal(in[7].m.types[0], PTX_T_B64);
    assert_int_equal(in[8].m.subop, PTX_SUB_MBAR_ARRIVE);
    assert_int_equal(in[8].m.space, PTX_SPACE_SHARED);
    assert_int_equal(in[9].m.subop, PTX_SUB_MBAR_TRY_WAIT);
    assert_true(in[9].m.flags & PTX_F_PARITY);
    assert_int_equal(in[10].m.subop, PTX_SUB_MBAR_TEST_WAIT);
    assert_int_equal(in[10].m.flags & PTX_F_PARITY, 0);
    assert_int_equal(in[11].m.subop, PTX_SUB_MBAR_ARRIVE_DROP);
    assert_true(in[11].m.flags & PTX_F_NOCOMPLETE);
    assert_int_equal(in[11].ops[0].kind, PTX_OPND_SINK);
    assert_int_equal(in[12].m.subop, PTX_SUB_MBAR_PENDING_COUNT);
    assert_int_equal(in[12].m.space, PTX_SPACE_NONE);
    assert_int_equal(in[13].m.subop, PTX_SUB_MBAR_INVAL);
    ptx_module_free(m);
}

/* Forms outside what warpsim runs are named where they are. */
static void test_unsupported_forms(void **state)
{
    (void)state;
    expect(KERNEL("  cp.async.bulk.shared::cluster.global [%r1], [%rd1], 16, [%r2];\n"),
           "t.ptx:9:3: error: unsupported modifier '.bulk' in instruction "
           "'cp.async.bulk.shared::cluster.global'");
    expect(KERNEL("  cp.reduce.async.bulk.global.shared::cta.add.u32 [%rd1], [%r1], 16;\n"),
           "t.ptx:9:3: error: unsupported modifier '.reduce' in instruction "
           "'cp.reduce.async.bulk.global.shared::cta.add.u32'");
    expect(KERNEL("  cp.async.ca.global.shared [%r1], [%rd1], 4;\n"),
           "t.ptx:9:3: error: unsupported modifier '.global' in instruction 'cp.async.ca.global.shared'");
    expect(KERNEL("  mbarrier.expect_tx.shared.b64 [%r1], 16;\n"),
           "t.ptx:9:3: error: unsupported modifier '.expect_tx' in instruction 'mbarrier.expect_tx.shared.b64'");
    expect(KERNEL("  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];\n"),
           "t.ptx:9:3: error: unsupported modifier '.cluster' in instruction "
           "'mbarrier.arrive.release.cluster.shared::cluster.b64'");
    expect(KERNEL("  match.none.sync.b32 %r1, %r2, -1;\n"),
           "t.ptx:9:3: error: unsupported modifier '.none' in instruction 'match.none.sync.b32'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_without_percent),
        cmocka_unit_test(test_pair_errors),
        cmocka_unit_test(test_warp_sz),
        cmocka_unit_test(test_warp_reductions_and_bits),
        cmocka_unit_test(test_async_copies_and_mbarriers),
        cmocka_unit_test(test_unsupported_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
