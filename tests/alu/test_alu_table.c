/* The opcode table: ws_alu_handles is true exactly for the opcodes alu.h
 * lists, each has at least one supported form, and the warp-wide contract
 * (active mask, sinks, rows of 32 lanes) holds. */
#include "alu_test_util.h"

static const ptx_opcode listed[] = {   /* alu.h: "Opcodes handled here" */
    PTX_OP_ABS, PTX_OP_ADD, PTX_OP_ADDC, PTX_OP_AND, PTX_OP_BFE, PTX_OP_BFI, PTX_OP_BFIND,
    PTX_OP_BMSK, PTX_OP_BREV, PTX_OP_CLZ, PTX_OP_CNOT, PTX_OP_COPYSIGN, PTX_OP_COS, PTX_OP_CVT,
    PTX_OP_DIV, PTX_OP_DP4A, PTX_OP_EX2, PTX_OP_FMA, PTX_OP_FNS, PTX_OP_LG2, PTX_OP_LOP3, PTX_OP_MAD, PTX_OP_MAD24,
    PTX_OP_MADC, PTX_OP_MAX, PTX_OP_MIN, PTX_OP_MOV, PTX_OP_MUL, PTX_OP_MUL24, PTX_OP_NEG,
    PTX_OP_NOT, PTX_OP_OR, PTX_OP_POPC, PTX_OP_PRMT, PTX_OP_RCP, PTX_OP_REM, PTX_OP_RSQRT,
    PTX_OP_SAD, PTX_OP_SELP, PTX_OP_SET, PTX_OP_SETP, PTX_OP_SHF, PTX_OP_SHL, PTX_OP_SHR,
    PTX_OP_SIN, PTX_OP_SLCT, PTX_OP_SQRT, PTX_OP_SUB, PTX_OP_SUBC, PTX_OP_TANH, PTX_OP_TESTP,
    PTX_OP_XOR,
};

static bool is_listed(ptx_opcode op)
{
    for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
        if (listed[i] == op)
            return true;
    return false;
}

static void test_handles_exactly_listed(void **s)
{
    (void)s;
    for (int op = 0; op < PTX_OP_COUNT; op++)
        assert_int_equal(ws_alu_handles((ptx_opcode)op), is_listed((ptx_opcode)op));
    assert_false(ws_alu_handles(PTX_OP_LD));
    assert_false(ws_alu_handles(PTX_OP_BRA));
}

/* Searches a small space of modifier combinations for a supported one. */
static bool has_supported_form(ptx_opcode op)
{
    static const int rnds[] = { PTX_RND_NONE, PTX_RND_RN, PTX_RND_RNI };
    static const uint32_t flags[] = { 0, PTX_F_APPROX, PTX_F_LO, PTX_F_WRAP };
    static const uint8_t cmps[] = { PTX_CMP_NONE, PTX_CMP_EQ };
    static const uint8_t subs[] = { PTX_SUB_NONE, PTX_SUB_SHF_L, PTX_SUB_TESTP_FINITE };
    for (int t0 = 1; t0 < PTX_T_COUNT; t0++)
        for (int t1 = 0; t1 < PTX_T_COUNT; t1++)
            for (size_t r = 0; r < 3; r++)
                for (size_t f = 0; f < 4; f++)
                    for (size_t c = 0; c < 2; c++)
                        for (size_t u = 0; u < 3; u++) {
                            ptx_mods m = mods(op, (ptx_type)t0, (ptx_type)t1, rnds[r], flags[f]);
                            m.cmp = cmps[c];
                            m.subop = subs[u];
                            if (ws_alu_supports(&m, NULL, 0))
                                return true;
                        }
    return false;
}

static void test_every_opcode_supported_somewhere(void **s)
{
    (void)s;
    for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
        if (!has_supported_form(listed[i]))
            fail_msg("opcode %d has no supported form", (int)listed[i]);
}

static void test_reasons(void **s)
{
    (void)s;
    char why[128];
    ptx_mods m = mods(PTX_OP_DIV, PTX_T_S32, PTX_T_NONE, PTX_RND_RZ, 0);
    assert_false(ws_alu_supports(&m, why, sizeof why));
    assert_string_equal(why, "div.rz.s32 is not supported");
    m = mods(PTX_OP_LD, PTX_T_U32, PTX_T_NONE, 0, 0);
    assert_false(ws_alu_supports(&m, why, sizeof why));
    assert_string_equal(why, "ld.u32 is not an ALU instruction");
    m = mods(PTX_OP_MUL, PTX_T_S64, PTX_T_NONE, 0, PTX_F_WIDE);
    assert_false(ws_alu_supports(&m, why, sizeof why));
    assert_string_equal(why, "mul.wide.s64 is not supported");
    m = mods(PTX_OP_FMA, PTX_T_S32, PTX_T_NONE, PTX_RND_RN, 0);
    assert_false(ws_alu_supports(&m, why, sizeof why));
    /* a short buffer is truncated, never overrun */
    char tiny[8];
    m = mods(PTX_OP_CVT, PTX_T_F16, PTX_T_F64, PTX_RND_RNI, 0);
    assert_false(ws_alu_supports(&m, tiny, sizeof tiny));
    assert_int_equal(strlen(tiny), 7);
}

static void test_warp_rows(void **s)
{
    (void)s;
    uint64_t a[32], b[32], d[32];
    for (int i = 0; i < 32; i++) {
        a[i] = 0x7FFFFFF0u + (uint64_t)i;
        b[i] = (uint64_t)i;
        d[i] = 0x55;
    }
    ptx_mods m = mods(PTX_OP_ADD, PTX_T_S32, PTX_T_NONE, 0, 0);
    uint64_t *const dst[2] = { d, NULL };
    const uint64_t *const src[4] = { a, b, NULL, NULL };
    ws_alu_exec(&m, 0xAAAAAAAAu, dst, src, NULL);
    for (int i = 0; i < 32; i++) {
        uint64_t want = (i & 1) ? ((0x7FFFFFF0u + 2 * (uint64_t)i) & 0xFFFFFFFFu) : 0x55;
        assert_int_equal(d[i], want);
    }
    /* f32 across lanes with different values, including NaN lanes */
    float fx[32];
    for (int i = 0; i < 32; i++) {
        fx[i] = (float)i * 0.5f;
        a[i] = fb(fx[i]);
        b[i] = i == 3 ? 0x7FC00000 : fb(1.0f);
    }
    m = mods(PTX_OP_MUL, PTX_T_F32, PTX_T_NONE, PTX_RND_RN, 0);
    ws_alu_exec(&m, 0xFFFFFFFFu, dst, src, NULL);
    for (int i = 0; i < 32; i++)
        assert_int_equal(d[i], i == 3 ? 0x7FFFFFFFu : fb(fx[i]));
    /* a sink destination and a setp with only q */
    uint64_t q[32];
    uint64_t *const sinkp[2] = { NULL, q };
    m = mods(PTX_OP_SETP, PTX_T_S32, PTX_T_NONE, 0, 0);
    m.cmp = PTX_CMP_LT;
    for (int i = 0; i < 32; i++) { a[i] = (uint64_t)i; b[i] = 16; q[i] = 9; }
    ws_alu_exec(&m, 0x0000FFFFu, sinkp, src, NULL);
    for (int i = 0; i < 32; i++)
        assert_int_equal(q[i], i < 16 ? 0 : 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handles_exactly_listed),
        cmocka_unit_test(test_every_opcode_supported_somewhere),
        cmocka_unit_test(test_reasons),
        cmocka_unit_test(test_warp_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
