/* f32/f64 arithmetic: rounding modes on cases whose exact value is known,
 * overflow in each mode, .ftz, .sat, NaN rules of min/max, testp.  Quotients
 * are checked against exact rational bounds in integer arithmetic. */
#include "alu_test_util.h"

#define F(op, t, r, f) mods(PTX_OP_##op, PTX_T_##t, PTX_T_NONE, PTX_RND_##r, f)

static const int modes[4] = { PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP };

static void test_add_rounding(void **s)
{
    (void)s;
    /* 1 + 2^-24: exactly half an ulp above 1 */
    static const uint32_t pos[4] = { 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800001 };
    static const uint32_t neg[4] = { 0xBF800000, 0xBF800000, 0xBF800001, 0xBF800000 };
    /* 1 + 3*2^-24: 1.5 ulps, the tie goes to the even 1 + 2 ulps */
    static const uint32_t three[4] = { 0x3F800002, 0x3F800001, 0x3F800001, 0x3F800002 };
    for (int i = 0; i < 4; i++) {
        ptx_mods m = mods(PTX_OP_ADD, PTX_T_F32, PTX_T_NONE, modes[i], 0);
        assert_int_equal(run2(m, 0x3F800000, 0x33800000), pos[i]);
        assert_int_equal(run2(m, 0xBF800000, 0xB3800000), neg[i]);
        assert_int_equal(run2(m, 0x3F800000, 0x34400000), three[i]);
        ptx_mods sub = mods(PTX_OP_SUB, PTX_T_F32, PTX_T_NONE, modes[i], 0);
        assert_int_equal(run2(sub, 0x3F800000, 0xB3800000), pos[i]);
    }
    /* default rounding is .rn */
    assert_int_equal(run2(F(ADD, F32, NONE, 0), 0x3F800000, 0x34400000), 0x3F800002);
    /* an exact zero sum is +0 except in .rm */
    assert_int_equal(run2(F(ADD, F32, RN, 0), 0x3F800000, 0xBF800000), 0);
    assert_int_equal(run2(F(ADD, F32, RM, 0), 0x3F800000, 0xBF800000), 0x80000000u);
}

static void test_mul_fma_rounding(void **s)
{
    (void)s;
    /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 */
    static const uint32_t sq[4] = { 0x3F800002, 0x3F800002, 0x3F800002, 0x3F800003 };
    for (int i = 0; i < 4; i++) {
        ptx_mods m = mods(PTX_OP_MUL, PTX_T_F32, PTX_T_NONE, modes[i], 0);
        assert_int_equal(run2(m, 0x3F800001, 0x3F800001), sq[i]);
        ptx_mods f = mods(PTX_OP_FMA, PTX_T_F32, PTX_T_NONE, modes[i], 0);
        assert_int_equal(run3(f, 0x3F800001, 0x3F800001, 0), sq[i]);
        /* (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46: half an ulp above 2^-22 (even) */
        uint64_t r = run3(f, 0x3F800001, 0x3F800001, 0xBF800000);
        assert_int_equal(r, modes[i] == PTX_RND_RP ? 0x34800001 : 0x34800000);
        /* (1 + 2^-23)(1 - 2^-24) - 1 = 2^-24 - 2^-47 is exact: 0x337FFFFE in every mode */
        assert_int_equal(run3(f, 0x3F800001, 0x3F7FFFFF, 0xBF800000), 0x337FFFFE);
    }
    /* fused: (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly, unlike mul then add */
    assert_int_equal(run3(F(FMA, F32, RN, 0), 0x3F800001, 0x3F7FFFFE, 0xBF800000), 0xA8800000);
    assert_int_equal(run3(F(MAD, F32, RN, 0), 0x3F800001, 0x3F7FFFFE, 0xBF800000), 0xA8800000);
    assert_int_equal(run3(F(FMA, F64, RN, 0), 0x3FF0000000000001ull, 0x3FEFFFFFFFFFFFFEull,
                          0xBFF0000000000000ull), 0xB970000000000000ull);
}

