/* The instruction table (isa/ptx_opcodes.def, sim/core/insn_table.h):
 * every opcode has a complete, consistent row, and decode resolves the
 * pipe, the ALU family and the scheduling facts of instructions as the PTX
 * ISA and the hand-worked cases below say.  An opcode added without one of
 * its columns, or with columns that contradict each other, fails here. */
#include "core_util.h"

#include "frontend/ptx/ptx_pstate.h"
#include "sim/core/insn_table.h"

static bool is_memory_class(uint8_t c)
{
    return c == WS_I_LD || c == WS_I_ST || c == WS_I_ATOM || c == WS_I_TEX || c == WS_I_CP_ASYNC ||
           c == WS_I_MBARRIER;
}

static bool is_control_class(uint8_t c)
{
    return c == WS_I_BRA || c == WS_I_CALL || c == WS_I_RET || c == WS_I_EXIT || c == WS_I_TRAP ||
           c == WS_I_BAR;
}

/* Classes only decode makes, from the form of an instruction or out of
 * nothing: no opcode names them as its own. */
static bool is_derived_class(uint8_t c)
{
    return c == WS_I_PACK || c == WS_I_UNPACK || c == WS_I_WARPSYNC || c == WS_I_PRINTF ||
           c == WS_I_ASSERT || c == WS_I_FEND;
}

static void test_every_opcode_has_a_complete_row(void **state)
{
    (void)state;
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        ptx_opcode op = (ptx_opcode)i;
        const char *name = ptx_opcode_name(op);
        const ws_opcode_info *r = ws_opcode_info_of(op);
        /* the name: there, unique, found again by the lexer's lookup and
         * by the mnemonic decoder */
        if (!name[0]) fail_msg("opcode %d has no mnemonic", i);
        assert_int_equal(ptx_opcode_from_name(name), op);
        ptx_mods m;
        char msg[256];
        if (!ptx_mnemonic_decode(name, &m, msg, sizeof msg)) fail_msg("%s: %s", name, msg);
        assert_int_equal(m.op, op);
        /* every column holds a value of its kind */
        if (r->cls >= WS_I_COUNT) fail_msg("%s: class %u out of range", name, r->cls);
        if (r->pipe >= WS_PIPE_COUNT) fail_msg("%s: pipe %u out of range", name, r->pipe);
        if (r->alu > WS_FAM_FARITH) fail_msg("%s: ALU family %u out of range", name, r->alu);
        if (is_derived_class(r->cls))
            fail_msg("%s: class %s is made by decode, not named by an opcode", name, ws_iclass_name(r->cls));
        /* the columns agree: the ALU computes exactly the ALU class (and
         * scalar mov), memory goes through the LSU, control through the
         * branch unit, transcendentals through the SFU */
        if (r->cls == WS_I_ALU && r->alu == WS_FAM_NONE) fail_msg("%s: ALU class without an ALU family", name);
        if (r->alu != WS_FAM_NONE && r->cls != WS_I_ALU && r->cls != WS_I_MOV)
            fail_msg("%s: an ALU family on class %s", name, ws_iclass_name(r->cls));
        if (r->alu == WS_FAM_HALF) fail_msg("%s: HALF is decided by type (ARITH, FARITH)", name);
        if (is_memory_class(r->cls) && r->pipe != WS_PIPE_LSU) fail_msg("%s: memory opcode not on the LSU", name);
        if (is_control_class(r->cls) && r->pipe != WS_PIPE_BRANCH)
            fail_msg("%s: control opcode not on the branch pipe", name);
        if (r->alu == WS_FAM_SFU && r->pipe != WS_PIPE_SFU) fail_msg("%s: SFU family off the SFU pipe", name);
        if ((r->alu == WS_FAM_FLOAT || r->alu == WS_FAM_FARITH) && r->pipe != WS_PIPE_FP32)
            fail_msg("%s: float-only opcode off the FP32 pipe", name);
        if (r->pipe == WS_PIPE_TENSOR && r->cls != WS_I_WMMA) fail_msg("%s: tensor pipe outside wmma", name);
        if (r->pipe == WS_PIPE_FP64) fail_msg("%s: FP64 is decided by type, not by opcode", name);
        /* the flags belong to the classes they refine */
        if ((r->flags & WS_OPF_CARRY) && (r->cls != WS_I_ALU || r->alu != WS_FAM_INT))
            fail_msg("%s: carry flag on a non-integer opcode", name);
        if ((r->flags & WS_OPF_NORESULT) && !(ws_iclass_flags(r->cls) & WS_CF_SOME_DST))
            fail_msg("%s: NORESULT on a class whose forms all write or none does", name);
        if (r->flags & ~(WS_OPF_CARRY | WS_OPF_NORESULT | WS_OPF_REFUSED)) fail_msg("%s: unknown flags", name);
    }
    /* out of range: refused, not read past the table */
    assert_true(ws_opcode_info_of(PTX_OP_COUNT)->flags & WS_OPF_REFUSED);
    assert_int_equal(ptx_opcode_from_name("frobnicate"), PTX_OP_COUNT);
    assert_int_equal(ptx_opcode_from_name(NULL), PTX_OP_COUNT);
}

