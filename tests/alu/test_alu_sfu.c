/* rcp and sqrt in every IEEE rounding mode, checked by bracketing the exact
 * value with integer or long double arithmetic (exact at these widths);
 * the .approx functions against libm in long double within the PTX ISA's
 * stated bounds; special values from the PTX ISA tables. */
#include "alu_test_util.h"

#define S(op, t, r, f) mods(PTX_OP_##op, PTX_T_##t, PTX_T_NONE, PTX_RND_##r, f)

static const int modes[4] = { PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP };

static uint32_t lcg(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*st >> 33);
}

/* Positive normal f32 inputs spread over the exponent range. */
static float sample(uint64_t *st)
{
    uint32_t u = (lcg(st) & 0x007FFFFF) | ((60 + lcg(st) % 134) << 23);
    return bf(u);
}

static long double ulp32(float r) { return ldexpl(1.0L, ilogbf(r) - 23); }

static void test_sqrt_rcp_f32(void **s)
{
    (void)s;
    uint64_t st = 12345;
    for (int n = 0; n < 2000; n++) {
        float x = sample(&st);
        for (int i = 0; i < 4; i++) {
            /* (r +- ulp/2)^2 and r*x need at most 50 bits: exact in long double */
            float r = bf(run1(mods(PTX_OP_SQRT, PTX_T_F32, PTX_T_NONE, modes[i], 0), fb(x)));
            long double u = ulp32(r), lo, hi, X = x;
            switch (modes[i]) {
            case PTX_RND_RN: lo = r - u / 2; hi = r + u / 2; break;
            case PTX_RND_RP: lo = r - u; hi = r; break;
            default:         lo = r; hi = r + u; break;
            }
            assert_true(lo * lo <= X && X <= hi * hi);
            if (modes[i] != PTX_RND_RN && r * (long double)r == X) continue;
            if (modes[i] == PTX_RND_RP) assert_true(lo * lo < X);
            if (modes[i] == PTX_RND_RZ || modes[i] == PTX_RND_RM) assert_true(X < hi * hi);

            float q = bf(run1(mods(PTX_OP_RCP, PTX_T_F32, PTX_T_NONE, modes[i], 0), fb(x)));
            if (q == 0 || isinf(q) || fabsf(q) < 0x1p-126f) continue;
            long double v = ulp32(q);
            switch (modes[i]) {
            case PTX_RND_RN: assert_true((q - v / 2) * X <= 1 && 1 <= (q + v / 2) * X); break;
            case PTX_RND_RP: assert_true((q - v) * X < 1 && 1 <= q * X); break;
            default:         assert_true(q * X <= 1 && 1 < (q + v) * X); break;
            }
        }
    }
}

/* f64 sqrt of x in [1, 4): x = mx * 2^-52, r = mr * 2^-52 in [1, 2); the
 * bracket (2mr -+ 1)^2 vs 4 * mx * 2^52 is exact in 128-bit integers. */
static void test_sqrt_f64(void **s)
{
    (void)s;
    uint64_t st = 777;
    typedef unsigned __int128 u128;
    for (int n = 0; n < 2000; n++) {
        uint64_t mx = ((uint64_t)lcg(&st) << 32 | lcg(&st)) % (3ull << 52) + (1ull << 52);
        double x = ldexp((double)mx, -52);
        mx = (uint64_t)ldexp(x, 52);    /* x above 2 keeps only 53 bits of mx */
        for (int i = 0; i < 4; i++) {
            double r = bd(run1(mods(PTX_OP_SQRT, PTX_T_F64, PTX_T_NONE, modes[i], 0), db(x)));
            u128 mr = (u128)ldexp(r, 52), X = (u128)mx << 52;     /* x * 2^104 */
            switch (modes[i]) {
            case PTX_RND_RN:
                assert_true((2 * mr - 1) * (2 * mr - 1) <= 4 * X && 4 * X <= (2 * mr + 1) * (2 * mr + 1));
                break;
            case PTX_RND_RP: assert_true((mr - 1) * (mr - 1) < X && X <= mr * mr); break;
            default:         assert_true(mr * mr <= X && X < (mr + 1) * (mr + 1)); break;
            }
        }
    }
    /* rcp.f64 of 3 in each mode: r = m * 2^-54, 3m against 2^54 */
    for (int i = 0; i < 4; i++) {
        uint64_t r = run1(mods(PTX_OP_RCP, PTX_T_F64, PTX_T_NONE, modes[i], 0), db(3.0));
        __int128 t = 3 * (__int128)((r & ((1ull << 52) - 1)) | (1ull << 52)) - ((__int128)1 << 54);
        if (modes[i] == PTX_RND_RP) assert_true(t > 0 && t < 3);
        else assert_true(t < 0 && t > -3);          /* RN, RZ, RM all round down here */
    }
}