static void test_overflow(void **s)
{
    (void)s;
    uint64_t big = 0x7F000000, four = 0x40800000;   /* 2^127, 4 */
    assert_int_equal(run2(F(MUL, F32, RN, 0), big, four), 0x7F800000);
    assert_int_equal(run2(F(MUL, F32, RZ, 0), big, four), 0x7F7FFFFF);
    assert_int_equal(run2(F(MUL, F32, RM, 0), big, four), 0x7F7FFFFF);
    assert_int_equal(run2(F(MUL, F32, RP, 0), big, four), 0x7F800000);
    assert_int_equal(run2(F(MUL, F32, RM, 0), big | 0x80000000u, four), 0xFF800000);
    assert_int_equal(run2(F(MUL, F32, RP, 0), big | 0x80000000u, four), 0xFF7FFFFF);
    assert_int_equal(run2(F(MUL, F64, RZ, 0), 0x7FE0000000000000ull, 0x4010000000000000ull),
                     0x7FEFFFFFFFFFFFFFull);
}

/* 1/3 and -1/3 as f32 r = m * 2^-25 (m in [2^23, 2^24)); the exact quotient
 * decides where 3m lies relative to 2^25. */
static void test_div_third_f32(void **s)
{
    (void)s;
    for (int i = 0; i < 4; i++) {
        ptx_mods m = mods(PTX_OP_DIV, PTX_T_F32, PTX_T_NONE, modes[i], 0);
        uint32_t r = (uint32_t)run2(m, 0x3F800000, 0x40400000);
        assert_int_equal(r >> 23, 125);
        int64_t mant = (r & 0x7FFFFF) | 0x800000, t = 3 * mant - (1 << 25);
        switch (modes[i]) {
        case PTX_RND_RN: assert_true(2 * (t < 0 ? -t : t) <= 3); break;
        case PTX_RND_RZ: case PTX_RND_RM: assert_true(t < 0 && t + 3 > 0); break;
        default:         assert_true(t > 0 && t - 3 < 0); break;
        }
        uint32_t n = (uint32_t)run2(m, 0xBF800000, 0x40400000);      /* -1/3 */
        int64_t nm = (n & 0x7FFFFF) | 0x800000, nt = 3 * nm - (1 << 25);
        assert_true(n >> 31);
        if (modes[i] == PTX_RND_RM) assert_true(nt > 0 && nt - 3 < 0);
        if (modes[i] == PTX_RND_RP || modes[i] == PTX_RND_RZ) assert_true(nt < 0 && nt + 3 > 0);
    }
}

static void test_div_third_f64(void **s)
{
    (void)s;
    for (int i = 0; i < 4; i++) {
        ptx_mods m = mods(PTX_OP_DIV, PTX_T_F64, PTX_T_NONE, modes[i], 0);
        uint64_t r = run2(m, 0x3FF0000000000000ull, 0x4008000000000000ull);
        assert_int_equal(r >> 52, 1021);        /* in [0.25, 0.5): r = mant * 2^-54 */
        __int128 mant = (r & ((1ull << 52) - 1)) | (1ull << 52);
        __int128 t = 3 * mant - ((__int128)1 << 54);
        switch (modes[i]) {
        case PTX_RND_RN: assert_true(2 * (t < 0 ? -t : t) <= 3); break;
        case PTX_RND_RZ: case PTX_RND_RM: assert_true(t < 0 && t + 3 > 0); break;
        default:         assert_true(t > 0 && t - 3 < 0); break;
        }
    }
    /* 1 + 2^-53 in f64 */
    assert_int_equal(run2(F(ADD, F64, RZ, 0), 0x3FF0000000000000ull, 0x3CA0000000000000ull),
                     0x3FF0000000000000ull);
    assert_int_equal(run2(F(ADD, F64, RP, 0), 0x3FF0000000000000ull, 0x3CA0000000000000ull),
                     0x3FF0000000000001ull);
    assert_int_equal(run2(F(ADD, F64, RN, 0), 0x3FF0000000000000ull, 0x3CA0000000000000ull),
                     0x3FF0000000000000ull);
    assert_int_equal(run2(F(SUB, F64, RM, 0), 0xBFF0000000000000ull, 0x3CA0000000000000ull),
                     0xBFF0000000000001ull);
}