/* Rows the PTX ISA fixes, spot-checked by hand. */
static void test_rows_by_hand(void **state)
{
    (void)state;
    assert_int_equal(ws_opcode_info_of(PTX_OP_FMA)->pipe, WS_PIPE_FP32);
    assert_int_equal(ws_opcode_info_of(PTX_OP_WMMA)->pipe, WS_PIPE_TENSOR);
    assert_int_equal(ws_opcode_info_of(PTX_OP_ST)->pipe, WS_PIPE_LSU);
    assert_int_equal(ws_opcode_info_of(PTX_OP_BRA)->pipe, WS_PIPE_BRANCH);
    assert_int_equal(ws_opcode_info_of(PTX_OP_SIN)->pipe, WS_PIPE_SFU);
    /* warp-wide exchanges and reductions run where shfl runs; the copies
     * and barriers that touch shared memory go through the LSU */
    assert_int_equal(ws_opcode_info_of(PTX_OP_REDUX)->pipe, ws_opcode_info_of(PTX_OP_SHFL)->pipe);
    assert_int_equal(ws_opcode_info_of(PTX_OP_MATCH)->pipe, ws_opcode_info_of(PTX_OP_SHFL)->pipe);
    assert_int_equal(ws_opcode_info_of(PTX_OP_FNS)->pipe, WS_PIPE_INT);
    assert_int_equal(ws_opcode_info_of(PTX_OP_BMSK)->pipe, WS_PIPE_INT);
    assert_int_equal(ws_opcode_info_of(PTX_OP_CP)->pipe, WS_PIPE_LSU);
    assert_int_equal(ws_opcode_info_of(PTX_OP_MBARRIER)->pipe, WS_PIPE_LSU);
    assert_int_equal(ws_opcode_info_of(PTX_OP_RED)->cls, WS_I_ATOM);
    assert_true(ws_opcode_info_of(PTX_OP_RED)->flags & WS_OPF_NORESULT);
    assert_false(ws_opcode_info_of(PTX_OP_ATOM)->flags & WS_OPF_NORESULT);
    assert_true(ws_opcode_info_of(PTX_OP_MADC)->flags & WS_OPF_CARRY);
    assert_int_equal(ws_opcode_info_of(PTX_OP_LDU)->cls, WS_I_LD);
    assert_int_equal(ws_opcode_info_of(PTX_OP_TLD4)->cls, WS_I_TEX);
}

/* Every class has a name and consistent flags. */
static void test_every_class_has_a_row(void **state)
{
    (void)state;
    for (int c = 0; c < WS_I_COUNT; c++) {
        const char *name = ws_iclass_name((ws_iclass)c);
        uint8_t f = ws_iclass_flags((ws_iclass)c);
        assert_string_not_equal(name, "?");
        for (int d = 0; d < c; d++) assert_string_not_equal(name, ws_iclass_name((ws_iclass)d));
        if ((f & WS_CF_DST) && (f & WS_CF_SOME_DST)) fail_msg("%s: DST and SOME_DST", name);
        if ((f & WS_CF_LOAD) && ((f & WS_CF_FIXED) || !(f & WS_CF_DST))) fail_msg("%s: a load that is fixed or writes nothing", name);
        if ((f & WS_CF_END) && !(f & WS_CF_FIXED)) fail_msg("%s: ends a block but may move", name);
    }
    assert_string_equal(ws_iclass_name(WS_I_COUNT), "?");
}

