/* The front end on what thrust, CUB and cooperative groups emit for sm_80
 * and sm_90: "d|p" pairs of inline-asm registers declared without '%' and
 * the WARP_SZ constant, and the errors their malformed forms get. */
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
        "  ret;\n"));
    const ptx_function *f = tp_func(m, "k");
    const ptx_insn *in = f->insns;
    assert_int_equal(f->ninsns, 8);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_without_percent),
        cmocka_unit_test(test_pair_errors),
        cmocka_unit_test(test_warp_sz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
