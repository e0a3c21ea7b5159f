/* setp (every comparison, ordered and unordered, predicate combination
 * with the p|q pair), set, selp, slct. */
#include "alu_test_util.h"

static ptx_mods setp(ptx_type t, int cmp, int bop, uint32_t f)
{
    ptx_mods m = mods(PTX_OP_SETP, t, PTX_T_NONE, 0, f);
    m.cmp = (uint8_t)cmp;
    m.boolop = (uint8_t)bop;
    return m;
}

static uint64_t sp(ptx_type t, int cmp, uint64_t a, uint64_t b)
{
    return run2(setp(t, cmp, 0, 0), a, b);
}

static void test_int_compares_all(void **s)
{
    (void)s;
    struct { int cmp; uint64_t want_s, want_u; } t[] = {   /* a = -1 (0xFFFFFFFF), b = 1 */
        { PTX_CMP_EQ, 0, 0 }, { PTX_CMP_NE, 1, 1 }, { PTX_CMP_LT, 1, 0 }, { PTX_CMP_LE, 1, 0 },
        { PTX_CMP_GT, 0, 1 }, { PTX_CMP_GE, 0, 1 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        assert_int_equal(sp(PTX_T_S32, t[i].cmp, 0xFFFFFFFF, 1), t[i].want_s);
        assert_int_equal(sp(PTX_T_U32, t[i].cmp, 0xFFFFFFFF, 1), t[i].want_u);
        assert_int_equal(sp(PTX_T_S64, t[i].cmp, ~0ull, 1), t[i].want_s);
        assert_int_equal(sp(PTX_T_S16, t[i].cmp, 0xFFFF, 1), t[i].want_s);
    }
    assert_int_equal(sp(PTX_T_U32, PTX_CMP_LO, 1, 2), 1);
    assert_int_equal(sp(PTX_T_U32, PTX_CMP_LS, 2, 2), 1);
    assert_int_equal(sp(PTX_T_U32, PTX_CMP_HI, 0xFFFFFFFF, 2), 1);
    assert_int_equal(sp(PTX_T_U64, PTX_CMP_HS, 1, 2), 0);
    assert_int_equal(sp(PTX_T_B32, PTX_CMP_EQ, 5, 5), 1);
}

static void test_float_compares(void **s)
{
    (void)s;
    uint64_t nan = 0x7FC00000, one = fb(1.0f), two = fb(2.0f);
    struct { int cmp; uint64_t lt, eq, un; } t[] = {   /* (1,2), (2,2), (NaN,2) */
        { PTX_CMP_EQ, 0, 1, 0 }, { PTX_CMP_NE, 1, 0, 0 }, { PTX_CMP_LT, 1, 0, 0 },
        { PTX_CMP_LE, 1, 1, 0 }, { PTX_CMP_GT, 0, 0, 0 }, { PTX_CMP_GE, 0, 1, 0 },
        { PTX_CMP_EQU, 0, 1, 1 }, { PTX_CMP_NEU, 1, 0, 1 }, { PTX_CMP_LTU, 1, 0, 1 },
        { PTX_CMP_LEU, 1, 1, 1 }, { PTX_CMP_GTU, 0, 0, 1 }, { PTX_CMP_GEU, 0, 1, 1 },
        { PTX_CMP_NUM, 1, 1, 0 }, { PTX_CMP_NAN, 0, 0, 1 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        assert_int_equal(sp(PTX_T_F32, t[i].cmp, one, two), t[i].lt);
        assert_int_equal(sp(PTX_T_F32, t[i].cmp, two, two), t[i].eq);
        assert_int_equal(sp(PTX_T_F32, t[i].cmp, nan, two), t[i].un);
        assert_int_equal(sp(PTX_T_F64, t[i].cmp, db(1.0), db(2.0)), t[i].lt);
        assert_int_equal(sp(PTX_T_F64, t[i].cmp, db(2.0), db(NAN)), t[i].un);
        assert_int_equal(sp(PTX_T_F16, t[i].cmp, 0x3C00, 0x4000), t[i].lt);
        assert_int_equal(sp(PTX_T_F16, t[i].cmp, 0x7E00, 0x4000), t[i].un);
        assert_int_equal(sp(PTX_T_BF16, t[i].cmp, 0x3F80, 0x4000), t[i].lt);
    }
    assert_int_equal(sp(PTX_T_F32, PTX_CMP_EQ, 0x80000000u, 0), 1);    /* -0 == +0 */
    /* .ftz: a subnormal compares equal to zero */
    assert_int_equal(run2(setp(PTX_T_F32, PTX_CMP_EQ, 0, PTX_F_FTZ), 0x00000001, 0), 1);
    assert_int_equal(run2(setp(PTX_T_F32, PTX_CMP_EQ, 0, 0), 0x00000001, 0), 0);
}

static void test_combine(void **s)
{
    (void)s;
    /* p = (a cmp b) OP c; q = !(a cmp b) OP c */
    struct { int bop; uint64_t c, p, q; } t[] = {   /* a < b is true */
        { PTX_BOOL_AND, 1, 1, 0 }, { PTX_BOOL_AND, 0, 0, 0 },
        { PTX_BOOL_OR, 0, 1, 0 },  { PTX_BOOL_OR, 1, 1, 1 },
        { PTX_BOOL_XOR, 1, 0, 1 }, { PTX_BOOL_XOR, 0, 1, 0 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ptx_mods m = setp(PTX_T_S32, PTX_CMP_LT, t[i].bop, 0);
        uint64_t q = 0;
        assert_int_equal(run_lane(&m, 1, 2, t[i].c, 0, &q, NULL), t[i].p);
        assert_int_equal(q, t[i].q);
    }
    ptx_mods m = setp(PTX_T_S32, PTX_CMP_GT, 0, 0);
    uint64_t q = 7;
    assert_int_equal(run_lane(&m, 1, 2, 0, 0, &q, NULL), 0);
    assert_int_equal(q, 1);
    /* f16x2: p from the low halves, q from the high halves */
    ptx_mods h = setp(PTX_T_F16X2, PTX_CMP_LT, 0, 0);
    q = 7;
    assert_int_equal(run_lane(&h, 0x40003C00, 0x3C004000, 0, 0, &q, NULL), 1);  /* lo 1<2, hi 2<1 */
    assert_int_equal(q, 0);
}

static void test_set_selp_slct(void **s)
{
    (void)s;
    ptx_mods m = mods(PTX_OP_SET, PTX_T_U32, PTX_T_S32, 0, 0);
    m.cmp = PTX_CMP_LT;
    assert_int_equal(run2(m, 0xFFFFFFFF, 0), 0xFFFFFFFF);
    assert_int_equal(run2(m, 0, 0xFFFFFFFF), 0);
    m.types[0] = PTX_T_F32;
    assert_int_equal(run2(m, 0xFFFFFFFF, 0), 0x3F800000);
    m.boolop = PTX_BOOL_AND;
    assert_int_equal(run3(m, 0xFFFFFFFF, 0, 0), 0);
    m = mods(PTX_OP_SET, PTX_T_S32, PTX_T_F32, 0, 0);
    m.cmp = PTX_CMP_NAN;
    assert_int_equal(run2(m, 0x7FC00000, 0), 0xFFFFFFFF);

    assert_int_equal(run3(mods(PTX_OP_SELP, PTX_T_B32, PTX_T_NONE, 0, 0), 10, 20, 1), 10);
    assert_int_equal(run3(mods(PTX_OP_SELP, PTX_T_F64, PTX_T_NONE, 0, 0), 10, 20, 0), 20);

    ptx_mods si = mods(PTX_OP_SLCT, PTX_T_B32, PTX_T_S32, 0, 0);
    assert_int_equal(run3(si, 10, 20, 0), 10);
    assert_int_equal(run3(si, 10, 20, 0xFFFFFFFF), 20);
    ptx_mods sf = mods(PTX_OP_SLCT, PTX_T_F32, PTX_T_F32, 0, 0);
    assert_int_equal(run3(sf, 10, 20, 0x80000000u), 10);     /* -0 >= 0 */
    assert_int_equal(run3(sf, 10, 20, 0x7FC00000), 20);      /* NaN */
    assert_int_equal(run3(sf, 10, 20, 0x80000001), 20);      /* negative subnormal */
    sf.flags = PTX_F_FTZ;
    assert_int_equal(run3(sf, 10, 20, 0x80000001), 10);      /* flushed to -0 */
}

static void test_cmp_rejects(void **s)
{
    (void)s;
    assert_true(unsupported(setp(PTX_T_S32, PTX_CMP_LO, 0, 0), "setp.lo.s32 is not supported"));
    assert_true(unsupported(setp(PTX_T_F32, PTX_CMP_HI, 0, 0), NULL));
    assert_true(unsupported(setp(PTX_T_S32, PTX_CMP_EQU, 0, 0), NULL));
    assert_true(unsupported(setp(PTX_T_S32, PTX_CMP_EQ, 0, PTX_F_FTZ), NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_compares_all),
        cmocka_unit_test(test_float_compares),
        cmocka_unit_test(test_combine),
        cmocka_unit_test(test_set_selp_slct),
        cmocka_unit_test(test_cmp_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