static void test_div_approx_full(void **s)
{
    (void)s;
    /* 2^126 < |b| < 2^128: div.approx gives 0, or NaN for an infinite a */
    assert_int_equal(run2(F(DIV, F32, NONE, PTX_F_APPROX), 0x3F800000, 0x7F000000), 0);
    assert_int_equal(run2(F(DIV, F32, NONE, PTX_F_APPROX), 0x7F800000, 0x7F000000), 0x7FFFFFFF);
    float q = bf(run2(F(DIV, F32, NONE, PTX_F_FULL), fb(1.0f), fb(3.0f)));
    assert_true(fabsl((long double)q - 1.0L / 3.0L) <= 2 * 0x1p-25L);
    q = bf(run2(F(DIV, F32, NONE, PTX_F_APPROX), fb(10.0f), fb(4.0f)));
    assert_true(q == 2.5f);
}

static void test_ftz_sat(void **s)
{
    (void)s;
    assert_int_equal(run2(F(MUL, F32, RN, 0), 0x00800000, 0x3F000000), 0x00400000);  /* 2^-127 */
    assert_int_equal(run2(F(MUL, F32, RN, PTX_F_FTZ), 0x00800000, 0x3F000000), 0);
    assert_int_equal(run2(F(MUL, F32, RN, PTX_F_FTZ), 0x80800000, 0x3F000000), 0x80000000u);
    assert_int_equal(run2(F(ADD, F32, RN, 0), 0x00000001, 0), 0x00000001);
    assert_int_equal(run2(F(ADD, F32, RN, PTX_F_FTZ), 0x00000001, 0), 0);
    assert_int_equal(run2(F(ADD, F32, RZ, PTX_F_FTZ), 0x80000001, 0x80000000u), 0x80000000u);
    /* a subnormal input flushed before the multiply: 2^-149 * 2^100 would be 2^-49 */
    assert_int_equal(run2(F(MUL, F32, RN, PTX_F_FTZ), 0x00000001, 0x71800000), 0);
    assert_int_equal(run2(F(MUL, F32, RN, 0), 0x00000001, 0x71800000), 0x27000000);
    assert_int_equal(run2(F(ADD, F32, RN, PTX_F_SAT), fb(0.75f), fb(0.5f)), 0x3F800000);
    assert_int_equal(run2(F(ADD, F32, RN, PTX_F_SAT), fb(-2.0f), fb(1.0f)), 0);
    assert_int_equal(run2(F(ADD, F32, RN, PTX_F_SAT), fb(0.25f), fb(0.5f)), fb(0.75f));
    assert_int_equal(run2(F(ADD, F32, RN, PTX_F_SAT), 0x7F800000, 0xFF800000), 0);      /* NaN -> 0 */
    assert_int_equal(run3(F(FMA, F32, RZ, PTX_F_SAT), fb(2.0f), fb(2.0f), 0), 0x3F800000);
}

static void test_nan(void **s)
{
    (void)s;
    assert_int_equal(run2(F(ADD, F32, RN, 0), 0x7FC00001, fb(1.0f)), 0x7FFFFFFF);
    assert_int_equal(run2(F(ADD, F32, RN, 0), 0x7F800000, 0xFF800000), 0x7FFFFFFF);
    assert_int_equal(run2(F(MUL, F32, RZ, 0), 0, 0x7F800000), 0x7FFFFFFF);
    assert_int_equal(run3(F(FMA, F32, RN, 0), 0xFFC00000, fb(1.0f), 0), 0x7FFFFFFF);
    assert_int_equal(run2(F(DIV, F32, RN, 0), 0, 0), 0x7FFFFFFF);
    assert_true(isnan(bd(run2(F(ADD, F64, RN, 0), db(INFINITY), db(-INFINITY)))));
    assert_true(isnan(bd(run2(F(ADD, F64, RZ, 0), db(INFINITY), db(-INFINITY)))));
}

