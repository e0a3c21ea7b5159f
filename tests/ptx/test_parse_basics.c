/* Parser: registers, operands, immediates, addresses, guards, labels. */
#include <math.h>
#include <stdint.h>
#include "ptx_test_util.h"

static void test_module_header(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(".version 8.5\n.target sm_90a, texmode_independent\n.address_size 64\n");
    assert_int_equal(m->version_major, 8);
    assert_int_equal(m->version_minor, 5);
    assert_string_equal(m->target, "sm_90a");
    assert_int_equal(m->address_size, 64);
    assert_int_equal(m->nfuncs, 0);
    ptx_module_free(m);
}

static void test_register_ranges(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry k()\n{\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<100>;\n  .reg .f64 %fd<2>, %x, y;\n"
        "  .reg .v4 .f32 %vec;\n"
        "  mov.u32 %r99, %r0;\n  ret;\n}\n");
    const ptx_function *f = tp_func(m, "k");
    assert_true(f->is_entry);
    assert_int_equal(f->nregs, 3 + 100 + 2 + 2 + 1);
    int32_t r99 = tp_reg(f, "%r99"), r0 = tp_reg(f, "%r0");
    assert_int_equal(f->regs[r99].type, PTX_T_B32);
    assert_int_equal(f->regs[tp_reg(f, "%p2")].type, PTX_T_PRED);
    assert_int_equal(f->regs[tp_reg(f, "y")].type, PTX_T_F64);
    assert_int_equal(f->regs[tp_reg(f, "%vec")].vec, 4);
    assert_int_equal(f->ninsns, 2);
    const ptx_insn *in = &f->insns[0];
    assert_int_equal(in->m.op, PTX_OP_MOV);
    assert_int_equal(in->m.ntypes, 1);
    assert_int_equal(in->m.types[0], PTX_T_U32);
    assert_int_equal(in->nops, 2);
    assert_int_equal(in->ops[0].kind, PTX_OPND_REG);
    assert_int_equal(in->ops[0].reg, r99);
    assert_int_equal(in->ops[1].reg, r0);
    assert_int_equal(in->guard, -1);
    assert_int_equal(f->insns[1].m.op, PTX_OP_RET);
    assert_int_equal(f->insns[1].nops, 0);
    ptx_module_free(m);
}

static void test_immediates(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry k()\n{\n  .reg .b64 %rd<2>;\n  .reg .f32 %f1;\n  .reg .f64 %d1;\n"
        "  mov.u64 %rd1, 1234;\n"          /* 0 */
        "  mov.u64 %rd1, 0x7fFFffff;\n"    /* 1 */
        "  mov.u64 %rd1, 017;\n"           /* 2 */
        "  mov.u64 %rd1, 0b1011;\n"        /* 3 */
        "  mov.u64 %rd1, 4294967295U;\n"   /* 4 */
        "  mov.u64 %rd1, -42;\n"           /* 5 */
        "  mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;\n" /* 6 */
        "  mov.f32 %f1, 0f3F800000;\n"     /* 7 */
        "  mov.f32 %f1, 0fBF000000;\n"     /* 8 */
        "  mov.f64 %d1, 0d3FB999999999999A;\n" /* 9 */
        "  mov.f64 %d1, 0.1;\n"            /* 10 */
        "  mov.f64 %d1, -2.5e3;\n"         /* 11 */
        "  mov.f32 %f1, 0f7FC00000;\n"     /* 12 */
        "  ret;\n}\n");
    const ptx_insn *in = tp_func(m, "k")->insns;
    assert_int_equal(in[0].ops[1].kind, PTX_OPND_IMM_INT);
    assert_int_equal(in[0].ops[1].v.i, 1234);
    assert_int_equal(in[1].ops[1].v.i, 2147483647);
    assert_int_equal(in[2].ops[1].v.i, 15);
    assert_int_equal(in[3].ops[1].v.i, 11);
    assert_int_equal(in[4].ops[1].v.i, 4294967295LL);
    assert_int_equal(in[5].ops[1].v.i, -42);
    assert_int_equal((uint64_t)in[6].ops[1].v.i, UINT64_MAX);
    float one = 1.0f, mhalf = -0.5f;
    uint32_t b1, b2;
    memcpy(&b1, &one, 4);
    memcpy(&b2, &mhalf, 4);
    assert_int_equal(in[7].ops[1].kind, PTX_OPND_IMM_F32);
    assert_int_equal(in[7].ops[1].v.f32_bits, b1);
    assert_int_equal(in[8].ops[1].v.f32_bits, b2);
    assert_int_equal(in[9].ops[1].kind, PTX_OPND_IMM_F64);
    double tenth = 0.1;     /* 0x3FB999999999999A is the double nearest 0.1 */
    assert_memory_equal(&in[9].ops[1].v.f64, &tenth, 8);
    assert_int_equal(in[10].ops[1].kind, PTX_OPND_IMM_F64);
    assert_memory_equal(&in[10].ops[1].v.f64, &tenth, 8);
    assert_true(in[11].ops[1].v.f64 == -2500.0);
    assert_int_equal(in[12].ops[1].v.f32_bits, 0x7FC00000u);
    ptx_module_free(m);
}