static void test_special(void **s)
{
    (void)s;
    assert_int_equal(run1(S(SQRT, F32, RN, 0), fb(-1.0f)), 0x7FFFFFFF);
    assert_int_equal(run1(S(SQRT, F32, RN, 0), 0x80000000u), 0x80000000u);
    assert_int_equal(run1(S(SQRT, F32, RZ, 0), 0x7F800000), 0x7F800000);
    assert_int_equal(run1(S(RCP, F32, RN, 0), 0x80000000u), 0xFF800000);
    assert_int_equal(run1(S(RCP, F32, RZ, 0), 0x7F800000), 0);
    assert_int_equal(run1(S(RCP, F32, RN, PTX_F_FTZ), 0x00000010), 0x7F800000);
    /* 1 / 2^127 = 2^-127 is subnormal: kept, or flushed with .ftz */
    assert_int_equal(run1(S(RCP, F32, RN, 0), 0x7F000000), 0x00400000);
    assert_int_equal(run1(S(RCP, F32, RN, PTX_F_FTZ), 0x7F000000), 0);
    assert_int_equal(run1(S(RSQRT, F32, NONE, PTX_F_APPROX), 0x80000000u), 0xFF800000);
    assert_int_equal(run1(S(RSQRT, F32, NONE, PTX_F_APPROX), 0x7F800000), 0);
    assert_int_equal(run1(S(RSQRT, F32, NONE, PTX_F_APPROX), fb(-4.0f)), 0x7FFFFFFF);
    assert_int_equal(run1(S(EX2, F32, NONE, PTX_F_APPROX), 0xFF800000), 0);
    assert_int_equal(run1(S(EX2, F32, NONE, PTX_F_APPROX), 0x7F800000), 0x7F800000);
    assert_int_equal(run1(S(EX2, F32, NONE, PTX_F_APPROX), fb(3.0f)), fb(8.0f));
    assert_int_equal(run1(S(EX2, F32, NONE, PTX_F_APPROX | PTX_F_FTZ), fb(-140.0f)), 0);
    assert_int_equal(run1(S(LG2, F32, NONE, PTX_F_APPROX), 0), 0xFF800000);
    assert_int_equal(run1(S(LG2, F32, NONE, PTX_F_APPROX), fb(-1.0f)), 0x7FFFFFFF);
    assert_int_equal(run1(S(LG2, F32, NONE, PTX_F_APPROX), fb(8.0f)), fb(3.0f));
    assert_int_equal(run1(S(SIN, F32, NONE, PTX_F_APPROX), 0x7F800000), 0x7FFFFFFF);
    assert_int_equal(run1(S(SIN, F32, NONE, PTX_F_APPROX), 0x80000000u), 0x80000000u);
    assert_int_equal(run1(S(COS, F32, NONE, PTX_F_APPROX), 0), fb(1.0f));
    assert_int_equal(run1(S(TANH, F32, NONE, PTX_F_APPROX), 0x7F800000), fb(1.0f));
    assert_int_equal(run1(S(EX2, F16, NONE, PTX_F_APPROX), 0x4200), 0x4800);       /* 2^3 = 8 */
    assert_int_equal(run1(S(EX2, F16X2, NONE, PTX_F_APPROX), 0x3C004000), 0x40004400);
    assert_int_equal(run1(S(TANH, F16, NONE, PTX_F_APPROX), 0xFC00), 0xBC00);
    assert_int_equal(run1(S(RCP, F64, NONE, PTX_F_APPROX | PTX_F_FTZ), db(4.0)), db(0.25));
    assert_int_equal(run1(S(RCP, F64, NONE, PTX_F_APPROX | PTX_F_FTZ), 1), db(INFINITY));
}