static void test_minmax(void **s)
{
    (void)s;
    uint64_t nan = 0x7FC00000, one = fb(1.0f);
    assert_int_equal(run2(F(MIN, F32, NONE, 0), nan, one), one);
    assert_int_equal(run2(F(MAX, F32, NONE, 0), one, nan), one);
    assert_int_equal(run2(F(MIN, F32, NONE, 0), nan, 0xFFC00001), 0x7FFFFFFF);
    assert_int_equal(run2(F(MIN, F32, NONE, PTX_F_NAN), nan, one), 0x7FFFFFFF);
    assert_int_equal(run2(F(MAX, F32, NONE, PTX_F_NAN), one, nan), 0x7FFFFFFF);
    assert_int_equal(run2(F(MIN, F32, NONE, 0), 0x80000000u, 0), 0x80000000u);
    assert_int_equal(run2(F(MIN, F32, NONE, 0), 0, 0x80000000u), 0x80000000u);
    assert_int_equal(run2(F(MAX, F32, NONE, 0), 0x80000000u, 0), 0);
    assert_int_equal(run2(F(MAX, F32, NONE, 0), 0, 0x80000000u), 0);
    assert_int_equal(run2(F(MIN, F32, NONE, 0), fb(-1.0f), fb(2.0f)), fb(-1.0f));
    assert_int_equal(run2(F(MAX, F32, NONE, 0), fb(-1.0f), 0xFF800000), fb(-1.0f));
    assert_int_equal(run2(F(MIN, F32, NONE, PTX_F_FTZ), 0x00000005, 0x00000003), 0);
    assert_int_equal(run2(F(MIN, F64, NONE, 0), db(NAN), db(-3.0)), db(-3.0));
    assert_int_equal(run2(F(MAX, F64, NONE, 0), db(-0.0), db(0.0)), 0);
}

static void test_misc(void **s)
{
    (void)s;
    assert_int_equal(run1(F(ABS, F32, NONE, 0), 0x80000000u), 0);
    assert_int_equal(run1(F(ABS, F32, NONE, 0), fb(-2.5f)), fb(2.5f));
    assert_int_equal(run1(F(NEG, F32, NONE, 0), 0), 0x80000000u);
    assert_int_equal(run1(F(ABS, F32, NONE, PTX_F_FTZ), 0x80000001), 0);
    assert_int_equal(run1(F(NEG, F64, NONE, 0), db(1.5)), db(-1.5));
    /* copysign d, a, b: the magnitude of b with the sign of a */
    assert_int_equal(run2(F(COPYSIGN, F32, NONE, 0), fb(-1.0f), fb(2.0f)), fb(-2.0f));
    assert_int_equal(run2(F(COPYSIGN, F64, NONE, 0), db(0.0), db(-3.0)), db(3.0));
    struct { int sub; uint32_t v; uint64_t want; } tp[] = {
        { PTX_SUB_TESTP_FINITE, 0x7F800000, 0 }, { PTX_SUB_TESTP_FINITE, 0x00000001, 1 },
        { PTX_SUB_TESTP_INFINITE, 0xFF800000, 1 }, { PTX_SUB_TESTP_INFINITE, 0x7FC00000, 0 },
        { PTX_SUB_TESTP_NUMBER, 0x7FC00000, 0 }, { PTX_SUB_TESTP_NUMBER, 0xFF800000, 1 },
        { PTX_SUB_TESTP_NOTANUMBER, 0x7F800001, 1 }, { PTX_SUB_TESTP_NOTANUMBER, 0, 0 },
        { PTX_SUB_TESTP_NORMAL, 0x00000001, 0 }, { PTX_SUB_TESTP_NORMAL, 0, 0 },
        { PTX_SUB_TESTP_NORMAL, 0x00800000, 1 }, { PTX_SUB_TESTP_SUBNORMAL, 0x807FFFFF, 1 },
        { PTX_SUB_TESTP_SUBNORMAL, 0, 0 }, { PTX_SUB_TESTP_SUBNORMAL, 0x00800000, 0 },
    };
    for (size_t i = 0; i < sizeof tp / sizeof tp[0]; i++) {
        ptx_mods m = F(TESTP, F32, NONE, 0);
        m.subop = (uint8_t)tp[i].sub;
        assert_int_equal(run1(m, tp[i].v), tp[i].want);
    }
    ptx_mods m = F(TESTP, F64, NONE, 0);
    m.subop = PTX_SUB_TESTP_SUBNORMAL;
    assert_int_equal(run1(m, 1), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_rounding),
        cmocka_unit_test(test_mul_fma_rounding),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_div_third_f32),
        cmocka_unit_test(test_div_third_f64),
        cmocka_unit_test(test_div_approx_full),
        cmocka_unit_test(test_ftz_sat),
        cmocka_unit_test(test_nan),
        cmocka_unit_test(test_minmax),
        cmocka_unit_test(test_misc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