static void test_addresses_and_sregs(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".shared .align 4 .b8 buf[64];\n"
        ".visible .entry k(.param .u64 k_p0)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
        "  ld.param.u64 %rd1, [k_p0];\n"
        "  ld.global.u32 %r1, [%rd1+4];\n"
        "  ld.shared.u32 %r1, [buf+8];\n"
        "  st.shared.u32 [%r1+-4], %r2;\n"
        "  ld.global.u32 %r1, [%rd1-16];\n"
        "  ld.global.u32 %r1, [64];\n"
        "  mov.u32 %r1, %tid.y;\n  mov.u32 %r1, %ctaid.z;\n  mov.u32 %r1, %laneid;\n"
        "  mov.u64 %rd2, %clock64;\n  mov.u32 %r2, %lanemask_lt;\n  mov.u32 %r2, %dynamic_smem_size;\n"
        "  mov.u32 %r2, %ntid.x;\n  mov.u32 %r2, buf;\n"
        "  ret;\n}\n");
    const ptx_function *f = tp_func(m, "k");
    const ptx_insn *in = f->insns;
    assert_int_equal(in[0].m.space, PTX_SPACE_PARAM);
    assert_int_equal(in[0].ops[1].kind, PTX_OPND_ADDR);
    assert_int_equal(in[0].ops[1].addr_base, PTX_ADDR_SYMBOL);
    assert_string_equal(in[0].ops[1].name, "k_p0");
    assert_int_equal(in[0].ops[1].offset, 0);
    assert_int_equal(in[1].ops[1].addr_base, PTX_ADDR_REG);
    assert_int_equal(in[1].ops[1].reg, tp_reg(f, "%rd1"));
    assert_int_equal(in[1].ops[1].offset, 4);
    assert_int_equal(in[2].m.space, PTX_SPACE_SHARED);
    assert_string_equal(in[2].ops[1].name, "buf");
    assert_int_equal(in[2].ops[1].offset, 8);
    assert_int_equal(in[3].m.op, PTX_OP_ST);
    assert_int_equal(in[3].ops[0].offset, -4);
    assert_int_equal(in[3].ops[0].reg, tp_reg(f, "%r1"));
    assert_int_equal(in[4].ops[1].offset, -16);
    assert_int_equal(in[5].ops[1].addr_base, PTX_ADDR_NONE);
    assert_int_equal(in[5].ops[1].offset, 64);
    const struct { int i; int sreg; int comp; } want[] = {
        {6, PTX_SREG_TID, 1}, {7, PTX_SREG_CTAID, 2}, {8, PTX_SREG_LANEID, 0},
        {9, PTX_SREG_CLOCK64, 0}, {10, PTX_SREG_LANEMASK_LT, 0},
        {11, PTX_SREG_DYNAMIC_SMEM_SIZE, 0}, {12, PTX_SREG_NTID, 0},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        assert_int_equal(in[want[k].i].ops[1].kind, PTX_OPND_SREG);
        assert_int_equal(in[want[k].i].ops[1].v.s.sreg, want[k].sreg);
        assert_int_equal(in[want[k].i].ops[1].v.s.component, want[k].comp);
    }
    assert_int_equal(in[13].ops[1].kind, PTX_OPND_SYMBOL);
    assert_string_equal(in[13].ops[1].name, "buf");
    ptx_module_free(m);
}