static long double rel(long double got, long double want) { return fabsl(got - want) / fabsl(want); }

static void test_approx_bounds(void **s)
{
    (void)s;
    uint64_t st = 99;
    for (int n = 0; n < 3000; n++) {
        float x = ldexpf((float)(lcg(&st) % 2000001) / 1000000.0f - 1.0f, 0) * 3.1415926f;
        float y = (float)(lcg(&st) % 2000001) / 20000.0f - 50.0f;          /* [-50, 50] */
        float z = sample(&st);
        long double r;
        r = bf(run1(S(SIN, F32, NONE, PTX_F_APPROX), fb(x)));
        assert_true(fabsl(r - sinl(x)) <= exp2l(-20.9L));
        r = bf(run1(S(COS, F32, NONE, PTX_F_APPROX), fb(x)));
        assert_true(fabsl(r - cosl(x)) <= exp2l(-20.9L));
        r = bf(run1(S(EX2, F32, NONE, PTX_F_APPROX), fb(y)));
        assert_true(fabsl(r - exp2l(y)) <= 2 * ulp32((float)exp2l(y)));
        r = bf(run1(S(LG2, F32, NONE, PTX_F_APPROX), fb(z)));
        /* 2^-22.6 absolute, or half an ulp of the result where that is larger */
        assert_true(fabsl(r - log2l(z)) <= fmaxl(exp2l(-22.6L), ulp32((float)r) / 2));
        r = bf(run1(S(RSQRT, F32, NONE, PTX_F_APPROX), fb(z)));
        assert_true(rel(r, 1.0L / sqrtl(z)) <= exp2l(-22.9L));
        r = bf(run1(S(RCP, F32, NONE, PTX_F_APPROX), fb(z)));
        if (z < 0x1p125f) assert_true(rel(r, 1.0L / z) <= 0x1p-23L);
        r = bf(run1(S(SQRT, F32, NONE, PTX_F_APPROX), fb(z)));
        assert_true(rel(r, sqrtl(z)) <= 0x1p-23L);
        if (y != 0) {
            r = bf(run1(S(TANH, F32, NONE, PTX_F_APPROX), fb(y / 10)));
            assert_true(rel(r, tanhl(y / 10)) <= exp2l(-10.987L));
        }
        r = bd(run1(S(RSQRT, F64, NONE, PTX_F_APPROX), db(z)));
        assert_true(rel(r, 1.0L / sqrtl(z)) <= 0x1p-40L);
    }
}

static void test_sfu_rejects(void **s)
{
    (void)s;
    assert_true(unsupported(S(SQRT, F64, NONE, PTX_F_APPROX), "sqrt.approx.f64 is not supported"));
    assert_true(unsupported(S(SIN, F32, RN, 0), NULL));
    assert_true(unsupported(S(EX2, F64, NONE, PTX_F_APPROX), NULL));
    assert_true(unsupported(S(RCP, F32, NONE, 0), NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sqrt_rcp_f32),
        cmocka_unit_test(test_sqrt_f64),
        cmocka_unit_test(test_special),
        cmocka_unit_test(test_approx_bounds),
        cmocka_unit_test(test_sfu_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