static const char facts_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .f32 %f<4>;\n .reg .f64 %fd<3>;\n"
    " .reg .b16 %h<3>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [k_p];\n"              /* 0 */
    " add.s32 %r1, %r2, %r3;\n"                 /* 1 */
    " add.f32 %f1, %f2, %f3;\n"                 /* 2 */
    " add.f64 %fd1, %fd2, %fd2;\n"              /* 3 */
    " add.f16 %h1, %h2, %h2;\n"                 /* 4 */
    " sin.approx.f32 %f1, %f2;\n"               /* 5 */
    " add.cc.u32 %r4, %r1, %r1;\n"              /* 6 */
    " addc.u32 %r5, %r1, %r1;\n"                /* 7 */
    " mov.u32 %r6, %clock;\n"                   /* 8 */
    " st.global.u32 [%rd1], %r6;\n"             /* 9 */
    " red.global.add.u32 [%rd1], %r1;\n"        /* 10 */
    " atom.global.add.u32 %r7, [%rd1], %r1;\n"  /* 11 */
    " bar.sync 0;\n"                            /* 12 */
    " ret;\n}\n";

/* What decode resolves for each instruction, worked out by hand from the
 * PTX ISA: the pipe by type, the ALU family, what it writes and where it
 * may move. */
static void test_decoded_facts(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, facts_ptx, "facts.ptx")) fail_msg("%s", t.err.msg);
    /* find each instruction by its source line (the scheduler may reorder) */
    const ws_insn *at[14] = {0};
    const ws_func *f = &t.p->funcs[0];
    for (int32_t pc = f->start; pc < f->end; pc++) {
        const ws_insn *in = &t.p->code[pc];
        int k = in->pos.line - 12;     /* the ld.param is on line 12 */
        assert_true(k >= 0 && k < 14);
        at[k] = in;
    }
    const ws_insn *end = &t.p->code[f->end];
    static const struct { uint8_t pipe, alu, flags; } want[14] = {
        {WS_PIPE_LSU, WS_FAM_NONE, WS_IF_DST | WS_IF_LOAD},             /* ld.param */
        {WS_PIPE_INT, WS_FAM_INT, WS_IF_DST | WS_IF_NARROW},            /* add.s32: 32-bit registers */
        {WS_PIPE_FP32, WS_FAM_FLOAT, WS_IF_DST | WS_IF_NARROW},         /* add.f32 */
        {WS_PIPE_FP64, WS_FAM_FLOAT, WS_IF_DST},                        /* add.f64 */
        {WS_PIPE_FP32, WS_FAM_HALF, WS_IF_DST},                         /* add.f16 */
        {WS_PIPE_SFU, WS_FAM_SFU, WS_IF_DST},                           /* sin */
        {WS_PIPE_INT, WS_FAM_INT, WS_IF_DST | WS_IF_FIXED | WS_IF_CARRY}, /* add.cc */
        {WS_PIPE_INT, WS_FAM_INT, WS_IF_DST | WS_IF_FIXED | WS_IF_CARRY}, /* addc */
        {WS_PIPE_INT, WS_FAM_NONE, WS_IF_DST | WS_IF_FIXED},            /* mov of %clock */
        {WS_PIPE_LSU, WS_FAM_NONE, WS_IF_FIXED},                        /* st */
        {WS_PIPE_LSU, WS_FAM_NONE, WS_IF_FIXED},                        /* red: no result */
        {WS_PIPE_LSU, WS_FAM_NONE, WS_IF_DST | WS_IF_FIXED},            /* atom */
        {WS_PIPE_BRANCH, WS_FAM_NONE, WS_IF_FIXED},                     /* bar.sync */
        {WS_PIPE_BRANCH, WS_FAM_NONE, WS_IF_FIXED | WS_IF_ENDS_BLOCK},  /* ret in a kernel: exit */
    };
    for (int k = 0; k < 14; k++) {
        assert_non_null(at[k]);
        if (at[k]->pipe != want[k].pipe || at[k]->alu != want[k].alu || at[k]->flags != want[k].flags)
            fail_msg("line %d: pipe %u alu %u flags %#x, want pipe %u alu %u flags %#x", k + 12,
                     at[k]->pipe, at[k]->alu, at[k]->flags, want[k].pipe, want[k].alu, want[k].flags);
    }
    assert_int_equal(at[13]->cls, WS_I_EXIT);
    assert_int_equal(end->cls, WS_I_FEND);
    assert_int_equal(end->flags, WS_IF_FIXED | WS_IF_ENDS_BLOCK);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_opcode_has_a_complete_row),
        cmocka_unit_test(test_rows_by_hand),
        cmocka_unit_test(test_every_class_has_a_row),
        cmocka_unit_test(test_decoded_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