static void test_guards_labels_pairs_vectors(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry k()\n{\n  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b16 %rs<3>;\n"
        "  setp.lt.s32 %p1, %r1, %r2;\n"            /* 0 */
        "  @%p1 bra $L__BB0_2;\n"                   /* 1 */
        "  @!%p1 bra.uni $L__BB0_3;\n"              /* 2 */
        "$L__BB0_2:\n"
        "  shfl.sync.down.b32 %r3|%p2, %r1, 1, 31, -1;\n" /* 3 */
        "  ld.global.v4.u32 {%r1, %r2, _, %r4}, [%r5];\n" /* 4 */
        "  mov.b32 %r1, {%rs1, %rs2};\n"            /* 5 */
        "  setp.ne.and.s32 %p1|%p2, %r1, 0, !%p2;\n" /* 6 */
        "$L__BB0_3:\n  ret;\n}\n");
    const ptx_function *f = tp_func(m, "k");
    const ptx_insn *in = f->insns;
    assert_int_equal(f->ninsns, 8);
    assert_int_equal(in[0].m.cmp, PTX_CMP_LT);
    assert_int_equal(in[0].m.types[0], PTX_T_S32);
    assert_int_equal(in[1].guard, tp_reg(f, "%p1"));
    assert_false(in[1].guard_neg);
    assert_int_equal(in[1].ops[0].kind, PTX_OPND_LABEL);
    assert_int_equal(in[1].ops[0].v.target, 3);
    assert_true(in[2].guard_neg);
    assert_true(in[2].m.flags & PTX_F_UNI);
    assert_int_equal(in[2].ops[0].v.target, 7);  /* forward reference */
    assert_int_equal(in[3].m.subop, PTX_SUB_SHFL_DOWN);
    assert_true(in[3].m.flags & PTX_F_SYNC);
    assert_int_equal(in[3].ops[0].reg, tp_reg(f, "%r3"));
    assert_int_equal(in[3].ops[0].reg2, tp_reg(f, "%p2"));
    assert_int_equal(in[3].ops[4].v.i, -1);
    assert_int_equal(in[4].m.vec, 4);
    assert_int_equal(in[4].ops[0].kind, PTX_OPND_VEC);
    assert_int_equal(in[4].ops[0].nelems, 4);
    assert_int_equal(in[4].ops[0].elems[2].kind, PTX_OPND_SINK);
    assert_int_equal(in[4].ops[0].elems[3].reg, tp_reg(f, "%r4"));
    assert_int_equal(in[5].ops[1].nelems, 2);
    assert_int_equal(in[6].m.boolop, PTX_BOOL_AND);
    assert_int_equal(in[6].m.cmp, PTX_CMP_NE);
    assert_true(in[6].ops[3].neg);
    assert_int_equal(f->nlabels, 2);
    assert_string_equal(f->labels[0].name, "$L__BB0_2");
    assert_int_equal(f->labels[0].insn, 3);
    assert_int_equal(f->labels[1].insn, 7);
    ptx_module_free(m);
}

static void test_modifiers(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n  .reg .f32 %f<3>;\n"
        "  cvt.rzi.s32.f32 %r1, %f1;\n"                         /* 0 */
        "  mul.wide.s32 %rd1, %r1, 4;\n"                        /* 1 */
        "  ld.global.nc.L1::no_allocate.L2::128B.v2.f32 {%f1, %f2}, [%rd1];\n" /* 2 */
        "  atom.shared::cta.cas.b32 %r1, [%r2], %r3, 0;\n"      /* 3 */
        "  red.relaxed.gpu.global.add.f32 [%rd1], %f1;\n"       /* 4 */
        "  cvt.rn.ftz.sat.f16.f32 %r1, %f1;\n"                  /* 5 */
        "  set.hi.u32.u32 %r1, %r2, %r3;\n"                     /* 6 */
        "  mad.hi.u32 %r1, %r2, %r3, %r1;\n"                    /* 7 */
        "  bar.warp.sync -1;\n"                                 /* 8 */
        "  barrier.sync.aligned 0;\n"                           /* 9 */
        "  vote.sync.ballot.b32 %r1, 1, -1;\n"                  /* 10 */
        "  min.NaN.f32 %f1, %f1, %f2;\n"                        /* 11 */
        "  cvta.to.global.u64 %rd1, %rd2;\n"                    /* 12 */
        "  ld.volatile.shared.u32 %r1, [%r2];\n"                /* 13 */
        "  shf.r.clamp.b32 %r1, %r2, %r3, %r1;\n"               /* 14 */
        "  testp.notanumber.f32 %r1, %f1;\n"                    /* 15 */
        "  fence.acq_rel.gpu;\n  membar.gl;\n"                  /* 16, 17 */
        "  wmma.mma.sync.aligned.col.row.m16n16k16.f32.f16 {%f1,%f1,%f1,%f1,%f1,%f1,%f1,%f1}, {%r1,%r1,%r1,%r1,%r1,%r1,%r1,%r1}, {%r1,%r1,%r1,%r1,%r1,%r1,%r1,%r1}, {%r1,%r1,%r1,%r1};\n" /* 18 */
        "  wmma.load.b.sync.aligned.row.m16n16k16.shared.f16 {%r1,%r1,%r1,%r1,%r1,%r1,%r1,%r1}, [%r2], %r3;\n" /* 19 */
        "  prmt.b32.f4e %r1, %r2, %r3, %r1;\n"                  /* 20 */
        "  ret;\n}\n");
    const ptx_insn *in = tp_func(m, "k")->insns;
    assert_int_equal(in[0].m.op, PTX_OP_CVT);
    assert_int_equal(in[0].m.rounding, PTX_RND_RZI);
    assert_int_equal(in[0].m.ntypes, 2);
    assert_int_equal(in[0].m.types[0], PTX_T_S32);
    assert_int_equal(in[0].m.types[1], PTX_T_F32);
    assert_true(in[1].m.flags & PTX_F_WIDE);
    assert_int_equal(in[2].m.space, PTX_SPACE_GLOBAL);
    assert_true(in[2].m.flags & PTX_F_NC);
    assert_int_equal(in[2].m.cache, PTX_CACHE_L1_NO_ALLOCATE);
    assert_int_equal(in[2].m.vec, 2);
    assert_int_equal(in[2].m.types[0], PTX_T_F32);
    assert_int_equal(in[3].m.space, PTX_SPACE_SHARED);
    assert_int_equal(in[3].m.subop, PTX_SUB_ATOM_CAS);
    assert_int_equal(in[4].m.op, PTX_OP_RED);
    assert_int_equal(in[4].m.subop, PTX_SUB_ATOM_ADD);
    assert_int_equal(in[5].m.flags & (PTX_F_FTZ | PTX_F_SAT), PTX_F_FTZ | PTX_F_SAT);
    assert_int_equal(in[5].m.types[0], PTX_T_F16);
    assert_int_equal(in[6].m.cmp, PTX_CMP_HI);
    assert_int_equal(in[6].m.flags & PTX_F_HI, 0);
    assert_true(in[7].m.flags & PTX_F_HI);
    assert_int_equal(in[7].m.cmp, PTX_CMP_NONE);
    assert_int_equal(in[8].m.subop, PTX_SUB_BAR_WARP_SYNC);
    assert_int_equal(in[9].m.op, PTX_OP_BARRIER);
    assert_int_equal(in[9].m.subop, PTX_SUB_BAR_SYNC);
    assert_int_equal(in[10].m.subop, PTX_SUB_VOTE_BALLOT);
    assert_true(in[11].m.flags & PTX_F_NAN);
    assert_true(in[12].m.flags & PTX_F_TO);
    assert_true(in[13].m.flags & PTX_F_VOLATILE);
    assert_int_equal(in[14].m.subop, PTX_SUB_SHF_R);
    assert_true(in[14].m.flags & PTX_F_CLAMP);
    assert_int_equal(in[15].m.subop, PTX_SUB_TESTP_NOTANUMBER);
    assert_int_equal(in[16].m.op, PTX_OP_FENCE);
    assert_int_equal(in[17].m.op, PTX_OP_MEMBAR);
    assert_int_equal(in[18].m.subop, PTX_SUB_WMMA_MMA);
    assert_int_equal(in[18].m.wmma_shape, 1);
    assert_int_equal(in[18].m.flags & (PTX_F_ROW_A | PTX_F_ROW_B), PTX_F_ROW_B);
    assert_int_equal(in[18].m.types[0], PTX_T_F32);
    assert_int_equal(in[18].m.types[1], PTX_T_F16);
    assert_int_equal(in[19].m.subop, PTX_SUB_WMMA_LOAD_B);
    assert_int_equal(in[19].m.flags & (PTX_F_ROW_A | PTX_F_ROW_B), PTX_F_ROW_B);
    assert_int_equal(in[19].m.space, PTX_SPACE_SHARED);
    assert_int_equal(in[20].m.subop, PTX_SUB_PRMT_F4E);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_module_header),
        cmocka_unit_test(test_register_ranges),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_addresses_and_sregs),
        cmocka_unit_test(test_guards_labels_pairs_vectors),
        cmocka_unit_test(test_modifiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
